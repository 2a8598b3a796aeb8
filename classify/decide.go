// Package classify decides one tool call: it turns the call's arguments into
// targets, resolves each as the kernel would, matches them against the
// policy's rules and path classes, and applies the decision table.
//
// [Decide] is a pure function of the call, the policy, the environment and a
// read-only file-system view; it never writes and never starts processes.
package classify

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
	"github.com/safezonehq/safezone/classify/shell"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// Env is what Decide needs from the process environment.
type Env struct {
	// ProjectDir is $CLAUDE_PROJECT_DIR. When empty, the call's cwd is the
	// project root. The host moves cwd when the agent runs cd, so the
	// variable is what keeps the sandbox in place.
	ProjectDir string
	// Home is $HOME; when empty, paths starting with "~" are errors.
	Home string
	// Today is the local date, "2006-01-02", used in suggestions
	// ("write scratch files under agent_sandbox/2026-11-22/").
	Today string
}

// Root is one sandbox root: the project root or an additional directory.
type Root struct {
	Path     string `json:"path"`     // absolute and clean, as configured
	Resolved string `json:"resolved"` // symbolic links resolved
	Source   string `json:"source"`   // "CLAUDE_PROJECT_DIR", "cwd", "policy.yaml:12", "--add-dir"
}

// Modes is the effective mode of one call, each part with where it came from.
type Modes struct {
	Read          bool // read mode: every write is denied
	ReadSource    string
	AutoApprove   bool // writes inside the sandbox are allowed
	AutoSource    string
	Sandbox       bool // targets outside every root are judged by outside_read/outside_write
	SandboxSource string
	AGI           bool
}

// Rows of the decision table (core issue, "Decision"); the first row that
// matches a target decides it.
const (
	RowError     = 1  // unusable input or policy: on_error
	RowDeny      = 2  // a deny rule
	RowProtected = 3  // a write to a protected path
	RowReadMode  = 4  // read mode and the call writes
	RowOutside   = 5  // a target outside every root
	RowAsk       = 6  // an ask rule
	RowAllow     = 7  // an allow rule
	RowRead      = 8  // a built-in read tool, inside
	RowWrite     = 9  // a built-in write tool, inside: safe or auto-approved, else abstain
	RowOther     = 10 // MCP tools and tools safezone does not understand: abstain
)

// Reason is one matching row: a rule, a class, a mode or a fallback, for one
// target or for the call as a whole.
type Reason struct {
	Row    int
	Effect policy.Decision
	// Rule names what matched: "Read(.env*)", `paths.protected ".git/**"`,
	// "sandbox.outside_write", "read mode".
	Rule string
	// Source says where it is defined: "policy.yaml:14", "-r/--read",
	// "host permission_mode plan".
	Source string
	Target int    // index into Result.Targets; -1 for the call itself
	Path   string // the path (view) that matched, if any
	Note   string // extra detail for the message
	// Warning marks a warned-path match: it adds a warning to whatever is
	// decided and never decides itself.
	Warning bool
}

// Result is a decision with everything that led to it.
type Result struct {
	Decision policy.Decision
	Row      int    // the row that decided
	Reason   string // the message for the host (model or user)
	Warning  string // set when a write target is in a warned path
	Modes    Modes
	Roots    []Root
	Targets  []Target
	// Reasons lists every row that matched, in target order, the deciding
	// one included; explain shows them all.
	Reasons []Reason
	// Err is the first error that made the call unusable (row 1).
	Err error
	// Deciding is the reason that decided: its Rule and Source name the
	// rule, class or mode. Zero for row 1.
	Deciding Reason
	// Shell is the analysis of a Bash command (nil for other tools; a
	// PowerShell command is always unknown).
	Shell *shell.Analysis

	call *hookio.Call
	pol  *policy.Policy
	env  Env
}

type decider struct {
	call    *hookio.Call
	pol     *policy.Policy
	env     Env
	fsys    fs.ReadLinkFS
	modes   Modes
	roots   []Root
	anchors anchors
	globs   glob.Cache
	// resolved caches resolvedPattern.
	resolved map[*policy.Pattern][]string
	// shell is the analysis of a shell call; nil for other tools.
	shell *shell.Analysis
}

