package glob

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// osDirFS is a DirFS on the real file system, names relative to cwd.
type osDirFS struct{ cwd string }

func (f osDirFS) abs(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return f.cwd + "/" + name
}

func (f osDirFS) ReadDir(name string) ([]string, error) {
	ents, err := os.ReadDir(f.abs(name))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
	}
	return out, nil
}

func (f osDirFS) Stat(name string) (fs.FileMode, error) {
	fi, err := os.Stat(f.abs(name))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

func (f osDirFS) Lstat(name string) (fs.FileMode, error) {
	fi, err := os.Lstat(f.abs(name))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// globFixture is the tree the expansion tests run in: secrets, hidden
// directories, upper and lower case, dots in directory names, names that
// look like patterns, a non-ASCII name and symbolic links.
var globFixture = []string{
	".env", ".env.local", ".envrc", ".env.example", "key.pem", "cert.PEM", ".gitignore", ".git/config",
	".git/hooks/pre-commit", "src/a.go", "src/b.txt", "src/.env", "src/sub/deep.go", "src/sub/.hid",
	"dir.with.dots/x.env", "README.md", "Readme.txt", "UPPER", "a", "b", "ab", "-x", "[x]", "q?",
	"e", "E", "café", "x.tmp", "node_modules/p/index.js",
	"link -> src", "dangling -> nowhere", "envlink -> .env",
}

// makeGlobFixture makes the tree three directories below a temporary
// directory of its own, so that patterns going up ("../../*") see only it.
func makeGlobFixture(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "u1", "u2", "w")
	for _, f := range globFixture {
		name, target, isLink := strings.Cut(f, " -> ")
		full := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if isLink {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(name+"\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return dir
}

// expandCase is one pattern with its options.
type expandCase struct {
	pat string
	o   ShellOptions
}

// script returns the bash lines that set c's options and print what bash
// makes of c's pattern: the number of words, then each, NUL-separated.
func (c expandCase) script() string {
	var b strings.Builder
	b.WriteString("unset GLOBIGNORE\n")
	for _, opt := range []struct {
		name string
		on   bool
	}{{"dotglob", c.o.DotGlob}, {"nocaseglob", c.o.NoCaseGlob}, {"extglob", c.o.ExtGlob}, {"globstar", c.o.GlobStar}, {"globskipdots", !c.o.KeepDots}} {
		if opt.on {
			fmt.Fprintf(&b, "shopt -s %s\n", opt.name)
		} else {
			fmt.Fprintf(&b, "shopt -u %s\n", opt.name)
		}
	}
	if c.o.Ignore != "" {
		fmt.Fprintf(&b, "GLOBIGNORE='%s'\n", c.o.Ignore)
	}
	// Through a variable: bash's parser does not read extended globs
	// holding brackets as its matcher does, and a pattern in a variable's
	// value is matched the same (a backslash quotes the next character).
	fmt.Fprintf(&b, "p='%s'; a=($p); printf '%%s\\0' \"${#a[@]}\" \"${a[@]}\"\n", c.pat)
	return b.String()
}

// runBash runs the cases in one bash in dir and returns each one's words.
func runBash(t testing.TB, dir string, cases []expandCase) [][]string {
	t.Helper()
	var script strings.Builder
	script.WriteString("shopt -s nullglob\n")
	for _, c := range cases {
		script.WriteString(c.script())
	}
	cmd := exec.Command("bash", "--norc", "--noprofile", "-O", "extglob", "-s")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	cmd.Stdin = strings.NewReader(script.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v: %s", err, stderr.String())
	}
	fields := strings.Split(string(out), "\x00")
	var res [][]string
	for i := 0; i < len(fields) && len(res) < len(cases); {
		n, err := strconv.Atoi(fields[i])
		if err != nil || i+1+n > len(fields) {
			t.Fatalf("bash output out of step at case %d (%q): %q; stderr: %s", len(res), cases[len(res)].pat, fields[i], stderr.String())
		}
		res = append(res, fields[i+1:i+1+n])
		i += 1 + n
	}
	if len(res) != len(cases) {
		t.Fatalf("bash printed %d results for %d cases; stderr: %s", len(res), len(cases), stderr.String())
	}
	return res
}

// ours is what the expansion makes of c, as bash would print it with
// nullglob: the names, the word itself when it is no pattern (a
// variable's value: backslashes stay), or nothing.
func ours(dir string, c expandCase) ([]string, error) {
	if !IsPattern(c.pat) {
		return []string{c.pat}, nil
	}
	return Expand(osDirFS{dir}, c.pat, c.o, 100000)
}

// TestExpandTable checks forms whose answer is worked out by hand (bash
// 5.2 agrees: TestExpandAgainstBash runs them too).
func TestExpandTable(t *testing.T) {
	dir := makeGlobFixture(t)
	tests := []struct {
		pat  string
		o    ShellOptions
		want []string
	}{
		{pat: ".e[a-z]v", want: []string{".env"}},
		{pat: ".e[nm]v", want: []string{".env"}},
		{pat: ".e[!a]v", want: []string{".env"}},
		{pat: ".e[^x]v", want: []string{".env"}},
		{pat: ".[[:alpha:]]nv", want: []string{".env"}},
		{pat: ".en[]v]", want: []string{".env"}},
		{pat: ".en[\\v]", want: []string{".env"}},
		{pat: "[.]env", want: nil},
		{pat: "[.]env", o: ShellOptions{DotGlob: true}, want: []string{".env"}},
		{pat: "*", want: []string{"-x", "E", "README.md", "Readme.txt", "UPPER", "[x]", "a", "ab", "b", "café", "cert.PEM", "dangling", "dir.with.dots", "e", "envlink", "key.pem", "link", "node_modules", "q?", "src", "x.tmp"}},
		{pat: "?env", o: ShellOptions{DotGlob: true}, want: []string{".env"}},
		{pat: ".*", want: []string{".env", ".env.example", ".env.local", ".envrc", ".git", ".gitignore"}},
		{pat: ".*", o: ShellOptions{KeepDots: true}, want: []string{".", "..", ".env", ".env.example", ".env.local", ".envrc", ".git", ".gitignore"}},
		{pat: "*.p[a-z]m", want: []string{"key.pem"}},
		{pat: "*.pem", o: ShellOptions{NoCaseGlob: true}, want: []string{"cert.PEM", "key.pem"}},
		{pat: ".ENV", o: ShellOptions{NoCaseGlob: true}, want: []string{".ENV"}}, // no pattern: the word as it is
		{pat: ".ENV*", o: ShellOptions{NoCaseGlob: true}, want: []string{".env", ".env.example", ".env.local", ".envrc"}},
		{pat: "@(.env|x)", o: ShellOptions{ExtGlob: true}, want: []string{".env"}},
		{pat: "!(*[a-z]*)", o: ShellOptions{ExtGlob: true}, want: []string{"E", "UPPER"}},
		{pat: "!(*[a-z]*)", o: ShellOptions{ExtGlob: true, DotGlob: true}, want: []string{"E", "UPPER"}},
		{pat: "+(.e|nv)", o: ShellOptions{ExtGlob: true}, want: []string{".env"}},
		{pat: "*/../.env", want: []string{"dir.with.dots/../.env", "link/../.env", "node_modules/../.env", "src/../.env"}},
		{pat: ".g[h-j]t/hooks/pre-commit", want: []string{".git/hooks/pre-commit"}},
		{pat: "**/.env", o: ShellOptions{GlobStar: true}, want: []string{".env", "src/.env"}},
		{pat: "**/*.go", o: ShellOptions{GlobStar: true}, want: []string{"src/a.go", "src/sub/deep.go"}},
		{pat: "*", o: ShellOptions{DotGlob: true, Ignore: "README.md:*.txt:[!.]*"}, want: []string{".env", ".env.example", ".env.local", ".envrc", ".git", ".gitignore"}},
		{pat: "\\[x]", want: []string{"\\[x]"}}, // no pattern
		{pat: "q\\?", want: []string{"q\\?"}},   // no pattern
		{pat: "q[?]", want: []string{"q?"}},
		{pat: "caf?", want: []string{"café"}}, // UTF-8: one character; C locale: bytes, no match
	}
	var cases []expandCase
	for _, tc := range tests {
		got, err := ours(dir, expandCase{tc.pat, tc.o})
		if err != nil {
			t.Errorf("%q %+v: %v", tc.pat, tc.o, err)
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q %+v:\n got %q\nwant %q", tc.pat, tc.o, got, tc.want)
		}
		cases = append(cases, expandCase{tc.pat, tc.o})
	}
	if _, err := exec.LookPath("bash"); err != nil {
		return
	}
	for i, got := range runBash(t, dir, cases) {
		if tc := tests[i]; !slices.Equal(got, tc.want) && tc.pat != "caf?" {
			t.Errorf("bash %q %+v:\n got %q\nwant %q", tc.pat, tc.o, got, tc.want)
		}
	}
}

// TestExpandAgainstBash is the differential test of the expansion: 3,000
// patterns drawn (seeded) from bash's glob forms, with random options, are
// expanded by bash 5 (C locale) in a fixture tree and by Expand, which must
// agree name for name. It skips where bash is missing.
func TestExpandAgainstBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	dir := makeGlobFixture(t)
	r := rand.New(rand.NewPCG(21, 2026))
	var cases []expandCase
	for range 3000 {
		cases = append(cases, randomCase(r))
	}
	want := runBash(t, dir, cases)
	skipped := 0
	for i, c := range cases {
		got, err := ours(dir, c)
		if err != nil {
			skipped++
			continue
		}
		if !sameInCLocale(got, want[i]) {
			t.Errorf("%q %+v:\n ours %q\n bash %q", c.pat, c.o, got, want[i])
		}
	}
	if skipped > len(cases)/20 {
		t.Errorf("%d of %d patterns not evaluated (locale or cost)", skipped, len(cases))
	}
	t.Logf("%d patterns compared with bash, %d not evaluated", len(cases)-skipped, skipped)
}

// sameInCLocale reports whether ours is bash's answer in the C locale, or
// that plus non-ASCII names, which a UTF-8 locale may match ("????" is
// "café" there, five bytes in the C locale).
func sameInCLocale(ours, bash []string) bool {
	if slices.Equal(ours, bash) {
		return true
	}
	var extra []string
	for _, n := range ours {
		if !slices.Contains(bash, n) {
			extra = append(extra, n)
		}
	}
	for _, n := range bash {
		if !slices.Contains(ours, n) {
			return false
		}
	}
	for _, n := range extra {
		if isASCII(n) {
			return false
		}
	}
	return true
}

// randomCase draws a pattern and options.
func randomCase(r *rand.Rand) expandCase {
	o := ShellOptions{
		DotGlob:    r.IntN(4) == 0,
		NoCaseGlob: r.IntN(5) == 0,
		ExtGlob:    r.IntN(2) == 0,
		GlobStar:   r.IntN(4) == 0,
		KeepDots:   r.IntN(10) == 0,
	}
	if r.IntN(8) == 0 {
		o.Ignore = []string{"x", ".env", "*.pem", "src/*", ".*", "README.md:*.txt", "[!.]*", "[:]x:README.md", "[]]x:*.go", "@(x|*.md):a", "*(.e*):b"}[r.IntN(11)]
		o.DotGlob = true
	}
	var els []string
	for n := 1 + r.IntN(3); n > 0; n-- {
		els = append(els, randomElement(r, o, 0))
	}
	pat := strings.Join(els, "/")
	if r.IntN(15) == 0 {
		pat += "/"
	}
	return expandCase{pat, o}
}

// randomElement draws one path element of a pattern.
func randomElement(r *rand.Rand, o ShellOptions, depth int) string {
	switch r.IntN(12) {
	case 0:
		return ".."
	case 1:
		if o.GlobStar {
			return "**"
		}
	case 2:
		return []string{"src", ".git", "link", "dir.with.dots", "node_modules", "hooks", "sub"}[r.IntN(7)]
	}
	var b strings.Builder
	for n := 1 + r.IntN(4); n > 0; n-- {
		b.WriteString(randomPiece(r, o, depth))
	}
	return b.String()
}

func randomPiece(r *rand.Rand, o ShellOptions, depth int) string {
	const lits = "aeinvrgcodtpmkxbsEVNRDMP.-_"
	switch k := r.IntN(20); {
	case k < 6:
		return string(lits[r.IntN(len(lits))])
	case k < 8:
		return []string{".env", ".e", "env", ".git", "pem", "go", "a", "README", "tmp"}[r.IntN(9)]
	case k < 10:
		return "*"
	case k < 11:
		return "?"
	case k < 12:
		return `\` + string(`*?[].eE-x`[r.IntN(9)])
	case k < 17:
		return randomBracket(r)
	case o.ExtGlob && depth < 2:
		op := string("?*+@!"[r.IntN(5)])
		var alts []string
		for n := 1 + r.IntN(3); n > 0; n-- {
			var a strings.Builder
			for m := r.IntN(3); m >= 0; m-- {
				a.WriteString(randomPiece(r, o, depth+1))
			}
			alts = append(alts, a.String())
		}
		return op + "(" + strings.Join(alts, "|") + ")"
	}
	return "e"
}

func randomBracket(r *rand.Rand) string {
	var b strings.Builder
	b.WriteByte('[')
	switch r.IntN(6) {
	case 0:
		b.WriteByte('!')
	case 1:
		b.WriteByte('^')
	}
	if r.IntN(8) == 0 {
		b.WriteByte(']')
	}
	for n := 1 + r.IntN(3); n > 0; n-- {
		switch r.IntN(7) {
		case 0:
			b.WriteString([]string{"[:alpha:]", "[:upper:]", "[:lower:]", "[:digit:]", "[:punct:]", "[:alnum:]", "[:space:]", "[:word:]", "[:xdigit:]", "[:bogus:]"}[r.IntN(10)])
		case 1:
			b.WriteString([]string{"a-z", "A-Z", "e-n", "0-9", "z-a", "--/", "!-.", "d-f"}[r.IntN(8)])
		case 2:
			b.WriteString([]string{`\]`, `\-`, `\\`, `\!`, `\e`}[r.IntN(5)])
		case 3:
			b.WriteString([]string{"[=e=]", "[.hyphen.]", "[.e.]"}[r.IntN(3)])
		default:
			b.WriteByte("aenvpmgkt.-_EVNP"[r.IntN(16)])
		}
	}
	if r.IntN(12) != 0 {
		b.WriteByte(']')
	}
	return b.String()
}
