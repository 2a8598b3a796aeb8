package classify

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy"
)

// Reason texts. The deny reason is what the model reads, so each one says
// what was blocked (the tool and the path as given and as resolved), which
// rule, class or mode decided and where it is defined, and what to do
// instead. Lower case, no final period, prefixed "safezone: " so the model
// knows which guard spoke.

// explainDecision sets r.Row, r.Reason and r.Warning from r.Reasons.
func (d *decider) explainDecision(r *Result) {
	if r.Decision != policy.Deny {
		r.Warning = d.warning(r)
	}
	dec, ok := d.decidingReason(r)
	if d.decided != nil {
		dec, ok = *d.decided, true
	}
	if !ok {
		r.Row = RowError
		err := r.Err
		if err == nil {
			err = fmt.Errorf("no target could be judged")
		}
		r.Reason = fmt.Sprintf("safezone: %s %s: cannot judge this call: %v; on_error is %s (%s); %s",
			r.Decision, d.call.Tool, err, d.pol.OnError.Value, d.pol.OnError.Pos, errorHint(err))
		return
	}
	r.Row = dec.Row
	r.Deciding = dec
	r.Reason = d.message(r, dec)
	if r.Decision == policy.Deny || r.Decision == policy.Ask {
		r.Reason += d.skippedRules()
	}
}

// skippedRules notes the settings rules safezone left out because it cannot
// use them (policy.ErrSkippedRule), or "".
func (d *decider) skippedRules() string {
	var first error
	n := 0
	for _, w := range d.pol.Warnings {
		if errors.Is(w, policy.ErrSkippedRule) {
			if first == nil {
				first = w
			}
			n++
		}
	}
	switch n {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("; note: a settings rule was skipped (%v); `safezone validate` shows it", first)
	}
	return fmt.Sprintf("; note: %d settings rules were skipped (the first: %v); `safezone validate` shows them", n, first)
}

// decidingReason finds the reason that decided r.Decision: for the first target
// (or the call, without targets) whose own outcome equals the decision, its
// lowest matching row.
func (d *decider) decidingReason(r *Result) (Reason, bool) {
	var call []Reason
	for _, x := range r.Reasons {
		if x.Target == -1 {
			call = append(call, x)
		}
	}
	if len(r.Targets) == 0 {
		f := r.deciding(call)
		return f, f.Row <= RowOther && f.Effect == r.Decision
	}
	for i := range r.Targets {
		if r.Targets[i].Err != nil {
			continue
		}
		rs := append([]Reason(nil), call...)
		for _, x := range r.Reasons {
			if x.Target == i {
				rs = append(rs, x)
			}
		}
		f := r.deciding(rs)
		if f.Row <= RowOther && f.Effect == r.Decision {
			if f.Target == -1 {
				f.Target = i
			}
			return f, true
		}
	}
	return Reason{}, false
}

func (d *decider) warning(r *Result) string {
	var parts []string
	for _, x := range r.Reasons {
		if !x.Warning {
			continue
		}
		t := &r.Targets[x.Target]
		parts = append(parts, fmt.Sprintf("%s is in a warned path (%s, %s)", t.Res.Path, x.Rule, x.Source))
	}
	if len(parts) == 0 {
		return ""
	}
	return "safezone: warning: " + strings.Join(parts, "; ") + "; review this change with care"
}

// what describes the call and, for a target, the path as given and resolved.
func (d *decider) what(r *Result, x Reason) string {
	if x.Target < 0 || x.Target >= len(r.Targets) {
		if d.call.Command != "" {
			return fmt.Sprintf("%s %q", d.call.Tool, clip(d.call.Command, 200))
		}
		return d.call.Tool
	}
	t := &r.Targets[x.Target]
	if t.WorkDir && d.call.Command != "" {
		// "Bash "npm test" (run in /proj)", not "Bash read ".""
		return fmt.Sprintf("%s %q (run in %s)", d.call.Tool, clip(d.call.Command, 200), t.Res.Path)
	}
	// "Read .env", not "Read read .env": a built-in tool's name says
	// whether it reads or writes.
	s := d.call.Tool + " " + strconv.Quote(t.Given)
	if !d.call.Kind.Builtin() {
		s = d.call.Tool + " " + t.Access.String() + " " + strconv.Quote(t.Given)
	}
	if len(t.Globs) > 0 {
		return s + fmt.Sprintf(" (files matching %s)", t.Globs[0])
	}
	res := []string{}
	if t.Res.Location != t.Res.Path {
		res = append(res, fmt.Sprintf("resolved %s through the symlink %s", t.Res.Path, t.Res.Location))
	} else if t.Res.Path != t.Given {
		res = append(res, "resolved "+t.Res.Path)
	}
	if t.Lex != nil {
		res = append(res, fmt.Sprintf("%s when \"..\" is applied first", t.Lex.Path))
	}
	if slices.Contains(t.Names, x.Path) {
		res = append(res, fmt.Sprintf("the same file as %s: a hard link of it, %d names in all", x.Path, t.Res.Links))
	}
	if len(res) > 0 {
		s += " (" + strings.Join(res, "; ") + ")"
	}
	return s
}

