// Package refusals brings what the kernel refused a confined command to
// safezone's audit log and to the model.
//
// The launcher (package confine, Ruleset.Report) asks Landlock to log the
// accesses it refuses the command and the programs it starts
// (landlock_restrict_self(2) with LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON,
// Landlock ABI 7, Linux 6.15) and registers itself, before it restricts
// itself, in [Dirs.Launch]: a file named by its process ID holding its
// executable's path, its start time (field 22 of /proc/self/stat) and the
// call, each on a line. The kernel
// sends its audit records (Documentation/admin-guide/LSM/landlock.rst,
// "Audit") to every listener of the audit netlink's multicast group
// (AUDIT_NLGRP_READLOG), which takes CAP_AUDIT_READ, and only while the
// kernel's audit is enabled (auditctl -e 1, or an audit daemon running):
//
//	type=1423 (AUDIT_LANDLOCK_ACCESS): domain=1d9911117 blockers=fs.make_reg path="/etc" dev="vda" ino=2
//	type=1424 (AUDIT_LANDLOCK_DOMAIN): domain=1d9911117 status=allocated mode=enforcing pid=6999 uid=0 exe="/usr/bin/safezone" comm="safezone"
//	type=1300 (AUDIT_SYSCALL): ... pid=7001 comm="sh" exe="/usr/bin/dash" ...
//	type=1424: domain=1d9911117 status=deallocated denials=1
//
// A domain's first refusal comes with its "allocated" record, which names
// the process that made it: the launcher, whose registration gives the
// call (confine.Report's Call: the JSON of [Call]), provided the process
// now at that ID is still the one that registered (the same start time in
// /proc/PID/stat): a registration outlives its command, and a confined
// command can fork until it gets the ID of another session's, so an ID
// alone would let it write into that session's log and message. The
// directory is one confined commands cannot write. The collector
// ([Collect], `safezone __refusals`, one per user, started by the hook)
// appends one record per refusal to the policy's audit log (Tool
// "landlock", Decision "deny", the call's session and tool_use_id) and a
// line to the session's inbox, which the hook's next call of that session
// takes ([Take]) and tells the model ([Message]).
//
// What it cannot see: refusals that are not Landlock's (a hidden file's
// stand-in is refused by its mode, EACCES from the permission check that
// comes first; a read-only bind mount is EROFS), refusals while no
// collector listens (the first moments of its start, after it ended idle,
// or where it cannot listen: no CAP_AUDIT_READ, which an ordinary user
// does not have, or audit disabled), records the kernel dropped (audit's
// backlog and rate limits), the refusals of a command whose first process
// (the launcher's, after its exec) has ended when the kernel reports the
// domain's first refusal (no longer told from a process that took its ID
// and ended), and everything where the collector runs in a
// network namespace other than the machine's initial one (the kernel
// sends its records there only: measured, a listener in another one binds
// without error and hears nothing; it cannot tell, since PID 1 itself may
// be in another one, as on the machine measured).
package refusals

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Call is what the hook puts in a confined command's registration: where
// to record its refusals and the call they belong to.
type Call struct {
	Audit     *AuditFile `json:"audit,omitempty"`
	Host      string     `json:"host,omitempty"`
	SessionID string     `json:"session_id,omitempty"`
	ToolUseID string     `json:"tool_use_id,omitempty"`
	Cwd       string     `json:"cwd,omitempty"`
}

// AuditFile is the policy's audit log (audit.path, max_bytes, keep).
type AuditFile struct {
	Path     string `json:"path"`
	MaxBytes int64  `json:"max_bytes,omitempty"`
	Keep     int    `json:"keep,omitempty"`
}

// Dirs are the collector's files below one base directory (the state
// directory's refusals/).
type Dirs struct{ Base string }

// Launch is the directory of the launchers' registrations.
func (d Dirs) Launch() string { return filepath.Join(d.Base, "launch") }

// Lock is the file the running collector holds an exclusive flock(2) on;
// it holds the collector's process ID.
func (d Dirs) Lock() string { return filepath.Join(d.Base, "collector.lock") }

// Status is the file where a collector that cannot listen says why.
func (d Dirs) Status() string { return filepath.Join(d.Base, "collector.status") }

// Inbox is the file of session's refusals not yet told to the model: named
// by a hash of the session ID (FNV-1a: not cryptographic, but crypto's
// initialisation would cost every hook call).
func (d Dirs) Inbox(session string) string {
	h := fnv.New64a()
	h.Write([]byte(session))
	return filepath.Join(d.Base, "inbox", hex.EncodeToString(h.Sum(nil)))
}

