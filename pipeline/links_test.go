//go:build linux || darwin

package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
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

