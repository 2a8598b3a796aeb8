package classify

import (
	"fmt"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/policy"
)

// TestFindDecision: what find's actions reach is what its expression
// selects (shell/findexpr.go), judged as patterns: a case-folded name, an
// -o branch, a group, a negation, a -path or a -regex that can select a
// denied or protected file is denied; one that cannot select any, even in
// a tree that holds them, keeps its answer. Each attack has its benign
// neighbour.
func TestFindDecision(t *testing.T) {
	var bigModules []string
	for i := range maxGlobDirs + 10 {
		bigModules = append(bigModules, fmt.Sprintf("proj/node_modules/m%04d/", i))
	}
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd} }
	fsys := []string{"proj/.env.local", "proj/a.tmp", "proj/k.pem", "proj/.git/hooks/pre-commit", "proj/build/x.o",
		"proj/g => .", "proj/h => .git", "home/notes.txt"}
	tests := []decideCase{
		// Case-folded names (-iname, -ipath).
		{name: "-iname reaches .env", input: bash("find . -iname '.ENV' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "-iname of another name", input: bash("find . -iname 'README.MD' -exec cat {} +"), want: policy.Allow},
		{name: "-ipath reaches .env.local", input: bash("find . -ipath '*/.ENV.*' -exec cat {} \\;"), want: policy.Deny, row: RowDeny},
		{name: "-ipath of sources", input: bash("find . -ipath './SRC/*' -exec cat {} \\;"), want: policy.Allow},
		{name: "a bracket that spells .env", input: bash("find . -name '.e[nm]v' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "a bracket that cannot", input: bash("find . -name '[!.]*.go' -exec cat {} +"), want: policy.Allow},
		// Operators.
		{name: "an -o branch in a group reaches .env", input: bash("find . \\( -name x -o -name '.env*' \\) -exec cat {} \\;"), want: policy.Deny, row: RowDeny},
		{name: "an -o branch of sources", input: bash("find . \\( -name x -o -name '*.go' \\) -exec cat {} \\;"), want: policy.Allow},
		{name: "-o before the action's branch", input: bash("find . -name '*.go' -o -name '.env*' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "the action on the first branch only", input: bash("find . -name '*.go' -exec cat {} + -o -name '.env*' -print"), want: policy.Allow},
		{name: "a double negation selects .env", input: bash("find . ! \\( ! -name '.env*' \\) -exec cat {} +"), want: policy.Deny, row: RowDeny},
		// Without a kernel to hide .env (as here), a read of every file
		// below a directory that holds one is asked.
		{name: "a negation selects by wildcard: the directory as a whole", input: bash("find . ! -name '*.go' -exec cat {} +"), want: policy.Ask},
		{name: "a negation selects by wildcard in a directory without secrets", input: bash("find src ! -name '*.md' -exec cat {} +"), want: policy.Allow},
		{name: "a comma list evaluates both sides", input: bash("find . -name '.env*' -false , -name '.env*' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "-false before the action", input: bash("find . -name '.env*' -false -exec cat {} +"), want: policy.Allow},
		// -regex.
		{name: "-regex reaches .env", input: bash("find . -regex '.*/\\.env' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "-regex of sources", input: bash("find . -regex '.*\\.go' -exec cat {} +"), want: policy.Allow},
		{name: "-regex with an alternation", input: bash("find . -regextype posix-extended -regex '.*/\\.(env|x)' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "-iregex", input: bash("find . -iregex '.*/\\.ENV\\..*' -exec cat {} +"), want: policy.Deny, row: RowDeny},
		{name: "a back-reference is not followed", input: bash("find . -regex '.*/\\.e\\(n\\)\\1' -exec cat {} +"), want: policy.Ask},
		// -delete and -exec writes, against protected paths that exist.
		{name: "deleting *.tmp does not reach .git", input: bash("find . -name '*.tmp' -delete"), want: policy.Allow},
		{name: "deleting config reaches .git/config", input: bash("find . -name config -delete"), want: policy.Deny, row: RowProtected, has: []string{".git/config"}},
		{name: "deleting *.pem names protected files", input: bash("find . -name '*.pem' -delete"), want: policy.Deny, row: RowProtected},
		{name: "deleting below a path", input: bash("find . -path './build/*' -delete"), want: policy.Allow},
		{name: "deleting below .git", input: bash("find . -path './.git*' -delete"), want: policy.Deny, row: RowProtected},
		{name: "-prune leaves .git out", input: bash("find . -path ./.git -prune -o -name config -exec rm {} +"), want: policy.Allow},
		{name: "a negated -path leaves .git out", input: bash("find . -not -path './.git/*' -name config -exec rm {} +"), want: policy.Allow},
		{name: "a -path into .git", input: bash("find . -path './.git/*' -name config -exec rm {} +"), want: policy.Deny, row: RowProtected},
		{name: "rewriting a hook", input: bash("find . -name 'pre-commit*' -exec sed -i s/a/b/ {} +"), want: policy.Deny, row: RowProtected},
		{name: "rewriting sources", input: bash("find . -name '*.go' -exec sed -i s/a/b/ {} +"), want: policy.Allow},
		{name: "removing __pycache__ directories", input: bash("find . -name __pycache__ -exec rm -r {} +"), want: policy.Allow},
		{name: "removing hooks directories reaches .git/hooks", input: bash("find . -name hooks -exec rm -r {} +"), want: policy.Deny, row: RowProtected},
		{name: "copying into the directories found may create protected files", input: bash("find . -name hooks -exec cp -r x {} \\;"), want: policy.Deny, row: RowProtected},
		{name: "a start point linked to the project", input: bash("find g/ -name config -delete"), want: policy.Deny, row: RowProtected},
		{name: "a start point linked to .git", input: bash("find h/ -name '*.tmp' -delete"), want: policy.Deny, row: RowProtected},
		// A protected directory too large to look through.
		{name: "deleting *.tmp where node_modules is too large to look through", input: bash("find . -name '*.tmp' -delete"), fs: bigModules, want: policy.Deny, row: RowProtected, has: []string{"more than 1000 directories"}},
		{name: "deleting *.tmp but not in node_modules", input: bash("find . -name '*.tmp' -not -path './node_modules/*' -delete"), fs: bigModules, want: policy.Allow},
		{name: "node_modules pruned", input: bash("find . -name node_modules -prune -o -name '*.tmp' -exec rm {} +"), fs: bigModules, want: policy.Allow},
		// Outside and home.
		{name: "a name search in the home reaches ~/.ssh", input: bash("find ~ -name id_rsa -exec cat {} +"), embedded: true, want: policy.Deny, row: RowDeny},
		{name: "another name in the home is an outside read", input: bash("find ~ -name notes.txt -exec cat {} +"), embedded: true, want: policy.Ask},
		{name: "deleting outside", input: bash("find /outside -name '*.tmp' -delete"), want: policy.Ask, row: RowOutside},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.tool, tt.perm = "Bash", "bypassPermissions"
			tt.fs = append(tt.fs, fsys...)
			r := runDecide(t, tt)
			if r.Decision != tt.want {
				t.Fatalf("decision = %s (row %d), want %s\n%s", r.Decision, r.Row, tt.want, trace(r))
			}
			if tt.row != 0 && r.Row != tt.row {
				t.Errorf("row = %d, want %d\n%s", r.Row, tt.row, trace(r))
			}
			for _, s := range tt.has {
				if !strings.Contains(r.Reason, s) {
					t.Errorf("reason lacks %q:\n%s", s, r.Reason)
				}
			}
		})
	}
}
