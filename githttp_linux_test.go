package main

import (
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitOverHTTPConfined: with the network isolated (the default, issue
// 29), git fetch, pull and push over http to the project's remote work
// confined, through the proxy, because a git grant carries its remote onto
// the call's allowlist (pipeline/network.go, grantRemotes); the same host
// reached by another program of another call is refused. The remote is git's
// own http-backend (the smart protocol, as a forge serves it) behind a
// server the test starts on 127.0.0.1, an address the proxy refuses unless
// an entry names it exactly: here the grant's remote.
func TestGitOverHTTPConfined(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	for _, p := range []string{"git", "curl"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("no %s: %v", p, err)
		}
	}
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Skip("git --exec-path:", err)
	}
	backend := filepath.Join(strings.TrimSpace(string(execPath)), "git-http-backend")
	if _, err := os.Stat(backend); err != nil {
		t.Skip("no git-http-backend:", err)
	}
	bin := confinedBuildWithProxy(t)
	d := workRoot(t)
	home, proj, repos := filepath.Join(d, "home"), filepath.Join(d, "proj"), filepath.Join(d, "repos")
	for _, p := range []string{home, repos} {
		mustMkdir(t, p)
	}
	gitEnv := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	runIn(t, repos, gitEnv, "git", "init", "-q", "--bare", "-b", "main", "remote.git")
	runIn(t, repos, gitEnv, "git", "-C", "remote.git", "config", "http.receivepack", "true")
	seed := filepath.Join(d, "seed")
	mustMkdir(t, seed)
	runIn(t, seed, gitEnv, "git", "init", "-q", "-b", "main")
	writeFile(t, seed+"/README.md", "first\n")
	runIn(t, seed, gitEnv, "git", "add", ".")
	runIn(t, seed, gitEnv, "git", "commit", "-qm", "first")
	runIn(t, seed, gitEnv, "git", "push", "-q", filepath.Join(repos, "remote.git"), "main")

	srv := httptest.NewServer(&cgi.Handler{Path: backend, Env: []string{"GIT_PROJECT_ROOT=" + repos, "GIT_HTTP_EXPORT_ALL=1"}})
	t.Cleanup(srv.Close)
	url := srv.URL + "/remote.git"
	runIn(t, d, gitEnv, "git", "clone", "-q", url, proj)
	// Another commit on the remote, for the confined fetch to bring.
	writeFile(t, seed+"/README.md", "second\n")
	runIn(t, seed, gitEnv, "git", "commit", "-qam", "second")
	runIn(t, seed, gitEnv, "git", "push", "-q", filepath.Join(repos, "remote.git"), "main")

	env := append(gitEnv, "CLAUDE_PROJECT_DIR="+proj, "SHELL=/bin/bash", "TMPDIR=/tmp",
		"XDG_CONFIG_HOME="+filepath.Join(d, "xdg"), "XDG_STATE_HOME="+filepath.Join(d, "state"))
	t.Cleanup(func() { stopDaemons(filepath.Join(d, "state")) })
	h := &hookRunner{t: t, bin: bin}
	if ex := h.explain(proj, env, "git fetch origin"); ex.Ruleset.Net == nil {
		t.Fatalf("git fetch origin runs with the network open: want the namespace of its own (the default)")
	}
	out := h.confined(proj, env, 0, "git fetch origin")
	t.Logf("git fetch origin: %s", out)
	if got := runIn(t, proj, gitEnv, "git", "log", "-1", "--format=%s", "origin/main"); strings.TrimSpace(got) != "second" {
		t.Fatalf("after the confined fetch origin/main is %q, want the remote's second commit", got)
	}
	h.confined(proj, env, 0, "git pull -q --ff-only origin main")
	writeFile(t, proj+"/NOTES.md", "from the agent\n")
	runIn(t, proj, gitEnv, "git", "add", "NOTES.md")
	runIn(t, proj, gitEnv, "git", "commit", "-qm", "notes")
	h.confined(proj, env, 0, "git push -q origin HEAD:refs/heads/agent")
	if got := runIn(t, repos, gitEnv, "git", "-C", "remote.git", "log", "-1", "--format=%s", "agent"); strings.TrimSpace(got) != "notes" {
		t.Fatalf("the confined push did not arrive: the remote's branch agent is at %q", got)
	}
	// The same server reached by a program with no grant: refused by the
	// proxy (curl told to use it even for 127.0.0.1), and nothing arrives.
	out = h.confined(proj, env, -1, "curl -sS --fail --noproxy '' --max-time 5 "+url+"/info/refs?service=git-upload-pack")
	if strings.Contains(out, "refs/heads/main") || !strings.Contains(out, "403") {
		t.Fatalf("curl with no grant: %s; want the proxy's 403", out)
	}
	t.Logf("curl: %s", out)
}
