package hookio

// Cursor's native agent hooks. Facts, from the hook runtime Cursor ships in
// @cursor/sdk 1.0.32 (dist/esm/34.js: its "../hooks/dist/index.js" module,
// the local tool executors, and the hook executor); the Cursor hooks
// documentation (cursor.com/docs/agent/hooks) was not reachable to check
// against:
//
//   - Configuration: .cursor/hooks.json and ~/.cursor/hooks.json,
//     {"version": 1, "hooks": {"<event>": [{"command": ..., "timeout":
//     <seconds>, "failClosed": true, "matcher": ...}]}}. With failClosed a
//     hook that crashes, times out, exits non-zero or prints nothing blocks
//     the call; without it such a hook is skipped.
//   - Input, every event: hook_event_name, conversation_id, generation_id,
//     model, cursor_version, workspace_roots (the workspace folders),
//     user_email, transcript_path. Hooks run with CURSOR_PROJECT_DIR and
//     CLAUDE_PROJECT_DIR set to the workspace.
//   - preToolUse: tool_name, tool_input (an object), tool_use_id, and cwd
//     when the agent sends one. Tool names: Shell {command, cwd}, Read
//     {file_path}, Write {file_path, content}, Delete {file_path}, Grep
//     {pattern, file_path, glob, output_mode}, List {file_path, ignore},
//     ReadLints {file_path}, Fetch {url}, WriteShellStdin, FetchMcpResource
//     {server, uri, download_path}, MCP tools as "MCP:<tool>".
//   - beforeShellExecution: command, cwd, sandbox. beforeReadFile:
//     file_path, content, attachments (after the file is read, before the
//     model sees it). beforeMCPExecution: tool_name, tool_input (a JSON
//     string), mcp_server_name, url or command.
//   - Output: {"permission": "allow"|"deny"|"ask", "user_message": ...,
//     "agent_message": ...}; beforeReadFile accepts only allow and deny, and
//     an invalid answer to a permission event blocks the call. Exit 2
//     blocks. In the shipped local executors, preToolUse and
//     beforeMCPExecution act only on "deny": an "ask" there lets the call
//     run; beforeShellExecution acts on "ask" by asking the user.
//
// So an ask is printed as "ask" only where Cursor asks: in
// beforeShellExecution. In preToolUse for the Shell tool, it is left to
// beforeShellExecution (registered alongside, and fail-closed): the answer
// there is {}. Everywhere else an ask becomes a deny whose reason says a
// person must approve.

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// cursorEvent is the event being answered, as Encode needs it.
type cursorEvent uint32

const (
	cursorUnknown      cursorEvent = iota // zero: not decoded (yet)
	cursorPreToolUse                      // preToolUse of any tool but Shell
	cursorPreShell                        // preToolUse of the Shell tool
	cursorShell                           // beforeShellExecution
	cursorReadFile                        // beforeReadFile
	cursorMCPExecution                    // beforeMCPExecution
)

// String names the event as Cursor does.
func (e cursorEvent) String() string {
	switch e {
	case cursorPreToolUse, cursorPreShell:
		return "preToolUse"
	case cursorShell:
		return "beforeShellExecution"
	case cursorReadFile:
		return "beforeReadFile"
	case cursorMCPExecution:
		return "beforeMCPExecution"
	}
	return ""
}

// Cursor is Cursor's protocol (see the facts above). It remembers, from
// Decode, which event it answers, because an ask is printed differently per
// event; until Decode succeeds, an ask is printed as a deny. Every answer
// is JSON on stdout with exit 0, so that even a hook registered without
// failClosed blocks on a deny. Use a fresh value per call ([HostByName]
// returns one).
type Cursor struct{ event atomic.Uint32 }

func (*Cursor) Name() string { return "cursor" }

