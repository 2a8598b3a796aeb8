package policy

import (
	"testing"
)

func TestAuditDefaults(t *testing.T) {
	a := Merge().Audit
	if a.Enabled() || a.Path.Value != "" || a.All.Value || a.Required.Value || a.Syslog.Value || a.DryRun.Value {
		t.Errorf("the default audit is off: %+v", a)
	}
	if a.MaxBytes.Value != DefaultAuditMaxBytes || a.Keep.Value != DefaultAuditKeep {
		t.Errorf("default rotation: %+v", a)
	}
}

func TestMergeAudit(t *testing.T) {
	parse := func(name, dir, text string, scope Scope) *Layer {
		t.Helper()
		l, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		l.Dir, l.Scope = dir, scope
		return l
	}
	managed := parse("managed.yaml", "/etc/safezone", "version: 1\naudit:\n  path: audit.jsonl\n  required: true\nlocked: [audit.path, audit.required, audit.dry_run]\n", ScopeManaged)
	user := parse("user.yaml", "/u", "version: 1\naudit:\n  path: /dev/null\n  required: false\n  dry_run: true\n  all: true\n", ScopeUser)
	p := Merge(managed, user)
	if p.Audit.Path.Value != "/etc/safezone/audit.jsonl" || p.Audit.Path.Pos.File != "managed.yaml" {
		t.Errorf("a relative path is under its file's directory, and locked: %+v", p.Audit.Path)
	}
	if !p.Audit.Required.Value || p.Audit.DryRun.Value {
		t.Errorf("locked required and dry_run keep the managed values: %+v", p.Audit)
	}
	if !p.Audit.All.Value {
		t.Error("audit.all is not locked: the user's value applies")
	}
	if len(p.Ignored) != 3 {
		t.Errorf("ignored: %v", p.Ignored)
	}
	// A project's file is kept out of a locked key by the lock, not by
	// trust: the lock is what the user reads.
	project := parse("proj.yaml", "/p", "version: 1\naudit:\n  path: /dev/null\n  dry_run: true\n  all: false\n", ScopeProject)
	p = Merge(managed, project)
	if len(p.Ignored) != 2 || len(p.Untrusted) != 0 || p.Audit.All.Value {
		t.Errorf("locked keys of an untrusted project: ignored %v, untrusted %v", p.Ignored, p.Untrusted)
	}

	home := parse("user.yaml", "/home/u/.config/safezone", "version: 1\naudit:\n  path: ~/audit.jsonl\n", ScopeUser)
	p = Merge(home)
	if got := p.Audit.File("/home/u", "/p"); got != "/home/u/audit.jsonl" {
		t.Errorf("~ is the home directory: %q", got)
	}
	if got := p.Audit.File("", "/p"); got != "" {
		t.Errorf("~ without a home: %q, want none", got)
	}
	embedded := parse(EmbeddedName, "", "version: 1\naudit:\n  path: logs/../audit.jsonl\n", ScopeDefault)
	if got := Merge(embedded).Audit.File("/h", "/p"); got != "/p/audit.jsonl" {
		t.Errorf("relative without a directory is under the project root: %q", got)
	}
}
