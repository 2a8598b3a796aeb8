package glob

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// bashMatcher is one bash process answering [[ NAME == PATTERN ]] with
// extglob on, in the C locale: bash's strmatch with FNM_EXTMATCH alone
// (no FNM_PATHNAME, no FNM_PERIOD), the same matcher pathname expansion
// uses.
type bashMatcher struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

var (
	bashOnce sync.Once
	bashM    *bashMatcher
)

// startBashMatcher returns the shared bash matcher, or nil without bash.
func startBashMatcher() *bashMatcher {
	bashOnce.Do(func() {
		if _, err := exec.LookPath("bash"); err != nil {
			return
		}
		cmd := exec.Command("bash", "--norc", "--noprofile", "-O", "extglob", "-c",
			`while IFS= read -r -d '' n && IFS= read -r -d '' p; do if [[ $n == $p ]]; then printf 1; else printf 0; fi; done`)
		cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
		in, err := cmd.StdinPipe()
		if err != nil {
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return
		}
		if cmd.Start() != nil {
			return
		}
		bashM = &bashMatcher{in: in, out: bufio.NewReader(out)}
	})
	return bashM
}

// match asks bash whether name matches pat.
func (b *bashMatcher) match(name, pat string) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := io.WriteString(b.in, name+"\x00"+pat+"\x00"); err != nil {
		return false, err
	}
	c, err := b.out.ReadByte()
	return c == '1', err
}

// FuzzShellMatch checks the matcher against bash's: for any name and
// pattern (no NUL, short enough for bash's own backtracking), strmatch in
// the C locale with FNM_EXTMATCH answers as [[ name == pattern ]] does.
// Without bash it checks only that matching ends and never panics.
//
//	go test ./policy/glob -run '^$' -fuzz FuzzShellMatch -fuzztime 60s
func FuzzShellMatch(f *testing.F) {
	for _, s := range [][2]string{
		{".env", ".e[a-z]v"}, {".env", ".e[nm]v"}, {".env", ".[[:alpha:]]nv"}, {".env", ".e[!a]v"},
		{".env", ".e[^x]v"}, {".env", ".en[]v]"}, {".env", `.en[\v]`}, {".env", "@(.env|x)"},
		{".env", "!(x)"}, {"aab", "+(a)b"}, {"ab", "*(a|b)"}, {"ab", "?(a)b"}, {"x-y", "[a-]-y"},
		{"E", "[[:upper:]]"}, {"e", "[[=e=]]"}, {"-", "[[.hyphen.]]"}, {"]", "[]]"}, {"a", "[!]]"},
		{"ab", "a*(b"}, {"ab", "[a"}, {`a\`, `a\`}, {"abc", "*?(c)"}, {"abc", "*!(x)c"},
		{"key.pem", "*.p[a-z]m"}, {"x", "[z-a]"}, {"b", "[a-c-e]"},
	} {
		f.Add(s[0], s[1])
	}
	b := startBashMatcher()
	f.Fuzz(func(t *testing.T, name, pat string) {
		if len(name) > 40 || len(pat) > 40 || strings.ContainsRune(name+pat, 0) {
			return
		}
		m := matcher{steps: maxMatchSteps}
		got := m.run(pat, name, fnmExtMatch)
		if m.err != nil || b == nil {
			return
		}
		want, err := b.match(name, pat)
		if err != nil {
			t.Fatalf("bash: %v", err)
		}
		if got != want {
			t.Errorf("[[ %q == %q ]]: ours %v, bash %v", name, pat, got, want)
		}
	})
}
