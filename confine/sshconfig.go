package confine

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// SSHSystemConfig is the system-wide configuration file of OpenSSH's
// client (ssh_config(5)).
const SSHSystemConfig = "/etc/ssh/ssh_config"

// maxSSHInclude bounds the depth of nested Include directives, as ssh does
// (READCONF_MAX_DEPTH).
const maxSSHInclude = 16

// SSHAgents returns the sockets of the ssh agents the user's ssh client may
// use (OpenSSH's ssh_config(5), IdentityAgent): the one $SSH_AUTH_SOCK
// names (getenv is the command's environment), and every IdentityAgent
// set in ~/.ssh/config (home is $HOME) or in [SSHSystemConfig], in any Host
// or Match block, and in the files their Include directives name (globs,
// relative to ~/.ssh and /etc/ssh respectively, at most 16 deep). The paths
// are absolute and clean, not resolved, in the order found, without
// duplicates.
//
// An IdentityAgent value is read as ssh reads it: "none" names no agent,
// "SSH_AUTH_SOCK" the variable's socket, "$NAME" and "${NAME}" a variable's
// value; a leading ~ is home, and the tokens %d (home), %u (the user:
// $USER), %i (the user ID), %L and %l (the local host name) and %% are
// expanded. A value holding a token that depends on the host connected to
// (%h, %n, %p, %r, %C, %j, %k), or a variable that is not set, names no
// path here and is left out; so are files that cannot be read. ssh finds ~
// and %d in the password database, the hook in $HOME: where the two differ
// (a test's HOME), name the agent by an absolute path. A configuration
// given to ssh otherwise (ssh -F, GIT_SSH_COMMAND, core.sshCommand) is not
// read.
func SSHAgents(getenv func(string) string, home string) []string {
	var out []string
	add := func(p string) {
		if !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	add(getenv("SSH_AUTH_SOCK"))
	r := sshConfigReader{getenv: getenv, home: home, seen: map[string]bool{}}
	if filepath.IsAbs(home) {
		dir := filepath.Join(home, ".ssh")
		r.read(filepath.Join(dir, "config"), dir, 0)
	}
	r.read(SSHSystemConfig, filepath.Dir(SSHSystemConfig), 0)
	for _, v := range r.agents {
		add(r.agentPath(v))
	}
	return out
}

// sshConfigReader collects the IdentityAgent values of ssh configuration
// files.
type sshConfigReader struct {
	getenv func(string) string
	home   string
	seen   map[string]bool
	agents []string
}

// read reads the configuration file p, whose relative Include paths are
// relative to dir, at Include depth depth.
func (r *sshConfigReader) read(p, dir string, depth int) {
	for _, l := range readSSHConfig(p, depth, r.seen) {
		switch l.key {
		case "identityagent":
			if len(l.args) > 0 {
				r.agents = append(r.agents, l.args[0])
			}
		case "include":
			for _, m := range sshIncludes(l.args, dir, r.home) {
				r.read(m, dir, depth+1)
			}
		}
	}
}

// sshLine is one keyword line of an ssh configuration file: its keyword in
// lower case and its arguments (sshConfigLine).
type sshLine struct {
	key  string
	args []string
}

// readSSHConfig returns the keyword lines of the ssh configuration file p,
// none where it cannot be read, where depth is past maxSSHInclude or where
// seen holds p already (an Include loop reads each file once); it adds p
// to seen. A line over 1 MiB ends the file there.
func readSSHConfig(p string, depth int, seen map[string]bool) []sshLine {
	if depth > maxSSHInclude || seen[p] {
		return nil
	}
	seen[p] = true
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	var lines []sshLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if key, args := sshConfigLine(sc.Text()); key != "" {
			lines = append(lines, sshLine{strings.ToLower(key), args})
		}
	}
	return lines
}

// sshIncludes returns the files an Include line's arguments name, as ssh
// finds them (ssh_config(5)): ~ is home, a relative path is relative to dir
// (~/.ssh for the user's files, /etc/ssh for the system's), and each is a
// glob.
func sshIncludes(args []string, dir, home string) []string {
	var files []string
	for _, a := range args {
		a = sshTilde(a, home)
		if !filepath.IsAbs(a) {
			a = filepath.Join(dir, a)
		}
		ms, _ := filepath.Glob(a)
		files = append(files, ms...)
	}
	return files
}

// sshConfigLine splits a line of an ssh configuration file into its
// keyword and arguments: "Keyword arg ...", or "Keyword=arg"; arguments
// may be quoted with double quotes. Blank lines and comments give "".
func sshConfigLine(line string) (string, []string) {
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '#' {
		return "", nil
	}
	i := strings.IndexAny(line, " \t=")
	if i < 0 {
		return line, nil
	}
	key, rest := line[:i], strings.TrimLeft(line[i:], " \t")
	if strings.HasPrefix(rest, "=") {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	var args []string
	for rest != "" {
		var a string
		if rest[0] == '"' {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				return key, args // unterminated: ssh refuses the line
			}
			a, rest = rest[1:1+end], rest[2+end:]
		} else {
			end := strings.IndexAny(rest, " \t")
			if end < 0 {
				end = len(rest)
			}
			a, rest = rest[:end], rest[end:]
		}
		args = append(args, a)
		rest = strings.TrimLeft(rest, " \t")
	}
	return key, args
}

