package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
)

// TestRealHomeToolchains runs, confined as Claude Code runs it in
// bypassPermissions, each toolchain installed in this machine's real home
// directory (issue 29, item 2: the home is private to a confined command
// but for what programs need there): pyenv's python, rustup's cargo and
// rustc, go with its caches in ~/go and ~/.cache, nvm's node, what ~/bin
// and ~/.local/bin hold, git's global configuration. A toolchain that is
// not installed here is skipped (testdata/confine/home.txtar checks each
// in a fixture home). A file the test makes in the home directory, outside
// those, is unreadable to the same confined command.
func TestRealHomeToolchains(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real toolchains (-short)")
	}
	if st := confine.Available(); !st.Confine() {
		t.Skip("the kernel cannot confine commands here")
	}
	bin, err := exec.LookPath("safezone") // installed by testscript.Main
	if err != nil {
		t.Skip("safezone is not on PATH:", err)
	}
	if err := proxyBesideInstalled(); err != nil {
		t.Fatal(err)
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "/" {
		t.Skip("no home directory")
	}
	d := workRoot(t)
	proj := filepath.Join(d, "proj")
	mustMkdir(t, proj)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C", "CLAUDE_PROJECT_DIR=" + proj,
		"SAFEZONE_MANAGED_POLICY=" + d + "/etc/safezone/policy.yaml",
		"XDG_CONFIG_HOME=" + d + "/xdg", "XDG_STATE_HOME=" + d + "/state",
		"SAFEZONE_CLAUDE_MANAGED_SETTINGS=" + d + "/etc/claude-code/managed-settings.json",
	}
	for _, k := range []string{"RUSTUP_HOME", "CARGO_HOME", "GOPATH", "GOROOT", "NVM_DIR", "PYENV_ROOT", "USER"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	h := &hookRunner{t: t, bin: bin}
	// in reports whether $PATH finds program below dir of the home.
	in := func(program, dir string) bool {
		p, err := exec.LookPath(program)
		return err == nil && strings.HasPrefix(p, filepath.Join(home, dir)+"/")
	}
	writeFile(t, proj+"/go.mod", "module example.com/p\n\ngo 1.21\n")
	writeFile(t, proj+"/main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"go ok\") }\n")
	for _, tc := range []struct {
		name, dir, program, command, want string
	}{
		{"pyenv", ".pyenv", "python3", `python3 -c "import json, ssl; print('python ok')"`, "python ok"},
		{"cargo", ".cargo", "cargo", "cargo --version && echo cargo ok", "cargo ok"},
		{"rustup", ".cargo", "rustc", "rustc --version && echo rustc ok", "rustc ok"},
		{"go", "go", "", "go build -o /dev/null . && go run .", "go ok"},
		{"nvm", ".nvm", "node", "node -e 'console.log(\"node ok\")'", "node ok"},
		{"local", ".local/bin", "", "find ~/.local/bin -maxdepth 1 -type f -exec cat {} + >/dev/null && echo local ok", "local ok"},
		{"bin", "bin", "", "find ~/bin -maxdepth 1 -type f -exec cat {} + >/dev/null && echo bin ok", "bin ok"},
		{"gitconfig", ".gitconfig", "git", "git config --global --list >/dev/null && echo git ok", "git ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.t = t
			if _, err := os.Stat(filepath.Join(home, tc.dir)); err != nil {
				t.Skipf("no ~/%s here", tc.dir)
			}
			if tc.program != "" && !in(tc.program, tc.dir) && tc.name != "gitconfig" {
				t.Skipf("%s is not run from ~/%s here", tc.program, tc.dir)
			}
			if tc.name == "go" {
				if _, err := exec.LookPath("go"); err != nil {
					t.Skip("no go")
				}
			}
			if out := h.confined(proj, env, 0, tc.command); !strings.Contains(out, tc.want) {
				t.Errorf("%s: %q", tc.command, out)
			}
		})
	}
	h.t = t

	// A personal file in the same home: unreadable to a confined script.
	personal, err := os.MkdirTemp(home, ".safezone-test-personal-")
	if err != nil {
		t.Skip("cannot make a directory in the home directory:", err)
	}
	t.Cleanup(func() { os.RemoveAll(personal) })
	writeFile(t, personal+"/notes.txt", "PERSONAL\n")
	writeFile(t, proj+"/read.py", "import sys\ntry:\n    print(open(sys.argv[1]).read())\nexcept PermissionError as e:\n    print('refused', e)\n")
	out := h.confined(proj, env, 0, "python3 read.py "+filepath.Join(personal, "notes.txt"))
	if strings.Contains(out, "PERSONAL") || !strings.Contains(out, "refused") {
		t.Errorf("a confined script read a personal file of the home directory: %q", out)
	}
}

