package shell

import (
	"slices"
	"testing"
)

func TestGitConfigSets(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		keys []string // nil: not such a line
	}{
		{`git config --local user.email x@example.com`, []string{"user.email"}},
		{`git config user.name "A B" && git config user.email 'a@b'`, []string{"user.name", "user.email"}},
		{"git config set core.autocrlf input\ngit config --unset pull.rebase", []string{"core.autocrlf", "pull.rebase"}},
		{`git config advice.detachedHead false`, []string{"advice.detachedHead"}},
		{`git config User.Email x`, []string{"User.Email"}},
		{`git config core.hooksPath .husky`, nil},
		{`git config core.fsmonitor "touch x"`, nil},
		{`git config alias.st status`, nil},
		{`git config include.path ../x`, nil},
		{`git config filter.a.clean cat`, nil},
		{`git config commit.gpgsign true`, nil},
		{`git config --global user.email x`, nil},
		{`git config -f x user.email x`, nil},
		{`git config user.email --add`, nil},
		{`git config user.email $X`, nil},
		{`git config user.email "$(id)"`, nil},
		{`git config user.email x > out`, nil},
		{`GIT_DIR=/tmp/r git config user.email x`, nil},
		{`git -C /tmp/r config user.email x`, nil},
		{`git config user.email x | cat`, nil},
		{`git config user.email x; rm -rf y`, nil},
		{`git config user.email x &`, nil},
		{`git config user.email`, nil},
		{`git config --get user.email`, nil},
		{`git config user.email ~`, nil},
		{`git config advice. x`, nil},
		{`git config 'user.email' x`, []string{"user.email"}},
		{`(git config user.email x)`, nil},
		{``, nil},
	} {
		keys, ok := GitConfigSets(tc.cmd)
		if ok != (tc.keys != nil) || !slices.Equal(keys, tc.keys) {
			t.Errorf("GitConfigSets(%q) = %q, %v; want %q", tc.cmd, keys, ok, tc.keys)
		}
	}
}
