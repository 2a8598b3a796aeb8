// Command benchfloor is the floor scripts/bench compares safezone against:
// the least a Go PreToolUse hook can do. It reads stdin to the end and prints
// a fixed decision.
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"floor"}}` + "\n")
}
