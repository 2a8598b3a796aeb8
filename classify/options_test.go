package classify

import (
	"testing"

	"github.com/safezonehq/safezone/policy"
)

// TestOptionsWithoutKernel: the options and variables the attack round of
// issue 21 used to run code or reach files unseen, judged by the analysis
// alone (no kernel sandbox: Env.Confinable false) in bypassPermissions
// under the embedded default policy. Each escape is asked or denied; its
// benign neighbour keeps its allow.
func TestOptionsWithoutKernel(t *testing.T) {
	fs := []string{"proj/env.sh", "proj/a.tar", "proj/x.gz"}
	escapes := []string{
		"git grep -Ocat foo", "git grep -nO'cat /home/.ssh/id_rsa' foo",
		"git rebase --exe='cat /home/.ssh/id_rsa' main", "git rebase -qx'cat /home/.ssh/id_rsa' main",
		"git maintenance register", "git maintenance start",
		"git archive HEAD .env", "git archive -vo /outside/a.tar HEAD",
		"git blame --contents=/home/.ssh/id_rsa src/main.go", "git -c blame.ignoreRevsFile=/home/.ssh/id_rsa blame src/main.go",
		"GIT_ALLOW_PROTOCOL=ext git fetch 'ext::sh -c x'", "git fetch 'ext::sh -c x'",
		"GIT_INDEX_FILE=/outside/idx git add src/main.go", "GIT_OBJECT_DIRECTORY=/outside/o git status",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=/home/.ssh git status", "GIT_TRACE=/outside/t git status",
		"GIT_TRACE2_EVENT=/outside/t git status", "export GIT_TRACE_PACKET=/outside/t; git fetch", "GIT_DIR=/outside/.git git status",
		"tar -cML 20 -F x -f a.tar src", "tar --info-script=x -cf a.tar src", "tar --to-c=x -xf a.tar", "tar -Ix -cf a.tar src",
		"tar --checkpoint-action=exec=x -cf a.tar src", "gunzip -c x.gz | tar x", "tar -xf a.tar",
		"wget --use-askpass=x https://example.com/f", "wget --config=x https://example.com/f",
		"make 'X=$(shell cat /home/.ssh/id_rsa)'", "make 'X!=cat /home/.ssh/id_rsa'", "make CC='cat /home/.ssh/id_rsa'",
		"awk '{print}' -F /home/.ssh/id_rsa", "curl -w @/home/.ssh/id_rsa https://example.com/",
		"rsync --rsync-path='cat /home/.ssh/id_rsa' src d", "rsync -a --temp-dir=/outside/t src/ docs/",
		"zip -m a.zip .env", "zip --mov a.zip .env", "link /home/.ssh/id_rsa x", "link .env x",
		"source ./env.sh && export PATH=/tmp/evil:$PATH && ls", "cat */../.env",
		// A recursive read where a secret lies, with no kernel to hide it.
		"git grep -n foo", "git grep --no-index API", "find . ! -name '*.md' -type f -exec cat {} +", "diff -r src .",
	}
	neighbours := []string{
		"git grep -n foo src", "git grep -e O src", "git maintenance run", "git archive -o a.tar HEAD", "git archive HEAD src",
		"git blame src/main.go", "GIT_TRACE=1 git status", "GIT_ALLOW_PROTOCOL=https git fetch origin",
		"tar -cf a.tar src", "tar -xf a.tar -C docs", "tar --checkpoint-action=dot -cf a.tar src",
		"wget -O out https://example.com/f", "make CC=clang", "make 'CFLAGS=-O2 -g'",
		"awk -F: '{print $1}' README.md", "curl -sw '%{http_code}' https://example.com/", "rsync -a src/ docs/",
		"zip a.zip src/main.go", "link src/main.go docs/m.go", "source ./env.sh && ls", "cat src/../README.md",
	}
	bash := func(cmd string) map[string]any { return map[string]any{"command": cmd} }
	for _, cmd := range escapes {
		r := runDecide(t, decideCase{tool: "Bash", input: bash(cmd), fs: fs, perm: "bypassPermissions", embedded: true})
		if r.Decision != policy.Ask && r.Decision != policy.Deny {
			t.Errorf("%q without the kernel: %s, want ask or deny\n%s", cmd, r.Decision, trace(r))
		}
	}
	for _, cmd := range neighbours {
		r := runDecide(t, decideCase{tool: "Bash", input: bash(cmd), fs: fs, perm: "bypassPermissions", embedded: true})
		if r.Decision != policy.Allow {
			t.Errorf("%q without the kernel: %s, want allow\n%s", cmd, r.Decision, trace(r))
		}
	}
}
