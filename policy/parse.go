package policy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EmbeddedName is the name under which the built-in default policy
// (policy.example.yaml, embedded in the binary) is parsed and reported.
const EmbeddedName = "<embedded default>"

// MaxFileSize caps a policy file (1 MiB): a policy is a few kilobytes, and a
// hook that reads a huge file on every call is a hook that times out.
const MaxFileSize = 1 << 20

// Setting is a scalar policy value and where it was set.
type Setting[T any] struct {
	Value T
	Pos   Pos
}

// Dir is an entry of sandbox.additional_directories as written. Relative
// entries are relative to Base (the policy file's directory; empty for the
// embedded default, meaning the project root); "~" and "~/x" are the home
// directory. Package classify expands and resolves it.
type Dir struct {
	Path string
	Base string
	Pos  Pos
	// Host marks an entry of a Claude Code settings file's
	// permissions.additionalDirectories: a working directory of the
	// host's own, where its permission check lets commands read and
	// write (classify's Env.RunsUnasked).
	Host bool
}

// Layer is one parsed and validated policy file. Pointer fields are nil when
// the file does not set them, so layers can be merged (see [Merge]).
type Layer struct {
	Name  string // the file's path, or EmbeddedName
	Dir   string // the file's directory; "" for the embedded default
	Scope Scope  // where the layer sits in the precedence order
	// ClaudeSettings marks a layer read from a Claude Code settings file
	// (permission rules and additionalDirectories only; see
	// [ParseClaudeSettings]).
	ClaudeSettings bool
	// Trusted says the user trusted this content of a layer that comes with
	// the repository (Scope.FromRepository): what it widens applies. Other
	// layers are the user's and apply whole; [LoadLayers] sets it through
	// Locations.Trusted.
	Trusted bool

	Mode           *Setting[Mode]
	AutoApprove    *Setting[bool]
	SandboxEnabled *Setting[bool]
	OutsideRead    *Setting[Decision]
	OutsideWrite   *Setting[Decision]
	OnError        *Setting[Decision]
	// HostSettings false stops safezone from reading Claude Code's
	// permissions from the host's settings files.
	HostSettings *Setting[bool]
	// SelfProtection false turns off the protection of safezone's own
	// configuration; only the managed layer may set it.
	SelfProtection *Setting[bool]
	// Locked lists the keys lower layers and flags may not change; only the
	// managed layer may set it.
	Locked []Setting[string]

	AdditionalDirectories []Dir
	Protected, Warned     []Pattern
	Safe                  []Pattern
	Templates             []Setting[string]
	Deny, Ask, Allow      []Rule

	Audit AuditLayer

	// ReadDirs are sandbox.read_dirs: directories outside the project that
	// may be read (outside_read does not apply) but not written.
	ReadDirs []Dir
	Guards   GuardsLayer
	Confine  ConfineLayer

	// Remove lists the entries of lower layers this layer takes out of the
	// policy (the remove: section).
	Remove []Removal

	// Warnings are problems that do not stop the policy from loading
	// (duplicate entries, rules for tools safezone does not know).
	Warnings []*Error

	// data is the file's content as read, which a trust record must equal
	// (see Locations.Trusted); asked says Locations.Trusted was asked.
	data  []byte
	asked bool
}

