package glob

import "testing"

// TestMatch: Match agrees with the automata Meets and Names use, where
// doublestar does not ("a*/**" matches "ab").
func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		{"/p/.env*/**", "/p/.env", true},
		{"/p/.env*/**", "/p/.env/x", true},
		{"/p/**/*[Ss][Uu][Bb]*/**", "/p/src/sub", true},
		{"/p/**/*.go", "/p/a.go", true},
		{"/p/**/*.go", "/p/x/y/a.go", true},
		{"/p/**/*.go", "/p/a.go/x", false},
		{"/p/*/**/x", "/p/x", false},
		{"/p/*/**/x", "/p/a/x", true},
		{"/p/[!.]*", "/p/.env", false},
		{"/p/[!.]*", "/p/env", true},
		{`/p/\*`, "/p/*", true},
		{`/p/\*`, "/p/a", false},
		{"/p/{a,b}", "/p/b", true},
		{"/p/?", "/p/é", true},
		{"/p/?", "/p/ab", false},
	} {
		if got := Cache(nil).Match(tt.pattern, tt.name); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
		if got := Cache(nil).Meets(tt.pattern, Escape(tt.name)); got != tt.want {
			t.Errorf("Meets(%q, Escape(%q)) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}
