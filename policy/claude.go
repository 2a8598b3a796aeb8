package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/safezonehq/safezone/netrule"
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
// not lists of strings, are errors naming the file and the field. A rule
// safezone cannot use (a pattern with "..", a bad glob) is left out with a
// warning wrapping [ErrSkippedRule].
func ParseClaudeSettings(name string, data []byte, src ClaudeSource) (*Layer, error) {
	l := &Layer{Name: name, Scope: src.Scope, Dir: src.DirBase, ClaudeSettings: true}
	perms, sandbox, err := permissionsOf(name, data)
	if err != nil {
		return nil, err
	}
	l.claudeSandbox = sandbox
	if sandbox != nil && len(sandbox.network) > 0 {
		if perms == nil {
			perms = map[string][]settingsEntry{}
		}
		for k, v := range sandbox.network {
			perms[k] = v
		}
	}
	if perms == nil {
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
				// Claude Code accepts rules safezone cannot evaluate; failing
				// closed on them would stop every call of every session.
				l.Warnings = append(l.Warnings, &Error{Pos: e.pos, Field: field, Err: fmt.Errorf("%w: %w; safezone does not apply it", ErrSkippedRule, err)})
				continue
			}
			r.Text = e.value
			if warn != nil {
				l.Warnings = append(l.Warnings, &Error{Pos: e.pos, Field: field, Err: warn})
			}
			*list.dst = append(*list.dst, r)
		}
	}
	l.Network = claudeNetwork(perms, l)
	for i, e := range perms["additionalDirectories"] {
		if e.value == "" || strings.ContainsRune(e.value, 0) {
			errs = append(errs, &Error{Pos: e.pos, Field: fmt.Sprintf("permissions.additionalDirectories[%d]", i), Err: fmt.Errorf("%w: empty directory", ErrSettings)})
			continue
		}
		l.AdditionalDirectories = append(l.AdditionalDirectories, Dir{Path: e.value, Base: src.DirBase, Pos: e.pos, Host: true})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return l, nil
}

// claudeNetwork returns the network entries of a settings file:
// sandbox.network.allowedDomains and deniedDomains, and the domains of its
// WebFetch(domain:…) allow rules, which Claude Code merges with
// allowedDomains. One safezone cannot read is left out with a warning.
func claudeNetwork(perms map[string][]settingsEntry, l *Layer) NetworkLayer {
	var n NetworkLayer
	add := func(dst *[]Setting[string], field, v string, pos Pos) {
		if _, err := netrule.Parse(v); err != nil {
			l.Warnings = append(l.Warnings, &Error{Pos: pos, Field: field, Err: fmt.Errorf("%w: %w; safezone does not apply it", ErrSkippedRule, err)})
			return
		}
		*dst = append(*dst, Setting[string]{Value: v, Pos: pos})
	}
	for i, e := range perms[networkAllowKey] {
		add(&n.Allow, fmt.Sprintf("%s[%d]", networkAllowKey, i), e.value, e.pos)
	}
	for i, e := range perms[networkDenyKey] {
		add(&n.Deny, fmt.Sprintf("%s[%d]", networkDenyKey, i), e.value, e.pos)
	}
	for i, e := range perms["allow"] {
		if d, ok := strings.CutPrefix(e.value, "WebFetch(domain:"); ok && strings.HasSuffix(d, ")") {
			add(&n.Allow, fmt.Sprintf("permissions.allow[%d]", i), strings.TrimSuffix(d, ")"), e.pos)
		}
	}
	return n
}

// LoadClaudeSettings reads and parses a settings file; a file that does not
// exist yields nil and no error.
func LoadClaudeSettings(path string, src ClaudeSource) (*Layer, error) {
	return loadClaudeSettings(ReadCapped, path, src)
}

// loadClaudeSettings is [LoadClaudeSettings] reading with read.
func loadClaudeSettings(read func(string) ([]byte, error), path string, src ClaudeSource) (*Layer, error) {
	data, err := read(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSettings, err)
	}
	l, err := ParseClaudeSettings(path, data, src)
	if l != nil {
		l.data = data
	}
	return l, err
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

// settingsEntry is one string of a permissions list and where it starts.
type settingsEntry struct {
	value string
	pos   Pos
}

