package policy

// The files the hosts' settings make them run, unconfined: derived from
// what each host reads, not from a fixed list (issue 27 item 5).

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// HostCode is one file a host's settings make the host run later, outside
// any confinement: a hook script, a status line command, an MCP server's
// program or script.
type HostCode struct {
	Path string // absolute and clean; it may not exist
	// Why names the setting that runs it and the file that holds it:
	// `hooks.PostToolUse command "bash scripts/format.sh" in
	// /p/.claude/settings.json`.
	Why string
}

// Bounds of [HostCodeFiles]: the commands read from all files, and the
// files derived.
const (
	maxHostCommands = 512
	maxHostCode     = 128
)

// hostSettingsFile is one file [HostCodeFiles] reads: its path, and for
// ~/.claude.json the project whose entry counts.
type hostSettingsFile struct {
	path    string
	project string // ~/.claude.json: the key of projects to read ("" for none)
	tasks   bool   // .vscode/tasks.json: tasks[].command and args
	toml    bool   // Codex's config.toml: mcp_servers and notify
}

// HostCodeFiles returns the files that the hosts' settings at loc register
// to run, each with the setting that does. The files read (through
// loc.ReadFile, so that the hook's policy cache depends on them; a file
// missing, unreadable or not JSON gives nothing) are:
//
//   - Claude Code's settings files ([ClaudeSettingsFiles]; Claude Code
//     2.1.330 settings reference, "Available settings" and "Hooks"):
//     hooks.<event>[].hooks[].command, statusLine.command, apiKeyHelper,
//     awsAuthRefresh, awsCredentialExport, otelHeadersHelper;
//   - MCP servers (mcpServers.<name>.command and args; Claude Code "MCP",
//     scopes): the project's .mcp.json, ~/.claude.json (its user scope,
//     and projects[<project root>] for the local scope, read only when at
//     most [MaxFileSize] bytes), Cursor's .cursor/mcp.json and
//     ~/.cursor/mcp.json, VS Code's .vscode/mcp.json (servers.<name>),
//     Gemini CLI's settings;
//   - the other hosts' hook files that hookio registers in (codex.go,
//     gemini.go, cursor.go): .codex/hooks.json and $CODEX_HOME/hooks.json,
//     .gemini/settings.json and ~/.gemini/settings.json,
//     .cursor/hooks.json and ~/.cursor/hooks.json (any "command" or
//     "bash" string below "hooks");
//   - Copilot CLI's hook files ([HostCodeDirs]: .github/hooks/*.json,
//     ~/.copilot/hooks/*.json: "bash" and "command" below "hooks");
//   - Codex's config.toml, $CODEX_HOME's and the project's .codex/
//     (mcp_servers.<name>.command and args, notify);
//   - VS Code's .vscode/tasks.json (tasks[].command and args: a task may
//     run when the folder opens).
//
// From each command it derives (see commandFiles) the program when its
// first word is a path, and the script an interpreter runs (bash x.sh,
// node x.js, python3 x.py, uv run x.py, deno run x.ts, npx tsx x.ts, go run
// x.go); $CLAUDE_PROJECT_DIR and $HOME expand, a relative path is relative
// to the project root (where the hosts run hooks). Words with other
// expansions are skipped, and so is a path that holds the project root or
// the home directory (node . names the project, not a file). What a derived file runs in turn (a script it
// sources, package.json scripts, node_modules/.bin) is not derived. The
// result is bounded (maxHostCommands commands, maxHostCode files) and has
// no errors: settings safezone cannot read are the host's to report.
func HostCodeFiles(loc Locations) []HostCode {
	var files []hostSettingsFile
	for _, f := range ClaudeSettingsFiles(loc) {
		files = append(files, hostSettingsFile{path: f.Path})
	}
	if loc.ProjectRoot != "" {
		for _, rel := range []string{".mcp.json", ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json", ".cursor/mcp.json", ".vscode/mcp.json"} {
			files = append(files, hostSettingsFile{path: filepath.Join(loc.ProjectRoot, rel)})
		}
		files = append(files, hostSettingsFile{path: filepath.Join(loc.ProjectRoot, ".vscode", "tasks.json"), tasks: true})
	}
	if loc.Home != "" {
		cj := filepath.Join(loc.Home, ".claude.json")
		if dir := loc.ClaudeConfig; dir != "" && dir != filepath.Join(loc.Home, ".claude") {
			// $CLAUDE_CONFIG_DIR moves ~/.claude.json into it.
			cj = filepath.Join(dir, ".claude.json")
		}
		if fi, err := os.Stat(cj); err != nil || fi.Size() <= MaxFileSize {
			files = append(files, hostSettingsFile{path: cj, project: loc.ProjectRoot})
		}
		for _, rel := range []string{".gemini/settings.json", ".cursor/hooks.json", ".cursor/mcp.json"} {
			files = append(files, hostSettingsFile{path: filepath.Join(loc.Home, rel)})
		}
	}
	if dir := loc.codexHome(); dir != "" {
		files = append(files, hostSettingsFile{path: filepath.Join(dir, "hooks.json")},
			hostSettingsFile{path: filepath.Join(dir, "config.toml"), toml: true})
	}
	if loc.ProjectRoot != "" {
		files = append(files, hostSettingsFile{path: filepath.Join(loc.ProjectRoot, ".codex", "config.toml"), toml: true})
	}
	for _, dir := range HostCodeDirs(loc) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		n := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") && e.Type().IsRegular() && n < maxHostDirFiles {
				files = append(files, hostSettingsFile{path: filepath.Join(dir, e.Name())})
				n++
			}
		}
	}
	d := &deriver{loc: loc, seen: map[string]bool{}}
	for _, f := range files {
		data, err := loc.read(f.path)
		if err != nil {
			continue
		}
		d.file(f, data)
	}
	return d.out
}

