package glob

import (
	"math/rand/v2"
	"testing"
)

// TestFromShellCovers checks that FromShell is never narrower than bash:
// for 3,000 seeded random patterns and options, every name the expansion
// (checked against bash by TestExpandAgainstBash) makes of a pattern is
// matched by one of the globs FromShell gives for it.
func TestFromShellCovers(t *testing.T) {
	dir := makeGlobFixture(t)
	r := rand.New(rand.NewPCG(7, 21))
	checked := 0
	for range 3000 {
		c := randomCase(r)
		if !IsPattern(c.pat) {
			continue
		}
		names, err := Expand(osDirFS{dir}, c.pat, c.o, 100000)
		if err != nil {
			continue
		}
		globs := FromShell(Escape(dir)+"/"+c.pat, c.o)
		for _, n := range names {
			if !isASCII(n) {
				continue // bytes in the C locale (see FromShell)
			}
			checked++
			p := dir + "/" + n
			found := false
			for _, g := range globs {
				found = found || intersects(Escape(p), g)
			}
			if !found {
				t.Errorf("%q %+v: bash opens %s; FromShell gives %q", c.pat, c.o, n, globs)
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d names checked", checked)
	}
}

// TestFromShellNames checks what a shell glob names among the policy's
// patterns (Cache.Names): the attack and its benign neighbour.
func TestFromShellNames(t *testing.T) {
	tests := []struct {
		name    string
		pat     string
		o       ShellOptions
		policy  string
		neutral int
		want    bool
	}{
		{name: "a range names .env", pat: "/p/.e[a-z]v", policy: "/**/.env*", want: true},
		{name: "a set names .env", pat: "/p/.e[nm]v", policy: "/**/.env*", want: true},
		{name: "a class names .env", pat: "/p/.[[:alpha:]]nv", policy: "/**/.env*", want: true},
		{name: "a negated set names .env", pat: "/p/.e[!a]v", policy: "/**/.env*", want: true},
		{name: "a leading ] names .env", pat: "/p/.en[]v]", policy: "/**/.env*", want: true},
		{name: "a set without the letter does not", pat: "/p/.e[abc]v", policy: "/**/.env*", want: false},
		{name: "nocaseglob names .env in capitals", pat: "/p/.ENV*", o: ShellOptions{NoCaseGlob: true}, policy: "/**/.env*", want: true},
		{name: "capitals alone do not", pat: "/p/.ENV*", policy: "/**/.env*", want: false},
		{name: "an extended glob names .env", pat: "/p/@(.env|x)", o: ShellOptions{ExtGlob: true}, policy: "/**/.env*", want: true},
		{name: "one or more names .env", pat: "/p/+(.env)", o: ShellOptions{ExtGlob: true}, policy: "/**/.env*", want: true},
		{name: "a leading wildcard cannot name .env without dotglob", pat: "/p/?env", policy: "/**/.env*", want: false},
		{name: "with dotglob it may, but only by wildcard", pat: "/p/?env", o: ShellOptions{DotGlob: true}, policy: "/**/.env*", want: true},
		{name: "*/../.env names .env", pat: "/p/*/../.env", policy: "/p/.env", want: true},
		{name: "a hook through a range", pat: "/p/.g[h-j]t/hooks/pre-commit", policy: "/p/.git/hooks/**", want: true},
		{name: "*.tmp cannot name .git/config", pat: "/p/*.tmp", policy: "/p/.git/config", want: false},
		{name: "*.p[a-z]m names keys", pat: "/p/*.p[a-z]m", policy: "/**/*.pem", want: true},
		{name: "README by a set does not name .env", pat: "/p/R[E]ADME.md", policy: "/**/.env*", want: false},
	}
	var c Cache = make(Cache)
	for _, tc := range tests {
		got := false
		for _, g := range FromShell(tc.pat, tc.o) {
			got = got || c.Names(g, tc.policy, tc.neutral)
		}
		if got != tc.want {
			t.Errorf("%s: %q names %q: got %v, want %v (globs %q)", tc.name, tc.pat, tc.policy, got, tc.want, FromShell(tc.pat, tc.o))
		}
	}
}
