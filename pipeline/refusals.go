package pipeline

// What the kernel refused a confined command (package refusals): the
// launcher registers itself for the collector, which the hook starts, and
// the hook's next call of the session tells the model.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/refusals"
)

// RefusalsSubcommand is the hidden first argument of the collector:
// `safezone __refusals BASE`.
const RefusalsSubcommand = "__refusals"

// refusalsIdle is how long the collector runs after the last confined
// command started.
const refusalsIdle = 30 * time.Minute

// refusalsWait bounds how long the hook waits for a collector it started
// to listen (once per collector, not per call).
const refusalsWait = 300 * time.Millisecond

// refusalsRetry is how long a collector that could not listen is not
// started again (its status file says why): an ordinary user, who lacks
// CAP_AUDIT_READ, pays one start of it an hour.
const refusalsRetry = time.Hour

// RefusalsMain is `safezone __refusals BASE`: the collector (refusals.Collect)
// until it has been idle; descriptor 3, when open, is its ready pipe.
func RefusalsMain(args []string, stderr io.Writer) int {
	if len(args) != 1 || !filepath.IsAbs(args[0]) {
		fmt.Fprintln(stderr, "usage: safezone "+RefusalsSubcommand+" BASE")
		return 1
	}
	ready := os.NewFile(3, "ready")
	if fi, err := ready.Stat(); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		ready = nil
	}
	if err := refusals.Collect(refusals.Dirs{Base: args[0]}, refusalsIdle, ready); err != nil {
		fmt.Fprintln(stderr, "safezone: refusals:", err)
		return 1
	}
	return 0
}

// refusalDirs are the collector's files in the state directory; Base is
// "" where there is none.
func (s *System) refusalDirs() refusals.Dirs {
	sd := s.StateDir()
	if sd == "" {
		return refusals.Dirs{}
	}
	return refusals.Dirs{Base: filepath.Join(sd, "refusals")}
}

// startRefusals returns the function that starts the collector from the
// binary exe, detached (as startIndex does), and waits until it listens
// or refusalsWait has passed; nil where exe is unknown or a Go test
// binary.
func startRefusals(exe string) func(base string) error {
	if !filepath.IsAbs(exe) || strings.HasSuffix(exe, ".test") {
		return nil
	}
	return func(base string) error {
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		defer r.Close()
		cmd := exec.Command(exe, RefusalsSubcommand, base)
		cmd.SysProcAttr = detached()
		cmd.Dir = "/"
		cmd.ExtraFiles = []*os.File{w}
		err = cmd.Start()
		w.Close()
		if err != nil {
			return err
		}
		cmd.Process.Release()
		r.SetReadDeadline(time.Now().Add(refusalsWait))
		r.Read(make([]byte, 1))
		return nil
	}
}

// report sets c's ruleset's Report, on the live path, when a collector
// listens (starting one if none runs and none failed lately): the kernel
// then logs what it refuses the command, and the collector records it in
// the audit log and for the model. Nothing is set where no collector can
// listen (no CAP_AUDIT_READ: an ordinary user's case), nor for a command
// that may run inside Claude Code's sandbox (refusalsHostSandbox).
func (j *Judger) report(c *confinement, call *hookio.Call, host hookio.Host, pol *policy.Policy, project string) {
	d := j.Sys.refusalDirs()
	if j.Opts.explain {
		c.Refusals = j.Sys.refusalsStatus(d)
	}
	if c.Ruleset.HostSandbox != "" {
		// Inside Claude Code's sandbox (bubblewrap) the state directory is
		// read-only, so the launcher could not register, and its PID
		// namespace would hide the launcher's process from the collector.
		if j.Opts.explain {
			c.Refusals = refusalsHostSandbox
		}
		return
	}
	if !j.live || d.Base == "" || j.Sys.StartRefusals == nil {
		return
	}
	if !refusals.Running(d) {
		if fi, err := os.Stat(d.Status()); err == nil && time.Since(fi.ModTime()) < refusalsRetry {
			return // it could not listen lately: its status says why
		}
		if os.MkdirAll(d.Base, 0o700) != nil || j.Sys.StartRefusals(d.Base) != nil || !refusals.Running(d) {
			return
		}
	}
	rc := refusals.Call{Host: host.Name(), SessionID: call.SessionID, ToolUseID: call.ToolUseID, Cwd: call.Cwd}
	if f := pol.Audit.File(j.Sys.Getenv("HOME"), project); f != "" {
		rc.Audit = &refusals.AuditFile{Path: f, MaxBytes: pol.Audit.MaxBytes.Value, Keep: pol.Audit.Keep.Value}
	}
	data, err := json.Marshal(rc)
	if err != nil {
		return
	}
	c.Ruleset.Report = &confine.Report{Dir: d.Launch(), Call: string(data)}
	c.Refusals = refusalsReported
}

// refusalsHostSandbox is explain's line for a command that may run inside
// Claude Code's own sandbox (confine.Ruleset.HostSandbox).
const refusalsHostSandbox = "not reported: the command may run inside Claude Code's sandbox, whose read-only state directory and PID namespace keep the launcher from registering; the command sees \"Permission denied\""

// refusalsReported is explain's line for a command whose refusals are
// reported.
const refusalsReported = "reported: what the kernel (Landlock) refuses it reaches the audit log as records of this call (\"tool\":\"landlock\") and the model at the session's next call"

// refusalsStatus says, for explain, whether the kernel's refusals of a
// confined command would be reported here, and why not (README, "What
// the kernel enforces").
func (s *System) refusalsStatus(d refusals.Dirs) string {
	if abi := s.ConfineStatus().LandlockABI; abi < 7 {
		return fmt.Sprintf("not reported: Landlock ABI %d logs nothing of an exec'd program (ABI 7, Linux 6.15, does); the command sees \"Permission denied\"", abi)
	}
	if d.Base == "" {
		return "not reported: there is no state directory for the collector"
	}
	if err := refusals.Available(); err != nil {
		return "not reported: " + err.Error() + "; the command sees \"Permission denied\""
	}
	return refusalsReported + " (where no collector runs yet, the hook starts one: safezone __refusals)"
}

// takeRefusals returns what the model is told of the refusals recorded
// for call's session since its last call ("" for none), on the live path,
// for an answer that reaches the model: not Gemini CLI's BeforeTool,
// which has no additionalContext (its AfterTool, right after the
// command, takes them).
func (j *Judger) takeRefusals(call *hookio.Call, host hookio.Host) string {
	if !j.live || call == nil || (host.Name() == (hookio.Gemini{}).Name() && call.Event != "AfterTool") {
		return ""
	}
	return refusals.Message(refusals.Take(j.Sys.refusalDirs(), call.SessionID))
}
