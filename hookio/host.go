package hookio

import (
	"bytes"
	"fmt"
	"strings"
)

// Host is one agent host's PreToolUse hook protocol: how its input decodes
// into a [Call], and how a decision must be printed, and with which exit
// status, for the host to obey it.
type Host interface {
	// Name is the --host value: "claude", ...
	Name() string
	// Decode decodes the host's hook input (the bytes of stdin, a leading
	// byte order mark already stripped; see [ReadInput]). Every error is
	// an [*InputError].
	Decode(data []byte) (*Call, error)
	// Encode returns what to print on stdout for o (nil: nothing) and the
	// exit status that makes the host act on it.
	Encode(o Output) (stdout []byte, code int)
}

// Rewriter is a Host that runs a shell tool's input as the hook rewrote it
// (Claude Code's updatedInput: "PreToolUse decision control", verified on
// 2.1.330: with allow it runs without a prompt, with ask it prompts with
// the rewritten input, with no decision the host's own check applies to
// it). safezone confines a command only for such a host.
type Rewriter interface {
	RewritesShell() bool
}

// RewritesShell reports that Claude Code runs a rewritten Bash command.
func (Claude) RewritesShell() bool { return true }

// CommandShell is the shell a host runs a shell tool's command with, as far
// as its hook can tell: it decides the form of a rewritten command.
type CommandShell uint8

const (
	// ShellUser is the user's $SHELL, which evaluates the command after
	// the host's own set-up in the same shell (Claude Code 2.1.330: bash
	// or zsh, `eval '<command>'` after its shell snapshot). A rewritten
	// command needs bash there.
	ShellUser CommandShell = iota
	// ShellBash is bash whatever $SHELL says, with no state carried
	// between calls (Gemini CLI 0.61.0 on Linux and macOS: `bash -c`, the
	// command inside a subshell of its own script; Copilot CLI 1.0.102:
	// `/bin/bash --norc --noprofile -c COMMAND`).
	ShellBash
	// ShellPOSIX is a POSIX shell the hook cannot name (Codex CLI 0.171.0:
	// the user's default shell, or the one the model names in the call,
	// run as `SHELL -c COMMAND`; the hook input carries only the command).
	ShellPOSIX
)

// ShellOf returns the shell h runs a shell tool's command with: ShellUser
// unless h says otherwise (a CommandShell method).
func ShellOf(h Host) CommandShell {
	if s, ok := h.(interface{ CommandShell() CommandShell }); ok {
		return s.CommandShell()
	}
	return ShellUser
}

// Hosts lists the names HostByName knows, for usage texts.
func Hosts() []string {
	return []string{"claude", "codex", "gemini", "copilot", "cursor", "vscode", "auto"}
}

// HostByName returns the adapter for a --host value: a new value per call,
// since some adapters (cursor, auto) remember the input they decoded.
func HostByName(name string) (Host, error) {
	switch name {
	case "claude", "":
		return Claude{}, nil
	case "codex":
		return Codex{}, nil
	case "gemini":
		return Gemini{}, nil
	case "copilot":
		return Copilot{}, nil
	case "cursor":
		return &Cursor{}, nil
	case "vscode":
		return VSCode{}, nil
	case "auto":
		return &Auto{}, nil
	}
	return nil, fmt.Errorf("unknown host %q (known: %s)", name, strings.Join(Hosts(), ", "))
}

// Delegator is implemented by a host whose registration another host also
// runs: it names the host that sent an input.
type Delegator interface {
	HostFor(data []byte) Host
}

// HostFor tells VS Code's input from Claude Code's: VS Code also runs the
// hooks of .claude/settings.json (vscode-docs, agent-customization/hooks.md),
// sending its own tool names and camelCase keys (hookEventName, sessionId)
// where Claude Code always sends hook_event_name. Such an input is decoded
// and answered as VS Code's, instead of being taken for unknown tools.
func (Claude) HostFor(data []byte) Host {
	if bytes.Contains(data, []byte(`"hookEventName"`)) && !bytes.Contains(data, []byte(`"hook_event_name"`)) {
		return VSCode{}
	}
	return Claude{}
}

// Claude is Claude Code's protocol (hooks reference, "PreToolUse input" and
// "PreToolUse decision control"; checked against Claude Code 2.1.330): see
// [DecodeClaude] and [EncodeClaude]. An error deny exits 2, which blocks the
// call even if the host loses stdout; everything else exits 0.
type Claude struct{}

func (Claude) Name() string                      { return "claude" }
func (Claude) Decode(data []byte) (*Call, error) { return DecodeClaude(data) }
func (Claude) Encode(o Output) ([]byte, int) {
	code := 0
	if o.Error && o.Decision != policyAsk && o.Decision != policyAllow && o.Decision != policyAbstain {
		code = 2
	}
	return EncodeClaude(o), code
}
