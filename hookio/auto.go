package hookio

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// Auto is --host auto, a convenience: it tells the host from the shape of
// its input (see [DetectHost]) and then speaks that host's protocol. Until
// an input has been recognised (an empty or malformed stdin, a timeout
// before stdin closed, a shape no host sends), it prints one deny that
// every host reads as a block (see [EncodeUnknownHost]). Registering the
// host by name is the dependable choice; use a fresh value per call
// ([HostByName] returns one).
type Auto struct{ host atomic.Pointer[hostRef] }

type hostRef struct{ h Host }

func (*Auto) Name() string { return "auto" }

func (a *Auto) Decode(data []byte) (*Call, error) {
	h, err := DetectHost(data)
	if err != nil {
		return nil, err
	}
	a.host.Store(&hostRef{h})
	return h.Decode(data)
}

func (a *Auto) Encode(o Output) ([]byte, int) {
	if r := a.host.Load(); r != nil {
		return r.h.Encode(o)
	}
	return EncodeUnknownHost(o)
}

// ProjectIsWorkingDir forwards to the host told from the input (see
// [ProjectAnchor]); false before one is.
func (a *Auto) ProjectIsWorkingDir() bool {
	if r := a.host.Load(); r != nil {
		if p, ok := r.h.(ProjectAnchor); ok {
			return p.ProjectIsWorkingDir()
		}
	}
	return false
}

// errUnknownShape is wrapped when no host sends an input of this shape.
var errUnknownShape = errors.New("cannot tell which host sent this input")

// DetectHost tells the host from the shape of a hook input:
//
//	toolName or toolArgs                      copilot (Copilot CLI, camelCase)
//	hookEventName                             vscode
//	hook_event_name "BeforeTool", "AfterTool"  gemini
//	hook_event_name "preToolUse",             cursor
//	  "beforeShellExecution", "beforeReadFile",
//	  "beforeMCPExecution"
//	hook_event_name "PreToolUse" with turn_id or model  codex
//	hook_event_name "PreToolUse" with timestamp  copilot (PascalCase)
//	hook_event_name "PreToolUse", or none with
//	  tool_name and tool_input                claude
//
// It parses the input with the decoders' strictness; every error is an
// [*InputError].
func DetectHost(data []byte) (Host, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	switch {
	case o.has("toolName") || o.has("toolArgs"):
		return Copilot{}, nil
	case o.has("hookEventName"):
		return VSCode{}, nil
	}
	ev, ok, err := o.str("hook_event_name", false)
	if err != nil {
		return nil, err
	}
	switch {
	case ev == "BeforeTool" || ev == "AfterTool":
		return Gemini{}, nil
	case ev == "preToolUse" || ev == "beforeShellExecution" || ev == "beforeReadFile" || ev == "beforeMCPExecution":
		return &Cursor{}, nil
	case ev == "PreToolUse" && (o.has("turn_id") || o.has("model")):
		return Codex{}, nil
	case ev == "PreToolUse" && o.has("timestamp"):
		return Copilot{}, nil
	case ev == "PreToolUse", !ok && o.has("tool_name") && o.has("tool_input"):
		return Claude{}, nil
	case ok:
		return nil, &InputError{Field: "hook_event_name", Err: fmt.Errorf("%w: %w: event %q", ErrValue, errUnknownShape, ev)}
	}
	return nil, &InputError{Err: fmt.Errorf("%w: %w: no hook_event_name, hookEventName or toolName; register safezone with --host NAME", ErrMalformed, errUnknownShape)}
}

// EncodeUnknownHost prints a deny for a host that could not be told, and
// exits 2: one JSON object carrying every host's deny (Claude Code, Codex
// and VS Code read hookSpecificOutput, Gemini CLI decision, Copilot CLI
// permissionDecision, Cursor permission), while the exit status 2 blocks in
// Claude Code, Codex (which then reads only stderr), Gemini CLI, VS Code and
// Cursor. Copilot CLI is documented to skip a hook that exits non-zero, so
// register it with --host copilot. Whatever the decision asked for, this
// prints a deny: an ask means something else to every host.
func EncodeUnknownHost(o Output) ([]byte, int) {
	r := o.Reason
	if r == "" || o.Decision != policyDeny {
		r = joinNonEmpty(r, "safezone: deny: the agent host could not be told from its input, so safezone fails closed; register safezone with --host NAME")
	}
	b := make([]byte, 0, 256+6*len(r))
	b = append(b, '{')
	b = appendField(b, "decision", "deny")
	b = appendField(b, "reason", r)
	b = appendField(b, "permissionDecision", "deny")
	b = appendField(b, "permissionDecisionReason", r)
	b = appendField(b, "permission", "deny")
	b = appendField(b, "user_message", r)
	b = appendField(b, "agent_message", r)
	b = append(b, `,"hookSpecificOutput":{"hookEventName":"PreToolUse"`...)
	b = appendField(b, "permissionDecision", "deny")
	b = appendField(b, "permissionDecisionReason", r)
	return append(b, "}}\n"...), 2
}
