package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/safezonehq/safezone/policy/yamldoc"
)

// AuditLayer is the audit: mapping of one policy file (README, "Running it
// in a team", Audit log); nil fields are not set by the file.
type AuditLayer struct {
	// Path is the audit log file as written: absolute, "~/...", or relative
	// to the policy file's directory (see [Merge]); "" writes no file.
	Path *Setting[string]
	// All logs every decision, abstain included; by default abstain is not
	// logged.
	All *Setting[bool]
	// MaxBytes rotates the log once it reaches this size; 0 never rotates.
	MaxBytes *Setting[int64]
	// Keep is how many rotated files (FILE.1 ... FILE.N) are kept.
	Keep *Setting[int]
	// Required makes a failed audit write deny the call.
	Required *Setting[bool]
	// Syslog also sends each record to the local syslog.
	Syslog *Setting[bool]
	// DryRun decides and logs as usual but prints nothing (abstain).
	DryRun *Setting[bool]
}

// Audit is the effective audit: mapping, each value with where it was set.
type Audit struct {
	Path     Setting[string]
	All      Setting[bool]
	MaxBytes Setting[int64]
	Keep     Setting[int]
	Required Setting[bool]
	Syslog   Setting[bool]
	DryRun   Setting[bool]
}

// Audit defaults: rotate at 10 MiB and keep 5 rotated files (60 MiB at
// most), enough for months of calls of one developer.
const (
	DefaultAuditMaxBytes = 10 << 20
	DefaultAuditKeep     = 5
	// MaxAuditKeep bounds audit.keep: rotation renames every kept file.
	MaxAuditKeep = 100
)

func defaultAudit() Audit {
	return Audit{
		Path:     Setting[string]{"", builtin},
		All:      Setting[bool]{false, builtin},
		MaxBytes: Setting[int64]{DefaultAuditMaxBytes, builtin},
		Keep:     Setting[int]{DefaultAuditKeep, builtin},
		Required: Setting[bool]{false, builtin},
		Syslog:   Setting[bool]{false, builtin},
		DryRun:   Setting[bool]{false, builtin},
	}
}

// Enabled reports whether some record is written anywhere: a file or syslog.
func (a *Audit) Enabled() bool { return a.Path.Value != "" || a.Syslog.Value }

// File returns the audit log's absolute, clean path, or "" when none is set:
// "~" and "~/x" are under home; a path still relative after [Merge] (from
// the embedded default) is under the project root.
func (a *Audit) File(home, projectRoot string) string {
	p := a.Path.Value
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		if home == "" {
			return ""
		}
		p = filepath.Join(home, p[1:])
	case !filepath.IsAbs(p):
		if projectRoot == "" {
			return ""
		}
		p = filepath.Join(projectRoot, p)
	}
	return filepath.Clean(p)
}

type rawAudit struct {
	Path     yamldoc.Node
	All      yamldoc.Node
	MaxBytes yamldoc.Node
	Keep     yamldoc.Node
	Required yamldoc.Node
	Syslog   yamldoc.Node
	DryRun   yamldoc.Node
}

const auditKeys = "path, all, max_bytes, keep, required, syslog, dry_run"

// audit validates the audit: mapping.
func (p *parser) audit(r *rawAudit) {
	a := &p.l.Audit
	if r.Path.Kind != 0 {
		if v, ok := p.str(&r.Path, "audit.path"); ok {
			switch {
			case strings.ContainsRune(v, 0):
				p.fail(&r.Path, "audit.path", fmt.Errorf("%w: NUL byte in the path", ErrBadValue))
			case strings.HasPrefix(v, "~") && v != "~" && !strings.HasPrefix(v, "~/"):
				p.fail(&r.Path, "audit.path", fmt.Errorf("%w: %q: ~user is not supported; write the absolute path", ErrBadValue, v))
			case v == "~" || strings.HasSuffix(v, "/"):
				p.fail(&r.Path, "audit.path", fmt.Errorf("%w: %q names a directory; write a file name such as ~/.local/state/safezone/audit.jsonl", ErrBadValue, v))
			default:
				a.Path = &Setting[string]{Value: v, Pos: p.pos(&r.Path)}
			}
		}
	}
	if r.All.Kind != 0 {
		a.All = p.boolean(&r.All, "audit.all")
	}
	if r.MaxBytes.Kind != 0 {
		if n, ok := p.integer(&r.MaxBytes, "audit.max_bytes", 0, 1<<50, "0 (never rotate) or a size in bytes such as 10485760"); ok {
			a.MaxBytes = &Setting[int64]{Value: n, Pos: p.pos(&r.MaxBytes)}
		}
	}
	if r.Keep.Kind != 0 {
		if n, ok := p.integer(&r.Keep, "audit.keep", 0, MaxAuditKeep, fmt.Sprintf("0 to %d", MaxAuditKeep)); ok {
			a.Keep = &Setting[int]{Value: int(n), Pos: p.pos(&r.Keep)}
		}
	}
	if r.Required.Kind != 0 {
		a.Required = p.boolean(&r.Required, "audit.required")
	}
	if r.Syslog.Kind != 0 {
		a.Syslog = p.boolean(&r.Syslog, "audit.syslog")
	}
	if r.DryRun.Kind != 0 {
		a.DryRun = p.boolean(&r.DryRun, "audit.dry_run")
	}
}

// integer parses an integer scalar within [lo, hi]; want describes the
// range for the error.
func (p *parser) integer(n *yamldoc.Node, field string, lo, hi int64, want string) (int64, bool) {
	if n.Kind != yamldoc.ScalarNode || n.Tag != "!!int" {
		p.fail(n, field, fmt.Errorf("%w: want %s, got %s", ErrBadValue, want, describe(n)))
		return 0, false
	}
	v, err := n.Int()
	if err != nil || v < lo || v > hi {
		p.fail(n, field, fmt.Errorf("%w: %s is out of range (want %s)", ErrBadValue, n.Value, want))
		return 0, false
	}
	return v, true
}

// mergeAudit applies one layer's audit: mapping. A relative audit.path is
// made absolute against the layer's directory (the embedded default has
// none: [Audit.File] puts it under the project root).
func mergeAudit(open opener, dst *Audit, l *Layer) {
	a := &l.Audit
	if a.Path != nil {
		s := layerAuditPath(l, *a.Path)
		scalar(open, "audit.path", &dst.Path, &s)
	}
	scalar(open, "audit.all", &dst.All, a.All)
	scalar(open, "audit.max_bytes", &dst.MaxBytes, a.MaxBytes)
	scalar(open, "audit.keep", &dst.Keep, a.Keep)
	scalar(open, "audit.required", &dst.Required, a.Required)
	scalar(open, "audit.syslog", &dst.Syslog, a.Syslog)
	scalar(open, "audit.dry_run", &dst.DryRun, a.DryRun)
}
