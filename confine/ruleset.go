package confine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Ruleset is what a confined command may do to the file system: plain data,
// computed by the hook from its policy and handed to the launcher, which
// enforces it without any policy work of its own.
//
// Every path is absolute, clean ([filepath.Clean]) and already resolved
// (no symlink in it): the kernel rules bind to the file found at that path
// when the launcher starts, and a symlink along the way would be followed.
//
// What a Ruleset means:
//   - Write: the command may write, create, remove, rename, link and
//     truncate beneath these paths (directories, or single files such as
//     /dev/null), and nowhere else.
//   - NoRead: the contents of these paths, and of everything beneath them
//     but the Read paths, cannot be read. Every other file can be read.
//     Directory listings are not restricted: the names in a denied
//     directory stay visible. NoRead does not keep a path from being
//     written: one beneath a Write path can be overwritten (not read)
//     unless it is also ReadOnly. Keep NoRead paths that hold no Read
//     path outside the Write paths: a file created in a directory on the
//     way to a NoRead path cannot be read until the next command (see the
//     package documentation).
//   - Read: the paths beneath a NoRead path whose contents can be read
//     again, and everything beneath them but a NoRead path deeper down:
//     of the NoRead and Read paths that hold a file, the deepest decides,
//     and NoRead wins over Read at the same path. The Write paths count
//     as Read paths (what the command may write it may read). A Read path
//     beneath no NoRead path changes nothing. This is how the home
//     directory stays private: NoRead $HOME, Read what programs read
//     there (~/.cargo, ~/go, ~/.gitconfig, ...), NoRead a secret below
//     one of those (~/.cargo/credentials.toml) again. A name created
//     later beneath a NoRead path, and not beneath a Read path there,
//     cannot be read.
//   - ReadOnly: these paths, which lie beneath a Write path, cannot be
//     written, removed or renamed, nor can the directories between them and
//     their Write path be renamed away. They must exist when the launcher
//     starts; one that does not is skipped (the kernel cannot keep a name
//     from being created).
//   - Hide: these paths can be neither read nor written: in the command's
//     own mount namespace an empty, read-only file or directory that no
//     one may open (mode 000) stands in for each, so that what was there
//     reads as "Permission denied" (or as empty, to a process with
//     CAP_DAC_OVERRIDE in the namespace: a root user's). They cannot be
//     removed, renamed or linked either (a mount point), and, as for
//     ReadOnly, the directories between them and their Write path cannot
//     be renamed away. A Hide path may lie anywhere (~/.ssh, a socket
//     that leads to a program outside the sandbox: connect(2) is not a
//     read Landlock can deny). One that does not exist is skipped, and so
//     is one the launcher cannot reach (EACCES on the way: a socket in
//     another user's private directory), which the command, with fewer
//     privileges than the launcher, cannot reach either.
//     [Ruleset.WithoutNamespace] says what Landlock alone can do of them.
//   - Replace: each key is a path whose contents the command reads from
//     the file its value names instead (read-only): a copy of ~/.npmrc
//     without its tokens. Both must exist and be regular files; a key that
//     does not exist is skipped.
//   - Tmpfs: directories over which the command gets an empty, writable
//     file system of its own (a tmpfs, gone when it ends): /dev/shm, so that
//     shared memory works without touching anyone else's, and the
//     directories of sockets that lead to programs outside the sandbox
//     ($XDG_RUNTIME_DIR with the D-Bus and systemd buses, tmux's). The
//     command may write there.
//   - Overlay: directories the command sees as they are, with a private
//     writable layer on top (overlayfs): it may add, change and remove
//     files there, and what it does is gone when it ends; the directory
//     itself stays as it was. For the code caches that later unconfined
//     programs run from (npx's, go's module cache, cargo's registry): a
//     confined npx -y or go build can still install. An Overlay path may
//     also be a Write path itself; one that does not exist is skipped.
//   - Keep: paths beneath a Tmpfs directory that stay reachable in it: the
//     launcher binds each (a socket the policy grants, such as the
//     ssh-agent's) back at the same place in the new tmpfs. One that does
//     not exist is skipped.
//   - Net: when set, the command gets a network namespace of its own, with
//     only a loopback interface: it reaches no host, no service on the
//     machine's own loopback and no address of the machine's networks by
//     itself. Inside, an HTTP proxy listens on 127.0.0.1:[NetHTTPPort] and
//     a SOCKS5 one on 127.0.0.1:[NetSOCKSPort], and the command's
//     environment names them (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and their
//     lower-case forms); the launcher hands both listening sockets to the
//     proxy daemon (Net.Proxy, package netproxy) outside the namespace,
//     which decides what each connection may reach, for as long as a
//     process of the command lives. A program that ignores the proxy
//     variables reaches nothing.
//   - Report: when set, the launcher asks the kernel to log what Landlock
//     refuses the command and every program it starts
//     (landlock_restrict_self(2) with LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON,
//     Landlock ABI 7 and later; earlier ones log nothing of an exec'd
//     program), and, just before it restricts itself, registers itself in
//     Report.Dir: a file named by its process ID holding its executable's
//     path, a newline, its start time (field 22 of /proc/self/stat, which
//     the exec keeps: the collector checks that the process at the ID is
//     still this one), a newline and Report.Call. The kernel's audit
//     records name the process that made the Landlock domain by that ID; a
//     collector (package refusals) reads them and finds the call there.
//     The launcher does not read Call. Logging reaches no one unless the kernel's audit
//     is enabled and a process with CAP_AUDIT_READ listens.
//
// Executing programs is not restricted, nor is the network without Net.
// Hide, Replace, Tmpfs and Net, like ReadOnly, take the user namespace.
type Ruleset struct {
	Write    []string          `json:"write,omitempty"`
	NoRead   []string          `json:"noread,omitempty"`
	Read     []string          `json:"read,omitempty"`
	ReadOnly []string          `json:"readonly,omitempty"`
	Hide     []string          `json:"hide,omitempty"`
	Replace  map[string]string `json:"replace,omitempty"`
	Tmpfs    []string          `json:"tmpfs,omitempty"`
	Keep     []string          `json:"keep,omitempty"`
	Overlay  []string          `json:"overlay,omitempty"`
	// HostSandbox, when set, names the host's own sandbox the command may
	// run in (Claude Code's, whose bubblewrap refuses new user namespaces),
	// and lets the launcher fall back there: where creating the user and
	// mount namespace fails with EPERM, it enforces
	// [Ruleset.WithoutNamespace] instead and, if a Hide path it loses is
	// a Unix socket, refuses the creation of Unix sockets (seccomp). The
	// hook sets it only when what the fallback loses is held otherwise (the
	// host's sandbox hides those secrets). Without it, a refused namespace
	// is an error and nothing runs.
	HostSandbox string  `json:"host_sandbox,omitempty"`
	Net         *Net    `json:"net,omitempty"`
	Report      *Report `json:"report,omitempty"`
}

