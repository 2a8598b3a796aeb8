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
		kernel    bool // the command can run confined
	}{
		{"grep -r API .", "bypassPermissions", policy.Ask, "/proj/.env among them", false},
		{"grep -r API src", "bypassPermissions", policy.Allow, "", false},
		{"grep -rn TODO certs", "bypassPermissions", policy.Ask, "/proj/certs/k.pem among them", false},
		{"grep -n API README.md", "bypassPermissions", policy.Allow, "", false},
		{"rg API", "bypassPermissions", policy.Ask, "among them", false},
		{"rg API src docs", "bypassPermissions", policy.Allow, "", false},
		{"git grep --no-index API", "bypassPermissions", policy.Ask, "among them", false},
		{"git grep API -- src", "bypassPermissions", policy.Allow, "", false},
		{"diff -r src .", "bypassPermissions", policy.Ask, "among them", false},
		{"diff -r src docs", "bypassPermissions", policy.Allow, "", false},
		{"find . -type f -exec cat {} +", "bypassPermissions", policy.Ask, "among them", false},
		{"find src -type f -exec cat {} +", "bypassPermissions", policy.Allow, "", false},
		{"find . -type f -exec ls -la {} +", "bypassPermissions", policy.Allow, "", false},
		{"grep -r API . --include='*.go'", "bypassPermissions", policy.Allow, "", false},
		{"grep -r API . --include='.env*'", "bypassPermissions", policy.Deny, "", false},
		{"rg -g '*.go' API", "bypassPermissions", policy.Allow, "", false},
		{"rg -t go API", "bypassPermissions", policy.Allow, "", false},
		{"rg -g '!*.md' API", "bypassPermissions", policy.Ask, "among them", false},
		// node_modules is program-writable: a package's fixture key is not
		// the user's secret (the kernel leaves it too).
		{"grep -r x node_modules", "bypassPermissions", policy.Allow, "", false},
		// Past the bound of directories, the directory counts as holding one.
		{"grep -r x big", "bypassPermissions", policy.Ask, "more than 256 directories", false},
		// Outside the roots the kernel does not look for .env: asked even
		// where the command runs confined.
		{"grep -r x /outside", "bypassPermissions", policy.Ask, "/outside/.env among them", true},
		{"grep -r x /outside/deep", "bypassPermissions", policy.Allow, "", true},
		{"grep -r API .", "bypassPermissions", policy.Allow, "", true},
		// Plan mode: the host runs a search without asking and nothing is
		// confined there.
		{"grep -r API .", "plan", policy.Ask, "among them", false},
	} {
		var env *Env
		if tt.kernel {
			env = &Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-28", Confinable: true, KernelWrite: []string{"/tmp"}}
		}
		r := runDecide(t, decideCase{name: tt.cmd, tool: "Bash", input: bash(tt.cmd), perm: tt.perm, embedded: true, env: env, fs: append(append([]string{}, deep...), "proj/src/a.go", "proj/.env", "outside/.env")})
		got := r.Decision
		if got == policy.Abstain {
			got = policy.Allow // plan mode abstains where a bypass allows
		}
		if got != tt.want || !strings.Contains(r.Reason, tt.has) {
			t.Errorf("%q (%s): %s, want %s with %q\n%s", tt.cmd, tt.perm, r.Decision, tt.want, tt.has, trace(r))
		}
	}
}
