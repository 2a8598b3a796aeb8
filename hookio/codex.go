package hookio

// OpenAI Codex CLI. Facts, checked against @openai/codex 0.169.0 (its
// linux-x64 binary: the embedded pre-tool-use.command.input schema and the
// output parser's messages) and the openai/codex sources they come from,
// and run under the real 0.171.0 (testdata/hosts/codex/README.md, e2e/):
//
//   - Input (codex-rs/hooks/src/events/pre_tool_use.rs, command_input_json;
//     schema pre-tool-use.command.input): session_id, turn_id,
//     transcript_path (string or null), cwd, hook_event_name "PreToolUse",
//     model, permission_mode (default, acceptEdits, plan, dontAsk,
//     bypassPermissions), tool_name, tool_input, tool_use_id, and for
//     sub-agents agent_id and agent_type. Shell-like tools (shell,
//     exec_command, local_shell) arrive as tool_name "Bash" with
//     tool_input {"command": ...}; apply_patch as tool_name "apply_patch"
//     with the patch text in tool_input.command; MCP tools as
//     mcp__server__tool with their arguments (codex-rs/core/src/tools/
//     hook_names.rs; the apply_patch PR that added the payload).
//     permission_mode says only whether Codex's approval policy is
//     "never" (bypassPermissions) or not (default), whatever the sandbox
//     (hook_permission_mode in codex-rs/core); codex exec always sends
//     bypassPermissions. The hook process runs outside Codex's sandbox,
//     in the session's directory, with CODEX_HOME set.
//   - Output (codex-rs/hooks/src/engine/output_parser.rs,
//     parse_pre_tool_use): stdout is read only on exit 0, as Claude Code's
//     hookSpecificOutput. permissionDecision "deny" needs a non-empty
//     permissionDecisionReason; "ask" is unsupported, "allow" without
//     updatedInput is unsupported, and updatedInput with anything but
//     "allow" is unsupported: each marks the hook as failed, and a failed
//     hook does not block. "allow" with updatedInput replaces the tool's
//     input and nothing else: Codex's own approval policy and sandbox
//     still apply to the new command (pre_tool_use.rs keeps only
//     should_block and updated_input). Verified under 0.171.0 in bypass,
//     workspace-write and read-only mode: Codex ran the rewritten command.
//     additionalContext reaches the model; systemMessage is a warning the
//     TUI lists, which codex exec does not print (it prints the block's
//     reason in its "Command blocked by PreToolUse hook" error line).
//   - A shell command runs as `SHELL -c COMMAND`, SHELL being the user's
//     default shell or the one the model names in exec_command's shell
//     argument (/bin/sh, zsh), which the hook input does not carry; its
//     working directory is the call's workdir.
//   - Exit 2 with a non-empty stderr blocks, stderr being the reason; exit 2
//     with an empty stderr, any other status, and a crash fail open.
//   - Registration: hooks.json in a config folder (~/.codex/hooks.json,
//     <project>/.codex/hooks.json; codex-rs/hooks/src/engine/discovery.rs),
//     Claude Code's shape; matcher "*" matches every tool
//     (codex-rs/hooks/src/events/common.rs). Codex has no option that makes
//     a failing hook block. A project's .codex folder is read only once the
//     project is trusted (trust_level = "trusted" under [projects."<dir>"]
//     in $CODEX_HOME/config.toml, written by `codex exec --trust` or the
//     TUI's prompt), and a hook runs only once it is trusted too
//     (hooks.state."<id>".trusted_hash in config.toml, given in the TUI's
//     /hooks): both are skipped silently.

import "fmt"

// ProjectAnchor is implemented by hosts whose hook input does not say where
// the project is, but whose hooks run in it: when ProjectIsWorkingDir
// reports true and $CLAUDE_PROJECT_DIR is unset, the hook's own working
// directory anchors the sandbox (as $CLAUDE_PROJECT_DIR does for Claude
// Code), not the input's cwd.
type ProjectAnchor interface {
	ProjectIsWorkingDir() bool
}