// permissionsOf walks the settings JSON and returns the string entries of
// the permissions lists (allow, ask, deny, additionalDirectories) with their
// positions; nil when the file is empty (a UTF-8 byte order mark and white
// space only), has no permissions key, or has permissions: null. When a
// key appears twice the last one counts, as in the host's own JSON.parse.
// The values of other keys are skipped, but the whole file must be one
// valid JSON object with nothing after it: anything else is an [*Error]
// wrapping [ErrSettings] at the offending line and column.
//
// It also returns what safezone reads of the "sandbox" object (see
// [HostSandbox] and, for network.allowedDomains and deniedDomains,
// [NetworkLayer]; nil without one): enabled, allowUnsandboxedCommands and
// allowNestedUserNamespaces, which must be booleans, and filesystem's
// denyRead, denyWrite, allowRead and allowWrite, lists of strings, and
// allowGitConfig, a boolean. Its other keys are skipped.
func permissionsOf(name string, data []byte) (map[string][]settingsEntry, *claudeSandbox, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, nil
	}
	r := &settingsReader{name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	if err := r.open('{', "the file must hold one JSON object"); err != nil {
		return nil, nil, err
	}
	var out map[string][]settingsEntry
	var sandbox *claudeSandbox
	for r.dec.More() {
		key, _, err := r.next()
		if err != nil {
			return nil, nil, err
		}
		switch key {
		case "permissions":
			out, err = r.permissions()
		case "sandbox":
			sandbox, err = r.sandbox()
		default:
			err = r.skip()
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if err := r.end(); err != nil {
		return nil, nil, err
	}
	return out, sandbox, nil
}

// The keys of Claude Code's sandbox network lists in permissionsOf's map
// (settings reference, "Sandbox settings"; Claude Code 2.1.330's schema:
// "Domains sandboxed commands may reach without a prompt (wildcards such
// as *.example.com supported). Merged with WebFetch(domain:…) allow rules
// and across settings sources").
const (
	networkAllowKey = "sandbox.network.allowedDomains"
	networkDenyKey  = "sandbox.network.deniedDomains"
)

// object reads the value of field: null (false, nothing read) or an
// object, each of whose members it hands to member, which must read the
// value (r.skip for a key it does not take).
func (r *settingsReader) object(field string, member func(key string) error) (bool, error) {
	tok, at, err := r.next()
	if err != nil || tok == nil {
		return false, err
	}
	if tok != json.Delim('{') {
		return false, r.fail(at, "%s must be an object", field)
	}
	for r.dec.More() {
		tok, _, err := r.next()
		if err != nil {
			return false, err
		}
		key, _ := tok.(string)
		if err := member(key); err != nil {
			return false, err
		}
	}
	if _, _, err := r.next(); err != nil { // the closing '}'
		return false, err
	}
	return true, nil
}

// sandbox reads the value of the sandbox key: null (nil) or an object.
func (r *settingsReader) sandbox() (*claudeSandbox, error) {
	s := &claudeSandbox{}
	ok, err := r.object("sandbox", func(key string) (err error) {
		switch key {
		case "enabled":
			s.enabled, err = r.boolean("sandbox." + key)
		case "allowUnsandboxedCommands":
			s.allowUnsandboxed, err = r.boolean("sandbox." + key)
		case "allowNestedUserNamespaces":
			s.nested, err = r.boolean("sandbox." + key)
		case "filesystem":
			s.filesystem, err = r.lists("sandbox.filesystem", "denyRead", "denyWrite", "allowRead", "allowWrite")
		case "network":
			s.network, err = r.lists("sandbox.network", "allowedDomains", "deniedDomains")
		default:
			err = r.skip()
		}
		return err
	})
	if !ok {
		return nil, err
	}
	return s, nil
}

// lists reads the object field (null or an object) and returns the lists
// of strings under keys, keyed field.key (sandbox.filesystem.denyRead),
// and, for sandbox.filesystem, allowGitConfig as a one-entry list when it
// is true; other keys are skipped.
func (r *settingsReader) lists(field string, keys ...string) (map[string][]settingsEntry, error) {
	out := map[string][]settingsEntry{}
	_, err := r.object(field, func(key string) (err error) {
		switch {
		case slices.Contains(keys, key):
			out[field+"."+key], err = r.list(field + "." + key)
		case field == "sandbox.filesystem" && key == "allowGitConfig":
			var b *Setting[bool]
			if b, err = r.boolean(field + "." + key); b != nil && b.Value {
				out[field+"."+key] = []settingsEntry{{value: "true", pos: b.Pos}}
			}
		default:
			err = r.skip()
		}
		return err
	})
	return out, err
}

// boolean reads a value that must be true, false or null (nil).
func (r *settingsReader) boolean(field string) (*Setting[bool], error) {
	tok, at, err := r.next()
	if err != nil || tok == nil {
		return nil, err
	}
	b, ok := tok.(bool)
	if !ok {
		return nil, r.fail(at, "%s must be true or false", field)
	}
	return &Setting[bool]{Value: b, Pos: r.pos(at)}, nil
}

// settingsReader walks a settings file token by token with encoding/json's
// Decoder, whose InputOffset places each token for file:line:col errors.
type settingsReader struct {
	name string
	data []byte // the whole file, to turn offsets into lines and columns
	dec  *json.Decoder
}

// next reads one token and returns it with the offset the decoder stood at
// before it (the end of the previous token; see [lineCol]).
func (r *settingsReader) next() (json.Token, int64, error) {
	at := r.dec.InputOffset()
	tok, err := r.dec.Token()
	if err != nil {
		return nil, at, r.syntax(err, at)
	}
	return tok, at, nil
}

// open reads the token that must open an object or a list; any other valid
// token is the error what.
func (r *settingsReader) open(delim json.Delim, what string) error {
	tok, at, err := r.next()
	if err != nil {
		return err
	}
	if tok != delim {
		return r.fail(at, "%s", what)
	}
	return nil
}

// skip reads past one value of any kind.
func (r *settingsReader) skip() error {
	var v json.RawMessage
	if err := r.dec.Decode(&v); err != nil {
		return r.syntax(err, r.dec.InputOffset())
	}
	return nil
}

// permissions reads the value of the permissions key: null (nil, as if the
// key were absent) or an object, of which it keeps the four lists and skips
// every other key.
func (r *settingsReader) permissions() (map[string][]settingsEntry, error) {
	tok, at, err := r.next()
	if err != nil || tok == nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, r.fail(at, "permissions must be an object")
	}
	out := map[string][]settingsEntry{}
	for r.dec.More() {
		tok, _, err := r.next()
		if err != nil {
			return nil, err
		}
		switch key, _ := tok.(string); key {
		case "allow", "ask", "deny", "additionalDirectories":
			out[key], err = r.list("permissions." + key)
		default:
			err = r.skip()
		}
		if err != nil {
			return nil, err
		}
	}
	if _, _, err := r.next(); err != nil { // the closing '}'
		return nil, err
	}
	return out, nil
}

// list reads the value of field, which must be a list of strings, and
// returns its entries with their positions (nil for an empty list).
func (r *settingsReader) list(field string) ([]settingsEntry, error) {
	if err := r.open('[', fmt.Sprintf("%s must be a list of strings", field)); err != nil {
		return nil, err
	}
	var list []settingsEntry
	for i := 0; r.dec.More(); i++ {
		tok, at, err := r.next()
		if err != nil {
			return nil, err
		}
		s, ok := tok.(string)
		if !ok {
			return nil, r.fail(at, "%s[%d] must be a string", field, i)
		}
		list = append(list, settingsEntry{value: s, pos: r.pos(at)})
	}
	if _, _, err := r.next(); err != nil { // the closing ']'
		return nil, err
	}
	return list, nil
}

// end reads the top-level object's closing '}' and checks that nothing but
// white space follows it.
func (r *settingsReader) end() error {
	if _, _, err := r.next(); err != nil {
		return err
	}
	tok, err := r.dec.Token()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return r.syntax(err, r.dec.InputOffset())
	}
	return r.fail(r.dec.InputOffset(), "trailing data after the JSON object (%v)", tok)
}

