package glob

import (
	"slices"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestIntersects(t *testing.T) {
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
		if got := intersects(tt.a, tt.b); got != tt.want {
			t.Errorf("intersects(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := intersects(tt.b, tt.a); got != tt.want {
			t.Errorf("intersects(%q, %q) = %v, want %v (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
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
		if got := Cache(nil).Names(tt.target, tt.pattern, tt.neutral); got != tt.want {
			t.Errorf("%s: Cache(nil).Names(%q, %q, %d) = %v, want %v", tt.name, tt.target, tt.pattern, tt.neutral, got, tt.want)
		}
	}
}

// TestIntersectsAgreesWithDoublestar checks the automaton against
// doublestar on concrete paths: a literal path intersects a glob exactly
// when doublestar matches it.
func TestIntersectsAgreesWithDoublestar(t *testing.T) {
	globs := []string{"*", "**", "a/**", "**/b", "a/**/b", "a/*/b", "*.go", "a?", "[ab]*", "{a,b}/c", "a/**/*.go", "/**/x"}
	paths := []string{"a", "b", "a/b", "a/x/b", "a/x/y/b", "ab", "x.go", "a/x.go", "a/b/c.go", "b/c", "/x", "/a/x", "ba"}
	for _, g := range globs {
		for _, p := range paths {
			want, _ := doublestar.Match(g, p)
			if got := intersects(g, Escape(p)); got != want {
				t.Errorf("intersects(%q, literal %q) = %v, doublestar.Match = %v", g, p, got, want)
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
		got, ok := ExpandBraces(tt.in, 10)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("ExpandBraces(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := ExpandBraces("{a,b}{c,d}{e,f}{g,h}", 10); ok {
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
		{"a//b*/c", "a/", "b*/c"},
		{"/", "/", ""},
		{"a/", "a/", ""},
		{"", "", ""},
		{"//x/*", "//x", "*"},
		{".claude/settings*.json", ".claude", "settings*.json"},
		{`a/b\/c*`, `a/b\`, "c*"},
	}
	for _, tt := range tests {
		p, r := LiteralPrefix(tt.in)
		if p != tt.prefix || r != tt.rest {
			t.Errorf("LiteralPrefix(%q) = %q, %q; want %q, %q", tt.in, p, r, tt.prefix, tt.rest)
		}
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b":       "/a/b",
		"/a[1]/*.go": `/a\[1\]/\*.go`,
		`x\y{z}?`:    `x\\y\{z\}\?`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if got := Unescape(Escape(in)); got != in {
			t.Errorf("Unescape(Escape(%q)) = %q", in, got)
		}
	}
}

func TestNoHidden(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		{"/p/*.*", "/p/.env", false},
		{"/p/*.*", "/p/a.txt", true},
		{"/p/*", "/p/.git", false},
		{"/p/.*", "/p/.env", true},
		{"/p/?env", "/p/.env", false},
		{"/p/?env", "/p/xenv", true},
		{"/p/*/x", "/p/.git/x", false},
		{"/p/d*/x", "/p/dd/x", true},
	} {
		if got := intersects(NoHidden(tt.pattern), Escape(tt.name)); got != tt.want {
			t.Errorf("NoHidden(%q) = %q against %q: %v, want %v", tt.pattern, NoHidden(tt.pattern), tt.name, got, tt.want)
		}
	}
}