// Decide judges one call against a policy (see the decision table in the
// README and the core issue). It returns the decision and every reason. It
// never fails: problems with the call (unresolvable paths, symlink loops,
// paths over PATH_MAX, "~" without HOME) decide by row 1, on_error; a deny
// rule that matches another target still wins over on_error: ask.
func Decide(c *hookio.Call, p *policy.Policy, env Env, fsys fs.ReadLinkFS) *Result {
	fsys = newMemoFS(fsys)
	d := &decider{call: c, pol: p, env: env, fsys: fsys, globs: glob.Cache{}}
	r := &Result{call: c, pol: p, env: env}
	d.modes = modesOf(p, c)
	r.Modes = d.modes
	if err := d.setRoots(); err != nil {
		r.Roots = d.roots
		return d.fail(r, err)
	}
	r.Roots = d.roots
	r.Targets = targets(c, env.Home, fsys)
	switch c.Kind {
	case hookio.KindShell:
		sa := shell.Analyze(c.Command, shell.Env{Cwd: c.Cwd, Home: env.Home, ProjectDir: env.ProjectDir})
		r.Targets = append(r.Targets, shellTargets(&sa, fsys)...)
		d.shell, r.Shell = &sa, &sa
	case hookio.KindPowerShell:
		d.shell = &shell.Analysis{Unknown: "safezone cannot parse PowerShell"}
		r.Shell = d.shell
	}

	var outcomes []policy.Decision
	// Rules that name the call itself (a tool name, a command).
	callReasons := d.callRules()
	r.Reasons = append(r.Reasons, callReasons...)
	for _, cr := range callReasons {
		if cr.Row == RowDeny {
			outcomes = append(outcomes, policy.Deny)
		}
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		if t.Err != nil {
			if r.Err == nil {
				r.Err = fmt.Errorf("%s %q: %w", t.Field, t.Given, t.Err)
			}
			continue
		}
		rs := d.judge(i, t)
		r.Reasons = append(r.Reasons, rs...)
		outcomes = append(outcomes, r.deciding(append(rs, callReasons...)).Effect)
	}
	if len(r.Targets) == 0 {
		rs := d.judgeCall()
		r.Reasons = append(r.Reasons, rs...)
		outcomes = append(outcomes, r.deciding(append(rs, callReasons...)).Effect)
	}
	if r.Err != nil {
		outcomes = append(outcomes, p.OnError.Value)
	}
	r.Decision = policy.Strictest(outcomes...)
	d.explainDecision(r)
	return r
}

// fail decides a call that cannot be judged at all (row 1).
func (d *decider) fail(r *Result, err error) *Result {
	r.Err = err
	r.Decision = d.pol.OnError.Value
	d.explainDecision(r)
	return r
}

// deciding returns the reason that decides one target (or the call): the
// one with the lowest row, except that a shell command with a target
// safezone cannot know is never allowed outside agi mode (issue "Shell
// commands"): an allow from a rule, a class or a mode gives way to the
// unknown row's ask.
func (r *Result) deciding(rs []Reason) Reason {
	f := first(rs)
	if f.Effect != policy.Allow || r.Shell == nil || r.Shell.Known() || r.Modes.AGI {
		return f
	}
	for _, x := range rs {
		if x.Row == RowOther && x.Effect == policy.Ask {
			return x
		}
	}
	return Reason{Row: RowOther, Effect: policy.Ask, Rule: "targets safezone cannot know", Target: -1, Note: r.Shell.Why()}
}

// first returns the reason with the lowest row.
func first(rs []Reason) Reason {
	best := Reason{Row: RowOther + 1, Effect: policy.Deny}
	for _, r := range rs {
		if !r.Warning && r.Row < best.Row {
			best = r
		}
	}
	return best
}

func modesOf(p *policy.Policy, c *hookio.Call) Modes {
	var m Modes
	m.AGI = p.Mode.Value == policy.ModeAGI
	switch {
	case c.PermissionMode == hookio.PermPlan:
		m.Read, m.ReadSource = true, "host permission_mode plan"
		m.AGI = false
	case p.Mode.Value == policy.ModeRead:
		m.Read, m.ReadSource = true, origin("mode: read", p.Mode.Pos)
	}
	switch {
	case m.Read:
	case m.AGI:
		m.AutoApprove, m.AutoSource = true, origin("mode: agi", p.Mode.Pos)
	case p.AutoApprove.Value:
		m.AutoApprove, m.AutoSource = true, origin("auto_approve: true", p.AutoApprove.Pos)
	case c.PermissionMode == hookio.PermAcceptEdits || c.PermissionMode == hookio.PermBypass:
		m.AutoApprove, m.AutoSource = true, "host permission_mode "+c.PermissionMode.String()
	}
	switch {
	case p.Mode.Value == policy.ModeAGI:
		m.SandboxSource = origin("mode: agi", p.Mode.Pos)
	case !p.SandboxEnabled.Value:
		m.SandboxSource = origin("sandbox.enabled: false", p.SandboxEnabled.Pos)
	default:
		m.Sandbox, m.SandboxSource = true, origin("sandbox.enabled: true", p.SandboxEnabled.Pos)
	}
	return m
}

