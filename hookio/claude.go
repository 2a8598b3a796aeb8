package hookio

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/safezonehq/safezone/policy"
)

// MaxInput caps the hook's stdin at 32 MiB. Claude Code sends the whole tool
// input, and a Write's content can be large, but nothing legitimate comes
// near this; past it the input is refused rather than read without bound.
const MaxInput = 32 << 20

// maxPathLen bounds a single path string (PATH_MAX on Linux is 4,096 bytes;
// the resolver enforces that, this only keeps absurd input out early).
const maxPathLen = 1 << 16

// ReadInput reads at most MaxInput bytes from r and strips a leading UTF-8
// byte order mark. Reading more than MaxInput is an error.
func ReadInput(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, &InputError{Err: fmt.Errorf("cannot read stdin: %w", err)}
	}
	if len(data) > MaxInput {
		return nil, &InputError{Err: fmt.Errorf("%w: stdin is over %d bytes", ErrTooLarge, MaxInput)}
	}
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), nil
}

// DecodeClaude decodes Claude Code's PreToolUse hook input (hooks reference,
// "PreToolUse input"; fields seen from 2.1.330: session_id, transcript_path,
// cwd, prompt_id, permission_mode, effort, hook_event_name, tool_name,
// tool_input, tool_use_id).
//
// Unknown fields are ignored, at the top level and in tool_input, since the
// host keeps adding them. Everything safezone relies on is strict: the input
// must be valid UTF-8 and one JSON object; duplicate keys and keys that
// differ only in case are refused at every level; tool_name (a non-empty
// string), tool_input (an object) and cwd (an absolute path) are required;
// known fields must have their documented types; paths may not be empty,
// hold NUL bytes or start with "~user". A permission_mode that is absent or
// unknown is "default". hook_event_name, when present, must be "PreToolUse".
// Every error is an [*InputError].
func DecodeClaude(data []byte) (*Call, error) {
	o, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	c := &Call{Host: "claude"}
	if c.Event, _, err = o.str("hook_event_name", false); err != nil {
		return nil, err
	}
	if c.Event != "" && c.Event != "PreToolUse" {
		return nil, &InputError{Field: "hook_event_name", Err: fmt.Errorf("%w: %q; safezone is a PreToolUse hook (register it under \"PreToolUse\")", ErrValue, c.Event)}
	}
	err = o.optionalStrings(strField{"session_id", &c.SessionID}, strField{"transcript_path", &c.TranscriptPath},
		strField{"tool_use_id", &c.ToolUseID}, strField{"permission_mode", &c.RawPermissionMode})
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
	if err := claudeTool(c, ti); err != nil {
		return nil, err
	}
	return c, nil
}

func checkCwd(cwd string) error {
	switch {
	case cwd == "":
		return &InputError{Field: "cwd", Err: fmt.Errorf("%w: empty", ErrValue)}
	case strings.ContainsRune(cwd, 0):
		return &InputError{Field: "cwd", Err: fmt.Errorf("%w: contains a NUL byte", ErrValue)}
	case !isAbs(cwd):
		return &InputError{Field: "cwd", Err: fmt.Errorf("%w: %q is not absolute; relative paths could not be resolved", ErrValue, cwd)}
	}
	return nil
}

// claudeTool fills Kind, Writes, Args and Command from tool_input, by
// [claudeTools]. A tool no row names is an MCP tool when named
// mcp__<server>__<tool>; any other tool has no family and no targets: its
// fields are not judged.
func claudeTool(c *Call, ti obj) error {
	if r := lookupTool(claudeTools, c.Tool); r != nil {
		return r.judgeCall(c, toolInput{ti: ti, name: c.Tool})
	}
	if IsMCP(c.Tool) {
		return mcpTool(c, ti, c.Tool)
	}
	return nil
}

