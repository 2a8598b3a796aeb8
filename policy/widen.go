package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// What a layer that comes with the repository may do without the user's
// trust (README, "Layers", the table "What a project layer widens"): every
// entry that tightens applies at once; every entry that widens is left out
// until the user trusts the file's content (`safezone trust FILE`).
//
// "Widen" is judged key by key against the merge of the layers below the
// file, so that a value equal to the one in force, or stricter, is never
// held back:
//
//   - mode: agi over write or read, write over read;
//   - auto_approve, audit.dry_run: true over false;
//   - sandbox.enabled, host_settings, audit.all, audit.required,
//     audit.syslog: false over true;
//   - sandbox.outside_read, sandbox.outside_write, on_error, guards.*: a
//     looser decision (ask over deny; off over ask or deny);
//   - confine.mode: off over auto or always, auto over always;
//   - audit.path: any other file (or none); audit.max_bytes, audit.keep:
//     less kept;
//   - sandbox.additional_directories, sandbox.read_dirs, paths.safe,
//     paths.templates, confine.write, confine.program_writable (the kernel
//     neither hides nor keeps read-only anything below one),
//     confine.sockets, confine.grants (secrets and sockets a confined
//     command may reach), and Claude Code's
//     permissions.additionalDirectories: every entry;
//   - rules.allow: every entry of a policy file; of Claude Code's
//     permissions.allow, every path rule (Read(...), Edit(...), ...), which
//     safezone applies beyond the host (to reads outside the project, to
//     every tool that reads or writes, MCP tools included); a rule for a
//     tool or a command (Bash(npm test:*), WebFetch) is kept, as Claude
//     Code applies it itself whenever safezone abstains, and safezone's
//     allow only adds confinement;
//   - remove: of rules.deny, rules.ask, paths.protected and paths.warned
//     entries; removing the other keys' entries tightens.
//
// paths.protected, paths.warned, rules.deny and rules.ask only tighten.

// Untrusted is one entry of a layer that comes with the repository
// (Scope.FromRepository) and would widen the policy: left out until the user
// trusts the file's content.
type Untrusted struct {
	Key   string // "sandbox.outside_write", "permissions.allow", "remove.rules.deny"
	Value string // the entry or value as written
	Pos   Pos
	Why   string // what it would widen, against what
}

func (u Untrusted) String() string {
	return fmt.Sprintf("%s: %s (%s) ignored until the file is trusted: %s", u.Key, u.Value, u.Pos, u.Why)
}

// Restrict splits l, a layer that comes with the repository and whose
// content the user has not trusted, over lower, the merge of the layers
// below it: it returns a copy of l without the entries that would widen
// lower, and those entries, in the order of the schema. It is pure: l and
// lower are not changed.
//
// A key the managed policy locked is left to the lock: its entries stay in
// the copy, for [Merge] to keep out and report as locked.
func Restrict(lower *Policy, l *Layer) (*Layer, []Untrusted) {
	c := *l
	r := &restrictor{l: &c, locked: map[string]bool{}}
	for _, k := range lower.Locked {
		r.locked[k.Value] = true
	}
	r.scalars(lower)
	r.lists()
	r.audit(lower)
	r.removals()
	return &c, r.out
}

type restrictor struct {
	l      *Layer
	out    []Untrusted
	locked map[string]bool // the keys the managed policy locked
}

// holds reports whether the entry of key is left out (and records it):
// not when the key is locked, which keeps it out anyway.
func (r *restrictor) hold(key, value string, pos Pos, why string) bool {
	if r.locked[lockKey(key)] {
		return false
	}
	r.out = append(r.out, Untrusted{Key: key, Value: value, Pos: pos, Why: why})
	return true
}

// lockKey is the key of locked: that covers key as Restrict names it.
func lockKey(key string) string {
	switch key {
	case "permissions.allow":
		return "rules.allow"
	case "permissions.additionalDirectories":
		return "sandbox.additional_directories"
	}
	if k, ok := strings.CutPrefix(key, "remove."); ok {
		return k[:strings.IndexByte(k, '[')]
	}
	return key
}

// scalar leaves out *set when widens says its value is looser than the
// one in force (have); show spells a value as the policy does.
func holdBack[T any](r *restrictor, key string, set **Setting[T], have Setting[T], widens func(v, have T) bool, show func(T) string) {
	s := *set
	if s == nil || !widens(s.Value, have.Value) {
		return
	}
	if r.hold(key, show(s.Value), s.Pos, fmt.Sprintf("looser than %s (%s)", show(have.Value), have.Pos)) {
		*set = nil
	}
}

func becomesTrue(v, have bool) bool  { return v && !have }
func becomesFalse(v, have bool) bool { return !v && have }

