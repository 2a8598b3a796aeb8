package policy

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/policy/yamldoc"
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
	// claudeSandbox is what a Claude Code settings file says of the host's
	// own sandbox (see [HostSandbox]); nil without a sandbox object.
	claudeSandbox *claudeSandbox
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
	Network  NetworkLayer

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
	doc, err := parseDoc(name, data)
	if err != nil {
		return nil, err
	}
	p := &parser{l: &Layer{Name: name}}
	var raw rawFile
	p.rawFile(doc, &raw)
	// The schema's own errors (unknown keys, a mapping or a list where
	// another kind is written) come first, then those of the values.
	p.file(&raw, nil)
	if len(p.errs) > 0 {
		return nil, &Problems{Errors: p.errs, Warnings: p.l.Warnings}
	}
	return p.l, nil
}

// parseDoc parses data as one YAML document whose top level is a mapping,
// and returns that mapping node.
func parseDoc(name string, data []byte) (*yamldoc.Node, error) {
	doc, err := yamldoc.Parse(data)
	if err != nil {
		return nil, YAMLError(name, err)
	}
	if doc == nil || doc.Kind == yamldoc.ScalarNode && doc.Tag == "!!null" {
		return nil, &Error{Pos: Pos{File: name}, Err: ErrEmpty}
	}
	if doc.Kind != yamldoc.MappingNode {
		return nil, &Error{Pos: Pos{File: name, Line: doc.Line, Col: doc.Column}, Err: fmt.Errorf("%w: the top level must be a mapping (version: 1, mode: ..., ...)", ErrNotAPolicy)}
	}
	return doc, nil
}

// YAMLError places an error of package yamldoc in the file name: a key
// written twice is a bad value ([ErrBadValue]), anything else invalid YAML
// ([ErrYAML]).
func YAMLError(name string, err error) error {
	var dup *yamldoc.DuplicateKeyError
	if errors.As(err, &dup) {
		return &Error{Pos: Pos{File: name, Line: dup.Line, Col: dup.Col}, Err: fmt.Errorf("%w: mapping key %q already defined at line %d", ErrBadValue, dup.Key, dup.FirstLine)}
	}
	var ye *yamldoc.Error
	if errors.As(err, &ye) {
		return &Error{Pos: Pos{File: name, Line: ye.Line, Col: ye.Column}, Err: fmt.Errorf("%w: %s", ErrYAML, ye.Msg)}
	}
	return &Error{Pos: Pos{File: name}, Err: fmt.Errorf("%w: %v", ErrYAML, err)}
}

// rawFile mirrors the schema; leaves are yamldoc.Nodes so every value keeps
// its position (a zero Node: the key is absent).
type rawFile struct {
	Version        yamldoc.Node
	Mode           yamldoc.Node
	AutoApprove    yamldoc.Node
	Sandbox        *rawSandbox
	Paths          *rawPaths
	Rules          *rawRules
	OnError        yamldoc.Node
	HostSettings   yamldoc.Node
	SelfProtection yamldoc.Node
	Locked         []yamldoc.Node
	Audit          *rawAudit
	Guards         *rawGuards
	Confine        *rawConfine
	Network        *rawNetwork
	Remove         *rawRemove
}

type rawSandbox struct {
	Enabled               yamldoc.Node
	AdditionalDirectories []yamldoc.Node
	ReadDirs              []yamldoc.Node
	OutsideRead           yamldoc.Node
	OutsideWrite          yamldoc.Node
}

type rawPaths struct {
	Protected []yamldoc.Node
	Warned    []yamldoc.Node
	Safe      []yamldoc.Node
	Templates []yamldoc.Node
}

type rawRules struct {
	Deny  []yamldoc.Node
	Ask   []yamldoc.Node
	Allow []yamldoc.Node
}

// A key of a mapping of the schema and where its value goes: a scalar
// (node), a list of scalars (list), a list of mappings (items, given the
// list) or a mapping (mapping); a list or mapping that is absent stays
// nil.
type rawKey struct {
	key     string
	node    *yamldoc.Node
	list    *[]yamldoc.Node
	items   func(*yamldoc.Node)
	mapping func(*yamldoc.Node)
}

// rawMapping reads the mapping n of the schema at field (its keys, for the
// error of an unknown key): each key to where keys says, in the file's
// order. A null value is an absent key, except for a scalar (where the
// validation reports it).
func (p *parser) rawMapping(n *yamldoc.Node, field, known string, keys []rawKey) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		j := slices.IndexFunc(keys, func(r rawKey) bool { return k.Kind == yamldoc.ScalarNode && r.key == k.Value })
		if j < 0 {
			p.fail(k, field, fmt.Errorf("%w %q (known keys: %s)", ErrUnknownKey, k.Value, known))
			continue
		}
		r, at := keys[j], joinField(field, keys[j].key)
		switch {
		case r.node != nil:
			*r.node = *v
		case isNull(v):
		case (r.list != nil || r.items != nil) && v.Kind != yamldoc.SequenceNode:
			p.fail(v, at, fmt.Errorf("%w: want a list, got %s", ErrBadValue, describe(v)))
		case r.list != nil:
			for _, c := range v.Content {
				*r.list = append(*r.list, *c)
			}
		case r.items != nil:
			r.items(v)
		case v.Kind != yamldoc.MappingNode:
			p.fail(v, at, fmt.Errorf("%w: want a mapping, got %s", ErrBadValue, describe(v)))
		default:
			r.mapping(v)
		}
	}
}

