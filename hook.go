package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// hook runs one hook call (or, with out.explain, explains it): it parses the
// flags, reads the input from stdin, loads the policy and decides, all under
// sys.deadline, and prints the decision through out (see conclude). It
// returns the exit status: 0, or 2 for a deny caused by an error.
func hook(args []string, stdin io.Reader, out *emitter, sys *system) int {
	opts, err := parseFlags(args, out.explain)
	if errors.Is(err, errHelp) {
		fmt.Fprint(out.stdout, usage)
		return 0
	}
	if err != nil {
		out.host = hostOfBadCommandLine(args)
		return out.fail(policy.Deny, fmt.Errorf("bad command line: %w; the hook command is `safezone [flags]` (see safezone --help)", err))
	}
	if opts == nil { // --version
		fmt.Fprintln(out.stdout, "safezone", version())
		return 0
	}
	out.json = opts.json
	out.host = opts.host
	for _, w := range opts.warnings {
		fmt.Fprintln(out.stderr, "safezone: "+w)
	}

	// The work runs under a deadline: reading stdin, loading the policy and
	// deciding may all block (a host that never closes stdin, a hung
	// network file system). The worker never prints; only this goroutine
	// does, once, after the audit record (see conclude).
	done := make(chan verdict, 1)
	k := newKnown(opts, sys)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- verdict{err: fmt.Errorf("internal error: %v", v), onError: policy.Decision(k.onError.Load())}
			}
		}()
		data, err := hookio.ReadInput(stdin)
		j := &judger{opts: opts, sys: sys, loaded: k.policyLoaded}
		done <- j.decide(data, err, "")
	}()
	timer := time.NewTimer(sys.deadline)
	defer timer.Stop()
	select {
	case v := <-done:
		return conclude(v, k, out, timer.C, sys)
	case <-timer.C:
		v := verdict{err: fmt.Errorf("no decision within %v (slow file system or stdin never closed)", sys.deadline), onError: policy.Decision(k.onError.Load())}
		grace := time.NewTimer(auditGrace)
		defer grace.Stop()
		return conclude(v, k, out, grace.C, sys)
	}
}

// conclude is the hook's exit path for v: it writes the audit record
// (bounded by expired), applies a dry run, and prints the decision once.
//
// A failed audit write leaves the decision as it is and says so on stderr,
// unless audit.required is true: then the call is denied with the reason.
// A dry run prints nothing whatever the decision (errors included; only a
// bad command line, read before anything is known, still denies) and
// writes the would-be decision on stderr and in the record.
func conclude(v verdict, k *known, out *emitter, expired <-chan time.Time, sys *system) int {
	stderr := out.stderr
	if out.explain {
		return out.emit(v)
	}
	a := k.audit.Load()
	if a.Enabled() || a.Required.Value {
		if err := writeAudit(v, a, sys.now(), expired); err != nil {
			switch {
			case errors.Is(err, audit.ErrRotate):
				fmt.Fprintf(stderr, "safezone: audit: %v; the record was written, the decision stands\n", err)
			case !a.Required.Value:
				fmt.Fprintf(stderr, "safezone: audit: %v; the decision stands (audit.required is false)\n", err)
			case a.DryRun.Value:
				fmt.Fprintf(stderr, "safezone: audit: %v; audit.required is true, but this is a dry run\n", err)
			default:
				v = verdict{err: fmt.Errorf("the audit record could not be written: %w; audit.required is true (%s)", err, a.Required.Pos), onError: policy.Deny}
			}
		}
	}
	if a.DryRun.Value {
		d, reason := outcome(v)
		fmt.Fprintf(stderr, "safezone: dry run (%s): would %s: %s\n", a.DryRun.Pos, d, reason)
		return 0
	}
	return out.emit(v)
}
