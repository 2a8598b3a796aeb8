package confine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// homeFixture is a home directory with the project in it, what programs
// read there and what they must not:
//
//	home/proj/file                 "in" (the project: writable)
//	home/other/secret              "OTHER" (another project)
//	home/Documents/tax.txt         "TAX"
//	home/.codex/auth.json          "CODEX"
//	home/.mozilla/firefox/p/cookies.sqlite "COOKIE"
//	home/.password-store/bank.gpg  "PASS"
//	home/.cargo/bin/tool           a shell script printing "tool ran"
//	home/.cargo/credentials.toml   "CARGOTOKEN" (a secret below a toolchain)
//	home/.gitconfig                "[user]"
//	home/etc-link -> /etc/hostname
//	home/proj/docs-link -> ../Documents/tax.txt
//
// and its ruleset: the home NoRead but .cargo and .gitconfig, and
// .cargo/credentials.toml NoRead again.
func homeFixture(t *testing.T) (home string, rs Ruleset) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home = root + "/home"
	for name, content := range map[string]string{
		"proj/file": "in", "other/secret": "OTHER", "Documents/tax.txt": "TAX", ".codex/auth.json": "CODEX",
		".mozilla/firefox/p/cookies.sqlite": "COOKIE", ".password-store/bank.gpg": "PASS",
		".cargo/bin/tool": "#!/bin/sh\necho tool ran\n", ".cargo/credentials.toml": "CARGOTOKEN", ".gitconfig": "[user]",
	} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"etc-link": "/etc/hostname", "proj/docs-link": "../Documents/tax.txt"} {
		if err := os.Symlink(target, filepath.Join(home, name)); err != nil {
			t.Fatal(err)
		}
	}
	return home, Ruleset{
		Write:  append([]string{home + "/proj"}, Devices()...),
		NoRead: []string{home, home + "/.cargo/credentials.toml"},
		Read:   []string{home + "/.cargo", home + "/.gitconfig"},
	}.Normalize()
}

// TestPrivateHome: with the home directory NoRead and what programs read
// there Read (Ruleset.Read), a confined command reads the project, the
// toolchain and its configuration, and the system, but neither the
// user's other files, nor a secret below a readable toolchain.
func TestPrivateHome(t *testing.T) {
	needLandlock(t)
	for _, tc := range []struct {
		name, script string
		ok           bool
		stdout       string
	}{
		{name: "another project", script: "cat ../other/secret"},
		{name: "a personal folder", script: "cat ../Documents/tax.txt"},
		{name: "another agent's login", script: "cat ../.codex/auth.json"},
		{name: "a browser profile", script: "cat ../.mozilla/firefox/p/cookies.sqlite"},
		{name: "a password store", script: "cat ../.password-store/bank.gpg"},
		{name: "every file of the home", script: "find .. -path ../proj -prune -o -type f -exec cat {} + 2>/dev/null; exit 1"},
		{name: "through a symlink in the project", script: "cat docs-link"},
		{name: "a secret below a readable toolchain", script: "cat ../.cargo/credentials.toml"},
		{name: "the project", script: "cat file", ok: true, stdout: "in"},
		{name: "a file the command writes", script: "echo new > new && cat new", ok: true, stdout: "new\n"},
		{name: "a toolchain's program", script: "../.cargo/bin/tool", ok: true, stdout: "tool ran\n"},
		{name: "a toolchain's file", script: "sh ../.cargo/bin/tool", ok: true, stdout: "tool ran\n"},
		{name: "a configuration file", script: "cat ../.gitconfig", ok: true, stdout: "[user]"},
		{name: "a symlink in the home to the system", script: "cat ../etc-link >/dev/null && echo ok", ok: true, stdout: "ok\n"},
		{name: "the system", script: "head -c 0 /etc/passwd && echo ok", ok: true, stdout: "ok\n"},
		{name: "the home's names stay listable", script: "ls .. | grep -c Documents", ok: true, stdout: "1\n"},
	} {
		for _, ns := range []bool{false, true} {
			name := tc.name
			if ns {
				// The Go launcher's second stage, in a mount namespace.
				name += " (namespace)"
			}
			t.Run(name, func(t *testing.T) {
				home, rs := homeFixture(t)
				stdout := tc.stdout
				if ns {
					if Available().ReadOnly != nil {
						t.Skip("no user namespaces")
					}
					rs.ReadOnly = []string{home + "/proj/file"}
					// A file read as a copy kept in the private home (as
					// ~/.npmrc without its credentials): the copy is read.
					clean := home + "/.local/state/gitconfig.clean"
					if err := os.MkdirAll(filepath.Dir(clean), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(clean, []byte("[clean]"), 0o644); err != nil {
						t.Fatal(err)
					}
					rs.Replace = map[string]string{home + "/.gitconfig": clean}
					if stdout == "[user]" {
						stdout = "[clean]"
					}
				}
				testPrivateHomeCase(t, home, rs, tc.script, tc.ok, stdout)
			})
		}
	}
}

// testPrivateHomeCase runs script in home/proj under rs: with ok it must
// exit 0 and print stdout, else fail without printing any fixture secret.
func testPrivateHomeCase(t *testing.T, home string, rs Ruleset, script string, ok bool, stdout string) {
	t.Helper()
	r := sh(t, home+"/proj", rs, script)
	if ok {
		if r.code != 0 || r.stdout != stdout {
			t.Fatalf("exit %d, stdout %q, want 0 and %q; stderr: %s", r.code, r.stdout, stdout, r.stderr)
		}
		return
	}
	for _, s := range []string{"OTHER", "TAX", "CODEX", "COOKIE", "PASS", "CARGOTOKEN"} {
		if strings.Contains(r.stdout, s) {
			t.Fatalf("read %s: stdout %q", s, r.stdout)
		}
	}
	if r.code == 0 {
		t.Fatalf("exit 0, stdout %q; want a failure", r.stdout)
	}
}
