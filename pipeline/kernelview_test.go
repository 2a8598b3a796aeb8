package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

func TestSanitizedNpmrc(t *testing.T) {
	in := `registry=https://npm.example.com/
@corp:registry=https://npm.corp.example/
//npm.corp.example/:_authToken=npm_SECRET1
//registry.npmjs.org/:_authToken = npm_SECRET2
_auth=c2VjcmV0
//host/:_password=SECRET3
//host/:username=bob
email=bob@example.com
proxy=http://proxy.example:8080
cafile=/etc/ssl/corp.pem
; a comment
`
	out := string(sanitizedNpmrc([]byte(in)))
	for _, secret := range []string{"SECRET1", "SECRET2", "c2VjcmV0", "SECRET3", "username=bob"} {
		if strings.Contains(out, secret) {
			t.Errorf("the copy keeps %q:\n%s", secret, out)
		}
	}
	for _, keep := range []string{"registry=https://npm.example.com/", "@corp:registry=", "email=bob@example.com", "proxy=http://proxy.example:8080", "cafile=/etc/ssl/corp.pem", "; a comment"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the copy lost %q:\n%s", keep, out)
		}
	}
}

// TestDescribeGitReadOnly: where a repository's configuration or hooks are
// kept read-only, the model is told what fails there (git config, hook
// installers) and that the user runs them; other read-only paths named
// config or hooks outside a .git directory say nothing of git.
func TestDescribeGitReadOnly(t *testing.T) {
	const git = "git's configuration and hooks (.git/config, .git/hooks) are read-only"
	for _, tc := range []struct {
		name     string
		readOnly []string
		want     bool
	}{
		{"config", []string{"/p/.claude", "/p/.git/config"}, true},
		{"hooks", []string{"/p/.git/hooks"}, true},
		{"a config file outside .git", []string{"/p/.claude", "/p/config", "/p/hooks/hooks.json"}, false},
		{"a directory named hooks", []string{"/p/.github/hooks"}, false},
	} {
		c := &confinement{Ruleset: confine.Ruleset{Write: []string{"/p"}, ReadOnly: tc.readOnly}}
		got := c.describe("/home/u")
		if strings.Contains(got, git) != tc.want {
			t.Errorf("%s: describe = %q, want the git sentence: %v", tc.name, got, tc.want)
		}
		if tc.want && !strings.Contains(got, "ask the user") {
			t.Errorf("%s: describe = %q: it does not say to ask the user", tc.name, got)
		}
	}
}

// TestOutsideSockets: a Bash call that runs confined gets every socket
// bound outside the sandbox hidden (the list stands in for
// /proc/net/unix), but the project's own, a granted one (confine.sockets)
// and those beneath a directory already hidden; a root that holds the
// home directory does not make the sockets below it the command's own.
// When the bound sockets cannot be listed, the call is not run as if they
// were hidden: it is asked, with the reason.
func TestOutsideSockets(t *testing.T) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no cache directory for a root outside $TMPDIR:", err)
	}
	root, err := os.MkdirTemp(cache, "safezone-sockets-test-")
	if err != nil {
		t.Skip("cannot make a root outside $TMPDIR:", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	sys, dir := testSystemAt(t, root)
	sys.Confine = &OnceStatus{Get: func() confine.Status { return confine.Status{LandlockABI: 6} }}
	home, proj := dir+"/home", dir+"/proj"
	agent, svc, granted, own, inSSH := home+"/.1password/agent.sock", home+"/.local/run/svc.sock", home+"/granted.sock", proj+"/run/own.sock", home+"/.ssh/s.sock"
	for _, p := range []string{agent, svc, granted, own, inSSH} {
		serveUnix(t, p)
	}
	writeTestFile(t, dir+"/xdg/safezone/policy.yaml", "version: 1\nconfine:\n  sockets: [\"~/granted.sock\"]\n")
	sys.UnixSockets = func() (confine.BoundList, error) {
		return confine.BoundList{Paths: []string{agent, svc, granted, own, inSSH, dir + "/gone.sock"}}, nil
	}
	call := func(s *System, cwd string) (decision, reason, command string) {
		t.Helper()
		in, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": cwd, "permission_mode": "bypassPermissions",
			"tool_input": map[string]string{"command": "python3 x.py"}})
		r := runHook(t, s, bytes.NewReader(in))
		var out struct {
			HSO struct {
				Reason  string `json:"permissionDecisionReason"`
				Updated struct {
					Command string `json:"command"`
				} `json:"updatedInput"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v: %q", err, r.stdout)
		}
		return r.decision, out.HSO.Reason, out.HSO.Updated.Command
	}
	d, reason, cmd := call(sys, proj)
	if d != "allow" || cmd == "" {
		t.Fatalf("decision %s, want allow, confined: %s", d, reason)
	}
	for p, hidden := range map[string]bool{agent: true, svc: true, granted: false, own: false, inSSH: false, dir + "/gone.sock": false} {
		if got := strings.Contains(cmd, `"`+p+`"`); got != hidden {
			t.Errorf("%s hidden: %v, want %v", p, got, hidden)
		}
	}
	if !regexp.MustCompile(`the 2 (other )?Unix sockets bound outside the sandbox`).MatchString(reason) {
		t.Errorf("the reason does not count the sockets found: %s", reason)
	}

	// A project that holds the home directory: its sockets are not the
	// command's own.
	sysHome := *sys
	sysHome.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": home, "CLAUDE_PROJECT_DIR": dir})
	if d, reason, cmd := call(&sysHome, dir); d != "allow" || !strings.Contains(cmd, agent) {
		t.Errorf("a project holding the home directory: decision %s, agent hidden %v: %s", d, strings.Contains(cmd, agent), reason)
	}

	failing := *sys
	failing.UnixSockets = func() (confine.BoundList, error) {
		return confine.BoundList{}, errors.New("cannot list the bound Unix sockets: open /proc/net/unix: permission denied")
	}
	if d, reason, cmd := call(&failing, proj); d != "ask" || cmd != "" || !strings.Contains(reason, "cannot list the bound Unix sockets") {
		t.Errorf("the sockets cannot be listed: decision %s, command %q, reason %s; want ask, with the reason", d, cmd, reason)
	}
}

// serveUnix listens on the Unix socket p until the test ends.
func serveUnix(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
