package hookio

// GitHub Copilot CLI. Facts, measured under the real @github/copilot
// 1.0.102 (2026-12-07, offline against a fake model API: e2e/hosts_test.go,
// and ../shared/hosts-e2e/FINDINGS.md, "Copilot CLI 1.0.102", which names
// where in the package each comes from), with GitHub's documentation
// (github/docs content/copilot/reference/copilot-cli-reference/
// cli-hooks-reference.md) and `copilot help config|permissions|environment`
// of 1.0.102 for the rest; 1.0.102 ships a single executable whose hook
// engine and tools are in prebuilds/linux-x64/runtime.node (Rust):
//
//   - Configuration: .github/hooks/*.json of the project and
//     $COPILOT_HOME/hooks/*.json (~/.copilot/hooks), {"version": 1,
//     "hooks": {"preToolUse": [{"type": "command", "bash", "command",
//     "powershell", "timeoutSec", "matcher"?}]}}. On Linux "bash" is run
//     in preference to "command"; a "matcher" (a tool name pattern) is
//     honoured. In prompt mode (-p) a project's hooks load only in a
//     trusted folder (--trust-folder, COPILOT_ALLOW_ALL=true exactly,
//     trustedFolders in ~/.copilot/config.json, or
//     GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true); otherwise they are
//     dropped without a word (cli-main.js: loadDeferredRepoHooks). The
//     user's hooks run without trust. disableAllHooks (settings.json)
//     turns every hook off.
//   - The hook runs in the project root with COPILOT_PROJECT_DIR,
//     CLAUDE_PROJECT_DIR and COPILOT_HOOK_DIR set, as a child of the
//     copilot process (its environment filtered: no provider keys).
//   - Input, camelCase event "preToolUse": sessionId, timestamp (ms),
//     cwd, toolName (bash, view, create, edit, grep or rg, glob,
//     apply_patch, MCP tools as <server>-<tool>), toolArgs: a JSON object
//     for every function tool; only the custom (free-form) apply_patch
//     sends its patch as a string. There is no event name and no
//     permission mode: --yolo is read from the copilot process
//     (pipeline/hostrun.go).
//   - Input, PascalCase event "PreToolUse" (the VS Code compatible
//     format): hook_event_name, session_id, timestamp (ISO 8601), cwd,
//     tool_name mapped to Claude Code's names (bash to Bash, view to Read,
//     create to Write, edit and apply_patch to Edit, ...), tool_input with
//     Copilot's fields.
//   - Tools: bash {command, description, ...}, view {path, view_range},
//     create {path, file_text}, edit {path, old_str, new_str}, grep and rg
//     {pattern, paths (a string or a list), glob, ...}, glob {pattern,
//     paths}, apply_patch (the patch).
//   - bash runs `/bin/bash --norc --noprofile -c COMMAND` in the session's
//     directory, whatever $SHELL is: no state (cd, variables, functions)
//     carries from one call to the next; a process substitution runs.
//   - Output: top-level permissionDecision ("allow", "deny", "ask"),
//     permissionDecisionReason, modifiedArgs and additionalContext.
//     hookSpecificOutput counts only under "PreToolUse": a deny only there
//     is ignored under "preToolUse". "ask" in prompt mode is a deny
//     ("Denied by preToolUse hook (unable to ask user for confirmation)").
//     "allow" skips Copilot's prompt and also its own check of paths
//     outside the folder. modifiedArgs replaces the tool's arguments, with
//     allow or with no decision, under both events: the rewritten command
//     runs, and the model's history shows it; top-level updatedInput is
//     ignored. additionalContext reaches the model as a user message
//     ("Additional context from preToolUse hook: ..."). systemMessage is
//     not a Copilot field.
//   - Failures: exit 2, exit 1, a crash (a signal) and a missing binary
//     block the tool ("hook errored"; changelog 1.0.57); only a timeout
//     (timeoutSec) and non-JSON stdout on exit 0 let it run. So every
//     answer is JSON on stdout with exit 0.
//
// VS Code reads the same .github/hooks files and ~/.copilot/hooks and runs
// the same command with its own input (see vscode.go): [Copilot.HostFor]
// hands such an input to [VSCode], which rewrites nothing.

