package hookio

// Google Gemini CLI. Facts, checked against @google/gemini-cli 0.61.0 (its
// bundled docs, docs/hooks/reference.md and docs/reference/tools.md, and
// the bundled hook runner and scheduler code):
//
//   - Input of the BeforeTool event: session_id, transcript_path, cwd,
//     hook_event_name "BeforeTool", timestamp, tool_name, tool_input (the
//     model's arguments), mcp_context (server_name, tool_name, ...) for MCP
//     tools, original_request_name for tail calls. cwd is the directory
//     Gemini was started in, which is also where it resolves relative tool
//     paths (config.getTargetDir()).
//   - Tools and their argument keys (docs/reference/tools.md, "Tool argument
//     keys"): run_shell_command (command, description, dir_path,
//     is_background), read_file (file_path, start_line, end_line),
//     write_file (file_path, content), replace (file_path, old_string,
//     new_string, ...), glob (pattern, dir_path, ...), grep_search
//     (pattern, dir_path, include_pattern, exclude_pattern, ...; legacy
//     name search_file_content), list_directory (dir_path, ...),
//     read_many_files (include, exclude, recursive, useDefaultExcludes),
//     web_fetch, google_web_search. MCP tools are mcp_<server>_<tool>.
//   - Output: one JSON object on stdout with exit 0; {"decision":"deny",
//     "reason":...} blocks the tool and sends the reason to the model;
//     "ask" forces the confirmation prompt (hookSystemMessage shown with
//     it); "allow" and no decision leave Gemini's own policy in charge.
//     Exit 2 blocks with stderr as the reason (stdout JSON, when present,
//     is parsed first). Any other status, exit 1 included, is a warning and
//     the tool runs. When stdout is empty, stderr is parsed instead, and
//     plain text at exit 0 counts as "allow": so stdout is never left
//     empty. There is no fail-closed setting; a timeout or crash lets the
//     tool run.
//     hookSpecificOutput.tool_input replaces the tool's arguments, with or
//     without a decision (the scheduler's evaluateBeforeToolHook builds the
//     call from it alone; executeToolWithHooks merges it): verified under
//     0.61.0, Gemini ran the rewritten command only, and told the model
//     "[System] Tool input parameters (command) were modified by a hook
//     before execution". BeforeTool has no additionalContext; AfterTool's
//     hookSpecificOutput.additionalContext is appended to the tool's
//     result for the model, as "<hook_context>...</hook_context>"
//     (executeToolWithHooks), and the AfterTool input's tool_input is the
//     rewritten one.
//   - run_shell_command runs `bash -c SCRIPT` on Linux and macOS
//     (getShellConfiguration), whatever $SHELL is, the command inside a
//     subshell of SCRIPT; it refuses a command holding $(), backticks or
//     process substitution before running it.
//   - Hooks run with GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR set to the
//     session's cwd. Registration: "hooks"."BeforeTool" in
//     .gemini/settings.json or ~/.gemini/settings.json, Claude Code's
//     matcher-group shape, "timeout" in milliseconds. Project settings,
//     hooks included, are read only in a trusted folder (folder trust is
//     on by default in 0.61.0; GEMINI_CLI_TRUST_WORKSPACE=true trusts the
//     folder; --skip-trust drops the project's hooks, see
//     testdata/hosts/gemini/README.md).

import (
	"fmt"
	"strings"

	"github.com/safezonehq/safezone/policy"
)

// Gemini is Gemini CLI's protocol (see the facts above). A rewritten
// command goes in hookSpecificOutput.tool_input, with allow, ask or no
// decision; never with a deny. The model is told of the rewrite after the
// tool ran: safezone is also registered for AfterTool, where its output
// (Event "AfterTool") is only additionalContext. A deny forced by an error
// exits 2 with the deny also on stdout; nothing ever exits 1, which Gemini
// treats as "run the tool".
type Gemini struct{}

func (Gemini) Name() string                      { return "gemini" }
func (Gemini) Decode(data []byte) (*Call, error) { return DecodeGemini(data) }

// RewritesShell reports that Gemini CLI runs a rewritten shell command
// (hookSpecificOutput.tool_input, see the facts above).
func (Gemini) RewritesShell() bool { return true }

// CommandShell is ShellBash: Gemini CLI runs run_shell_command with bash.
func (Gemini) CommandShell() CommandShell { return ShellBash }

