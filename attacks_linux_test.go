package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	// The network proxy beside it, as the install line puts it (the
	// default policy isolates confined commands).
	cmd = exec.Command(goTool, "build", "-o", filepath.Join(dir, "safezone-proxy"), "./cmd/safezone-proxy")
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
	// The proxy daemons its confined commands started (hookCall's
	// XDG_STATE_HOME) end with the test.
	t.Cleanup(func() { stopDaemons(filepath.Join(root, "state")) })
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
	bin := confinedBuild(t)
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
		{"a hard link of a hidden file made by a script", `printf 'ln ~/.ssh/id_rsa k; ln services/api/.env.local node_modules_x; cat k node_modules_x\n' > s.sh && sh s.sh`, ""},
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
			d, why, all := hookCall(t, bin, root, strings.ReplaceAll(tc.cmd, "$OUT", out))
			if d != "allow" {
				t.Logf("%s by the analysis: %.200s", d, why)
				return
			}
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
			t.Logf("allow, confined; the command said: %.300s", strings.TrimSpace(all))
		})
	}
}

// confinedBuild skips t where the kernel cannot confine commands with
// hidden files, and returns safezone built from this module (the test
// binary is no launcher).
func confinedBuild(t *testing.T) string {
	t.Helper()
	st := confine.Available()
	if !st.Confine() || st.ReadOnly != nil {
		t.Skip("the kernel cannot confine commands with hidden files here")
	}
	bin, err := buildBinary(t.TempDir())
	if err != nil {
		t.Fatalf("building safezone: %v", err)
	}
	return bin
}

// hookCall is one Bash call through the hook at bin, in bypassPermissions
// under the embedded default policy, for the project proj of attackFixture's
// root: its decision ("abstain" for no output) and reason, and, where it is allowed, what the
// rewritten command (confined) printed, standard error included.
func hookCall(t *testing.T, bin, root, cmd string) (decision, reason, output string) {
	t.Helper()
	return hookCallIn(t, bin, root, filepath.Join(root, "proj"), cmd)
}

// hookCallIn is hookCall for the project proj (CLAUDE_PROJECT_DIR, and
// the call's cwd).
func hookCallIn(t *testing.T, bin, root, proj, cmd string) (decision, reason, output string) {
	t.Helper()
	r := bashCall(t, bin, root, proj, "", "", cmd)
	if r.Decision == "allow" && r.Command == "" {
		t.Fatalf("allowed without confinement: %s", r.Reason)
	}
	return r.Decision, r.Reason, r.Output
}

// bashResult is what bashCall saw: the hook's exit status and
// hookSpecificOutput, and what the rewritten command printed.
type bashResult struct {
	Code     int    // the hook's exit status: 0, or 2 for a deny forced by an error
	Decision string // permissionDecision; "abstain" where the hook printed nothing
	Reason   string // permissionDecisionReason
	Context  string // additionalContext
	Command  string // updatedInput's command: the confined form; "" for none
	Output   string // what Command printed, standard error included; "" where it did not run
}

// bashCall is one Bash call through the hook at bin, in bypassPermissions,
// for the project proj (CLAUDE_PROJECT_DIR, and the call's cwd) of
// attackFixture's root (HOME, XDG_CONFIG_HOME and XDG_STATE_HOME below
// it); session and toolUseID go in the input where they are not "". Where
// the hook allows with a rewritten command, bashCall runs that command
// with bash -c in proj, as Claude Code would, for 20 seconds at most. It
// fails t on a hook that exits other than 0 or 2, on output that is not
// JSON, and where the launcher reports it could not confine the command.
func bashCall(t *testing.T, bin, root, proj, session, toolUseID, cmd string) bashResult {
	t.Helper()
	home := filepath.Join(root, "home")
	call := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": proj,
		"permission_mode": "bypassPermissions", "tool_input": map[string]any{"command": cmd}}
	if session != "" {
		call["session_id"] = session
	}
	if toolUseID != "" {
		call["tool_use_id"] = toolUseID
	}
	in, _ := json.Marshal(call)
	env := []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state"), "TMPDIR=/tmp"}
	hook := exec.Command(bin)
	hook.Dir, hook.Env, hook.Stdin = proj, env, bytes.NewReader(in)
	var hout bytes.Buffer
	hook.Stdout = &hout
	var r bashResult
	if err := hook.Run(); err != nil {
		if r.Code = hook.ProcessState.ExitCode(); r.Code != 2 {
			t.Fatalf("hook: %v", err)
		}
	}
	if hout.Len() == 0 {
		r.Decision = "abstain"
		return r
	}
	var o struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
			Context  string `json:"additionalContext"`
			Input    struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(hout.Bytes(), &o); err != nil {
		t.Fatalf("hook output %q: %v", hout.String(), err)
	}
	r.Decision, r.Reason, r.Context, r.Command = o.H.Decision, o.H.Reason, o.H.Context, o.H.Input.Command
	if r.Decision != "allow" || r.Command == "" {
		return r
	}
	run := exec.Command("bash", "-c", r.Command)
	run.Dir, run.Env = proj, env
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
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
	if strings.Contains(out.String(), "safezone: confine:") {
		t.Errorf("the launcher failed: %s", out.String())
	}
	r.Output = out.String()
	return r
}