func isNull(n *yamldoc.Node) bool { return n.Kind == yamldoc.ScalarNode && n.Tag == "!!null" }

func joinField(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

// Each mapping's known keys, in the schema's order, for errors.
const (
	topKeys     = "version, mode, auto_approve, sandbox, paths, rules, guards, confine, network, on_error, host_settings, self_protection, locked, audit, remove"
	sandboxKeys = "enabled, additional_directories, read_dirs, outside_read, outside_write"
	pathsKeys   = "protected, warned, safe, templates"
	rulesKeys   = "deny, ask, allow"
	guardsKeys  = "lose_work, install_outside"
	confineKeys = "mode, write, program_writable, sockets, grants"
	grantKeys   = "command, read, sockets"
)

// rawFile reads the top-level mapping doc into r.
func (p *parser) rawFile(doc *yamldoc.Node, r *rawFile) {
	p.rawMapping(doc, "", topKeys, []rawKey{
		{key: "version", node: &r.Version},
		{key: "mode", node: &r.Mode},
		{key: "auto_approve", node: &r.AutoApprove},
		{key: "sandbox", mapping: func(n *yamldoc.Node) {
			r.Sandbox = &rawSandbox{}
			s := r.Sandbox
			p.rawMapping(n, "sandbox", sandboxKeys, []rawKey{
				{key: "enabled", node: &s.Enabled},
				{key: "additional_directories", list: &s.AdditionalDirectories},
				{key: "read_dirs", list: &s.ReadDirs},
				{key: "outside_read", node: &s.OutsideRead},
				{key: "outside_write", node: &s.OutsideWrite},
			})
		}},
		{key: "paths", mapping: func(n *yamldoc.Node) {
			r.Paths = &rawPaths{}
			ps := r.Paths
			p.rawMapping(n, "paths", pathsKeys, []rawKey{
				{key: "protected", list: &ps.Protected},
				{key: "warned", list: &ps.Warned},
				{key: "safe", list: &ps.Safe},
				{key: "templates", list: &ps.Templates},
			})
		}},
		{key: "rules", mapping: func(n *yamldoc.Node) {
			r.Rules = &rawRules{}
			rs := r.Rules
			p.rawMapping(n, "rules", rulesKeys, []rawKey{
				{key: "deny", list: &rs.Deny},
				{key: "ask", list: &rs.Ask},
				{key: "allow", list: &rs.Allow},
			})
		}},
		{key: "guards", mapping: func(n *yamldoc.Node) {
			r.Guards = &rawGuards{}
			g := r.Guards
			p.rawMapping(n, "guards", guardsKeys, []rawKey{
				{key: "lose_work", node: &g.LoseWork},
				{key: "install_outside", node: &g.InstallOutside},
			})
		}},
		{key: "network", mapping: func(n *yamldoc.Node) {
			r.Network = &rawNetwork{}
			nw := r.Network
			p.rawMapping(n, "network", networkKeys, []rawKey{
				{key: "isolate", node: &nw.Isolate},
				{key: "allow", list: &nw.Allow},
				{key: "deny", list: &nw.Deny},
			})
		}},
		{key: "confine", mapping: func(n *yamldoc.Node) {
			r.Confine = &rawConfine{}
			c := r.Confine
			p.rawMapping(n, "confine", confineKeys, []rawKey{
				{key: "mode", node: &c.Mode},
				{key: "write", list: &c.Write},
				{key: "program_writable", list: &c.ProgramWritable},
				{key: "sockets", list: &c.Sockets},
				{key: "grants", items: func(n *yamldoc.Node) {
					for i, item := range n.Content {
						c.Grants = append(c.Grants, rawGrant{})
						g := &c.Grants[len(c.Grants)-1]
						switch {
						case isNull(item):
						case item.Kind != yamldoc.MappingNode:
							g.bad = true
							p.fail(item, fmt.Sprintf("confine.grants[%d]", i), fmt.Errorf("%w: want a mapping (command: ..., read: [...], sockets: [...]), got %s", ErrBadValue, describe(item)))
						default:
							p.rawMapping(item, "confine.grants[]", grantKeys, []rawKey{
								{key: "command", node: &g.Command},
								{key: "read", list: &g.Read},
								{key: "sockets", list: &g.Sockets},
							})
						}
					}
				}},
			})
		}},
		{key: "on_error", node: &r.OnError},
		{key: "host_settings", node: &r.HostSettings},
		{key: "self_protection", node: &r.SelfProtection},
		{key: "locked", list: &r.Locked},
		{key: "audit", mapping: func(n *yamldoc.Node) {
			r.Audit = &rawAudit{}
			a := r.Audit
			p.rawMapping(n, "audit", auditKeys, []rawKey{
				{key: "path", node: &a.Path},
				{key: "all", node: &a.All},
				{key: "max_bytes", node: &a.MaxBytes},
				{key: "keep", node: &a.Keep},
				{key: "required", node: &a.Required},
				{key: "syslog", node: &a.Syslog},
				{key: "dry_run", node: &a.DryRun},
			})
		}},
		{key: "remove", mapping: func(n *yamldoc.Node) {
			r.Remove = &rawRemove{}
			rm := r.Remove
			p.rawMapping(n, "remove", strings.Join(RemovableKeys, ", "), []rawKey{
				{key: "sandbox.additional_directories", list: &rm.AdditionalDirectories},
				{key: "sandbox.read_dirs", list: &rm.ReadDirs},
				{key: "paths.protected", list: &rm.Protected},
				{key: "paths.warned", list: &rm.Warned},
				{key: "paths.safe", list: &rm.Safe},
				{key: "paths.templates", list: &rm.Templates},
				{key: "rules.deny", list: &rm.Deny},
				{key: "rules.ask", list: &rm.Ask},
				{key: "rules.allow", list: &rm.Allow},
				{key: "confine.write", list: &rm.ConfineWrite},
			})
		}},
	})
}

type parser struct {
	l    *Layer
	errs []error
}

func (p *parser) pos(n *yamldoc.Node) Pos { return Pos{File: p.l.Name, Line: n.Line, Col: n.Column} }

func (p *parser) fail(n *yamldoc.Node, field string, err error) {
	e := &Error{Pos: Pos{File: p.l.Name}, Field: field, Err: err}
	if n != nil {
		e.Pos = p.pos(n)
	}
	p.errs = append(p.errs, e)
}

func (p *parser) warn(n *yamldoc.Node, field string, err error) {
	p.l.Warnings = append(p.l.Warnings, &Error{Pos: p.pos(n), Field: field, Err: err})
}

// str returns the string value of a scalar node, or reports an error.
func (p *parser) str(n *yamldoc.Node, field string) (string, bool) {
	if n.Kind != yamldoc.ScalarNode || n.Tag != "!!str" {
		p.fail(n, field, fmt.Errorf("%w: want a string, got %s", ErrBadValue, describe(n)))
		return "", false
	}
	return n.Value, true
}

func (p *parser) boolean(n *yamldoc.Node, field string) *Setting[bool] {
	if n.Kind != yamldoc.ScalarNode || n.Tag != "!!bool" {
		p.fail(n, field, fmt.Errorf("%w: want true or false, got %s", ErrBadValue, describe(n)))
		return nil
	}
	b, err := n.Bool()
	if err != nil {
		p.fail(n, field, fmt.Errorf("%w: %v", ErrBadValue, err))
		return nil
	}
	return &Setting[bool]{Value: b, Pos: p.pos(n)}
}

// decision parses one of the allowed decision names.
func (p *parser) decision(n *yamldoc.Node, field string, allowed ...Decision) *Setting[Decision] {
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

func describe(n *yamldoc.Node) string {
	switch n.Kind {
	case yamldoc.MappingNode:
		return "a mapping"
	case yamldoc.SequenceNode:
		return "a list"
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
func (p *parser) file(r *rawFile, doc *yamldoc.Node) {
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
	if r.Network != nil {
		p.network(r.Network)
	}
	if r.Audit != nil {
		p.audit(r.Audit)
	}
	if r.Remove != nil {
		p.remove(r.Remove)
	}
}

// version requires "version: 1": a missing version is placed at doc.
func (p *parser) version(n, doc *yamldoc.Node) {
	if doc == nil {
		doc = &yamldoc.Node{Line: 1, Column: 1}
	}
	if n.Kind == 0 {
		p.fail(doc, "version", fmt.Errorf("%w: missing; the first line of a policy is \"version: 1\"", ErrBadVersion))
	} else if n.Kind != yamldoc.ScalarNode || n.Tag != "!!int" || n.Value != "1" {
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
func (p *parser) locked(ns []yamldoc.Node) {
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
func (p *parser) dirList(ns []yamldoc.Node, key string) []Dir {
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

func (p *parser) patterns(ns []yamldoc.Node, field string) []Pattern {
	return compileList(p, ns, field, func(v string, pos Pos) (Pattern, error, error) {
		pat, err := CompilePattern(v, pos)
		return pat, err, nil
	})
}

func (p *parser) rules(ns []yamldoc.Node, field string) []Rule {
	return compileList(p, ns, field, CompileRule)
}

// compileList compiles a list of strings, reporting each bad entry (and
// duplicates, as warnings) at its position.
func compileList[T any](p *parser, ns []yamldoc.Node, field string, compile func(string, Pos) (T, error, error)) []T {
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
