package policy

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/invalid/*.err from the current errors")

// TestParseValid parses every file in testdata/valid without error, and
// layers it over the embedded default without error.
func TestParseValid(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	base := exampleLayer(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(filepath.Base(f), data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		l.Scope = ScopeFile
		if err := Merge(base, l).Err(); err != nil {
			t.Errorf("%s over the embedded default: %v", f, err)
		}
	}
}

// exampleLayer is the embedded default, parsed from policy.example.yaml.
func exampleLayer(t *testing.T) *Layer {
	t.Helper()
	data, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(EmbeddedName, data)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestParseInvalid parses every file in testdata/invalid and compares the
// error text, one problem a line, with the .err file beside it. A file that
// parses is layered over the embedded default (policy.example.yaml), as a
// --policy file: its error is what merging finds (a removal that names
// nothing).
func TestParseInvalid(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	base := exampleLayer(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(filepath.Base(f), data)
		switch {
		case err == nil:
			l.Scope = ScopeFile
			if err = Merge(base, l).Err(); err == nil {
				t.Errorf("%s: parsed and layered without error", f)
				continue
			}
		case l != nil:
			t.Errorf("%s: non-nil layer with an error", f)
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %T is not a *policy.Error: %v", f, err, err)
		}
		got := err.Error() + "\n"
		golden := strings.TrimSuffix(f, ".yaml") + ".err"
		if *update {
			os.WriteFile(golden, []byte(got), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run go test ./policy -update)", f, err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s:\n got: %s\nwant: %s", f, got, want)
		}
	}
}

func TestParseErrorsAreConditions(t *testing.T) {
	tests := []struct {
		yaml string
		want error
	}{
		{"version: 1\nsandbox:\n  enabeld: true\n", ErrUnknownKey},
		{"", ErrEmpty},
		{"version: 1\nmode: [x\n", ErrYAML},
		{"version: 1\npaths:\n  warned: ['[']\n", ErrBadGlob},
		{"version: 1\nrules:\n  ask: ['Read(']\n", ErrBadRule},
		{"version: 3\n", ErrBadVersion},
		{"- a\n", ErrNotAPolicy},
	}
	for _, tt := range tests {
		_, err := Parse("p.yaml", []byte(tt.yaml))
		if !errors.Is(err, tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.yaml, err, tt.want)
		}
		if pe, ok := errors.AsType[*Error](err); !ok || pe.File != "p.yaml" {
			t.Errorf("Parse(%q): error %v has no position", tt.yaml, err)
		}
	}
}

func TestWarnings(t *testing.T) {
	l, err := Parse("p.yaml", []byte("version: 1\npaths:\n  safe: [docs/**, docs/**]\nrules:\n  deny: [Frobnicate, \"WebFetch(domain:x)\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range l.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		`p.yaml:3:19: paths.safe[1]: duplicate entry: "docs/**" is listed twice`,
		`p.yaml:5:10: rules.deny[0]: unknown tool: "Frobnicate" is not a tool safezone knows; the rule only matches a call of a tool named exactly "Frobnicate"`,
		`p.yaml:5:22: rules.deny[1]: bad rule: safezone cannot evaluate the specifier of "WebFetch(domain:x)": as a deny or ask rule it matches every WebFetch call, as an allow rule it never matches`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCompilePattern(t *testing.T) {
	tests := []struct {
		in     string
		anchor Anchor
		glob   string
		err    bool
	}{
		{".env*", AnyDepth, ".env*", false},
		{"node_modules/", AnyDepth, "node_modules", false},
		{"src/**", ProjectRoot, "src/**", false},
		{"./build", ProjectRoot, "build", false},
		{"./", ProjectRoot, "", false},
		{"a//b/./c", ProjectRoot, "a/b/c", false},
		{"/etc/**", Absolute, "/etc/**", false},
		{"//etc/**", Absolute, "/etc/**", false},
		{"/", Absolute, "/", false},
		{"~", Home, "", false},
		{"~/.ssh/**", Home, ".ssh/**", false},
		{"~bob/x", 0, "", true},
		{"", 0, "", true},
		{" x", 0, "", true},
		{"a/../b", 0, "", true},
		{"src/**.go", 0, "", true},
		{"**x", 0, "", true},
		{"[", 0, "", true},
		{"{a,b", 0, "", true},
	}
	for _, tt := range tests {
		p, err := CompilePattern(tt.in, Pos{})
		if (err != nil) != tt.err {
			t.Errorf("CompilePattern(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err == nil && (p.Anchor != tt.anchor || p.Glob != tt.glob) {
			t.Errorf("CompilePattern(%q) = %v %q, want %v %q", tt.in, p.Anchor, p.Glob, tt.anchor, tt.glob)
		}
	}
}

func TestCompileRule(t *testing.T) {
	tests := []struct {
		in      string
		kind    RuleKind
		tool    string
		access  Access
		any     bool
		command string
		prefix  bool
		err     bool
	}{
		{in: "Read(.env*)", kind: RulePath, tool: "Read", access: Read, any: true},
		{in: "Edit(/etc/**)", kind: RulePath, tool: "Edit", access: Write, any: true},
		{in: "Write(x)", kind: RulePath, tool: "Write", access: Write, any: true},
		{in: "Grep(src/**)", kind: RulePath, tool: "Grep", access: Read},
		{in: "NotebookEdit(*.ipynb)", kind: RulePath, tool: "NotebookEdit", access: Write},
		{in: "Bash(rm -rf *)", kind: RuleCommand, tool: "Bash", command: "rm -rf *"},
		{in: "Bash(go test:*)", kind: RuleCommand, tool: "Bash", command: "go test", prefix: true},
		{in: "Bash", kind: RuleTool, tool: "Bash"},
		{in: "Bash(*)", kind: RuleTool, tool: "Bash"},
		{in: "Bash()", kind: RuleTool, tool: "Bash"},
		{in: "mcp__github__*", kind: RuleTool, tool: "mcp__github__*"},
		{in: "WebFetch(domain:x)", kind: RuleOpaque, tool: "WebFetch"},
		{in: "Read(.env*", err: true},
		{in: "(x)", err: true},
		{in: "Re ad(x)", err: true},
		{in: "Read([)", err: true},
		{in: "[(x)", err: true},
	}
	for _, tt := range tests {
		r, err, _ := CompileRule(tt.in, Pos{})
		if (err != nil) != tt.err {
			t.Errorf("CompileRule(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		if r.Kind != tt.kind || r.Tool != tt.tool || r.Access != tt.access || r.AnyAccess != tt.any || r.Command != tt.command || r.Prefix != tt.prefix {
			t.Errorf("CompileRule(%q) = %+v", tt.in, r)
		}
	}
	r, _, _ := CompileRule("mcp__github__*", Pos{})
	if !r.NamesTool("mcp__github__create_issue") || r.NamesTool("mcp__gitlab__x") {
		t.Error("tool glob matching")
	}
	r, _, _ = CompileRule("mcp__github", Pos{})
	if !r.NamesTool("mcp__github__create_issue") || r.NamesTool("mcp__githubx__a") || r.NamesTool("mcp__gitlab__x") {
		t.Error(`"mcp__server" names every tool of the server, and only those`)
	}
}

func TestDecision(t *testing.T) {
	var zero Decision
	if zero != Deny {
		t.Fatal("the zero Decision must be Deny")
	}
	for _, d := range []Decision{Deny, Ask, Allow, Abstain} {
		b, _ := d.MarshalText()
		var back Decision = 99
		if err := back.UnmarshalText(b); err != nil || back != d {
			t.Errorf("round trip %v: %v %v", d, back, err)
		}
	}
	var d Decision = Allow
	if err := d.UnmarshalText([]byte("defer")); err == nil || d != Allow {
		t.Error(`"defer" must be refused and leave the value unchanged`)
	}
	if Decision(9).String() != "deny(9)" {
		t.Error("out-of-range decisions print as deny")
	}
	tests := []struct {
		in   []Decision
		want Decision
	}{
		{nil, Allow},
		{[]Decision{Allow, Abstain}, Abstain},
		{[]Decision{Abstain, Ask, Allow}, Ask},
		{[]Decision{Ask, Deny}, Deny},
		{[]Decision{Allow, Decision(7)}, Deny},
	}
	for _, tt := range tests {
		if got := Strictest(tt.in...); got != tt.want {
			t.Errorf("Strictest(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestMerge(t *testing.T) {
	a, err := Parse("a.yaml", []byte("version: 1\nmode: read\non_error: ask\nsandbox:\n  additional_directories: [lib]\nrules:\n  deny: [\"Read(x)\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	a.Dir = "/cfg"
	b, err := Parse("b.yaml", []byte("version: 1\nmode: write\nrules:\n  deny: [\"Read(y)\"]\n  allow: [\"Read(x)\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := Merge(a, nil, b)
	if p.Mode.Value != ModeWrite || p.Mode.Pos.File != "b.yaml" {
		t.Errorf("mode = %v from %v: the later layer wins", p.Mode.Value, p.Mode.Pos)
	}
	if p.OnError.Value != Ask || p.OnError.Pos.File != "a.yaml" {
		t.Errorf("on_error = %v from %v: unset in b, so a's", p.OnError.Value, p.OnError.Pos)
	}
	if len(p.Deny) != 2 || len(p.Allow) != 1 {
		t.Errorf("lists merge: deny %d allow %d", len(p.Deny), len(p.Allow))
	}
	if len(p.AdditionalDirectories) != 1 || p.AdditionalDirectories[0].Base != "/cfg" {
		t.Errorf("relative directories keep their layer's directory: %+v", p.AdditionalDirectories)
	}
	d := Merge()
	if d.OutsideWrite.Value != Deny || d.OutsideRead.Value != Ask || d.OnError.Value != Deny || !d.SandboxEnabled.Value {
		t.Errorf("defaults: %+v", d)
	}
}

func ExampleParse() {
	l, err := Parse("policy.yaml", []byte(`version: 1
sandbox:
  outside_write: ask
rules:
  deny: ["Read(.env*)"]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := Merge(l)
	fmt.Println(p.OutsideWrite.Value, p.OutsideWrite.Pos)
	r := p.Deny[0]
	fmt.Println(r.Tool, r.Path.Glob, "at any depth:", r.Path.Anchor == AnyDepth, r.Pos)

	_, err = Parse("policy.yaml", []byte("version: 1\nsandbox:\n  enabeld: true\n"))
	fmt.Println(err)
	// Output:
	// ask policy.yaml:3
	// Read .env* at any depth: true policy.yaml:5
	// policy.yaml:3:3: sandbox: unknown key "enabeld" (known keys: enabled, additional_directories, read_dirs, outside_read, outside_write)
}

// TestParseAliases: an alias stands for its anchor's value (a list given
// twice), and a merge key is a key the schema does not know.
func TestParseAliases(t *testing.T) {
	l, err := Parse("p.yaml", []byte("version: 1\npaths:\n  protected: &trees [\"gen/**\", \"vendor/**\"]\nconfine:\n  program_writable: *trees\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Protected) != 2 || len(l.Confine.ProgramWritable) != 2 || l.Confine.ProgramWritable[1].Text != "vendor/**" {
		t.Errorf("protected %v, program_writable %v", l.Protected, l.Confine.ProgramWritable)
	}
	_, err = Parse("p.yaml", []byte("version: 1\nbase: &b {mode: read}\n"))
	if !errors.Is(err, ErrUnknownKey) {
		t.Errorf("an anchor under an unknown key: %v", err)
	}
	_, err = Parse("p.yaml", []byte("version: 1\nsandbox:\n  <<: {enabled: false}\n"))
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), `unknown key "<<"`) {
		t.Errorf("a merge key: %v", err)
	}
}