import (
	"bytes"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/safezonehq/safezone/policy"
)

// Copilot is GitHub Copilot CLI's protocol (see the facts above). A
// rewritten command goes in the top-level modifiedArgs, with allow or no
// decision, never with a deny; the model is told in additionalContext.
// Every answer exits 0.
type Copilot struct{}

func (Copilot) Name() string                      { return "copilot" }
func (Copilot) Decode(data []byte) (*Call, error) { return DecodeGitHubHooks(data) }
func (Copilot) Encode(o Output) ([]byte, int)     { return encodeGitHubHooks(o, true), 0 }

// RewritesShell reports that Copilot CLI runs a rewritten bash command
// (modifiedArgs, see the facts above).
func (Copilot) RewritesShell() bool { return true }

// CommandShell is ShellBash: Copilot CLI 1.0.102 runs bash's command as
// `/bin/bash --norc --noprofile -c COMMAND`, with no state between calls.
func (Copilot) CommandShell() CommandShell { return ShellBash }

// HostFor hands VS Code's input (hookEventName, no toolName nor
// hook_event_name) to [VSCode]: both hosts load .github/hooks and
// ~/.copilot/hooks, and only Copilot CLI runs a rewritten command.
func (Copilot) HostFor(data []byte) Host { return githubHostFor(data) }

// githubHostFor tells VS Code's input from Copilot CLI's by their keys.
func githubHostFor(data []byte) Host {
	if bytes.Contains(data, []byte(`"hookEventName"`)) && !bytes.Contains(data, []byte(`"toolName"`)) && !bytes.Contains(data, []byte(`"hook_event_name"`)) {
		return VSCode{}
	}
	return Copilot{}
}

// encodeGitHubHooks prints o for Copilot CLI (copilot) or VS Code: the
// decision at the top level (Copilot's camelCase format) and in
// hookSpecificOutput (VS Code, and Copilot's PascalCase format); a
// warning and the model's context as additionalContext, and for VS Code
// the warning as systemMessage for the user. For Copilot a rewritten
// input is modifiedArgs (and hookSpecificOutput.updatedInput, which its
// PascalCase format also reads), unless the decision is deny. Abstain
// with nothing else prints {} (no decision), which both hosts read as
// "carry on".
func encodeGitHubHooks(o Output, copilot bool) []byte {
	var decision, reason string
	switch o.Decision {
	case policyAbstain:
	case policyAllow, policyAsk:
		decision, reason = o.Decision.String(), o.Reason
	default:
		decision, reason = "deny", o.Reason
		if reason == "" {
			reason = "denied by safezone"
		}
	}
	context := joinNonEmpty(o.Warning, o.Context)
	rewrite := o.UpdatedInput
	if !copilot || decision == "deny" {
		rewrite = nil
	}
	if decision == "" && context == "" && rewrite == nil {
		return []byte("{}\n")
	}
	b := make([]byte, 0, 160+2*len(reason)+3*len(context)+2*len(rewrite))
	b = append(b, '{')
	b = appendField(b, "permissionDecision", decision)
	b = appendField(b, "permissionDecisionReason", reason)
	if rewrite != nil {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, `"modifiedArgs":`...)
		b = append(b, rewrite...)
	}
	b = appendField(b, "additionalContext", context)
	if !copilot {
		b = appendField(b, "systemMessage", o.Warning)
	}
	b = append(b, `,"hookSpecificOutput":{"hookEventName":"PreToolUse"`...)
	b = appendField(b, "permissionDecision", decision)
	b = appendField(b, "permissionDecisionReason", reason)
	if rewrite != nil {
		b = append(b, `,"updatedInput":`...)
		b = append(b, rewrite...)
	}
	b = appendField(b, "additionalContext", context)
	return append(b, "}}\n"...)
}

