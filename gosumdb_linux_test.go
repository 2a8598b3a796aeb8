package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoModDownloadFreshHome: a first-time Go user's confined `go mod
// download` checks the modules against the checksum database, through the
// proxy (the network isolated, the default), and writes its latest signed
// tree head to ~/go/pkg/sumdb: a cache of its own, which the hook makes and
// the command sees with a private layer (pipeline/confinement.go,
// codeCaches). The red team found it failing ("open
// ~/go/pkg/sumdb/sum.golang.org/latest: no such file or directory") in a
// home where go never ran. It needs proxy.golang.org and sum.golang.org,
// and skips where the user's own go cannot reach them.
func TestGoModDownloadFreshHome(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: downloads modules")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go:", err)
	}
	bin := confinedBuildWithProxy(t)
	d := workRoot(t)
	home, proj := filepath.Join(d, "home"), filepath.Join(d, "proj")
	mustMkdir(t, home)
	mustMkdir(t, proj)
	writeFile(t, proj+"/go.mod", "module example.com/p\n\ngo 1.21\n\nrequire rsc.io/quote v1.5.2\n")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	must(t, err)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + proj, "SHELL=/bin/bash", "TMPDIR=/tmp",
		"GOROOT=" + strings.TrimSpace(string(goroot)), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"XDG_CONFIG_HOME=" + filepath.Join(d, "xdg"), "XDG_STATE_HOME=" + filepath.Join(d, "state")}
	// The test's own check, unconfined in another fresh home.
	probe := exec.Command("go", "mod", "download", "rsc.io/quote@v1.5.2")
	probe.Dir, probe.Env = proj, append([]string{"HOME=" + filepath.Join(d, "probe"), "GOPATH=" + filepath.Join(d, "probe/go")}, env[1:]...)
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("the module proxy or the checksum database is not reachable here: %v: %s", err, out)
	}
	exec.Command("chmod", "-R", "u+w", filepath.Join(d, "probe")).Run() // the module cache is read-only
	t.Cleanup(func() { stopDaemons(filepath.Join(d, "state")) })
	h := &hookRunner{t: t, bin: bin}
	out := h.confined(proj, env, 0, "go mod download && echo downloaded")
	if !strings.Contains(out, "downloaded") {
		t.Fatalf("confined go mod download: %s", out)
	}
	if ex := h.explain(proj, env, "go mod download"); ex.Ruleset.Net == nil {
		t.Errorf("go mod download ran with the network open: want the namespace of its own (the default)")
	}
}