// Parse decodes and validates one policy file, schema version 1 (README,
// "Schema"). name is used in positions and errors only. Decoding is strict:
// unknown keys, wrong types, duplicate keys, bad globs and bad rules are
// errors, each an [*Error] with file:line:col; all of them are returned,
// joined with errors.Join. On error the Layer is nil.
func Parse(name string, data []byte) (*Layer, error) {
	// Strict decoding by the library: unknown keys and type mismatches. A
	// valid policy is parsed once; a broken one again as a node tree, for
	// positions and a precise diagnosis.
	var raw rawFile
	p := &parser{l: &Layer{Name: name}}
	strict := yaml.NewDecoder(bytes.NewReader(data))
	strict.KnownFields(true)
	err := strict.Decode(&raw)
	if err == nil {
		var extra yaml.Node
		if err := strict.Decode(&extra); !errors.Is(err, io.EOF) {
			return nil, &Error{Pos: Pos{File: name, Line: extra.Line}, Err: fmt.Errorf("%w: more than one YAML document", ErrYAML)}
		}
		p.file(&raw, nil)
		if len(p.errs) > 0 {
			return nil, &Problems{Errors: p.errs, Warnings: p.l.Warnings}
		}
		return p.l, nil
	}
	doc, derr := parseDoc(name, data)
	if derr != nil {
		return nil, derr
	}
	// Decode again without KnownFields so that the values it could read
	// are still validated: a policy with several mistakes gets them all
	// reported at once.
	p.errs = append(p.errs, yamlError(name, err, doc))
	raw = rawFile{}
	if yaml.Unmarshal(data, &raw) == nil {
		p.file(&raw, doc)
	}
	return nil, &Problems{Errors: p.errs, Warnings: p.l.Warnings}
}

// parseDoc parses data as one YAML document whose top level is a mapping,
// and returns that mapping node.
func parseDoc(name string, data []byte) (*yaml.Node, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{Pos: Pos{File: name}, Err: ErrEmpty}
		}
		return nil, yamlError(name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &Error{Pos: Pos{File: name, Line: extra.Line}, Err: fmt.Errorf("%w: more than one YAML document", ErrYAML)}
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return nil, &Error{Pos: Pos{File: name}, Err: ErrEmpty}
	}
	if doc.Kind != yaml.MappingNode {
		return nil, &Error{Pos: Pos{File: name, Line: doc.Line, Col: doc.Column}, Err: fmt.Errorf("%w: the top level must be a mapping (version: 1, mode: ..., ...)", ErrNotAPolicy)}
	}
	return doc, nil
}

// rawFile mirrors the schema; leaves are yaml.Nodes so every value keeps its
// position. No type here has an UnmarshalYAML method, which would silently
// turn KnownFields off below it.
type rawFile struct {
	Version        yaml.Node   `yaml:"version"`
	Mode           yaml.Node   `yaml:"mode"`
	AutoApprove    yaml.Node   `yaml:"auto_approve"`
	Sandbox        *rawSandbox `yaml:"sandbox"`
	Paths          *rawPaths   `yaml:"paths"`
	Rules          *rawRules   `yaml:"rules"`
	OnError        yaml.Node   `yaml:"on_error"`
	HostSettings   yaml.Node   `yaml:"host_settings"`
	SelfProtection yaml.Node   `yaml:"self_protection"`
	Locked         []yaml.Node `yaml:"locked"`
	Audit          *rawAudit   `yaml:"audit"`
	Guards         *rawGuards  `yaml:"guards"`
	Confine        *rawConfine `yaml:"confine"`
	Remove         *rawRemove  `yaml:"remove"`
}

type rawSandbox struct {
	Enabled               yaml.Node   `yaml:"enabled"`
	AdditionalDirectories []yaml.Node `yaml:"additional_directories"`
	ReadDirs              []yaml.Node `yaml:"read_dirs"`
	OutsideRead           yaml.Node   `yaml:"outside_read"`
	OutsideWrite          yaml.Node   `yaml:"outside_write"`
}

type rawPaths struct {
	Protected []yaml.Node `yaml:"protected"`
	Warned    []yaml.Node `yaml:"warned"`
	Safe      []yaml.Node `yaml:"safe"`
	Templates []yaml.Node `yaml:"templates"`
}

type rawRules struct {
	Deny  []yaml.Node `yaml:"deny"`
	Ask   []yaml.Node `yaml:"ask"`
	Allow []yaml.Node `yaml:"allow"`
}

// knownKeys names a mapping's field path and keys for error messages, from
// the Go type name yaml.v3 reports.
func knownKeys(typ string) (field, keys string) {
	switch typ {
	case "rawSandbox":
		return "sandbox", "enabled, additional_directories, read_dirs, outside_read, outside_write"
	case "rawGuards":
		return "guards", "lose_work, install_outside"
	case "rawConfine":
		return "confine", "mode, write, program_writable, sockets, grants"
	case "rawGrant":
		return "confine.grants[]", "command, read, sockets"
	case "rawPaths":
		return "paths", "protected, warned, safe, templates"
	case "rawRules":
		return "rules", "deny, ask, allow"
	case "rawAudit":
		return "audit", auditKeys
	case "rawRemove":
		return "remove", strings.Join(RemovableKeys, ", ")
	}
	return "", "version, mode, auto_approve, sandbox, paths, rules, guards, confine, on_error, host_settings, self_protection, locked, audit, remove"
}

