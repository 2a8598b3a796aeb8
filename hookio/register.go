package hookio

// Registration: the hook entry each host needs, merged into its
// configuration file. The formats and locations are those in each
// adapter's file header (claude: the repository's hooks.json and Claude
// Code's settings files; codex.go; gemini.go; copilot.go and vscode.go;
// cursor.go).

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// hookTimeout is the timeout, in seconds, written for every host: above
// safezone's own 2 s deadline, so the host never times the hook out first.
const hookTimeout = "10"

// claudeMatcher is the matcher of the repository's hooks.json: the file
// tools, Bash and every MCP tool.
const claudeMatcher = "Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|Bash|mcp__.*"

// configFiles are each host's hook configuration files: project-level
// (relative to the project root) and user-level (relative to the home
// directory). Copilot CLI and VS Code share theirs, since both load
// .github/hooks and ~/.copilot/hooks.
func configFiles(host string) (project, user string, err error) {
	switch host {
	case "claude":
		return ".claude/settings.json", ".claude/settings.json", nil
	case "codex":
		return ".codex/hooks.json", ".codex/hooks.json", nil
	case "gemini":
		return ".gemini/settings.json", ".gemini/settings.json", nil
	case "copilot", "vscode":
		return ".github/hooks/safezone.json", ".copilot/hooks/safezone.json", nil
	case "cursor":
		return ".cursor/hooks.json", ".cursor/hooks.json", nil
	case "auto":
		return "", "", errors.New("auto is not a host to register: name the host (" + strings.Join(Hosts()[:len(Hosts())-1], ", ") + ")")
	}
	return "", "", fmt.Errorf("unknown host %q (known: %s)", host, strings.Join(Hosts(), ", "))
}

// ConfigPath returns the host's hook configuration file: project-level
// relative to projectRoot, or user-level under home when user is true.
// (Codex's CODEX_HOME and Copilot's config directory overrides are not
// consulted: the file is under home.)
func ConfigPath(host string, projectRoot, home string, user bool) (string, error) {
	project, userFile, err := configFiles(host)
	if err != nil {
		return "", err
	}
	if user {
		if home == "" {
			return "", errors.New("no home directory to register in")
		}
		return filepath.Join(home, filepath.FromSlash(userFile)), nil
	}
	if projectRoot == "" {
		return "", errors.New("no project root to register in")
	}
	return filepath.Join(projectRoot, filepath.FromSlash(project)), nil
}

