package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/hosts")

// hostDirs are the hosts with samples under testdata/hosts.
var hostDirs = []string{"codex", "gemini", "copilot", "vscode", "cursor"}

// describeCall renders a decoded call (or the decode error) for the golden
// files: one fact a line.
func describeCall(c *Call, err error) string {
	if err != nil {
		var ie *InputError
		if !errors.As(err, &ie) {
			return fmt.Sprintf("error (not an *InputError): %v\n", err)
		}
		return fmt.Sprintf("error: %v\n", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "host %s\nevent %s\ntool %s\nkind %s\nwrites %v\ncwd %s\n", c.Host, c.Event, c.Tool, c.Kind, c.Writes, c.Cwd)
	if c.PermissionMode != PermDefault {
		fmt.Fprintf(&b, "permission_mode %s\n", c.PermissionMode)
	}
	if c.Command != "" {
		fmt.Fprintf(&b, "command %q\n", c.Command)
	}
	for _, r := range c.Roots {
		fmt.Fprintf(&b, "root %s\n", r)
	}
	for _, a := range c.Args {
		kind := map[ArgKind]string{ArgPath: "path", ArgGlob: "glob", ArgFilter: "filter"}[a.Kind]
		fmt.Fprintf(&b, "arg %s %s %s %q", a.Access, kind, a.Field, a.Value)
		if a.Base != "" {
			fmt.Fprintf(&b, " base %q", a.Base)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./hookio -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./hookio -update rewrites it)\n--- got\n%s--- want\n%s", file, got, want)
	}
}

// TestHostSamples decodes every sample input under testdata/hosts/<host>
// (built from the host's documentation or shipped code, see the README
// there) and compares the call with <sample>.call. Samples named error_*
// must fail to decode.
func TestHostSamples(t *testing.T) {
	for _, host := range hostDirs {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "hosts", host, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no samples for %s", host)
		}
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			t.Run(host+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				h, err := HostByName(host)
				if err != nil {
					t.Fatal(err)
				}
				c, err := h.Decode(data)
				if strings.HasPrefix(name, "error_") != (err != nil) {
					t.Errorf("decode error = %v", err)
				}
				checkGolden(t, strings.TrimSuffix(f, ".json")+".call", describeCall(c, err))
			})
		}
	}
}

// goldenOutputs are the decisions every host's encoding is pinned for.
var goldenOutputs = []struct {
	name string
	out  Output
}{
	{"allow", Output{Decision: policy.Allow, Reason: "safezone: allow Read read \"/p/a\": a read inside the sandbox"}},
	{"ask", Output{Decision: policy.Ask, Reason: "safezone: ask Read read \"/o/a\": outside the sandbox (/p)"}},
	{"deny", Output{Decision: policy.Deny, Reason: "safezone: deny Write write \"/o/a\": outside the sandbox (/p)"}},
	{"deny without a reason", Output{Decision: policy.Deny}},
	{"abstain", Output{Decision: policy.Abstain}},
	{"abstain with a warning", Output{Decision: policy.Abstain, Warning: "safezone: warning: /p/src/a is in a warned path"}},
	{"allow with a warning", Output{Decision: policy.Allow, Reason: "safezone: allow Edit write \"/p/src/a\"", Warning: "safezone: warning: /p/src/a is in a warned path"}},
	{"error", Output{Decision: policy.Deny, Reason: "safezone: deny: unusable hook input: malformed hook input: not JSON; safezone fails closed on errors (on_error: deny)", Error: true}},
	{"error with on_error ask", Output{Decision: policy.Ask, Reason: "safezone: ask: unusable hook input: not JSON; safezone fails closed on errors (on_error: ask)", Error: true}},
	{"out-of-range decision", Output{Decision: policy.Decision(9), Reason: "r"}},
	{"allow confined", Output{Decision: policy.Allow, Reason: "safezone: allow Bash: auto-approve; it runs confined by the kernel: it may write only in /p",
		UpdatedInput: json.RawMessage(`{"command":"'/bin/safezone' __confine ...","description":"d"}`), Context: "safezone: this command runs confined by the kernel"}},
	{"abstain confined", Output{Decision: policy.Abstain, UpdatedInput: json.RawMessage(`{"command":"'/bin/safezone' __confine ..."}`), Context: "safezone: this command runs confined by the kernel"}},
	{"ask confined", Output{Decision: policy.Ask, Reason: "safezone: ask Bash: targets safezone cannot know; it runs confined by the kernel",
		UpdatedInput: json.RawMessage(`{"command":"'/bin/safezone' __confine ..."}`), Context: "safezone: this command runs confined by the kernel"}},
	{"deny with a rewritten input", Output{Decision: policy.Deny, Reason: "safezone: deny Bash", UpdatedInput: json.RawMessage(`{"command":"x"}`)}},
}

