package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// emitter prints the one answer of a run. The output conventions themselves
// (JSON shape, stderr prefix, exit statuses) are described in
// hookio/output.go; this only routes a verdict to them or, for explain, to
// the trace.
type emitter struct {
	stdout, stderr io.Writer
	host           hookio.Host
	explain, json  bool
	// printed is set by the one answer printed: the hook's work and its
	// deadline (watchdog) may both try.
	printed atomic.Bool
	home    string // $HOME, to shorten paths in messages
}

// emit prints a verdict and returns the exit status.
func (e *emitter) emit(v verdict) int {
	if v.host != nil {
		e.host = v.host
	}
	if v.err != nil {
		return e.fail(v.onError, v.err)
	}
	r := v.res
	if e.explain {
		return e.printExplain(explanation(v))
	}
	isErr := r.Row == classify.RowError
	if isErr {
		// The host may show only stderr (Claude Code does on exit 2).
		fmt.Fprintln(e.stderr, r.Reason)
	}
	_, reason := outcome(v)
	o := hookio.Output{Decision: r.Decision, Reason: reason, Warning: r.Warning, Error: isErr}
	if c := v.conf; c != nil {
		o.UpdatedInput = c.Input
		o.Context = "safezone: this command " + strings.TrimPrefix(c.describe(v.home), "it ") + "; an access beyond that fails with \"Permission denied\", \"Read-only file system\" or \"Device or resource busy\": do not work around it, ask the user if the command needs more"
	}
	out, code := e.host.Encode(o)
	e.write(out)
	return code
}

// fail prints the on_error decision d for an error that stopped the call
// from being judged, and returns the exit status: 2 for deny, 0 for ask.
func (e *emitter) fail(d policy.Decision, err error) int {
	d, reason := failReason(d, err)
	if e.explain {
		e.printExplain(Explanation{Decision: d, Row: int(classify.RowError), Reason: reason, Error: err.Error(),
			Targets: []ExplainTarget{}, Matched: []ExplainMatch{}})
		if d == policy.Deny {
			return 2
		}
		return 0
	}
	fmt.Fprintln(e.stderr, reason)
	out, code := e.host.Encode(hookio.Output{Decision: d, Reason: reason, Error: true})
	e.write(out)
	return code
}

// failReason is the decision (ask, else deny) and reason printed for an
// error that stopped a call from being judged.
func failReason(d policy.Decision, err error) (policy.Decision, string) {
	if d != policy.Ask {
		d = policy.Deny
	}
	var w *watchError
	if errors.As(err, &w) {
		return policy.Deny, fmt.Sprintf("safezone: deny: %v", err)
	}
	return d, fmt.Sprintf("safezone: %s: %v; safezone fails closed on errors (on_error: %s)", d, err, d)
}

func (e *emitter) printExplain(x Explanation) int {
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
func (e *emitter) write(b []byte) {
	if !e.printed.CompareAndSwap(false, true) {
		return
	}
	if len(b) > 0 {
		e.stdout.Write(b)
	}
}

// outcome is the decision v prints and its reason.
func outcome(v verdict) (policy.Decision, string) {
	if v.err != nil {
		return failReason(v.onError, v.err)
	}
	if v.conf != nil {
		return v.res.Decision, v.res.Reason + "; " + v.conf.describe(v.home)
	}
	return v.res.Decision, v.res.Reason
}
