// Command benchfloor is the floor scripts/bench compares safezone against:
// the least a Go PreToolUse hook can do, as issue 23 defines it. It reads
// stdin to the end, decodes it as a PreToolUse input (encoding/json: the
// common fields and tool_input as a map) and prints a fixed decision; an
// input that does not decode gets a deny, so the decoding is not optimised
// away.
package main

import (
	"encoding/json"
	"io"
	"os"
)

type input struct {
	SessionID      string         `json:"session_id"`
	Cwd            string         `json:"cwd"`
	PermissionMode string         `json:"permission_mode"`
	HookEventName  string         `json:"hook_event_name"`
	ToolName       string         `json:"tool_name"`
	ToolInput      map[string]any `json:"tool_input"`
}

func main() {
	data, _ := io.ReadAll(os.Stdin)
	var in input
	decision := "allow"
	if len(data) > 0 && json.Unmarshal(data, &in) != nil {
		decision = "deny"
	}
	os.Stdout.WriteString(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + decision + `","permissionDecisionReason":"floor"}}` + "\n")
}