func (Gemini) Encode(o Output) ([]byte, int) {
	if o.Event == "AfterTool" && o.Decision == policyAbstain {
		if o.Context == "" {
			return []byte("{}\n"), 0
		}
		b := []byte(`{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":`)
		b = appendJSONString(b, o.Context)
		return append(b, "}}\n"...), 0
	}
	var decision, reason, msg string
	switch o.Decision {
	case policyAbstain:
	case policyAllow:
		decision = "allow"
	case policyAsk:
		decision, reason, msg = "ask", o.Reason, o.Reason
	default:
		decision, reason = "deny", o.Reason
		if reason == "" {
			reason = "denied by safezone"
		}
	}
	if o.Warning != "" {
		msg = joinNonEmpty(msg, o.Warning)
	}
	b := make([]byte, 0, 128+len(reason)+len(msg)+len(o.UpdatedInput))
	b = append(b, '{')
	b = appendField(b, "decision", decision)
	b = appendField(b, "reason", reason)
	b = appendField(b, "systemMessage", msg)
	if o.UpdatedInput != nil && decision != "deny" {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
		b = append(b, `"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":`...)
		b = append(b, o.UpdatedInput...)
		b = append(b, '}')
	}
	b = append(b, "}\n"...)
	code := 0
	if o.Error && decision == "deny" {
		code = 2
	}
	return b, code
}

