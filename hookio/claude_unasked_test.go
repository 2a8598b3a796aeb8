package hookio

import (
	"strings"
	"testing"
)

// TestClaudeRunsUnasked checks the table against the forms measured under
// Claude Code 2.1.330 (testdata/hosts/claude/unasked.md): each rule with
// its neighbour that the host asks about.
func TestClaudeRunsUnasked(t *testing.T) {
	// cmd: words, then a marker for what the analysis says of it: "r"
	// read-only, "o" writes through its operands, ">" writes only through a
	// redirection.
	cmd := func(s string) UnaskedCommand {
		words, kind, _ := strings.Cut(s, " | ")
		c := UnaskedCommand{Argv: strings.Fields(words)}
		switch kind {
		case "r":
			c.ReadOnly = true
		case "o":
			c.WritesOperands = true
		case ">":
			c.WritesRedirect = true
		}
		return c
	}
	for _, tc := range []struct {
		cmds              string // ;-separated simple commands
		dflt, acceptEdits bool
	}{
		{"cat README.md | r", true, true},
		{"grep -rn readme . | r", true, true},
		{"ls -la src | r", true, true},
		{"find . -name *.go | r", true, true},
		{"find . -name *.go -exec cat {} + | r; cat {} | r", false, false},
		{"find . -name x.txt -delete | o", false, false},
		{"sort README.md | r", true, true},
		{"sort -o sorted.txt README.md | o", false, false},
		{"sort --output=sorted.txt README.md | o", false, false},
		{"uniq README.md | r", false, false},
		{"awk {print} README.md | r", false, false},
		{"git status | r", true, true},
		{"git log --oneline -3 | r", true, true},
		{"git add README.md | o", false, false},
		{"git -C .. status | r", false, false},
		{"/usr/bin/cat README.md | r", false, false},
		{"cat README.md | r; grep x | r", true, true},
		{"echo hi | >", false, true},
		{"cat README.md | >", false, true},
		{"echo x | r; tee out2.txt | o", false, false},
		{"touch new.txt | o", false, true},
		{"touch -t 202001010000 README.md | o", false, false},
		{"mkdir -p a/b/c | o", false, true},
		{"rm -rf dir | o", false, true},
		{"rm -i dir | o", false, false},
		{"cp README.md copy.md | o", false, true},
		{"cp -r dir dir2 | o", false, false},
		{"mv notes.txt n2.txt | o", false, true},
		{"mv -f notes.txt n2.txt | o", false, false},
		{"sed -i s/a/b/ README.md | o", false, true},
		{"sed -n 1p README.md | r", true, true},
		{"ln -s a b | o", false, false},
		{"npm test | r", false, false},
	} {
		var cmds []UnaskedCommand
		for _, s := range strings.Split(tc.cmds, "; ") {
			cmds = append(cmds, cmd(s))
		}
		for _, m := range []struct {
			mode PermissionMode
			want bool
		}{{PermDefault, tc.dflt}, {PermAcceptEdits, tc.acceptEdits}, {PermPlan, false}, {PermBypass, false}} {
			if got := (Claude{}).RunsUnasked(m.mode, cmds); got != m.want {
				t.Errorf("%q in %v: %v, want %v", tc.cmds, m.mode, got, m.want)
			}
		}
	}
}