// encodeAll renders every golden output for one host value (made fresh per
// output by newHost).
func encodeAll(newHost func() Host) string {
	var b strings.Builder
	for _, g := range goldenOutputs {
		out, code := newHost().Encode(g.out)
		fmt.Fprintf(&b, "== %s\nexit %d\n%s", g.name, code, out)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			b.WriteString("\n(no final newline)\n")
		}
	}
	return b.String()
}

// TestHostOutputs pins each host's output for allow, ask, deny, abstain and
// error (testdata/hosts/<host>/output.golden), and checks that every
// non-empty output is one JSON object.
func TestHostOutputs(t *testing.T) {
	cases := map[string]func() Host{
		"claude":  func() Host { return Claude{} },
		"codex":   func() Host { return Codex{} },
		"gemini":  func() Host { return Gemini{} },
		"copilot": func() Host { return Copilot{} },
		"vscode":  func() Host { return VSCode{} },
		"auto":    func() Host { return &Auto{} },
	}
	// Cursor prints an ask per event: one golden section per event decoded.
	for _, ev := range []string{"undecoded", "pre_read", "pre_shell", "before_shell", "before_read_file", "before_mcp"} {
		cases["cursor "+ev] = func() Host {
			h := &Cursor{}
			if ev != "undecoded" {
				data, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", "cursor", ev+".json"))
				if err != nil {
					panic(err)
				}
				if _, err := h.Decode(data); err != nil {
					panic(err)
				}
			}
			return h
		}
	}
	for name, newHost := range cases {
		t.Run(name, func(t *testing.T) {
			for _, g := range goldenOutputs {
				out, _ := newHost().Encode(g.out)
				if len(out) == 0 {
					continue
				}
				var v map[string]any
				dec := json.NewDecoder(bytes.NewReader(out))
				if err := dec.Decode(&v); err != nil || dec.More() {
					t.Errorf("%s: not one JSON object: %q (%v)", g.name, out, err)
				}
			}
		})
	}
	var all strings.Builder
	for _, host := range []string{"codex", "gemini", "copilot", "vscode", "auto"} {
		checkGolden(t, filepath.Join("..", "testdata", "hosts", host, "output.golden"), encodeAll(cases[host]))
	}
	for _, ev := range []string{"undecoded", "pre_read", "pre_shell", "before_shell", "before_read_file", "before_mcp"} {
		fmt.Fprintf(&all, "#### after decoding %s\n%s", ev, encodeAll(cases["cursor "+ev]))
	}
	checkGolden(t, filepath.Join("..", "testdata", "hosts", "cursor", "output.golden"), all.String())
}

// TestExitContract checks each host's exit statuses: never 1 (Codex,
// Gemini CLI and VS Code run the tool on exit 1; Claude Code, Cursor and
// Copilot CLI 1.0.102 block it without the reason), 2 only for a deny
// forced by an error where that blocks, 0 where the JSON deny is read at
// exit 0 (Copilot CLI, VS Code, Cursor).
func TestExitContract(t *testing.T) {
	errDeny := map[string]int{"claude": 2, "codex": 2, "gemini": 2, "copilot": 0, "vscode": 0, "cursor": 0, "auto": 2}
	for name, want := range errDeny {
		for _, d := range []policy.Decision{policy.Deny, policy.Ask, policy.Allow, policy.Abstain, policy.Decision(7)} {
			for _, isErr := range []bool{false, true} {
				h, err := HostByName(name)
				if err != nil {
					t.Fatal(err)
				}
				_, code := h.Encode(Output{Decision: d, Reason: "r", Error: isErr})
				if code == 1 {
					t.Errorf("%s %v error=%v: exit 1", name, d, isErr)
				}
				if !isErr && code != 0 && name != "auto" {
					t.Errorf("%s %v: exit %d without an error", name, d, code)
				}
			}
		}
		h, _ := HostByName(name)
		if _, code := h.Encode(Output{Decision: policy.Deny, Reason: "r", Error: true}); code != want {
			t.Errorf("%s: error deny exits %d, want %d", name, code, want)
		}
	}
}