// DecodeGitHubHooks decodes a PreToolUse hook input run from a .github/hooks
// file: Copilot CLI's camelCase input (toolName, toolArgs), its PascalCase
// input (hook_event_name "PreToolUse", tool_name, tool_input), or VS Code's
// input (hookEventName "PreToolUse", tool_name, tool_input). The shape is
// told by those keys; more than one of them is an error. An absolute cwd
// and the tool are required; the arguments must be an object, or a string
// holding a JSON object, or (for a patch tool only) free text. Tools map
// to families in [githubTools]. Every error is an [*InputError].
func DecodeGitHubHooks(data []byte) (*Call, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	c := &Call{Host: "copilot"}
	keys, err := githubShape(c, o)
	if err != nil {
		return nil, err
	}
	if c.SessionID, _, err = o.str(keys.session, false); err != nil {
		return nil, err
	}
	if c.Tool, err = o.toolName(keys.tool); err != nil {
		return nil, err
	}
	if c.Cwd, err = o.cwd("cwd"); err != nil {
		return nil, err
	}
	ti, raw, isRaw, err := o.objectOrJSON(keys.args, true)
	if err != nil {
		return nil, err
	}
	if err := githubTool(c, toolInput{ti: ti, raw: raw, isRaw: isRaw, field: keys.args, name: c.Tool}); err != nil {
		return nil, err
	}
	return c, nil
}

// githubKeys are the fields that hold the tool, its arguments and the
// session in one of the input shapes of .github/hooks.
type githubKeys struct{ tool, args, session string }

// githubShape tells the input's shape (see [DecodeGitHubHooks]), checks the
// fields particular to it, and sets c's Event, and Host for VS Code, with
// the transcript and tool use fields only VS Code sends.
func githubShape(c *Call, o obj) (githubKeys, error) {
	shapes := 0
	for _, k := range []string{"toolName", "hook_event_name", "hookEventName"} {
		if o.has(k) {
			shapes++
		}
	}
	if shapes != 1 {
		return githubKeys{}, &InputError{Err: fmt.Errorf("%w: want exactly one of toolName (Copilot CLI), hook_event_name (Copilot CLI, PascalCase) or hookEventName (VS Code); got %d", ErrMalformed, shapes)}
	}
	var err error
	switch {
	case o.has("toolName"):
		c.Event = "preToolUse"
		if v := o.v.get("timestamp"); v != nil && v.kind != jNumber && v.kind != jNull {
			return githubKeys{}, &InputError{Field: "timestamp", Err: fmt.Errorf("%w: want a number, got %s", ErrType, v.describe())}
		}
		return githubKeys{"toolName", "toolArgs", "sessionId"}, nil
	case o.has("hook_event_name"):
		if c.Event, err = o.event("hook_event_name", false, "PreToolUse"); err != nil {
			return githubKeys{}, err
		}
		return githubKeys{"tool_name", "tool_input", "session_id"}, o.optionalStrings(strField{"timestamp", nil})
	}
	c.Host = "vscode"
	if c.Event, err = o.event("hookEventName", false, "PreToolUse"); err != nil {
		return githubKeys{}, err
	}
	return githubKeys{"tool_name", "tool_input", "sessionId"},
		o.optionalStrings(strField{"timestamp", nil}, strField{"transcript_path", &c.TranscriptPath}, strField{"tool_use_id", &c.ToolUseID})
}

// githubTool judges a call by [githubTools]: a tool no row names is an MCP
// tool when its name starts with "mcp_" (VS Code's), else a tool without a
// schema (Copilot CLI's MCP tools, <server>-<tool>, among them, which get
// their mcp__server__tool names as aliases: copilotMCPNames). Free-text
// arguments are refused but for the rows that take them.
func githubTool(c *Call, in toolInput) error {
	r := lookupTool(githubTools, c.Tool)
	if in.isRaw && (r == nil || !r.raw) {
		return &InputError{Field: in.field, Err: fmt.Errorf("%w: want a JSON object for tool %q, got free text", ErrValue, c.Tool)}
	}
	switch {
	case r != nil:
		return r.judgeCall(c, in)
	case strings.HasPrefix(c.Tool, "mcp_"):
		return mcpTool(c, in.ti, "")
	case c.Host == "copilot":
		c.ToolAliases = copilotMCPNames(c.Tool)
	}
	return otherTool(c, in.ti)
}