// tilde expands a leading ~/ (or a lone ~) to the home directory.
func (r *sshConfigReader) tilde(p string) string { return sshTilde(p, r.home) }

// sshTilde returns p with a leading ~ (alone, or ~/) as home; p as it is
// where home is "".
func sshTilde(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

func (r *sshConfigReader) agentPath(v string) string {
	switch {
	case strings.EqualFold(v, "none"):
		return ""
	case v == "SSH_AUTH_SOCK":
		return r.getenv("SSH_AUTH_SOCK")
	case strings.HasPrefix(v, "$") && !strings.HasPrefix(v, "${"):
		return r.getenv(v[1:])
	}
	v = r.tilde(v)
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+1 < len(v):
			i++
			switch v[i] {
			case '%':
				b.WriteByte('%')
			case 'd':
				if r.home == "" {
					return ""
				}
				b.WriteString(r.home)
			case 'u':
				u := r.getenv("USER")
				if u == "" {
					return ""
				}
				b.WriteString(u)
			case 'i':
				b.WriteString(strconv.Itoa(os.Getuid()))
			case 'L', 'l':
				h, err := os.Hostname()
				if err != nil {
					return ""
				}
				if v[i] == 'L' {
					h, _, _ = strings.Cut(h, ".")
				}
				b.WriteString(h)
			default:
				return "" // a token of the host connected to
			}
		case c == '$' && i+1 < len(v) && v[i+1] == '{':
			end := strings.IndexByte(v[i:], '}')
			if end < 0 {
				return ""
			}
			val := r.getenv(v[i+2 : i+end])
			if val == "" {
				return ""
			}
			b.WriteString(val)
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// SSHDestination returns where ssh connects for the destination host
// (as given on its command line or in a git remote): the first HostName
// and Port set for it, in the order ssh reads them, by the files given
// (ssh -F's file; else ~/.ssh/config then [SSHSystemConfig]), with their
// Include directives (at most 16 deep). A Host line applies when one of
// its patterns (* and ? wildcards) matches host and none of its negated
// ones (!pattern) does; a Match block is taken as matching nothing (its
// criteria are not evaluated here: what it sets is missed, and the proxy
// then refuses the connection, saying to which host). In HostName, %h is
// host and %% a percent sign. hostname is host and port 0 where nothing
// sets them.
func SSHDestination(files []string, home, host string) (hostname string, port int) {
	r := &sshDestReader{home: home, host: host, seen: map[string]bool{}}
	for _, f := range files {
		dir := filepath.Dir(f)
		if filepath.IsAbs(home) && f != SSHSystemConfig {
			dir = filepath.Join(home, ".ssh")
		}
		r.read(f, dir, 0, true)
	}
	if r.hostname == "" {
		r.hostname = host
	}
	return r.hostname, r.port
}

// SSHConfigFiles are the files ssh reads its configuration from without
// -F: ~/.ssh/config, then [SSHSystemConfig].
func SSHConfigFiles(home string) []string {
	var out []string
	if filepath.IsAbs(home) {
		out = append(out, filepath.Join(home, ".ssh", "config"))
	}
	return append(out, SSHSystemConfig)
}

type sshDestReader struct {
	home, host string
	seen       map[string]bool
	hostname   string
	port       int
}

// read reads the file p (relative Includes relative to dir) with the
// Host block state applies (an Include inherits the block it is in).
func (r *sshDestReader) read(p, dir string, depth int, applies bool) {
	for _, l := range readSSHConfig(p, depth, r.seen) {
		switch l.key {
		case "host":
			applies = sshHostMatches(l.args, r.host)
		case "match":
			applies = len(l.args) == 1 && strings.EqualFold(l.args[0], "all")
		case "hostname":
			if applies && r.hostname == "" && len(l.args) > 0 {
				r.hostname = strings.NewReplacer("%h", r.host, "%%", "%").Replace(l.args[0])
			}
		case "port":
			if applies && r.port == 0 && len(l.args) > 0 {
				if n, err := strconv.Atoi(l.args[0]); err == nil && n > 0 && n < 65536 {
					r.port = n
				}
			}
		case "include":
			if !applies {
				continue
			}
			for _, m := range sshIncludes(l.args, dir, r.home) {
				r.read(m, dir, depth+1, applies)
			}
		}
	}
}

// sshHostMatches reports whether a Host line's patterns take host.
func sshHostMatches(patterns []string, host string) bool {
	ok := false
	for _, p := range patterns {
		if neg, found := strings.CutPrefix(p, "!"); found {
			if sshGlob(strings.ToLower(neg), strings.ToLower(host)) {
				return false
			}
		} else if sshGlob(strings.ToLower(p), strings.ToLower(host)) {
			ok = true
		}
	}
	return ok
}

// sshGlob is ssh's match_pattern: * any run, ? any one character.
func sshGlob(p, s string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for i := len(s); i >= 0; i-- {
				if sshGlob(p[1:], s[i:]) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		p, s = p[1:], s[1:]
	}
	return s == ""
}
