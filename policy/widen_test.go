package policy

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// lowerYAML is what the user set below the project in the per-key cases:
// the embedded default's values, a few stricter ones, one entry of each list.
const lowerYAML = `version: 1
mode: write
auto_approve: false
sandbox:
  enabled: true
  outside_read: ask
  outside_write: deny
  additional_directories: ["../shared"]
paths:
  protected: [".env*"]
  warned: ["src/**"]
  safe: ["docs/**"]
  templates: [".env.example"]
rules:
  deny: ["Read(~/.ssh/**)"]
  ask: ["Bash(git push:*)"]
  allow: ["Read(~/notes/**)"]
guards:
  lose_work: ask
  install_outside: deny
confine:
  mode: auto
  write: ["~/.cache"]
on_error: deny
host_settings: true
audit:
  path: /var/log/sz.jsonl
  all: true
  max_bytes: 1000
  keep: 5
  required: true
  syslog: true
  dry_run: false
`

func mustParse(t *testing.T, name, text string, scope Scope) *Layer {
	t.Helper()
	l, err := Parse(name, []byte(text))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	l.Scope, l.Dir = scope, "/p"
	return l
}

// TestRestrictPerKey: for each key, a project layer's value or entry that
// widens what the layers below set is held back until the file is trusted,
// and one that tightens (or changes nothing) applies at once.
func TestRestrictPerKey(t *testing.T) {
	tests := []struct {
		name    string
		project string // the project's file, after "version: 1\n"
		widens  bool
		// got reads the merged value the case is about.
		got func(p *Policy) string
		// want is got's value when the project's entry applies; the
		// lower layer's value is got's value over the lower layer alone.
		want string
	}{
		{"mode agi over write", "mode: agi", true, modeOf, "agi"},
		{"mode read over write", "mode: read", false, modeOf, "read"},
		{"mode write over write", "mode: write", false, modeOf, "write"},
		{"auto_approve true", "auto_approve: true", true, func(p *Policy) string { return fmt.Sprint(p.AutoApprove.Value) }, "true"},
		{"auto_approve false", "auto_approve: false", false, func(p *Policy) string { return fmt.Sprint(p.AutoApprove.Value) }, "false"},
		{"sandbox off", "sandbox: {enabled: false}", true, func(p *Policy) string { return fmt.Sprint(p.SandboxEnabled.Value) }, "false"},
		{"outside_write ask over deny", "sandbox: {outside_write: ask}", true, func(p *Policy) string { return p.OutsideWrite.Value.String() }, "ask"},
		{"outside_read deny over ask", "sandbox: {outside_read: deny}", false, func(p *Policy) string { return p.OutsideRead.Value.String() }, "deny"},
		{"outside_read ask over ask", "sandbox: {outside_read: ask}", false, func(p *Policy) string { return p.OutsideRead.Pos.File }, "project"},
		{"on_error ask over deny", "on_error: ask", true, func(p *Policy) string { return p.OnError.Value.String() }, "ask"},
		{"host_settings false", "host_settings: false", true, func(p *Policy) string { return fmt.Sprint(p.HostSettings.Value) }, "false"},
		{"guard off over ask", "guards: {lose_work: \"off\"}", true, func(p *Policy) string { return showGuard(p.Guards.LoseWork.Value) }, "off"},
		{"guard deny over ask", "guards: {lose_work: deny}", false, func(p *Policy) string { return showGuard(p.Guards.LoseWork.Value) }, "deny"},
		{"guard ask over deny", "guards: {install_outside: ask}", true, func(p *Policy) string { return showGuard(p.Guards.InstallOutside.Value) }, "ask"},
		{"confine off over auto", "confine: {mode: \"off\"}", true, confineOf, "off"},
		{"network isolate on", "network: {isolate: true}", false, func(p *Policy) string { return fmt.Sprint(p.Network.Isolate.Value) }, "true"},
		{"network allow", "network: {allow: [example.com]}", true, func(p *Policy) string { return strings.Join(Values(p.Network.Allow), " ") }, "example.com"},
		{"network deny", "network: {deny: [example.com]}", false, func(p *Policy) string { return strings.Join(Values(p.Network.Deny), " ") }, "example.com"},
		{"confine always over auto", "confine: {mode: always}", false, confineOf, "always"},
		{"audit.path elsewhere", "audit: {path: /dev/null}", true, func(p *Policy) string { return p.Audit.Path.Value }, "/dev/null"},
		{"audit.all false", "audit: {all: false}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.All.Value) }, "false"},
		{"audit.max_bytes smaller", "audit: {max_bytes: 10}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.MaxBytes.Value) }, "10"},
		{"audit.max_bytes never rotate", "audit: {max_bytes: 0}", false, func(p *Policy) string { return fmt.Sprint(p.Audit.MaxBytes.Value) }, "0"},
		{"audit.keep fewer", "audit: {keep: 1}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.Keep.Value) }, "1"},
		{"audit.keep more", "audit: {keep: 9}", false, func(p *Policy) string { return fmt.Sprint(p.Audit.Keep.Value) }, "9"},
		{"audit.required false", "audit: {required: false}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.Required.Value) }, "false"},
		{"audit.syslog false", "audit: {syslog: false}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.Syslog.Value) }, "false"},
		{"audit.dry_run true", "audit: {dry_run: true}", true, func(p *Policy) string { return fmt.Sprint(p.Audit.DryRun.Value) }, "true"},
		{"additional directory", "sandbox: {additional_directories: [\"~\"]}", true, dirsOf(func(p *Policy) []Dir { return p.AdditionalDirectories }), "../shared ~"},
		{"read_dirs", "sandbox: {read_dirs: [/etc]}", true, dirsOf(func(p *Policy) []Dir { return p.ReadDirs }), "/etc"},
		{"safe path", "paths: {safe: [\"src/**\"]}", true, patternsOf(func(p *Policy) []Pattern { return p.Safe }), "docs/** src/**"},
		{"template", "paths: {templates: [.env.local]}", true, func(p *Policy) string { return texts(p.Templates, templateEntry) }, ".env.example .env.local"},
		{"confine.write", "confine: {write: [\"~\"]}", true, dirsOf(func(p *Policy) []Dir { return p.Confine.Write }), "~/.cache ~"},
		{"confine.program_writable", "confine: {program_writable: [.env]}", true, patternsOf(func(p *Policy) []Pattern { return p.Confine.ProgramWritable }), ".env"},
		{"confine.sockets", "confine: {sockets: [/run/docker.sock]}", true, func(p *Policy) string { return texts(p.Confine.Sockets, templateEntry) }, "/run/docker.sock"},
		{"confine.grants", "confine: {grants: [{command: \"grep:*\", read: [\"~/.ssh/**\"]}]}", true, func(p *Policy) string { return texts(p.Confine.Grants, grantEntry) }, "Bash(grep:*)"},
		{"protected path", "paths: {protected: [\"*.sql\"]}", false, patternsOf(func(p *Policy) []Pattern { return p.Protected }), ".env* *.sql"},
		{"warned path", "paths: {warned: [\"infra/**\"]}", false, patternsOf(func(p *Policy) []Pattern { return p.Warned }), "src/** infra/**"},
		{"deny rule", "rules: {deny: [\"Read(data/**)\"]}", false, rulesOf(func(p *Policy) []Rule { return p.Deny }), "Read(~/.ssh/**) Read(data/**)"},
		{"ask rule", "rules: {ask: [Bash]}", false, rulesOf(func(p *Policy) []Rule { return p.Ask }), "Bash(git push:*) Bash"},
		{"allow rule outside", "rules: {allow: [\"Read(~/.aws/**)\"]}", true, rulesOf(func(p *Policy) []Rule { return p.Allow }), "Read(~/notes/**) Read(~/.aws/**)"},
		{"allow rule inside", "rules: {allow: [\"Edit(src/**)\"]}", true, rulesOf(func(p *Policy) []Rule { return p.Allow }), "Read(~/notes/**) Edit(src/**)"},
		{"allow rule of a command", "rules: {allow: [\"Bash(make:*)\"]}", true, rulesOf(func(p *Policy) []Rule { return p.Allow }), "Read(~/notes/**) Bash(make:*)"},
		{"remove a deny rule", "remove: {rules.deny: [\"Read(~/.ssh/**)\"]}", true, rulesOf(func(p *Policy) []Rule { return p.Deny }), ""},
		{"remove an ask rule", "remove: {rules.ask: [\"Bash(git push:*)\"]}", true, rulesOf(func(p *Policy) []Rule { return p.Ask }), ""},
		{"remove a protected path", "remove: {paths.protected: [\".env*\"]}", true, patternsOf(func(p *Policy) []Pattern { return p.Protected }), ""},
		{"remove a warned path", "remove: {paths.warned: [\"src/**\"]}", true, patternsOf(func(p *Policy) []Pattern { return p.Warned }), ""},
		{"remove an allow rule", "remove: {rules.allow: [\"Read(~/notes/**)\"]}", false, rulesOf(func(p *Policy) []Rule { return p.Allow }), ""},
		{"remove a safe path", "remove: {paths.safe: [\"docs/**\"]}", false, patternsOf(func(p *Policy) []Pattern { return p.Safe }), ""},
		{"remove a template", "remove: {paths.templates: [.env.example]}", false, func(p *Policy) string { return texts(p.Templates, templateEntry) }, ""},
		{"remove a directory", "remove: {sandbox.additional_directories: [../shared]}", false, dirsOf(func(p *Policy) []Dir { return p.AdditionalDirectories }), ""},
		{"remove a cache", "remove: {confine.write: [\"~/.cache\"]}", false, dirsOf(func(p *Policy) []Dir { return p.Confine.Write }), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lower := mustParse(t, "user", lowerYAML, ScopeUser)
			before := tt.got(Merge(lower))
			project := mustParse(t, "project", "version: 1\n"+tt.project+"\n", ScopeProject)
			untrusted := Merge(lower, project)
			got := tt.got(untrusted)
			switch {
			case tt.widens && (got != before || len(untrusted.Untrusted) == 0):
				t.Errorf("untrusted: %q (held back %v), want the lower layer's %q", got, untrusted.Untrusted, before)
			case !tt.widens && (got != tt.want || len(untrusted.Untrusted) != 0):
				t.Errorf("untrusted: %q (held back %v), want %q applied at once", got, untrusted.Untrusted, tt.want)
			}
			for _, u := range untrusted.Untrusted {
				if u.Pos.File != "project" || u.Pos.Line < 2 || u.Why == "" {
					t.Errorf("held back entry without its place or reason: %+v", u)
				}
			}
			project.Trusted = true
			trusted := Merge(lower, project)
			if got := tt.got(trusted); got != tt.want || len(trusted.Untrusted) != 0 || len(trusted.Trusted) != 1 {
				t.Errorf("trusted: %q (held back %v), want %q", got, trusted.Untrusted, tt.want)
			}
			if err := trusted.Err(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRestrictClaudeSettings: of Claude Code's project settings, path allow
// rules and additional directories need trust; rules for a tool or a command
// (which the host applies itself when safezone abstains) and deny and ask
// rules apply at once.
func TestRestrictClaudeSettings(t *testing.T) {
	src := ClaudeSource{Scope: ScopeLocal, SlashBase: "./"}
	l, err := ParseClaudeSettings("settings.local.json", []byte(`{"permissions": {
		"allow": ["Bash(npm test:*)", "WebFetch", "WebFetch(domain:x.com)", "mcp__github", "Read(//etc/**)", "Read(~/.ssh/**)", "Edit(src/**)"],
		"deny": ["Read(./secrets/**)"], "ask": ["Bash(git push:*)"],
		"additionalDirectories": ["~", "../lib"]},
		"sandbox": {"enabled": true, "network": {"allowedDomains": ["*.npmjs.org", "db.local:5432"], "deniedDomains": ["evil.com"], "allowUnixSockets": []}}}`), src)
	if err != nil {
		t.Fatal(err)
	}
	p := Merge(l)
	var held []string
	for _, u := range p.Untrusted {
		held = append(held, u.Key+" "+u.Value)
	}
	want := "permissions.additionalDirectories ~, permissions.additionalDirectories ../lib, network.allow *.npmjs.org, network.allow db.local:5432, network.allow x.com, permissions.allow Read(//etc/**), permissions.allow Read(~/.ssh/**), permissions.allow Edit(src/**)"
	if got := strings.Join(held, ", "); got != want {
		t.Errorf("held back:\n got %s\nwant %s", got, want)
	}
	if got := texts(p.Allow, ruleEntry); got != "Bash(npm test:*) WebFetch WebFetch(domain:x.com) mcp__github" {
		t.Errorf("allow rules applied: %s", got)
	}
	if got := strings.Join(Values(p.Network.Deny), " "); got != "evil.com" {
		t.Errorf("network.deny from deniedDomains: %q", got)
	}
	l.Trusted = true
	if got := strings.Join(Values(Merge(l).Network.Allow), " "); got != "*.npmjs.org db.local:5432 x.com" {
		t.Errorf("network.allow once trusted: %q", got)
	}
	if len(p.Deny) != 1 || len(p.Ask) != 1 || len(p.AdditionalDirectories) != 0 {
		t.Errorf("deny %v, ask %v, dirs %v", p.Deny, p.Ask, p.AdditionalDirectories)
	}
}

// TestRestrictAgainstMergedLower: a widening is judged against everything
// below the file, earlier files of the repository included, and trusting a
// lower file can only make a higher one widen less.
func TestRestrictAgainstMergedLower(t *testing.T) {
	user := mustParse(t, "user", "version: 1\nsandbox: {outside_read: ask}\n", ScopeUser)
	project := mustParse(t, "project", "version: 1\nsandbox: {outside_read: deny}\n", ScopeProject)
	local := mustParse(t, "local", "version: 1\nsandbox: {outside_read: ask}\n", ScopeLocal)
	p := Merge(user, project, local)
	if p.OutsideRead.Value != Deny || len(p.Untrusted) != 1 || p.Untrusted[0].Pos.File != "local" {
		t.Errorf("the local file loosens what the project tightened: %v, held %v", p.OutsideRead, p.Untrusted)
	}
	// A later --policy file (the user's) may loosen again.
	file := mustParse(t, "file", "version: 1\nsandbox: {outside_read: ask}\n", ScopeFile)
	if p := Merge(user, project, local, file); p.OutsideRead.Value != Ask || p.OutsideRead.Pos.File != "file" {
		t.Errorf("a --policy file is the user's: %v", p.OutsideRead)
	}
}

// TestRestrictIsPure: Restrict changes neither its layer nor the policy.
func TestRestrictIsPure(t *testing.T) {
	lower := Merge(mustParse(t, "user", lowerYAML, ScopeUser))
	l := mustParse(t, "project", "version: 1\nmode: agi\nsandbox: {additional_directories: [\"~\"]}\nrules: {allow: [Bash]}\nconfine: {write: [/]}\nguards: {lose_work: \"off\"}\naudit: {dry_run: true}\nremove: {rules.deny: [\"Read(~/.ssh/**)\"]}\n", ScopeProject)
	before := fmt.Sprintf("%+v", *l)
	kept, held := Restrict(lower, l)
	if after := fmt.Sprintf("%+v", *l); after != before {
		t.Errorf("Restrict changed its layer:\n%s\n%s", before, after)
	}
	if kept.Mode != nil || kept.AdditionalDirectories != nil || kept.Allow != nil || kept.Confine.Write != nil ||
		kept.Guards.LoseWork != nil || kept.Audit.DryRun != nil || kept.Remove != nil || len(held) != 7 {
		t.Errorf("kept %+v, held %v", kept, held)
	}
}

// TestRemove: a remove: entry takes every lower entry of that text out,
// reports where it was set and by what; naming nothing is an error with
// the nearest entry; a lock keeps a removal out like any other change.
func TestRemove(t *testing.T) {
	base := mustParse(t, EmbeddedName, "version: 1\nrules: {deny: [\"Read(~/.npmrc)\", \"Read(*.pem)\"]}\nconfine: {write: [\"~/.cache\", \"~/.npm\"]}\n", ScopeDefault)
	user := mustParse(t, "user", "version: 1\nrules: {deny: [\"Read(~/.npmrc)\"]}\n", ScopeUser)
	file := mustParse(t, "file", "version: 1\nremove:\n  rules.deny: [\"Read(~/.npmrc)\"]\n  confine.write: [\"~/.npm\"]\nrules: {deny: [\"Read(~/.npmrc)\"]}\n", ScopeFile)
	p := Merge(base, user, file)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	var removed []string
	for _, r := range p.Removed {
		removed = append(removed, r.String())
	}
	want := []string{
		"rules.deny: Read(~/.npmrc) (<embedded default>:2) removed by file:3",
		"rules.deny: Read(~/.npmrc) (user:2) removed by file:3",
		"confine.write: ~/.npm (<embedded default>:3) removed by file:4",
	}
	if !slices.Equal(removed, want) {
		t.Errorf("removed:\n%s\nwant:\n%s", strings.Join(removed, "\n"), strings.Join(want, "\n"))
	}
	// The file's own entry of the same text is added after its removals.
	if got := texts(p.Deny, ruleEntry); got != "Read(*.pem) Read(~/.npmrc)" || p.Deny[1].Pos.File != "file" {
		t.Errorf("deny rules: %s", got)
	}

	typo := mustParse(t, "typo", "version: 1\nremove:\n  rules.deny: [\"Read(~/.nmprc)\"]\n  paths.safe: [\"docs/**\"]\n", ScopeUser)
	p = Merge(base, typo)
	if len(p.Errors) != 2 {
		t.Fatalf("errors: %v", p.Errors)
	}
	if got := p.Errors[0].Error(); got != `typo:3:16: remove.rules.deny[0]: removes nothing: "Read(~/.nmprc)" is not an entry of rules.deny in a lower layer (the embedded default, managed, user, project, local, earlier --policy files); did you mean "Read(~/.npmrc)"?` {
		t.Errorf("error: %s", got)
	}
	if !errors.Is(p.Err(), ErrRemovesNothing) {
		t.Errorf("Err: %v", p.Err())
	}
	// An entry a higher layer adds cannot be removed from below it.
	below := mustParse(t, "below", "version: 1\nremove: {confine.write: [/opt/cache]}\n", ScopeUser)
	above := mustParse(t, "above", "version: 1\nconfine: {write: [/opt/cache]}\n", ScopeFile)
	if p := Merge(base, below, above); len(p.Errors) != 1 || len(p.Confine.Write) != 3 {
		t.Errorf("a removal of a higher layer's entry: %v %v", p.Errors, p.Confine.Write)
	}

	managed := mustParse(t, "managed", "version: 1\nlocked: [rules.deny]\n", ScopeManaged)
	p = Merge(base, managed, file)
	if len(p.Removed) != 1 || len(p.Ignored) != 2 || texts(p.Deny, ruleEntry) != "Read(~/.npmrc) Read(*.pem)" {
		t.Errorf("locked rules.deny: removed %v, ignored %v, deny %v", p.Removed, p.Ignored, p.Deny)
	}
}

func modeOf(p *Policy) string    { return p.Mode.Value.String() }
func confineOf(p *Policy) string { return p.Confine.Mode.Value.String() }

func texts[T any](list []T, entry func(T) (string, Pos)) string {
	var out []string
	for _, x := range list {
		text, _ := entry(x)
		out = append(out, text)
	}
	return strings.Join(out, " ")
}

func dirsOf(f func(*Policy) []Dir) func(*Policy) string {
	return func(p *Policy) string { return texts(f(p), dirEntry) }
}

func patternsOf(f func(*Policy) []Pattern) func(*Policy) string {
	return func(p *Policy) string { return texts(f(p), patternEntry) }
}

func rulesOf(f func(*Policy) []Rule) func(*Policy) string {
	return func(p *Policy) string { return texts(f(p), ruleEntry) }
}

// FuzzRestrict: whatever a project's file says, merged untrusted over the
// embedded default and a user layer it never widens what they set: no
// looser scalar, no list entry that widens (directories, safe paths,
// templates, caches, allow rules) beyond theirs, none of their deny and ask
// rules or protected and warned paths gone. Seeded from TestRestrictPerKey.
//
//	go test -run '^$' -fuzz FuzzRestrict -fuzztime 60s ./policy
func FuzzRestrict(f *testing.F) {
	for _, s := range []string{
		"mode: agi", "auto_approve: true", "sandbox: {enabled: false, outside_read: ask, outside_write: ask, read_dirs: [/]}",
		"on_error: ask\nhost_settings: false", "guards: {lose_work: \"off\", install_outside: ask}", "confine: {mode: \"off\", write: [\"~\"]}",
		"confine: {program_writable: [.env], sockets: [$SSH_AUTH_SOCK], grants: [{command: \"grep:*\", read: [\"~/.ssh/**\"]}]}",
		"audit: {path: x, all: false, max_bytes: 1, keep: 0, required: false, syslog: false, dry_run: true}",
		"sandbox: {additional_directories: [\"~\"]}\npaths: {safe: [\"**\"], templates: [.env]}",
		"rules: {allow: [Bash, \"Read(~/**)\"], deny: [\"Read(x)\"]}\npaths: {protected: [y]}",
		"remove: {rules.deny: [\"Read(~/.ssh/**)\"], rules.ask: [\"Bash(git push:*)\"], paths.protected: [\".env*\"], paths.warned: [\"src/**\"], rules.allow: [\"Read(~/notes/**)\"]}",
	} {
		f.Add("version: 1\n" + s + "\n")
	}
	data, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		project, err := Parse("project", []byte(text))
		if err != nil {
			return
		}
		project.Scope = ScopeProject
		base, _ := Parse(EmbeddedName, data)
		user, _ := Parse("user", []byte(lowerYAML))
		user.Scope = ScopeUser
		lower := Merge(base, user)
		got := Merge(base, user, project)
		if err := noWider(lower, got); err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
	})
}

// noWider returns an error naming what got sets looser than lower.
func noWider(lower, got *Policy) error {
	var errs []error
	check := func(ok bool, what string) {
		if !ok {
			errs = append(errs, errors.New(what))
		}
	}
	check(modeRank(got.Mode.Value) <= modeRank(lower.Mode.Value), "mode")
	check(!got.AutoApprove.Value || lower.AutoApprove.Value, "auto_approve")
	check(got.SandboxEnabled.Value || !lower.SandboxEnabled.Value, "sandbox.enabled")
	check(got.OutsideRead.Value <= lower.OutsideRead.Value, "outside_read")
	check(got.OutsideWrite.Value <= lower.OutsideWrite.Value, "outside_write")
	check(got.OnError.Value <= lower.OnError.Value, "on_error")
	check(got.HostSettings.Value || !lower.HostSettings.Value, "host_settings")
	check(got.Guards.LoseWork.Value <= lower.Guards.LoseWork.Value, "guards.lose_work")
	check(got.Guards.InstallOutside.Value <= lower.Guards.InstallOutside.Value, "guards.install_outside")
	check(confineRank(got.Confine.Mode.Value) >= confineRank(lower.Confine.Mode.Value), "confine.mode")
	a, la := got.Audit, lower.Audit
	check(a.Path.Value == la.Path.Value, "audit.path")
	check(a.All.Value || !la.All.Value, "audit.all")
	check(a.Required.Value || !la.Required.Value, "audit.required")
	check(a.Syslog.Value || !la.Syslog.Value, "audit.syslog")
	check(!a.DryRun.Value || la.DryRun.Value, "audit.dry_run")
	check(a.MaxBytes.Value == 0 || (la.MaxBytes.Value != 0 && a.MaxBytes.Value >= la.MaxBytes.Value), "audit.max_bytes")
	check(a.Keep.Value >= la.Keep.Value, "audit.keep")
	places := func(ps ...[]Pos) map[Pos]bool {
		m := map[Pos]bool{}
		for _, l := range ps {
			for _, p := range l {
				m[p] = true
			}
		}
		return m
	}
	dirPos := func(ds []Dir) (out []Pos) {
		for _, d := range ds {
			out = append(out, d.Pos)
		}
		return out
	}
	patPos := func(ps []Pattern) (out []Pos) {
		for _, p := range ps {
			out = append(out, p.Pos)
		}
		return out
	}
	rulePos := func(rs []Rule) (out []Pos) {
		for _, r := range rs {
			out = append(out, r.Pos)
		}
		return out
	}
	tplPos := func(ts []Setting[string]) (out []Pos) {
		for _, t := range ts {
			out = append(out, t.Pos)
		}
		return out
	}
	subset := func(what string, sub, of []Pos) {
		in := places(of)
		for _, p := range sub {
			check(in[p], what+" "+p.String())
		}
	}
	subset("sandbox.additional_directories", dirPos(got.AdditionalDirectories), dirPos(lower.AdditionalDirectories))
	subset("sandbox.read_dirs", dirPos(got.ReadDirs), dirPos(lower.ReadDirs))
	subset("paths.safe", patPos(got.Safe), patPos(lower.Safe))
	subset("paths.templates", tplPos(got.Templates), tplPos(lower.Templates))
	subset("confine.write", dirPos(got.Confine.Write), dirPos(lower.Confine.Write))
	subset("confine.program_writable", patPos(got.Confine.ProgramWritable), patPos(lower.Confine.ProgramWritable))
	subset("confine.sockets", tplPos(got.Confine.Sockets), tplPos(lower.Confine.Sockets))
	grantPos := func(gs []Grant) (out []Pos) {
		for _, g := range gs {
			out = append(out, g.Pos)
		}
		return out
	}
	subset("confine.grants", grantPos(got.Confine.Grants), grantPos(lower.Confine.Grants))
	subset("rules.allow", rulePos(got.Allow), rulePos(lower.Allow))
	subset("lost rules.deny", rulePos(lower.Deny), rulePos(got.Deny))
	subset("lost rules.ask", rulePos(lower.Ask), rulePos(got.Ask))
	subset("lost paths.protected", patPos(lower.Protected), patPos(got.Protected))
	subset("lost paths.warned", patPos(lower.Warned), patPos(got.Warned))
	return errors.Join(errs...)
}
