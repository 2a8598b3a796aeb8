package classify

import (
	"testing"

	"github.com/safezonehq/safezone/policy"
)

// TestDeciding: Result.Deciding names the rule, class or mode that decided
// and where it is defined, as the reason does; it is empty for an error.
func TestDeciding(t *testing.T) {
	tests := []struct {
		c      decideCase
		rule   string
		source string
	}{
		{decideCase{tool: "Read", input: read("/proj/.env")}, "Read(.env*)", "ref.yaml:14"},
		{decideCase{tool: "Write", input: write("/proj/.git/config")}, `paths.protected ".git/**"`, "ref.yaml:10"},
		{decideCase{tool: "Write", input: write("/outside/x")}, "sandbox.outside_write", "ref.yaml:8"},
		{decideCase{tool: "Write", input: write("/proj/src/x"), flags: readFlag}, "read mode", "-r/--read"},
		{decideCase{tool: "Read", input: read("/proj/loop"), fs: []string{"proj/loop => loop"}}, "", ""},
	}
	for _, tt := range tests {
		r := runDecide(t, tt.c)
		if r.Deciding.Rule != tt.rule || r.Deciding.Source != tt.source {
			t.Errorf("%s %v: deciding %q (%s), want %q (%s); reason %s", tt.c.tool, tt.c.input, r.Deciding.Rule, r.Deciding.Source, tt.rule, tt.source, r.Reason)
		}
		if tt.rule == "" && (r.Row != RowError || r.Decision != policy.Deny) {
			t.Errorf("%v: row %d %v, want an error deny", tt.c.input, r.Row, r.Decision)
		}
	}
}
