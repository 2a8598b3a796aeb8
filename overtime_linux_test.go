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
	bin := confinedBuild(t)
	for _, fast := range []bool{false, true} {
		name := "go launcher"
		if fast {
			name = "fast launcher"
		}
		t.Run(name, func(t *testing.T) {
			root := workRoot(t)
			proj, home, state := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "state")
			mustMkdir(t, proj)
			mustMkdir(t, home)
			env := []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
				"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + state, "TMPDIR=/tmp"}
			if fast {
				dst := filepath.Join(state, "safezone", "launcher", confine.FastKey(), "safezone-launch")
				mustMkdir(t, filepath.Dir(dst))
				if out, err := exec.Command(bin, "__build-launcher", dst).CombinedOutput(); err != nil {
					t.Skipf("no fast launcher here: %v: %s", err, out)
				}
			}
			h := &hookRunner{t: t, bin: bin}
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
}
