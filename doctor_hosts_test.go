package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorCopilot: doctor's Copilot CLI lines for a project registration
// in an untrusted folder (dropped by copilot -p), a trusted one, the
// user-level one, hooks turned off, a matcher, and a second registration.
func TestDoctorCopilot(t *testing.T) {
	const entry = `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/opt/safezone --host copilot"%s}]}}`
	for _, tc := range []struct {
		name  string
		files map[string]string // relative to the test's root
		want  []string
		fixes int
	}{
		{name: "project only, untrusted", files: map[string]string{"proj/.github/hooks/safezone.json": strings.Replace(entry, "%s", "", 1)},
			want: []string{"FIX   registered in ", "the folder is not trusted: `copilot -p` drops the project's .github/hooks without a word", "run `safezone init --host copilot`"}, fixes: 1},
		{name: "project only, trusted", files: map[string]string{"proj/.github/hooks/safezone.json": strings.Replace(entry, "%s", "", 1),
			"home/.copilot/config.json": `{"trustedFolders": ["ROOT"]}`},
			want: []string{"ok    registered in ", "in a folder Copilot CLI trusts"}},
		{name: "user level", files: map[string]string{"home/.copilot/hooks/safezone.json": strings.Replace(entry, "%s", "", 1)},
			want: []string{"ok    registered in ", "(copilot, every project of this user): /opt/safezone --host copilot"}},
		{name: "hooks off", files: map[string]string{"home/.copilot/hooks/safezone.json": strings.Replace(entry, "%s", "", 1),
			"home/.copilot/settings.json": `{"disableAllHooks": true}`},
			want: []string{"settings.json sets disableAllHooks: Copilot CLI runs no hook"}, fixes: 1},
		{name: "a matcher", files: map[string]string{"home/.copilot/hooks/safezone.json": strings.Replace(entry, "%s", `,"matcher":"bash"`, 1)},
			want: []string{`has the matcher "bash": Copilot CLI does not run safezone for the other tools`}, fixes: 1},
		{name: "twice", files: map[string]string{"home/.copilot/hooks/safezone.json": strings.Replace(entry, "%s", "", 1),
			"proj/.github/hooks/safezone.json": strings.Replace(entry, "%s", "", 1)},
			want: []string{"safezone is registered 2 times for Copilot CLI"}, fixes: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys, dir := testSystem(t)
			sys.Executable = "/opt/safezone"
			for rel, content := range tc.files {
				p := filepath.Join(dir, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(strings.ReplaceAll(content, "ROOT", filepath.Join(dir, "proj"))), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out bytes.Buffer
			d := &doctor{w: &out}
			if !d.copilot(filepath.Join(dir, "proj"), filepath.Join(dir, "home"), sys) {
				t.Fatalf("no registration found:\n%s", out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("lacks %q:\n%s", w, out.String())
				}
			}
			if d.fixes != tc.fixes {
				t.Errorf("%d fixes, want %d:\n%s", d.fixes, tc.fixes, out.String())
			}
		})
	}
}