// TestDetectHost checks --host auto against every sample: each is told to
// be from the host whose directory holds it, and the Claude Code samples
// from Claude Code.
func TestDetectHost(t *testing.T) {
	check := func(f, want string) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, err := DetectHost(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			return
		}
		if h.Name() != want {
			t.Errorf("%s: detected %s, want %s", f, h.Name(), want)
		}
	}
	for _, host := range hostDirs {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "hosts", host, "*.json"))
		for _, f := range files {
			if strings.HasPrefix(filepath.Base(f), "error_") {
				continue
			}
			check(f, host)
		}
	}
	claude, _ := filepath.Glob("../../shared/samples/claude-code/*.json")
	for _, f := range claude {
		check(f, "claude")
	}
	for _, in := range []string{``, `[]`, `{"x":1}`, `{"hook_event_name":"Stop"}`, `{"hook_event_name":"PreToolUse","hook_event_name":"BeforeTool"}`} {
		if h, err := DetectHost([]byte(in)); err == nil {
			t.Errorf("DetectHost(%q) = %s, want an error", in, h.Name())
		}
	}
	a := &Auto{}
	if _, err := a.Decode([]byte(`{"x":1}`)); err == nil {
		t.Fatal("Auto.Decode of an unknown shape succeeded")
	}
	if out, code := a.Encode(Output{Decision: policy.Ask, Error: true}); code != 2 || !bytes.Contains(out, []byte(`"decision":"deny"`)) {
		t.Errorf("undetected auto answer: exit %d %s", code, out)
	}
}

// TestHostStrictness feeds every adapter the inputs the Claude decoder
// refuses: each must be refused by each host too, with an *InputError.
func TestHostStrictness(t *testing.T) {
	bad := []struct{ name, in string }{
		{"empty", ""},
		{"not JSON", "allow please"},
		{"array", `[{"tool_name":"Read"}]`},
		{"trailing data", `{"a":1} {}`},
		{"duplicate key", `{"cwd":"/p","cwd":"/q"}`},
		{"case variants", `{"cwd":"/p","CWD":"/q"}`},
		{"lone surrogate", `{"cwd":"/p\udc00"}`},
		{"invalid UTF-8", "{\"cwd\":\"/p\xff\"}"},
	}
	for _, host := range append(hostDirs, "auto") {
		for _, b := range bad {
			h, _ := HostByName(host)
			_, err := h.Decode([]byte(b.in))
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Errorf("%s %s: err = %v, want an *InputError", host, b.name, err)
			}
		}
	}
}

