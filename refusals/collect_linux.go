//go:build linux

package refusals

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/safezonehq/safezone/audit"
)

// auditNlgrpReadlog is the audit netlink's multicast group of every record
// (AUDIT_NLGRP_READLOG, include/uapi/linux/audit.h).
const auditNlgrpReadlog = 1

// auditGet is AUDIT_GET: the kernel answers with its audit_status.
const auditGet = 1000

// listen opens the audit netlink socket bound to the read-log group.
func listen() (int, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_AUDIT)
	if err != nil {
		return -1, fmt.Errorf("the kernel's audit socket: %w (a kernel without CONFIG_AUDIT)", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Groups: auditNlgrpReadlog}); err != nil {
		unix.Close(fd)
		if errors.Is(err, unix.EPERM) {
			return -1, fmt.Errorf("reading the kernel's audit records takes CAP_AUDIT_READ, which this user does not have (root has it): %w", err)
		}
		return -1, fmt.Errorf("listening to the kernel's audit records: %w", err)
	}
	// Bursts of refusals: a larger buffer than the default loses fewer.
	unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, 4<<20)
	return fd, nil
}

// Listen reports whether this process may listen to the kernel's audit
// records (CAP_AUDIT_READ): nil if it may, else why not.
func Listen() error {
	fd, err := listen()
	if err == nil {
		unix.Close(fd)
	}
	return err
}

// Available says whether this process could read the kernel's Landlock
// audit records: nil when it can listen and audit is enabled, else why
// not (for doctor and explain).
func Available() error {
	fd, err := listen()
	if err != nil {
		return err
	}
	unix.Close(fd)
	on, err := AuditEnabled()
	if err != nil {
		return nil // cannot tell (AUDIT_GET takes CAP_AUDIT_CONTROL): assume on
	}
	if !on {
		return errors.New("the kernel's audit is disabled, so it records no refusal (enable it: auditctl -e 1, or run auditd)")
	}
	return nil
}

// AuditEnabled asks the kernel whether audit is enabled (AUDIT_GET's
// audit_status.enabled, the second 32-bit field).
func AuditEnabled() (bool, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_AUDIT)
	if err != nil {
		return false, err
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return false, err
	}
	tv := unix.Timeval{Sec: 1}
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	req := make([]byte, unix.NLMSG_HDRLEN)
	binary.NativeEndian.PutUint32(req[0:], uint32(len(req)))
	binary.NativeEndian.PutUint16(req[4:], auditGet)
	binary.NativeEndian.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK)
	if err := unix.Sendto(fd, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return false, err
	}
	buf := make([]byte, 8192)
	deadline := time.Now().Add(time.Second)
	for range 4 {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		// With SO_RCVTIMEO set, a signal handler makes recvfrom fail
		// with EINTR, SA_RESTART or not (signal(7)).
		for err == unix.EINTR && time.Now().Before(deadline) {
			n, _, err = unix.Recvfrom(fd, buf, 0)
		}
		if err != nil {
			return false, err
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return false, err
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case auditGet:
				if len(m.Data) < 8 {
					return false, errors.New("AUDIT_GET: a short answer")
				}
				return binary.NativeEndian.Uint32(m.Data[4:]) != 0, nil
			case unix.NLMSG_ERROR:
				if len(m.Data) >= 4 {
					if e := int32(binary.NativeEndian.Uint32(m.Data)); e != 0 {
						return false, fmt.Errorf("AUDIT_GET: %w", syscall.Errno(-e))
					}
				}
			}
		}
	}
	return false, errors.New("AUDIT_GET: no answer")
}

// domain is what the collector knows of one Landlock domain.
type domain struct {
	call     *Call // nil: not a confined command's (another program's sandbox)
	recorded int   // refusals written to the audit log
	dropped  int   // refusals past maxPerDomain
}

// maxPerDomain bounds the audit records of one command's refusals (a
// program retrying in a loop); the rest is counted in one record.
const maxPerDomain = 256

// event is the records of one audit event (one serial) seen so far.
type event struct {
	seen     time.Time
	accesses []kernelRecord
	syscall  map[string]string // the AUDIT_SYSCALL record's fields: the refused process
}

// collector maps the kernel's records to calls and writes them out.
type collector struct {
	d       Dirs
	domains map[string]*domain
	events  map[uint64]*event
	errs    int // failed writes, for the status file
}