// maxHostDirFiles bounds the files read from one of HostCodeDirs.
const maxHostDirFiles = 32

// HostCodeDirs are the directories whose *.json files [HostCodeFiles]
// reads, in name order, at most 32 of each: Copilot CLI's (and VS Code's)
// hook files, .github/hooks/ in the project and ~/.copilot/hooks/ (see
// hookio/copilot.go). A cache of what HostCodeFiles returned depends on
// their listing.
func HostCodeDirs(loc Locations) []string {
	var out []string
	if loc.ProjectRoot != "" {
		out = append(out, filepath.Join(loc.ProjectRoot, ".github", "hooks"))
	}
	if loc.Home != "" {
		out = append(out, filepath.Join(loc.Home, ".copilot", "hooks"))
	}
	return out
}

type deriver struct {
	loc      Locations
	out      []HostCode
	seen     map[string]bool
	commands int
}

// file reads the commands of one settings file.
func (d *deriver) file(f hostSettingsFile, data []byte) {
	in := " in " + f.path
	var top map[string]any
	if f.project != "" || strings.HasSuffix(f.path, ".claude.json") {
		d.claudeJSON(f, data, in)
		return
	}
	if f.toml {
		// Codex's configuration reference: mcp_servers.<name>.command and
		// args, and notify (a program and its arguments run on events).
		if toml.Unmarshal(data, &top) != nil {
			return
		}
		d.servers(top["mcp_servers"], "mcp_servers", in)
		if n, ok := top["notify"].([]any); ok && len(n) > 0 {
			if prog, ok := n[0].(string); ok {
				d.taskOrServer(map[string]any{"command": prog, "args": n[1:]}, "notify"+in, false)
			}
		}
		return
	}
	std, err := hujson.Standardize(data)
	if err != nil {
		return
	}
	if json.Unmarshal(std, &top) != nil || top == nil {
		return
	}
	if f.tasks {
		tasks, _ := top["tasks"].([]any)
		for i, t := range tasks {
			if m, ok := t.(map[string]any); ok {
				d.taskOrServer(m, "tasks["+itoa(i)+"]"+in, true)
			}
		}
		return
	}
	d.servers(top["mcpServers"], "mcpServers", in)
	d.servers(top["servers"], "servers", in)
	if h, ok := top["hooks"]; ok {
		d.hooks(h, "hooks", in)
	}
	if sl, ok := top["statusLine"].(map[string]any); ok {
		if c, ok := sl["command"].(string); ok {
			d.shell(c, "statusLine.command", in)
		}
	}
	for _, k := range []string{"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"} {
		if c, ok := top[k].(string); ok {
			d.shell(c, k, in)
		}
	}
}

// claudeJSON reads ~/.claude.json, Claude Code's own state file (plain
// JSON, often hundreds of kilobytes: every project's history): only its
// user-scope mcpServers and the project's entry are decoded, the rest is
// skipped token by token.
func (d *deriver) claudeJSON(f hostSettingsFile, data []byte, in string) {
	if !bytes.Contains(data, []byte(`"mcpServers"`)) {
		return
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if t, err := dec.ReadToken(); err != nil || t.Kind() != '{' {
		return
	}
	for dec.PeekKind() == '"' {
		k, err := dec.ReadToken()
		if err != nil {
			return
		}
		switch k.String() {
		case "mcpServers":
			d.rawServers(dec, "mcpServers", in)
		case "projects":
			if t, err := dec.ReadToken(); err != nil || t.Kind() != '{' {
				return
			}
			for dec.PeekKind() == '"' {
				p, err := dec.ReadToken()
				if err != nil {
					return
				}
				if f.project == "" || p.String() != f.project {
					if dec.SkipValue() != nil {
						return
					}
					continue
				}
				raw, err := dec.ReadValue()
				if err != nil {
					return
				}
				var entry struct {
					MCPServers map[string]any `json:"mcpServers"`
				}
				if json.Unmarshal(raw, &entry) == nil && entry.MCPServers != nil {
					d.servers(entry.MCPServers, "projects["+f.project+"].mcpServers", in)
				}
			}
			if _, err := dec.ReadToken(); err != nil {
				return
			}
		default:
			if dec.SkipValue() != nil {
				return
			}
		}
	}
}

// rawServers decodes the mcpServers value next in dec.
func (d *deriver) rawServers(dec *jsontext.Decoder, where, in string) {
	raw, err := dec.ReadValue()
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		d.servers(m, where, in)
	}
}