// lineOf splits a yaml.v3 message "line N: text" into N and text.
func lineOf(msg string) (int, string, bool) {
	rest, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return 0, "", false
	}
	num, text, ok := strings.Cut(rest, ": ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return 0, "", false
	}
	return n, text, true
}

// unknownField splits yaml.v3's "field KEY not found in type policy.TYPE".
// (Plain string handling: a regexp compiled at start-up would cost every
// hook call some 80 µs for an error path.)
func unknownField(text string) (key, typ string, ok bool) {
	rest, ok := strings.CutPrefix(text, "field ")
	if !ok {
		return "", "", false
	}
	key, typ, ok = strings.Cut(rest, " not found in type policy.")
	if !ok || key == "" || strings.ContainsAny(key, " \t") {
		return "", "", false
	}
	return key, typ, true
}

// yamlError turns a yaml.v3 error into one *Error per problem, with the
// line, the field path and, for unknown keys, the column and the known keys.
func yamlError(name string, err error, doc ...*yaml.Node) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		e := &Error{Pos: Pos{File: name}, Err: fmt.Errorf("%w: %s", ErrYAML, msg)}
		if line, text, ok := lineOf(msg); ok {
			e.Line = line
			e.Err = fmt.Errorf("%w: %s", ErrYAML, text)
			// yaml.v3 (v3.0.x, parser.fail) reports a parser error that has a
			// context mark, such as an unclosed flow collection ("did not
			// find expected ... "), with the context's 0-based line; its
			// other errors are 1-based.
			if strings.HasPrefix(text, "did not find expected") {
				e.Line++
			}
		}
		return e
	}
	var errs []error
	for _, msg := range te.Errors {
		e := &Error{Pos: Pos{File: name}, Err: fmt.Errorf("%w: %s", ErrBadValue, msg)}
		if line, text, ok := lineOf(msg); ok {
			e.Line = line
			e.Err = fmt.Errorf("%w: %s", ErrBadValue, text)
			if key, typ, ok := unknownField(text); ok {
				field, keys := knownKeys(typ)
				e.Field = field
				e.Err = fmt.Errorf("%w %q (known keys: %s)", ErrUnknownKey, key, keys)
				if len(doc) > 0 {
					e.Col = findKeyColumn(doc[0], key, e.Line)
				}
			}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// findKeyColumn finds the column of mapping key key on line, or 0.
func findKeyColumn(n *yaml.Node, key string, line int) int {
	if n == nil {
		return 0
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Value == key && k.Line == line {
				return k.Column
			}
		}
	}
	for _, c := range n.Content {
		if col := findKeyColumn(c, key, line); col > 0 {
			return col
		}
	}
	return 0
}

type parser struct {
	l    *Layer
	errs []error
}

func (p *parser) pos(n *yaml.Node) Pos { return Pos{File: p.l.Name, Line: n.Line, Col: n.Column} }

func (p *parser) fail(n *yaml.Node, field string, err error) {
	e := &Error{Pos: Pos{File: p.l.Name}, Field: field, Err: err}
	if n != nil {
		e.Pos = p.pos(n)
	}
	p.errs = append(p.errs, e)
}

func (p *parser) warn(n *yaml.Node, field string, err error) {
	p.l.Warnings = append(p.l.Warnings, &Error{Pos: p.pos(n), Field: field, Err: err})
}

// str returns the string value of a scalar node, or reports an error.
func (p *parser) str(n *yaml.Node, field string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		p.fail(n, field, fmt.Errorf("%w: want a string, got %s", ErrBadValue, describe(n)))
		return "", false
	}
	return n.Value, true
}