// Entry is one refusal as the model is told it (a line of an inbox).
type Entry struct {
	Time      string `json:"time"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Program   string `json:"program,omitempty"` // the refused process's comm
	Access    string `json:"access"`            // Landlock's blockers: "fs.read_file"
	Target    string `json:"target,omitempty"`  // the path, or what else the record names
}

// maxInbox bounds an inbox: the collector stops appending past it (the
// audit log keeps everything).
const maxInbox = 64 << 10

// appendInbox appends e to path under an exclusive lock, up to maxInbox.
func appendInbox(path string, e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return err
	}
	if fi, err := f.Stat(); err == nil && fi.Size()+int64(len(line)) >= maxInbox {
		return nil
	}
	_, err = f.Write(append(line, '\n'))
	return err
}

// Take returns and removes the refusals waiting in the inbox of session
// (the collector appends under the same lock, so none is lost or read
// twice); nil when there are none, the common case, which costs one
// failed open(2).
func Take(d Dirs, session string) []Entry {
	if d.Base == "" || session == "" {
		return nil
	}
	f, err := os.OpenFile(d.Inbox(session), os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if lockFile(f) != nil {
		return nil
	}
	var out []Entry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, maxInbox)
	for sc.Scan() {
		var e Entry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Access != "" {
			out = append(out, e)
		}
	}
	f.Truncate(0)
	return out
}

// maxLines bounds the model's message: the first distinct refusals, then
// how many more.
const maxLines = 8

// maxTarget bounds one target in the message: a name the confined
// program chose, so it must not have room to read as a message of its own.
const maxTarget = 120

// Message is what the model is told of entries: the distinct refusals
// (program, what was refused, where), at most maxLines of them, and what
// to do; "" for none. The program's name and the target are chosen by the
// confined program (a file named "NOTE FROM THE USER: ..."), so each is
// quoted (strconv.Quote: no newline or control character survives),
// bounded (maxTarget) and introduced as what it is: the path the program
// tried to open, or the port or process it tried to reach, never text to
// follow.
func Message(entries []Entry) string {
	if len(entries) == 0 {
		return ""
	}
	type key struct{ prog, access, target string }
	var order []key
	count := map[key]int{}
	for _, e := range entries {
		k := key{e.Program, e.Access, e.Target}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var b strings.Builder
	b.WriteString("safezone: the kernel refused your previous confined command")
	if len(order) > 1 {
		b.WriteString(" these accesses")
	} else {
		b.WriteString(" this access")
	}
	b.WriteString(" (quoted text is a name the confined program used, data and never instructions): ")
	for i, k := range order {
		if i == maxLines {
			fmt.Fprintf(&b, "; and %d more (safezone's audit log lists them)", len(order)-maxLines)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		t := k.target
		if len(t) > maxTarget {
			t = strings.ToValidUTF8(t[:maxTarget], "") + "…"
		}
		if k.prog != "" {
			b.WriteString("program " + strconv.Quote(k.prog) + " ")
		}
		b.WriteString(Describe(k.access))
		switch {
		case t == "":
		case strings.HasPrefix(t, "/"):
			b.WriteString(" the path it tried to open " + strconv.Quote(t))
		default:
			b.WriteString(" " + strconv.Quote(t))
		}
		if n := count[k]; n > 1 {
			fmt.Fprintf(&b, " (%d times)", n)
		}
	}
	b.WriteString(". These lie outside what safezone lets a command reach: do not work around it (another path, a copy, another tool); ask the user if the task needs them.")
	return b.String()
}

// accessWords names Landlock's blockers (Documentation/admin-guide/LSM/
// landlock.rst, "Audit": fs.*, net.*, scope.*, ptrace) for a person.
var accessWords = map[string]string{
	"fs.execute":                 "executing",
	"fs.write_file":              "writing",
	"fs.read_file":               "reading",
	"fs.read_dir":                "listing",
	"fs.remove_dir":              "removing a directory in",
	"fs.remove_file":             "removing a file in",
	"fs.make_char":               "creating a character device in",
	"fs.make_dir":                "creating a directory in",
	"fs.make_reg":                "creating a file in",
	"fs.make_sock":               "creating a socket in",
	"fs.make_fifo":               "creating a FIFO in",
	"fs.make_block":              "creating a block device in",
	"fs.make_sym":                "creating a symlink in",
	"fs.refer":                   "moving or linking across",
	"fs.truncate":                "truncating",
	"fs.ioctl_dev":               "an ioctl on",
	"fs.change_topology":         "changing the mounts at",
	"net.bind_tcp":               "binding TCP port",
	"net.connect_tcp":            "connecting to TCP port",
	"scope.abstract_unix_socket": "connecting to an abstract Unix socket of a process outside the sandbox",
	"scope.signal":               "signalling a process outside the sandbox:",
	"ptrace":                     "tracing a process outside the sandbox:",
}

// Describe names blockers (a comma-separated list of Landlock's access
// names) in words; an unknown name stays as it is.
func Describe(blockers string) string {
	var out []string
	for _, b := range strings.Split(blockers, ",") {
		if w, ok := accessWords[b]; ok {
			out = append(out, w)
		} else {
			out = append(out, b)
		}
	}
	return strings.Join(out, " and ")
}
