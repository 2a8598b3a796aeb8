// Package pipelinetest holds what the tests of safezone's hook pipeline
// and of its command line share: an isolated environment, hook inputs, and
// the reading of a decision as the host reads it.
package pipelinetest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Isolated returns a getenv that answers vars and points the managed and
// user layers and Claude Code's managed settings into dir, so that tests
// never read the machine's own /etc/safezone, ~/.config or /etc/claude-code.
func Isolated(dir string, vars map[string]string) func(string) string {
	return func(k string) string {
		switch k {
		case "SAFEZONE_MANAGED_POLICY":
			return dir + "/etc/safezone/policy.yaml"
		case "XDG_CONFIG_HOME":
			return dir + "/xdg"
		case "SAFEZONE_CLAUDE_MANAGED_SETTINGS":
			return dir + "/etc/claude-code/managed-settings.json"
		}
		return vars[k]
	}
}

// Input is a PreToolUse hook input as Claude Code sends it: tool_name
// tool, tool_input ti, cwd, permission_mode "default".
func Input(tool, cwd string, ti map[string]any) string {
	b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": ti, "cwd": cwd, "permission_mode": "default"})
	return string(b)
}

// Judge reads stdout as Claude Code would: nothing is abstain; otherwise one
// JSON object with hookSpecificOutput.hookEventName "PreToolUse" and a
// permissionDecision (or none: a warning only, abstain).
func Judge(stdout string) (string, error) {
	if strings.TrimSpace(stdout) == "" {
		return "abstain", nil
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	var out struct {
		HookSpecificOutput *struct {
			HookEventName      string `json:"hookEventName"`
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := dec.Decode(&out); err != nil {
		return "", fmt.Errorf("stdout is not JSON: %v: %q", err, stdout)
	}
	if dec.More() {
		return "", fmt.Errorf("stdout holds more than one JSON value: %q", stdout)
	}
	if out.HookSpecificOutput == nil || out.HookSpecificOutput.HookEventName != "PreToolUse" {
		return "", fmt.Errorf("no PreToolUse hookSpecificOutput: %q", stdout)
	}
	switch d := out.HookSpecificOutput.PermissionDecision; d {
	case "":
		return "abstain", nil
	case "allow", "ask", "deny":
		return d, nil
	default:
		return "", fmt.Errorf("unknown permissionDecision %q", d)
	}
}
