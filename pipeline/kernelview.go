package pipeline

// What a confined command sees besides the sandbox's reads and writes
// (README, "What the kernel enforces"): the ways out through programs
// already running outside it, which the launcher hides; what the tool a
// command runs is granted (confine.grants, confine.sockets); and the
// adjustments that keep ordinary work from noticing the kernel (npm's
// configuration without its tokens, cargo's lock files, npx's cache).

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/policy"
)

// outsideWays adds to rs the ways out of the sandbox through programs
// running outside it that a confined command must not reach: the
// executors confine.FindExecutors knows by name, and every other Unix
// socket bound on the system (confine.BoundSockets, /proc/net/unix) that
// the command could connect to (confine.ReachableSockets), except those
// in a writable sandbox root (ownSocketRoots: the command's own, or an
// earlier call's server), beneath a directory already hidden or given a
// tmpfs, and those confine.sockets and the call's grants name, which stay
// reachable (bound back into a directory that gets a tmpfs). It returns,
// for explain, what each hidden socket or directory leads to ("reachable:"
// and the entry that keeps it, for a socket left reachable), and the
// sockets left reachable. An error listing or looking at the bound
// sockets is returned: the command must then not run as if they were
// hidden.
func (j *Judger) outsideWays(rs *confine.Ruleset, res *classify.Result, pol *policy.Policy) (why map[string]string, kept []string, err error) {
	home := j.Sys.Getenv("HOME")
	ex := confine.FindExecutors(j.Sys.Getenv, j.Sys.uid, home)
	var allowed []string
	// What leaves each allowed socket reachable, for explain.
	allowedBy := map[string]string{}
	allow := func(entry, by string) {
		for _, p := range j.socketPaths(entry, home) {
			allowed = append(allowed, p)
			if _, ok := allowedBy[p]; !ok {
				allowedBy[p] = by
			}
		}
	}
	for _, s := range pol.Confine.Sockets {
		allow(s.Value, "confine.sockets "+s.Value+" ("+s.Pos.String()+")")
	}
	for _, g := range res.Grants {
		for _, s := range g.Sockets {
			allow(s, "the grant to "+g.Command.Text+" ("+g.Pos.String()+"), as "+s)
		}
	}
	list := j.Sys.UnixSockets
	if list == nil {
		list = confine.BoundSockets
	}
	bound, err := list()
	if err != nil {
		return nil, nil, err
	}
	own := ownSocketRoots(res, home)
	// The index daemons' sockets, one per project of the user's: their
	// directory is hidden whole, one mount where each socket would be one.
	if sd := j.Sys.StateDir(); sd != "" {
		if d, ok := j.resolvedDir(filepath.Join(sd, "index")); ok && j.isDir(d) {
			rs.Hide = append(rs.Hide, d)
			ex.Why[d] = "safezone's index daemons (their sockets)"
		}
	}
	// Beneath these the command already sees nothing of the outside.
	covered := slices.Concat(ex.Tmpfs, rs.Tmpfs, rs.Hide)
	skip := func(p string) bool {
		under := func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") }
		return slices.Contains(ex.Hide, p) || slices.ContainsFunc(covered, under) || slices.ContainsFunc(own, under)
	}
	reachable, err := confine.ReachableSockets(bound.Paths, skip)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range reachable {
		if !skip(p) {
			ex.Hide = append(ex.Hide, p)
			ex.Why[p] = boundOutside
		}
	}
	for _, p := range ex.Hide {
		if !slices.Contains(allowed, p) {
			rs.Hide = append(rs.Hide, p)
		}
	}
	rs.Tmpfs = append(rs.Tmpfs, ex.Tmpfs...)
	for _, a := range allowed {
		for _, d := range ex.Tmpfs {
			if a != d && strings.HasPrefix(a, d+"/") {
				rs.Keep = append(rs.Keep, a)
			}
		}
		if !slices.Contains(kept, a) {
			kept = append(kept, a)
			ex.Why[a] = "reachable: " + allowedBy[a]
		}
	}
	// The tmpfs directories are the command's own to write.
	rs.Write = append(rs.Write, ex.Tmpfs...)
	return ex.Why, kept, nil
}

// boundOutside is what a socket found in /proc/net/unix leads to, for
// explain and describe.
const boundOutside = "the program listening at it (a Unix socket bound outside the sandbox, found in /proc/net/unix)"

