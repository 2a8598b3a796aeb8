// Command e2ehook is a throwaway PreToolUse hook for checking the confine
// package under the real Claude Code CLI (see ../e2e/run.sh). It allows
// every call; a Bash call is allowed with its command rewritten by
// confine.Rewrite to run confined, through this same binary as the
// launcher. The ruleset: the project and /tmp (and the devices) writable,
// $HOME/.ssh unreadable, the project's .claude directory read-only.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/safezonehq/safezone/confine"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == confine.Subcommand {
		os.Exit(confine.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	if err := run(os.Stdin, os.Stdout); err != nil {
		// Exit 2 makes Claude Code block the call: fail closed.
		fmt.Fprintln(os.Stderr, "e2ehook:", err)
		os.Exit(2)
	}
}

func run(stdin io.Reader, stdout io.Writer) error {
	var in struct {
		ToolName  string                     `json:"tool_name"`
		ToolInput map[string]json.RawMessage `json:"tool_input"`
		Cwd       string                     `json:"cwd"`
	}
	if err := json.NewDecoder(stdin).Decode(&in); err != nil {
		return err
	}
	out := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "confined"}
	if in.ToolName == "Bash" {
		var command string
		if err := json.Unmarshal(in.ToolInput["command"], &command); err != nil {
			return err
		}
		self, err := os.Executable()
		if err != nil {
			return err
		}
		proj, err1 := filepath.EvalSymlinks(in.Cwd)
		home, err2 := filepath.EvalSymlinks(os.Getenv("HOME"))
		if err1 != nil || err2 != nil {
			return fmt.Errorf("resolving the project and home: %v, %v", err1, err2)
		}
		rs := confine.Ruleset{
			Write:    append([]string{proj, "/tmp"}, confine.Devices()...),
			NoRead:   []string{home + "/.ssh"},
			ReadOnly: []string{proj + "/.claude"},
		}.Normalize()
		if s := confine.Available(); !s.Confine() {
			return s.Landlock
		} else if s.ReadOnly != nil {
			return s.ReadOnly
		}
		rewritten, err := confine.Rewrite(command, self, rs)
		if err != nil {
			return err
		}
		in.ToolInput["command"], _ = json.Marshal(rewritten)
		out["updatedInput"] = in.ToolInput
	}
	return json.NewEncoder(stdout).Encode(map[string]any{"hookSpecificOutput": out})
}