// claudeTools is Claude Code's tool table (the tool schemas of Claude Code
// 2.1.330): tool name, family, what is judged.
//
//	Read              Read        file_path
//	Write, Edit,      Write       file_path
//	MultiEdit
//	NotebookEdit      Write       notebook_path
//	LS                Read        path
//	Glob              Glob        path (or cwd) and pattern
//	Grep              Grep        path (or cwd) and glob
//	Bash              Bash        command
//	PowerShell        PowerShell  command (not parsed)
//	mcp__s__t         MCP         path-named fields
var claudeTools = []toolRule{
	{names: []string{"Read"}, judge: judgeFile, kind: KindRead, fields: []string{"file_path"}},
	{names: []string{"Write", "Edit", "MultiEdit"}, judge: judgeFile, kind: KindWrite, fields: []string{"file_path"}},
	{names: []string{"NotebookEdit"}, judge: judgeFile, kind: KindWrite, fields: []string{"notebook_path"}},
	{names: []string{"LS"}, judge: judgeFile, kind: KindRead, fields: []string{"path"}},
	{names: []string{"Glob"}, judge: judgeClaudeGlob},
	{names: []string{"Grep"}, judge: judgeClaudeGrep},
	{names: []string{"Bash"}, judge: judgeClaudeBash, kind: KindShell},
	{names: []string{"PowerShell"}, judge: judgeShell, kind: KindPowerShell},
}

// judgeClaudeBash judges Claude Code's Bash: the command, and whether the
// call asks to run outside Claude Code's own sandbox
// (dangerouslyDisableSandbox: true; Claude Code 2.1.330's Bash input).
func judgeClaudeBash(c *Call, in toolInput, r *toolRule) error {
	if v := in.ti.v.get("dangerouslyDisableSandbox"); v != nil && v.kind == jBool && v.str == "t" {
		c.LeaveHostSandbox = true
	}
	return judgeShell(c, in, r)
}

// judgeClaudeGlob judges Claude Code's Glob: the directory path (a string;
// the cwd without it) is read, and pattern, required, is a glob relative
// to it.
func judgeClaudeGlob(c *Call, in toolInput, _ *toolRule) error {
	ti := in.ti
	pattern, _, err := ti.str("pattern", true)
	if err != nil {
		return err
	}
	if err := checkPathString("tool_input.pattern", pattern); err != nil {
		return err
	}
	base, ok, err := ti.path("path", false)
	if err != nil {
		return err
	}
	c.Kind = KindGlob
	c.Args = []Arg{dirArg(base, ok, c.Cwd), {Field: "pattern", Value: pattern, Access: policy.Read, Kind: ArgGlob, Base: base}}
	return nil
}

// judgeClaudeGrep judges Claude Code's Grep: pattern is required, the
// directory path (a string; the cwd without it) is read, and glob, when
// given, filters the files read below it.
func judgeClaudeGrep(c *Call, in toolInput, _ *toolRule) error {
	ti := in.ti
	if _, _, err := ti.str("pattern", true); err != nil {
		return err
	}
	base, ok, err := ti.path("path", false)
	if err != nil {
		return err
	}
	c.Kind = KindGrep
	c.Args = []Arg{dirArg(base, ok, c.Cwd)}
	glob, ok, err := ti.str("glob", false)
	if err != nil {
		return err
	}
	if ok && glob != "" {
		if err := checkPathString("tool_input.glob", glob); err != nil {
			return err
		}
		c.Args = append(c.Args, Arg{Field: "glob", Value: glob, Access: policy.Read, Kind: ArgFilter, Base: base})
	}
	return nil
}

// dirArg is the directory a Glob or Grep searches: path, or cwd without it.
func dirArg(base string, given bool, cwd string) Arg {
	if !given {
		return Arg{Field: "cwd", Value: cwd, Access: policy.Read}
	}
	return Arg{Field: "path", Value: base, Access: policy.Read}
}

// obj is a decoded JSON object with typed accessors that report errors as
// *InputError naming the field.
type obj struct {
	v      *jvalue
	prefix string
}

func (o obj) name(key string) string {
	if o.prefix == "" {
		return key
	}
	return o.prefix + "." + key
}

// str returns a string field. A missing field is an error when required; a
// JSON null counts as missing.
func (o obj) str(key string, required bool) (string, bool, error) {
	v := o.v.get(key)
	if v == nil || v.kind == jNull {
		if required {
			return "", false, &InputError{Field: o.name(key), Err: ErrMissing}
		}
		return "", false, nil
	}
	if v.kind != jString {
		return "", false, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: want a string, got %s", ErrType, v.describe())}
	}
	return v.str, true, nil
}

