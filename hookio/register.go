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

	"github.com/tailscale/hujson"
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
// hooks.PreToolUse, exactly as the repo's hooks.json). An existing file
// that is not plain JSON (malformed, or with comments or trailing commas;
// see jsonedit.go) is an error naming the problem and its line: it is never
// overwritten.
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
//	gemini   hooks.BeforeTool: {matcher "*", hooks: [{name "safezone", type, command, timeout 10000}]},
//	         hooks.AfterTool: the same with matcher "run_shell_command"
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
		if asObject(&root) == nil {
			return nil, fmt.Errorf("existing file holds %s, not a JSON object; fix it or move it aside, safezone does not overwrite it", describeEdit(&root))
		}
	}
	before := encodeEdit(&root)
	if err := registerHost(host, asObject(&root), command); err != nil {
		return nil, err
	}
	after := encodeEdit(&root)
	if len(bytes.TrimSpace(existing)) > 0 && bytes.Equal(before, after) {
		return existing, nil
	}
	return after, nil
}

// registerHost merges host's entry, running command, into a configuration
// file's top object (see [Register] for the shapes).
func registerHost(host string, root *hujson.Object, command string) error {
	ours := isOurs(command)
	switch host {
	case "claude":
		return registerGroups(root, "PreToolUse", eobj(
			"matcher", estr(claudeMatcher),
			"hooks", earr(eobj("type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout), "onFailure", estr("block")))), ours)
	case "codex":
		return registerGroups(root, "PreToolUse", eobj(
			"matcher", estr("*"),
			"hooks", earr(eobj("type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout)))), ours)
	case "gemini":
		if err := registerGroups(root, "BeforeTool", eobj(
			"matcher", estr("*"),
			"hooks", earr(eobj("name", estr("safezone"), "type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout+"000")))), ours); err != nil {
			return err
		}
		// After a shell command ran, to tell the model it ran confined.
		return registerGroups(root, "AfterTool", eobj(
			"matcher", estr("run_shell_command"),
			"hooks", earr(eobj("name", estr("safezone"), "type", estr("command"), "command", estr(command), "timeout", enum(hookTimeout+"000")))), ours)
	case "copilot", "vscode":
		return registerFlat(root, [][]string{{"preToolUse", "PreToolUse"}},
			eobj("type", estr("command"), "command", estr(command), "bash", estr(command), "powershell", estr(command), "timeoutSec", enum(hookTimeout)), ours)
	case "cursor":
		return registerFlat(root, [][]string{{"preToolUse"}, {"beforeShellExecution"}, {"beforeReadFile"}},
			eobj("command", estr(command), "timeout", enum(hookTimeout), "failClosed", ebool(true)), ours)
	}
	return fmt.Errorf("unknown host %q", host) // configFiles refused it already
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

// objectAt returns the object member key of o, creating it when missing;
// anything but an object there is an error naming field.
func objectAt(o *hujson.Object, key, field string) (*hujson.Object, error) {
	v := member(o, key)
	if v == nil {
		setMember(o, key, eobj())
		v = member(o, key)
	}
	obj := asObject(v)
	if obj == nil {
		return nil, fmt.Errorf("%s: want an object, got %s", field, describeEdit(v))
	}
	return obj, nil
}

// arrayAt is objectAt for an array.
func arrayAt(o *hujson.Object, key, field string) (*hujson.Array, error) {
	v := member(o, key)
	if v == nil {
		setMember(o, key, earr())
		v = member(o, key)
	}
	arr := asArray(v)
	if arr == nil {
		return nil, fmt.Errorf("%s: want an array, got %s", field, describeEdit(v))
	}
	return arr, nil
}

// handlerIsOurs reports whether a handler runs safezone in any of its
// command fields ("command"; Copilot CLI's "bash" and "powershell").
func handlerIsOurs(h *hujson.Object, ours func(string) bool) bool {
	for _, k := range []string{"command", "bash", "powershell"} {
		if v := member(h, k); v != nil {
			if s, ok := asString(v); ok && ours(s) {
				return true
			}
		}
	}
	return false
}

// registerGroups merges group (Claude Code's matcher-group shape:
// {matcher, hooks: [handler]}) into hooks.<event>. The first group that
// holds only safezone handlers is updated in place; safezone handlers
// anywhere else are removed (a group left empty goes too); with no such
// group, group is appended.
func registerGroups(root *hujson.Object, event string, group hujson.Value, ours func(string) bool) error {
	hooks, err := objectAt(root, "hooks", "hooks")
	if err != nil {
		return err
	}
	list, err := arrayAt(hooks, event, "hooks."+event)
	if err != nil {
		return err
	}
	keeper, err := safezoneGroup(list, "hooks."+event, ours)
	if err != nil {
		return err
	}
	g := asObject(&group)
	want := asArray(member(g, "hooks")).Elements[0]
	kept := false
	var groups []hujson.ArrayElement
	for gi := range list.Elements {
		gobj := asObject(&list.Elements[gi])
		hs := member(gobj, "hooks")
		if hs == nil {
			groups = append(groups, list.Elements[gi])
			continue
		}
		handlers := asArray(hs)
		n := len(handlers.Elements)
		var placed bool
		handlers.Elements, placed = keepOne(handlers.Elements, gi == keeper, want, ours)
		kept = kept || placed
		if gi == keeper {
			setMember(gobj, "matcher", member(g, "matcher").Clone())
		}
		if len(handlers.Elements) == 0 && n > 0 {
			continue // the group held only safezone handlers
		}
		groups = append(groups, list.Elements[gi])
	}
	if !kept {
		groups = append(groups, group)
	}
	list.Elements = groups
	return nil
}

// safezoneGroup checks the shape of the matcher groups in list (field
// names it in errors) and returns the index of the first group whose
// handlers all run safezone, or -1.
func safezoneGroup(list *hujson.Array, field string, ours func(string) bool) (int, error) {
	keeper := -1
	for gi := range list.Elements {
		gf := fmt.Sprintf("%s[%d]", field, gi)
		g := asObject(&list.Elements[gi])
		if g == nil {
			return 0, fmt.Errorf("%s: want an object, got %s", gf, describeEdit(&list.Elements[gi]))
		}
		hs := member(g, "hooks")
		if hs == nil {
			continue
		}
		handlers := asArray(hs)
		if handlers == nil {
			return 0, fmt.Errorf("%s.hooks: want an array, got %s", gf, describeEdit(hs))
		}
		all, some := true, false
		for hi := range handlers.Elements {
			h := asObject(&handlers.Elements[hi])
			if h == nil {
				return 0, fmt.Errorf("%s.hooks[%d]: want an object, got %s", gf, hi, describeEdit(&handlers.Elements[hi]))
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
	return keeper, nil
}

// keepOne returns handlers without their safezone handlers, except, when
// keep is set, the first one, replaced by want in its place (stale fields,
// such as an old matcher or another OS's command, go); placed reports
// that. Every handler is an object.
func keepOne(handlers []hujson.ArrayElement, keep bool, want hujson.Value, ours func(string) bool) (out []hujson.ArrayElement, placed bool) {
	for i := range handlers {
		if !handlerIsOurs(asObject(&handlers[i]), ours) {
			out = append(out, handlers[i])
			continue
		}
		if keep && !placed {
			out = append(out, want.Clone())
			placed = true
		}
	}
	return out, placed
}

// registerFlat merges handler into the hooks.<event> lists of the flat
// shape Copilot CLI and Cursor use ({"version": 1, "hooks": {"<event>":
// [handler]}}). Each element of events is one event under its spellings:
// the first spelling the file already uses is written to (Copilot CLI and
// VS Code read "PreToolUse" as well as "preToolUse"), else the first. The
// first safezone handler found under any spelling is replaced in its place;
// every other is removed; with none, handler is appended. version is set
// to 1 when missing; any other version is an error.
func registerFlat(root *hujson.Object, events [][]string, handler hujson.Value, ours func(string) bool) error {
	switch v := member(root, "version"); {
	case v == nil:
		setFirst(root, "version", enum("1"))
	case v.Value.Kind() != '0' || compactEdit(*v) != "1":
		return fmt.Errorf("version: safezone writes version 1 hook files, this one is %s", compactEdit(*v))
	}
	hooks, err := objectAt(root, "hooks", "hooks")
	if err != nil {
		return err
	}
	for _, spellings := range events {
		target := spellings[0]
		for _, sp := range spellings {
			if member(hooks, sp) != nil {
				target = sp
				break
			}
		}
		kept := false
		for _, event := range spellings {
			if member(hooks, event) == nil && event != target {
				continue
			}
			list, err := arrayAt(hooks, event, "hooks."+event)
			if err != nil {
				return err
			}
			for i := range list.Elements {
				if asObject(&list.Elements[i]) == nil {
					return fmt.Errorf("hooks.%s[%d]: want an object, got %s", event, i, describeEdit(&list.Elements[i]))
				}
			}
			var placed bool
			list.Elements, placed = keepOne(list.Elements, !kept, handler, ours)
			kept = kept || placed
		}
		if !kept {
			list := asArray(member(hooks, target))
			list.Elements = append(list.Elements, handler.Clone())
		}
	}
	return nil
}
