package pipeline

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// Run is one hook call, or with explain its trace (`safezone explain`):
// args are the hook's flags (see Usage), stdin the host's JSON input. It
// always prints a decision on stdout, whatever fails (a bad flag, bad
// input, an unusable policy, a panic, a slow file system: the on_error
// decision, deny by default, with its reason) and returns the exit status:
// 0, or 2 for a deny caused by an error; never 1, which hosts read as "hook
// failed, run the tool". sys is the process's world (OSSystem; tests
// replace it).
func Run(args []string, explain bool, stdin io.Reader, stdout, stderr io.Writer, sys *System) (code int) {
	// Until the flags are parsed, errors are printed for Claude Code.
	out := &Emitter{Stdout: stdout, Stderr: stderr, Host: hookio.Claude{}, Home: sys.Getenv("HOME"), Explain: explain}
	defer func() {
		if v := recover(); v != nil {
			code = out.Fail(policy.Deny, fmt.Errorf("internal error: %v", v))
		}
	}()
	return Hook(args, stdin, out, sys)
}

// Hook runs one hook call (or, with out.explain, explains it): it parses the
// flags, reads the input from stdin, loads the policy and decides, all under
// a deadline (see watchdog), and prints the decision through out (see
// conclude). It returns the exit status: 0, or 2 for a deny caused by an
// error.
func Hook(args []string, stdin io.Reader, out *Emitter, sys *System) int {
	opts, err := ParseFlags(args, out.Explain)
	if errors.Is(err, ErrHelp) {
		fmt.Fprint(out.Stdout, Usage)
		return 0
	}
	if err != nil {
		out.Host = hostOfBadCommandLine(args)
		return out.Fail(policy.Deny, fmt.Errorf("bad command line: %w; the hook command is `safezone [flags]` (see safezone --help)", err))
	}
	if opts == nil { // --version
		fmt.Fprintln(out.Stdout, "safezone", BuildVersion())
		return 0
	}
	out.json = opts.json
	out.Host = opts.Host
	for _, w := range opts.Warnings {
		fmt.Fprintln(out.Stderr, "safezone: "+w)
	}

	// The work runs on this goroutine under a watchdog: reading stdin,
	// loading the policy and deciding may all block (a host that never
	// closes stdin, a hung network file system). Whichever of the two
	// finishes first prints, once, after the audit record.
	k := newKnown(opts, sys)
	w := startWatchdog(k, out, sys)
	v := w.work(func() Verdict {
		data, err := hookio.ReadInput(stdin)
		j := &Judger{Opts: opts, Sys: sys, reads: NewFileCache(), live: !out.Explain, late: w.concluded}
		j.Loaded = func(p *policy.Policy, root string) {
			k.policyLoaded(p, root)
			if j.registered > 0 {
				w.extend(deadlineFor(j.registered))
			}
		}
		return j.Decide(data, err, "")
	})
	return w.finish(v)
}

// The deadline: a host ends a hook that runs past its timeout and then runs
// the tool (Claude Code), so safezone answers before: a deny naming the
// problem, with its audit record.
const (
	// registeredTimeout is the host timeout assumed when safezone finds no
	// registration of its own: the 10 s that hooks.json, the plugin's
	// hooks/hooks.json and `safezone init` (hookio.Register) write.
	registeredTimeout = 10 * time.Second
	// minMargin is the least time kept between the deadline and the
	// host's timeout, for the deadline's deny and audit record (auditGrace)
	// and a loaded machine's slow scheduling.
	minMargin = time.Second
)

// deadlineFor is how long after the process start a call must be decided
// for a host that ends the hook timeout after it starts: the timeout less
// a margin of a fifth of it, at least minMargin, at most half of it (8 s
// for the registered 10 s, 48 s for Claude Code's default 60 s).
func deadlineFor(timeout time.Duration) time.Duration {
	margin := min(max(timeout/5, minMargin), timeout/2)
	return timeout - margin
}

// watchdog runs a hook call's work on the calling goroutine and prints the
// deadline's deny from a timer's goroutine when the work is late. Exactly
// one of the two concludes (writes the record and prints): the first to
// claim the call.
type watchdog struct {
	k     *known
	out   *Emitter
	sys   *System
	start time.Time // the process start, which the deadline counts from

	mu       sync.Mutex
	claimed  bool          // a verdict is being concluded
	deadline time.Duration // counted from start
	timer    *time.Timer
	expired  chan struct{} // closed at the deadline when the work concluded first: ends a hung audit write
	done     chan struct{} // closed when the deadline's verdict is printed
	code     int           // the deadline's exit status, once done is closed
}

