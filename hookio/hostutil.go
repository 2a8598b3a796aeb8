package hookio

// Helpers shared by the host adapters other than Claude Code: the strict
// preamble every input goes through, typed access to fields that hosts send
// in more than one shape, and the tool decoders that several hosts reuse
// (a file tool with one path, a glob, a grep, a shell command, a patch).

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/safezonehq/safezone/policy"
)

// decodeTop checks a host's raw input and parses it: it must be valid UTF-8
// and exactly one JSON object, with the same strictness as [DecodeClaude]
// (no duplicate or case-variant keys, no lone surrogates, bounded depth).
func decodeTop(data []byte) (obj, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return obj{}, &InputError{Err: fmt.Errorf("%w: stdin is empty; the host sends one JSON object", ErrMalformed)}
	}
	if !utf8.Valid(data) {
		return obj{}, &InputError{Err: fmt.Errorf("%w: stdin is not valid UTF-8", ErrMalformed)}
	}
	top, err := parseJSON(data)
	if err != nil {
		return obj{}, &InputError{Err: err}
	}
	return obj{v: top}, nil
}

// has reports whether the object has key (matched exactly), null or not.
func (o obj) has(key string) bool { return o.v != nil && o.v.get(key) != nil }

// event reads the event-name field key. It must be one of want; a missing
// field is accepted only when missingOK.
func (o obj) event(key string, missingOK bool, want ...string) (string, error) {
	ev, ok, err := o.str(key, !missingOK)
	if err != nil || !ok {
		return "", err
	}
	for _, w := range want {
		if ev == w {
			return ev, nil
		}
	}
	return "", &InputError{Field: o.name(key), Err: fmt.Errorf("%w: %q; safezone judges tool calls before they run (register it under %s)", ErrValue, ev, strings.Join(quoteAll(want), " or "))}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// strField is an optional string field of a host's input and where its
// value goes (dst nil: the field is checked, not kept).
type strField struct {
	key string
	dst *string
}

// optionalStrings reads optional string fields: each, when present and not
// null, must be a string. A field that is absent leaves its dst as it was.
func (o obj) optionalStrings(fields ...strField) error {
	for _, f := range fields {
		s, ok, err := o.str(f.key, false)
		if err != nil {
			return err
		}
		if f.dst != nil && ok {
			*f.dst = s
		}
	}
	return nil
}

// toolName reads a required, non-empty tool-name field.
func (o obj) toolName(key string) (string, error) {
	name, _, err := o.str(key, true)
	if err != nil {
		return "", err
	}
	if name == "" {
		return "", &InputError{Field: o.name(key), Err: fmt.Errorf("%w: empty", ErrValue)}
	}
	return name, nil
}

// cwd reads a required working directory, which must be absolute.
func (o obj) cwd(key string) (string, error) {
	cwd, _, err := o.str(key, true)
	if err != nil {
		return "", err
	}
	if err := checkCwd(cwd); err != nil {
		if ie, ok := err.(*InputError); ok {
			ie.Field = o.name(key)
		}
		return "", err
	}
	return cwd, nil
}

// pathList reads a field that holds one path or an array of paths (Copilot's
// grep and glob "paths", Gemini's read_many_files "include"). Every element
// is checked by checkPathString.
func (o obj) pathList(key string) ([]string, bool, error) {
	v := o.v.get(key)
	if v == nil || v.kind == jNull {
		return nil, false, nil
	}
	switch v.kind {
	case jString:
		if err := checkPathString(o.name(key), v.str); err != nil {
			return nil, false, err
		}
		return []string{v.str}, true, nil
	case jArray:
		out := make([]string, 0, len(v.items))
		for i, it := range v.items {
			f := fmt.Sprintf("%s[%d]", o.name(key), i)
			if it.kind != jString {
				return nil, false, &InputError{Field: f, Err: fmt.Errorf("%w: want a string, got %s", ErrType, it.describe())}
			}
			if err := checkPathString(f, it.str); err != nil {
				return nil, false, err
			}
			out = append(out, it.str)
		}
		return out, true, nil
	}
	return nil, false, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: want a string or an array of strings, got %s", ErrType, v.describe())}
}

// paths reads the alternative names of one path field
// (hosts renamed fields between versions: "path", "file_path", "filePath").
// Every alternative present is returned, so a call that sends two
// spellings is judged on both.
func (o obj) paths(required bool, keys ...string) ([]Arg, error) {
	var out []Arg
	for _, k := range keys {
		v, ok, err := o.path(k, false)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, Arg{Field: k, Value: v})
		}
	}
	if len(out) == 0 && required {
		return nil, &InputError{Field: o.name(keys[0]), Err: ErrMissing}
	}
	return out, nil
}