// ProjectIsWorkingDir reports true: Codex 0.169.0 sends, as cwd, the working
// directory of the tool call (exec_command's workdir, wherever the model
// put it) but runs its hooks in the session's directory, and sets no
// project variable (observed with codex exec against a stub model API:
// input cwd /tmp/cx/outside for workdir /tmp/cx/outside, hook process in
// /tmp/cx/proj).
func (Codex) ProjectIsWorkingDir() bool { return true }

// Codex is OpenAI Codex CLI's protocol (see the facts above): Claude-shaped
// input with Codex's tool names, Claude-shaped output without ask or a bare
// allow. Ask is printed as a deny whose reason says a person must approve;
// allow is printed as nothing (the host's own approval policy then
// applies), unless it carries a rewritten command: allow with updatedInput,
// which an abstain with one becomes too (Codex reads updatedInput only with
// allow, and its allow does not skip its own approval). A deny never
// carries updatedInput (Codex would take the answer for a failed hook and
// run the tool), and its reason is also a systemMessage for the user. A
// deny forced by an error exits 2, so that stderr blocks even if stdout is
// lost; everything else exits 0.
type Codex struct{}

func (Codex) Name() string                      { return "codex" }
func (Codex) Decode(data []byte) (*Call, error) { return DecodeCodex(data) }

// RewritesShell reports that Codex runs a rewritten shell command: allow
// with updatedInput {"command": ...} (see the facts above).
func (Codex) RewritesShell() bool { return true }

// CommandShell is ShellPOSIX: Codex runs the command with the user's
// shell, or the one the model names, which the hook cannot see.
func (Codex) CommandShell() CommandShell { return ShellPOSIX }

func (Codex) Encode(o Output) ([]byte, int) {
	switch o.Decision {
	case policyAllow, policyAbstain:
		switch {
		case o.UpdatedInput != nil:
			o.Decision = policyAllow
		case o.Decision == policyAllow:
			o.Decision, o.Reason = policyAbstain, ""
		}
	case policyAsk:
		o = askAsDeny(o, "Codex hooks")
	default:
		o.Decision = policyDeny
	}
	sysMsg := o.Warning
	if o.Decision == policyDeny {
		o.UpdatedInput = nil
		if o.Reason == "" {
			o.Reason = "denied by safezone"
		}
		sysMsg = joinNonEmpty(o.Reason, o.Warning)
	}
	code := 0
	if o.Error && o.Decision == policyDeny {
		code = 2
	}
	return encodeClaude(o, sysMsg), code
}

// askAsDeny turns an ask into a deny for a host that cannot ask the user
// from a hook, keeping the reason and saying that a person must decide.
// who names what cannot ask ("Codex hooks").
func askAsDeny(o Output, who string) Output {
	o.Decision = policyDeny
	o.Reason = AskAsDenyReason(o.Reason, who)
	return o
}

// AskAsDenyReason is the reason of a deny that stands for an ask where no
// person can be asked: the ask's reason (a generic one when empty), then
// that a person must approve and who cannot ask ("Codex hooks", "Gemini
// CLI in a headless run").
func AskAsDenyReason(reason, who string) string {
	if reason == "" {
		reason = "safezone: this call needs a person's approval"
	}
	return fmt.Sprintf("%s; a person must approve this call, and %s cannot ask for that, so safezone denies it: ask the user to approve and run it themselves, or to allow it in the safezone policy", reason, who)
}

