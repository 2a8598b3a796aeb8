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

// proxyInstall says how to install the proxy.
const proxyInstall = "install it beside safezone: go install github.com/safezonehq/safezone/cmd/safezone-proxy@latest"

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
	p := filepath.Join(sd, "net", hex.EncodeToString(h.Sum(nil))+".sock")
	if len(p) >= 108 {
		return "", fmt.Errorf("the network proxy's socket %s is too long a path for a Unix socket", p)
	}
	return p, nil
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
// registry from npm_config_registry or registry= of the project's and the
// user's .npmrc; GOPROXY's and GOSUMDB's hosts; pip's index-url and
// extra-index-url from PIP_INDEX_URL, PIP_EXTRA_INDEX_URL or pip.conf;
// each ecosystem's default when nothing names one.
func (j *Judger) registryHosts(project string) map[string][]string {
	home := j.Sys.Getenv("HOME")
	out := map[string][]string{}
	add := func(tool, raw string) {
		if h := urlHost(raw); h != "" && !slices.Contains(out[tool], h) {
			out[tool] = append(out[tool], h)
		}
	}
	// npm: the environment, then the project's .npmrc, then the user's.
	if v := firstEnv(j.Sys.Getenv, "npm_config_registry", "NPM_CONFIG_REGISTRY"); v != "" {
		add("npm", v)
	} else {
		for _, f := range []string{filepath.Join(project, ".npmrc"), filepath.Join(home, ".npmrc")} {
			if v := iniValue(f, "registry"); v != "" {
				add("npm", v)
				break
			}
		}
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
	var out []string
	for _, e := range entries {
		if e.Section != "remote" || (e.Key != "url" && e.Key != "pushurl") {
			continue
		}
		if h := remoteHost(e.Value); h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
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
	regs := j.registryHosts(project)
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
		return fmt.Errorf("network.isolate is on, but the network proxy cannot run: %w", err)
	}
	allow, why := j.netAllow(pol, project, res, call)
	cfg := netrule.Config{Protocol: netrule.Protocol, Allow: allow, Deny: policy.Values(pol.Network.Deny),
		Hint: "add the host to network.allow in safezone's policy (~/.config/safezone/policy.yaml, or the project's .safezone.yaml)"}
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
	return nil
}
