package hookio

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAddSandboxPaths(t *testing.T) {
	in := []byte(`{
  "hooks": {"PreToolUse": []},
  "sandbox": {"enabled": true, "filesystem": {"denyRead": ["~/.aws", "**/.env*"]}}
}
`)
	out, err := AddSandboxPaths(in, "denyRead", []string{"**/.env*", "**/*.pem", "./secrets/**"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "{\n  \"hooks\"") {
		t.Errorf("the keys moved:\n%s", out)
	}
	var got struct {
		Hooks   map[string]any `json:"hooks"`
		Sandbox struct {
			Enabled    bool `json:"enabled"`
			Filesystem struct {
				DenyRead []string `json:"denyRead"`
			} `json:"filesystem"`
		} `json:"sandbox"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if want := "~/.aws **/.env* **/*.pem ./secrets/**"; strings.Join(got.Sandbox.Filesystem.DenyRead, " ") != want || !got.Sandbox.Enabled || got.Hooks == nil {
		t.Errorf("got %+v, want denyRead %q with the rest kept", got, want)
	}
	again, err := AddSandboxPaths(out, "denyRead", []string{"**/*.pem"})
	if err != nil || string(again) != string(out) {
		t.Errorf("second run changed the file (%v):\n%s", err, again)
	}
	fresh, err := AddSandboxPaths(nil, "denyRead", []string{"**/.env*"})
	if err != nil || !strings.Contains(string(fresh), `"denyRead": ["**/.env*"]`) && !strings.Contains(string(fresh), `"**/.env*"`) {
		t.Errorf("new file: %v:\n%s", err, fresh)
	}
	for _, bad := range []string{`{"sandbox": true}`, `{"sandbox": {"filesystem": {"denyRead": "x"}}}`, `[1]`, `{"a":`} {
		if _, err := AddSandboxPaths([]byte(bad), "denyRead", []string{"x"}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
