package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// allLayers writes every layer file into a temporary tree and returns its
// locations.
func allLayers(tb testing.TB) Locations {
	dir := tb.TempDir()
	files := map[string]string{
		"etc/safezone/policy.yaml":                      "version: 1\nmode: write\nlocked: [sandbox.outside_write]\nsandbox:\n  outside_write: deny\n",
		"xdg/safezone/policy.yaml":                      "version: 1\nrules:\n  allow: [\"Read(notes/**)\"]\n",
		"proj/.safezone.yaml":                           "version: 1\nsandbox:\n  outside_write: ask\npaths:\n  protected: [\".git/**\", \"*.pem\"]\n  safe: [\"docs/**\"]\nrules:\n  deny: [\"Read(.env*)\"]\n",
		"proj/.safezone.local.yaml":                     "version: 1\nauto_approve: true\n",
		"etc/claude-code/managed-settings.json":         `{"permissions":{"deny":["WebFetch"]}}`,
		"etc/claude-code/managed-settings.d/a.json":     `{"permissions":{"deny":["Read(//etc/shadow)"]}}`,
		"home/.claude/settings.json":                    `{"permissions":{"allow":["Bash(npm test)"],"additionalDirectories":["~/shared"]}}`,
		"proj/.claude/settings.json":                    `{"model":"x","permissions":{"deny":["Read(/secrets/**)"],"ask":["Bash(git push:*)"]}}`,
		"proj/.claude/settings.local.json":              `{"permissions":{"allow":["Edit(src/**)"]}}`,
		"unrelated/managed-settings.d/ignored.json.bak": "{",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	env := map[string]string{
		"SAFEZONE_MANAGED_POLICY":          dir + "/etc/safezone/policy.yaml",
		"XDG_CONFIG_HOME":                  dir + "/xdg",
		"SAFEZONE_CLAUDE_MANAGED_SETTINGS": dir + "/etc/claude-code/managed-settings.json",
	}
	return DefaultLocations(func(k string) string { return env[k] }, dir+"/proj", dir+"/home")
}

var embedded = []byte("version: 1\nmode: read\n")

func TestLoadLayersOrder(t *testing.T) {
	loc := allLayers(t)
	flags := &Layer{Name: "flags", SandboxEnabled: &Setting[bool]{Value: false, Pos: Pos{File: "--no-sandbox"}}}
	var asked []string
	loc.Trusted = func(path string, content []byte) bool {
		asked = append(asked, strings.TrimPrefix(path, filepath.Dir(loc.ProjectRoot)+"/"))
		return true
	}
	layers, err := LoadLayers(loc, EmbeddedParser(embedded), flags)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range layers {
		got = append(got, l.Scope.String()+" "+strings.TrimPrefix(l.Name, filepath.Dir(loc.ProjectRoot)+"/"))
	}
	want := []string{
		"default <embedded default>",
		"managed etc/safezone/policy.yaml",
		"user xdg/safezone/policy.yaml",
		"project proj/.safezone.yaml",
		"local proj/.safezone.local.yaml",
		"managed etc/claude-code/managed-settings.json",
		"managed etc/claude-code/managed-settings.d/a.json",
		"user home/.claude/settings.json",
		"project proj/.claude/settings.json",
		"local proj/.claude/settings.local.json",
		"builtin self-protection",
		"flags flags",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("layers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	p := Merge(layers...)
	if p.OutsideWrite.Value != Deny || len(p.Ignored) != 1 || p.Ignored[0].Key != "sandbox.outside_write" {
		t.Errorf("the managed lock on sandbox.outside_write: value %v, ignored %v", p.OutsideWrite.Value, p.Ignored)
	}
	if !p.AutoApprove.Value || p.SandboxEnabled.Value {
		t.Errorf("local auto_approve and the --no-sandbox flag apply: %v %v", p.AutoApprove.Value, p.SandboxEnabled.Value)
	}
	if p.Mode.Value != ModeWrite || p.Mode.Pos.File != loc.Managed {
		t.Errorf("the managed mode: write replaces the embedded default's read: %v", p.Mode)
	}
	// Asked about the repository's files with something to widen only
	// (.claude/settings.json only tightens), each once.
	if got := strings.Join(asked, " "); got != "proj/.safezone.yaml proj/.safezone.local.yaml proj/.claude/settings.local.json" {
		t.Errorf("trust asked about: %s", got)
	}
	rules := func(rs []Rule) (out []string) {
		for _, r := range rs {
			out = append(out, r.Text)
		}
		return out
	}
	if got := strings.Join(rules(p.Deny), " "); got != "Read(.env*) WebFetch Read(//etc/shadow) Read(/secrets/**)" {
		t.Errorf("deny rules: %s", got)
	}
	if got := strings.Join(rules(p.Allow), " "); got != "Read(notes/**) Bash(npm test) Edit(src/**)" {
		t.Errorf("allow rules: %s", got)
	}
	if len(p.AdditionalDirectories) != 1 || p.AdditionalDirectories[0].Base != filepath.Dir(loc.ProjectRoot)+"/home" {
		t.Errorf("additional directories: %+v", p.AdditionalDirectories)
	}
	// Claude Code's "/secrets/**" in project settings is anchored at the
	// project root.
	for _, r := range p.Deny {
		if r.Text == "Read(/secrets/**)" && (r.Path.Anchor != ProjectRoot || r.Path.Glob != "secrets/**") {
			t.Errorf("Read(/secrets/**) compiled to %v %q", r.Path.Anchor, r.Path.Glob)
		}
	}
}

// TestLoadLayersUntrusted: the repository's files are loaded, and what
// they widen is left out until they are trusted.
func TestLoadLayersUntrusted(t *testing.T) {
	loc := allLayers(t)
	layers, err := LoadLayers(loc, EmbeddedParser(embedded), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := Merge(layers...)
	var held []string
	for _, u := range p.Untrusted {
		held = append(held, u.Key+" "+u.Value)
	}
	// The project's outside_write: ask is kept out by the managed lock.
	if got := strings.Join(held, ", "); got != "paths.safe docs/**, auto_approve true, permissions.allow Edit(src/**)" {
		t.Errorf("held back: %s", got)
	}
	if p.AutoApprove.Value || len(p.Safe) != 0 || len(p.Trusted) != 0 {
		t.Errorf("untrusted widening applied: auto_approve %v, safe %v", p.AutoApprove, p.Safe)
	}
	project := 0
	for _, x := range p.Protected {
		if x.Pos.File == loc.ProjectRoot+"/"+ProjectFile {
			project++
		}
	}
	if project != 2 || len(p.Deny) != 4 {
		t.Errorf("the project's protected paths and deny rules apply at once: %d, %v", project, p.Deny)
	}
}

func TestLoadLayersEmbeddedOnlyWithoutFiles(t *testing.T) {
	dir := t.TempDir()
	loc := DefaultLocations(func(k string) string {
		return map[string]string{"SAFEZONE_MANAGED_POLICY": dir + "/none.yaml", "SAFEZONE_CLAUDE_MANAGED_SETTINGS": dir + "/none.json", "XDG_CONFIG_HOME": dir}[k]
	}, dir, dir)
	layers, err := LoadLayers(loc, EmbeddedParser(embedded), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 2 || layers[0].Name != EmbeddedName || layers[1].Name != SelfProtectionSource {
		t.Errorf("layers = %v", names(layers))
	}
	loc.Files = []string{dir + "/missing.yaml"}
	if _, err := LoadLayers(loc, EmbeddedParser(embedded), nil); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing --policy file: %v", err)
	}
}

func TestLoadLayersHostSettingsOff(t *testing.T) {
	loc := allLayers(t)
	// From the project's own file, host_settings: false widens (the
	// user's Claude Code deny rules would go): it needs trust.
	if err := os.WriteFile(loc.ProjectRoot+"/.safezone.local.yaml", []byte("version: 1\nhost_settings: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, trusted := range []bool{false, true} {
		loc.Trusted = func(string, []byte) bool { return trusted }
		layers, err := LoadLayers(loc, EmbeddedParser(embedded), nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range layers {
			if strings.HasSuffix(l.Name, ".json") {
				n++
			}
		}
		if trusted && n > 0 || !trusted && n != 5 {
			t.Errorf("host_settings: false, trusted %v: %d settings files loaded", trusted, n)
		}
	}
}

func TestSelfProtectionOffOnlyByManaged(t *testing.T) {
	loc := allLayers(t)
	os.WriteFile(loc.Managed, []byte("version: 1\nself_protection: false\n"), 0o644)
	layers, err := LoadLayers(loc, EmbeddedParser(embedded), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layers {
		if l.Name == SelfProtectionSource {
			t.Error("the managed layer turned self-protection off, yet it is there")
		}
	}
	os.WriteFile(loc.Managed, []byte("version: 1\n"), 0o644)
	os.WriteFile(loc.User, []byte("version: 1\nself_protection: false\n"), 0o644)
	if _, err := LoadLayers(loc, EmbeddedParser(embedded), nil); err == nil || !strings.Contains(err.Error(), "only the managed policy can turn self-protection off") {
		t.Errorf("a user layer turning self-protection off: %v", err)
	}
}

func TestSelfProtectionPatterns(t *testing.T) {
	loc := allLayers(t)
	loc.Executable = "/opt/bin/safe[zone]"
	l := SelfProtection(loc, nil)
	var got []string
	for _, p := range l.Protected {
		got = append(got, p.Text)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"./.safezone.yaml", "./.safezone.local.yaml", "./.claude/settings.json", "./.claude/settings.local.json",
		"./hooks.json", "~/.claude/settings.json", loc.Managed, loc.User, loc.ClaudeManaged,
		filepath.Dir(loc.ClaudeManaged) + "/managed-settings.d", `/opt/bin/safe\[zone\]`,
	} {
		if !strings.Contains("\n"+all+"\n", "\n"+want+"\n") {
			t.Errorf("self-protection lacks %q:\n%s", want, all)
		}
	}
}

func names(ls []*Layer) (out []string) {
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}

// BenchmarkLoadLayers measures loading every layer (managed, user, project,
// local policies and the four kinds of Claude Code settings; the project's
// files untrusted, so that what they widen is held back) against the
// embedded default alone; the difference is what layering costs a call.
// The embedded default is parsed once, as the hook has it compiled to Go.
// Target: under 200 µs.
func BenchmarkLoadLayers(b *testing.B) {
	example, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		b.Fatal(err)
	}
	base, err := Parse(EmbeddedName, example)
	if err != nil {
		b.Fatal(err)
	}
	embedded := func() (*Layer, error) { c := *base; return &c, nil }
	b.Run("embedded-only", func(b *testing.B) {
		dir := b.TempDir()
		loc := DefaultLocations(func(k string) string {
			return map[string]string{"SAFEZONE_MANAGED_POLICY": dir + "/none.yaml", "SAFEZONE_CLAUDE_MANAGED_SETTINGS": dir + "/none.json", "XDG_CONFIG_HOME": dir}[k]
		}, dir, dir)
		b.ReportAllocs()
		for b.Loop() {
			layers, err := LoadLayers(loc, embedded, nil)
			if err != nil {
				b.Fatal(err)
			}
			Merge(layers...)
		}
	})
	b.Run("all-layers", func(b *testing.B) {
		loc := allLayers(b)
		os.WriteFile(loc.ProjectRoot+"/.safezone.yaml", example, 0o644)
		b.ReportAllocs()
		for b.Loop() {
			layers, err := LoadLayers(loc, embedded, nil)
			if err != nil {
				b.Fatal(err)
			}
			Merge(layers...)
		}
	})
}