// TestSharedTopsPrivate: outside the home directory, /home, /mnt, /media
// and /srv hold people's files (other users' homes, projects kept in /srv,
// mounted disks); a confined command reads none of them but its sandbox
// roots and read_dirs (issue 29, item 2; pipeline/home.go, sharedTops). It
// makes a directory of its own in /srv and in /mnt (root only), runs a
// script there confined, names a read there (asked: the kernel would refuse
// it), and runs a project kept in /srv that reads itself but not its
// neighbour.
func TestSharedTopsPrivate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	bin := confinedBuild(t)
	for _, top := range []string{"/srv", "/mnt"} {
		t.Run(top, func(t *testing.T) {
			shared, err := os.MkdirTemp(top, "safezone-test-")
			if err != nil {
				t.Skipf("cannot make a directory in %s (the test needs root): %v", top, err)
			}
			t.Cleanup(func() { os.RemoveAll(shared) })
			other := filepath.Join(shared, "other")
			mustMkdir(t, other)
			writeFile(t, other+"/notes.txt", "OTHER-PROJECT-NOTES\n")
			root := workRoot(t)
			home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
			mustMkdir(t, home)
			mustMkdir(t, proj)
			env := func(proj string) []string {
				return []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
					"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state"), "TMPDIR=/tmp"}
			}
			h := &hookRunner{t: t, bin: bin}
			// A script the analysis cannot see into.
			writeFile(t, proj+"/read.sh", "cat \"$(cat where)\" || echo REFUSED\n")
			writeFile(t, proj+"/where", other+"/notes.txt")
			out := h.confined(proj, env(proj), 0, "bash read.sh")
			if strings.Contains(out, "OTHER-PROJECT-NOTES") || !strings.Contains(out, "REFUSED") {
				t.Fatalf("a confined script read %s: %q", other, out)
			}
			// Named: asked, with the kernel's reason.
			d, reason := h.decision(proj, env(proj), "cat "+other+"/notes.txt")
			if d != "ask" || !strings.Contains(reason, "cannot read it either") {
				t.Errorf("cat %s/notes.txt: %s %q, want ask naming the kernel", other, d, reason)
			}
			// A project kept there reads itself, not its neighbour.
			inner := filepath.Join(shared, "proj")
			mustMkdir(t, inner)
			writeFile(t, inner+"/own.txt", "OWN-FILE\n")
			writeFile(t, inner+"/read.sh", "cat own.txt; cat ../other/notes.txt || echo REFUSED\n")
			out = h.confined(inner, env(inner), 0, "bash read.sh")
			if !strings.Contains(out, "OWN-FILE") || strings.Contains(out, "OTHER-PROJECT-NOTES") || !strings.Contains(out, "REFUSED") {
				t.Fatalf("a project in %s: %q, want its own file and not its neighbour's", top, out)
			}
			// The test's own check: unconfined, the file is there.
			if b, err := os.ReadFile(other + "/notes.txt"); err != nil || !strings.Contains(string(b), "OTHER") {
				t.Fatalf("unconfined: %q %v", b, err)
			}
		})
	}
}
