//go:build linux || darwin

package pipeline

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestLinksHeld: a hidden regular file with more links than names the
// ruleset holds refuses the ruleset, naming the file, its link count and
// find -samefile; every name held (Hide, NoRead, Replace), one link, a
// directory, or a path gone pass.
func TestLinksHeld(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	for _, name := range []string{".env", ".env.local", "key.pem", "plain", "npmrc"} {
		if err := os.WriteFile(p(name), []byte(name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(p("secrets"), 0o700)
	for _, l := range [][2]string{{".env", "nm-x"}, {".env.local", "tmp-x"}, {"key.pem", "k2"}, {"plain", "plain2"}, {"npmrc", "npmrc2"}} {
		if err := os.Link(p(l[0]), p(l[1])); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		rs   confine.Ruleset
		want string // in the error; "" for none
	}{
		{"every name hidden", confine.Ruleset{Hide: []string{p(".env"), p("nm-x"), p("secrets"), p("gone")}}, ""},
		{"the other name unreadable (NoRead) or replaced", confine.Ruleset{Hide: []string{p("key.pem"), p("npmrc")}, NoRead: []string{p("k2")}, Replace: map[string]string{p("npmrc2"): "/x"}}, ""},
		{"a plain file's links", confine.Ruleset{Hide: []string{p("secrets")}, ReadOnly: []string{p("plain")}}, ""},
		{"a name not held", confine.Ruleset{Hide: []string{p(".env"), p("nm-x"), p(".env.local")}}, ".env.local, a file the policy hides, has 2 links"},
		{"the same name twice", confine.Ruleset{Hide: []string{p(".env"), p(".env"), p("./.env")}}, "would hide 1 of them"},
		{"a replaced file's other name", confine.Ruleset{Replace: map[string]string{p("npmrc"): "/x"}}, "npmrc, a file the policy hides, has 2 links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := linksHeld(&tc.rs, "")
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("no error, want %q", tc.want)
			case tc.want != "" && (!strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "-xdev -samefile ")):
				t.Errorf("error %q, want %q and find -samefile", err, tc.want)
			}
		})
	}
}

// TestFileToolHardLinks: a file tool reaching a hard link of a hidden file
// (under node_modules/, where no rule matches the name, or outside the
// roots) is judged at the hidden name too: denied, the reason naming it.
// A hard link of a plain file (pnpm's store) changes nothing.
func TestFileToolHardLinks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the other names are looked up on Linux only")
	}
	sys, dir := testSystem(t)
	proj, home, outside := dir+"/proj", dir+"/home", dir+"/outside"
	os.MkdirAll(proj+"/node_modules/.pnpm/p", 0o755)
	os.MkdirAll(home+"/store", 0o755)
	for p, data := range map[string]string{proj + "/.env.local": "S\n", home + "/.git-credentials": "K\n", home + "/store/a.js": "x\n"} {
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{
		{proj + "/.env.local", proj + "/node_modules/x"}, {proj + "/.env.local", proj + "/src/y"},
		{proj + "/.env.local", outside + "/z"}, {home + "/.git-credentials", proj + "/node_modules/k"},
		{home + "/store/a.js", proj + "/node_modules/.pnpm/p/a.js"},
	} {
		if err := os.Link(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		tool, path, want, reason string
	}{
		{"Read", "node_modules/x", "deny", "the same file as " + proj + "/.env.local"},
		{"Read", "src/y", "deny", "Read(.env*)"},
		{"Read", outside + "/z", "deny", "the same file as " + proj + "/.env.local"},
		{"Read", "node_modules/k", "deny", "the same file as " + home + "/.git-credentials"},
		{"Read", "node_modules/.pnpm/p/a.js", "allow", ""},
		{"Write", "src/y", "deny", "Read(.env*)"},
	} {
		p := tc.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(proj, p)
		}
		in := pipelinetest.Input(tc.tool, proj, map[string]any{"file_path": p, "content": "x"})
		r := runHook(t, sys, strings.NewReader(in))
		if r.decision != tc.want || !strings.Contains(r.stdout, tc.reason) {
			t.Errorf("%s %s: %s, want %s with %q: %s", tc.tool, tc.path, r.decision, tc.want, tc.reason, r.stdout)
		}
	}
}