// origin says where a setting came from: "mode: read at policy.yaml:3" for
// a file, just the flag ("-r/--read") for a flag or built-in default.
func origin(setting string, pos policy.Pos) string {
	if pos.Line == 0 {
		return pos.File
	}
	return setting + " at " + pos.String()
}

// setRoots resolves the project root and the additional directories.
func (d *decider) setRoots() error {
	proj, src := d.env.ProjectDir, "CLAUDE_PROJECT_DIR"
	if proj == "" {
		proj, src = d.call.Cwd, "cwd (CLAUDE_PROJECT_DIR is not set)"
	}
	if !strings.HasPrefix(proj, "/") {
		return fmt.Errorf("project root %q (%s) is not an absolute path", proj, src)
	}
	if err := d.addRoot(proj, src); err != nil {
		return err
	}
	projectRoot := d.roots[0]
	d.anchors.project = uniq(projectRoot.Path, projectRoot.Resolved)
	for _, r := range d.call.Roots {
		if err := d.addRoot(r, "the host's workspace roots"); err != nil {
			return err
		}
	}
	for _, dir := range d.pol.AdditionalDirectories {
		p, err := expandHome(dir.Path, d.env.Home)
		if err != nil {
			return fmt.Errorf("sandbox.additional_directories %q (%s): %w", dir.Path, dir.Pos, err)
		}
		if !strings.HasPrefix(p, "/") {
			base := dir.Base
			if base == "" {
				base = projectRoot.Path
			}
			p = base + "/" + p
		}
		if err := d.addRoot(p, dir.Pos.String()); err != nil {
			return err
		}
	}
	if d.env.Home != "" && strings.HasPrefix(d.env.Home, "/") {
		home := path.Clean(d.env.Home)
		d.anchors.home = []string{home}
		if d.needsHome() {
			if res, err := Resolve(d.fsys, home); err == nil {
				d.anchors.home = uniq(home, res.Path)
			}
		}
	}
	return nil
}

func (d *decider) addRoot(p, src string) error {
	res, err := Resolve(d.fsys, p)
	if err != nil {
		return fmt.Errorf("sandbox root %s (%s): %w", p, src, err)
	}
	d.roots = append(d.roots, Root{Path: path.Clean(p), Resolved: res.Path, Source: src})
	return nil
}

