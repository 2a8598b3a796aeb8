package classify

import (
	"strings"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/gitconfig"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// confinable reports whether a shell command of this call may run inside
// the kernel sandbox: the environment allows it (Env.Confinable) and
// confine.mode is not off. Every mode confines: agi and --no-sandbox give
// the command the whole file system to write but keep the policy's denies
// (README, "What the kernel enforces"), read mode gives it nothing to
// write.
func (d *decider) confinable() bool {
	return d.env.Confinable && d.call.Kind == hookio.KindShell && d.pol.Confine.Mode.Value != policy.ConfineOff
}

// confine decides whether the command runs confined (Result.Confine).
// Under confine.mode auto, every command that will run without a person's
// look runs confined: each one safezone allows, and each one it would
// leave to the host that the host runs without asking in this permission
// mode (Env.RunsUnasked: cat, ls, grep in default mode), which is then
// allowed, confined. always also confines the commands the host asks
// about. Where the kernel cannot confine a command that would run without a
// question, and Env.Unconfinable says why that matters (the kernel cannot
// hold the policy's denies here), the command is asked instead.
func (d *decider) confine(r *Result) {
	if d.shell == nil || d.call.Kind != hookio.KindShell {
		return
	}
	opaque := !d.shell.Known()
	for i := range d.shell.Commands {
		opaque = opaque || d.shell.Commands[i].Runs != ""
	}
	always := d.pol.Confine.Mode.Value == policy.ConfineAlways
	unasked := r.Decision == policy.Abstain && d.hostRunsUnasked()
	switch {
	case !d.confinable():
		switch {
		case (r.Decision == policy.Allow || unasked) && d.env.Unconfinable != "" && d.pol.Confine.Mode.Value != policy.ConfineOff:
			r.ConfineNote = "not confined: " + d.env.Unconfinable
			d.override(r, policy.Ask, "it would run without a question, but the kernel cannot confine it here", d.env.Unconfinable)
		case opaque && r.Decision == policy.Allow:
			r.ConfineNote = "not confined: " + d.whyNotConfinable()
		}
	case r.Decision == policy.Allow:
		if why := d.gitConfigUnconfined(r); why != "" {
			r.ConfineNote = "not confined: " + why
			return
		}
		r.Confine = true
	case unasked:
		r.Confine = true
		d.override(r, policy.Allow, "the host runs this command without asking in permission mode "+d.call.PermissionMode.String()+", so safezone runs it confined", "")
	case always && (r.Decision == policy.Abstain || r.Decision == policy.Ask):
		r.Confine = true
	}
	if r.Confine {
		r.ConfineNote = "confine.mode " + d.pol.Confine.Mode.Value.String() + " (" + d.pol.Confine.Mode.Pos.String() + ")"
	}
}

// gitConfigUnconfined says why an allowed line runs unconfined, or "":
// under confine.mode auto, outside read mode, a line that only sets or
// unsets keys whose values git never runs (shell.GitConfigSets: git config
// --local user.email x) in the configuration of the repository found from
// the call's working directory (gitconfig.LocalFile), when that file
// exists and lies in a writable sandbox root (anywhere in agi mode or
// without the sandbox). Confined, it would fail: the kernel keeps the
// file read-only (README, "What the kernel enforces"). A key that runs
// code (core.hooksPath, husky's install) is never such a line: it runs
// confined and fails, and the model is told why.
func (d *decider) gitConfigUnconfined(r *Result) string {
	if d.pol.Confine.Mode.Value != policy.ConfineAuto || r.Modes.Read.On || !strings.HasPrefix(d.call.Cwd, "/") {
		return ""
	}
	keys, ok := shell.GitConfigSets(d.call.Command)
	if !ok {
		return ""
	}
	cfg, ok := gitconfig.LocalFile(d.fsys, d.call.Cwd)
	if !ok {
		return ""
	}
	res, err := Resolve(d.fsys, cfg)
	if err != nil || !res.Exists {
		return ""
	}
	inside := r.Modes.AGI || !r.Modes.Sandbox.On
	for _, root := range d.roots {
		if !root.ReadOnly && strings.HasPrefix(res.Path, strings.TrimSuffix(root.Resolved, "/")+"/") {
			inside = true
		}
	}
	if !inside {
		return ""
	}
	return "git config sets only " + strings.Join(keys, ", ") + ", whose values git never runs, in " + res.Path +
		", which the kernel keeps read-only to a confined command"
}

// override makes dec the call's decision, decided by a call-level reason
// of the shell row with rule and note (explainDecision reports it).
func (d *decider) override(r *Result, dec policy.Decision, rule, note string) {
	x := Reason{Row: RowOther, Effect: dec, Rule: rule, Source: "confine.mode " + d.pol.Confine.Mode.Value.String() + " (" + d.pol.Confine.Mode.Pos.String() + ")", Target: -1, Note: note}
	r.Reasons = append(r.Reasons, x)
	r.Decision = dec
	d.decided = &x
}

// whyNotConfinable says why a command is not confined.
func (d *decider) whyNotConfinable() string {
	switch {
	case !d.env.Confinable:
		return "confinement is not available here (safezone explain says why)"
	case d.pol.Confine.Mode.Value == policy.ConfineOff:
		return origin("confine.mode: off", d.pol.Confine.Mode.Pos)
	}
	return "it is not a shell command"
}

// UnaskedBy returns the Env.RunsUnasked of a host that runs some shell
// commands without asking (hookio.UnaskedRunner), or nil.
func UnaskedBy(h hookio.Host) func(hookio.PermissionMode, string, hookio.UnaskedEnv) bool {
	u, ok := h.(hookio.UnaskedRunner)
	if !ok {
		return nil
	}
	return u.RunsUnasked
}
