// Package hookio reads an agent host's PreToolUse hook input into one
// host-neutral [Call] and writes safezone's decision in the host's output
// format.
//
// It knows host formats and tool schemas, nothing about policy: which
// tool_input fields are paths, whether a tool reads or writes, and how to
// print allow, ask, deny or abstain. Claude Code is the reference host
// (hooks reference, "PreToolUse input" and "PreToolUse decision control";
// checked against Claude Code 2.1.330).
package hookio

import (
	"errors"
	"fmt"

	"github.com/safezonehq/safezone/policy"
)

// Kind is the family of a tool, which decides how its arguments are judged.
type Kind uint8

const (
	// KindOther: a tool safezone does not understand (WebFetch, Agent,
	// an unknown name). It has no targets; safezone never allows it unless
	// an allow rule names it.
	KindOther      Kind = iota
	KindRead            // Read, LS: built-in tools that read the paths they name
	KindWrite           // Write, Edit, MultiEdit, NotebookEdit: built-in writers
	KindGlob            // Glob: lists names under a directory
	KindGrep            // Grep: reads files under a directory
	KindShell           // Bash: a shell command
	KindPowerShell      // PowerShell: a command safezone cannot parse
	KindMCP             // mcp__server__tool: paths found by field name
)

var kindNames = [...]string{"other", "read", "write", "glob", "grep", "shell", "powershell", "mcp"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// Builtin reports whether the tool is one of the host's own file tools, whose
// schema safezone knows completely (Read, Write, Edit, MultiEdit,
// NotebookEdit, Glob, Grep, LS).
func (k Kind) Builtin() bool {
	return k == KindRead || k == KindWrite || k == KindGlob || k == KindGrep
}

// ArgKind says how an [Arg] names files.
type ArgKind uint8

const (
	// ArgPath is a file or directory path.
	ArgPath ArgKind = iota
	// ArgGlob is a Glob pattern, relative to Base (its literal prefix is a
	// directory that is read).
	ArgGlob
	// ArgFilter is a Grep glob filter: it selects files at any depth below
	// Base by name (".env*", "*.go") or by a relative path glob ("src/**").
	ArgFilter
)

// Arg is one path-like argument of a tool call, as the host gave it.
type Arg struct {
	Field  string        // where it came from: "file_path", "path", "glob", "paths[1]"
	Value  string        // verbatim: may be relative, start with "~", hold ".."
	Access policy.Access // what the tool does with it
	Kind   ArgKind
	// Base is the directory an ArgGlob or ArgFilter is relative to, as
	// given; "" means the call's Cwd.
	Base string
	// Loose marks a path taken from a tool whose schema safezone does not
	// know (an MCP tool, another host's tool), by its field's name or its
	// value's shape: an absolute path whose first element does not exist
	// ("/spec/replicas", a JSON pointer; "/api/v1", a route) names no file,
	// and the caller drops it.
	Loose bool
}

// PermissionMode is the host's permission_mode (Claude Code: "default",
// "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"). Absent or
// unknown values are PermDefault, never something more permissive.
type PermissionMode uint8

const (
	PermDefault PermissionMode = iota
	PermPlan
	PermAcceptEdits
	PermAuto
	PermDontAsk
	PermBypass
)

var permNames = [...]string{"default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"}

func (m PermissionMode) String() string {
	if int(m) < len(permNames) {
		return permNames[m]
	}
	return "default"
}

// ParsePermissionMode maps the host's string to a PermissionMode; anything
// it does not know exactly (case matters) is PermDefault.
func ParsePermissionMode(s string) PermissionMode {
	for i, n := range permNames {
		if s == n {
			return PermissionMode(i)
		}
	}
	return PermDefault
}

// Call is one tool call, host-neutral: what safezone decides on.
type Call struct {
	Host  string // "claude"
	Event string // the host's event name, e.g. "PreToolUse"

	SessionID      string
	TranscriptPath string
	ToolUseID      string

	// Cwd is the agent's working directory: absolute, verbatim. Claude Code
	// moves it when the agent runs cd, so it never anchors the sandbox.
	Cwd string
	// PermissionMode is the host's mode; RawPermissionMode the string sent.
	// PermissionFrom, when set, says where PermissionMode was found
	// instead, for a host whose input does not carry its real mode (the
	// hook reads Codex's and Gemini CLI's command line and settings).
	PermissionMode    PermissionMode
	RawPermissionMode string
	PermissionFrom    string

	Tool string // tool_name, verbatim
	// ToolAliases are the other names a policy rule may give the tool:
	// for Copilot CLI's MCP tool <server>-<tool>, each mcp__server__tool
	// the name splits into at a dash (the name does not say where the
	// server's ends). Deny and ask rules naming one of them apply.
	ToolAliases []string
	Kind        Kind
	// Writes is true when the tool changes files: the built-in writers, and
	// MCP tools whose name does not say they only read.
	Writes bool
	Args   []Arg
	// Command is the Bash or PowerShell command, verbatim.
	Command string
	// LeaveHostSandbox is true when the call asks to run outside the
	// host's own sandbox (Claude Code's Bash dangerouslyDisableSandbox),
	// which the host grants unless its settings forbid it.
	LeaveHostSandbox bool
	// Roots are sandbox roots the host names itself (Cursor's
	// workspace_roots), absolute. Claude Code names none.
	Roots []string
}

// InputError is a problem with the hook input: the field and what is wrong.
type InputError struct {
	Field string // "tool_input.file_path"; empty for the input as a whole
	Err   error
}

func (e *InputError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("%s: %v", e.Field, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// Conditions wrapped by InputError.
var (
	ErrMissing  = errors.New("missing")
	ErrType     = errors.New("wrong type")
	ErrValue    = errors.New("bad value")
	ErrTooLarge = errors.New("input too large")
)