// hooks finds every "command" and "bash" string below v, the "hooks" of a
// file (Claude Code, Codex and Gemini CLI: <event>[].hooks[].command;
// Cursor: <event>[].command; Copilot: <event>[].bash), naming each by its
// event.
func (d *deriver) hooks(v any, where, in string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			s, isStr := c.(string)
			switch {
			case isStr && (k == "command" || k == "bash"):
				d.shell(s, where+" "+k, in)
			case where == "hooks":
				d.hooks(c, "hooks."+k, in)
			default:
				d.hooks(c, where, in)
			}
		}
	case []any:
		for _, c := range x {
			d.hooks(c, where, in)
		}
	}
}

// servers reads an mcpServers (or VS Code servers) object: each server's
// command and args.
func (d *deriver) servers(v any, where, in string) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if s, ok := m[name].(map[string]any); ok {
			d.taskOrServer(s, where+"."+name+in, false)
		}
	}
}

// taskOrServer reads a command and its args: an MCP server's (the command
// is a program), or a VS Code task's (a shell command line, unless its
// type is "process").
func (d *deriver) taskOrServer(m map[string]any, where string, task bool) {
	c, ok := m["command"].(string)
	if !ok || c == "" {
		return
	}
	var args []string
	if a, ok := m["args"].([]any); ok {
		for _, x := range a {
			if s, ok := x.(string); ok {
				args = append(args, s)
			} else if o, ok := x.(map[string]any); ok {
				if s, ok := o["value"].(string); ok { // VS Code's quoted arg
					args = append(args, s)
				}
			}
		}
	}
	if !d.count() {
		return
	}
	line := strings.TrimSpace(c + " " + strings.Join(args, " "))
	var words [][]string
	if task && m["type"] != "process" {
		words = shellCommands(c)
		if len(words) > 0 {
			words[len(words)-1] = append(words[len(words)-1], args...)
		}
	} else {
		words = [][]string{append([]string{c}, args...)}
	}
	for _, w := range words {
		d.words(w, where, line)
	}
}

// shell derives the files of a shell command line.
func (d *deriver) shell(cmd, key, in string) {
	if !d.count() {
		return
	}
	for _, w := range shellCommands(cmd) {
		d.words(w, key+in, cmd)
	}
}

func (d *deriver) count() bool {
	d.commands++
	return d.commands <= maxHostCommands
}

// words derives the files of one simple command's words.
func (d *deriver) words(w []string, where, line string) {
	for _, f := range commandFiles(w, 0) {
		p, ok := d.resolve(f)
		if !ok || d.seen[p] || len(d.out) >= maxHostCode {
			continue
		}
		d.seen[p] = true
		// "where" is "key in file", or for a server or task
		// "key.name in file" already.
		key, file, _ := strings.Cut(where, " in ")
		d.out = append(d.out, HostCode{Path: p, Why: key + " " + strconvQuote(line) + " in " + file})
	}
}

// resolve expands $CLAUDE_PROJECT_DIR, $HOME and ~ in the word w and makes
// it absolute (relative to the project root).
func (d *deriver) resolve(w string) (string, bool) {
	for _, v := range []struct{ name, val string }{{"CLAUDE_PROJECT_DIR", d.loc.ProjectRoot}, {"HOME", d.loc.Home}} {
		for _, form := range []string{"${" + v.name + "}", "$" + v.name} {
			if strings.Contains(w, form) {
				if v.val == "" {
					return "", false
				}
				w = strings.ReplaceAll(w, form, v.val)
			}
		}
	}
	if w == "~" || strings.HasPrefix(w, "~/") {
		if d.loc.Home == "" {
			return "", false
		}
		w = d.loc.Home + w[1:]
	}
	if strings.ContainsAny(w, "$`*?[") || w == "" {
		return "", false
	}
	if !filepath.IsAbs(w) {
		if d.loc.ProjectRoot == "" {
			return "", false
		}
		w = filepath.Join(d.loc.ProjectRoot, w)
	}
	w = filepath.Clean(w)
	// Never a directory that holds the project or the home directory
	// (node . runs the project's package.json main): only what a setting
	// names as the file it runs.
	for _, holder := range []string{d.loc.ProjectRoot, d.loc.Home} {
		if holder != "" && (w == holder || w == "/" || strings.HasPrefix(holder, w+"/")) {
			return "", false
		}
	}
	return w, true
}