// path returns a string field that names a path, checked by checkPathString.
func (o obj) path(key string, required bool) (string, bool, error) {
	s, ok, err := o.str(key, required)
	if err != nil || !ok {
		return s, ok, err
	}
	return s, true, checkPathString(o.name(key), s)
}

func (o obj) object(key string) (obj, error) {
	v := o.v.get(key)
	if v == nil || v.kind == jNull {
		return obj{}, &InputError{Field: o.name(key), Err: ErrMissing}
	}
	if v.kind != jObject {
		return obj{}, &InputError{Field: o.name(key), Err: fmt.Errorf("%w: want an object, got %s", ErrType, v.describe())}
	}
	return obj{v: v, prefix: o.name(key)}, nil
}

// checkPathString refuses paths no file tool could mean: empty, with a NUL
// byte (the kernel would cut the path there, so string checks and syscalls
// would disagree), absurdly long, or "~user/..." (safezone only expands the
// current user's home).
func checkPathString(field, s string) error {
	switch {
	case s == "":
		return &InputError{Field: field, Err: fmt.Errorf("%w: empty path", ErrValue)}
	case strings.ContainsRune(s, 0):
		return &InputError{Field: field, Err: fmt.Errorf("%w: path contains a NUL byte", ErrValue)}
	case len(s) > maxPathLen:
		return &InputError{Field: field, Err: fmt.Errorf("%w: path is %d bytes long", ErrValue, len(s))}
	case strings.HasPrefix(s, "~") && s != "~" && !strings.HasPrefix(s, "~/"):
		return &InputError{Field: field, Err: fmt.Errorf("%w: %q: ~user paths are not supported; use an absolute path", ErrValue, s)}
	}
	return nil
}

