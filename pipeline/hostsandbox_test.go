package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestClaudeSandboxFallback: with Claude Code's own sandbox enabled in the
// project's settings, a confined command's ruleset lets the launcher fall
// back to Landlock alone (Ruleset.HostSandbox) only where Claude Code's
// sandbox hides what Landlock cannot (the project's .env); otherwise the
// command is asked, with what to add; a call that leaves the sandbox
// (dangerouslyDisableSandbox) keeps the plain ruleset.
func TestClaudeSandboxFallback(t *testing.T) {
	sys, dir := testSystemAt(t, rootOutsideTmp(t))
	proj := dir + "/proj"
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": proj, "SHELL": "/bin/bash"})
	sys.Getwd = func() (string, error) { return proj, nil }
	sys.Confine = &OnceStatus{Get: func() confine.Status { return confine.Status{LandlockABI: 6} }}
	for name, content := range map[string]string{"proj/build.sh": "echo x > out.txt\n", "proj/.env": "SECRET=1\n", "home/.npm/_npx/x": "x"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	settings := func(sandbox string) {
		os.MkdirAll(proj+"/.claude", 0o755)
		if err := os.WriteFile(proj+"/.claude/settings.json", []byte(`{"sandbox": `+sandbox+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	call := func(extra string) (decision, reason string, rs confine.Ruleset) {
		t.Helper()
		in := `{"session_id":"s","transcript_path":"/t","cwd":"` + proj + `","permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"sh build.sh"` + extra + `},"tool_use_id":"c"}`
		r := runHook(t, sys, strings.NewReader(in))
		out := answerOf(t, r)
		if c := out.HSO.Updated.Command; c != "" {
			// The ruleset is the launcher's first argument, single-quoted.
			_, after, ok := strings.Cut(c, confine.Subcommand+" bash '")
			arg, _, ok2 := strings.Cut(after, "}' ")
			if !ok || !ok2 {
				t.Fatalf("no ruleset in %q", c)
			}
			var err error
			if rs, err = confine.ParseRuleset(strings.ReplaceAll(arg, `'\''`, "'") + "}"); err != nil {
				t.Fatal(err)
			}
		}
		return out.HSO.Decision, out.HSO.Reason, rs
	}

	settings(`{"enabled": true}`)
	d, reason, _ := call("")
	if d != "ask" || !strings.Contains(reason, "Claude Code's sandbox (sandbox.enabled, "+proj+"/.claude/settings.json:1)") ||
		!strings.Contains(reason, "hide "+proj+"/.env (add them to sandbox.filesystem.denyRead)") {
		t.Errorf("sandbox on, .env not in its denyRead: %s: %s", d, reason)
	}

	settings(`{"enabled": true, "filesystem": {"denyRead": [".env*"]}}`)
	d, reason, rs := call("")
	if d != "allow" || rs.HostSandbox == "" || !strings.Contains(reason, "hidden by Claude Code's sandbox instead") {
		t.Errorf("sandbox on, .env in its denyRead: %s (host_sandbox %q): %s", d, rs.HostSandbox, reason)
	}
	if !strings.Contains(strings.Join(rs.Hide, " "), proj+"/.env") {
		t.Errorf("hide = %q: outside the host's sandbox the launcher still hides .env", rs.Hide)
	}

	// What Claude Code's sandbox does not hold, whatever the hook would
	// otherwise count (red team, issue 28): an allowRead that reads .env
	// again, spellings its globs take otherwise (braces, escapes), a file
	// that runs code outside its fixed read-only list, a code cache its
	// allowWrite opens.
	for _, tc := range []struct{ settings, want string }{
		{`{"enabled": true, "filesystem": {"denyRead": [".env*"], "allowRead": ["./.env"]}}`, "hide " + proj + "/.env"},
		{`{"enabled": true, "filesystem": {"denyRead": ["{.env,x}"]}}`, "hide " + proj + "/.env"},
		{`{"enabled": true, "filesystem": {"denyRead": ["\\.env"]}}`, "hide " + proj + "/.env"},
		{`{"enabled": true, "filesystem": {"denyRead": [".env*"], "allowWrite": ["~/.npm"]}}`, "keep the code cache ~/.npm/_npx"},
	} {
		settings(tc.settings)
		if d, reason, _ := call(""); d != "ask" || !strings.Contains(reason, tc.want) {
			t.Errorf("%s: %s: %s; want ask, %q", tc.settings, d, reason, tc.want)
		}
	}
	// .cursor/mcp.json made by the user: not one a confined command made
	// (the watch list of the calls above would say so).
	os.Remove(sys.WatchPath(proj))
	os.MkdirAll(proj+"/.cursor", 0o755)
	os.WriteFile(proj+"/.cursor/mcp.json", []byte("{}\n"), 0o644)
	settings(`{"enabled": true, "filesystem": {"denyRead": [".env*"]}}`)
	if d, reason, _ := call(""); d != "ask" || !strings.Contains(reason, "keep "+proj+"/.cursor read-only (add them to sandbox.filesystem.denyWrite)") {
		t.Errorf(".cursor not in denyWrite: %s: %s", d, reason)
	}
	settings(`{"enabled": true, "filesystem": {"denyRead": [".env*"], "denyWrite": ["./.cursor"]}}`)
	if d, reason, _ := call(""); d != "allow" {
		t.Errorf(".cursor in denyWrite: %s: %s", d, reason)
	}
	os.RemoveAll(proj + "/.cursor")
	settings(`{"enabled": true, "filesystem": {"denyRead": [".env*"]}}`)

	d, _, rs = call(`,"dangerouslyDisableSandbox":true`)
	if d != "allow" || rs.HostSandbox != "" {
		t.Errorf("dangerouslyDisableSandbox: %s, host_sandbox %q; want the plain ruleset", d, rs.HostSandbox)
	}
	settings(`{"enabled": true, "allowUnsandboxedCommands": false}`)
	if d, _, _ = call(`,"dangerouslyDisableSandbox":true`); d != "ask" {
		t.Errorf("dangerouslyDisableSandbox where allowUnsandboxedCommands is false: %s, want ask (it stays inside)", d)
	}
}

// TestWatchPlaceholders: with Claude Code's sandbox on, an empty file or
// directory at a watched path (the mount point of the stand-in its
// bubblewrap makes for a missing protected path, there while a command of
// it runs) does not count as appeared; with content, or without the
// sandbox, it does.
func TestWatchPlaceholders(t *testing.T) {
	sys, dir := testSystem(t)
	proj := dir + "/proj"
	os.MkdirAll(proj, 0o755)
	mcp, vscode := proj+"/.mcp.json", proj+"/.vscode"
	if err := sys.RecordWatch(proj, []string{mcp, vscode}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mcp, nil, 0o644)
	os.Mkdir(vscode, 0o755)
	if err := sys.checkWatch(proj, true); err != nil {
		t.Errorf("empty placeholders, sandbox on: %v", err)
	}
	if err := sys.checkWatch(proj, false); err == nil {
		t.Error("empty placeholders, sandbox off: no error")
	}
	os.WriteFile(vscode+"/tasks.json", []byte("{}"), 0o644)
	if err := sys.checkWatch(proj, true); err == nil || !strings.Contains(err.Error(), vscode) {
		t.Errorf("a filled .vscode, sandbox on: %v", err)
	}
	os.RemoveAll(vscode)
	os.WriteFile(mcp, []byte(`{"mcpServers": {}}`), 0o644)
	if err := sys.checkWatch(proj, true); err == nil || !strings.Contains(err.Error(), mcp) {
		t.Errorf("a filled .mcp.json, sandbox on: %v", err)
	}
}