// copilotMCPNames returns the mcp__server__tool names Copilot CLI's MCP
// tool name <server>-<tool> may stand for: one per dash
// ("github-mcp-server-get_file_contents" is mcp__github__mcp-server-...,
// ..., mcp__github-mcp-server__get_file_contents).
func copilotMCPNames(name string) []string {
	var out []string
	for i := 0; i < len(name); i++ {
		if name[i] == '-' && i > 0 && i < len(name)-1 {
			out = append(out, "mcp__"+name[:i]+"__"+name[i+1:])
		}
	}
	return out
}

// githubTools is the tool table of Copilot CLI and VS Code (both load
// .github/hooks): host tool name, safezone family, what is judged.
//
//	bash, Bash, run_in_terminal        Bash        command
//	powershell                         PowerShell  command (not parsed)
//	view, Read, read_file              Read        path / filePath
//	get_errors, list_code_usages,      Read        filePaths, filePath,
//	get_changed_files, notebook reads              repositoryPath
//	list_dir                           LS          path
//	create, Write, create_file         Write       path / filePath
//	create_directory                   Write       dirPath
//	edit, replace_string_in_file,      Edit        path / filePath
//	insert_edit_into_file
//	multi_replace_string_in_file       Edit        replacements[].filePath
//	edit_notebook_file                 NotebookEdit filePath
//	str_replace_editor                 Read for command "view", else Edit
//	apply_patch, Edit with a patch     Edit        every file the patch names
//	grep, rg, Grep                     Grep        paths / path (or cwd), glob
//	grep_search                        Grep        cwd, includePattern
//	semantic_search                    Grep        cwd
//	glob, Glob                         Glob        paths / path (or cwd), pattern
//	file_search                        Glob        cwd, query
//	web_fetch, fetch_webpage           WebFetch
//	web_search                         WebSearch
//	editFiles, deleteFile (the names   Edit        files[], path / filePath
//	in VS Code's docs examples)
//	copilot_readFile, ... (VS Code's   as the model-facing name
//	contributed names)
//	mcp_...                            MCP         path-named fields
//	anything else (MCP <server>-<tool> other       path-named fields
//	tools among them)
//
// Tool names differ between the shapes: Copilot's camelCase input sends its
// own names (bash, view), the PascalCase input Claude Code's (Bash, Read)
// with Copilot's fields, VS Code its own (read_file). On Windows, Copilot's
// PascalCase input calls powershell "Bash" too; register the camelCase
// event (safezone init does) to tell them apart.
var githubTools = []toolRule{
	{names: []string{"bash", "Bash", "run_in_terminal", "runTerminalCommand"}, as: "Bash", judge: judgeShell, kind: KindShell},
	{names: []string{"powershell"}, as: "PowerShell", judge: judgeShell, kind: KindPowerShell},
	{names: []string{"view", "Read", "read_file", "copilot_readFile"}, as: "Read",
		judge: judgeFile, kind: KindRead, fields: []string{"path", "file_path", "filePath"}},
	{names: []string{"get_errors", "list_code_usages", "get_changed_files", "read_notebook_cell_output", "copilot_getNotebookSummary",
		"copilot_getErrors", "copilot_listCodeUsages", "copilot_getChangedFiles", "copilot_readNotebookCellOutput"},
		judge: judgeReadPaths, fields: []string{"filePaths", "filePath", "repositoryPath"}},
	{names: []string{"list_dir", "copilot_listDirectory"}, as: "LS", judge: judgeFile, kind: KindRead, fields: []string{"path"}},
	{names: []string{"create", "Write", "create_file", "copilot_createFile", "createFile"}, as: "Write",
		judge: judgeFile, kind: KindWrite, fields: []string{"path", "file_path", "filePath"}},
	{names: []string{"create_directory", "copilot_createDirectory"}, as: "Write", judge: judgeFile, kind: KindWrite, fields: []string{"dirPath"}},
	{names: []string{"edit", "replace_string_in_file", "insert_edit_into_file", "copilot_replaceString", "copilot_insertEdit"}, as: "Edit",
		judge: judgeFile, kind: KindWrite, fields: []string{"path", "file_path", "filePath"}},
	{names: []string{"multi_replace_string_in_file", "copilot_multiReplaceString"}, as: "MultiEdit", judge: judgeMultiReplace},
	{names: []string{"edit_notebook_file", "copilot_editNotebook"}, as: "NotebookEdit", judge: judgeFile, kind: KindWrite, fields: []string{"filePath"}},
	{names: []string{"str_replace_editor"}, judge: judgeStrReplaceEditor},
	{names: []string{"editFiles", "deleteFile"}, as: "Edit", judge: judgeEditFiles},
	{names: []string{"apply_patch", "Edit", "copilot_applyPatch"}, as: "Edit", judge: judgeApplyPatch, raw: true},
	{names: []string{"grep", "rg", "Grep"}, as: "Grep", judge: judgeGrep, fields: []string{"glob", "paths", "path"}},
	{names: []string{"grep_search", "copilot_findTextInFiles"}, as: "Grep", judge: judgeSearch, fields: []string{"query", "includePattern"}},
	{names: []string{"semantic_search", "copilot_searchCodebase"}, as: "Grep", judge: judgeGrep, fields: []string{""}},
	{names: []string{"glob", "Glob"}, as: "Glob", judge: judgeGlob, fields: []string{"pattern", "paths", "path"}},
	{names: []string{"file_search", "copilot_findFiles"}, as: "Glob", judge: judgeGlob, fields: []string{"query"}},
	{names: []string{"web_fetch", "fetch_webpage", "copilot_fetchWebPage"}, as: "WebFetch", judge: judgeNone},
	{names: []string{"web_search"}, as: "WebSearch", judge: judgeNone},
}

