package classify

import (
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/policy"
)

func TestGlobsIntersect(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{".env*", ".env", true},
		{".env*", "*.go", true}, // ".env.go"
		{"*.pem", "*.key", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/xb", false},
		{"**/x", "x", true},
		{"**/x", "a/b/x", true},
		{"a/**", "a", true},
		{"a/**", "ab", false},
		{"/**/.env*", "/p/src/.env.local", true},
		{"/**/.env*", "/p/src/env", false},
		{"{src,docs}/*.md", "docs/a.md", true},
		{"{src,docs}/*.md", "tests/a.md", false},
		{"[a-c]x", "bx", true},
		{"[a-c]x", "dx", false},
		{"[!a-c]x", "ax", false},
		{"[!a-c]x", "[d-f]x", true},
		{"?", "/", false},
		{"*", "a/b", false},
		{`\*`, "*", true},
		{`\*`, "a", false},
		{"a/**/**/b", "a/b", true},
		{"/etc/**", "/etc", true},
		{"/etc/**", "/etcetera/x", false},
		{"[", "x", true}, // malformed: intersects everything
	}
	for _, tt := range tests {
		if got := GlobsIntersect(tt.a, tt.b); got != tt.want {
			t.Errorf("GlobsIntersect(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := GlobsIntersect(tt.b, tt.a); got != tt.want {
			t.Errorf("GlobsIntersect(%q, %q) = %v, want %v (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestGlobNames(t *testing.T) {
	tests := []struct {
		name            string
		target, pattern string
		neutral         int
		want            bool
	}{
		{"the same glob", "/p/**/.env*", "/**/.env*", 0, true},
		{"a shorter prefix of the name", "/p/**/.e*", "/**/.env*", 0, true},
		{"a single-character wildcard", "/p/**/.en?", "/**/.env*", 0, true},
		{"a suffix glob naming .env", "/p/**/*.env", "/**/.env*", 0, true},
		{"a wildcard only could select .env.go", "/p/**/*.go", "/**/.env*", 0, false},
		{"everything is a directory-wide search", "/p/**", "/**/.env*", 0, false},
		{"a named denied directory", "/p/secrets/*", "/**/secrets/**", 0, true},
		{"a denied directory only reached by **", "/p/**/*.txt", "/**/secrets/**", 0, false},
		{"the anchor directory does not count", "/p/**/*.txt", "/p/secrets/**", 3, false},
		{"an anchored pattern named by the glob", "/p/secrets/*.txt", "/p/secrets/**", 3, true},
		{"an absolute pattern", "/etc/*.conf", "/etc/**", 0, true},
		{"disjoint", "/p/**/*.go", "/**/*.pem", 0, false},
	}
	for _, tt := range tests {
		if got := GlobNames(tt.target, tt.pattern, tt.neutral); got != tt.want {
			t.Errorf("%s: GlobNames(%q, %q, %d) = %v, want %v", tt.name, tt.target, tt.pattern, tt.neutral, got, tt.want)
		}
	}
}

// TestGlobsIntersectAgreesWithDoublestar checks the automaton against
// doublestar on concrete paths: a literal path intersects a glob exactly
// when doublestar matches it.
func TestGlobsIntersectAgreesWithDoublestar(t *testing.T) {
	globs := []string{"*", "**", "a/**", "**/b", "a/**/b", "a/*/b", "*.go", "a?", "[ab]*", "{a,b}/c", "a/**/*.go", "/**/x"}
	paths := []string{"a", "b", "a/b", "a/x/b", "a/x/y/b", "ab", "x.go", "a/x.go", "a/b/c.go", "b/c", "/x", "/a/x", "ba"}
	for _, g := range globs {
		for _, p := range paths {
			want, _ := doublestar.Match(g, p)
			if got := GlobsIntersect(g, policy.EscapeGlob(p)); got != want {
				t.Errorf("GlobsIntersect(%q, literal %q) = %v, doublestar.Match = %v", g, p, got, want)
			}
		}
	}
}

func TestExpandBraces(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"a", []string{"a"}, true},
		{"{a,b}", []string{"a", "b"}, true},
		{"x{a,b{c,d}}y", []string{"xay", "xbcy", "xbdy"}, true},
		{`\{a,b}`, []string{`\{a,b}`}, true},
		{"[{]", []string{"[{]"}, true},
		{"{a,b", nil, false},
		{"a}", []string{"a}"}, true},
	}
	for _, tt := range tests {
		got, ok := expandBraces(tt.in, 10)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("expandBraces(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := expandBraces("{a,b}{c,d}{e,f}{g,h}", 10); ok {
		t.Error("16 alternatives passed a limit of 10")
	}
}

func TestLiteralPrefix(t *testing.T) {
	tests := []struct{ in, prefix, rest string }{
		{"**/*.go", "", "**/*.go"},
		{"../../etc/*", "../../etc", "*"},
		{"/etc/*", "/etc", "*"},
		{"/*", "/", "*"},
		{"src/a.go", "src/a.go", ""},
		{`we\*ird/x*`, "we*ird", "x*"},
	}
	for _, tt := range tests {
		p, r := literalPrefix(tt.in)
		if p != tt.prefix || r != tt.rest {
			t.Errorf("literalPrefix(%q) = %q, %q; want %q, %q", tt.in, p, r, tt.prefix, tt.rest)
		}
	}
}

// TestMatchFastPaths checks the literal-prefix shortcuts of matchPrefixes
// and matchPattern's AnyDepth case against plain doublestar matching of
// every prefix or component.
func TestMatchFastPaths(t *testing.T) {
	globs := []string{"a/**/b", "**/b/**", "/etc/*/x", "a/b/**", "/a/**", "a*", "*a", "a/b/c", "/a/b/**/c", "a", "a/b", ".git/**", "src/*.go", "*.pem", ".env*", "/etc/**", "/etc", `a\*b`, "{a,b}/c", "a/", "**", "**/x", "x?", "/", "/a/b", "a/b*", "[ab]/c"}
	paths := []string{"a/x/b", "b", "a/b/x/c", "/a/b/c", "/a/x/b/y/c", "/etc/q/x", "/etc/q/x/y", "ba", "a/a", "a", "a/b", "a/b/c", "ab", "a/bc", ".git", ".git/config", "src/x.go", "src/sub/x.go", "k.pem", "/etc/passwd", "/etcx", "/etc", "a*b", "b/c", "x1", "/a/b", "/a/bc/d", "/a", ".env.local", "x/.env", "a/"}
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
