package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// The audit record of a hook call (audit: in the policy, --audit): what the
// hook's exit path (conclude) writes before it prints.

// auditGrace bounds the audit write of a call that already ran out of time
// (the deadline's own deny is worth a record); the host's timeout is
// further away still (minMargin).
const auditGrace = 250 * time.Millisecond

// known is what the hook's worker has learned that its exit path needs,
// even when the worker itself never finishes: the on_error decision and the
// audit settings of the loaded policy (before that: of the flags alone).
type known struct {
	onError atomic.Int32
	audit   atomic.Pointer[AuditSettings]
	sys     *System
}

// AuditSettings is the effective audit: mapping of one hook call.
type AuditSettings struct {
	policy.Audit
	file    string // the log file, absolute; "" for none
	Host    string
	OnError policy.Setting[policy.Decision]
}

func newKnown(opts *Options, sys *System) *known {
	k := &known{sys: sys}
	k.onError.Store(int32(policy.Deny))
	// The flags' --audit path is absolute (or "~/..."): no project root
	// is needed to place it.
	k.set(policy.Merge(opts.flags), "", opts.Host.Name())
	return k
}

// policyLoaded is the judge's callback: the policy is known.
func (k *known) policyLoaded(p *policy.Policy, root string) {
	k.onError.Store(int32(p.OnError.Value))
	k.set(p, root, k.audit.Load().Host)
}

func (k *known) set(p *policy.Policy, root, host string) {
	k.audit.Store(&AuditSettings{Audit: p.Audit, file: p.Audit.File(k.sys.Getenv("HOME"), root), Host: host, OnError: p.OnError})
}

// writeAudit writes v's record to every sink a configures, unless it is an
// abstain and audit.all is false. It gives up when expired fires: a hung
// file system or syslog daemon must not hang the hook.
func writeAudit(v Verdict, a *AuditSettings, now time.Time, expired <-chan struct{}) error {
	rec := Record(v, a, now)
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
	line, err := MarshalRecord(rec)
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

func severity(v Verdict) audit.Severity {
	d, _ := Outcome(v)
	switch {
	case v.Err != nil:
		return audit.SevErr
	case d == policy.Deny:
		return audit.SevWarning
	case d == policy.Ask:
		return audit.SevNotice
	}
	return audit.SevInfo
}

// Record builds the audit record of v (Time from now, in UTC).
func Record(v Verdict, a *AuditSettings, now time.Time) audit.Record {
	r := audit.Record{Time: now.UTC().Format(audit.TimeFormat), Host: a.Host, Targets: []audit.Target{}}
	call := v.call
	if call == nil && v.input != nil {
		call = lenientCall(v.input)
	}
	if call != nil {
		r.SessionID, r.ToolUseID, r.Tool, r.Cwd = call.SessionID, call.ToolUseID, call.Tool, call.Cwd
		r.PermissionMode = call.RawPermissionMode
	}
	d, reason := Outcome(v)
	r.Decision, r.Reason = d.String(), reason
	if v.Err != nil {
		r.Rule, r.Source, r.Error = "on_error", a.OnError.Pos.String(), v.Err.Error()
		return r
	}
	res := v.Res
	r.Rule, r.Source = res.Deciding.Rule, res.Deciding.Source
	r.Confined = v.conf != nil
	if !r.Confined && res.ConfineNote != "" {
		r.Confine = res.ConfineNote
		if v.confineOff != "" {
			r.Confine += ": " + v.confineOff
		}
	}
	if res.Row == classify.RowError {
		r.Rule, r.Source = "on_error", a.OnError.Pos.String()
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

// MarshalRecord encodes rec as one line: compact JSON without HTML
// escaping, ending in "\n" (encoding/json escapes newlines in strings).
func MarshalRecord(rec any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