// judgeEditFiles judges the tools of VS Code's hooks documentation
// examples, editFiles and deleteFile (tool_input {"files": [...]}): a
// write of every path in files, and in path, filePath or file_path; one
// of them is required.
func judgeEditFiles(c *Call, in toolInput, _ *toolRule) error {
	args, err := dirList(in.ti, "files")
	if err != nil {
		return err
	}
	more, err := in.ti.paths(len(args) == 0, "path", "filePath", "file_path")
	if err != nil {
		return err
	}
	c.Kind, c.Writes, c.Args = KindWrite, true, withAccess(append(args, more...), policy.Write)
	return nil
}

// judgeApplyPatch judges a patch tool (apply_patch, VS Code's
// copilot_applyPatch, and Edit, which the PascalCase input sends for
// apply_patch as well as for edits): a write of every file the patch
// names. The patch is the free-text arguments, or the field input, or,
// for a name other than Edit, patch or command. Edit with a command is
// str_replace_editor's; Edit without a patch writes path, file_path or
// filePath.
func judgeApplyPatch(c *Call, in toolInput, _ *toolRule) error {
	ti := in.ti
	switch {
	case in.isRaw:
		return patchTool(c, in.field, in.raw)
	case ti.has("input") || (in.name != "Edit" && (ti.has("patch") || ti.has("command"))):
		for _, k := range []string{"input", "patch", "command"} {
			if ti.has(k) {
				p, _, err := ti.str(k, true)
				if err != nil {
					return err
				}
				return patchTool(c, ti.name(k), p)
			}
		}
	case ti.has("command"):
		return strReplaceEditorTool(c, ti)
	}
	return fileTool(c, ti, KindWrite, "path", "file_path", "filePath")
}

// judgeStrReplaceEditor is strReplaceEditorTool as a judge.
func judgeStrReplaceEditor(c *Call, in toolInput, _ *toolRule) error {
	return strReplaceEditorTool(c, in.ti)
}

// strReplaceEditorTool judges Copilot's str_replace_editor: "view" reads
// path; every other command (create, str_replace, insert, undo_edit, or an
// unknown one) writes it.
func strReplaceEditorTool(c *Call, ti obj) error {
	cmd, _, err := ti.str("command", false)
	if err != nil {
		return err
	}
	if cmd == "view" {
		c.Tool = "Read"
		return fileTool(c, ti, KindRead, "path", "file_path", "filePath")
	}
	c.Tool = "Edit"
	return fileTool(c, ti, KindWrite, "path", "file_path", "filePath")
}