// ownSocketRoots are the directories whose sockets are the confined
// command's own to reach, resolved: the writable sandbox roots, where the
// command, or a server an earlier call started and left running, binds
// them. A root that holds the home directory (or is /) is none: every
// program of the user keeps its sockets there. home is $HOME, resolved
// here.
func ownSocketRoots(res *classify.Result, home string) []string {
	if r, err := filepath.EvalSymlinks(home); err == nil {
		home = r
	}
	var out []string
	for _, r := range res.Roots {
		p := r.Resolved
		if r.ReadOnly || p == "" || p == "/" || home != "" && (home == p || strings.HasPrefix(home, p+"/")) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// socketPaths expands one confine.sockets entry: $NAME is the socket the
// variable names (as confine.FindExecutors reads it), ~/ the home
// directory. $SSH_AUTH_SOCK names the ssh agents the user's ssh uses:
// the variable's socket and every IdentityAgent of the ssh configuration
// (confine.SSHAgents), so that a grant for git over ssh follows an agent
// configured there (1Password's ~/.1password/agent.sock). It returns the
// paths resolved, those that exist.
func (j *Judger) socketPaths(s, home string) []string {
	ps := []string{s}
	switch {
	case s == "$SSH_AUTH_SOCK":
		ps = confine.SSHAgents(j.Sys.Getenv, home)
	case strings.HasPrefix(s, "$"):
		name := s[1:]
		ps = []string{confine.SocketPath(name, j.Sys.Getenv(name), j.Sys.Getenv("XDG_RUNTIME_DIR"))}
	case strings.HasPrefix(s, "~/"):
		if home == "" {
			return nil
		}
		ps = []string{filepath.Join(home, s[2:])}
	}
	var out []string
	for _, p := range ps {
		if !filepath.IsAbs(p) {
			continue
		}
		if r, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// grantedRead removes from rs.Hide the paths a grant of the call leaves
// readable, and returns them.
func grantedRead(rs *confine.Ruleset, res *classify.Result) []string {
	var granted []string
	rs.Hide = slices.DeleteFunc(rs.Hide, func(p string) bool {
		if _, ok := res.Granted(p); ok {
			granted = append(granted, p)
			return true
		}
		return false
	})
	return granted
}

// npmrcSecretKeys are the keys of an npm configuration file whose values
// are credentials (npm's docs, "npmrc": _auth, _authToken, _password,
// username with _password, certfile/keyfile paths kept), compared after
// the last ":" of a scoped key (//registry/:_authToken), without case.
var npmrcSecretKeys = []string{"_auth", "_authtoken", "_password", "password", "token", "username"}

// sanitizedNpmrc returns the contents of the npm configuration file data
// without the lines that set a credential: the registry, proxy, cafile and
// scope settings stay, so that npm, run confined, still finds the user's
// registry and network settings.
func sanitizedNpmrc(data []byte) []byte {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		key, _, found := strings.Cut(strings.TrimSpace(line), "=")
		if found {
			k := strings.ToLower(strings.TrimSpace(key))
			if i := strings.LastIndexByte(k, ':'); i >= 0 {
				k = k[i+1:]
			}
			if slices.Contains(npmrcSecretKeys, k) {
				out.WriteString("; (a credential line, left out by safezone)\n")
				continue
			}
		}
		out.WriteString(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// npmrc replaces a hidden ~/.npmrc by a copy without its credentials
// (sanitizedNpmrc), kept in safezone's state directory, where a confined
// command cannot change it. On the live path it writes the copy; off it
// (explain, replay), it only says what it would do. It returns the copy's
// path, or "" when nothing is replaced.
func (j *Judger) npmrc(rs *confine.Ruleset, home string) string {
	if home == "" {
		return ""
	}
	rc, err := filepath.EvalSymlinks(filepath.Join(home, ".npmrc"))
	if err != nil || !slices.Contains(rs.Hide, rc) {
		return ""
	}
	sd := j.Sys.StateDir()
	if sd == "" {
		return ""
	}
	data, err := os.ReadFile(rc)
	if err != nil || len(data) > 1<<20 {
		return ""
	}
	clean := sanitizedNpmrc(data)
	h := fnv.New64a()
	h.Write([]byte(rc))
	h.Write(clean)
	copyPath := filepath.Join(sd, "npmrc", hex.EncodeToString(h.Sum(nil)))
	if j.live {
		if err := os.MkdirAll(filepath.Dir(copyPath), 0o700); err != nil {
			return ""
		}
		if old, err := os.ReadFile(copyPath); err != nil || !bytes.Equal(old, clean) {
			tmp := fmt.Sprintf("%s.%d", copyPath, os.Getpid())
			if os.WriteFile(tmp, clean, 0o600) != nil || os.Rename(tmp, copyPath) != nil {
				os.Remove(tmp)
				return ""
			}
		}
		if r, err := filepath.EvalSymlinks(copyPath); err == nil {
			copyPath = r
		}
	}
	rs.Hide = slices.DeleteFunc(rs.Hide, func(p string) bool { return p == rc })
	if rs.Replace == nil {
		rs.Replace = map[string]string{}
	}
	rs.Replace[rc] = copyPath
	return copyPath
}

// cargoLocks are the lock files cargo takes in its home directory before it
// touches the registry cache: granted as files, not the directory (whose
// bin/ holds programs that run later unconfined).
var cargoLocks = []string{".package-cache", ".package-cache-mutate", ".global-cache"}

// cargo grants writing cargo's lock files in $CARGO_HOME (default
// ~/.cargo), made empty where missing so that the grant can bind to them.
func (j *Judger) cargo(rs *confine.Ruleset, home string) {
	ch := j.Sys.Getenv("CARGO_HOME")
	if !filepath.IsAbs(ch) {
		if home == "" {
			return
		}
		ch = filepath.Join(home, ".cargo")
	}
	d, ok := j.resolvedDir(ch)
	if !ok {
		return
	}
	for _, name := range cargoLocks {
		p := filepath.Join(d, name)
		if _, err := os.Lstat(p); err != nil && j.live {
			if f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			rs.Write = append(rs.Write, p)
		}
	}
}