// TestAttackHardLinkLater runs issue 27 item 4's attack for real: a
// confined call makes .env.local (a placeholder, so nothing is hidden yet)
// and a hard link of it where the search of the roots does not go
// (node_modules/, /tmp, outside the roots); the user then fills .env.local
// in place; a later confined call reads the link. The secret must not
// reach its output: the link is hidden (found below the roots), or the call
// is asked, with a reason that names the file and its links. A link made
// before the session is the same case. Hard links of plain files (pnpm's
// store in node_modules/.pnpm) ask nothing.
func TestAttackHardLinkLater(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	bin := confinedBuild(t)
	const secret = "FILLED-S3CRET"
	fill := func(t *testing.T, p string) {
		// In place: the same inode, as an editor that writes through
		// the file does.
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("TOKEN=" + secret + "\n")
		f.Close()
	}
	for _, tc := range []struct {
		name       string
		link, read string // the link's path (relative to the project, or $OUT), the read
		before     bool   // the link is made before the session, not by call 1
		wantAsk    bool
	}{
		{name: "a link in node_modules", link: "node_modules/x", read: "cat node_modules/x"},
		{name: "a link in node_modules, read by a script", link: "node_modules/x", read: "printf 'cat node_modules/x\\n' > r.sh && sh r.sh"},
		{name: "a link deep in node_modules", link: "node_modules/.pnpm/p@1/node_modules/p/k", read: "cat node_modules/.pnpm/p@1/node_modules/p/k"},
		{name: "a link as package-lock.json", link: "package-lock.json", read: "cat package-lock.json"},
		// The launcher pins .git and /tmp (bind mounts of themselves),
		// so call 1 cannot link across to them (EXDEV); a link made
		// before the session can be there.
		{name: "a link in .git", link: ".git/x", read: "cat .git/x"},
		{name: "a link in .git made before the session", link: ".git/x", read: "cat .git/x", before: true},
		{name: "a link in /tmp", link: "$TMP/x", read: "cat $TMP/x", wantAsk: true},
		{name: "a link in /tmp made before the session, read by a script", link: "$TMP/x", read: "printf 'cat $TMP/x\\n' > r.sh && sh r.sh", before: true, wantAsk: true},
		{name: "a link outside the roots made before the session", link: "$OUT/y", read: "printf 'cat $OUT/y\\n' > r.sh && sh r.sh", before: true, wantAsk: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := attackFixture(t)
			proj := filepath.Join(root, "proj")
			tmp, err := os.MkdirTemp("/tmp", "safezone-links-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmp) })
			expand := func(s string) string {
				return strings.NewReplacer("$OUT", filepath.Join(root, "outside"), "$TMP", tmp).Replace(s)
			}
			link := expand(tc.link)
			if !filepath.IsAbs(link) {
				link = filepath.Join(proj, link)
			}
			os.MkdirAll(filepath.Dir(link), 0o755)
			env := filepath.Join(proj, ".env.local")
			if tc.before {
				os.WriteFile(env, []byte("PLACEHOLDER\n"), 0o644)
				if err := os.Link(env, link); err != nil {
					t.Skip("no hard link there:", err)
				}
			} else {
				script := fmt.Sprintf("printf 'printf PLACEHOLDER > .env.local; ln .env.local %s\\n' > s.sh && sh s.sh", link)
				if d, why, out := hookCall(t, bin, root, script); d != "allow" {
					t.Fatalf("call 1: %s: %s", d, why)
				} else if _, err := os.Stat(link); err != nil {
					if strings.Contains(out, "Invalid cross-device link") {
						t.Logf("the kernel refused the link (EXDEV: another mount in the command's namespace): %s", out)
						return
					}
					t.Fatalf("call 1 made no link (%v): %s", err, out)
				}
			}
			fill(t, env)
			d, why, out := hookCall(t, bin, root, expand(tc.read))
			if strings.Contains(out, secret) {
				t.Fatalf("the secret reached the output of call 2 (%s):\n%s", d, out)
			}
			switch {
			case tc.wantAsk && d != "ask":
				t.Errorf("call 2: %s, want ask: %s\n%s", d, why, out)
			case tc.wantAsk && !(strings.Contains(why, ".env.local") && strings.Contains(why, "has 2 links") && strings.Contains(why, "-samefile")):
				t.Errorf("call 2's reason does not name the file, its links and what to do: %s", why)
			case !tc.wantAsk && d != "allow":
				t.Errorf("call 2: %s, want allow (the link hidden): %s", d, why)
			}
			t.Logf("call 2: %s: %.300s; output: %.200s", d, why, strings.TrimSpace(out))
		})
	}
	t.Run("hard links of plain files", func(t *testing.T) {
		// pnpm's layout: the store outside the project, every package file
		// hard-linked into node_modules/.pnpm.
		root := attackFixture(t)
		proj := filepath.Join(root, "proj")
		store := filepath.Join(root, "home", ".local/share/pnpm/store/v10/files/ab")
		pkg := filepath.Join(proj, "node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad")
		for _, d := range []string{store, pkg} {
			os.MkdirAll(d, 0o755)
		}
		for i, name := range []string{"index.js", "package.json", "test/key.pem", "README.md"} {
			s := filepath.Join(store, fmt.Sprint("cdef", i))
			os.WriteFile(s, []byte("module "+name+"\n"), 0o644)
			os.MkdirAll(filepath.Dir(filepath.Join(pkg, name)), 0o755)
			if err := os.Link(s, filepath.Join(pkg, name)); err != nil {
				t.Fatal(err)
			}
		}
		os.Symlink(".pnpm/left-pad@1.3.0/node_modules/left-pad", filepath.Join(proj, "node_modules/left-pad"))
		for _, cmd := range []string{"cat node_modules/left-pad/index.js", "printf 'cat node_modules/left-pad/*\\n' > r.sh && sh r.sh 2>&1"} {
			d, why, out := hookCall(t, bin, root, cmd)
			if d != "allow" || !strings.Contains(out, "module index.js") {
				t.Errorf("%s: %s: %s\n%s", cmd, d, why, out)
			}
		}
	})
}
