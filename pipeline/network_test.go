package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/netrule"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
	"github.com/safezonehq/safezone/policy"
)

// TestNetworkIsolate: with network.isolate on, a confined command's
// ruleset gives it a network of its own through the proxy beside the
// safezone binary, allowing the registries the user's tools are set up
// for (here npm's from ~/.npmrc, the others' defaults) and network.allow
// less network.deny; a repository's allow entry waits for trust; explain
// and the model's reason say so. Without the proxy the command does not
// run confined.
func TestNetworkIsolate(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/proj", "SHELL": "/bin/bash", "GOPROXY": "https://goproxy.example.com,direct"})
	os.MkdirAll(dir+"/bin", 0o755)
	sys.Executable = dir + "/bin/safezone"
	proxy := dir + "/bin/" + ProxyName
	os.WriteFile(proxy, []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(dir+"/home/.npmrc", []byte("registry=https://npm.corp.example:8443/\n"), 0o600)
	os.WriteFile(dir+"/proj/.safezone.yaml", []byte("version: 1\nnetwork:\n  isolate: true\n  allow: [db.example.com:5432]\n  deny: [\"*.evil.example\"]\n"), 0o644)
	in := pipelinetest.Input("Bash", dir+"/proj", map[string]any{"command": "sh build.sh"})
	judge := func() Verdict {
		opts, err := ParseFlags([]string{"-y"}, false)
		if err != nil {
			t.Fatal(err)
		}
		opts.explain = true
		return (&Judger{Opts: opts, Sys: sys}).Decide([]byte(in), nil, "")
	}
	v := judge()
	if v.conf == nil {
		d, r := Outcome(v)
		t.Skipf("not confined here: %s %s %q", v.confineOff, d, r)
	}
	if st := sys.ConfineStatus(); st.ReadOnly != nil {
		if v.conf.Ruleset.Net != nil || !strings.Contains(v.conf.NetOff, "user namespace") {
			t.Errorf("no user namespaces: Net %v, NetOff %q", v.conf.Ruleset.Net, v.conf.NetOff)
		}
		return
	}
	n := v.conf.Ruleset.Net
	if n == nil || n.Proxy != proxy || !strings.HasSuffix(n.Socket, ".sock") || !slices.Contains(v.conf.Ruleset.Hide, n.Socket) {
		t.Fatalf("Net = %+v, hide %v", n, v.conf.Ruleset.Hide)
	}
	var cfg netrule.Config
	if err := json.Unmarshal(n.Policy, &cfg); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"npm.corp.example:8443", "goproxy.example.com", "pypi.org", "files.pythonhosted.org", "index.crates.io"} {
		if !slices.Contains(cfg.Allow, h) {
			t.Errorf("allow %v lacks %s", cfg.Allow, h)
		}
	}
	for _, h := range []string{"registry.npmjs.org", "proxy.golang.org", "db.example.com:5432"} {
		if slices.Contains(cfg.Allow, h) {
			t.Errorf("allow %v has %s", cfg.Allow, h)
		}
	}
	if !slices.Equal(cfg.Deny, []string{"*.evil.example"}) || !strings.Contains(cfg.Hint, "network.allow") {
		t.Errorf("deny %v, hint %q", cfg.Deny, cfg.Hint)
	}
	if cfg.Scope != dir+"/proj" {
		t.Errorf("scope %q, want the project root %s", cfg.Scope, dir+"/proj")
	}
	if !strings.Contains(v.conf.Command, "__confine") || v.conf.Launcher != "" {
		t.Errorf("not the Go launcher: %q", v.conf.Command)
	}
	if d := v.conf.describe(dir + "/home"); !strings.Contains(d, "network of its own") || !strings.Contains(d, "network.allow") {
		t.Errorf("the model is not told: %s", d)
	}
	var out strings.Builder
	e := ExplanationOf(v)
	if e.Confine == nil || e.Confine.Network != "proxy" {
		t.Fatalf("explain: %+v", e.Confine)
	}
	b, _ := json.Marshal(e)
	out.Write(b)
	if !strings.Contains(out.String(), `"npm.corp.example:8443"`) || !strings.Contains(out.String(), "npm's registry") {
		t.Errorf("explain: %s", out.String())
	}

	// The proxy gone: the command still runs confined, in a network
	// namespace with no way out (fail closed without asking every
	// command); the launcher's line and the model's note say what to
	// install, and explain says "none".
	os.Remove(proxy)
	v = judge()
	d, r := Outcome(v)
	if v.conf == nil || v.conf.Ruleset.Net == nil || v.conf.Ruleset.Net.Proxy != "" || d.String() != "allow" ||
		!strings.Contains(v.conf.Ruleset.Net.Note, InstallLine) || !strings.Contains(r, "no network at all") || !strings.Contains(r, ProxyName) {
		t.Errorf("without the proxy: confined %v, %s %q, off %q", v.conf != nil, d, r, v.confineOff)
	} else if e := ExplanationOf(v); e.Confine == nil || e.Confine.Network != "none" {
		t.Errorf("explain without the proxy: %+v", e.Confine)
	}
	_ = confine.NetHTTPPort
	_ = filepath.Join
}

