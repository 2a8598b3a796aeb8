package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

const policyUsage = `Usage:
    safezone policy [--json] [flags]

Prints the effective policy for the project (CLAUDE_PROJECT_DIR, else the
working directory): every layer merged over the embedded default, each value
and entry with the file and line it comes from, the entries remove: sections
took out (and by which file and line), the keys the managed policy locked
and the values a lock kept out, and what the project's files would widen
but do not until you trust them (safezone trust FILE). The hook's flags
(-r, -y, --policy FILE, ...) apply as they would to a call. Exit status 0,
or 1 when the policy cannot be loaded.
`

// entry is one line of `safezone policy`: a key, a value and its origin.
type entry struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// effective is `safezone policy --json`.
type effective struct {
	Layers  []string `json:"layers"`
	Entries []entry  `json:"entries"`
	Locked  []entry  `json:"locked,omitempty"`
	Ignored []string `json:"ignored,omitempty"`
	// Removed are the entries remove: sections took out; Untrusted what
	// the project's files would widen; Trust the command for each such
	// file.
	Removed   []string `json:"removed,omitempty"`
	Untrusted []string `json:"untrusted,omitempty"`
	Trust     []string `json:"trust,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
}

func cmdPolicy(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	jsonOut := false
	var rest []string
	for _, a := range args {
		switch a {
		case "--json":
			jsonOut = true
		case "-h", "--help":
			fmt.Fprint(stdout, policyUsage)
			return 0
		default:
			rest = append(rest, a)
		}
	}
	opts, err := pipeline.ParseFlags(rest, false)
	if err != nil || opts == nil {
		if err == nil {
			err = errors.New("--version is not a policy flag")
		}
		fmt.Fprintf(stderr, "safezone: policy: %v\n%s", err, policyUsage)
		return 2
	}
	root := sys.ProjectRoot()
	p, err := pipeline.LoadPolicy(opts, root, sys, nil)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: policy: %v\n", err)
		return 1
	}
	e := describe(p)
	if jsonOut {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(e)
		stdout.Write(buf.Bytes())
		return 0
	}
	fmt.Fprintf(stdout, "# layers, lowest precedence first: %s\n", strings.Join(e.Layers, ", "))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, x := range e.Entries {
		fmt.Fprintf(tw, "%s\t%s: %s\n", x.Source, x.Key, x.Value)
	}
	for _, x := range e.Locked {
		fmt.Fprintf(tw, "%s\tlocked: %s\n", x.Source, x.Value)
	}
	tw.Flush()
	for _, x := range e.Ignored {
		fmt.Fprintf(stdout, "# ignored: %s\n", x)
	}
	for _, x := range e.Removed {
		fmt.Fprintf(stdout, "# removed: %s\n", x)
	}
	for _, x := range e.Untrusted {
		fmt.Fprintf(stdout, "# untrusted: %s\n", x)
	}
	for _, x := range e.Trust {
		fmt.Fprintf(stdout, "# trust: %s\n", x)
	}
	for _, x := range e.Warnings {
		fmt.Fprintf(stdout, "# warning: %s\n", x)
	}
	return 0
}

// describe lists the effective policy in the order of the schema.
func describe(p *policy.Policy) effective {
	e := effective{Layers: p.Sources}
	add := func(key, value string, pos policy.Pos) {
		e.Entries = append(e.Entries, entry{Key: key, Value: value, Source: pos.String()})
	}
	add("mode", p.Mode.Value.String(), p.Mode.Pos)
	add("auto_approve", fmt.Sprint(p.AutoApprove.Value), p.AutoApprove.Pos)
	add("sandbox.enabled", fmt.Sprint(p.SandboxEnabled.Value), p.SandboxEnabled.Pos)
	add("sandbox.outside_read", p.OutsideRead.Value.String(), p.OutsideRead.Pos)
	add("sandbox.outside_write", p.OutsideWrite.Value.String(), p.OutsideWrite.Pos)
	add("on_error", p.OnError.Value.String(), p.OnError.Pos)
	add("host_settings", fmt.Sprint(p.HostSettings.Value), p.HostSettings.Pos)
	add("self_protection", fmt.Sprint(p.SelfProtection.Value), p.SelfProtection.Pos)
	for _, d := range p.AdditionalDirectories {
		add("sandbox.additional_directories", dirText(d), d.Pos)
	}
	for _, d := range p.ReadDirs {
		add("sandbox.read_dirs", dirText(d), d.Pos)
	}
	for _, c := range []struct {
		key string
		ps  []policy.Pattern
	}{{"paths.protected", p.Protected}, {"paths.warned", p.Warned}, {"paths.safe", p.Safe}} {
		for _, x := range c.ps {
			if x.Why != "" {
				// A file a host's setting runs (policy.HostCodeFiles).
				add(c.key, x.Text+"  # run by "+x.Why, x.Pos)
				continue
			}
			add(c.key, x.Text, x.Pos)
		}
	}
	for _, t := range p.Templates {
		add("paths.templates", t.Value, t.Pos)
	}
	for _, c := range []struct {
		key string
		rs  []policy.Rule
	}{{"rules.deny", p.Deny}, {"rules.ask", p.Ask}, {"rules.allow", p.Allow}} {
		for _, x := range c.rs {
			add(c.key, x.Text, x.Pos)
		}
	}
	add("guards.lose_work", guardText(p.Guards.LoseWork.Value), p.Guards.LoseWork.Pos)
	add("guards.install_outside", guardText(p.Guards.InstallOutside.Value), p.Guards.InstallOutside.Pos)
	add("confine.mode", p.Confine.Mode.Value.String(), p.Confine.Mode.Pos)
	for _, d := range p.Confine.Write {
		add("confine.write", dirText(d), d.Pos)
	}
	a := p.Audit
	add("audit.path", a.Path.Value, a.Path.Pos)
	add("audit.all", fmt.Sprint(a.All.Value), a.All.Pos)
	add("audit.max_bytes", fmt.Sprint(a.MaxBytes.Value), a.MaxBytes.Pos)
	add("audit.keep", fmt.Sprint(a.Keep.Value), a.Keep.Pos)
	add("audit.required", fmt.Sprint(a.Required.Value), a.Required.Pos)
	add("audit.syslog", fmt.Sprint(a.Syslog.Value), a.Syslog.Pos)
	add("audit.dry_run", fmt.Sprint(a.DryRun.Value), a.DryRun.Pos)
	for _, k := range p.Locked {
		e.Locked = append(e.Locked, entry{Key: "locked", Value: k.Value, Source: k.Pos.String()})
	}
	for _, ig := range p.Ignored {
		e.Ignored = append(e.Ignored, ig.String())
	}
	for _, r := range p.Removed {
		e.Removed = append(e.Removed, r.String())
	}
	e.Untrusted, e.Trust = pipeline.UntrustedText(p)
	for _, w := range p.Warnings {
		e.Warnings = append(e.Warnings, w.Error())
	}
	return e
}

// dirText shows a directory entry as written, and what a relative one is
// relative to.
func dirText(d policy.Dir) string {
	if d.Base != "" && !strings.HasPrefix(d.Path, "/") && !strings.HasPrefix(d.Path, "~") {
		return d.Path + " (relative to " + d.Base + ")"
	}
	return d.Path
}

// guardText shows a guard's setting as the policy spells it.
func guardText(d policy.Decision) string {
	if d == policy.Abstain {
		return "off"
	}
	return d.String()
}
