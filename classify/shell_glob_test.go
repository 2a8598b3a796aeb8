package classify

import (
	"testing"

	"github.com/safezonehq/safezone/policy"
)

// TestShellGlobForms: a glob reaches a secret exactly when bash's would,
// whatever form it takes (bracket expressions, classes, negation,
// extended globs, "*/.."), with the shell options in force where it is
// expanded (shopt, set -f, GLOBIGNORE), in a read, a redirection or a
// write. Each attack has its benign neighbour, which keeps its answer.
// The embedded default policy, in bypassPermissions: a known command
// inside is allowed, one reaching .env, a key or .git is denied.
func TestShellGlobForms(t *testing.T) {
	fixture := []string{"proj/.env.local", "proj/.env.example", "proj/certs/key.pem", "proj/notes.txt", "proj/x",
		"proj/docs/", "proj/Makefile"}
	tests := []struct {
		name string
		cmd  string
		want policy.Decision
	}{
		{"a bracket range reaches .env", "cat .e[a-z]v", policy.Deny},
		{"a bracket on README", "cat R[E]ADME.md", policy.Allow},
		{"a bracket set reaches .env", "cat .e[nm]v", policy.Deny},
		{"a bracket set in src", "cat src/m[a-z]in.go", policy.Allow},
		{"a POSIX class reaches .env", "cat .[[:alpha:]]nv", policy.Deny},
		{"a POSIX class on README", "cat [[:upper:]]EADME.md", policy.Allow},
		{"a negated set reaches .env", "cat .e[!a]v", policy.Deny},
		{"negation with ^ reaches .env", "cat .e[^x]v", policy.Deny},
		{"a negated set on README", "cat README.m[!x]", policy.Allow},
		{"a ] first in a set reaches .env", "cat .en[]v]", policy.Deny},
		{"a ] first on README", "cat README.m[]d]", policy.Allow},
		{"an escape in a set reaches .env", `cat .en[\v]`, policy.Deny},
		{"a redirection from a glob reaches .env", "cat < .e[nm]v", policy.Deny},
		{"a redirection from a glob on README", "cat < R[E]ADME.md", policy.Allow},
		{"sed -i through a glob writes .env", "sed -i s/a/b/ .e[a-z]v", policy.Deny},
		{"sed -i through a glob on README", "sed -i s/a/b/ R[E]ADME.md", policy.Allow},
		{"truncating keys through a glob", "truncate -s0 certs/*.p[a-z]m", policy.Deny},
		{"truncating notes through a glob", "truncate -s0 *.t[a-z]t", policy.Allow},
		{"a copy into a hook through a glob", "cp x .g[h-j]t/hooks/pre-commit", policy.Deny},
		{"a copy into docs through a glob", "cp x d[o]cs/", policy.Allow},
		{"a glob and .. reach .env", "cat */../.env", policy.Deny},
		{"a glob and .. reach README", "cat */../README.md", policy.Allow},
		{"GLOBIGNORE turns dotglob on", "GLOBIGNORE=x; cat *", policy.Deny},
		{"* alone skips the hidden files", "cat *", policy.Allow},
		{"GLOBIGNORE before the command comes after its words", "GLOBIGNORE=x cat *", policy.Allow},
		{"shopt -s dotglob", "shopt -s dotglob; cat *", policy.Deny},
		{"shopt -s dotglob in a subshell stays there", "(shopt -s dotglob); cat *", policy.Allow},
		{"shopt -s dotglob in a function not called", "f() { shopt -s dotglob; }; cat *", policy.Allow},
		{"shopt -s dotglob in a function called", "f() { shopt -s dotglob; }; f; cat *", policy.Deny},
		{"shopt -s dotglob that may not run", "test -f x && shopt -s dotglob; cat *", policy.Deny},
		{"shopt -u dotglob turns it off", "shopt -s dotglob; shopt -u dotglob; cat *", policy.Allow},
		{"a function's argument expanded with dotglob", `f() { shopt -u dotglob; cat "$1"; }; shopt -s dotglob; f *`, policy.Deny},
		{"a function's argument expanded without", `f() { shopt -s dotglob; cat "$1"; }; f *`, policy.Allow},
		{"dotglob in another shell", "bash -c 'shopt -s dotglob; cat *'", policy.Deny},
		{"another shell starts without it", "shopt -s dotglob; bash -c 'cat *'", policy.Allow},
		{"nocaseglob reaches .env in capitals", "shopt -s nocaseglob; cat .ENV*", policy.Deny},
		{"capitals alone do not", "cat .ENV*", policy.Allow},
		{"an extended glob reaches .env", "cat @(.env|x)", policy.Deny},
		{"an extended glob after shopt -s extglob", "shopt -s extglob\ncat +(.e|nv)", policy.Deny},
		{"an extended glob on README", "cat @(README.md|x)", policy.Allow},
		{"a negated extended glob skips the hidden files", "shopt -s extglob\ncat !(*.md)", policy.Allow},
		{"a negated extended glob with dotglob", "shopt -s extglob dotglob\ncat !(*.md)", policy.Deny},
		{"globstar reaches a key below", "shopt -s globstar; cat **/*.pem", policy.Deny},
		{"globstar on sources", "shopt -s globstar; cat **/*.go", policy.Allow},
		{"set -f makes the word literal", "set -f; cat .e*", policy.Allow},
		{"set +f makes it a glob again", "set -f; set +f; cat .e*", policy.Deny},
		{"a variable's value is a glob", "x='.e[a-z]v'; cat $x", policy.Deny},
		{"a quoted variable's value is not", `x='.e[a-z]v'; cat "$x"`, policy.Allow},
		{"a loop over a bracket glob", `for f in .e[a-z]v; do cat "$f"; done`, policy.Deny},
		{"a loop over README", `for f in R[E]ADME.md; do cat "$f"; done`, policy.Allow},
		{"a glob that matches nothing yet names .env", "cd docs && cat .e*", policy.Deny},
		{"a glob that matches nothing and names no secret", "cd docs && cat *.md", policy.Allow},
		{"a glob made after a write may match what it writes", "make && cat .e[a-z]v*", policy.Deny},
		{"nullglob may drop an unmatched glob: unknown", "shopt -s nullglob; cp *.none x", policy.Ask},
		{"nullglob with a glob that matches", "shopt -s nullglob; cp *.txt docs/", policy.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runDecide(t, decideCase{tool: "Bash", input: map[string]any{"command": tt.cmd}, fs: fixture,
				perm: "bypassPermissions", embedded: true})
			if r.Decision != tt.want {
				t.Errorf("%q: %s, want %s\n%s", tt.cmd, r.Decision, tt.want, trace(r))
			}
		})
	}
}