func TestRemoteHost(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r.git": "github.com:443", "http://h.example:8080/r": "h.example:8080",
		"ssh://git@ssh.example.com:2222/r": "ssh.example.com:2222", "git@github.com:o/r.git": "github.com:22",
		"GitHub.com:o/r": "github.com:22", "git://h.example/r": "h.example:9418",
		"/srv/repo.git": "", "./r": "", "file:///srv/r": "", "ext::sh -c x": "", "[::1]:r": "",
	} {
		if got := remoteHost(in); got != want {
			t.Errorf("remoteHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNetworkGrantRemote: a call whose git grant applies may reach its
// repository's remotes.
func TestNetworkGrantRemote(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/proj", "SHELL": "/bin/bash", "PATH": os.Getenv("PATH")})
	os.MkdirAll(dir+"/bin", 0o755)
	sys.Executable = dir + "/bin/safezone"
	os.WriteFile(dir+"/bin/"+ProxyName, []byte("#!/bin/sh\n"), 0o755)
	os.MkdirAll(dir+"/proj/.git", 0o755)
	os.WriteFile(dir+"/proj/.git/config", []byte("[remote \"origin\"]\n\turl = https://git.example.com/o/r.git\n\tpushurl = ssh://git@ssh.example.com:2222/o/r.git\n"), 0o644)
	os.WriteFile(dir+"/proj/.safezone.yaml", []byte("version: 1\nnetwork:\n  isolate: true\n"), 0o644)
	in := pipelinetest.Input("Bash", dir+"/proj", map[string]any{"command": "git push origin main"})
	opts, err := ParseFlags([]string{"-y"}, false)
	if err != nil {
		t.Fatal(err)
	}
	opts.explain = true
	v := (&Judger{Opts: opts, Sys: sys}).Decide([]byte(in), nil, "")
	if v.conf == nil || v.conf.Ruleset.Net == nil {
		d, r := Outcome(v)
		t.Skipf("not confined with a network here: %s %q %s", d, r, v.confineOff)
	}
	if len(v.Res.Grants) == 0 {
		t.Skipf("no grant: %s", v.Res.GrantRefused)
	}
	for _, h := range []string{"git.example.com:443", "ssh.example.com:2222"} {
		if !slices.Contains(v.conf.NetAllow, h) || v.conf.NetWhy[h] != "the remote of the call's git grant" {
			t.Errorf("allow %v lacks %s", v.conf.NetAllow, h)
		}
	}
}

// TestSSHGrantHosts: the destinations of the ssh tools of a granted call,
// as host:port, for the network's allowlist.
func TestSSHGrantHosts(t *testing.T) {
	for in, want := range map[string]string{
		"ssh":                                  "",
		"ssh -p 2222 git@h.example uptime":     "h.example:2222",
		"ssh -p2222 -i key h.example":          "h.example:2222",
		"ssh -o BatchMode=yes -l me h.example": "h.example:22",
		"ssh ssh://me@h.example:2200 ls":       "h.example:2200",
		"ssh -- h.example":                     "h.example:22",
		"ssh 127.0.0.1":                        "127.0.0.1:22",
		"scp -P 22 a.txt me@h.example:/srv/":   "h.example:22",
		"scp scp://me@h.example:2022/x .":      "h.example:2022",
		"rsync -a src/ h.example:/srv/":        "h.example:22",
		"rsync -a src/ h.example::module/":     "",
		"rsync -a src/ rsync://h.example/m/":   "",
		"rsync -a src/ ./dst/":                 "",
		"sftp me@H.Example":                    "h.example:22",
		"sftp -P 2022 h.example:dir":           "h.example:2022",
		"scp -P 2222 a.txt h.example:/srv/":    "h.example:2222",
		"ssh -v":                               "",
	} {
		argv := strings.Fields(in)
		hosts, _ := sshGrantHosts(&classify.Result{Grants: []policy.Grant{{}}, Shell: &shell.Analysis{Commands: []shell.Command{{Argv: argv}}}}, "/", "/nonexistent")
		got := strings.Join(hosts, " ")
		if got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}

// TestSSHGrantHostsConfig: an alias is allowed where ssh connects for it
// (HostName and Port of -F's file, rsync's -e included), the port of the
// command line winning; the -F files are returned for their ProxyCommand.
func TestSSHGrantHostsConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg")
	os.WriteFile(cfg, []byte("Host box\n\tHostName 127.0.0.1\n\tPort 2200\n"), 0o600)
	for _, tc := range []struct {
		argv      []string
		want, cfg string
	}{
		{[]string{"ssh", "-F", cfg, "box", "uptime"}, "127.0.0.1:2200", cfg},
		{[]string{"ssh", "-Fcfg", "-p", "2022", "box"}, "127.0.0.1:2022", cfg},
		{[]string{"rsync", "-a", "-e", "ssh -F " + cfg, "src/", "box:/srv/"}, "127.0.0.1:2200", cfg},
		{[]string{"scp", "-F", cfg, "a.txt", "me@box:/tmp/"}, "127.0.0.1:2200", cfg},
		{[]string{"ssh", "box"}, "box:22", ""},
	} {
		hosts, cfgs := sshGrantHosts(&classify.Result{Grants: []policy.Grant{{}}, Shell: &shell.Analysis{Commands: []shell.Command{{Argv: tc.argv}}}}, dir, "/nonexistent")
		if strings.Join(hosts, " ") != tc.want || strings.Join(cfgs, " ") != tc.cfg {
			t.Errorf("%q: hosts %q, configs %q; want %q, %q", tc.argv, hosts, cfgs, tc.want, tc.cfg)
		}
	}
}