// judgeMultiReplace judges VS Code's multi_replace_string_in_file: a write
// of every replacements[i].filePath.
func judgeMultiReplace(c *Call, in toolInput, _ *toolRule) error {
	ti := in.ti
	v := ti.v.get("replacements")
	if v == nil || v.kind == jNull {
		return &InputError{Field: ti.name("replacements"), Err: ErrMissing}
	}
	if v.kind != jArray {
		return &InputError{Field: ti.name("replacements"), Err: fmt.Errorf("%w: want an array, got %s", ErrType, v.describe())}
	}
	c.Kind, c.Writes = KindWrite, true
	for i, it := range v.items {
		f := fmt.Sprintf("replacements[%d]", i)
		if it.kind != jObject {
			return &InputError{Field: ti.name(f), Err: fmt.Errorf("%w: want an object, got %s", ErrType, it.describe())}
		}
		item := obj{v: it, prefix: ti.name(f)}
		p, _, err := item.path("filePath", true)
		if err != nil {
			return err
		}
		c.Args = append(c.Args, Arg{Field: f + ".filePath", Value: p, Access: policy.Write})
	}
	if len(c.Args) == 0 {
		return &InputError{Field: ti.name("replacements"), Err: fmt.Errorf("%w: empty", ErrValue)}
	}
	return nil
}

// copilotUnasked are the programs Copilot CLI 1.0.102 was seen to run
// without asking in its default mode (testdata/hosts/copilot/unasked.md),
// with, for git, the subcommands seen; find, sort and sed only without
// the options that run, delete or write.
var copilotUnasked = map[string]bool{
	"cat": true, "head": true, "tail": true, "ls": true, "grep": true, "rg": true, "find": true, "wc": true,
	"echo": true, "pwd": true, "git": true, "which": true, "file": true, "stat": true, "du": true, "df": true,
	"sort": true, "uniq": true, "cut": true, "diff": true, "printenv": true, "date": true, "whoami": true,
	"uname": true, "id": true, "realpath": true, "readlink": true, "sed": true, "nl": true, "true": true, "cd": true,
}

var copilotUnaskedGit = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "branch": true, "rev-parse": true, "ls-files": true, "blame": true, "grep": true,
}

// RunsUnasked reports whether Copilot CLI 1.0.102, its hook abstaining,
// runs command without asking: only in its default mode, and only where
// both it and Claude Code were seen to (testdata/hosts/copilot/unasked.md
// and ../claude/unasked.md): [Claude.RunsUnasked] holds (the line's
// shape, paths inside the working directories, no write), and every
// program is one Copilot ran (copilotUnasked). False is the safe answer,
// as for Claude Code: a command Copilot runs unasked that this does not
// name runs unconfined, where safezone left it to Copilot.
func (Copilot) RunsUnasked(mode PermissionMode, command string, env UnaskedEnv) bool {
	if mode != PermDefault || !(Claude{}).RunsUnasked(mode, command, env) {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		call, isCall := n.(*syntax.CallExpr)
		if !isCall || len(call.Args) == 0 || !ok {
			return ok
		}
		var words []string
		for _, w := range call.Args {
			lit, plain := plainWord(w)
			if !plain {
				ok = false // an expansion (Claude.RunsUnasked refuses most already)
				return false
			}
			words = append(words, lit)
		}
		ok = copilotRunsWords(words)
		return ok
	})
	return ok
}

// plainWord returns a word's text when it holds only literal text and
// quotes ('*.md', "a b"), and false for any expansion.
func plainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// copilotRunsWords reports whether one simple command, as plain words, is
// among the forms Copilot CLI 1.0.102 ran unasked.
func copilotRunsWords(words []string) bool {
	if !copilotUnasked[words[0]] {
		return false
	}
	for _, w := range words[1:] {
		switch words[0] {
		case "find":
			switch w {
			case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		case "sort":
			if w == "-o" || strings.HasPrefix(w, "--output") || (strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "o")) {
				return false
			}
		case "sed":
			if strings.HasPrefix(w, "-i") || strings.HasPrefix(w, "--in-place") || (strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i")) {
				return false
			}
		}
	}
	if words[0] == "git" {
		return len(words) > 1 && copilotUnaskedGit[words[1]]
	}
	return true
}
