package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrSettings is wrapped by errors about a Claude Code settings file.
var ErrSettings = errors.New("unusable Claude Code settings")

// ClaudeSource describes one Claude Code settings file for
// [ParseClaudeSettings].
type ClaudeSource struct {
	Scope Scope // ScopeManaged, ScopeUser, ScopeProject or ScopeLocal
	// SlashBase is what a rule path starting with a single "/" is relative
	// to, as a safezone pattern prefix: "./" (the project root) for project
	// and local settings, "~/.claude/" for user settings, the managed
	// settings' directory for managed ones.
	SlashBase string
	// DirBase is what a relative entry of additionalDirectories is relative
	// to: "" (the project root) for project and local settings, the home
	// directory for user settings, the file's directory for managed ones.
	DirBase string
}

// ParseClaudeSettings reads the permission rules and additional
// directories of one Claude Code settings file (settings reference,
// "Permission settings": permissions.allow, permissions.ask,
// permissions.deny and permissions.additionalDirectories; Claude Code
// merges these lists across the managed, user, project and local files).
//
// Rules keep Claude Code's syntax; path specifiers keep its anchors
// ("Read and Edit" permission rules): "//path" is absolute, "~/path" is in
// the home directory, "/path" is relative to the settings source (see
// ClaudeSource.SlashBase), "path" and "./path" are relative to the project
// root, and a bare name matches at any depth. Other keys are ignored, as the
// file belongs to the host; a malformed file, or permission lists that are
// not lists of strings, are errors naming the file and the field.
func ParseClaudeSettings(name string, data []byte, src ClaudeSource) (*Layer, error) {
	l := &Layer{Name: name, Scope: src.Scope, Dir: src.DirBase}
	perms, err := permissionsOf(name, data)
	if err != nil || perms == nil {
		if err != nil {
			return nil, err
		}
		return l, nil
	}
	var errs []error
	for _, list := range []struct {
		key string
		dst *[]Rule
	}{{"deny", &l.Deny}, {"ask", &l.Ask}, {"allow", &l.Allow}} {
		for i, e := range perms[list.key] {
			field := fmt.Sprintf("permissions.%s[%d]", list.key, i)
			r, err, warn := CompileRule(translateAnchor(e.value, src.SlashBase), e.pos)
			if err != nil {
				errs = append(errs, &Error{Pos: e.pos, Field: field, Err: err})
				continue
			}
			r.Text = e.value
			if warn != nil {
				l.Warnings = append(l.Warnings, &Error{Pos: e.pos, Field: field, Err: warn})
			}
			*list.dst = append(*list.dst, r)
		}
	}
	for i, e := range perms["additionalDirectories"] {
		if e.value == "" || strings.ContainsRune(e.value, 0) {
			errs = append(errs, &Error{Pos: e.pos, Field: fmt.Sprintf("permissions.additionalDirectories[%d]", i), Err: fmt.Errorf("%w: empty directory", ErrSettings)})
			continue
		}
		l.AdditionalDirectories = append(l.AdditionalDirectories, Dir{Path: e.value, Base: src.DirBase, Pos: e.pos})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// LoadClaudeSettings reads and parses a settings file; a file that does not
// exist yields nil and no error.
func LoadClaudeSettings(path string, src ClaudeSource) (*Layer, error) {
	data, err := readCapped(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSettings, err)
	}
	return ParseClaudeSettings(path, data, src)
}

// translateAnchor rewrites the one anchor whose meaning differs between
// Claude Code's rules and safezone's patterns: "Tool(/path)", relative to
// the settings source in Claude Code, absolute in safezone.
func translateAnchor(rule, slashBase string) string {
	tool, spec, ok := strings.Cut(rule, "(")
	if !ok || !strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "//") {
		return rule
	}
	switch tool {
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS":
		return tool + "(" + slashBase + strings.TrimPrefix(spec, "/")
	}
	return rule
}

type settingsEntry struct {
	value string
	pos   Pos
}

// permissionsOf walks the settings JSON and returns the string entries of
// the permissions lists with their positions. When a key appears twice the
// last one counts, as in the host's own JSON.parse.
func permissionsOf(name string, data []byte) (map[string][]settingsEntry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	fail := func(off int64, format string, args ...any) error {
		line, col := lineCol(data, off)
		return &Error{Pos: Pos{File: name, Line: line, Col: col}, Err: fmt.Errorf("%w: %s", ErrSettings, fmt.Sprintf(format, args...))}
	}
	syntax := func(err error, off int64) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fail(se.Offset, "invalid JSON: %v", err)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fail(int64(len(data)), "invalid JSON: unexpected end of file")
		}
		return fail(off, "invalid JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err != nil {
			return nil, syntax(err, 0)
		}
		return nil, fail(0, "the file must hold one JSON object")
	}
	var out map[string][]settingsEntry
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err, dec.InputOffset())
		}
		if tok != "permissions" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, syntax(err, dec.InputOffset())
			}
			continue
		}
		at := dec.InputOffset()
		tok, err = dec.Token()
		if err != nil {
			return nil, syntax(err, at)
		}
		if tok == nil {
			out = nil
			continue
		}
		if tok != json.Delim('{') {
			return nil, fail(at, "permissions must be an object")
		}
		out = map[string][]settingsEntry{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, syntax(err, dec.InputOffset())
			}
			key, _ := tok.(string)
			switch key {
			case "allow", "ask", "deny", "additionalDirectories":
			default:
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return nil, syntax(err, dec.InputOffset())
				}
				continue
			}
			at := dec.InputOffset()
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				if err != nil {
					return nil, syntax(err, at)
				}
				return nil, fail(at, "permissions.%s must be a list of strings", key)
			}
			var list []settingsEntry
			for i := 0; dec.More(); i++ {
				off := dec.InputOffset()
				tok, err := dec.Token()
				if err != nil {
					return nil, syntax(err, off)
				}
				s, isStr := tok.(string)
				if !isStr {
					return nil, fail(off, "permissions.%s[%d] must be a string", key, i)
				}
				line, col := lineCol(data, off)
				list = append(list, settingsEntry{value: s, pos: Pos{File: name, Line: line, Col: col}})
			}
			if _, err := dec.Token(); err != nil {
				return nil, syntax(err, dec.InputOffset())
			}
			out[key] = list
		}
		if _, err := dec.Token(); err != nil {
			return nil, syntax(err, dec.InputOffset())
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(err, dec.InputOffset())
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err != nil {
			return nil, syntax(err, dec.InputOffset())
		}
		return nil, fail(dec.InputOffset(), "trailing data after the JSON object (%v)", tok)
	}
	return out, nil
}

// lineCol converts a byte offset into a 1-based line and column, skipping
// the separators the decoder reports the offset before.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	for off < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// readCapped reads at most MaxFileSize bytes of a file.
func readCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s is over %d bytes", path, MaxFileSize)
	}
	return data, nil
}