// needsHome reports whether some pattern is anchored at the home directory,
// so that its resolution is worth a few Lstat calls.
func (d *decider) needsHome() bool {
	for _, list := range [][]policy.Pattern{d.pol.Protected, d.pol.Warned, d.pol.Safe} {
		for i := range list {
			if list[i].Anchor == policy.Home {
				return true
			}
		}
	}
	for _, list := range [][]policy.Rule{d.pol.Deny, d.pol.Ask, d.pol.Allow} {
		for i := range list {
			if list[i].Kind == policy.RulePath && list[i].Path.Anchor == policy.Home {
				return true
			}
		}
	}
	return false
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// inside reports whether p is within some root (resolved).
func (d *decider) inside(p string) bool {
	for _, r := range d.roots {
		if within(r.Resolved, p) {
			return true
		}
	}
	return false
}

// callRules returns the rules that match the call itself, whatever its
// targets: a bare tool name or tool glob ("WebFetch", "mcp__evil__*"), a
// specifier safezone cannot evaluate (deny and ask only), and a command
// pattern for shell tools.
func (d *decider) callRules() []Reason {
	var out []Reason
	lists := []struct {
		rules []policy.Rule
		row   int
		eff   policy.Decision
		name  string
	}{
		{d.pol.Deny, RowDeny, policy.Deny, "deny"},
		{d.pol.Ask, RowAsk, policy.Ask, "ask"},
		{d.pol.Allow, RowAllow, policy.Allow, "allow"},
	}
	for _, l := range lists {
		for i := range l.rules {
			r := &l.rules[i]
			if !r.NamesTool(d.call.Tool) {
				continue
			}
			match := false
			note := ""
			switch r.Kind {
			case policy.RuleTool:
				match = true
			case policy.RuleOpaque:
				match = l.eff != policy.Allow
				note = "safezone cannot evaluate this rule's specifier, so it applies to every call of the tool"
			case policy.RuleCommand:
				match = d.shellRuleMatches(r, l.eff == policy.Allow)
			}
			if match && l.eff == policy.Allow && d.shell != nil && !d.shell.Known() && !d.modes.AGI {
				// Outside agi, a command with an unknown target is never
				// allowed, whatever an allow rule says.
				match = false
			}
			if match {
				out = append(out, Reason{Row: l.row, Effect: l.eff, Rule: r.Text, Source: r.Pos.String(), Target: -1, Note: note})
			}
		}
	}
	return out
}

// judge applies the decision table to one target and returns every matching
// row; the lowest row, among these and the call's own rules, decides.
func (d *decider) judge(i int, t *Target) []Reason {
	var out []Reason
	add := func(row int, eff policy.Decision, rule, src, p, note string) {
		out = append(out, Reason{Row: row, Effect: eff, Rule: rule, Source: src, Target: i, Path: p, Note: note})
	}
	pattern := len(t.Globs) > 0

	// Row 2: deny rules.
	for j := range d.pol.Deny {
		r := &d.pol.Deny[j]
		if p, ok := d.ruleMatches(r, t, true); ok {
			add(RowDeny, policy.Deny, r.Text, r.Pos.String(), p, "")
		}
	}
	if !pattern {
		// Classes.
		if t.Access == policy.Write {
			for j := range d.pol.Protected {
				pt := &d.pol.Protected[j]
				if p, ok := d.anyView(pt, t); ok {
					t.Protected = true
					rule := fmt.Sprintf("paths.protected %q", pt.Text)
					if pt.Pos.File == policy.SelfProtectionSource {
						rule = fmt.Sprintf("self-protection %q", pt.Text)
					}
					add(RowProtected, policy.Deny, rule, pt.Pos.String(), p, "")
				}
			}
			if t.Recursive {
				for j := range d.pol.Protected {
					pt := &d.pol.Protected[j]
					if p, ok := d.protectedBelow(pt, t); ok {
						t.Protected = true
						add(RowProtected, policy.Deny, fmt.Sprintf("paths.protected %q", pt.Text), pt.Pos.String(), p,
							"a recursive write reaches "+p)
					}
				}
			}
			for j := range d.pol.Warned {
				pt := &d.pol.Warned[j]
				if p, ok := d.anyView(pt, t); ok {
					t.Warned = true
					add(RowWrite, policy.Abstain, fmt.Sprintf("paths.warned %q", pt.Text), pt.Pos.String(), p, "")
					out[len(out)-1].Warning = true
				}
			}
			t.Safe = d.allViewsSafe(t)
		}
		switch {
		case t.Protected:
			t.Class = "protected"
		case t.Warned:
			t.Class = "warned"
		case t.Safe:
			t.Class = "safe"
		}
		// Row 4: read mode.
		if d.modes.Read && (t.Access == policy.Write || d.callWrites()) {
			add(RowReadMode, policy.Deny, "read mode", d.modes.ReadSource, "", "")
		}
		// Row 5: outside the sandbox.
		t.Inside = true
		if d.modes.Sandbox {
			for _, v := range t.placeViews() {
				if !d.inside(v) {
					t.Inside = false
					s := d.pol.OutsideRead
					name := "sandbox.outside_read"
					if t.Access == policy.Write {
						s, name = d.pol.OutsideWrite, "sandbox.outside_write"
					}
					add(RowOutside, s.Value, name, s.Pos.String(), v, "")
					break
				}
			}
		}
	} else {
		t.Inside = true
	}
	// Row 6: ask rules.
	for j := range d.pol.Ask {
		r := &d.pol.Ask[j]
		if p, ok := d.ruleMatches(r, t, true); ok {
			add(RowAsk, policy.Ask, r.Text, r.Pos.String(), p, "")
		}
	}
	if pattern {
		// A pattern target only carries deny and ask rules; its directory
		// is judged as a target of its own.
		add(RowRead, policy.Allow, "pattern", "", "", "checked against deny and ask rules only")
		return out
	}
	// Row 7: allow rules (exact access).
	for j := range d.pol.Allow {
		r := &d.pol.Allow[j]
		if p, ok := d.ruleMatches(r, t, false); ok {
			add(RowAllow, policy.Allow, r.Text, r.Pos.String(), p, "")
		}
	}
	// Rows 8 to 10.
	switch {
	case d.call.Kind.Builtin() && t.Access == policy.Read:
		add(RowRead, policy.Allow, "read inside the sandbox", "", "", "")
	case d.call.Kind.Builtin() && t.Access == policy.Write:
		switch {
		case t.Safe:
			add(RowWrite, policy.Allow, "safe path", d.safeSource(t), "", "")
		case d.modes.AutoApprove:
			add(RowWrite, policy.Allow, "auto-approve", d.modes.AutoSource, "", "")
		default:
			add(RowWrite, policy.Abstain, "not auto-approved", "", "", "the host asks as usual")
		}
	case d.shell != nil:
		eff, rule, note := d.shellFallback()
		add(RowOther, eff, rule, "", "", note)
	default:
		add(RowOther, policy.Abstain, d.otherRule(), "", "", "")
	}
	return out
}

// judgeCall applies the table to a call without targets.
func (d *decider) judgeCall() []Reason {
	var out []Reason
	if d.modes.Read && d.callWrites() {
		out = append(out, Reason{Row: RowReadMode, Effect: policy.Deny, Rule: "read mode", Source: d.modes.ReadSource, Target: -1})
	}
	if d.shell != nil {
		eff, rule, note := d.shellFallback()
		return append(out, Reason{Row: RowOther, Effect: eff, Rule: rule, Target: -1, Note: note})
	}
	out = append(out, Reason{Row: RowOther, Effect: policy.Abstain, Rule: d.otherRule(), Target: -1})
	return out
}

func (d *decider) otherRule() string {
	switch d.call.Kind {
	case hookio.KindMCP:
		return "MCP tool: never allowed by safezone"
	case hookio.KindShell:
		return "shell command: no targets known"
	case hookio.KindPowerShell:
		return "PowerShell command: safezone cannot parse it"
	}
	return "tool safezone does not judge"
}

// ruleMatches reports whether a path rule applies to target t, and the
// view that matched. Read(...) rules apply to reads and, in deny and ask
// lists (widen), to writes of the same path: you may not overwrite what
// you may not read.
func (d *decider) ruleMatches(r *policy.Rule, t *Target, widen bool) (string, bool) {
	if r.Kind != policy.RulePath {
		return "", false
	}
	if !r.AnyAccess && !r.NamesTool(d.call.Tool) {
		return "", false
	}
	if r.Access != t.Access && !(widen && r.Access == policy.Read) {
		return "", false
	}
	if len(t.Globs) > 0 {
		for _, tg := range t.Globs {
			for _, pg := range patternGlobs(&r.Path, &d.anchors) {
				if d.globs.Names(fold(tg), fold(pg.glob), pg.neutral) {
					return tg, true
				}
			}
		}
		return "", false
	}
	return d.anyView(&r.Path, t)
}

func (d *decider) anyView(p *policy.Pattern, t *Target) (string, bool) {
	for _, v := range t.views() {
		if matchPattern(p, v, &d.anchors) {
			return v, true
		}
	}
	if p.Resolve && t.Access == policy.Write {
		for _, rp := range d.resolvedPattern(p) {
			for _, v := range t.views() {
				if within(rp, v) {
					return v, true
				}
			}
		}
	}
	return "", false
}

// resolvedPattern returns where the literal path of a Resolve pattern leads
// when that differs from the path itself (a symlinked file or directory), for
// every spelling of its anchor. It is computed once per decision, on the
// memoised file-system view; a path that cannot be resolved adds nothing
// (the pattern still matches the path as written).
func (d *decider) resolvedPattern(p *policy.Pattern) []string {
	if out, ok := d.resolved[p]; ok {
		return out
	}
	lit := glob.Unescape(p.Glob)
	var cands []string
	switch p.Anchor {
	case policy.Absolute:
		cands = []string{lit}
	case policy.ProjectRoot, policy.Home:
		bases := d.anchors.project
		if p.Anchor == policy.Home {
			bases = d.anchors.home
		}
		for _, b := range bases {
			cands = append(cands, strings.TrimSuffix(b, "/")+"/"+lit)
		}
	}
	var out []string
	for _, c := range cands {
		if res, err := Resolve(d.fsys, c); err == nil && res.Path != path.Clean(c) {
			out = append(out, res.Path)
		}
	}
	if d.resolved == nil {
		d.resolved = map[*policy.Pattern][]string{}
	}
	d.resolved[p] = out
	return out
}

// allViewsSafe reports whether every view of t is in a safe path.
func (d *decider) allViewsSafe(t *Target) bool {
	if len(d.pol.Safe) == 0 {
		return false
	}
	for _, v := range t.views() {
		ok := false
		for j := range d.pol.Safe {
			if matchPattern(&d.pol.Safe[j], v, &d.anchors) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func (d *decider) safeSource(t *Target) string {
	for j := range d.pol.Safe {
		if matchPattern(&d.pol.Safe[j], t.Res.Path, &d.anchors) {
			return fmt.Sprintf("paths.safe %q (%s)", d.pol.Safe[j].Text, d.pol.Safe[j].Pos)
		}
	}
	return "paths.safe"
}

// wildcard matches s against a pattern whose only metacharacter is "*"
// (any text, spaces included).
func wildcard(pat, s string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