func (p *parser) boolean(n *yaml.Node, field string) *Setting[bool] {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.fail(n, field, fmt.Errorf("%w: want true or false, got %s", ErrBadValue, describe(n)))
		return nil
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		p.fail(n, field, fmt.Errorf("%w: %v", ErrBadValue, err))
		return nil
	}
	return &Setting[bool]{Value: b, Pos: p.pos(n)}
}

// decision parses one of the allowed decision names.
func (p *parser) decision(n *yaml.Node, field string, allowed ...Decision) *Setting[Decision] {
	s, ok := p.str(n, field)
	if !ok {
		return nil
	}
	var names []string
	for _, d := range allowed {
		if s == d.String() {
			return &Setting[Decision]{Value: d, Pos: p.pos(n)}
		}
		names = append(names, d.String())
	}
	p.fail(n, field, fmt.Errorf("%w: %q (want %s)", ErrBadValue, s, strings.Join(names, " or ")))
	return nil
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.Tag {
	case "!!null":
		return "nothing (null)"
	case "!!str":
		return fmt.Sprintf("%q", n.Value)
	}
	return fmt.Sprintf("%s %q", strings.TrimPrefix(n.Tag, "!!"), n.Value)
}

// file validates a decoded policy, key by key in the schema's order, so
// that errors are reported in that order. doc, the top-level mapping, is
// only used to place a missing version; nil places it at line 1.
func (p *parser) file(r *rawFile, doc *yaml.Node) {
	p.version(&r.Version, doc)
	p.scalars(r)
	p.locked(r.Locked)
	if r.Sandbox != nil {
		p.sandbox(r.Sandbox)
	}
	if ps := r.Paths; ps != nil {
		p.l.Protected = p.patterns(ps.Protected, "paths.protected")
		p.l.Warned = p.patterns(ps.Warned, "paths.warned")
		p.l.Safe = p.patterns(ps.Safe, "paths.safe")
		p.l.Templates = p.templates(ps.Templates)
	}
	if rs := r.Rules; rs != nil {
		p.l.Deny = p.rules(rs.Deny, "rules.deny")
		p.l.Ask = p.rules(rs.Ask, "rules.ask")
		p.l.Allow = p.rules(rs.Allow, "rules.allow")
	}
	if r.Guards != nil {
		p.guards(r.Guards)
	}
	if r.Confine != nil {
		p.confine(r.Confine)
	}
	if r.Audit != nil {
		p.audit(r.Audit)
	}
	if r.Remove != nil {
		p.remove(r.Remove)
	}
}

// version requires "version: 1": a missing version is placed at doc.
func (p *parser) version(n, doc *yaml.Node) {
	if doc == nil {
		doc = &yaml.Node{Line: 1, Column: 1}
	}
	if n.Kind == 0 {
		p.fail(doc, "version", fmt.Errorf("%w: missing; the first line of a policy is \"version: 1\"", ErrBadVersion))
	} else if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Value != "1" {
		p.fail(n, "version", fmt.Errorf("%w: %s (this safezone reads version 1)", ErrBadVersion, describe(n)))
	}
}

// scalars validates the top-level scalar keys: mode, auto_approve,
// on_error, host_settings and self_protection; an absent key stays nil.
func (p *parser) scalars(r *rawFile) {
	if r.Mode.Kind != 0 {
		if s, ok := p.str(&r.Mode, "mode"); ok {
			if m, err := ParseMode(s); err != nil {
				p.fail(&r.Mode, "mode", fmt.Errorf("%w: %v", ErrBadValue, err))
			} else {
				p.l.Mode = &Setting[Mode]{Value: m, Pos: p.pos(&r.Mode)}
			}
		}
	}
	if r.AutoApprove.Kind != 0 {
		p.l.AutoApprove = p.boolean(&r.AutoApprove, "auto_approve")
	}
	if r.OnError.Kind != 0 {
		p.l.OnError = p.decision(&r.OnError, "on_error", Deny, Ask)
	}
	if r.HostSettings.Kind != 0 {
		p.l.HostSettings = p.boolean(&r.HostSettings, "host_settings")
	}
	if r.SelfProtection.Kind != 0 {
		p.l.SelfProtection = p.boolean(&r.SelfProtection, "self_protection")
	}
}

