package policy

import (
	"errors"
	"fmt"
	"slices"
)

// Policy is the effective policy: every layer merged (see [Merge]). Every
// value carries the position it came from, for reasons and explain.
type Policy struct {
	// Sources names the layers, lowest precedence first.
	Sources []string

	Mode           Setting[Mode]
	AutoApprove    Setting[bool]
	SandboxEnabled Setting[bool]
	OutsideRead    Setting[Decision]
	OutsideWrite   Setting[Decision]
	OnError        Setting[Decision]
	HostSettings   Setting[bool]
	SelfProtection Setting[bool]

	AdditionalDirectories []Dir
	Protected, Warned     []Pattern
	Safe                  []Pattern
	Deny, Ask, Allow      []Rule

	// Templates are file names (paths.templates) that a protected path or a
	// rule reaches only by naming them: ".env*" does not match .env.example,
	// ".env.example" does. Each is a bare name, no "/" and no wildcard.
	Templates []Setting[string]

	Audit Audit

	// ReadDirs are directories that may be read but not written
	// (sandbox.read_dirs), each with its Base.
	ReadDirs []Dir
	Guards   Guards
	Confine  Confine
	Network  Network

	// HostSandbox is what Claude Code's settings say of its own sandbox.
	HostSandbox HostSandbox

	// Locked lists the keys the managed layer locked.
	Locked []Setting[string]
	// Ignored lists what lower layers and flags tried to set on a locked
	// key: reported by explain and `safezone policy`, never applied.
	Ignored []Ignored
	// Untrusted lists what layers that come with the repository would
	// widen: left out until the user trusts their content (see [Restrict]).
	Untrusted []Untrusted
	// Trusted names the layers that come with the repository whose content
	// the user trusted: they apply whole.
	Trusted []string
	// Removed lists the entries of lower layers that remove: sections took
	// out.
	Removed []Removed

	Warnings []*Error
	// Errors are problems of the layers together that make the policy
	// unusable: a removal that names no entry of a lower layer. See
	// [Policy.Err].
	Errors []*Error
}

