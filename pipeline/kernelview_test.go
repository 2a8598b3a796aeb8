package pipeline

import (
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
)

func TestSanitizedNpmrc(t *testing.T) {
	in := `registry=https://npm.example.com/
@corp:registry=https://npm.corp.example/
//npm.corp.example/:_authToken=npm_SECRET1
//registry.npmjs.org/:_authToken = npm_SECRET2
_auth=c2VjcmV0
//host/:_password=SECRET3
//host/:username=bob
email=bob@example.com
proxy=http://proxy.example:8080
cafile=/etc/ssl/corp.pem
; a comment
`
	out := string(sanitizedNpmrc([]byte(in)))
	for _, secret := range []string{"SECRET1", "SECRET2", "c2VjcmV0", "SECRET3", "username=bob"} {
		if strings.Contains(out, secret) {
			t.Errorf("the copy keeps %q:\n%s", secret, out)
		}
	}
	for _, keep := range []string{"registry=https://npm.example.com/", "@corp:registry=", "email=bob@example.com", "proxy=http://proxy.example:8080", "cafile=/etc/ssl/corp.pem", "; a comment"} {
		if !strings.Contains(out, keep) {
			t.Errorf("the copy lost %q:\n%s", keep, out)
		}
	}
}

// TestDescribeGitReadOnly: where a repository's configuration or hooks are
// kept read-only, the model is told what fails there (git config, hook
// installers) and that the user runs them; other read-only paths named
// config or hooks outside a .git directory say nothing of git.
func TestDescribeGitReadOnly(t *testing.T) {
	const git = "git's configuration and hooks (.git/config, .git/hooks) are read-only"
	for _, tc := range []struct {
		name     string
		readOnly []string
		want     bool
	}{
		{"config", []string{"/p/.claude", "/p/.git/config"}, true},
		{"hooks", []string{"/p/.git/hooks"}, true},
		{"a config file outside .git", []string{"/p/.claude", "/p/config", "/p/hooks/hooks.json"}, false},
		{"a directory named hooks", []string{"/p/.github/hooks"}, false},
	} {
		c := &confinement{Ruleset: confine.Ruleset{Write: []string{"/p"}, ReadOnly: tc.readOnly}}
		got := c.describe("/home/u")
		if strings.Contains(got, git) != tc.want {
			t.Errorf("%s: describe = %q, want the git sentence: %v", tc.name, got, tc.want)
		}
		if tc.want && !strings.Contains(got, "ask the user") {
			t.Errorf("%s: describe = %q: it does not say to ask the user", tc.name, got)
		}
	}
}
