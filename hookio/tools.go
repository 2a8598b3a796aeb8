package hookio

// Tool tables. Each host adapter keeps its tools in a table of toolRule
// rows (claudeTools, codexTools, geminiTools, githubTools, cursorTools):
// the host's names for a tool, the Claude Code name it is judged as, and
// the judge that reads its input, with the fields that judge takes. The
// tables are static data: building them costs nothing at start-up. Tools
// no row names (MCP tools, unknown tools) are handled by each adapter
// after the lookup.

import (
	"slices"

	"github.com/safezonehq/safezone/policy"
)

// toolRule is one row of a host's tool table.
type toolRule struct {
	names []string // the host's names for the tool (case matters)
	as    string   // the Claude Code tool it is judged as ("Read"); "" keeps the host's name
	judge judge    // reads the input into the call
	kind  Kind     // the family, for the judges that serve several (judgeFile, judgeShell)
	// fields are the input fields the judge reads, as its doc says.
	fields []string
	// raw is set when the tool may take free text instead of a JSON object
	// (a Copilot CLI custom tool such as apply_patch): the judge reads it.
	raw bool
}

// toolInput is a tool call's arguments as a judge sees them.
type toolInput struct {
	ti    obj    // the arguments object (empty when isRaw)
	raw   string // the free-text arguments, when isRaw
	isRaw bool
	field string // where the arguments came from, for errors: "toolArgs"
	name  string // the tool name the host sent
}

// judge fills a call's Kind, Writes, Args and Command from its arguments,
// by rule r. Every error is an [*InputError].
type judge func(c *Call, in toolInput, r *toolRule) error

// lookupTool returns the row of table naming tool, or nil.
func lookupTool(table []toolRule, tool string) *toolRule {
	for i := range table {
		if slices.Contains(table[i].names, tool) {
			return &table[i]
		}
	}
	return nil
}

// judgeCall judges c by rule r: c.Tool becomes r.as when that is set, and
// r.judge reads in.
func (r *toolRule) judgeCall(c *Call, in toolInput) error {
	if r.as != "" {
		c.Tool = r.as
	}
	return r.judge(c, in, r)
}

// judgeFile: a file tool of family r.kind (KindRead or KindWrite) on one
// path, whose field has the alternative spellings r.fields (every spelling
// present is judged). The path is required.
func judgeFile(c *Call, in toolInput, r *toolRule) error {
	return fileTool(c, in.ti, r.kind, r.fields...)
}

// judgeShell: a command in the field "command", of family r.kind
// (KindShell, or KindPowerShell, which is not parsed). r.fields[0], when
// given, is the directory the command runs in (see [shellTool]).
func judgeShell(c *Call, in toolInput, r *toolRule) error {
	dir := ""
	if len(r.fields) > 0 {
		dir = r.fields[0]
	}
	return shellTool(c, in.ti, r.kind, dir)
}

// judgeGlob: a Glob whose pattern is the required field r.fields[0]; the
// other fields are the directories searched, each a path or a list of
// paths (the cwd without any).
func judgeGlob(c *Call, in toolInput, r *toolRule) error {
	return globTool(c, in.ti, r.fields[0], r.fields[1:]...)
}

// judgeGrep: a Grep whose glob filter is the field r.fields[0] ("" for
// none); the other fields are the directories searched, each a path or a
// list of paths (the cwd without any).
func judgeGrep(c *Call, in toolInput, r *toolRule) error {
	return grepTool(c, in.ti, r.fields[0], r.fields[1:]...)
}

// judgeSearch: a Grep that requires the string field r.fields[0] (its
// pattern or query), then reads r.fields[1:] as judgeGrep does.
func judgeSearch(c *Call, in toolInput, r *toolRule) error {
	if _, _, err := in.ti.str(r.fields[0], true); err != nil {
		return err
	}
	return grepTool(c, in.ti, r.fields[1], r.fields[2:]...)
}

// judgeReadPaths: a read of every path in the fields r.fields, each a path
// or a list of paths, all optional (VS Code's get_errors,
// list_code_usages, ...).
func judgeReadPaths(c *Call, in toolInput, r *toolRule) error {
	args, err := dirList(in.ti, r.fields...)
	if err != nil {
		return err
	}
	c.Kind, c.Args = KindRead, withAccess(args, policy.Read)
	return nil
}

// judgeNone: a tool that names no files (WebFetch, WebSearch). It has no
// family: the policy and the host decide.
func judgeNone(*Call, toolInput, *toolRule) error { return nil }
