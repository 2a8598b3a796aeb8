package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestHostSandboxMerge(t *testing.T) {
	user, err := ParseClaudeSettings("user.json", []byte(`{"sandbox": {"allowNestedUserNamespaces": false}}`), ClaudeSource{Scope: ScopeUser})
	if err != nil {
		t.Fatal(err)
	}
	project, err := ParseClaudeSettings("settings.json", []byte(`{
  "permissions": {"deny": ["Read(secret/**)", "Bash(rm *)", "Edit(.env)"], "allow": ["Edit(~/.npm/**)"]},
  "sandbox": {
    "enabled": true,
    "allowNestedUserNamespaces": true,
    "autoAllowBashIfSandboxed": true,
    "network": {"allowedDomains": ["example.com"]},
    "filesystem": {"denyRead": [".env*", "~/.aws"], "allowWrite": ["//tmp/x"], "allowRead": ["./.env"], "denyWrite": ["./.husky"], "allowGitConfig": true}
  }
}`), ClaudeSource{Scope: ScopeProject, SlashBase: "./"})
	if err != nil {
		t.Fatal(err)
	}
	local, err := ParseClaudeSettings("settings.local.json", []byte(`{"sandbox": {"allowUnsandboxedCommands": false}}`), ClaudeSource{Scope: ScopeLocal, SlashBase: "./"})
	if err != nil {
		t.Fatal(err)
	}
	p := Merge(user, project, local)
	hs := p.HostSandbox
	if !hs.Enabled.Value || hs.Enabled.Pos.String() != "settings.json:4" {
		t.Errorf("Enabled = %+v, want true at settings.json:4", hs.Enabled)
	}
	if hs.AllowUnsandboxed.Value || hs.AllowUnsandboxed.Pos.File != "settings.local.json" {
		t.Errorf("AllowUnsandboxed = %+v, want false from settings.local.json", hs.AllowUnsandboxed)
	}
	// allowNestedUserNamespaces counts only from the user and managed
	// settings, as in Claude Code: the project's true is ignored.
	if hs.NestedUserNS.Value {
		t.Errorf("NestedUserNS = %+v, want false (a project's true is ignored)", hs.NestedUserNS)
	}
	var got []string
	for _, h := range hs.DenyRead {
		got = append(got, h.Text+"@"+h.Scope.String())
	}
	if want := ".env*@project ~/.aws@project secret/**@project"; strings.Join(got, " ") != want {
		t.Errorf("DenyRead = %q, want %q", strings.Join(got, " "), want)
	}
	for name, tc := range map[string]struct {
		got  []HostPath
		want string
	}{"AllowRead": {hs.AllowRead, "./.env"}, "DenyWrite": {hs.DenyWrite, "./.husky .env"}, "AllowWrite": {hs.AllowWrite, "//tmp/x ~/.npm/**"}} {
		var texts []string
		for _, h := range tc.got {
			texts = append(texts, h.Text)
		}
		if strings.Join(texts, " ") != tc.want {
			t.Errorf("%s = %q, want %q", name, strings.Join(texts, " "), tc.want)
		}
	}
	if !hs.GitConfigWritable.Value {
		t.Errorf("GitConfigWritable = %+v, want true", hs.GitConfigWritable)
	}
	if d := Merge().HostSandbox; d.Enabled.Value || !d.AllowUnsandboxed.Value || d.NestedUserNS.Value {
		t.Errorf("defaults = %+v, want off, unsandboxed allowed, no nested user namespaces", d)
	}
}

func TestHostSandboxBadValues(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"sandbox": true}`, "x.json:1:13: unusable Claude Code settings: sandbox must be an object"},
		{`{"sandbox": {"enabled": "yes"}}`, "sandbox.enabled must be true or false"},
		{"{\"sandbox\": {\n \"filesystem\": {\"denyRead\": [1]}}}", "x.json:2:30: unusable Claude Code settings: sandbox.filesystem.denyRead[0] must be a string"},
		{`{"sandbox": {"filesystem": {"denyRead": "x"}}}`, "sandbox.filesystem.denyRead must be a list of strings"},
	} {
		_, err := ParseClaudeSettings("x.json", []byte(tc.json), ClaudeSource{Scope: ScopeProject})
		if err == nil || !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.json, err, tc.want)
		}
	}
	// null is as if the key were absent.
	if _, err := ParseClaudeSettings("x.json", []byte(`{"sandbox": null, "permissions": null}`), ClaudeSource{}); err != nil {
		t.Errorf("null sandbox: %v", err)
	}
}