// locked validates the locked: list; each entry must be one of
// [LockableKeys]. Whether the layer may lock at all is [CheckScope]'s to say.
func (p *parser) locked(ns []yaml.Node) {
	for i := range ns {
		n := &ns[i]
		field := fmt.Sprintf("locked[%d]", i)
		k, ok := p.str(n, field)
		if !ok {
			continue
		}
		if !IsLockable(k) {
			p.fail(n, field, fmt.Errorf("%w: %q cannot be locked (lockable: %s)", ErrBadValue, k, strings.Join(LockableKeys, ", ")))
			continue
		}
		p.l.Locked = append(p.l.Locked, Setting[string]{Value: k, Pos: p.pos(n)})
	}
}

// sandbox validates the sandbox: mapping.
func (p *parser) sandbox(s *rawSandbox) {
	if s.Enabled.Kind != 0 {
		p.l.SandboxEnabled = p.boolean(&s.Enabled, "sandbox.enabled")
	}
	if s.OutsideRead.Kind != 0 {
		p.l.OutsideRead = p.decision(&s.OutsideRead, "sandbox.outside_read", Ask, Deny)
	}
	if s.OutsideWrite.Kind != 0 {
		p.l.OutsideWrite = p.decision(&s.OutsideWrite, "sandbox.outside_write", Ask, Deny)
	}
	p.l.AdditionalDirectories = p.dirList(s.AdditionalDirectories, "sandbox.additional_directories")
	p.l.ReadDirs = p.dirList(s.ReadDirs, "sandbox.read_dirs")
}

// dirList validates a list of directories (sandbox.additional_directories,
// sandbox.read_dirs, confine.write): non-empty strings without a NUL byte,
// "~" and "~/x" but not "~user"; an entry listed twice is kept and warned
// about.
func (p *parser) dirList(ns []yaml.Node, key string) []Dir {
	var out []Dir
	seen := map[string]bool{}
	for i := range ns {
		n := &ns[i]
		field := fmt.Sprintf("%s[%d]", key, i)
		v, ok := p.str(n, field)
		if !ok {
			continue
		}
		switch {
		case v == "" || strings.ContainsRune(v, 0):
			p.fail(n, field, fmt.Errorf("%w: empty directory or NUL byte", ErrBadValue))
			continue
		case strings.HasPrefix(v, "~") && v != "~" && !strings.HasPrefix(v, "~/"):
			p.fail(n, field, fmt.Errorf("%w: %q: ~user is not supported; write the absolute path", ErrBadValue, v))
			continue
		}
		if seen[v] {
			p.warn(n, field, fmt.Errorf("%w: %q is listed twice", ErrDuplicate, v))
		}
		seen[v] = true
		out = append(out, Dir{Path: v, Pos: p.pos(n)})
	}
	return out
}

func (p *parser) patterns(ns []yaml.Node, field string) []Pattern {
	return compileList(p, ns, field, func(v string, pos Pos) (Pattern, error, error) {
		pat, err := CompilePattern(v, pos)
		return pat, err, nil
	})
}

func (p *parser) rules(ns []yaml.Node, field string) []Rule {
	return compileList(p, ns, field, CompileRule)
}

// compileList compiles a list of strings, reporting each bad entry (and
// duplicates, as warnings) at its position.
func compileList[T any](p *parser, ns []yaml.Node, field string, compile func(string, Pos) (T, error, error)) []T {
	var out []T
	seen := map[string]bool{}
	for i := range ns {
		n := &ns[i]
		f := fmt.Sprintf("%s[%d]", field, i)
		v, ok := p.str(n, f)
		if !ok {
			continue
		}
		x, err, warn := compile(v, p.pos(n))
		if err != nil {
			p.fail(n, f, err)
			continue
		}
		if warn != nil {
			p.warn(n, f, warn)
		}
		if seen[v] {
			p.warn(n, f, fmt.Errorf("%w: %q is listed twice", ErrDuplicate, v))
		}
		seen[v] = true
		out = append(out, x)
	}
	return out
}