// Register merges safezone's hook entry, running command (an absolute path
// plus flags), into existing (the file's bytes; nil or empty when the file
// does not exist) and returns the new file content. Existing keys, their
// order and foreign hooks are kept; a second call with the same command
// changes nothing (no duplicate entry; an older safezone entry is updated in
// place); the host's fail-closed option is set where it has one (Claude
// Code: "onFailure": "block" on the handler, "timeout": 10, matcher
// "Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|Bash|mcp__.*" under
// hooks.PreToolUse, exactly as the repo's hooks.json). Malformed existing
// JSON is an error naming the problem (never overwrite it).
//
// A safezone entry is a handler whose command runs a program named
// safezone (or safezone.exe, or the program of command), after any env
// and VAR=value words. When nothing changes, existing is returned as it
// was; otherwise the file is rewritten with two-space indentation.
//
// Per host (see the adapters for the formats):
//
//	claude   hooks.PreToolUse: {matcher, hooks: [{type, command, timeout 10, onFailure "block"}]}
//	codex    hooks.PreToolUse: {matcher "*", hooks: [{type, command, timeout 10}]}
//	gemini   hooks.BeforeTool: {matcher "*", hooks: [{name "safezone", type, command, timeout 10000}]}
//	copilot, vscode
//	         version 1, hooks.preToolUse (or an existing PreToolUse):
//	         [{type, command, bash, powershell, timeoutSec 10}]
//	cursor   version 1, hooks.preToolUse, beforeShellExecution, beforeReadFile:
//	         [{command, timeout 10, failClosed true}]
//
// Codex, Gemini CLI, Copilot CLI and VS Code have no fail-closed option.
func Register(host string, existing []byte, command string) ([]byte, error) {
	if _, _, err := configFiles(host); err != nil {
		return nil, err
	}
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("the hook command is empty")
	}
	if strings.ContainsAny(command, "\x00\n\r") {
		return nil, errors.New("the hook command holds a NUL byte or a line break")
	}
	root := eobj()
	if len(bytes.TrimSpace(existing)) > 0 {
		var err error
		if root, err = parseEdit(bytes.TrimPrefix(existing, []byte("\xef\xbb\xbf"))); err != nil {
			return nil, fmt.Errorf("existing file is not valid JSON: %w; fix it or move it aside, safezone does not overwrite it", err)
		}
		if root.kind != jObject {
			return nil, fmt.Errorf("existing file holds %s, not a JSON object; fix it or move it aside, safezone does not overwrite it", root.describe())
		}
	}
	before := root.encode()
	ours := isOurs(command)
	var err error
	switch host {
	case "claude":
		err = registerGroups(root, "PreToolUse", eobj(
			"matcher", estr(claudeMatcher),
			"hooks", earr(eobj("type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout), "onFailure", estr("block")))), ours)
	case "codex":
		err = registerGroups(root, "PreToolUse", eobj(
			"matcher", estr("*"),
			"hooks", earr(eobj("type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout)))), ours)
	case "gemini":
		err = registerGroups(root, "BeforeTool", eobj(
			"matcher", estr("*"),
			"hooks", earr(eobj("name", estr("safezone"), "type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout+"000")))), ours)
	case "copilot", "vscode":
		err = registerFlat(root, [][]string{{"preToolUse", "PreToolUse"}},
			eobj("type", estr("command"), "command", estr(command), "bash", estr(command), "powershell", estr(command), "timeoutSec", enum(hookTimeout)), ours)
	case "cursor":
		err = registerFlat(root, [][]string{{"preToolUse"}, {"beforeShellExecution"}, {"beforeReadFile"}},
			eobj("command", estr(command), "timeout", enum(hookTimeout), "failClosed", ebool(true)), ours)
	}
	if err != nil {
		return nil, err
	}
	after := root.encode()
	if len(bytes.TrimSpace(existing)) > 0 && bytes.Equal(before, after) {
		return existing, nil
	}
	return after, nil
}

// isOurs returns the test for a safezone command: its program's base name
// is safezone, safezone.exe, or the base name of command's own program.
func isOurs(command string) func(string) bool {
	mine := programBase(command)
	return func(cmd string) bool {
		p := programBase(cmd)
		return p == "safezone" || p == "safezone.exe" || (p != "" && p == mine)
	}
}

// programBase returns the base name of the program a shell command runs:
// its first word, quotes removed, after "env" and VAR=value words.
func programBase(cmd string) string {
	for _, w := range shellWords(cmd) {
		if w == "env" || w == "exec" || (strings.Contains(w, "=") && !strings.ContainsAny(w, "/\\")) {
			continue
		}
		w = strings.ReplaceAll(w, `\`, "/")
		return path.Base(w)
	}
	return ""
}

// shellWords splits cmd at unquoted blanks, removing single and double
// quotes: enough to find a command's program.
func shellWords(cmd string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// objectAt returns the object member key of n, creating it when missing;
// anything but an object there is an error naming field.
func objectAt(n *enode, key, field string) (*enode, error) {
	v := n.get(key)
	if v == nil {
		v = eobj()
		n.set(key, v)
	}
	if v.kind != jObject {
		return nil, fmt.Errorf("%s: want an object, got %s", field, v.describe())
	}
	return v, nil
}

// arrayAt is objectAt for an array.
func arrayAt(n *enode, key, field string) (*enode, error) {
	v := n.get(key)
	if v == nil {
		v = earr()
		n.set(key, v)
	}
	if v.kind != jArray {
		return nil, fmt.Errorf("%s: want an array, got %s", field, v.describe())
	}
	return v, nil
}

// handlerIsOurs reports whether a handler runs safezone in any of its
// command fields ("command"; Copilot CLI's "bash" and "powershell").
func handlerIsOurs(h *enode, ours func(string) bool) bool {
	for _, k := range []string{"command", "bash", "powershell"} {
		if v := h.get(k); v != nil && v.kind == jString && ours(v.text) {
			return true
		}
	}
	return false
}

// registerGroups merges group (Claude Code's matcher-group shape:
// {matcher, hooks: [handler]}) into hooks.<event>. The first group that
// holds only safezone handlers is updated in place; safezone handlers
// anywhere else are removed (a group left empty goes too); with no such
// group, group is appended.
func registerGroups(root *enode, event string, group *enode, ours func(string) bool) error {
	hooks, err := objectAt(root, "hooks", "hooks")
	if err != nil {
		return err
	}
	field := "hooks." + event
	list, err := arrayAt(hooks, event, field)
	if err != nil {
		return err
	}
	want := group.get("hooks").items[0]
	keeper := -1
	// First pass: validate and find a group that is all safezone.
	for gi, g := range list.items {
		gf := fmt.Sprintf("%s[%d]", field, gi)
		if g.kind != jObject {
			return fmt.Errorf("%s: want an object, got %s", gf, g.describe())
		}
		hs := g.get("hooks")
		if hs == nil {
			continue
		}
		if hs.kind != jArray {
			return fmt.Errorf("%s.hooks: want an array, got %s", gf, hs.describe())
		}
		all, some := true, false
		for hi, h := range hs.items {
			if h.kind != jObject {
				return fmt.Errorf("%s.hooks[%d]: want an object, got %s", gf, hi, h.describe())
			}
			if handlerIsOurs(h, ours) {
				some = true
			} else {
				all = false
			}
		}
		if all && some && keeper < 0 {
			keeper = gi
		}
	}
	// Second pass: keep the keeper's first safezone handler, updated;
	// remove every other.
	kept := false
	var groups []*enode
	for gi, g := range list.items {
		hs := g.get("hooks")
		if hs == nil {
			groups = append(groups, g)
			continue
		}
		var handlers []*enode
		removed := false
		for _, h := range hs.items {
			if !handlerIsOurs(h, ours) {
				handlers = append(handlers, h)
				continue
			}
			if gi == keeper && !kept {
				*h = *cloneNode(want) // its place kept; stale fields (an old matcher or if, another OS's command) gone
				handlers = append(handlers, h)
				kept = true
				continue
			}
			removed = true
		}
		if gi == keeper {
			g.set("matcher", group.get("matcher"))
		}
		if removed && len(handlers) == 0 {
			continue // the group held only safezone handlers
		}
		hs.items = handlers
		groups = append(groups, g)
	}
	if !kept {
		groups = append(groups, group)
	}
	list.items = groups
	return nil
}

// registerFlat merges handler into the hooks.<event> lists of the flat
// shape Copilot CLI and Cursor use ({"version": 1, "hooks": {"<event>":
// [handler]}}). Each element of events is one event under its spellings:
// the first spelling the file already uses is written to (Copilot CLI and
// VS Code read "PreToolUse" as well as "preToolUse"), else the first. The
// first safezone handler found under any spelling is replaced in its place;
// every other is removed; with none, handler is appended. version is set
// to 1 when missing; any other version is an error.
func registerFlat(root *enode, events [][]string, handler *enode, ours func(string) bool) error {
	switch v := root.get("version"); {
	case v == nil:
		root.setFirst("version", enum("1"))
	case v.kind != jNumber || v.text != "1":
		return fmt.Errorf("version: safezone writes version 1 hook files, this one is %s", string(v.appendTo(nil, 0)))
	}
	hooks, err := objectAt(root, "hooks", "hooks")
	if err != nil {
		return err
	}
	for _, spellings := range events {
		target := spellings[0]
		for _, sp := range spellings {
			if hooks.get(sp) != nil {
				target = sp
				break
			}
		}
		kept := false
		for _, event := range spellings {
			if hooks.get(event) == nil && event != target {
				continue
			}
			field := "hooks." + event
			list, err := arrayAt(hooks, event, field)
			if err != nil {
				return err
			}
			var items []*enode
			for i, h := range list.items {
				if h.kind != jObject {
					return fmt.Errorf("%s[%d]: want an object, got %s", field, i, h.describe())
				}
				if !handlerIsOurs(h, ours) {
					items = append(items, h)
					continue
				}
				if !kept {
					*h = *cloneNode(handler) // its place kept; stale fields gone
					items = append(items, h)
					kept = true
				}
			}
			list.items = items
		}
		if !kept {
			list := hooks.get(target)
			list.items = append(list.items, cloneNode(handler))
		}
	}
	return nil
}

// cloneNode copies n deeply, so that one handler value can be written
// under several events.
func cloneNode(n *enode) *enode {
	c := *n
	c.keys = append([]string(nil), n.keys...)
	c.vals = make([]*enode, len(n.vals))
	for i, v := range n.vals {
		c.vals[i] = cloneNode(v)
	}
	c.items = make([]*enode, len(n.items))
	for i, v := range n.items {
		c.items[i] = cloneNode(v)
	}
	return &c
}