// TestHostFieldErrors checks that errors name the field, per host.
func TestHostFieldErrors(t *testing.T) {
	tests := []struct {
		host, in, field string
	}{
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":1},"cwd":"/p"}`, "tool_input.command"},
		{"codex", `{"tool_name":"apply_patch","tool_input":{},"cwd":"/p"}`, "tool_input.command"},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"p"}`, "cwd"},
		{"codex", `{"tool_name":"Bash","tool_input":"ls","cwd":"/p"}`, "tool_input"},
		{"codex", `{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/p","turn_id":7}`, "turn_id"},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{},"cwd":"/p"}`, "tool_input.file_path"},
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"~other"},"cwd":"/p"}`, "tool_input.dir_path"},
		{"gemini", `{"tool_name":"read_many_files","tool_input":{"include":[1]},"cwd":"/p"}`, "tool_input.include[0]"},
		{"gemini", `{"tool_name":"x","tool_input":{},"cwd":"/p","mcp_context":"fs"}`, "mcp_context"},
		{"copilot", `{"toolName":"view","toolArgs":"{\"path\":\"\"}","cwd":"/p"}`, "toolArgs.path"},
		{"copilot", `{"toolName":"view","toolArgs":"{\"path\":","cwd":"/p"}`, "toolArgs"},
		{"copilot", `{"toolName":"view","toolArgs":{},"cwd":"/p","timestamp":"now"}`, "timestamp"},
		{"copilot", `{"toolName":"view","toolArgs":{"path":"/a"},"cwd":"/p","hookEventName":"PreToolUse"}`, ""},
		{"vscode", `{"hookEventName":"PostToolUse","tool_name":"read_file","tool_input":{"filePath":"/a"},"cwd":"/p"}`, "hookEventName"},
		{"vscode", `{"hookEventName":"PreToolUse","tool_name":"multi_replace_string_in_file","tool_input":{"replacements":[{"oldString":"a"}]},"cwd":"/p"}`, "tool_input.replacements[0].filePath"},
		{"cursor", `{"hook_event_name":"stop","workspace_roots":["/p"]}`, "hook_event_name"},
		{"cursor", `{"hook_event_name":"beforeReadFile","workspace_roots":["/p"]}`, "file_path"},
		{"cursor", `{"hook_event_name":"beforeShellExecution","command":"ls"}`, "cwd"},
		{"cursor", `{"hook_event_name":"beforeMCPExecution","workspace_roots":["/p"],"tool_name":"t","tool_input":"{\"path\":\"\"}"}`, "tool_input.path"},
	}
	for _, tt := range tests {
		h, _ := HostByName(tt.host)
		_, err := h.Decode([]byte(tt.in))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s %s: err = %v, want an *InputError", tt.host, tt.in, err)
			continue
		}
		if ie.Field != tt.field {
			t.Errorf("%s %s: field %q, want %q (%v)", tt.host, tt.in, ie.Field, tt.field, err)
		}
	}
}

// TestShellCwd checks the hosts that give a shell command its own working
// directory: the call's Cwd moves there, resolved lexically from the cwd.
func TestShellCwd(t *testing.T) {
	tests := []struct{ host, in, cwd string }{
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"pkg/../sub"},"cwd":"/p"}`, "/p/sub"},
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"/abs"},"cwd":"/p"}`, "/abs"},
		{"gemini", `{"tool_name":"run_shell_command","tool_input":{"command":"ls"},"cwd":"/p"}`, "/p"},
		{"cursor", `{"hook_event_name":"preToolUse","workspace_roots":["/p"],"tool_name":"Shell","tool_input":{"command":"ls","cwd":"src"}}`, "/p/src"},
		{"cursor", `{"hook_event_name":"beforeShellExecution","workspace_roots":["/p"],"command":"ls","cwd":""}`, "/p"},
		{"cursor", `{"hook_event_name":"beforeShellExecution","workspace_roots":["/p"],"command":"ls","cwd":"/q"}`, "/q"},
	}
	for _, tt := range tests {
		h, _ := HostByName(tt.host)
		c, err := h.Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if c.Cwd != tt.cwd || c.Kind != KindShell || c.Command != "ls" {
			t.Errorf("%s: cwd %q kind %v command %q, want cwd %q", tt.in, c.Cwd, c.Kind, c.Command, tt.cwd)
		}
	}
}

func TestSplitGlob(t *testing.T) {
	for _, tt := range []struct{ in, dir, rest string }{
		{"src/**/*.go", "src", "**/*.go"},
		{"*.md", "", "*.md"},
		{"/abs/dir/*.key", "/abs/dir", "*.key"},
		{"/*.key", "/", "*.key"},
		{"README.md", "README.md", ""},
		{"../up/{a,b}/x", "../up", "{a,b}/x"},
	} {
		if d, r := splitGlob(tt.in); d != tt.dir || r != tt.rest {
			t.Errorf("splitGlob(%q) = %q, %q; want %q, %q", tt.in, d, r, tt.dir, tt.rest)
		}
	}
}

// FuzzHostDecode checks every adapter on arbitrary input: no panic, and
// either a call with a known host and an absolute cwd or an *InputError.
//
//	go test ./hookio -run '^$' -fuzz FuzzHostDecode -fuzztime 60s
func FuzzHostDecode(f *testing.F) {
	for _, host := range hostDirs {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "hosts", host, "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, host := range append(hostDirs, "auto") {
			h, _ := HostByName(host)
			c, err := h.Decode(data)
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) {
					t.Fatalf("%s: %v is not an *InputError", host, err)
				}
				continue
			}
			if c.Tool == "" || !isAbs(c.Cwd) {
				t.Fatalf("%s: call %+v", host, c)
			}
			out, code := h.Encode(Output{Decision: policy.Deny, Reason: "r"})
			if code == 1 || len(out) == 0 || !json.Valid(out) {
				t.Fatalf("%s: encode: exit %d %q", host, code, out)
			}
		}
	})
}

// TestNoArguments checks tools called without arguments (no field, null,
// or an empty string): an empty object, so a tool without a schema decodes
// and a file tool is refused for its missing path.
func TestNoArguments(t *testing.T) {
	for _, in := range []string{
		`{"toolName":"list_bash","cwd":"/p"}`,
		`{"toolName":"list_bash","toolArgs":"","cwd":"/p"}`,
		`{"toolName":"list_bash","toolArgs":null,"cwd":"/p"}`,
		`{"hookEventName":"PreToolUse","tool_name":"copilot_readProjectStructure","cwd":"/p"}`,
		`{"hook_event_name":"preToolUse","workspace_roots":["/p"],"tool_name":"ListMcpResources"}`,
	} {
		h, _ := DetectHost([]byte(in))
		c, err := h.Decode([]byte(in))
		if err != nil || c.Kind != KindOther || len(c.Args) != 0 {
			t.Errorf("%s: %+v, %v", in, c, err)
		}
	}
	_, err := Copilot{}.Decode([]byte(`{"toolName":"view","cwd":"/p"}`))
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "toolArgs.path" || !errors.Is(err, ErrMissing) {
		t.Errorf("view without arguments: %v", err)
	}
}

// TestVSCodeNames covers the tool names VS Code's hooks documentation uses
// in its examples and VS Code's contributed names (copilot_*).
func TestVSCodeNames(t *testing.T) {
	tests := []struct {
		tool, input, canon string
		kind               Kind
		args               []string
	}{
		{"editFiles", `{"files":["src/main.ts","/o/x"]}`, "Edit", KindWrite, []string{"files[0]=src/main.ts", "files[1]=/o/x"}},
		{"deleteFile", `{"path":"/o/x"}`, "Edit", KindWrite, []string{"path=/o/x"}},
		{"runTerminalCommand", `{"command":"rm -rf /"}`, "Bash", KindShell, nil},
		{"copilot_readFile", `{"filePath":"/o/x"}`, "Read", KindRead, []string{"filePath=/o/x"}},
		{"copilot_createFile", `{"filePath":"/o/x","content":""}`, "Write", KindWrite, []string{"filePath=/o/x"}},
		{"copilot_applyPatch", `{"input":"*** Begin Patch\n*** Delete File: /o/x\n*** End Patch"}`, "Edit", KindWrite, []string{"tool_input.input line 2 (Delete File)=/o/x"}},
	}
	for _, tt := range tests {
		in := `{"hookEventName":"PreToolUse","cwd":"/p","tool_name":"` + tt.tool + `","tool_input":` + tt.input + `}`
		c, err := VSCode{}.Decode([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", tt.tool, err)
			continue
		}
		var args []string
		for _, a := range c.Args {
			args = append(args, a.Field+"="+a.Value)
		}
		if c.Tool != tt.canon || c.Kind != tt.kind || fmt.Sprint(args) != fmt.Sprint(tt.args) {
			t.Errorf("%s: tool %s kind %v args %v, want %s %v %v", tt.tool, c.Tool, c.Kind, args, tt.canon, tt.kind, tt.args)
		}
	}
	if _, err := (VSCode{}).Decode([]byte(`{"hookEventName":"PreToolUse","cwd":"/p","tool_name":"editFiles","tool_input":{}}`)); err == nil {
		t.Error("editFiles without a path decoded")
	}
}

// BenchmarkHostDecode decodes one sample per host, as a hook call does once.
func BenchmarkHostDecode(b *testing.B) {
	for _, s := range []struct{ host, file string }{
		{"codex", "captured_apply_patch"}, {"gemini", "captured_read_file"},
		{"copilot", "camel_create"}, {"vscode", "read_file"}, {"cursor", "pre_read"}, {"auto", "../codex/captured_apply_patch"},
	} {
		dir := s.host
		if s.host == "auto" {
			dir = "codex"
		}
		data, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", dir, filepath.Base(s.file)+".json"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(s.host, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				h, _ := HostByName(s.host)
				if _, err := h.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
