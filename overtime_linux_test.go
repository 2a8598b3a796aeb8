package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
)

// TestLeftBehindLaterSecret is issue 27's attack over time (2): a confined
// command leaves a process behind, which keeps trying to read a secret
// that does not exist yet; then the user creates it (`aws configure`
// writes ~/.aws/credentials). The embedded default denies ~/.aws/**: the
// hook names the missing directory to the launcher, whose Landlock
// ruleset grants reads only on the complement of the way to it, so the
// name created later stays unreadable to every process of that command,
// for as long as it lives. Run with the Go launcher and with the fast one.
func TestLeftBehindLaterSecret(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands for seconds")
	}
	eachLauncher(t, func(t *testing.T, h *hookRunner, proj, home string, env []string) {
		thief := `for i in $(seq 1 100); do cat ~/.aws/credentials >>stolen 2>>errors; cat ~/.aws/credentials.new >>stolen 2>>errors; [ -e stop ] && break; sleep 0.05; done; touch done`
		if err := os.WriteFile(filepath.Join(proj, "thief.sh"), []byte(thief), 0o644); err != nil {
			t.Fatal(err)
		}
		h.confined(proj, env, 0, "nohup bash thief.sh </dev/null >/dev/null 2>&1 &")
		time.Sleep(300 * time.Millisecond)
		// The user configures the credentials, unconfined.
		mustMkdir(t, filepath.Join(home, ".aws"))
		for _, f := range []string{"credentials", "credentials.new"} {
			if err := os.WriteFile(filepath.Join(home, ".aws", f), []byte("aws_secret_access_key=LATER-S3CRET\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(500 * time.Millisecond)
		os.WriteFile(filepath.Join(proj, "stop"), nil, 0o644)
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if _, err := os.Stat(filepath.Join(proj, "done")); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		stolen, _ := os.ReadFile(filepath.Join(proj, "stolen"))
		errs, _ := os.ReadFile(filepath.Join(proj, "errors"))
		if strings.Contains(string(stolen), "S3CRET") {
			t.Fatalf("the process left behind read the secret created after it started: %q", stolen)
		}
		if !strings.Contains(string(errs), "Permission denied") {
			t.Errorf("the process left behind never met the secret (the test proves nothing): %q", errs)
		}
		// The same read by the user, unconfined, works: the test's own check.
		if b, err := os.ReadFile(filepath.Join(home, ".aws", "credentials")); err != nil || !strings.Contains(string(b), "S3CRET") {
			t.Errorf("unconfined: %q, %v", b, err)
		}
	})
}

// eachLauncher runs f as a subtest with the Go launcher and as one with
// the fast launcher, each in a fresh overtimeProject of safezone built
// from this module (confinedBuild, which skips t where the kernel cannot
// confine), with a hookRunner of that build.
func eachLauncher(t *testing.T, f func(t *testing.T, h *hookRunner, proj, home string, env []string)) {
	t.Helper()
	bin := confinedBuild(t)
	for _, fast := range []bool{false, true} {
		name := "go launcher"
		if fast {
			name = "fast launcher"
		}
		t.Run(name, func(t *testing.T) {
			proj, home, env := overtimeProject(t, bin, fast)
			f(t, &hookRunner{t: t, bin: bin}, proj, home, env)
		})
	}
}

// overtimeProject makes a project and a home directory in a fresh work
// root, and the hook's environment for them; with fast, the fast launcher
// is built into the state directory first, so that the hook uses it
// (skipped where it cannot be built).
func overtimeProject(t *testing.T, bin string, fast bool) (proj, home string, env []string) {
	t.Helper()
	root := workRoot(t)
	proj, home, state := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "state")
	mustMkdir(t, proj)
	mustMkdir(t, home)
	env = []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + state, "TMPDIR=/tmp",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	if fast {
		dst := filepath.Join(state, "safezone", "launcher", confine.FastKey(), "safezone-launch")
		mustMkdir(t, filepath.Dir(dst))
		if out, err := exec.Command(bin, "__build-launcher", dst).CombinedOutput(); err != nil {
			t.Skipf("no fast launcher here: %v: %s", err, out)
		}
	}
	return proj, home, env
}

// TestNestedRepoPlantedLater is issue 27's code left for a later
// unconfined git (item 5), in a repository a confined command made: call 1
// runs git init below the project (ordinary work); call 2, from a script
// the analysis cannot see into, adds a core.fsmonitor command and a hook
// to that repository; the user's git status there would run them
// unconfined. The search of the project finds the nested repository, and
// its configuration and hooks are read-only to call 2: the writes fail and
// the user's git runs nothing. Run with the Go launcher and with the fast
// one.
func TestNestedRepoPlantedLater(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if st := confine.Available(); !st.Confine() || st.ReadOnly != nil {
		t.Skip("no confinement with read-only paths here")
	}
	eachLauncher(t, func(t *testing.T, h *hookRunner, proj, _ string, env []string) {
		mark := filepath.Join(filepath.Dir(proj), "planted")
		h.confined(proj, env, 0, "git init -q sub && git -C sub commit -q --allow-empty -m one")
		attack := "printf '[core]\\n\\tfsmonitor = \"touch " + mark + "; false\"\\n' >> sub/.git/config\n" +
			"printf '#!/bin/sh\\ntouch " + mark + "\\n' > sub/.git/hooks/post-checkout\nchmod +x sub/.git/hooks/post-checkout\nexit 0\n"
		must(t, os.WriteFile(filepath.Join(proj, "plant.sh"), []byte(attack), 0o644))
		before, err := os.ReadFile(filepath.Join(proj, "sub", ".git", "config"))
		must(t, err)
		out := h.confined(proj, env, 0, "sh plant.sh")
		if !strings.Contains(out, "Read-only file system") {
			t.Errorf("the writes to the nested repository did not fail as read-only: %s", out)
		}
		after, _ := os.ReadFile(filepath.Join(proj, "sub", ".git", "config"))
		if string(after) != string(before) {
			t.Errorf("a confined command changed the nested repository's configuration:\n%s", after)
		}
		// The user's git, unconfined, later.
		for _, args := range [][]string{{"status"}, {"checkout", "-q", "-b", "x"}} {
			g := exec.Command("git", append([]string{"-C", filepath.Join(proj, "sub")}, args...)...)
			g.Env = env
			if out, err := g.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v: %s", args, err, out)
			}
		}
		if _, err := os.Stat(mark); err == nil {
			t.Errorf("the user's git ran what a confined command planted in the nested repository")
		}
	})
}

