package policy

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

	AdditionalDirectories []Dir
	Protected, Warned     []Pattern
	Safe                  []Pattern
	Deny, Ask, Allow      []Rule

	Warnings []*Error
}

// builtin is the position of a value no layer set.
var builtin = Pos{File: "<built-in default>"}

// Defaults returns the values that apply when no layer sets them: mode write,
// no auto-approve, sandbox on, outside reads ask, outside writes deny,
// on_error deny.
func Defaults() *Policy {
	return &Policy{
		Mode:           Setting[Mode]{ModeWrite, builtin},
		AutoApprove:    Setting[bool]{false, builtin},
		SandboxEnabled: Setting[bool]{true, builtin},
		OutsideRead:    Setting[Decision]{Ask, builtin},
		OutsideWrite:   Setting[Decision]{Deny, builtin},
		OnError:        Setting[Decision]{Deny, builtin},
	}
}

// Merge combines layers, lowest precedence first: scalars take the highest
// layer that sets them; lists (additional directories, path classes, rules)
// are the union of all layers, in layer order. Precedence between rule lists
// (a deny in any layer beats an allow in any layer) is applied when deciding,
// not here. A relative additional directory keeps its layer's directory as its
// Base. Merge never fails; nil layers are skipped.
func Merge(layers ...*Layer) *Policy {
	p := Defaults()
	for _, l := range layers {
		if l == nil {
			continue
		}
		p.Sources = append(p.Sources, l.Name)
		set(&p.Mode, l.Mode)
		set(&p.AutoApprove, l.AutoApprove)
		set(&p.SandboxEnabled, l.SandboxEnabled)
		set(&p.OutsideRead, l.OutsideRead)
		set(&p.OutsideWrite, l.OutsideWrite)
		set(&p.OnError, l.OnError)
		for _, d := range l.AdditionalDirectories {
			if d.Base == "" {
				d.Base = l.Dir
			}
			p.AdditionalDirectories = append(p.AdditionalDirectories, d)
		}
		p.Protected = append(p.Protected, l.Protected...)
		p.Warned = append(p.Warned, l.Warned...)
		p.Safe = append(p.Safe, l.Safe...)
		p.Deny = append(p.Deny, l.Deny...)
		p.Ask = append(p.Ask, l.Ask...)
		p.Allow = append(p.Allow, l.Allow...)
		p.Warnings = append(p.Warnings, l.Warnings...)
	}
	return p
}

func set[T any](dst *Setting[T], src *Setting[T]) {
	if src != nil {
		*dst = *src
	}
}