// Collect is `safezone __refusals BASE`: it listens to the kernel's audit
// records for as long as launchers register in d.Launch() (it ends after
// idle without a registration) and writes each refusal of a registered
// command out (see the package documentation). Only one runs per d: if
// another holds d.Lock(), it returns nil at once. ready, if not nil, gets
// one byte once it listens (or knows it will not) and is closed. A
// collector that cannot listen writes why to d.Status() and returns the
// error; one that listens removes it.
func Collect(d Dirs, idle time.Duration, ready *os.File) error {
	signal := func() {
		if ready != nil {
			ready.Write([]byte{1})
			ready.Close()
			ready = nil
		}
	}
	defer signal()
	if err := os.MkdirAll(d.Launch(), 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(d.Lock(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return nil // another collector runs
	}
	lock.Truncate(0)
	lock.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) // for whoever must stop it
	fd, err := listen()
	if err != nil {
		os.WriteFile(d.Status(), []byte(err.Error()+"\n"), 0o600)
		return err
	}
	defer unix.Close(fd)
	if on, err := AuditEnabled(); err == nil && !on {
		os.WriteFile(d.Status(), []byte("listening, but the kernel's audit is disabled, so it records no refusal (enable it: auditctl -e 1, or run auditd)\n"), 0o600)
	} else {
		os.Remove(d.Status())
	}
	signal()
	tv := unix.Timeval{Sec: 0, Usec: 200000}
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	c := &collector{d: d, domains: map[string]*domain{}, events: map[uint64]*event{}}
	c.prune(24 * time.Hour)
	lastPrune := time.Now()
	buf := make([]byte, 1<<16)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		now := time.Now()
		switch {
		case err == nil && n >= unix.NLMSG_HDRLEN:
			// One record a datagram. Not syscall.ParseNetlinkMessage: the
			// kernel's audit sets nlmsg_len without the padding that
			// checks, and so it rejects records.
			typ := binary.NativeEndian.Uint16(buf[4:])
			if r, ok := parseRecord(typ, string(buf[unix.NLMSG_HDRLEN:n])); ok {
				c.add(r, now)
			}
		case err == nil:
		case errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.ENOBUFS):
			// The kernel dropped records for this socket: go on.
		default:
			return err
		}
		c.flushOlder(now.Add(-300 * time.Millisecond))
		if now.Sub(lastPrune) > time.Minute {
			lastPrune = now
			fi, err := os.Stat(d.Launch())
			if err != nil || now.Sub(fi.ModTime()) > idle {
				c.flushOlder(now)
				return nil
			}
			c.prune(24 * time.Hour)
		}
	}
}

