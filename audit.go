package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// auditGrace bounds the audit write of a call that already ran out of time
// (the deadline's own deny is worth a record); the host's timeout is
// further away still.
const auditGrace = 250 * time.Millisecond

// known is what the hook's worker has learned that its exit path needs,
// even when the worker itself never finishes: the on_error decision and the
// audit settings of the loaded policy (before that: of the flags alone).
type known struct {
	onError atomic.Int32
	audit   atomic.Pointer[auditSettings]
	sys     *system
}

// auditSettings is the effective audit: mapping of one hook call.
type auditSettings struct {
	policy.Audit
	file    string // the log file, absolute; "" for none
	host    string
	onError policy.Setting[policy.Decision]
}

func newKnown(opts *options, sys *system) *known {
	k := &known{sys: sys}
	k.onError.Store(int32(policy.Deny))
	// The flags' --audit path is absolute (or "~/..."): no project root
	// is needed to place it.
	k.set(policy.Merge(opts.flags), "", opts.host.Name())
	return k
}

// policyLoaded is the judge's callback: the policy is known.
func (k *known) policyLoaded(p *policy.Policy, root string) {
	k.onError.Store(int32(p.OnError.Value))
	k.set(p, root, k.audit.Load().host)
}

func (k *known) set(p *policy.Policy, root, host string) {
	k.audit.Store(&auditSettings{Audit: p.Audit, file: p.Audit.File(k.sys.getenv("HOME"), root), host: host, onError: p.OnError})
}

// auditFlag checks --audit FILE and makes it absolute (relative to the
// working directory, like --policy).
func auditFlag(path string) (string, error) {
	switch {
	case path == "" || strings.ContainsRune(path, 0):
		return "", errors.New("--audit needs a file name")
	case path == "~" || strings.HasPrefix(path, "~/"):
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("--audit %s: %w", path, err)
	}
	return abs, nil
}

// conclude is the hook's exit path for v: it writes the audit record
// (bounded by expired), applies a dry run, and prints the decision once.
//
// A failed audit write leaves the decision as it is and says so on stderr,
// unless audit.required is true: then the call is denied with the reason.
// A dry run prints nothing whatever the decision (errors included; only a
// bad command line, read before anything is known, still denies) and
// writes the would-be decision on stderr and in the record.
func conclude(v verdict, k *known, out *emitter, expired <-chan time.Time, stderr io.Writer, sys *system) int {
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

// outcome is the decision v prints and its reason.
func outcome(v verdict) (policy.Decision, string) {
	if v.err != nil {
		return failReason(v.onError, v.err)
	}
	return v.res.Decision, v.res.Reason
}

// writeAudit writes v's record to every sink a configures, unless it is an
// abstain and audit.all is false. It gives up when expired fires: a hung
// file system or syslog daemon must not hang the hook.
func writeAudit(v verdict, a *auditSettings, now time.Time, expired <-chan time.Time) error {
	rec := record(v, a, now)
	if a.DryRun.Value {
		rec.DryRun, rec.WouldDecide, rec.Decision = true, rec.Decision, policy.Abstain.String()
	}
	decided := rec.Decision
	if rec.DryRun {
		decided = rec.WouldDecide
	}
	if decided == policy.Abstain.String() && !a.All.Value {
		return nil
	}
	if !a.Enabled() {
		return errors.New("audit.required is true but neither audit.path nor audit.syslog is set")
	}
	line, err := marshalRecord(rec)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		var errs []error
		if a.file != "" {
			f := &audit.File{Path: a.file, MaxBytes: a.MaxBytes.Value, Keep: a.Keep.Value}
			errs = append(errs, f.Append(line))
		} else if a.Path.Value != "" {
			errs = append(errs, fmt.Errorf("audit.path %q (%s): no home directory or project root to place it", a.Path.Value, a.Path.Pos))
		}
		if a.Syslog.Value {
			if err := audit.Syslog(severity(v), line[:len(line)-1]); err != nil {
				errs = append(errs, fmt.Errorf("syslog: %w", err))
			}
		}
		done <- errors.Join(errs...)
	}()
	select {
	case err := <-done:
		return err
	case <-expired:
		return fmt.Errorf("audit log %s not written in time (hung file system or syslog?)", a.file)
	}
}

func severity(v verdict) audit.Severity {
	d, _ := outcome(v)
	switch {
	case v.err != nil:
		return audit.SevErr
	case d == policy.Deny:
		return audit.SevWarning
	case d == policy.Ask:
		return audit.SevNotice
	}
	return audit.SevInfo
}

// record builds the audit record of v (Time from now, in UTC).
func record(v verdict, a *auditSettings, now time.Time) audit.Record {
	r := audit.Record{Time: now.UTC().Format(audit.TimeFormat), Host: a.host, Targets: []audit.Target{}}
	call := v.call
	if call == nil && v.input != nil {
		call = lenientCall(v.input)
	}
	if call != nil {
		r.SessionID, r.ToolUseID, r.Tool, r.Cwd = call.SessionID, call.ToolUseID, call.Tool, call.Cwd
		r.PermissionMode = call.RawPermissionMode
	}
	d, reason := outcome(v)
	r.Decision, r.Reason = d.String(), reason
	if v.err != nil {
		r.Rule, r.Source, r.Error = "on_error", a.onError.Pos.String(), v.err.Error()
		return r
	}
	res := v.res
	r.Rule, r.Source = res.Deciding.Rule, res.Deciding.Source
	if res.Row == classify.RowError {
		r.Rule, r.Source = "on_error", a.onError.Pos.String()
		if res.Err != nil {
			r.Error = res.Err.Error()
		}
	}
	for _, t := range res.Targets {
		r.Targets = append(r.Targets, audit.Target{Given: t.Given, Resolved: t.Res.Path, Access: t.Access.String()})
	}
	return r
}

// lenientCall reads what it can of an input the decoder refused, for the
// audit record of the resulting deny: its identifiers, nothing it decides on.
func lenientCall(input []byte) *hookio.Call {
	var in struct {
		SessionID      string `json:"session_id"`
		ToolUseID      string `json:"tool_use_id"`
		Tool           string `json:"tool_name"`
		Cwd            string `json:"cwd"`
		PermissionMode string `json:"permission_mode"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	return &hookio.Call{SessionID: in.SessionID, ToolUseID: in.ToolUseID, Tool: in.Tool, Cwd: in.Cwd, RawPermissionMode: in.PermissionMode}
}

// marshalRecord encodes rec as one line: compact JSON without HTML
// escaping, ending in "\n" (encoding/json escapes newlines in strings).
func marshalRecord(rec any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