// interpreters run the script named by their first operand.
var interpreters = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
		"node": true, "nodejs": true, "bun": true, "deno": true, "tsx": true, "ts-node": true,
		"python": true, "python2": true, "python3": true, "pypy": true, "pypy3": true,
		"ruby": true, "perl": true, "php": true, "lua": true, "Rscript": true, "pwsh": true,
		"osascript": true, "uv": true, "go": true, "npx": true, "bunx": true,
	}
})

// pythonVersion matches python3.12 and the like.
var pythonVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^python[0-9.]+$`) })

// prefixes are the commands that run their operand as a command.
var prefixes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"env": true, "exec": true, "command": true, "nohup": true, "nice": true, "time": true, "builtin": true}
})

// scriptExt matches a word that names a script file by its extension.
var scriptExt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.(sh|bash|zsh|js|mjs|cjs|ts|mts|cts|jsx|tsx|py|rb|pl|php|lua|ps1|R|go)$`)
})

// commandFiles returns the words of the simple command w that name files
// it runs: its program when that is a path, and the script operand of an
// interpreter (sh -c recurses into its string, depth-bounded).
func commandFiles(w []string, depth int) []string {
	for len(w) > 0 && (isAssignment(w[0]) || prefixes()[w[0]] || (w[0] != "" && w[0][0] == '-' && len(w) > 1)) {
		w = w[1:]
	}
	if len(w) == 0 || depth > 2 {
		return nil
	}
	var out []string
	prog := w[0]
	if strings.Contains(prog, "/") {
		out = append(out, prog)
	}
	base := filepath.Base(prog)
	if !interpreters()[base] && !pythonVersion().MatchString(base) {
		return out
	}
	args := w[1:]
	// Subcommands that run a script: uv run, deno run, bun run, go run,
	// npx tsx / ts-node.
	needExt := false
	switch base {
	case "uv", "deno", "bun", "go":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 || args[0] != "run" {
			if base != "bun" {
				return out
			}
		} else {
			args = args[1:]
		}
		needExt = true
	case "npx", "bunx":
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 || (args[0] != "tsx" && args[0] != "ts-node") {
			return out
		}
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" && (base == "sh" || base == "bash" || base == "zsh" || base == "dash" || base == "ksh"):
			if i+1 < len(args) {
				for _, c := range shellCommands(args[i+1]) {
					out = append(out, commandFiles(c, depth+1)...)
				}
			}
			return out
		case a == "-c" || a == "-e" || a == "-m" || a == "--eval" || a == "-p" || a == "--print" || a == "-":
			return out // code in the argument, or a module by name
		case a == "--":
			continue
		case strings.HasPrefix(a, "-"):
			continue
		}
		if !needExt || strings.Contains(a, "/") || scriptExt().MatchString(a) {
			out = append(out, a)
		}
		return out
	}
	return out
}

// isAssignment reports whether w is VAR=value.
func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, c := range w[:eq] {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// shellCommands splits a shell command line into its simple commands'
// words: quotes removed, backslashes kept literal outside quotes, split at
// ; & | && || newlines and parentheses. Expansions stay in the words as
// written ("$CLAUDE_PROJECT_DIR"/x.sh is $CLAUDE_PROJECT_DIR/x.sh).
// Redirections are dropped with their target.
func shellCommands(s string) [][]string {
	var out [][]string
	var cur []string
	var word strings.Builder
	inWord := false
	flushWord := func() {
		if inWord {
			cur = append(cur, word.String())
			word.Reset()
			inWord = false
		}
	}
	flushCmd := func() {
		flushWord()
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return out
			}
			word.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					word.WriteByte(s[j])
					continue
				}
				word.WriteByte(s[j])
			}
			inWord = true
			i = j
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				word.WriteByte(s[i])
				inWord = true
			}
		case c == ' ' || c == '\t':
			flushWord()
		case c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')':
			flushCmd()
		case c == '>' || c == '<':
			flushWord()
			// Drop the redirection's target.
			for i+1 < len(s) && (s[i+1] == '>' || s[i+1] == '&' || s[i+1] == '<') {
				i++
			}
			for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') {
				i++
			}
			for i+1 < len(s) && !strings.ContainsRune(" \t;&|\n()", rune(s[i+1])) {
				i++
			}
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			flushCmd()
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flushCmd()
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func strconvQuote(s string) string {
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}