// Decode decodes a Cursor hook input of the events preToolUse,
// beforeShellExecution, beforeReadFile and beforeMCPExecution (see the
// facts at the top of this file) and remembers the event for Encode.
// hook_event_name is required. workspace_roots, when present, must be
// absolute paths; they become sandbox roots (Call.Roots). The cwd is the
// input's cwd, else the first workspace root; one of them is required.
// Tools map to families in [cursorTool]. Every error is an [*InputError].
func (h *Cursor) Decode(data []byte) (*Call, error) {
	c, ev, err := decodeCursor(data)
	if err != nil {
		return nil, err
	}
	h.event.Store(uint32(ev))
	return c, nil
}

func (h *Cursor) Encode(o Output) ([]byte, int) {
	var permission, msg string
	switch o.Decision {
	case policyAbstain:
	case policyAllow:
		permission = "allow"
	case policyAsk:
		switch ev := cursorEvent(h.event.Load()); ev {
		case cursorShell:
			permission, msg = "ask", o.Reason
		case cursorPreShell:
			// beforeShellExecution, registered alongside, asks.
		default:
			who := "this Cursor hook"
			if ev != cursorUnknown {
				who = "Cursor's " + ev.String() + " hook"
			}
			o = askAsDeny(o, who)
			permission, msg = "deny", o.Reason
		}
	default:
		permission, msg = "deny", o.Reason
		if msg == "" {
			msg = "denied by safezone"
		}
	}
	b := make([]byte, 0, 64+2*len(msg)+len(o.Warning))
	b = append(b, '{')
	b = appendField(b, "permission", permission)
	b = appendField(b, "user_message", msg)
	b = appendField(b, "agent_message", msg)
	b = appendField(b, "additional_context", o.Warning)
	return append(b, "}\n"...), 0
}

// decodeCursor decodes a Cursor hook input (see [Cursor.Decode]) and tells
// the event.
func decodeCursor(data []byte) (*Call, cursorEvent, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, 0, err
	}
	c := &Call{Host: "cursor"}
	if c.Event, err = o.event("hook_event_name", false, "preToolUse", "beforeShellExecution", "beforeReadFile", "beforeMCPExecution"); err != nil {
		return nil, 0, err
	}
	err = o.optionalStrings(strField{"conversation_id", &c.SessionID}, strField{"transcript_path", &c.TranscriptPath},
		strField{"tool_use_id", &c.ToolUseID}, strField{"generation_id", nil}, strField{"model", nil},
		strField{"cursor_version", nil}, strField{"user_email", nil}, strField{"session_id", nil})
	if err != nil {
		return nil, 0, err
	}
	if c.SessionID == "" {
		c.SessionID, _, _ = o.str("session_id", false)
	}
	if err := cursorPlace(c, o); err != nil {
		return nil, 0, err
	}
	ev, err := cursorEventCall(c, o)
	if err != nil {
		return nil, 0, err
	}
	return c, ev, nil
}

// cursorPlace sets the call's Roots, from workspace_roots (absolute paths),
// and its Cwd: the input's cwd when absolute; else the first workspace
// root, moved to a relative cwd; one of them is required.
func cursorPlace(c *Call, o obj) error {
	roots, _, err := o.pathList("workspace_roots")
	if err != nil {
		return err
	}
	for i, r := range roots {
		if !isAbs(r) {
			return &InputError{Field: fmt.Sprintf("workspace_roots[%d]", i), Err: fmt.Errorf("%w: %q is not absolute", ErrValue, r)}
		}
	}
	c.Roots = roots
	cwd, _, err := o.str("cwd", false)
	if err != nil {
		return err
	}
	switch {
	case cwd != "" && isAbs(cwd):
		c.Cwd = cwd
	case len(roots) > 0:
		c.Cwd = roots[0]
		if cwd != "" {
			if err := c.moveCwd("cwd", cwd); err != nil {
				return err
			}
		}
	case cwd != "":
		return &InputError{Field: "cwd", Err: fmt.Errorf("%w: %q is not absolute and there are no workspace_roots to resolve it against", ErrValue, cwd)}
	default:
		return &InputError{Field: "cwd", Err: fmt.Errorf("%w: neither cwd nor workspace_roots is given", ErrMissing)}
	}
	return checkCwd(c.Cwd)
}