func (d *decider) scratch() string {
	day := d.env.Today
	if day == "" && d.env.Date != nil {
		day = d.env.Date()
	}
	if day == "" {
		day = "YYYY-MM-DD"
	}
	return "agent_sandbox/" + day + "/<topic>/"
}

func (d *decider) rootList(r *Result) string {
	var ps []string
	for _, root := range r.Roots {
		if root.ReadOnly {
			ps = append(ps, root.Resolved+" (read only)")
			continue
		}
		ps = append(ps, root.Resolved)
	}
	return strings.Join(ps, ", ")
}

// protectedMessage is the reason of a protected write (RowProtected):
// self-protection, or a paths.protected pattern with its note.
func protectedMessage(dec policy.Decision, what string, x Reason) string {
	if x.Source == policy.SelfProtectionSource {
		return fmt.Sprintf("safezone: %s %s: %s: safezone's own policy files and audit log, the hosts' settings where the hook is registered, the files those settings run, and the safezone binary cannot be changed by the agent; describe the change and ask the user to make it",
			dec, what, x.Rule)
	}
	note := ""
	if x.Note != "" {
		note = " (" + x.Note + ")"
	}
	return fmt.Sprintf("safezone: %s %s: protected by %s (%s)%s; the agent may not change protected files; describe the change and ask the user to make it",
		dec, what, x.Rule, x.Source, note)
}

// outsideMessage is the reason of a target outside the sandbox
// (RowOutside), with what to do instead.
func (d *decider) outsideMessage(r *Result, x Reason, what string, writing bool) string {
	where := "outside the sandbox (" + d.rootList(r) + ")"
	if writing {
		return fmt.Sprintf("safezone: %s %s: %s; %s is %s (%s); write inside the project instead (scratch files under %s), or ask the user to add the directory to sandbox.additional_directories",
			r.Decision, what, where, x.Rule, x.Effect, x.Source, d.scratch())
	}
	if x.Note != "" {
		return fmt.Sprintf("safezone: %s %s: %s; %s is %s (%s); %s; read files inside the project, or ask the user to add the directory to sandbox.read_dirs",
			r.Decision, what, where, x.Rule, x.Effect, x.Source, x.Note)
	}
	return fmt.Sprintf("safezone: %s %s: %s; %s is %s (%s); read files inside the project, or ask the user to add the directory to sandbox.additional_directories",
		r.Decision, what, where, x.Rule, x.Effect, x.Source)
}

