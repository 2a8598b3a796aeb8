package gitconfig

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // Name()=Value, "!" suffix for NoValue
		bad  bool
	}{
		{in: "[core]\n\tbare = false\n\thooksPath = .husky\n", want: []string{"core.bare=false", "core.hookspath=.husky"}},
		{in: "[Core] HooksPath=x ; comment\n", want: []string{"core.hookspath=x"}},
		{in: "[core]\n\tfsmonitor\n", want: []string{"core.fsmonitor=!"}},
		{in: "[include]\n\tpath = \"a b.cfg\" # c\n", want: []string{"include.path=a b.cfg"}},
		{in: "[includeIf \"gitdir:~/Work/\"]\n\tpath = w.cfg\n", want: []string{"includeif.gitdir:~/Work/.path=w.cfg"}},
		{in: "[remote \"o\\\"x\"]\n\turl = u\n", want: []string{"remote.o\"x.url=u"}},
		{in: "[Branch.Main]\n\tremote = o\n", want: []string{"branch.main.remote=o"}},
		{in: "[a]\n\tk = one \\\n two\n", want: []string{"a.k=one  two"}},
		{in: "[a]\n\tk = \"x;y\" z  \n", want: []string{"a.k=x;y z"}},
		{in: "[a]\n\tk = \\t\\n\\\\\n", want: []string{"a.k=\t\n\\"}},
		{in: "[a] k = v\n", want: []string{"a.k=v"}},
		{in: "\ufeff# c\n[a]\nk=v", want: []string{"a.k=v"}},
		{in: "k = v\n", bad: true},
		{in: "[a]\n\tk = \"open\n", bad: true},
		{in: "[a]\n\tk = \\q\n", bad: true},
		{in: "[a \"x]\n", bad: true},
		{in: "[a]\n\t=v\n", bad: true},
	} {
		es, err := Parse([]byte(tc.in))
		if tc.bad != (err != nil) || err != nil && !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q): error %v, want bad=%v", tc.in, err, tc.bad)
			continue
		}
		if tc.bad {
			continue
		}
		var got []string
		for _, e := range es {
			v := e.Value
			if e.NoValue {
				v = "!"
			}
			got = append(got, e.Name()+"="+v)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Parse(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestParseAsGit compares Parse with git config --list --file on the
// inputs git accepts (git 2.x; skipped without git).
func TestParseAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for i, in := range []string{
		"[core]\n\thooksPath = .husky\n\tfsmonitor\n",
		"[a]\n\tk = one \\\n two\n\tq = \"x;y\" z  \n[b \"S\\\\x\"]\n\tK = \\t#c\n",
		"[a.B]\n\tc = \" lead\"\n", "[a] k = v ; c\n\tl = \"\"\n",
	} {
		f := filepath.Join(dir, "c"+string(rune('0'+i)))
		if err := os.WriteFile(f, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("git", "config", "--file", f, "--list", "-z").Output()
		if err != nil {
			t.Fatalf("git on %q: %v", in, err)
		}
		var want []string
		for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			k, v, ok := strings.Cut(rec, "\n")
			if !ok {
				v = "!"
			}
			want = append(want, k+"="+v)
		}
		es, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("Parse(%q): %v", in, err)
		}
		var got []string
		for _, e := range es {
			v := e.Value
			if e.NoValue {
				v = "!"
			}
			got = append(got, e.Name()+"="+v)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %q, git says %q", in, got, want)
		}
	}
}

// FuzzParse: Parse never panics, reads no further than its input and
// returns entries with a lower-case section and key.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"[core]\n\thooksPath = x\n", "[a \"b\"] k = \"v\\\n\" ; c", "[a.b]\nk", "\\", "[", "[a]\nk=\"\\"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		es, _ := Parse(data)
		for _, e := range es {
			if e.Section != strings.ToLower(e.Section) || e.Key != strings.ToLower(e.Key) || e.Key == "" {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
