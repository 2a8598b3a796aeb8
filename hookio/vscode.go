package hookio

// VS Code agent hooks (Preview). Facts, from microsoft/vscode-docs
// docs/agent-customization/hooks.md (approved 2026-06-03; the earlier
// docs/copilot/customization/hooks.md for VS Code 1.110 says the same) and
// microsoft/vscode-copilot-chat (0.38.0: package.json languageModelTools,
// src/extension/tools/common/toolNames.ts, and the PreToolUse call in the
// tool-calling loop):
//
//   - Configuration: .github/hooks/*.json, .claude/settings.json,
//     .claude/settings.local.json, ~/.copilot/hooks, ~/.claude/settings.json
//     (setting chat.hookFilesLocations). Claude Code's and Copilot CLI's
//     formats are both read; lowerCamelCase events (preToolUse) become
//     PascalCase; matchers are ignored, so every tool call runs the hook.
//   - Input: timestamp (ISO 8601), cwd, sessionId, hookEventName
//     "PreToolUse", transcript_path, then tool_name (the name the model
//     called: read_file, create_file, replace_string_in_file,
//     run_in_terminal, apply_patch, ...), tool_input (its arguments:
//     filePath, dirPath, path, command, input, ...), tool_use_id.
//   - Output: hookSpecificOutput.permissionDecision "allow" | "deny" | "ask"
//     with permissionDecisionReason; the most restrictive of several hooks
//     wins. Exit 0 parses stdout; exit 2 blocks and shows stderr to the
//     model; any other status is a warning and the tool runs.
//
// Since Copilot CLI loads the same .github/hooks files and runs the same
// command, the VS Code adapter shares the Copilot one's decoder: it reads
// both hosts' inputs, hands Copilot CLI's to [Copilot] (HostFor), and
// prints an answer both act on, always with exit 0 (VS Code reads the JSON
// deny at exit 0). It rewrites no command: safezone confines nothing VS
// Code runs.

// VSCode is VS Code's agent-hook protocol: see [Copilot], whose decoder it
// shares.
type VSCode struct{}

func (VSCode) Name() string                      { return "vscode" }
func (VSCode) Decode(data []byte) (*Call, error) { return DecodeGitHubHooks(data) }
func (VSCode) Encode(o Output) ([]byte, int)     { return encodeGitHubHooks(o, false), 0 }

// HostFor hands Copilot CLI's input to [Copilot] (see githubHostFor).
func (VSCode) HostFor(data []byte) Host { return githubHostFor(data) }