func (d *decider) message(r *Result, x Reason) string {
	what := d.what(r, x)
	dec := r.Decision
	var t *Target
	if x.Target >= 0 && x.Target < len(r.Targets) {
		t = &r.Targets[x.Target]
	}
	writing := (t != nil && t.Access == policy.Write) || (t == nil && d.call.Writes)
	if g, ok := strings.CutPrefix(x.Rule, "guards."); ok {
		return d.guardMessage(r, x, g)
	}
	switch x.Row {
	case RowDeny:
		hint := "this path is off-limits to the agent in every mode; do not try to reach it another way (another tool, a shell command, a copy or a link); ask the user if you need something from it"
		if t == nil {
			hint = "this call is off-limits to the agent in every mode; do not try to get the same effect another way; ask the user if it is needed"
		}
		if x.Note != "" {
			hint = x.Note + "; " + hint
		}
		return fmt.Sprintf("safezone: %s %s: matches deny rule %s (%s); %s", dec, what, x.Rule, x.Source, hint)
	case RowProtected:
		return protectedMessage(dec, what, x)
	case RowReadMode:
		if t == nil || t.Access != policy.Write {
			// A read target of a call that may write (a program whose own
			// writes are unknown): the call is what read mode stops.
			return fmt.Sprintf("safezone: %s %s: safezone is in read mode (%s), so nothing may be written, and this command may write (what it runs is not known to safezone); describe the change instead of making it, or run commands whose files safezone knows",
				dec, d.what(r, Reason{Target: -1}), x.Source)
		}
		return fmt.Sprintf("safezone: %s %s: safezone is in read mode (%s), so nothing may be written; describe the change instead of making it", dec, what, x.Source)
	case RowOutside:
		return d.outsideMessage(r, x, what, writing)
	case RowAsk:
		if x.Below {
			src := ""
			if x.Source != "" {
				src = " (" + x.Source + ")"
			}
			return fmt.Sprintf("safezone: %s %s: %s%s; search a directory that holds no secret, or ask the user", dec, what, x.Note, src)
		}
		if x.Rule == namesUnknownRule && x.Source == "" {
			return fmt.Sprintf("safezone: %s %s: %s; ask the user", dec, what, x.Note)
		}
		return fmt.Sprintf("safezone: %s %s: matches ask rule %s (%s)", dec, what, x.Rule, x.Source)
	case RowAllow:
		return fmt.Sprintf("safezone: %s %s: matches allow rule %s (%s)", dec, what, x.Rule, x.Source)
	case RowRead:
		return fmt.Sprintf("safezone: %s %s: a read inside the sandbox", dec, what)
	case RowWrite:
		if x.Effect == policy.Allow {
			src := x.Source
			return fmt.Sprintf("safezone: %s %s: a write inside the sandbox, %s (%s)", dec, what, x.Rule, src)
		}
		return fmt.Sprintf("safezone: %s %s: a write inside the sandbox; not auto-approved, so the host asks", dec, what)
	case RowOther:
		if d.shell != nil && !d.shell.Known() && dec == policy.Ask {
			return fmt.Sprintf("safezone: %s %s: %s (%s); the user decides; a command whose files are named literally (no variables, command substitution, eval or inline code) can be judged without asking",
				dec, d.what(r, Reason{Target: -1}), x.Rule, x.Note)
		}
	}
	if x.Note != "" {
		return fmt.Sprintf("safezone: %s %s: %s (%s)", dec, what, x.Rule, x.Note)
	}
	return fmt.Sprintf("safezone: %s %s: %s", dec, what, x.Rule)
}

// guardHints say what the agent can do instead of a command a guard
// stopped, by guard name.
var guardHints = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"lose_work":       "to keep the work, commit or stash it first, or use the safer form (git push --force-with-lease, git branch -d, rm of the files meant)",
		"install_outside": "install inside the project instead (npm install without -g, a virtualenv, go build -o ./bin), or ask the user to install it",
	}
})

// guardMessage is the reason of a guard (x.Rule is guards.<name>): the
// command, why the guard stops it, the setting and how to turn it off.
func (d *decider) guardMessage(r *Result, x Reason, name string) string {
	what := d.what(r, Reason{Target: -1})
	if x.Target >= 0 && x.Target < len(r.Targets) && r.Targets[x.Target].Recursive {
		what = d.what(r, x) // rm -r of a directory: name it
	}
	who := "the user decides"
	if x.Effect == policy.Deny {
		who = "denied in every mode"
	}
	return fmt.Sprintf("safezone: %s %s: %s (%s: %s, %s); %s; %s; the policy key %s: off turns this guard off",
		r.Decision, what, x.Note, x.Rule, x.Effect, x.Source, who, guardHints()[name], x.Rule)
}

// errorHint says what to do about an error decision.
func errorHint(err error) string {
	switch {
	case errors.Is(err, ErrLoop):
		return "the path is a symlink loop; use a path without the loop"
	case errors.Is(err, ErrTooLong):
		return "use a shorter path"
	case errors.Is(err, ErrNoHome):
		return "use an absolute path"
	}
	return "run `safezone explain` on this input to see why"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