// looser reports whether decision v is less strict than have (deny < ask
// < allow < abstain, the order of Decision's values; a guard's off is
// Abstain).
func looser(v, have Decision) bool { return v > have }

// modeRank orders the modes from the strictest: read, write, agi.
func modeRank(m Mode) int {
	switch m {
	case ModeRead:
		return 0
	case ModeWrite:
		return 1
	}
	return 2
}

// confineRank orders confine.mode from the loosest: off, auto, always.
func confineRank(m ConfineMode) int {
	switch m {
	case ConfineOff:
		return 0
	case ConfineAuto:
		return 1
	}
	return 2
}

func show[T any](v T) string { return fmt.Sprint(v) }

func showGuard(d Decision) string {
	if d == Abstain {
		return "off"
	}
	return d.String()
}

func (r *restrictor) scalars(lower *Policy) {
	l := r.l
	holdBack(r, "mode", &l.Mode, lower.Mode, func(v, have Mode) bool { return modeRank(v) > modeRank(have) }, show[Mode])
	holdBack(r, "auto_approve", &l.AutoApprove, lower.AutoApprove, becomesTrue, show[bool])
	holdBack(r, "sandbox.enabled", &l.SandboxEnabled, lower.SandboxEnabled, becomesFalse, show[bool])
	holdBack(r, "sandbox.outside_read", &l.OutsideRead, lower.OutsideRead, looser, show[Decision])
	holdBack(r, "sandbox.outside_write", &l.OutsideWrite, lower.OutsideWrite, looser, show[Decision])
	holdBack(r, "on_error", &l.OnError, lower.OnError, looser, show[Decision])
	holdBack(r, "host_settings", &l.HostSettings, lower.HostSettings, becomesFalse, show[bool])
	g := l.Guards
	holdBack(r, "guards.lose_work", &g.LoseWork, lower.Guards.LoseWork, looser, showGuard)
	holdBack(r, "guards.install_outside", &g.InstallOutside, lower.Guards.InstallOutside, looser, showGuard)
	l.Guards = g
	c := l.Confine
	holdBack(r, "confine.mode", &c.Mode, lower.Confine.Mode, func(v, have ConfineMode) bool { return confineRank(v) < confineRank(have) }, show[ConfineMode])
	l.Confine = c
	holdBack(r, "network.isolate", &l.Network.Isolate, lower.Network.Isolate, becomesFalse, show[bool])
}

// lists leaves out the list entries that widen: every directory, safe
// path and template, and the allow rules (see the table above).
func (r *restrictor) lists() {
	l := r.l
	dirKey, allowKey := "sandbox.additional_directories", "rules.allow"
	if l.ClaudeSettings {
		dirKey, allowKey = "permissions.additionalDirectories", "permissions.allow"
	}
	l.AdditionalDirectories = holdAll(r, dirKey, l.AdditionalDirectories, dirEntry, "adds a directory to the sandbox")
	l.ReadDirs = holdAll(r, "sandbox.read_dirs", l.ReadDirs, dirEntry, "adds a directory that may be read")
	l.Safe = holdAll(r, "paths.safe", l.Safe, patternEntry, "approves writes there without a question")
	l.Templates = holdAll(r, "paths.templates", l.Templates, templateEntry, "exempts the name from the patterns and rules that cover it")
	c := l.Confine
	c.Write = holdAll(r, "confine.write", c.Write, dirEntry, "lets confined commands write there")
	c.ProgramWritable = holdAll(r, "confine.program_writable", c.ProgramWritable, patternEntry, "stops the kernel hiding the secrets and keeping the protected paths read-only below it")
	c.Sockets = holdAll(r, "confine.sockets", c.Sockets, templateEntry, "lets confined commands reach a program running outside the sandbox")
	c.Grants = holdAll(r, "confine.grants", c.Grants, grantEntry, "lets a confined command read secrets and reach sockets")
	l.Confine = c
	// Claude Code's allowedDomains and WebFetch(domain:…) rules alike.
	l.Network.Allow = holdAll(r, "network.allow", l.Network.Allow, templateEntry, "lets confined commands connect to that host")
	var kept []Rule
	for _, a := range l.Allow {
		if why := allowWidens(a, l.ClaudeSettings); why == "" || !r.hold(allowKey, a.Text, a.Pos, why) {
			kept = append(kept, a)
		}
	}
	l.Allow = kept
}

// holdAll holds every entry of list back, and returns what is kept: the
// entries of a locked key.
func holdAll[T any](r *restrictor, key string, list []T, entry func(T) (string, Pos), why string) []T {
	var kept []T
	for _, x := range list {
		if text, pos := entry(x); !r.hold(key, text, pos, why) {
			kept = append(kept, x)
		}
	}
	return kept
}