// appendField appends "key":value to an object being written, with a comma
// when it is not the first member; an empty value is left out.
func appendField(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = appendJSONString(b, key)
	b = append(b, ':')
	return appendJSONString(b, value)
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// DecodeGemini decodes Gemini CLI's BeforeTool hook input (see the facts at
// the top of this file) with [DecodeClaude]'s strictness: tool_name,
// tool_input (an object) and an absolute cwd are required;
// hook_event_name, when present, must be "BeforeTool", or "AfterTool":
// the call then only carries the tool's name, cwd and, for
// run_shell_command, the command as it ran (Call.Event "AfterTool"; it is
// not judged). Tools map to families in [geminiTools]. Every error is an
// [*InputError].
func DecodeGemini(data []byte) (*Call, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	c := &Call{Host: "gemini"}
	if c.Event, err = o.event("hook_event_name", true, "BeforeTool", "AfterTool"); err != nil {
		return nil, err
	}
	if c.Event == "AfterTool" {
		return decodeGeminiAfter(o, c)
	}
	err = o.optionalStrings(strField{"session_id", &c.SessionID}, strField{"transcript_path", &c.TranscriptPath},
		strField{"timestamp", nil}, strField{"original_request_name", nil})
	if err != nil {
		return nil, err
	}
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
	var server, mcpName string
	if o.has("mcp_context") && o.v.get("mcp_context").kind != jNull {
		mc, err := o.object("mcp_context")
		if err != nil {
			return nil, err
		}
		if server, _, err = mc.str("server_name", false); err != nil {
			return nil, err
		}
		if mcpName, _, err = mc.str("tool_name", false); err != nil {
			return nil, err
		}
	}
	if err := geminiTool(c, ti, server, mcpName); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeGeminiAfter decodes the AfterTool input: the tool's name, cwd and,
// for run_shell_command, tool_input.command.
func decodeGeminiAfter(o obj, c *Call) (*Call, error) {
	var err error
	if c.Tool, err = o.toolName("tool_name"); err != nil {
		return nil, err
	}
	if c.Cwd, err = o.cwd("cwd"); err != nil {
		return nil, err
	}
	if c.Tool != "run_shell_command" {
		return c, nil
	}
	ti, err := o.object("tool_input")
	if err != nil {
		return nil, err
	}
	c.Kind = KindShell
	c.Command, _, err = ti.str("command", false)
	return c, err
}

// geminiTool judges a call by [geminiTools]. A tool no row names is an MCP
// tool when its name starts with "mcp_": it is named
// mcp__<server>__<tool> when mcp_context gives both parts (server,
// mcpName), and judged as a write unless mcpName says it only reads. Any
// other tool has no schema.
func geminiTool(c *Call, ti obj, server, mcpName string) error {
	if r := lookupTool(geminiTools, c.Tool); r != nil {
		return r.judgeCall(c, toolInput{ti: ti, name: c.Tool})
	}
	if strings.HasPrefix(c.Tool, "mcp_") {
		if server != "" && mcpName != "" {
			c.Tool = "mcp__" + server + "__" + mcpName
		}
		return mcpTool(c, ti, mcpName)
	}
	return otherTool(c, ti)
}

// geminiTools is Gemini CLI's tool table: Gemini tool name, safezone
// family (the name rules and explain use), and what is judged.
//
//	read_file           Read   file_path
//	write_file          Write  file_path
//	replace             Edit   file_path
//	list_directory      LS     dir_path
//	glob                Glob   dir_path (or cwd) and pattern
//	grep_search         Grep   dir_path (or cwd) and include_pattern
//	search_file_content        (legacy name of grep_search)
//	read_many_files     Read   each include: its directory, and its files
//	                           as a pattern checked against deny and ask
//	run_shell_command   Bash   command, run in dir_path (or cwd)
//	web_fetch           WebFetch
//	google_web_search   WebSearch
//	mcp_<server>_<tool> MCP    mcp__<server>__<tool> when mcp_context
//	                           names both parts; path-named fields
//	anything else       other  path-named fields still judged
var geminiTools = []toolRule{
	{names: []string{"read_file"}, as: "Read", judge: judgeFile, kind: KindRead, fields: []string{"file_path"}},
	{names: []string{"write_file"}, as: "Write", judge: judgeFile, kind: KindWrite, fields: []string{"file_path"}},
	{names: []string{"replace"}, as: "Edit", judge: judgeFile, kind: KindWrite, fields: []string{"file_path"}},
	{names: []string{"list_directory"}, as: "LS", judge: judgeFile, kind: KindRead, fields: []string{"dir_path"}},
	{names: []string{"glob"}, as: "Glob", judge: judgeGlob, fields: []string{"pattern", "dir_path"}},
	{names: []string{"grep_search", "search_file_content"}, as: "Grep", judge: judgeSearch, fields: []string{"pattern", "include_pattern", "dir_path"}},
	{names: []string{"read_many_files"}, as: "Read", judge: judgeReadMany},
	{names: []string{"run_shell_command"}, as: "Bash", judge: judgeShell, kind: KindShell, fields: []string{"dir_path"}},
	{names: []string{"web_fetch"}, as: "WebFetch", judge: judgeNone},
	{names: []string{"google_web_search"}, as: "WebSearch", judge: judgeNone},
}

// judgeReadMany judges Gemini's read_many_files: each include entry is a
// path or a glob relative to the cwd. A literal path is read as a path; a
// glob reads the directory before its first wildcard, and the files it
// selects are a pattern target that deny and ask rules are checked
// against (as for Grep's glob). A ".." after the first wildcard is refused:
// which files it reaches cannot be known. exclude entries only narrow the
// selection and are not judged.
func judgeReadMany(c *Call, in toolInput, _ *toolRule) error {
	ti := in.ti
	includes, ok, err := ti.pathList("include")
	if err != nil {
		return err
	}
	if !ok || len(includes) == 0 {
		return &InputError{Field: ti.name("include"), Err: ErrMissing}
	}
	if _, _, err := ti.pathList("exclude"); err != nil {
		return err
	}
	c.Kind = KindGrep
	for i, inc := range includes {
		field := fmt.Sprintf("include[%d]", i)
		dir, rest := splitGlob(inc)
		if rest == "" {
			c.Args = append(c.Args, Arg{Field: field, Value: inc, Access: policy.Read})
			continue
		}
		for _, el := range strings.Split(rest, "/") {
			if el == ".." {
				return &InputError{Field: ti.name(field), Err: fmt.Errorf("%w: %q has \"..\" after a wildcard; which files it reads cannot be known: name the directory instead", ErrValue, inc)}
			}
		}
		value := dir
		if dir == "" {
			value = c.Cwd
		}
		c.Args = append(c.Args, Arg{Field: field, Value: value, Access: policy.Read},
			Arg{Field: field, Value: rest, Access: policy.Read, Kind: ArgFilter, Base: dir})
	}
	return nil
}

// splitGlob splits a glob at its first path element holding a wildcard
// (*, ?, [ or {): dir is the literal directory before it ("" when the glob
// starts with a wildcard, "/" for the root), rest the pattern after it ("",
// when there is no wildcard at all).
func splitGlob(g string) (dir, rest string) {
	els := strings.Split(g, "/")
	for i, el := range els {
		if strings.ContainsAny(el, "*?[{") {
			dir = strings.Join(els[:i], "/")
			if dir == "" && strings.HasPrefix(g, "/") {
				dir = "/"
			}
			return dir, strings.Join(els[i:], "/")
		}
	}
	return g, ""
}
