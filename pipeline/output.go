package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// Emitter prints the one answer of a run. The output conventions themselves
// (JSON shape, stderr prefix, exit statuses) are described in
// hookio/output.go; this only routes a verdict to them or, for explain, to
// the trace.
type Emitter struct {
	Stdout, Stderr io.Writer
	Host           hookio.Host
	Explain, json  bool
	// printed is set by the one answer printed: the hook's work and its
	// deadline (watchdog) may both try.
	printed atomic.Bool
	Home    string // $HOME, to shorten paths in messages
}

// emit prints a verdict and returns the exit status.
func (e *Emitter) emit(v Verdict) int {
	if v.host != nil {
		e.Host = v.host
	}
	if v.Err != nil {
		return e.Fail(v.OnError, v.Err)
	}
	if v.after {
		out, code := e.Host.Encode(hookio.Output{Decision: policy.Abstain, Event: v.call.Event, Context: joinContext(v.afterContext, v.refused)})
		e.write(out)
		return code
	}
	r := v.Res
	if e.Explain {
		return e.printExplain(ExplanationOf(v))
	}
	isErr := r.Row == classify.RowError
	if isErr {
		// The host may show only stderr (Claude Code does on exit 2).
		fmt.Fprintln(e.Stderr, r.Reason)
	}
	_, reason := Outcome(v)
	o := hookio.Output{Decision: r.Decision, Reason: reason, Warning: r.Warning, Error: isErr}
	if c := v.conf; c != nil {
		o.UpdatedInput = c.Input
		o.Context = c.modelContext(v.home)
	}
	o.Context = joinContext(o.Context, v.refused)
	out, code := e.Host.Encode(o)
	e.write(out)
	return code
}

// joinContext joins two texts for the model, either of which may be "".
func joinContext(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// untrustedNote says, for a call stopped at the sandbox's edge (row 6),
// which of the repository's files would add directories or allow rules but
// are not trusted, so that the user who reads the question knows why a
// directory they expected is not in the sandbox; "" otherwise.
func untrustedNote(r *classify.Result, pol *policy.Policy) string {
	if pol == nil || r.Row != classify.RowOutside {
		return ""
	}
	var files []string
	for _, u := range pol.Untrusted {
		switch u.Key {
		case "sandbox.additional_directories", "permissions.additionalDirectories", "sandbox.read_dirs", "rules.allow", "permissions.allow":
			if !slices.Contains(files, u.Pos.File) {
				files = append(files, u.Pos.File)
			}
		}
	}
	if len(files) == 0 {
		return ""
	}
	return fmt.Sprintf("%s would add directories or allow rules, but a file that comes with the repository applies them only once the user has checked it and run safezone trust FILE", strings.Join(files, " and "))
}

// Fail prints the on_error decision d for an error that stopped the call
// from being judged, and returns the exit status: 2 for deny, 0 for ask.
func (e *Emitter) Fail(d policy.Decision, err error) int {
	d, reason := FailReason(d, err)
	if e.Explain {
		e.printExplain(Explanation{Decision: d, Row: int(classify.RowError), Reason: reason, Error: err.Error(),
			Targets: []ExplainTarget{}, Matched: []ExplainMatch{}})
		if d == policy.Deny {
			return 2
		}
		return 0
	}
	fmt.Fprintln(e.Stderr, reason)
	out, code := e.Host.Encode(hookio.Output{Decision: d, Reason: reason, Error: true})
	e.write(out)
	return code
}

// FailReason is the decision (ask, else deny) and reason printed for an
// error that stopped a call from being judged.
func FailReason(d policy.Decision, err error) (policy.Decision, string) {
	if d != policy.Ask {
		d = policy.Deny
	}
	var w *watchError
	if errors.As(err, &w) {
		return policy.Deny, fmt.Sprintf("safezone: deny: %v", err)
	}
	return d, fmt.Sprintf("safezone: %s: %v; safezone fails closed on errors (on_error: %s)", d, err, d)
}

func (e *Emitter) printExplain(x Explanation) int {
	if e.json {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(x); err != nil {
			buf.Reset()
			fmt.Fprintf(&buf, "{\"decision\":\"deny\",\"error\":%q}\n", err.Error())
		}
		e.write(buf.Bytes())
		return 0
	}
	e.write([]byte(strings.TrimRight(x.Text(), "\n") + "\n"))
	return 0
}

// write prints b once; a second answer is never printed.
func (e *Emitter) write(b []byte) {
	if !e.printed.CompareAndSwap(false, true) {
		return
	}
	if len(b) > 0 {
		e.Stdout.Write(b)
	}
}

// Outcome is the decision v prints and its reason.
func Outcome(v Verdict) (policy.Decision, string) {
	if v.Err != nil {
		return FailReason(v.OnError, v.Err)
	}
	reason := v.Res.Reason
	if note := untrustedNote(v.Res, v.pol); note != "" {
		reason += "; " + note
	}
	if v.conf != nil {
		reason += "; " + v.conf.describe(v.home)
	}
	return v.Res.Decision, reason
}
