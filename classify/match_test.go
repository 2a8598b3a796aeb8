package classify

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/policy"
)

// TestMatchFastPaths checks the literal-prefix shortcuts of matchPrefixes
// and matchPattern's AnyDepth case against plain doublestar matching of
// every prefix or component.
func TestMatchFastPaths(t *testing.T) {
	globs := []string{"a/**/b", "**/b/**", "/etc/*/x", "a/b/**", "/a/**", "a*", "*a", "a/b/c", "/a/b/**/c", "a", "a/b", ".git/**", "src/*.go", "*.pem", ".env*", "/etc/**", "/etc", `a\*b`, "{a,b}/c", "a/", "**", "**/x", "x?", "/", "/a/b", "a/b*", "[ab]/c", "a*a", "id_*.pub", "*", ".*", "*.tar.gz", "a+(b)*"}
	paths := []string{"a/x/b", "b", "a/b/x/c", "/a/b/c", "/a/x/b/y/c", "/etc/q/x", "/etc/q/x/y", "ba", "a/a", "a", "a/b", "a/b/c", "ab", "a/bc", ".git", ".git/config", "src/x.go", "src/sub/x.go", "k.pem", "/etc/passwd", "/etcx", "/etc", "a*b", "b/c", "x1", "/a/b", "/a/bc/d", "/a", ".env.local", "x/.env", "a/", "aa", "aba", "x/id_rsa.pub", "id_.pub", "/d/x.tar.gz", ".x", "a+(b)c"}
	slowPrefixes := func(glob, p string, abs bool) bool {
		if abs && glob == "/" {
			return true
		}
		for i := 1; i <= len(p); i++ {
			if (i == len(p) || p[i] == '/') && doublestar.MatchUnvalidated(glob, p[:i]) {
				return true
			}
		}
		return false
	}
	for _, g := range globs {
		for _, p := range paths {
			abs := strings.HasPrefix(p, "/")
			if got, want := matchPrefixes(g, p, abs), slowPrefixes(g, p, abs); got != want {
				t.Errorf("matchPrefixes(%q, %q) = %v, want %v", g, p, got, want)
			}
			if strings.Contains(g, "/") {
				continue
			}
			pat := &policy.Pattern{Glob: g, Anchor: policy.AnyDepth}
			want := false
			for _, c := range strings.Split(p, "/") {
				want = want || (c != "" && doublestar.MatchUnvalidated(g, c))
			}
			if got := matchPattern(pat, p, &anchors{}); got != want {
				t.Errorf("matchPattern(AnyDepth %q, %q) = %v, want %v", g, p, got, want)
			}
		}
	}
}