// cursorEventCall fills the call from the fields of its event:
// beforeShellExecution's command, beforeReadFile's file_path,
// beforeMCPExecution's tool, preToolUse's tool (see [cursorTools]).
func cursorEventCall(c *Call, o obj) (cursorEvent, error) {
	switch c.Event {
	case "beforeShellExecution":
		c.Tool = "Bash"
		return cursorShell, shellTool(c, o, KindShell, "")
	case "beforeReadFile":
		c.Tool = "Read"
		return cursorReadFile, fileTool(c, o, KindRead, "file_path")
	}
	name, err := o.toolName("tool_name")
	if err != nil {
		return 0, err
	}
	ti, _, _, err := o.objectOrJSON("tool_input", false)
	if err != nil {
		return 0, err
	}
	if c.Event == "beforeMCPExecution" {
		c.Tool = "MCP:" + name
		return cursorMCPExecution, mcpTool(c, ti, name)
	}
	c.Tool = name
	ev := cursorPreToolUse
	if name == "Shell" {
		ev = cursorPreShell
	}
	return ev, cursorTool(c, ti)
}

// cursorTool judges a preToolUse call by [cursorTools]: a tool no row
// names is an MCP tool when named "MCP:<tool>", else a tool without a
// schema.
func cursorTool(c *Call, ti obj) error {
	if r := lookupTool(cursorTools, c.Tool); r != nil {
		return r.judgeCall(c, toolInput{ti: ti, name: c.Tool})
	}
	if name, ok := strings.CutPrefix(c.Tool, "MCP:"); ok {
		return mcpTool(c, ti, name)
	}
	return otherTool(c, ti)
}

// cursorTools is Cursor's preToolUse tool table: Cursor tool name,
// safezone family, what is judged.
//
//	Shell                      Bash   command, run in tool_input.cwd
//	Read, ReadLints            Read   file_path
//	Write                      Write  file_path
//	Edit, StrReplace,          Edit   file_path
//	MultiEdit
//	Delete                     Write  file_path
//	Grep                       Grep   file_path (or cwd), glob
//	List, LS                   LS     file_path / path
//	Fetch, WebFetch            WebFetch
//	WebSearch                  WebSearch
//	FetchMcpResource           Write  download_path, when given
//	MCP:<tool>                 MCP    path-named fields
//	anything else              other  path-named fields still judged
var cursorTools = []toolRule{
	{names: []string{"Shell"}, as: "Bash", judge: judgeShell, kind: KindShell, fields: []string{"cwd"}},
	{names: []string{"Read", "ReadLints"}, as: "Read", judge: judgeFile, kind: KindRead, fields: []string{"file_path", "path"}},
	{names: []string{"Write"}, judge: judgeFile, kind: KindWrite, fields: []string{"file_path", "path"}},
	{names: []string{"Edit", "StrReplace", "MultiEdit"}, as: "Edit", judge: judgeFile, kind: KindWrite, fields: []string{"file_path", "path"}},
	{names: []string{"Delete"}, as: "Write", judge: judgeFile, kind: KindWrite, fields: []string{"file_path", "path"}},
	{names: []string{"Grep"}, judge: judgeGrep, fields: []string{"glob", "file_path", "path"}},
	{names: []string{"List", "LS"}, as: "LS", judge: judgeFile, kind: KindRead, fields: []string{"file_path", "path"}},
	{names: []string{"Fetch", "WebFetch"}, as: "WebFetch", judge: judgeNone},
	{names: []string{"WebSearch"}, judge: judgeNone},
	{names: []string{"FetchMcpResource"}, judge: judgeDownload},
}

// judgeDownload judges Cursor's FetchMcpResource: a write of
// download_path, when given; without it the resource is only read into
// the conversation.
func judgeDownload(c *Call, in toolInput, _ *toolRule) error {
	if !in.ti.has("download_path") {
		return nil
	}
	c.Tool = "Write"
	return fileTool(c, in.ti, KindWrite, "download_path")
}
