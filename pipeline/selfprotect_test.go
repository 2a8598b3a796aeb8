package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestSelfProtectionEveryTool: a write to each self-protected file (README,
// "Self-protection": the policy layers, Claude Code's settings, the other
// hosts' hook files, hooks.json, the audit log, the binary, the trust
// records and watch lists in the state directory) is denied
// through Write, Edit and Bash, in --agi mode with bypassPermissions, where
// nothing else would stop it.
func TestSelfProtectionEveryTool(t *testing.T) {
	sys, dir := testSystem(t)
	proj, home := dir+"/proj", dir+"/home"
	sys.Executable = dir + "/bin/safezone"
	audit := dir + "/log/audit.jsonl"
	files := []string{
		proj + "/.safezone.yaml", proj + "/.safezone.local.yaml",
		proj + "/.claude/settings.json", proj + "/.claude/settings.local.json", proj + "/.claude/hooks/check.sh", home + "/.claude/hooks/notify.sh",
		proj + "/hooks.json", proj + "/hooks/hooks.json", proj + "/.codex/hooks.json",
		proj + "/.gemini/settings.json", proj + "/.github/hooks/safezone.json", proj + "/.github/hooks/other.json", proj + "/.cursor/hooks.json",
		home + "/.claude/settings.json", home + "/.claude/settings.local.json", home + "/.codex/hooks.json",
		home + "/.gemini/settings.json", home + "/.cursor/hooks.json",
		dir + "/xdg/safezone/policy.yaml", dir + "/etc/safezone/policy.yaml",
		dir + "/etc/claude-code/managed-settings.json", dir + "/etc/claude-code/managed-settings.d/10-team.json",
		sys.Executable, audit, audit + ".1",
		home + "/.local/state/safezone/trust/0123456789abcdef.json", home + "/.local/state/safezone/watch/0123456789abcdef.json",
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		content := "{}\n"
		switch {
		case f == dir+"/xdg/safezone/policy.yaml":
			// The user takes the embedded default's entries for these
			// files out: self-protection alone holds.
			content = "version: 1\nremove:\n  paths.protected: [\".claude/settings*.json\", \".safezone.yaml\", \".safezone.local.yaml\"]\n"
		case strings.HasSuffix(f, ".yaml"):
			content = "version: 1\n"
		}
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Symlinks into the protected files: the resolved target counts.
	if err := os.Symlink(proj+"/.claude", proj+"/cfg"); err != nil {
		t.Fatal(err)
	}
	args := []string{"--agi", "--audit", audit}
	for _, f := range files {
		rel, _ := filepath.Rel(proj, f)
		spellings := map[string]string{
			"Write": pipelinetest.Input("Write", proj, map[string]any{"file_path": f, "content": "x"}),
			"Edit":  pipelinetest.Input("Edit", proj, map[string]any{"file_path": f, "old_string": "{}", "new_string": "{\"x\":1}"}),
		}
		for _, cmd := range []string{
			"echo x > %s", "echo x >> %s", "sed -i s/a/b/ %s", "cp /dev/null %s", "rm -f %s", "mv %s /tmp/x",
			"tee %s < /dev/null", "truncate -s 0 %s", "ln -sf /tmp/x %s", "chmod 777 %s", "touch %s",
			"cd / && rm %s", "bash -c 'cat > %s'", "sudo dd of=%s", "perl -pi -e s/a/b/ %s",
		} {
			for _, p := range []string{f, rel} {
				if p == rel && strings.HasPrefix(cmd, "cd /") { // a relative path names another file after cd /
					continue
				}
				spellings["Bash "+strings.Replace(cmd, "%s", p, 1)] = pipelinetest.Input("Bash", proj, map[string]any{"command": strings.ReplaceAll(cmd, "%s", p)})
			}
		}
		for name, in := range spellings {
			in = strings.Replace(in, `"permission_mode":"default"`, `"permission_mode":"bypassPermissions"`, 1)
			r := runHook(t, sys, strings.NewReader(in), args...)
			if r.decision != "deny" || !strings.Contains(r.stdout, "self-protection") {
				t.Errorf("%s %s: %s, want deny by self-protection\n%s", name, f, r.decision, r.stdout)
			}
		}
	}
	// safezone trust writes the state directory: the agent may not trust
	// for the user, --agi included; listing what is trusted only reads.
	for cmd, want := range map[string]string{
		"safezone trust .safezone.yaml":                    "deny",
		"safezone trust --revoke .claude/settings.json":    "deny",
		"cd src && safezone trust ../.safezone.local.yaml": "deny",
		"safezone trust": "allow",
	} {
		in := strings.Replace(pipelinetest.Input("Bash", proj, map[string]any{"command": cmd}), `"permission_mode":"default"`, `"permission_mode":"bypassPermissions"`, 1)
		r := runHook(t, sys, strings.NewReader(in), args...)
		if r.decision != want || want == "deny" && !strings.Contains(r.stdout, "self-protection") {
			t.Errorf("Bash %s: %s, want %s\n%s", cmd, r.decision, want, r.stdout)
		}
	}
	// Through the symlinked directory.
	for _, cmd := range []string{"echo x > cfg/settings.json", "sed -i s/a/b/ cfg/settings.local.json"} {
		r := runHook(t, sys, strings.NewReader(pipelinetest.Input("Bash", proj, map[string]any{"command": cmd})), args...)
		if r.decision != "deny" || !strings.Contains(r.stdout, "self-protection") {
			t.Errorf("Bash %s: %s, want deny by self-protection\n%s", cmd, r.decision, r.stdout)
		}
	}
}
