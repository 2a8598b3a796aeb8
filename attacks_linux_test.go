package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
)

// buildBinary builds safezone from this module into dir: the launcher of
// the rewritten commands (the test binary is none).
func buildBinary(dir string) (string, error) {
	bin := filepath.Join(dir, "safezone")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
}

// attackSecrets are the secrets of attackFixture: none may reach a
// command's output.
var attackSecrets = []string{"ENV-S3CRET", "LOCAL-S3CRET", "PEM-S3CRET", "SSH-S3CRET"}

// attackFixture makes ROOT/proj (a git repository, with .env, a nested
// .env.local, a key, a README, an archive, docs/notes.txt: another name
// of .env), ROOT/home (HOME, with
// ~/.ssh/id_rsa) and ROOT/outside, outside the temporary directories
// (where a confined command may write), and returns ROOT.
func attackFixture(t *testing.T) string {
	t.Helper()
	root := workRoot(t)
	for name, content := range map[string]string{
		"proj/.env": "API_KEY=ENV-S3CRET\n", "proj/services/api/.env.local": "DB=LOCAL-S3CRET\n",
		"proj/certs/server.pem": "PEM-S3CRET\n", "proj/README.md": "API readme\n", "proj/src/a.go": "package a\n",
		"home/.ssh/id_rsa": "SSH-S3CRET\n", "outside/keep": "x\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := exec.Command("sh", "-c", "git init -q && git add README.md src && git -c user.name=t -c user.email=t@t commit -qm init && tar -cf ../outside/a.tar README.md && mkdir docs && ln .env docs/notes.txt")
	git.Dir = filepath.Join(root, "proj")
	git.Env = append(os.Environ(), "HOME="+filepath.Join(root, "home"))
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("fixture: %v\n%s", err, out)
	}
	return root
}

