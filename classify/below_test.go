package classify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/policy"
)

// TestSecretBelow: a read of every file below a directory (grep -r, rg,
// git grep, diff -r, find's catch-all -exec) that reaches a file a deny
// rule matches is asked where the command would run unconfined (here: no
// kernel; plan mode), each with a neighbour that keeps its answer.
func TestSecretBelow(t *testing.T) {
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd} }
	deep := []string{"proj/certs/k.pem", "proj/node_modules/pkg/test/fixture.pem"}
	for i := range 300 {
		deep = append(deep, fmt.Sprintf("proj/big/d%03d/", i))
	}
	for _, tt := range []struct {
		cmd, perm string
		want      policy.Decision
		has       string
	}{
		{"grep -r API .", "bypassPermissions", policy.Ask, "/proj/.env among them"},
		{"grep -r API src", "bypassPermissions", policy.Allow, ""},
		{"grep -rn TODO certs", "bypassPermissions", policy.Ask, "/proj/certs/k.pem among them"},
		{"grep -n API README.md", "bypassPermissions", policy.Allow, ""},
		{"rg API", "bypassPermissions", policy.Ask, "among them"},
		{"rg API src docs", "bypassPermissions", policy.Allow, ""},
		{"git grep --no-index API", "bypassPermissions", policy.Ask, "among them"},
		{"git grep API -- src", "bypassPermissions", policy.Allow, ""},
		{"diff -r src .", "bypassPermissions", policy.Ask, "among them"},
		{"diff -r src docs", "bypassPermissions", policy.Allow, ""},
		{"find . -type f -exec cat {} +", "bypassPermissions", policy.Ask, "among them"},
		{"find src -type f -exec cat {} +", "bypassPermissions", policy.Allow, ""},
		{"find . -type f -exec ls -la {} +", "bypassPermissions", policy.Allow, ""},
		{"grep -r API . --include='*.go'", "bypassPermissions", policy.Allow, ""},
		{"grep -r API . --include='.env*'", "bypassPermissions", policy.Deny, ""},
		{"rg -g '*.go' API", "bypassPermissions", policy.Allow, ""},
		{"rg -t go API", "bypassPermissions", policy.Allow, ""},
		{"rg -g '!*.md' API", "bypassPermissions", policy.Ask, "among them"},
		// node_modules is program-writable: a package's fixture key is not
		// the user's secret (the kernel leaves it too).
		{"grep -r x node_modules", "bypassPermissions", policy.Allow, ""},
		// Past the bound of directories, the directory counts as holding one.
		{"grep -r x big", "bypassPermissions", policy.Ask, "more than 256 directories"},
		// Plan mode: the host runs a search without asking and nothing is
		// confined there.
		{"grep -r API .", "plan", policy.Ask, "among them"},
	} {
		r := runDecide(t, decideCase{name: tt.cmd, tool: "Bash", input: bash(tt.cmd), perm: tt.perm, embedded: true, fs: append(append([]string{}, deep...), "proj/src/a.go", "proj/.env")})
		got := r.Decision
		if got == policy.Abstain {
			got = policy.Allow // plan mode abstains where a bypass allows
		}
		if got != tt.want || !strings.Contains(r.Reason, tt.has) {
			t.Errorf("%q (%s): %s, want %s with %q\n%s", tt.cmd, tt.perm, r.Decision, tt.want, tt.has, trace(r))
		}
	}
}