// allowWidens says what allow rule a would widen, or "" when it widens
// nothing; claude marks a rule of Claude Code's settings.
func allowWidens(a Rule, claude bool) string {
	outside := a.Kind == RulePath && (a.Path.Anchor == Absolute || a.Path.Anchor == Home)
	switch {
	case outside:
		return "an allow rule reaching outside the project"
	case a.Kind == RulePath:
		return "a path allow rule: safezone applies it to every tool that reads or writes, MCP tools included"
	case claude:
		// Claude Code applies its own tool and command rules whenever
		// safezone abstains; safezone's allow adds confinement only. An
		// opaque rule never allows.
		return ""
	}
	// Every rule of safezone's own file, an opaque one included (it never
	// matches as an allow rule, so holding it back changes nothing).
	return "an allow rule: it approves calls the host would ask about"
}

// mayWiden reports whether l sets anything [Restrict] could hold back: a
// scalar (whether it widens depends on the layers below), an entry of a
// list that widens, an allow rule that does, a removal that does. A layer
// of deny and ask rules and protected and warned paths never widens.
func (l *Layer) mayWiden() bool {
	a := l.Audit
	scalarSet := l.Mode != nil || l.AutoApprove != nil || l.SandboxEnabled != nil || l.OutsideRead != nil ||
		l.OutsideWrite != nil || l.OnError != nil || l.HostSettings != nil || l.Guards.LoseWork != nil ||
		l.Guards.InstallOutside != nil || l.Confine.Mode != nil || l.Network.Isolate != nil || a.Path != nil || a.All != nil ||
		a.MaxBytes != nil || a.Keep != nil || a.Required != nil || a.Syslog != nil || a.DryRun != nil
	c := l.Confine
	listSet := len(l.AdditionalDirectories)+len(l.ReadDirs)+len(l.Safe)+len(l.Templates)+
		len(c.Write)+len(c.ProgramWritable)+len(c.Sockets)+len(c.Grants)+len(l.Network.Allow) > 0
	return scalarSet || listSet ||
		slices.ContainsFunc(l.Allow, func(r Rule) bool { return allowWidens(r, l.ClaudeSettings) != "" }) ||
		slices.ContainsFunc(l.Remove, func(r Removal) bool { return widensRemoval(r.Key) })
}

// widensRemoval reports whether removing an entry of key widens the
// policy: a deny or ask rule, a protected or warned path.
func widensRemoval(key string) bool {
	switch key {
	case "rules.deny", "rules.ask", "paths.protected", "paths.warned":
		return true
	}
	return false
}

// audit leaves out the audit settings that record less, or elsewhere.
func (r *restrictor) audit(lower *Policy) {
	a := r.l.Audit
	have := lower.Audit
	if a.Path != nil {
		if p := layerAuditPath(r.l, *a.Path); p.Value != have.Path.Value {
			why := fmt.Sprintf("moves the audit log from %q (%s)", have.Path.Value, have.Path.Pos)
			if have.Path.Value == "" {
				why = "makes safezone write a file the repository names"
			}
			if r.hold("audit.path", a.Path.Value, a.Path.Pos, why) {
				a.Path = nil
			}
		}
	}
	holdBack(r, "audit.all", &a.All, have.All, becomesFalse, show[bool])
	holdBack(r, "audit.max_bytes", &a.MaxBytes, have.MaxBytes, func(v, have int64) bool { return v != 0 && (have == 0 || v < have) }, show[int64])
	holdBack(r, "audit.keep", &a.Keep, have.Keep, func(v, have int) bool { return v < have }, show[int])
	holdBack(r, "audit.required", &a.Required, have.Required, becomesFalse, show[bool])
	holdBack(r, "audit.syslog", &a.Syslog, have.Syslog, becomesFalse, show[bool])
	holdBack(r, "audit.dry_run", &a.DryRun, have.DryRun, becomesTrue, show[bool])
	r.l.Audit = a
}

// layerAuditPath is audit.path s of layer l as Merge applies it: a
// relative path made absolute against the layer's directory.
func layerAuditPath(l *Layer, s Setting[string]) Setting[string] {
	if s.Value != "" && l.Dir != "" && !filepath.IsAbs(s.Value) && s.Value != "~" && !strings.HasPrefix(s.Value, "~/") {
		s.Value = filepath.Join(l.Dir, s.Value)
	}
	return s
}

// removals leaves out the removals of entries that tighten: deny and ask
// rules, protected and warned paths.
func (r *restrictor) removals() {
	var kept []Removal
	for _, x := range r.l.Remove {
		if widensRemoval(x.Key) && r.hold(x.Field(), x.Value, x.Pos, "takes out an entry that tightens the policy") {
			continue
		}
		kept = append(kept, x)
	}
	r.l.Remove = kept
}
