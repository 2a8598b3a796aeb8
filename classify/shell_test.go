package classify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// TestShellRules checks Bash(...) matching with options as sets.
func TestShellRules(t *testing.T) {
	rule := func(s string) policy.Rule {
		r, err, _ := policy.CompileRule(s, policy.Pos{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		rule  string
		allow bool
		yes   []string
		no    []string
	}{
		{rule: "Bash(rm -rf *)",
			yes: []string{"rm -rf x", "rm -fr x", "rm -r -f x", "rm --recursive --force x", "sudo rm -rf x", "/bin/rm -rf x", "command rm -rf x", "x; rm -rf y", "bash -c 'rm -rf y'", "rm  -rf  x", "rm -rfv x", "rm -R -f x", "rm -rf", "FOO=1 rm -rf x", "timeout 5 rm -rf x", "nice -n 10 rm -rf x", "rm x -rf", "\\rm -rf x"},
			no:  []string{"rm -r x", "rm -f x", "rm x", "rmdir -rf x", "echo rm -rf x", "git rm -rf x"}},
		{rule: "Bash(go test:*)", yes: []string{"go test", "go test ./...", "go test -v ./..."}, no: []string{"go build", "go vet ./..."}},
		{rule: "Bash(git push:*)", yes: []string{"git push origin main", "git push --force"}, no: []string{"git pull"}},
		{rule: "Bash(npm test)", allow: true, yes: []string{"npm test"}, no: []string{"npm test --config=evil", "npm test x", "npm run build", "npm test; rm x"}},
		{rule: "Bash(cat *)", allow: true, yes: []string{"cat README.md", "cat a b"}, no: []string{"cat -n a", "cat a; rm b"}},
		{rule: "Bash(git push --force *)", yes: []string{"git push --force origin main", "git push origin main --force", "git push -f origin"}, no: []string{"git push origin main"}},
	}
	for _, tt := range tests {
		r := rule(tt.rule)
		check := func(cmd string, want bool) {
			d := &decider{call: nil}
			sa := shell.Analyze(cmd, shell.Env{Cwd: "/p", Home: "/h", ProjectDir: "/p"})
			d.shell = &sa
			d.call = shellCall(cmd)
			if got := d.shellRuleMatches(&r, tt.allow); got != want {
				t.Errorf("%s (allow %v) vs %q = %v, want %v", tt.rule, tt.allow, cmd, got, want)
			}
		}
		for _, c := range tt.yes {
			check(c, true)
		}
		for _, c := range tt.no {
			check(c, false)
		}
	}
}

func shellCall(cmd string) *hookio.Call {
	return &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: cmd, Cwd: "/p", Writes: true}
}

// TestShellGlobBudget: the globs of one command read at most maxGlobDirs
// directories and make at most maxGlobMatches names (directories matched
// on the way count); past that the command is unknown (asked), with a
// reason that says so, instead of walking the disk until the hook's
// deadline.
func TestShellGlobBudget(t *testing.T) {
	var files []string
	for i := range maxGlobDirs + 100 {
		files = append(files, fmt.Sprintf("proj/d%04d/f.txt", i))
	}
	for _, tt := range []struct {
		cmd  string
		want policy.Decision
		has  string
	}{
		{"cat */x*", policy.Ask, "matches more than 1000 paths"},
		{"cat d0*/x* d1*/x*", policy.Ask, "read more than 1000 directories"},
		{"cat d0001/*.txt d0002/*.txt", policy.Allow, ""},
	} {
		r := runDecide(t, decideCase{name: tt.cmd, fs: files, tool: "Bash", input: map[string]any{"command": tt.cmd}, flags: yesFlag})
		if r.Decision != tt.want || !strings.Contains(r.Reason, tt.has) {
			t.Errorf("%q: %v %q, want %v with %q", tt.cmd, r.Decision, r.Reason, tt.want, tt.has)
		}
	}
}