// DecodeCodex decodes Codex's PreToolUse hook input (see the facts at the
// top of this file). The strictness is [DecodeClaude]'s: one JSON object,
// no duplicate or case-variant keys; tool_name, tool_input (an object) and
// an absolute cwd are required; hook_event_name, when present, must be
// "PreToolUse". Tools map to families in [codexTool]. Every error is an
// [*InputError].
func DecodeCodex(data []byte) (*Call, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	c := &Call{Host: "codex"}
	if c.Event, err = o.event("hook_event_name", true, "PreToolUse"); err != nil {
		return nil, err
	}
	err = o.optionalStrings(strField{"session_id", &c.SessionID}, strField{"transcript_path", &c.TranscriptPath},
		strField{"tool_use_id", &c.ToolUseID}, strField{"permission_mode", &c.RawPermissionMode},
		strField{"turn_id", nil}, strField{"model", nil}, strField{"agent_id", nil}, strField{"agent_type", nil})
	if err != nil {
		return nil, err
	}
	c.PermissionMode = ParsePermissionMode(c.RawPermissionMode)
	if c.Tool, err = o.toolName("tool_name"); err != nil {
		return nil, err
	}
	if c.Cwd, err = o.cwd("cwd"); err != nil {
		return nil, err
	}
	ti, err := o.object("tool_input")
	if err != nil {
		return nil, err
	}
	if err := codexTool(c, ti); err != nil {
		return nil, err
	}
	return c, nil
}

// codexTool judges a call by [codexTools], then by [claudeTools] for
// Claude Code's names, which Codex may send too. MCP tools
// (mcp__server__tool) are judged as Claude Code's; any other tool has no
// schema.
func codexTool(c *Call, ti obj) error {
	if r := lookupTool(codexTools, c.Tool); r != nil {
		return r.judgeCall(c, toolInput{ti: ti, name: c.Tool})
	}
	if lookupTool(claudeTools, c.Tool) != nil || IsMCP(c.Tool) {
		return claudeTool(c, ti)
	}
	return otherTool(c, ti)
}

// codexTools is Codex's tool table: Codex tool name, safezone family.
//
//	Bash          Bash (shell)       tool_input.command; an inline
//	                                 "apply_patch <<'EOF'" also writes
//	                                 every file its patch names
//	apply_patch   Edit (writes)      every file the patch in
//	                                 tool_input.command names
//	view_image    Read               tool_input.path
//	mcp__s__t     MCP                path-named fields
//	Claude Code's names (Read, Write, Edit, ...), for hosts sending them:
//	              as for Claude Code
//	anything else other              path-named fields still judged
var codexTools = []toolRule{
	{names: []string{"Bash"}, judge: judgeCodexBash},
	{names: []string{"apply_patch"}, as: "Edit", judge: judgeCodexPatch},
	{names: []string{"view_image"}, as: "Read", judge: judgeFile, kind: KindRead, fields: []string{"path"}},
}

// judgeCodexBash judges Codex's shell command. A command that applies a
// patch inline (apply_patch with a heredoc, see [looksLikeShellPatch])
// also writes every file the patch names; with relative paths after a
// change of directory, where they land cannot be known: an error.
func judgeCodexBash(c *Call, in toolInput, _ *toolRule) error {
	if err := shellTool(c, in.ti, KindShell, ""); err != nil {
		return err
	}
	if !looksLikeShellPatch(c.Command) {
		return nil
	}
	args, err := patchArgs("tool_input.command", c.Command)
	if err != nil {
		return err
	}
	for _, a := range args {
		if !isAbs(a.Value) && changesDir(c.Command) {
			return &InputError{Field: "tool_input.command", Err: fmt.Errorf("%w: the command applies a patch with relative paths after changing directory; safezone cannot tell where they land: use the apply_patch tool, or absolute paths", ErrValue)}
		}
	}
	c.Args = args
	return nil
}

// judgeCodexPatch judges Codex's apply_patch: a write of every file named
// by the patch in tool_input.command.
func judgeCodexPatch(c *Call, in toolInput, _ *toolRule) error {
	patch, _, err := in.ti.str("command", true)
	if err != nil {
		return err
	}
	return patchTool(c, "tool_input.command", patch)
}
