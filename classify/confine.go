package classify

import (
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// confinable reports whether a shell command of this call may run inside
// the kernel sandbox: the environment allows it (Env.Confinable),
// confine.mode is not off, and the sandbox is on outside agi and read
// mode (agi and --no-sandbox mean no sandbox; read mode denies every
// command that may write).
func (d *decider) confinable() bool {
	return d.env.Confinable && d.call.Kind == hookio.KindShell && d.pol.Confine.Mode.Value != policy.ConfineOff &&
		d.modes.Sandbox.On && !d.modes.AGI && !d.modes.Read.On
}

// confine decides whether the command runs confined (Result.Confine):
// confine.mode auto confines a command that will run without a question
// (allowed) and runs a program or code whose own accesses the analysis
// cannot see; always confines every command that runs or is asked about.
func (d *decider) confine(r *Result) {
	if d.shell == nil {
		return
	}
	opaque := !d.shell.Known()
	for i := range d.shell.Commands {
		opaque = opaque || d.shell.Commands[i].Runs != ""
	}
	always := d.pol.Confine.Mode.Value == policy.ConfineAlways
	switch {
	case !d.confinable():
		if opaque && r.Decision == policy.Allow {
			r.ConfineNote = "not confined: " + d.whyNotConfinable()
		}
	case r.Decision == policy.Allow && (opaque || always):
		r.Confine = true
	case always && (r.Decision == policy.Abstain || r.Decision == policy.Ask):
		r.Confine = true
	}
	if r.Confine {
		r.ConfineNote = "confine.mode " + d.pol.Confine.Mode.Value.String() + " (" + d.pol.Confine.Mode.Pos.String() + ")"
	}
}

// whyNotConfinable says why a command is not confined.
func (d *decider) whyNotConfinable() string {
	switch {
	case !d.env.Confinable:
		return "confinement is not available here (safezone explain says why)"
	case d.pol.Confine.Mode.Value == policy.ConfineOff:
		return origin("confine.mode: off", d.pol.Confine.Mode.Pos)
	case d.modes.AGI:
		return "agi mode has no sandbox"
	case !d.modes.Sandbox.On:
		return "the sandbox is off (" + d.modes.Sandbox.Source + ")"
	}
	return "read mode"
}
