package pipeline

// The network of a confined command (policy network:, confine.Ruleset's
// Net): with network.isolate on, the command gets a network namespace of
// its own and reaches out only through safezone-proxy, which allows the
// package registries the user's tools are configured for (registries),
// network.allow (with Claude Code's allowedDomains and WebFetch(domain:…)
// rules) less network.deny.

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/gitconfig"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/netrule"
	"github.com/safezonehq/safezone/policy"
)

// ProxyName is the proxy program's file name, looked for beside the
// safezone binary.
const ProxyName = "safezone-proxy"

// InstallLine is the one command that installs safezone and its network
// proxy together (README, "Install"): go install takes several packages of
// one module at one version.
const InstallLine = "go install github.com/safezonehq/safezone@latest github.com/safezonehq/safezone/cmd/safezone-proxy@latest"

// proxyInstall says how to install the proxy.
const proxyInstall = "install it beside safezone: " + InstallLine

// proxyProgram returns the proxy beside the safezone binary exe, or why
// there is none that may be used: it must be a regular file, executable,
// owned by the user or root and writable by no one else (a confined
// command must not be able to replace what judges its connections).
func proxyProgram(exe string, uid int) (string, error) {
	if !filepath.IsAbs(exe) {
		return "", errors.New("cannot tell where the safezone binary is")
	}
	p := filepath.Join(filepath.Dir(exe), ProxyName)
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("no %s beside safezone (%v): %s", ProxyName, err, proxyInstall)
	}
	owner, _ := confine.Owner(fi)
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 || fi.Mode().Perm()&0o022 != 0 || (owner != uid && owner != 0) {
		return "", fmt.Errorf("%s is not an executable file of yours or root's that no one else may write", p)
	}
	return p, nil
}

// NetworkProxy returns the network proxy beside this safezone binary, or
// why there is none that may be used (see proxyProgram).
func (s *System) NetworkProxy() (string, error) { return proxyProgram(s.Executable, s.uid) }