// Report is where a launcher registers itself so that the kernel's
// records of what Landlock refused its command can be traced to the call
// (see [Ruleset]). Dir is absolute and clean, a directory the command
// cannot write (the state directory's); Call is opaque to the launcher.
type Report struct {
	Dir  string `json:"dir"`
	Call string `json:"call"`
}

// Net is the network part of a [Ruleset]: the proxy program the launcher
// starts, outside the command's network namespace, for the command's
// connections, and what it passes to it. The launcher does not read
// Policy: it gives it to the proxy as its argument.
type Net struct {
	// Proxy is the proxy program (safezone-proxy), absolute and clean,
	// and Socket the socket its daemon listens on: the launcher starts
	// `PROXY daemon SOCKET` when nothing answers there. Socket must be
	// among the Hide paths: a confined command that reached the daemon
	// could ask it for a network of its own choosing.
	//
	// A Net without Proxy (and without Socket) is a network namespace with
	// no way out at all: where the proxy is not installed, the command
	// still runs, with no network, and the launcher prints Note on its
	// standard error first (what is missing and how to install it).
	Proxy  string `json:"proxy,omitempty"`
	Socket string `json:"socket,omitempty"`
	Note   string `json:"note,omitempty"`
	// Policy is the proxy's argument: what it allows, and where it records
	// what it refused (the JSON of netproxy.Config).
	Policy json.RawMessage `json:"policy,omitempty"`
}

// The ports the proxies listen on inside a command's network namespace
// (the namespace is the command's own: nothing else listens there).
const (
	NetHTTPPort  = 3128
	NetSOCKSPort = 1080
)

// ErrBadRuleset is wrapped by every error [Ruleset.Validate] and
// [ParseRuleset] return.
var ErrBadRuleset = errors.New("bad ruleset")

