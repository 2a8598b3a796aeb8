package policy

import "fmt"

// Decision is safezone's answer for one tool call. The zero value is Deny,
// so a Decision that was never set fails closed.
//
// Deny, Ask and Allow print as the host's permissionDecision values (Claude
// Code hooks reference, "PreToolUse decision control"). Abstain prints
// nothing: the host's own permission rules decide. It is deliberately not
// called "defer", which some host versions use as a decision of their own.
type Decision uint8

const (
	Deny    Decision = iota // permissionDecision "deny"
	Ask                     // permissionDecision "ask"
	Allow                   // permissionDecision "allow"
	Abstain                 // print nothing; the host's own rules decide
)

var decisionNames = [...]string{Deny: "deny", Ask: "ask", Allow: "allow", Abstain: "abstain"}

// String returns "deny", "ask", "allow" or "abstain". An out-of-range value
// prints as "deny(N)", never as a more permissive name.
func (d Decision) String() string {
	if int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("deny(%d)", uint8(d))
}

// MarshalText implements encoding.TextMarshaler with the names of String.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText accepts exactly "deny", "ask", "allow" or "abstain"; any other
// text is an error and leaves d unchanged.
func (d *Decision) UnmarshalText(b []byte) error {
	for i, n := range decisionNames {
		if string(b) == n {
			*d = Decision(i)
			return nil
		}
	}
	return fmt.Errorf("unknown decision %q (want deny, ask, allow or abstain)", b)
}

// strictness orders decisions for combining several targets of one call:
// deny > ask > abstain > allow (README, "How a call is decided"). Unknown
// values rank as deny.
func (d Decision) strictness() int {
	switch d {
	case Allow:
		return 0
	case Abstain:
		return 1
	case Ask:
		return 2
	default:
		return 3
	}
}

// Strictest returns the strictest of ds: deny > ask > abstain > allow.
// With no arguments it returns Allow, the identity of the combination; callers
// with no targets decide separately.
func Strictest(ds ...Decision) Decision {
	out := Allow
	for _, d := range ds {
		if d.strictness() > out.strictness() {
			out = d
		}
	}
	if out.strictness() == 3 {
		return Deny
	}
	return out
}

// StricterThan reports whether d is stricter than e in the order of [Strictest].
func (d Decision) StricterThan(e Decision) bool { return d.strictness() > e.strictness() }

// Access is what a tool call does to a target: read it or write it.
type Access uint8

const (
	Write Access = iota // zero value: the stricter reading of an unset access
	Read
)

// String returns "write" or "read".
func (a Access) String() string {
	if a == Read {
		return "read"
	}
	return "write"
}

// MarshalText implements encoding.TextMarshaler.
func (a Access) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Mode is the policy's mode: what the agent may do at all.
type Mode uint8

const (
	ModeWrite Mode = iota // reads and writes, writes inside the sandbox prompt unless auto-approved
	ModeRead              // reads only: every write is denied
	ModeAGI               // auto-approve, no sandbox; deny rules and protected paths still hold
)

var modeNames = [...]string{ModeWrite: "write", ModeRead: "read", ModeAGI: "agi"}

// String returns "write", "read" or "agi".
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// ParseMode accepts "read", "write" or "agi".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want read, write or agi)", s)
}