// proxySocket returns the socket of the proxy daemon for the program
// proxy: in the state directory's net/, named by a hash of the program's
// path, size and modification time (a new build starts a daemon of its
// own).
func (s *System) proxySocket(proxy string) (string, error) {
	sd := s.StateDir()
	if sd == "" {
		return "", errors.New("there is no state directory ($XDG_STATE_HOME or ~/.local/state) for the network proxy's socket")
	}
	h := fnv.New64a()
	h.Write([]byte(proxy))
	if fi, err := os.Stat(proxy); err == nil {
		fmt.Fprintf(h, "\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano())
	}
	// A path too long for a socket's address is reached through a
	// descriptor of its directory (confine.SocketAddr).
	return filepath.Join(sd, "net", hex.EncodeToString(h.Sum(nil))+".sock"), nil
}

// registry is one package ecosystem's registries: the variables and
// configuration files that name them, and its defaults.
type registry struct {
	tool     string
	defaults []string
}

// registries are the hosts each ecosystem fetches packages from by default
// (npm 11's registry; go 1.26's GOPROXY and GOSUMDB; pip 25's index and
// file host; cargo 1.9x's sparse index, crates and downloads).
var registries = []registry{
	{"npm", []string{"registry.npmjs.org"}},
	{"go", []string{"proxy.golang.org", "sum.golang.org"}},
	{"pip", []string{"pypi.org", "files.pythonhosted.org"}},
	{"cargo", []string{"index.crates.io", "static.crates.io", "crates.io"}},
}

// registryHosts returns the hosts of the package registries the user's
// tools are configured for, by ecosystem, with where each came from: npm's
// registry from npm_config_registry or registry= of the user's .npmrc;
// GOPROXY's and GOSUMDB's hosts; pip's index-url and extra-index-url from
// PIP_INDEX_URL, PIP_EXTRA_INDEX_URL or the user's and the system's
// pip.conf; each ecosystem's default when nothing names one. Only the
// user's own settings count: the hook's environment and files in the home
// directory or /etc, which a confined command cannot write. A project's
// files (its .npmrc, a virtualenv's pip.conf, .cargo/config.toml) are the
// agent's to write, so a registry they name is reached only once the user
// names it in network.allow (a red team's break: a confined command wrote
// registry=http://127.0.0.1:9999/ into the project's .npmrc and the next
// command sent the project out to a listener there).
func (j *Judger) registryHosts() map[string][]string {
	home := j.Sys.Getenv("HOME")
	out := map[string][]string{}
	add := func(tool, raw string) {
		if h := urlHost(raw); h != "" && !slices.Contains(out[tool], h) {
			out[tool] = append(out[tool], h)
		}
	}
	// npm: the environment, then the user's .npmrc.
	if v := firstEnv(j.Sys.Getenv, "npm_config_registry", "NPM_CONFIG_REGISTRY"); v != "" {
		add("npm", v)
	} else if v := iniValue(filepath.Join(home, ".npmrc"), "registry"); v != "" {
		add("npm", v)
	}
	// go: GOPROXY's entries (off and direct name no host), GOSUMDB's.
	for _, e := range strings.FieldsFunc(j.Sys.Getenv("GOPROXY"), func(r rune) bool { return r == ',' || r == '|' }) {
		add("go", e)
	}
	if s := j.Sys.Getenv("GOSUMDB"); s != "" && s != "off" {
		f := strings.Fields(s)
		if len(f) == 2 {
			add("go", f[1])
		} else if len(f) == 1 && f[0] != "sum.golang.org" {
			add("go", "https://"+strings.SplitN(f[0], "+", 2)[0])
		}
	}
	// pip.
	for _, v := range []string{"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"} {
		for _, u := range strings.Fields(j.Sys.Getenv(v)) {
			add("pip", u)
		}
	}
	if len(out["pip"]) == 0 {
		for _, f := range []string{filepath.Join(home, ".config/pip/pip.conf"), filepath.Join(home, ".pip/pip.conf"), "/etc/pip.conf"} {
			if v := iniValue(f, "index-url"); v != "" {
				add("pip", v)
				add("pip", iniValue(f, "extra-index-url"))
				break
			}
		}
	}
	for _, r := range registries {
		if len(out[r.tool]) == 0 || r.tool == "go" && j.Sys.Getenv("GOPROXY") == "" {
			for _, h := range r.defaults {
				add(r.tool, "https://"+h)
			}
		}
	}
	return out
}

// grantRemotes returns the hosts (host:port) of the remotes of the
// repository the call runs git in, when a git grant applies to the call
// (classify checked that each reaches another machine): a credential
// grant carries its remote. https and http remotes at their port (443,
// 80 by default), ssh ones (ssh://, scp's host:path) at 22 or theirs;
// git:// at 9418.
func (j *Judger) grantRemotes(res *classify.Result, call *hookio.Call) []string {
	git := false
	for _, g := range res.Grants {
		t := strings.TrimPrefix(g.Command.Text, "Bash(")
		git = git || strings.HasPrefix(t, "git ") || strings.HasPrefix(t, "git:") || t == "git)"
	}
	if !git || !filepath.IsAbs(call.Cwd) {
		return nil
	}
	cfg, ok := gitconfig.LocalFile(j.Sys.FS, call.Cwd)
	if !ok {
		return nil
	}
	data, err := fs.ReadFile(j.Sys.FS, strings.TrimPrefix(cfg, "/"))
	if err != nil || len(data) > gitconfig.MaxFile {
		return nil
	}
	entries, err := gitconfig.Parse(data)
	if err != nil {
		return nil
	}
	// An ssh remote's host is where ssh connects for it: its
	// configuration's HostName and Port (GIT_SSH_COMMAND's -F file, else
	// ~/.ssh/config and the system's).
	home := j.Sys.Getenv("HOME")
	files := confine.SSHConfigFiles(home)
	if f := strings.Fields(j.Sys.Getenv("GIT_SSH_COMMAND")); len(f) > 1 {
		for i := 1; i < len(f)-1; i++ {
			if f[i] == "-F" && filepath.IsAbs(f[i+1]) {
				files = []string{filepath.Clean(f[i+1])}
			}
		}
	}
	var out []string
	for _, e := range entries {
		if e.Section != "remote" || (e.Key != "url" && e.Key != "pushurl") {
			continue
		}
		h := remoteHost(e.Value)
		if h == "" {
			continue
		}
		if host, port, ok := sshRemote(e.Value); ok {
			hostname, cport := confine.SSHDestination(files, home, host)
			if port == 0 {
				port = cmp.Or(cport, 22)
			}
			h = sshDest(hostname, strconv.Itoa(port))
		}
		if h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// sshRemote returns the host of a git remote over ssh (ssh://,
// git+ssh://, ssh+git:// or scp's [user@]host:path) and the port it names
// (0 for none); ok is false for any other remote.
func sshRemote(u string) (host string, port int, ok bool) {
	if scheme, _, found := strings.Cut(u, "://"); found {
		if scheme != "ssh" && scheme != "git+ssh" && scheme != "ssh+git" {
			return "", 0, false
		}
		pu, err := url.Parse(u)
		if err != nil || pu.Hostname() == "" {
			return "", 0, false
		}
		return pu.Hostname(), atoi(pu.Port()), true
	}
	if remoteHost(u) == "" {
		return "", 0, false
	}
	host, _, _ = strings.Cut(u, ":")
	if _, h, found := strings.Cut(host, "@"); found {
		host = h
	}
	return host, 0, true
}

// remoteHost returns host:port of a git URL that reaches another machine,
// "" for any other.
func remoteHost(u string) string {
	defaults := map[string]string{"https": "443", "http": "80", "ssh": "22", "git+ssh": "22", "ssh+git": "22", "git": "9418"}
	if scheme, _, ok := strings.Cut(u, "://"); ok {
		pu, err := url.Parse(u)
		if err != nil || defaults[scheme] == "" || pu.Hostname() == "" {
			return ""
		}
		port := pu.Port()
		if port == "" {
			port = defaults[scheme]
		}
		return strings.ToLower(netrule.JoinHostPort(pu.Hostname(), atoi(port)))
	}
	// scp's [user@]host:path
	host, _, ok := strings.Cut(u, ":")
	if !ok || host == "" || strings.ContainsAny(host, "/[") || strings.HasPrefix(u, ".") || strings.Contains(u, "::") {
		return ""
	}
	if _, h, ok := strings.Cut(host, "@"); ok {
		host = h
	}
	if _, err := netrule.Parse(host); err != nil {
		return ""
	}
	return strings.ToLower(host) + ":22"
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// firstEnv returns the first of the variables names that is set.
func firstEnv(getenv func(string) string, names ...string) string {
	for _, n := range names {
		if v := getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// urlHost returns the host (with its port, when it has one) of the URL
// raw, "" when raw is not an http(s) URL.
func urlHost(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Host)
}

// iniValue returns the value of the first line "key = value" (or
// key=value) of the file f (an .npmrc, a pip.conf), "" when there is none
// or the file cannot be read; files over 64 KiB are not read.
func iniValue(f, key string) string {
	data, err := os.ReadFile(f)
	if err != nil || len(data) > 64<<10 {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// netAllow returns the allowlist of a confined command: the registries'
// hosts, the remotes of its git grant, then network.allow, with why each
// is there.
func (j *Judger) netAllow(pol *policy.Policy, project string, res *classify.Result, call *hookio.Call) (allow []string, why map[string]string) {
	why = map[string]string{}
	regs := j.registryHosts()
	for _, r := range registries {
		for _, h := range regs[r.tool] {
			if !slices.Contains(allow, h) {
				allow = append(allow, h)
				why[h] = r.tool + "'s registry"
			}
		}
	}
	for _, h := range j.grantRemotes(res, call) {
		if !slices.Contains(allow, h) {
			allow = append(allow, h)
			why[h] = "the remote of the call's git grant"
		}
	}
	sshHosts, _ := sshGrantHosts(res, call.Cwd, j.Sys.Getenv("HOME"))
	for _, h := range sshHosts {
		if !slices.Contains(allow, h) {
			allow = append(allow, h)
			why[h] = "the host of the call's ssh grant"
		}
	}
	for _, s := range pol.Network.Allow {
		if !slices.Contains(allow, s.Value) {
			allow = append(allow, s.Value)
			why[s.Value] = "network.allow (" + s.Pos.String() + ")"
		}
	}
	return allow, why
}

// network sets c's ruleset's Net when the policy isolates confined
// commands: the proxy and what it allows. nsErr says why there are no
// user namespaces here (nil when there are): then the network stays open,
// and c.NetOff says why.
func (j *Judger) network(c *confinement, res *classify.Result, call *hookio.Call, host hookio.Host, pol *policy.Policy, project string, nsErr error) error {
	if !pol.Network.Isolate.Value {
		return nil
	}
	if nsErr != nil {
		c.NetOff = "the network stays open: a network namespace takes a user namespace (" + nsErr.Error() + ")"
		return nil
	}
	proxy, err := j.Sys.NetworkProxy()
	if err != nil {
		// Fail closed without stopping the work: the command runs in a
		// network namespace with no way out at all (the launcher says so
		// on its standard error, the model's note says why), rather than
		// every confined command being asked, or run with the network
		// open. Most commands need no network; one that does fails at
		// its first connection, and the line says what to install.
		c.Ruleset.Net = &confine.Net{Note: "this command has no network: " + err.Error()}
		c.NetOff = "it has no network at all (network.isolate is on and " + err.Error() + "): a download or any connection fails; ask the user to install safezone-proxy rather than working around it"
		return nil
	}
	allow, why := j.netAllow(pol, project, res, call)
	cfg := netrule.Config{Protocol: netrule.Protocol, Allow: allow, Deny: policy.Values(pol.Network.Deny),
		Hint: "add the host to network.allow in safezone's policy (~/.config/safezone/policy.yaml, or the project's .safezone.yaml)",
		// Servers left running are forwarded between the commands of
		// this project only.
		Scope: filepath.Clean(project)}
	if f := pol.Audit.File(j.Sys.Getenv("HOME"), project); f != "" {
		cfg.Audit = &netrule.Audit{Path: f, MaxBytes: pol.Audit.MaxBytes.Value, Keep: pol.Audit.Keep.Value, Host: host.Name(),
			SessionID: call.SessionID, ToolUseID: call.ToolUseID, Cwd: call.Cwd}
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	sock, err := j.Sys.proxySocket(proxy)
	if err != nil {
		return fmt.Errorf("network.isolate is on, but %w", err)
	}
	c.Ruleset.Net = &confine.Net{Proxy: proxy, Socket: sock, Policy: data}
	// The daemon's socket is the way to a network of one's choosing.
	c.Ruleset.Hide = append(c.Ruleset.Hide, sock)
	if c.Why == nil {
		c.Why = map[string]string{}
	}
	c.Why[sock] = "leads to safezone's network proxy"
	c.NetAllow, c.NetWhy = allow, why
	if len(res.Grants) > 0 {
		_, cfgs := sshGrantHosts(res, call.Cwd, j.Sys.Getenv("HOME"))
		for _, f := range append([]string{confine.SSHSystemConfig}, cfgs...) {
			j.sshThroughProxy(c, proxy, f)
		}
	}
	return nil
}

// sshThroughProxy gives the confined command of a call with a grant
// (ssh, scp, rsync, git over ssh) the ssh configuration file file (the
// system-wide one, or one an ssh tool's -F names) with a first line that
// sends every connection through the namespace's proxy (ProxyCommand
// PROXY connect %h %p, see netproxy.Connect), then the file's own
// contents: a copy in the state directory's sshconfig/, bound over the
// file (Replace). ssh takes the first value it finds of each option,
// command line, then ~/.ssh/config, then the system's file: a
// ProxyCommand or ProxyJump of the user's own configuration comes before
// the system's (a ProxyJump host is then reached through this one), and
// one in a -F file after this line; git's GIT_SSH_COMMAND gets the option
// on its command line from the launcher. Nothing is done where the file
// is missing or cannot be copied: ssh then has no way out.
func (j *Judger) sshThroughProxy(c *confinement, proxy, file string) {
	sys, err := filepath.EvalSymlinks(file)
	if err != nil {
		return
	}
	data, err := os.ReadFile(sys)
	if err != nil || len(data) > 1<<20 {
		return
	}
	sd := j.Sys.StateDir()
	if sd == "" {
		return
	}
	content := append([]byte("# safezone: every connection of a confined command goes through its network proxy\nProxyCommand "+confine.SSHProxyCommand(proxy)+"\n\n"), data...)
	h := fnv.New64a()
	h.Write(content)
	copyPath := filepath.Join(sd, "sshconfig", hex.EncodeToString(h.Sum(nil)))
	if j.live {
		if _, err := os.Stat(copyPath); err != nil {
			if err := os.MkdirAll(filepath.Dir(copyPath), 0o700); err != nil {
				return
			}
			tmp := fmt.Sprintf("%s.%d", copyPath, os.Getpid())
			if os.WriteFile(tmp, content, 0o600) != nil || os.Rename(tmp, copyPath) != nil {
				os.Remove(tmp)
				return
			}
		}
		if r, err := filepath.EvalSymlinks(copyPath); err == nil {
			copyPath = r
		}
	}
	if c.Ruleset.Replace == nil {
		c.Ruleset.Replace = map[string]string{}
	}
	c.Ruleset.Replace[sys] = copyPath
	if c.Why == nil {
		c.Why = map[string]string{}
	}
	c.Why[sys] = "a copy whose first line sends ssh's connections through safezone's network proxy"
}

// sshTools are the programs that reach a host over ssh whose destinations
// sshGrantHosts reads (classify's sshTools, and rsync to a host): the
// options that take an argument (OpenSSH 9's ssh(1), scp(1), sftp(1);
// rsync's -e, -f, -T...; sshfs's -o, -p), the one that names the port,
// and whether the first operand is the destination (ssh, sftp) or every
// operand that names a host is one (scp, rsync, sshfs).
type sshTool struct {
	optArg string
	port   byte
	first  bool
}

var sshTools = map[string]sshTool{
	"ssh":         {"BbcDEeFIiJLlmOoPpQRSWw", 'p', true},
	"ssh-copy-id": {"FfiJOop", 'p', true},
	"sftp":        {"BbcDFiJlOoPRSsX", 'P', true},
	"scp":         {"cDFiJlOoPSX", 'P', false},
	"sshfs":       {"op", 'p', false},
	"rsync":       {"efBTM", 0, false},
}

// sshGrantHosts returns the destinations (host:port) of the ssh tools of
// a call that a grant applies to (classify asked every ssh tool no grant
// covers), and the configuration files their -F options name (absolute,
// from cwd): the first operand of ssh, ssh-copy-id and sftp ([user@]host,
// or ssh:// and sftp:// URLs), the operands of scp, sshfs and rsync that
// name a host ([user@]host:path, or an scp:// URL; rsync's host::path and
// rsync:// reach an rsync daemon, not ssh, and are left out). A host
// is where ssh connects for it (confine.SSHDestination: the HostName and
// Port of its configuration, -F's file or ~/.ssh/config and the
// system's); the port the command line names wins, else 22.
func sshGrantHosts(res *classify.Result, cwd, home string) (hosts, configs []string) {
	if res == nil || res.Shell == nil || len(res.Grants) == 0 {
		return nil, nil
	}
	for _, c := range res.Shell.Commands {
		if len(c.Argv) == 0 {
			continue
		}
		name := filepath.Base(c.Argv[0])
		tool, ok := sshTools[name]
		if !ok {
			continue
		}
		port, cfg := "", ""
		// opts reads the options of args as tool's; the operands.
		var opts func(tool sshTool, args []string) (operands []string)
		opts = func(tool sshTool, args []string) (operands []string) {
			for i := 0; i < len(args); i++ {
				a := args[i]
				if a == "--" {
					return append(operands, args[i+1:]...)
				}
				if v, ok := strings.CutPrefix(a, "--rsh="); ok && name == "rsync" {
					f := strings.Fields(v)
					if len(f) > 0 {
						opts(sshTools["ssh"], f[1:])
					}
					continue
				}
				if !strings.HasPrefix(a, "-") || a == "-" {
					operands = append(operands, a)
					continue
				}
				if strings.HasPrefix(a, "--") {
					continue
				}
				for k := 1; k < len(a); k++ {
					if strings.IndexByte(tool.optArg, a[k]) < 0 {
						continue
					}
					v := a[k+1:]
					if v == "" && i+1 < len(args) {
						i++
						v = args[i]
					}
					switch {
					case a[k] == tool.port:
						port = v
					case a[k] == 'F':
						cfg = v
					case a[k] == 'e' && name == "rsync":
						if f := strings.Fields(v); len(f) > 0 {
							opts(sshTools["ssh"], f[1:])
						}
					}
					break
				}
			}
			return operands
		}
		operands := opts(tool, c.Argv[1:])
		files := confine.SSHConfigFiles(home)
		if cfg != "" {
			if !filepath.IsAbs(cfg) {
				cfg = filepath.Join(cwd, cfg)
			}
			files = []string{filepath.Clean(cfg)}
			if !slices.Contains(configs, files[0]) {
				configs = append(configs, files[0])
			}
		}
		add := func(host, explicit string) {
			host = strings.Trim(host, "[]")
			if host == "" {
				return
			}
			hostname, cport := confine.SSHDestination(files, home, host)
			p := "22"
			switch {
			case explicit != "":
				p = explicit
			case port != "":
				p = port
			case cport > 0:
				p = strconv.Itoa(cport)
			}
			if hp := sshDest(hostname, p); hp != "" && !slices.Contains(hosts, hp) {
				hosts = append(hosts, hp)
			}
		}
		for n, a := range operands {
			if tool.first && n > 0 {
				break
			}
			switch {
			case strings.HasPrefix(a, "ssh://"), strings.HasPrefix(a, "scp://"), strings.HasPrefix(a, "sftp://"):
				_, u, _ := strings.Cut(a, "://")
				u, _, _ = strings.Cut(u, "/")
				if _, h, ok := strings.Cut(u, "@"); ok {
					u = h
				}
				h, p := u, ""
				if strings.HasPrefix(u, "[") {
					if i := strings.IndexByte(u, ']'); i > 0 {
						h, p = u[1:i], strings.TrimPrefix(u[i+1:], ":")
					}
				} else if x, y, ok := strings.Cut(u, ":"); ok {
					h, p = x, y
				}
				add(h, p)
			case strings.Contains(a, "://"), strings.Contains(a, "::"):
			case tool.first:
				host, _, _ := strings.Cut(a, ":")
				if i := strings.LastIndexByte(host, '@'); i >= 0 {
					host = host[i+1:]
				}
				add(host, "")
			default:
				if host, _, ok := strings.Cut(a, ":"); ok && !strings.Contains(host, "/") {
					if i := strings.LastIndexByte(host, '@'); i >= 0 {
						host = host[i+1:]
					}
					add(host, "")
				}
			}
		}
	}
	return hosts, configs
}

// sshDest returns host:port of an ssh destination host at port; "" when
// it is not a host netrule accepts or the port is not a number in range.
func sshDest(host, port string) string {
	n, err := strconv.Atoi(port)
	if host == "" || err != nil || n < 1 || n > 65535 {
		return ""
	}
	if _, err := netrule.Parse(host); err != nil || strings.HasPrefix(host, "*") {
		return ""
	}
	return strings.ToLower(netrule.JoinHostPort(host, n))
}