// TestLaterMaskMissesOpenFile measures the design README's time row
// rejects for a secret made later inside the project (issue 27, item 3):
// binding a stand-in over the new name in a left process's mount
// namespace once the name appears (what a hook or the index daemon
// entering the live sandboxes, or a propagation from a peer group made at
// launch, would do). A process left by a confined call polls for
// .env.production and opens it as soon as it exists; the user then
// creates it, the mask is bound over it in that process's namespace
// (nsenter into its user and mount namespaces, which the user owns), and
// only then does the user write the secret. The path is hidden from then
// on, but the descriptor opened at creation reads the secret: a mask that
// follows the creation cannot hold, whichever way it reaches the
// namespace. The test holds README's claim; it fails if the kernel ever
// revokes such a descriptor (then the design would be worth building).
func TestLaterMaskMissesOpenFile(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		t.Skip("no nsenter")
	}
	if st := confine.Available(); !st.Confine() || st.ReadOnly != nil {
		t.Skip("no confinement with a mount namespace here")
	}
	eachLauncher(t, func(t *testing.T, h *hookRunner, proj, _ string, env []string) {
		at := func(f string) string { return filepath.Join(proj, f) }
		thief := "echo $$ > pid.new && mv pid.new pid\n" +
			"until exec 3<.env.production; do sleep 0.001; done 2>/dev/null\n" +
			": > opened\n" +
			"n=0; while [ ! -e written ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done\n" +
			"cat <&3 > stolen\ncat .env.production > viapath 2>&1\n: > done\n"
		must(t, os.WriteFile(at("thief.sh"), []byte(thief), 0o644))
		standin := filepath.Join(filepath.Dir(proj), "standin")
		must(t, os.WriteFile(standin, nil, 0o000))
		h.confined(proj, env, 0, "nohup bash thief.sh </dev/null >/dev/null 2>&1 &")
		waitFor := func(f string) {
			t.Helper()
			for i := 0; i < 1000; i++ {
				if _, err := os.Stat(at(f)); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Fatalf("%s did not appear: the left process did not run", f)
		}
		waitFor("pid")
		pid, _ := os.ReadFile(at("pid"))
		// The user's editor creates the file, then writes it.
		f, err := os.OpenFile(at(".env.production"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
		must(t, err)
		waitFor("opened")
		out, err := exec.Command(nsenter, "-t", strings.TrimSpace(string(pid)), "-U", "-m", "--preserve-credentials",
			"mount", "--bind", standin, at(".env.production")).CombinedOutput()
		if err != nil {
			f.Close()
			t.Fatalf("the mask cannot be bound in the left process's namespace: %v: %s", err, out)
		}
		_, err = f.WriteString("API_KEY=LATER-S3CRET\n")
		must(t, err)
		must(t, f.Close())
		must(t, os.WriteFile(at("written"), nil, 0o644))
		waitFor("done")
		viaPath, _ := os.ReadFile(at("viapath"))
		stolen, _ := os.ReadFile(at("stolen"))
		if !strings.Contains(string(viaPath), "Permission denied") {
			t.Errorf("the mask did not hide the name in the left process's namespace: %q", viaPath)
		}
		if !strings.Contains(string(stolen), "S3CRET") {
			t.Errorf("the descriptor opened before the mask no longer reads the file (%q): a mask bound into live sandboxes may now hold; README's time row says it cannot", stolen)
		}
	})
}