// withAccess sets the access of every arg.
func withAccess(args []Arg, a policy.Access) []Arg {
	for i := range args {
		args[i].Access = a
	}
	return args
}

// fileTool fills a call for a built-in tool that reads or writes the paths
// named by keys (alternative spellings of one field).
func fileTool(c *Call, ti obj, kind Kind, keys ...string) error {
	args, err := ti.paths(true, keys...)
	if err != nil {
		return err
	}
	access := policy.Read
	if kind == KindWrite {
		access = policy.Write
	}
	c.Kind, c.Writes, c.Args = kind, kind == KindWrite, withAccess(args, access)
	return nil
}

// globTool fills a Glob-family call: the directories searched (dirs, or the
// cwd without any) and the pattern relative to each.
func globTool(c *Call, ti obj, patternKey string, dirKeys ...string) error {
	pattern, _, err := ti.str(patternKey, true)
	if err != nil {
		return err
	}
	if err := checkPathString(ti.name(patternKey), pattern); err != nil {
		return err
	}
	dirs, err := dirList(ti, dirKeys...)
	if err != nil {
		return err
	}
	c.Kind = KindGlob
	if len(dirs) == 0 {
		c.Args = []Arg{dirArg("", false, c.Cwd), {Field: patternKey, Value: pattern, Access: policy.Read, Kind: ArgGlob}}
		return nil
	}
	for _, d := range dirs {
		c.Args = append(c.Args, Arg{Field: d.Field, Value: d.Value, Access: policy.Read},
			Arg{Field: patternKey, Value: pattern, Access: policy.Read, Kind: ArgGlob, Base: d.Value})
	}
	return nil
}

// grepTool fills a Grep-family call: the directories searched (dirs, or the
// cwd) and, when filterKey is set, the glob filter that selects files.
func grepTool(c *Call, ti obj, filterKey string, dirKeys ...string) error {
	dirs, err := dirList(ti, dirKeys...)
	if err != nil {
		return err
	}
	filter := ""
	if filterKey != "" {
		f, ok, err := ti.str(filterKey, false)
		if err != nil {
			return err
		}
		if ok && f != "" {
			if err := checkPathString(ti.name(filterKey), f); err != nil {
				return err
			}
			filter = f
		}
	}
	c.Kind = KindGrep
	if len(dirs) == 0 {
		dirs = []Arg{{Field: "cwd", Value: c.Cwd}}
	}
	for _, d := range dirs {
		c.Args = append(c.Args, Arg{Field: d.Field, Value: d.Value, Access: policy.Read})
		if filter != "" {
			base := d.Value
			if d.Field == "cwd" {
				base = ""
			}
			c.Args = append(c.Args, Arg{Field: filterKey, Value: filter, Access: policy.Read, Kind: ArgFilter, Base: base})
		}
	}
	return nil
}

// dirList reads the directories a search runs in: every alternative key,
// each a path or a list of paths.
func dirList(ti obj, keys ...string) ([]Arg, error) {
	var out []Arg
	for _, k := range keys {
		list, ok, err := ti.pathList(k)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		for i, p := range list {
			f := k
			if len(list) > 1 || ti.v.get(k).kind == jArray {
				f = fmt.Sprintf("%s[%d]", k, i)
			}
			out = append(out, Arg{Field: f, Value: p})
		}
	}
	return out, nil
}

// shellTool fills a shell call from its command field. When dirKey names a
// working directory for this one command (Gemini's dir_path, Cursor's cwd),
// the call's Cwd moves there, as Claude Code's cwd moves after a cd: the
// command's relative paths are resolved from where it runs. The sandbox
// itself stays anchored at the project ($CLAUDE_PROJECT_DIR, which these
// hosts set for their hooks).
func shellTool(c *Call, ti obj, kind Kind, dirKey string) error {
	cmd, _, err := ti.str("command", true)
	if err != nil {
		return err
	}
	if strings.ContainsRune(cmd, 0) {
		return &InputError{Field: ti.name("command"), Err: fmt.Errorf("%w: contains a NUL byte", ErrValue)}
	}
	c.Kind, c.Command, c.Writes = kind, cmd, true
	if dirKey == "" {
		return nil
	}
	dir, ok, err := ti.path(dirKey, false)
	if err != nil || !ok {
		return err
	}
	return c.moveCwd(ti.name(dirKey), dir)
}