func isAbs(p string) bool {
	if strings.HasPrefix(p, "/") {
		return true
	}
	// Windows: C:\x or C:/x, or a UNC path.
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && unicode.IsLetter(rune(p[0])) {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

// IsMCP reports whether tool names an MCP tool ("mcp__server__tool").
func IsMCP(tool string) bool {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	return ok && strings.Contains(rest, "__")
}

// mcpKey is what a tool_input key of an MCP tool says of its string
// values (mcpKeyOf).
type mcpKey uint8

const (
	keyNone   mcpKey = iota // judged by the value's shape only
	keyPath                 // a path, read or written as the tool's name says
	keyOutput               // a path the tool writes, whatever its name says
	keyURI                  // a URI: a path when it is a file: URL or looks like a path
	keyText                 // text (content, body): a path by its shape alone is only read
)

// mcpKeyOf classifies a tool_input key of an MCP tool, compared after
// lower-casing and dropping "_" and "-" ("file_path", "filePath",
// "output-dir"). A switch, not a map, so that it costs nothing at start-up.
func mcpKeyOf(k string) mcpKey {
	switch k {
	case "path", "paths", "filepath", "filepaths", "file", "files", "filename", "filenames",
		"directory", "directories", "dir", "dirpath", "folder", "source", "sources",
		"src", "target", "targetpath", "sourcepath", "oldpath", "cwd", "root", "workdir", "workingdirectory",
		"notebookpath", "inputpath", "inputfile", "location", "rootpath", "rootdir", "workspacefolder",
		"workspaceroot", "projectpath", "projectdir", "projectroot", "basedir", "basepath", "infile",
		"configfile", "configpath", "targetdir", "targetfile":
		return keyPath
	case "destination", "dst", "dest", "destinationpath", "destdir", "destpath", "newpath", "output", "outputpath",
		"outputfile", "outputdir", "outputdirectory", "out", "outfile", "outdir", "outpath", "savepath", "saveto",
		"savedir", "downloadpath", "downloaddir", "logfile":
		return keyOutput
	case "uri", "uris", "url", "urls", "resource", "resources", "resourceuri", "href", "link", "fileuri", "fileurl",
		"documenturi":
		return keyURI
	case "content", "contents", "text", "body", "data", "code", "script", "message", "description", "comment",
		"query", "prompt", "oldstring", "newstring", "oldtext", "newtext", "patch", "diff", "title":
		return keyText
	}
	return keyNone
}

// maxMCPArgs bounds the paths taken from one MCP tool's input, each
// resolved on the disk: a larger input is refused (fail closed), as is an
// input that nests deeper than maxDepth.
const maxMCPArgs = 4096

// mcpWalk collects the paths of an MCP tool's input (mcpArgs).
type mcpWalk struct {
	access policy.Access // the tool's: a write when its name says it may change something
	writes bool          // the tool's name has a word that names a change
	out    []Arg
}

// mcpArgs collects the paths of an MCP tool's input, at any depth, in key
// order: string values under path-named keys (and in arrays under such a
// key), values of URI keys that are file: URLs or paths, and any string
// that is a file: URL, starts with "~/", or is an absolute path, whatever
// its key (Arg.Loose). The paths of output keys are written; the others
// are read or written as the tool's name says (access; a path found by its
// shape alone is written only when the name has a word of change, writes).
// In a JSON Patch operation (RFC 6902: "op" add, remove, replace, move,
// copy or test), "path" and "from" are JSON pointers, not files. The depth
// is bounded by the hook input's own nesting limit (maxDepth), not here: a
// path nested deeper than some walk limit would otherwise slip through.
func mcpArgs(v *jvalue, at string, access policy.Access, writes bool) ([]Arg, error) {
	w := &mcpWalk{access: access, writes: writes}
	if err := w.object(v, at); err != nil {
		return nil, err
	}
	return w.out, nil
}

// object walks the keys of an object.
func (w *mcpWalk) object(v *jvalue, at string) error {
	patch := isJSONPatchOp(v)
	for _, i := range sortedKeys(v.keys) {
		key := v.keys[i]
		field := key
		if at != "" {
			field = at + "." + key
		}
		kind := mcpKeyOf(normKey(key))
		if patch && (key == "path" || key == "from") {
			kind = keyNone
			if v.vals[i].kind == jString {
				continue // a JSON pointer
			}
		}
		if err := w.value(v.vals[i], field, kind); err != nil {
			return err
		}
	}
	return nil
}

// value collects the paths in one value: a string by its key's kind and
// its shape; objects and arrays are walked, an array's items under the
// array's key.
func (w *mcpWalk) value(val *jvalue, field string, kind mcpKey) error {
	switch val.kind {
	case jString:
		return w.str(val.str, field, kind)
	case jArray:
		for j, it := range val.items {
			if err := w.value(it, fmt.Sprintf("%s[%d]", field, j), kind); err != nil {
				return err
			}
		}
	case jObject:
		return w.object(val, field)
	}
	return nil
}

// str collects a string value when its key or its shape makes it a path.
func (w *mcpWalk) str(s, field string, kind mcpKey) error {
	p, isURL := fileURLPath(s)
	shaped := isURL || strings.HasPrefix(s, "~/") || isAbs(s) && len(s) > 1 && !strings.ContainsAny(s, "\n\r")
	access := w.access
	switch {
	case kind == keyOutput:
		access = policy.Write
	case kind == keyPath:
	case shaped && (kind == keyText || kind == keyNone && !w.writes):
		access = policy.Read
	case !shaped:
		return nil // a URI of another scheme, or text
	}
	if !isURL {
		p = s
	}
	if err := checkPathString("tool_input."+field, p); err != nil {
		return err
	}
	if len(w.out) >= maxMCPArgs {
		return &InputError{Field: "tool_input", Err: fmt.Errorf("%w: more than %d paths", ErrValue, maxMCPArgs)}
	}
	w.out = append(w.out, Arg{Field: field, Value: p, Access: access, Loose: true})
	return nil
}

// fileURLPath returns the path a file: URL names (RFC 8089): the URL's
// path, percent-escapes decoded, whatever its host (localhost or empty on
// a POSIX system; any other is judged by its path too, the stricter
// reading); false when s is no file: URL. A URL whose escapes are invalid
// keeps its path as written.
func fileURLPath(s string) (string, bool) {
	if len(s) < 7 || !strings.EqualFold(s[:7], "file://") && !(strings.EqualFold(s[:5], "file:") && strings.HasPrefix(s[5:], "/")) {
		return "", false
	}
	rest := s[5:]
	if strings.HasPrefix(rest, "//") {
		rest = rest[2:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			rest = rest[i:] // the host, "" or "localhost", dropped
		} else {
			rest = "/"
		}
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if p, ok := pathUnescape(rest); ok {
		return p, true
	}
	return rest, true
}

// pathUnescape undoes the percent-escapes of a URL path (RFC 3986 section
// 2.1) as url.PathUnescape does: each "%XX" (two hexadecimal digits) is the
// byte XX, "+" stays; false when a "%" is not followed by two hexadecimal
// digits. (Package net/url's initialisation would cost every hook call.)
func pathUnescape(s string) (string, bool) {
	n := strings.Count(s, "%")
	if n == 0 {
		return s, true
	}
	b := make([]byte, 0, max(len(s)-2*n, 0))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", false
		}
		b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
		i += 2
	}
	return string(b), true
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// isJSONPatchOp reports whether an object is a JSON Patch operation (RFC
// 6902 section 4): an "op" of add, remove, replace, move, copy or test and
// a string "path".
func isJSONPatchOp(v *jvalue) bool {
	op, p := v.get("op"), v.get("path")
	if op == nil || op.kind != jString || p == nil || p.kind != jString {
		return false
	}
	switch op.str {
	case "add", "remove", "replace", "move", "copy", "test":
		return true
	}
	return false
}

func normKey(k string) string {
	k = strings.ToLower(k)
	return strings.NewReplacer("_", "", "-", "").Replace(k)
}

// sortedKeys returns the indexes of keys in key order, so targets come out
// in a stable order whatever order the host sent.
func sortedKeys(keys []string) []int {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && keys[idx[j]] < keys[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	return idx
}

// isWriteWord and isReadWord classify an MCP tool by the words of its name
// (split at "_", "-" and lower-to-upper case changes).
func isWriteWord(w string) bool {
	switch w {
	case "write", "edit", "create", "delete", "remove", "rm", "move", "mv", "rename",
		"copy", "cp", "mkdir", "make", "update", "put", "post", "save", "patch", "append",
		"insert", "replace", "set", "upload", "truncate", "chmod", "chown", "touch", "apply",
		"modify", "change", "overwrite", "add", "new", "clear", "drop", "store", "commit",
		"push", "merge", "archive", "unlink", "link", "symlink", "install", "uninstall",
		"import", "download", "extract", "unzip", "format", "fix", "run", "exec", "execute",
		"shell", "command", "eval", "generate", "export":
		return true
	}
	return false
}

func isReadWord(w string) bool {
	switch w {
	case "read", "get", "list", "ls", "search", "find", "view", "show", "fetch", "query",
		"stat", "info", "describe", "cat", "head", "tail", "grep", "glob", "tree", "open",
		"lookup", "inspect", "check", "diff", "count", "exists", "browse", "preview", "load",
		"directory", "file", "files", "metadata":
		return true
	}
	return false
}

// MCPWrites reports whether an MCP tool may write, from its name: true when
// a word of the tool part names a change (write, edit, create, delete, move,
// ...), false when its words only name reading (read, get, list, search,
// ...). A name with neither counts as a write, the stricter reading.
func MCPWrites(tool string) bool {
	rest := strings.TrimPrefix(tool, "mcp__")
	if _, after, ok := strings.Cut(rest, "__"); ok {
		rest = after
	}
	sawRead := false
	for _, w := range words(rest) {
		if isWriteWord(w) {
			return true
		}
		if isReadWord(w) {
			sawRead = true
		}
	}
	return !sawRead
}

// hasWriteWord reports whether a word of an MCP tool's name (the tool
// part) names a change (isWriteWord).
func hasWriteWord(tool string) bool {
	rest := strings.TrimPrefix(tool, "mcp__")
	if _, after, ok := strings.Cut(rest, "__"); ok {
		rest = after
	}
	for _, w := range words(rest) {
		if isWriteWord(w) {
			return true
		}
	}
	return false
}

// words splits "read_file", "readFile" and "read-file" into lower-case words.
func words(s string) []string {
	var out []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	flush()
	return out
}