// Validate reports the first path that is not absolute and clean, or that
// holds a NUL byte. It does not look at the file system.
func (rs Ruleset) Validate() error {
	for _, l := range []struct {
		name  string
		paths []string
	}{{"write", rs.Write}, {"noread", rs.NoRead}, {"read", rs.Read}, {"readonly", rs.ReadOnly}, {"hide", rs.Hide}, {"tmpfs", rs.Tmpfs}, {"keep", rs.Keep}, {"overlay", rs.Overlay}, {"replace", replacePaths(rs.Replace)}} {
		for i, p := range l.paths {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.IndexByte(p, 0) >= 0 {
				return fmt.Errorf("%w: %s[%d] %q is not an absolute, clean path", ErrBadRuleset, l.name, i, p)
			}
		}
	}
	if rs.Net != nil && (rs.Net.Proxy == "") != (rs.Net.Socket == "") {
		return fmt.Errorf("%w: net has a proxy without a socket, or a socket without a proxy", ErrBadRuleset)
	}
	if rs.Net != nil && rs.Net.Proxy != "" {
		for _, p := range []string{rs.Net.Proxy, rs.Net.Socket} {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p || strings.IndexByte(p, 0) >= 0 {
				return fmt.Errorf("%w: net's proxy or socket %q is not an absolute, clean path", ErrBadRuleset, p)
			}
		}
		if !slices.ContainsFunc(rs.Hide, func(h string) bool { return within(rs.Net.Socket, h) }) {
			return fmt.Errorf("%w: net's socket %s is not hidden", ErrBadRuleset, rs.Net.Socket)
		}
	}
	if r := rs.Report; r != nil {
		if !filepath.IsAbs(r.Dir) || filepath.Clean(r.Dir) != r.Dir || strings.IndexByte(r.Dir, 0) >= 0 || strings.IndexByte(r.Call, 0) >= 0 {
			return fmt.Errorf("%w: report's directory %q is not an absolute, clean path, or its call holds a NUL byte", ErrBadRuleset, r.Dir)
		}
	}
	return nil
}

// Normalize returns rs with its lists sorted and without duplicates, without
// the NoRead and Read paths that change nothing (one whose nearest holder
// among the NoRead, Read and Write paths is of its own kind, a Read path
// beneath no NoRead path or at a NoRead or Write one), without the Write
// paths beneath another Write path, without the Hide and Tmpfs paths
// beneath another of their kind, without the Keep paths beneath no Tmpfs
// path, and without the ReadOnly paths that lie beneath no Write path
// (Landlock alone already keeps those from being written) or beneath
// another ReadOnly or a Hide path. The paths must be valid
// ([Ruleset.Validate]); Normalize is purely lexical.
func (rs Ruleset) Normalize() Ruleset {
	out := Ruleset{Write: outermost(rs.Write), Hide: outermost(rs.Hide), Tmpfs: outermost(rs.Tmpfs), Overlay: outermost(rs.Overlay), HostSandbox: rs.HostSandbox}
	out.NoRead, out.Read = readLayers(rs.NoRead, rs.Read, out.Write)
	underWrite := func(p string) bool {
		return slices.ContainsFunc(out.Write, func(w string) bool { return within(p, w) })
	}
	for _, p := range outermost(rs.ReadOnly) {
		if underWrite(p) && !slices.ContainsFunc(out.Hide, func(h string) bool { return within(p, h) }) {
			out.ReadOnly = append(out.ReadOnly, p)
		}
	}
	for _, p := range sortedSet(rs.Keep) {
		if slices.ContainsFunc(out.Tmpfs, func(d string) bool { return p != d && within(p, d) }) {
			out.Keep = append(out.Keep, p)
		}
	}
	if len(rs.Replace) > 0 {
		out.Replace = maps.Clone(rs.Replace)
	}
	out.Net, out.Report = rs.Net, rs.Report
	return out
}

// WithoutNamespace returns rs as it can be enforced without a mount
// namespace (where user namespaces are not available), and what of it
// cannot be: the Hide paths beneath no Write path become NoRead (Landlock
// denies reading them, and nothing can write them), NoRead and Read stay
// (Landlock alone enforces them), a Replace key beneath no Write path
// becomes NoRead (without its copy, ~/.npmrc would read with its
// credentials), and the ReadOnly, Tmpfs, Keep, Overlay and Replace
// paths and Net go. lost lists the Hide paths beneath a
// Write path, which Landlock cannot keep from being read: a caller must
// not run a command it would have hidden them from.
func (rs Ruleset) WithoutNamespace() (out Ruleset, lost []string) {
	out = Ruleset{Write: slices.Clone(rs.Write), NoRead: slices.Clone(rs.NoRead), Read: slices.Clone(rs.Read), Report: rs.Report}
	for _, p := range rs.Hide {
		if slices.ContainsFunc(rs.Write, func(w string) bool { return within(p, w) }) {
			lost = append(lost, p)
		} else {
			out.NoRead = append(out.NoRead, p)
		}
	}
	for p := range rs.Replace {
		if !slices.ContainsFunc(rs.Write, func(w string) bool { return within(p, w) }) {
			out.NoRead = append(out.NoRead, p)
		}
	}
	out.NoRead, out.Read = readLayers(out.NoRead, out.Read, out.Write)
	return out, lost
}