// pos places the token that follows offset off.
func (r *settingsReader) pos(off int64) Pos {
	line, col := lineCol(r.data, off)
	return Pos{File: r.name, Line: line, Col: col}
}

// fail returns an [*Error] wrapping [ErrSettings] at the token after off.
func (r *settingsReader) fail(off int64, format string, args ...any) error {
	return &Error{Pos: r.pos(off), Err: fmt.Errorf("%w: %s", ErrSettings, fmt.Sprintf(format, args...))}
}

// syntax turns a decoder error into an "invalid JSON" [*Error]: at the
// offset a *json.SyntaxError carries, at the end of the file for a
// truncated one, else (a number too large for a float64) at off.
func (r *settingsReader) syntax(err error, off int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return r.fail(se.Offset, "invalid JSON: %v", err)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return r.fail(int64(len(r.data)), "invalid JSON: unexpected end of file")
	}
	return r.fail(off, "invalid JSON: %v", err)
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

// ReadCapped reads a file of at most [MaxFileSize] bytes; a larger one is
// an error.
func ReadCapped(path string) ([]byte, error) {
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

// ClaudeHookTimeout is how long Claude Code lets a command hook run when its
// registration sets no "timeout" (hooks reference, "Configuration": the
// timeout defaults to 60 seconds).
const ClaudeHookTimeout = 60 * time.Second

// HookTimeouts returns the timeout of each PreToolUse command hook in a
// Claude Code settings file (hooks.PreToolUse[].hooks[], type "command")
// whose command ours says runs safezone: its "timeout" (seconds, a number
// above zero), else [ClaudeHookTimeout]. A file that is not JSON, or hooks
// of another shape, give none (the settings parser reports a malformed
// file; hooks are the host's business).
func HookTimeouts(data []byte, ours func(command string) bool) []time.Duration {
	if !bytes.Contains(data, []byte(`"PreToolUse"`)) {
		return nil
	}
	var s struct {
		Hooks struct {
			PreToolUse []struct {
				Hooks []struct {
					Type    string   `json:"type"`
					Command string   `json:"command"`
					Timeout *float64 `json:"timeout"`
				} `json:"hooks"`
			} `json:"PreToolUse"`
		} `json:"hooks"`
	}
	if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &s) != nil {
		return nil
	}
	var out []time.Duration
	for _, group := range s.Hooks.PreToolUse {
		for _, h := range group.Hooks {
			if h.Type != "command" || !ours(h.Command) {
				continue
			}
			t := ClaudeHookTimeout
			if h.Timeout != nil && *h.Timeout > 0 && *h.Timeout < 1e6 {
				t = time.Duration(*h.Timeout * float64(time.Second))
			}
			out = append(out, t)
		}
	}
	return out
}