// moveCwd sets the call's Cwd to dir, resolved against the current Cwd
// lexically, as Node's path.resolve does in the hosts that take it.
func (c *Call) moveCwd(field, dir string) error {
	if strings.HasPrefix(dir, "~") {
		return &InputError{Field: field, Err: fmt.Errorf("%w: %q: a working directory starting with ~ is not expanded by the host", ErrValue, dir)}
	}
	if !isAbs(dir) {
		dir = c.Cwd + "/" + dir
	}
	dir = path.Clean(dir)
	if err := checkCwd(dir); err != nil {
		if ie, ok := err.(*InputError); ok {
			ie.Field = field
		}
		return err
	}
	c.Cwd = dir
	return nil
}

// patchTool fills a call that applies an apply_patch patch: a write of
// every file the patch names (see [PatchTargets]).
func patchTool(c *Call, field, patch string) error {
	args, err := patchArgs(field, patch)
	if err != nil {
		return err
	}
	c.Kind, c.Writes, c.Args = KindWrite, true, args
	return nil
}

// patchArgs turns a patch's targets into write Args.
func patchArgs(field, patch string) ([]Arg, error) {
	targets, err := PatchTargets(patch)
	if err != nil {
		return nil, &InputError{Field: field, Err: err}
	}
	args := make([]Arg, 0, len(targets))
	for _, t := range targets {
		f := fmt.Sprintf("%s line %d (%s)", field, t.Line, t.Op)
		if err := checkPathString(f, t.Path); err != nil {
			return nil, err
		}
		args = append(args, Arg{Field: f, Value: t.Path, Access: policy.Write})
	}
	return args, nil
}

// otherTool fills a call for a tool the adapter has no schema for: no
// family (safezone never allows it unless an allow rule names it; inside
// the sandbox the host's own rules decide), but every path-named field in
// its input, at any depth (as for MCP tools), is still a target, so that a
// path outside the sandbox or under a deny rule is caught. Whether those
// paths are read or written is guessed from the tool's name, the stricter
// way when the name says neither (see [MCPWrites]).
func otherTool(c *Call, ti obj) error {
	c.Kind = KindOther
	if ti.v == nil || ti.v.kind != jObject {
		return nil
	}
	access := policy.Read
	if MCPWrites(c.Tool) {
		access = policy.Write
	}
	args, err := mcpArgs(ti.v, "", access, hasWriteWord(c.Tool))
	if err != nil {
		return err
	}
	c.Args = args
	return nil
}

// mcpTool fills a call for an MCP tool named on the host's own terms. name
// is the name judged for read or write words (the tool part only, when the
// host says which part that is).
func mcpTool(c *Call, ti obj, name string) error {
	c.Kind = KindMCP
	c.Writes = MCPWrites(name)
	if ti.v == nil || ti.v.kind != jObject {
		return nil
	}
	access := policy.Read
	if c.Writes {
		access = policy.Write
	}
	args, err := mcpArgs(ti.v, "", access, hasWriteWord(name))
	if err != nil {
		return err
	}
	c.Args = args
	return nil
}

// objectOrJSON returns the object at key, or, when the host sends it as a
// JSON string (Copilot's toolArgs, Cursor's beforeMCPExecution tool_input),
// that string parsed with the same strictness. raw is set instead when the
// string is not JSON and rawOK allows it (a custom tool's free-form input,
// such as a patch).
//
// A missing or null field, or an empty string, is a tool called without
// arguments: an empty object (a file tool then lacks its path, an error).
func (o obj) objectOrJSON(key string, rawOK bool) (ti obj, raw string, isRaw bool, err error) {
	v := o.v.get(key)
	if v == nil || v.kind == jNull {
		return obj{v: &jvalue{kind: jObject}, prefix: o.name(key)}, "", false, nil
	}
	switch v.kind {
	case jObject:
		return obj{v: v, prefix: o.name(key)}, "", false, nil
	case jString:
		s := strings.TrimSpace(v.str)
		if s == "" {
			return obj{v: &jvalue{kind: jObject}, prefix: o.name(key)}, "", false, nil
		}
		if strings.HasPrefix(s, "{") {
			top, perr := parseJSON([]byte(v.str))
			if perr != nil {
				return obj{}, "", false, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: the string holds invalid JSON: %v", ErrValue, perr)}
			}
			return obj{v: top, prefix: o.name(key)}, "", false, nil
		}
		if rawOK {
			return obj{}, v.str, true, nil
		}
		return obj{}, "", false, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: want an object or a JSON object in a string, got %q", ErrValue, clipString(v.str, 60))}
	}
	return obj{}, "", false, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: want an object, got %s", ErrType, v.describe())}
}

func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