// startWatchdog arms the deadline, sys.deadline after the process start
// (sys.start; now when unknown).
func startWatchdog(k *known, out *Emitter, sys *System) *watchdog {
	w := &watchdog{k: k, out: out, sys: sys, start: sys.Start, deadline: sys.Deadline,
		expired: make(chan struct{}), done: make(chan struct{})}
	if w.start.IsZero() {
		w.start = time.Now()
	}
	w.timer = time.AfterFunc(w.remaining(), w.fire)
	return w
}

func (w *watchdog) remaining() time.Duration {
	return max(w.deadline-time.Since(w.start), 0)
}

// extend moves the deadline to d after the process start (earlier or
// later), unless it has passed or the call is concluding.
func (w *watchdog) extend(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.claimed || !w.timer.Stop() {
		return
	}
	w.deadline = d
	w.timer.Reset(w.remaining())
}

// concluded reports whether a verdict is being (or was) concluded: once the
// deadline has claimed the call, the work's results are not used.
func (w *watchdog) concluded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.claimed
}

// work runs f, turning a panic into an internal error's verdict.
func (w *watchdog) work(f func() Verdict) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Err: fmt.Errorf("internal error: %v", r), OnError: policy.Decision(w.k.onError.Load())}
		}
	}()
	return f()
}

// fire is the deadline: it concludes with a deny (on_error) when the work
// has not, its audit write bounded by auditGrace, and ends the process
// (sys.exit), whose main goroutine may be stuck in a system call. When the
// work is already concluding, it ends that conclusion's audit write.
func (w *watchdog) fire() {
	w.mu.Lock()
	if w.claimed {
		w.mu.Unlock()
		close(w.expired)
		return
	}
	w.claimed = true
	w.mu.Unlock()
	v := Verdict{Err: fmt.Errorf("no decision within %v (slow file system or stdin never closed)", w.deadline), OnError: policy.Decision(w.k.onError.Load())}
	grace := make(chan struct{})
	t := time.AfterFunc(auditGrace, func() { close(grace) })
	defer t.Stop()
	w.code = conclude(v, w.k, w.out, grace, w.sys)
	close(w.done)
	if w.sys.Exit != nil {
		w.sys.Exit(w.code)
	}
}

// finish concludes with v when the deadline has not, and returns the exit
// status; when the deadline concluded first, it waits for that conclusion
// and returns its status (in a real process the deadline exits first).
func (w *watchdog) finish(v Verdict) int {
	w.mu.Lock()
	if w.claimed {
		w.mu.Unlock()
		<-w.done
		return w.code
	}
	w.claimed = true
	w.mu.Unlock()
	code := conclude(v, w.k, w.out, w.expired, w.sys)
	w.timer.Stop()
	return code
}

// conclude is the hook's exit path for v: it writes the audit record
// (bounded by expired), applies a dry run, and prints the decision once.
//
// A failed audit write leaves the decision as it is and says so on stderr,
// unless audit.required is true: then the call is denied with the reason.
// A dry run prints nothing whatever the decision (errors included; only a
// bad command line, read before anything is known, still denies) and
// writes the would-be decision on stderr and in the record.
func conclude(v Verdict, k *known, out *Emitter, expired <-chan struct{}, sys *System) int {
	stderr := out.Stderr
	if out.Explain || v.after {
		return out.emit(v)
	}
	a := k.audit.Load()
	if a.Enabled() || a.Required.Value {
		if err := writeAudit(v, a, sys.Now(), expired); err != nil {
			switch {
			case errors.Is(err, audit.ErrRotate):
				fmt.Fprintf(stderr, "safezone: audit: %v; the record was written, the decision stands\n", err)
			case !a.Required.Value:
				fmt.Fprintf(stderr, "safezone: audit: %v; the decision stands (audit.required is false)\n", err)
			case a.DryRun.Value:
				fmt.Fprintf(stderr, "safezone: audit: %v; audit.required is true, but this is a dry run\n", err)
			default:
				v = Verdict{Err: fmt.Errorf("the audit record could not be written: %w; audit.required is true (%s)", err, a.Required.Pos), OnError: policy.Deny}
			}
		}
	}
	if a.DryRun.Value {
		d, reason := Outcome(v)
		fmt.Fprintf(stderr, "safezone: dry run (%s): would %s: %s\n", a.DryRun.Pos, d, reason)
		return 0
	}
	return out.emit(v)
}