// Err returns the policy's Errors joined, or nil.
func (p *Policy) Err() error {
	var errs []error
	for _, e := range p.Errors {
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// Ignored is one value that a lock kept out of the policy.
type Ignored struct {
	Key      string // "mode", "rules.allow"
	Value    string // the value as it would have applied
	Pos      Pos    // where it was set
	LockedAt Pos    // where the managed layer locked the key
}

func (ig Ignored) String() string {
	return fmt.Sprintf("%s: %s (%s) ignored: locked by the managed policy (%s)", ig.Key, ig.Value, ig.Pos, ig.LockedAt)
}

// builtin is the position of a value no layer set.
var builtin = Pos{File: "<built-in default>"}

// Defaults returns the values that apply when no layer sets them: mode write,
// no auto-approve, sandbox on, outside reads ask, outside writes deny,
// on_error deny, Claude Code's settings read, self-protection on, no audit
// log (rotation at 10 MiB, keeping 5, once a path is set), both guards ask,
// confine auto.
func Defaults() *Policy {
	return &Policy{
		Mode:           Setting[Mode]{ModeWrite, builtin},
		AutoApprove:    Setting[bool]{false, builtin},
		SandboxEnabled: Setting[bool]{true, builtin},
		OutsideRead:    Setting[Decision]{Ask, builtin},
		OutsideWrite:   Setting[Decision]{Deny, builtin},
		OnError:        Setting[Decision]{Deny, builtin},
		HostSettings:   Setting[bool]{true, builtin},
		SelfProtection: Setting[bool]{true, builtin},
		Audit:          defaultAudit(),
		Guards: Guards{
			LoseWork:       Setting[Decision]{Ask, builtin},
			InstallOutside: Setting[Decision]{Ask, builtin},
		},
		Confine:     Confine{Mode: Setting[ConfineMode]{ConfineAuto, builtin}},
		HostSandbox: hostSandboxDefaults(),
		Network:     Network{Isolate: Setting[bool]{true, builtin}},
	}
}

// Merge combines layers, lowest precedence first: scalars take the highest
// layer that sets them; lists (additional directories, path classes, rules)
// are the union of all layers, in layer order, less the entries a higher
// layer's remove: section names (each listed in Policy.Removed; a removal
// that names no entry of a lower layer is listed in Policy.Errors).
// Precedence between rule lists (a deny in any layer beats an allow in any
// layer) is applied when deciding, not here.
//
// A layer that comes with the repository (Scope.FromRepository) and is not
// Trusted adds only what does not widen the merge of the layers below it
// (see [Restrict]); the rest is listed in Policy.Untrusted.
//
// A managed layer's locked keys are closed to every later layer of scope
// user, project, local, file or flags: their values for a locked key are
// left out and listed in Policy.Ignored. For a locked list that means all
// their entries, stricter ones included. A relative additional directory
// keeps its layer's directory as its Base. Merge never fails; nil layers are
// skipped. Whether a layer may lock keys at all is checked by [CheckScope].
func Merge(layers ...*Layer) *Policy {
	p := Defaults()
	locks := map[string]Pos{}
	// What removals may name, kept only when some layer removes.
	var seen *written
	if slices.ContainsFunc(layers, func(l *Layer) bool { return l != nil && len(l.Remove) > 0 }) {
		seen = newWritten()
	}
	for _, l := range layers {
		if l == nil {
			continue
		}
		p.Sources = append(p.Sources, l.Name)
		lockable := l.Scope >= ScopeUser && l.Scope <= ScopeFlags
		open := func(key string, value func() string, pos Pos) bool {
			if at, ok := locks[key]; ok && lockable {
				p.Ignored = append(p.Ignored, Ignored{Key: key, Value: value(), Pos: pos, LockedAt: at})
				return false
			}
			return true
		}
		whole := l
		for _, r := range l.Remove {
			if err := seen.check(r); err != nil {
				p.Errors = append(p.Errors, err)
			}
		}
		switch {
		case l.Scope.FromRepository() && l.Trusted:
			p.Trusted = append(p.Trusted, l.Name)
		case l.Scope.FromRepository():
			var held []Untrusted
			l, held = Restrict(p, l)
			p.Untrusted = append(p.Untrusted, held...)
		}
		for _, r := range l.Remove {
			if seen.check(r) == nil && open(r.Key, func() string { return "remove " + r.Value }, r.Pos) {
				p.Removed = append(p.Removed, p.applyRemoval(r)...)
			}
		}
		scalar(open, "mode", &p.Mode, l.Mode)
		scalar(open, "auto_approve", &p.AutoApprove, l.AutoApprove)
		scalar(open, "sandbox.enabled", &p.SandboxEnabled, l.SandboxEnabled)
		scalar(open, "sandbox.outside_read", &p.OutsideRead, l.OutsideRead)
		scalar(open, "sandbox.outside_write", &p.OutsideWrite, l.OutsideWrite)
		scalar(open, "on_error", &p.OnError, l.OnError)
		scalar(open, "host_settings", &p.HostSettings, l.HostSettings)
		if l.SelfProtection != nil {
			p.SelfProtection = *l.SelfProtection
		}
		for _, d := range l.AdditionalDirectories {
			if d.Base == "" {
				d.Base = l.Dir
			}
			if open("sandbox.additional_directories", func() string { return d.Path }, d.Pos) {
				p.AdditionalDirectories = append(p.AdditionalDirectories, d)
			}
		}
		p.Protected = patterns(open, "paths.protected", p.Protected, l.Protected)
		p.Warned = patterns(open, "paths.warned", p.Warned, l.Warned)
		p.Safe = patterns(open, "paths.safe", p.Safe, l.Safe)
		p.Deny = rules(open, "rules.deny", p.Deny, l.Deny)
		p.Ask = rules(open, "rules.ask", p.Ask, l.Ask)
		p.Allow = rules(open, "rules.allow", p.Allow, l.Allow)
		mergeAudit(open, &p.Audit, l)
		mergeExtras(open, p, l)
		mergeHostSandbox(p, whole)
		mergeNetwork(open, p, l)
		p.Warnings = append(p.Warnings, l.Warnings...)
		if seen != nil {
			whole.listEntries(seen.add)
		}
		if l.Scope == ScopeManaged {
			for _, k := range l.Locked {
				locks[k.Value] = k.Pos
				p.Locked = append(p.Locked, k)
			}
		}
	}
	return p
}

type opener func(key string, value func() string, pos Pos) bool

func scalar[T any](open opener, key string, dst *Setting[T], src *Setting[T]) {
	if src == nil {
		return
	}
	if open(key, func() string { return fmt.Sprint(src.Value) }, src.Pos) {
		*dst = *src
	}
}

func patterns(open opener, key string, dst, src []Pattern) []Pattern {
	for _, x := range src {
		if open(key, x.String, x.Pos) {
			dst = append(dst, x)
		}
	}
	return dst
}

func rules(open opener, key string, dst, src []Rule) []Rule {
	for _, x := range src {
		if open(key, x.String, x.Pos) {
			dst = append(dst, x)
		}
	}
	return dst
}

// CheckScope reports settings a layer may not make at its scope: only the
// managed layer may lock keys or turn self-protection off.
func CheckScope(l *Layer) error {
	if l == nil || l.Scope == ScopeManaged {
		return nil
	}
	var errs []error
	for _, k := range l.Locked {
		errs = append(errs, &Error{Pos: k.Pos, Field: "locked", Err: fmt.Errorf("%w: only the managed policy can lock keys (%s is a %s layer)", ErrBadValue, l.Name, l.Scope)})
	}
	if l.SelfProtection != nil {
		errs = append(errs, &Error{Pos: l.SelfProtection.Pos, Field: "self_protection", Err: fmt.Errorf("%w: only the managed policy can turn self-protection off", ErrBadValue)})
	}
	return errors.Join(errs...)
}