// TestAttacksConfined runs, for real, one command of each class of attack
// that an earlier round found answered allow without confinement (issue
// 20, item 1): options that run code, glob forms and find expressions
// that reach .env, git and rsync writing outside, a hard link to .env.
// Each goes through the hook in bypassPermissions under the embedded
// default policy; what it answers allow runs, as Claude Code would run it,
// with the rewritten command. Whatever the analysis makes of it, the harm
// must not happen: no secret in the output, nothing written outside.
func TestAttacksConfined(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs some twenty confined commands")
	}
	st := confine.Available()
	if !st.Confine() || st.ReadOnly != nil {
		t.Skip("the kernel cannot confine commands with hidden files here")
	}
	bin, err := buildBinary(t.TempDir())
	if err != nil {
		t.Fatalf("building safezone: %v", err)
	}
	for _, tc := range []struct {
		class, cmd string
		needs      string // a program the command needs
	}{
		{"an option that runs code: git grep -O", `git grep -O'sh -c "cat .env" #' API`, "git"},
		{"an option that runs code: tar --checkpoint-action", `tar -cf x.tar --checkpoint=1 --checkpoint-action=exec='cat .env' README.md`, "tar"},
		{"an option that runs code: tar --to-command", `tar -xf ../outside/a.tar --to-command='cat .env'`, "tar"},
		{"an option that runs code: wget --use-askpass", `wget -q --use-askpass='sh -c "cat .env >&2"' --user=u http://127.0.0.1:9/ -O /dev/null`, "wget"},
		{"a transport that runs code: GIT_ALLOW_PROTOCOL=ext", `GIT_ALLOW_PROTOCOL=ext git fetch 'ext::sh -c cat% .env% >&2'`, "git"},
		{"a glob range", `cat .e[a-z]v`, ""},
		{"a POSIX class", `cat .[[:alpha:]]nv services/api/.e[[:lower:]]v.local`, ""},
		{"a negated set", `cat .e[!x]v certs/*.p[!x]m`, ""},
		{"GLOBIGNORE turns dotglob on", `GLOBIGNORE=x; cat * 2>/dev/null`, ""},
		{"shopt -s dotglob", `shopt -s dotglob; cat * */*/* 2>/dev/null`, ""},
		{"an extglob pattern", "shopt -s extglob\ncat .@(env|nothing)", ""},
		{"a glob then ..", `cat */../.env`, ""},
		{"find -iname before -exec", `find . -iname '.ENV' -exec cat {} +`, "find"},
		{"find -o branches", `find . \( -name x -o -name '.env*' \) -exec cat {} \;`, "find"},
		{"find -path before -exec", `find . -path '*/certs/*' -exec cat {} +`, "find"},
		{"git writing outside: GIT_TRACE", `GIT_TRACE=$OUT/trace git status`, "git"},
		{"git writing outside: GIT_INDEX_FILE", `GIT_INDEX_FILE=$OUT/index git add README.md`, "git"},
		{"git writing outside: maintenance register", `git maintenance register`, "git"},
		{"rsync writing outside: --temp-dir", `mkdir -p dst && rsync -a --temp-dir=$OUT/tmp src/ dst/`, "rsync"},
		{"rsync running code: --rsync-path", `rsync -a --rsync-path='sh -c "cat .env >&2; rsync"' src/ localhost:dst/`, "rsync"},
		{"a hard link to .env, read later", `ln .env e2 2>/dev/null; ln -f .env e3 2>/dev/null; cat e2 e3`, ""},
		{"a hard link to .env made by inline code", `python3 -c "import os; os.link('.env', 'e2')"; cat e2`, "python3"},
		{"a hard link to .env made before", `cat docs/notes.txt`, ""},
		{"a script reading everything", `printf 'cat .env; cat ~/.ssh/id_rsa; cat services/api/.env.local\n' > s.sh && sh s.sh`, ""},
	} {
		t.Run(tc.class, func(t *testing.T) {
			if tc.needs != "" {
				if _, err := exec.LookPath(tc.needs); err != nil {
					t.Skipf("no %s", tc.needs)
				}
			}
			root := attackFixture(t)
			proj, home, out := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "outside")
			cmd := strings.ReplaceAll(tc.cmd, "$OUT", out)
			in, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": proj,
				"permission_mode": "bypassPermissions", "tool_input": map[string]any{"command": cmd}})
			env := []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
				"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state"), "TMPDIR=/tmp"}
			hook := exec.Command(bin)
			hook.Dir, hook.Env, hook.Stdin = proj, env, bytes.NewReader(in)
			var hout bytes.Buffer
			hook.Stdout = &hout
			if err := hook.Run(); err != nil && hook.ProcessState.ExitCode() != 2 {
				t.Fatalf("hook: %v", err)
			}
			var o struct {
				H struct {
					Decision string `json:"permissionDecision"`
					Reason   string `json:"permissionDecisionReason"`
					Input    struct {
						Command string `json:"command"`
					} `json:"updatedInput"`
				} `json:"hookSpecificOutput"`
			}
			if hout.Len() > 0 {
				if err := json.Unmarshal(hout.Bytes(), &o); err != nil {
					t.Fatalf("hook output %q: %v", hout.String(), err)
				}
			}
			switch {
			case o.H.Decision == "allow" && o.H.Input.Command == "":
				t.Fatalf("allowed without confinement: %s", o.H.Reason)
			case o.H.Decision != "allow":
				t.Logf("%s by the analysis: %.200s", o.H.Decision, o.H.Reason)
				return
			}
			run := exec.Command("bash", "-c", o.H.Input.Command)
			run.Dir, run.Env = proj, env
			var stdout, stderr bytes.Buffer
			run.Stdout, run.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			if err := run.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- run.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				run.Process.Kill()
				t.Fatal("the confined command did not end")
			}
			all := stdout.String() + stderr.String()
			for _, s := range attackSecrets {
				if strings.Contains(all, s) {
					t.Errorf("the secret %s reached the output of the confined command:\n%s", s, all)
				}
			}
			ents, _ := os.ReadDir(out)
			for _, e := range ents {
				if e.Name() != "keep" && e.Name() != "a.tar" {
					t.Errorf("the confined command wrote %s outside the project", filepath.Join(out, e.Name()))
				}
			}
			if b, err := os.ReadFile(filepath.Join(home, ".gitconfig")); err == nil {
				t.Errorf("the confined command wrote ~/.gitconfig: %s", b)
			}
			if b, _ := os.ReadFile(filepath.Join(proj, ".env")); string(b) != "API_KEY=ENV-S3CRET\n" {
				t.Errorf(".env changed: %q", b)
			}
			if strings.Contains(stderr.String(), "safezone: confine:") {
				t.Errorf("the launcher failed: %s", stderr.String())
			}
			t.Logf("allow, confined; the command said: %.300s", strings.TrimSpace(all))
		})
	}
}