func sortedSet(ps []string) []string {
	s := slices.Clone(ps)
	slices.Sort(s)
	return slices.Compact(s)
}

// NeedsNamespace reports whether enforcing rs takes a private mount
// namespace: whether it has ReadOnly, Hide, Replace or Tmpfs paths, or Net.
func (rs Ruleset) NeedsNamespace() bool {
	return rs.Net != nil || len(rs.ReadOnly) > 0 || len(rs.Hide) > 0 || len(rs.Replace) > 0 || len(rs.Tmpfs) > 0 || len(rs.Keep) > 0 || len(rs.Overlay) > 0
}

// replacePaths returns the keys and values of m, sorted.
func replacePaths(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k, v)
	}
	slices.Sort(out)
	return out
}

// MarshalText encodes rs as compact JSON, the form the launcher takes as an
// argument.
func (rs Ruleset) MarshalText() ([]byte, error) {
	type plain Ruleset // without this method
	return json.Marshal(plain(rs))
}

// ParseRuleset decodes the launcher's ruleset argument (the JSON of
// [Ruleset.MarshalText]) strictly: unknown fields, trailing data and
// invalid paths are errors.
func ParseRuleset(s string) (Ruleset, error) {
	type plain Ruleset
	var rs plain
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rs); err != nil {
		return Ruleset{}, fmt.Errorf("%w: %v", ErrBadRuleset, err)
	}
	if dec.More() {
		return Ruleset{}, fmt.Errorf("%w: data after the JSON object", ErrBadRuleset)
	}
	if err := Ruleset(rs).Validate(); err != nil {
		return Ruleset{}, err
	}
	return Ruleset(rs), nil
}

// Devices are the device files and directories most programs write to
// (shells redirect to /dev/null, test runners open /dev/tty, terminals live
// in /dev/pts): the hook adds them to [Ruleset.Write]. /dev/shm, where
// POSIX shared memory lives, is a shared temporary directory like /tmp and
// is not among them.
func Devices() []string {
	return []string{"/dev/full", "/dev/null", "/dev/ptmx", "/dev/pts", "/dev/random", "/dev/tty", "/dev/urandom", "/dev/zero"}
}

// within reports whether p is root or lies beneath it; both are clean and
// absolute.
func within(p, root string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

// outermost returns the sorted paths of ps that lie beneath no other path
// of ps, without duplicates.
func outermost(ps []string) []string {
	s := sortedSet(ps)
	var out []string
	for _, p := range s {
		// Sorted order puts "/a" before "/a/b" but also before "/a-b" and
		// "/a.b", which are not beneath it; keep comparing with every kept
		// ancestor candidate.
		if !slices.ContainsFunc(out, func(o string) bool { return within(p, o) }) {
			out = append(out, p)
		}
	}
	return out
}

// readLayers returns the NoRead and Read paths of a ruleset that change
// what can be read (see [Ruleset.Normalize]), sorted and without
// duplicates: each path is kept when the nearest path strictly above it
// among noread, read and write (Write paths count as Read) is of the other
// kind, or, for a NoRead path, when there is none. A path in both noread
// and read is NoRead.
func readLayers(noread, read, write []string) (outNoRead, outRead []string) {
	nr, rd := sortedSet(noread), sortedSet(read)
	// nearest reports whether the deepest of the paths strictly above p is a
	// NoRead one, and whether there is one at all.
	nearest := func(p string) (denied, found bool) {
		best := ""
		for _, l := range [][]string{nr, rd, write} {
			for _, q := range l {
				if q != p && within(p, q) && len(q) > len(best) {
					best, found = q, true
				}
			}
		}
		// NoRead wins at the same path.
		return found && slices.Contains(nr, best), found
	}
	for _, p := range nr {
		if denied, found := nearest(p); !found || !denied {
			outNoRead = append(outNoRead, p)
		}
	}
	for _, p := range rd {
		if slices.Contains(nr, p) || slices.Contains(write, p) {
			continue
		}
		if denied, _ := nearest(p); denied {
			outRead = append(outRead, p)
		}
	}
	return outNoRead, outRead
}

// SSHProxyCommand is the value of ssh's ProxyCommand (ssh_config(5)) that
// sends a connection through the network proxy program proxy inside a
// command's network namespace: `PROXY connect %h %p` (netproxy.Connect),
// the program's path quoted for the shell ssh runs it with.
func SSHProxyCommand(proxy string) string {
	return strings.ReplaceAll(shellQuote(proxy), "%", "%%") + " connect %h %p"
}