// prune removes the registrations, and the inboxes of sessions, older
// than age.
func (c *collector) prune(age time.Duration) {
	for _, dir := range []string{c.d.Launch(), filepath.Dir(c.d.Inbox(""))} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > age {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// add takes one record.
func (c *collector) add(r kernelRecord, now time.Time) {
	switch r.Type {
	case typeLandlockAccess:
		c.event(r.Serial, now).accesses = append(c.event(r.Serial, now).accesses, r)
	case typeSyscall:
		if ev, ok := c.events[r.Serial]; ok {
			ev.syscall = r.Fields
		}
	case typeLandlockDomain:
		id := r.Fields["domain"]
		switch r.Fields["status"] {
		case "allocated":
			if len(c.domains) > 1<<14 {
				clear(c.domains) // bounded: forget the oldest at once
			}
			c.domains[id] = &domain{call: c.registered(r.Fields["pid"], r.Fields["exe"])}
		case "deallocated":
			c.flushOlder(now) // its last refusals first
			if dm := c.domains[id]; dm != nil && dm.call != nil && dm.dropped > 0 {
				c.write(dm.call, audit.Target{Given: "", Resolved: "", Access: "landlock"}, r.Time,
					fmt.Sprintf("and %d more refusals of this command's, past the %d recorded", dm.dropped, maxPerDomain), "")
			}
			delete(c.domains, id)
		}
	case typeEOE:
		if ev, ok := c.events[r.Serial]; ok {
			c.flush(ev)
			delete(c.events, r.Serial)
		}
	}
}

func (c *collector) event(serial uint64, now time.Time) *event {
	ev := c.events[serial]
	if ev == nil {
		ev = &event{seen: now}
		c.events[serial] = ev
	}
	return ev
}

// registered returns the call of the launcher pid registered, if the
// registration names the executable exe that made the domain and the
// process now at pid is the one that registered: its start time (field 22
// of /proc/PID/stat, which an exec keeps) is the registration's. nil
// otherwise: a sandbox that is not safezone's, a registration left by an
// earlier process of the same ID (another process took the ID since: a
// confined command can fork until it gets the ID of another session's
// old registration), one without a start time, or a creator that has
// already ended (it cannot be told from a process that took its ID and
// ended; so the refusals of a command whose first process has exited
// when the kernel reports its first refusal are not reported).
func (c *collector) registered(pid, exe string) *Call {
	if _, err := strconv.Atoi(pid); err != nil {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(c.d.Launch(), pid))
	if err != nil {
		return nil
	}
	first, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(first) != exe {
		return nil
	}
	start, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || len(start) == 0 {
		return nil
	}
	if now, err := procStart(pid); err != nil || now != string(start) {
		return nil
	}
	var call Call
	if json.Unmarshal(rest, &call) != nil {
		return nil
	}
	return &call
}

// procStart returns the start time of the process pid (field 22 of
// /proc/PID/stat, in clock ticks since boot: proc(5)); the fields are
// counted after the last ')', since the command name (field 2) may hold
// spaces and parentheses.
func procStart(pid string) (string, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return "", errors.New("/proc/" + pid + "/stat: no command name")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return "", errors.New("/proc/" + pid + "/stat: too few fields")
	}
	return f[19], nil // fields 3.. follow the name: 22 is the 20th
}

// flushOlder writes out the events first seen before t.
func (c *collector) flushOlder(t time.Time) {
	for s, ev := range c.events {
		if !ev.seen.After(t) {
			c.flush(ev)
			delete(c.events, s)
		}
	}
}

// flush writes out the refusals of ev whose domain is a registered
// command's.
func (c *collector) flush(ev *event) {
	for _, a := range ev.accesses {
		dm := c.domains[a.Fields["domain"]]
		if dm == nil || dm.call == nil {
			continue
		}
		if dm.recorded >= maxPerDomain {
			dm.dropped++
			continue
		}
		dm.recorded++
		blockers, tgt := a.Fields["blockers"], target(a.Fields)
		prog := ""
		if ev.syscall != nil {
			prog = ev.syscall["comm"]
		}
		who := ""
		if prog != "" {
			who = " to " + prog
			if p := ev.syscall["pid"]; p != "" {
				who += " (pid " + p + ")"
			}
		}
		reason := fmt.Sprintf("the kernel (Landlock) refused %s %s%s, in a confined command", Describe(blockers), tgt, who)
		c.write(dm.call, audit.Target{Given: tgt, Resolved: tgt, Access: blockers}, a.Time, reason, blockers)
		if dm.call.SessionID != "" {
			if err := appendInbox(c.d.Inbox(dm.call.SessionID), Entry{Time: a.Time.Format(audit.TimeFormat), ToolUseID: dm.call.ToolUseID,
				Program: prog, Access: blockers, Target: tgt}); err != nil {
				c.errs++
			}
		}
	}
}

// write appends one record of call's to the policy's audit log, if it has
// one.
func (c *collector) write(call *Call, t audit.Target, at time.Time, reason, blockers string) {
	if call.Audit == nil || call.Audit.Path == "" {
		return
	}
	rule := "landlock"
	if blockers != "" {
		rule += " " + blockers
	}
	rec := audit.Record{Time: at.UTC().Format(audit.TimeFormat), Host: call.Host, SessionID: call.SessionID, ToolUseID: call.ToolUseID,
		Tool: "landlock", Cwd: call.Cwd, Targets: []audit.Target{t}, Decision: "deny", Rule: rule, Source: "kernel",
		Reason: reason, Confined: true}
	line, err := json.Marshal(rec)
	if err != nil {
		return
	}
	f := &audit.File{Path: call.Audit.Path, MaxBytes: call.Audit.MaxBytes, Keep: call.Audit.Keep}
	if err := f.Append(append(line, '\n')); err != nil {
		c.errs++
		os.WriteFile(c.d.Status(), []byte("listening, but writing the audit log failed: "+strings.TrimSpace(err.Error())+"\n"), 0o600)
	}
}
