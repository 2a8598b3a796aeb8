package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/safezonehq/safezone/policy"
)

func TestDecodeClaudeTools(t *testing.T) {
	tests := []struct {
		name   string
		tool   string
		input  string
		kind   Kind
		writes bool
		args   []Arg
		cmd    string
	}{
		{"Read", "Read", `{"file_path":"/p/a","offset":1,"limit":2}`, KindRead, false,
			[]Arg{{Field: "file_path", Value: "/p/a", Access: policy.Read}}, ""},
		{"Write", "Write", `{"file_path":"/p/a","content":"x"}`, KindWrite, true,
			[]Arg{{Field: "file_path", Value: "/p/a", Access: policy.Write}}, ""},
		{"Edit", "Edit", `{"file_path":"rel/a","old_string":"a","new_string":"b","replace_all":false}`, KindWrite, true,
			[]Arg{{Field: "file_path", Value: "rel/a", Access: policy.Write}}, ""},
		{"MultiEdit", "MultiEdit", `{"file_path":"/p/a","edits":[{"old_string":"a","new_string":"b"}]}`, KindWrite, true,
			[]Arg{{Field: "file_path", Value: "/p/a", Access: policy.Write}}, ""},
		{"NotebookEdit", "NotebookEdit", `{"notebook_path":"/p/n.ipynb","cell_id":"c1","new_source":"x"}`, KindWrite, true,
			[]Arg{{Field: "notebook_path", Value: "/p/n.ipynb", Access: policy.Write}}, ""},
		{"LS", "LS", `{"path":"/p"}`, KindRead, false,
			[]Arg{{Field: "path", Value: "/p", Access: policy.Read}}, ""},
		{"Glob with path", "Glob", `{"pattern":"**/*.go","path":"../o"}`, KindGlob, false,
			[]Arg{{Field: "path", Value: "../o", Access: policy.Read}, {Field: "pattern", Value: "**/*.go", Access: policy.Read, Kind: ArgGlob, Base: "../o"}}, ""},
		{"Glob without path", "Glob", `{"pattern":"*.md"}`, KindGlob, false,
			[]Arg{{Field: "cwd", Value: "/p", Access: policy.Read}, {Field: "pattern", Value: "*.md", Access: policy.Read, Kind: ArgGlob}}, ""},
		{"Glob null path", "Glob", `{"pattern":"*.md","path":null}`, KindGlob, false,
			[]Arg{{Field: "cwd", Value: "/p", Access: policy.Read}, {Field: "pattern", Value: "*.md", Access: policy.Read, Kind: ArgGlob}}, ""},
		{"Grep with glob", "Grep", `{"pattern":"K","path":"/p/src","glob":".env*","output_mode":"content"}`, KindGrep, false,
			[]Arg{{Field: "path", Value: "/p/src", Access: policy.Read}, {Field: "glob", Value: ".env*", Access: policy.Read, Kind: ArgFilter, Base: "/p/src"}}, ""},
		{"Grep without path", "Grep", `{"pattern":"K"}`, KindGrep, false,
			[]Arg{{Field: "cwd", Value: "/p", Access: policy.Read}}, ""},
		{"Bash", "Bash", `{"command":"cat ../secret","description":"d"}`, KindShell, true, nil, "cat ../secret"},
		{"PowerShell", "PowerShell", `{"command":"Get-Content x"}`, KindPowerShell, true, nil, "Get-Content x"},
		{"MCP read", "mcp__fs__read_file", `{"path":"/p/a","encoding":"utf8"}`, KindMCP, false,
			[]Arg{{Field: "path", Value: "/p/a", Access: policy.Read, Loose: true}}, ""},
		{"MCP write with arrays and nesting; a path-shaped content is only read", "mcp__fs__write_files", `{"paths":["/a","/b"],"opts":{"filePath":"/c"},"content":"/not/a/path","mode":"0644"}`, KindMCP, true,
			[]Arg{{Field: "content", Value: "/not/a/path", Access: policy.Read, Loose: true}, {Field: "opts.filePath", Value: "/c", Access: policy.Write, Loose: true},
				{Field: "paths[0]", Value: "/a", Access: policy.Write, Loose: true}, {Field: "paths[1]", Value: "/b", Access: policy.Write, Loose: true}}, ""},
		{"MCP move", "mcp__fs__move_file", `{"source":"/a","destination":"/b"}`, KindMCP, true,
			[]Arg{{Field: "destination", Value: "/b", Access: policy.Write, Loose: true}, {Field: "source", Value: "/a", Access: policy.Write, Loose: true}}, ""},
		{"MCP output keys are written whatever the tool's name", "mcp__pdf__get_report", `{"output":"r.pdf","outputPath":"/o/a","out_dir":"d"}`, KindMCP, false,
			[]Arg{{Field: "out_dir", Value: "d", Access: policy.Write, Loose: true}, {Field: "output", Value: "r.pdf", Access: policy.Write, Loose: true},
				{Field: "outputPath", Value: "/o/a", Access: policy.Write, Loose: true}}, ""},
		{"MCP file: URIs are paths, other schemes are not", "mcp__res__read_resource", `{"uri":"file:///h/a%20b/.env","url":"https://x/y","resource":"config://app","link":"file://localhost/etc/x?y#z","href":"notes/a"}`, KindMCP, false,
			[]Arg{{Field: "link", Value: "/etc/x", Access: policy.Read, Loose: true}, {Field: "uri", Value: "/h/a b/.env", Access: policy.Read, Loose: true}}, ""},
		{"MCP paths by their shape, whatever the key", "mcp__x__frobnicate", `{"q":"~/.ssh/id_rsa","n":{"arg":"/etc/shadow"},"u":"FILE:/etc/x","t":"/","s":"text /x","w":"C:/x"}`, KindMCP, true,
			[]Arg{{Field: "n.arg", Value: "/etc/shadow", Access: policy.Read, Loose: true}, {Field: "q", Value: "~/.ssh/id_rsa", Access: policy.Read, Loose: true},
				{Field: "u", Value: "/etc/x", Access: policy.Read, Loose: true}, {Field: "w", Value: "C:/x", Access: policy.Read, Loose: true}}, ""},
		{"MCP paths by their shape in a tool that writes", "mcp__x__save_note", `{"where":"/h/notes.md"}`, KindMCP, true,
			[]Arg{{Field: "where", Value: "/h/notes.md", Access: policy.Write, Loose: true}}, ""},
		{"a JSON Patch's pointers are no paths", "mcp__k8s__patch_resource", `{"name":"web","patch":[{"op":"replace","path":"/spec/replicas","value":3},{"op":"move","from":"/a","path":"/b"}]}`, KindMCP, true, nil, ""},
		{"MCP without paths", "mcp__gh__create_issue", `{"title":"t","body":"b"}`, KindMCP, true, nil, ""},
		{"other tool", "WebFetch", `{"url":"https://x","prompt":"p"}`, KindOther, false, nil, ""},
		{"unknown tool ignores its fields", "FileDelete", `{"file_path":"/p/a"}`, KindOther, false, nil, ""},
		{"tool names are case sensitive", "read", `{"file_path":"/p/a"}`, KindOther, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"hook_event_name":"PreToolUse","tool_name":"` + tt.tool + `","tool_input":` + tt.input + `,"cwd":"/p","permission_mode":"acceptEdits","session_id":"s","tool_use_id":"u"}`
			c, err := DecodeClaude([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if c.Kind != tt.kind || c.Writes != tt.writes || c.Command != tt.cmd || c.PermissionMode != PermAcceptEdits || c.SessionID != "s" || c.ToolUseID != "u" {
				t.Errorf("call = %+v", c)
			}
			if len(c.Args) != len(tt.args) {
				t.Fatalf("args = %+v, want %+v", c.Args, tt.args)
			}
			for i := range tt.args {
				if c.Args[i] != tt.args[i] {
					t.Errorf("arg %d = %+v, want %+v", i, c.Args[i], tt.args[i])
				}
			}
		})
	}
}

func TestDecodeClaudeErrors(t *testing.T) {
	ok := func(extra string) string {
		return `{"tool_name":"Read","tool_input":{"file_path":"/p/a"},"cwd":"/p"` + extra + `}`
	}
	tests := []struct {
		name  string
		in    string
		want  error
		field string
	}{
		{"empty", "", ErrMalformed, ""},
		{"whitespace", " \n\t ", ErrMalformed, ""},
		{"not JSON", "please allow this", ErrMalformed, ""},
		{"truncated", `{"tool_name":"Read"`, ErrMalformed, ""},
		{"array", "[]", ErrMalformed, ""},
		{"null", "null", ErrMalformed, ""},
		{"number", "42", ErrMalformed, ""},
		{"trailing garbage", ok("") + " }", ErrMalformed, ""},
		{"two objects", ok("") + ok(""), ErrMalformed, ""},
		{"invalid UTF-8", "{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/p/\xff\"},\"cwd\":\"/p\"}", ErrMalformed, ""},
		{"duplicate key", `{"tool_name":"Write","tool_input":{"file_path":"/p/ok","file_path":"/out"},"cwd":"/p"}`, ErrMalformed, ""},
		{"case-variant key", `{"tool_name":"Write","tool_input":{"file_path":"/out","FILE_PATH":"/p/ok"},"cwd":"/p"}`, ErrMalformed, ""},
		{"case-variant top-level key", ok(`,"Tool_Input":{"file_path":"/p/ok"}`), ErrMalformed, ""},
		{"Kelvin sign folds to k", `{"tool_name":"Read","tool_input":{"file_path":"/p/a"},"cwd":"/p","\u212aey":1,"key":2}`, ErrMalformed, ""},
		{"lone high surrogate", `{"tool_name":"Read","tool_input":{"file_path":"/p/\ud800"},"cwd":"/p"}`, ErrMalformed, ""},
		{"lone low surrogate", `{"tool_name":"Read","tool_input":{"file_path":"/p/\udc00x"},"cwd":"/p"}`, ErrMalformed, ""},
		{"too deep", `{"tool_name":"Read","tool_input":{"file_path":"/p"},"cwd":"/p","x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, ErrMalformed, ""},
		{"missing tool_name", `{"tool_input":{"file_path":"/p/a"},"cwd":"/p"}`, ErrMissing, "tool_name"},
		{"tool_name number", `{"tool_name":7,"tool_input":{},"cwd":"/p"}`, ErrType, "tool_name"},
		{"empty tool_name", `{"tool_name":"","tool_input":{},"cwd":"/p"}`, ErrValue, "tool_name"},
		{"missing tool_input", `{"tool_name":"Write","cwd":"/p"}`, ErrMissing, "tool_input"},
		{"tool_input null", `{"tool_name":"Write","tool_input":null,"cwd":"/p"}`, ErrMissing, "tool_input"},
		{"tool_input string", `{"tool_name":"Read","tool_input":"/p/a","cwd":"/p"}`, ErrType, "tool_input"},
		{"missing cwd", `{"tool_name":"Read","tool_input":{"file_path":"a"}}`, ErrMissing, "cwd"},
		{"cwd number", `{"tool_name":"Read","tool_input":{"file_path":"a"},"cwd":1}`, ErrType, "cwd"},
		{"relative cwd", `{"tool_name":"Read","tool_input":{"file_path":"a"},"cwd":"."}`, ErrValue, "cwd"},
		{"permission_mode not a string", ok(`,"permission_mode":1`), ErrType, "permission_mode"},
		{"other event", ok(`,"hook_event_name":"PostToolUse"`), ErrValue, "hook_event_name"},
		{"missing file_path", `{"tool_name":"Write","tool_input":{"content":"x"},"cwd":"/p"}`, ErrMissing, "tool_input.file_path"},
		{"file_path number", `{"tool_name":"Read","tool_input":{"file_path":42},"cwd":"/p"}`, ErrType, "tool_input.file_path"},
		{"file_path null", `{"tool_name":"Write","tool_input":{"file_path":null},"cwd":"/p"}`, ErrMissing, "tool_input.file_path"},
		{"empty file_path", `{"tool_name":"Read","tool_input":{"file_path":""},"cwd":"/p"}`, ErrValue, "tool_input.file_path"},
		{"NUL in file_path", `{"tool_name":"Read","tool_input":{"file_path":"/p/a\u0000/../x"},"cwd":"/p"}`, ErrValue, "tool_input.file_path"},
		{"tilde user", `{"tool_name":"Read","tool_input":{"file_path":"~root/.ssh/id_rsa"},"cwd":"/p"}`, ErrValue, "tool_input.file_path"},
		{"NotebookEdit with file_path only", `{"tool_name":"NotebookEdit","tool_input":{"file_path":"/p/a.ipynb"},"cwd":"/p"}`, ErrMissing, "tool_input.notebook_path"},
		{"Glob pattern number", `{"tool_name":"Glob","tool_input":{"pattern":5},"cwd":"/p"}`, ErrType, "tool_input.pattern"},
		{"LS path number", `{"tool_name":"LS","tool_input":{"path":1},"cwd":"/p"}`, ErrType, "tool_input.path"},
		{"Grep glob number", `{"tool_name":"Grep","tool_input":{"pattern":"x","glob":1},"cwd":"/p"}`, ErrType, "tool_input.glob"},
		{"Bash command array", `{"tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]},"cwd":"/p"}`, ErrType, "tool_input.command"},
		{"Bash without command", `{"tool_name":"Bash","tool_input":{"description":"x"},"cwd":"/p"}`, ErrMissing, "tool_input.command"},
		{"Bash NUL", `{"tool_name":"Bash","tool_input":{"command":"ls\u0000rm"},"cwd":"/p"}`, ErrValue, "tool_input.command"},
		{"MCP empty path", `{"tool_name":"mcp__fs__read_file","tool_input":{"path":""},"cwd":"/p"}`, ErrValue, "tool_input.path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeClaude([]byte(tt.in))
			if err == nil {
				t.Fatalf("decoded %+v", c)
			}
			if c != nil {
				t.Error("non-nil call with an error")
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("error = %v, want %v", err, tt.want)
			}
			ie, ok := errors.AsType[*InputError](err)
			if !ok {
				t.Fatalf("error %T is not an *InputError", err)
			}
			if ie.Field != tt.field {
				t.Errorf("field = %q, want %q (%v)", ie.Field, tt.field, err)
			}
		})
	}
}

func TestDecodeClaudeLenient(t *testing.T) {
	tests := []struct{ name, in string }{
		{"BOM", "\xef\xbb\xbf" + `{"tool_name":"Read","tool_input":{"file_path":"/p/a"},"cwd":"/p"}`},
		{"unknown fields", `{"tool_name":"Read","tool_input":{"file_path":"/p/a","x_new":[1]},"cwd":"/p","effort":{"level":"high"},"agent_id":"a"}`},
		{"pretty printed", "{\n  \"cwd\": \"/p\",\n  \"tool_input\": {\"file_path\": \"/p/a\"},\n  \"tool_name\": \"Read\"\n}\n"},
		{"surrogate pair", `{"tool_name":"Read","tool_input":{"file_path":"/p/\ud83d\ude00"},"cwd":"/p"}`},
		{"escaped backslash before u", `{"tool_name":"Read","tool_input":{"file_path":"/p/\\ud800"},"cwd":"/p"}`},
	}
	for _, tt := range tests {
		data, err := ReadInput(strings.NewReader(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if _, err := DecodeClaude(data); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	c, _ := DecodeClaude([]byte(`{"tool_name":"Read","tool_input":{"file_path":"/p/a"},"cwd":"/p","permission_mode":"BypassPermissions"}`))
	if c.PermissionMode != PermDefault {
		t.Errorf("an unknown permission_mode must be default, got %v", c.PermissionMode)
	}
}

func TestReadInputCap(t *testing.T) {
	_, err := ReadInput(bytes.NewReader(make([]byte, MaxInput+1)))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error = %v, want ErrTooLarge", err)
	}
}

// TestSamples decodes the real Claude Code 2.1.330 hook inputs.
func TestSamples(t *testing.T) {
	files, _ := filepath.Glob("../../shared/samples/claude-code/*.json")
	if len(files) == 0 {
		t.Skip("../shared/samples/claude-code is absent: real host samples not checked")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := DecodeClaude(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if c.Tool+".json" != filepath.Base(f) {
			t.Errorf("%s: tool %q", f, c.Tool)
		}
		if c.Kind == KindOther {
			t.Errorf("%s: tool %s not understood", f, c.Tool)
		}
	}
}

func TestMCPWrites(t *testing.T) {
	for tool, want := range map[string]bool{
		"mcp__filesystem__read_file": false, "mcp__filesystem__list_directory": false,
		"mcp__files__list": false, "mcp__filesystem__write_file": true,
		"mcp__filesystem__move_file": true, "mcp__filesystem__create_directory": true,
		"mcp__filesystem__edit_file": true, "mcp__x__deleteFile": true, "mcp__x__getFile": false,
		"mcp__evil__run": true, "mcp__x__frobnicate": true,
	} {
		if got := MCPWrites(tool); got != want {
			t.Errorf("MCPWrites(%s) = %v, want %v", tool, got, want)
		}
	}
}

func TestEncodeClaude(t *testing.T) {
	tests := []struct {
		o    Output
		want string
	}{
		{Output{Decision: policy.Abstain}, ""},
		{Output{Decision: policy.Allow, Reason: "ok"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}`},
		{Output{Decision: policy.Ask, Reason: "a <b>"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a <b>"}}`},
		{Output{Decision: policy.Deny}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"denied by safezone"}}`},
		{Output{Decision: policy.Decision(9), Reason: "r"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`},
		{Output{Decision: policy.Abstain, Warning: "w"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"w"},"systemMessage":"w"}`},
		{Output{Decision: policy.Allow, Reason: "r", Warning: "w"}, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"r","additionalContext":"w"},"systemMessage":"w"}`},
	}
	for _, tt := range tests {
		got := strings.TrimSuffix(string(EncodeClaude(tt.o)), "\n")
		if got != tt.want {
			t.Errorf("EncodeClaude(%+v) =\n%s\nwant\n%s", tt.o, got, tt.want)
		}
	}
}

// FuzzDecodeClaude: the decoder never panics, and whatever it accepts is a
// usable call: a tool name, an absolute cwd, paths without NUL bytes.
//
//	go test ./hookio -run '^$' -fuzz FuzzDecodeClaude -fuzztime 60s
func FuzzDecodeClaude(f *testing.F) {
	files, _ := filepath.Glob("../../shared/samples/claude-code/*.json")
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`{"tool_name":"Write","tool_input":{"file_path":"/p/ok","FILE_PATH":"/out"},"cwd":"/p"}`,
		`{"tool_name":"Glob","tool_input":{"pattern":"{a,b}/*","path":"~"},"cwd":"/p"}`,
		`{"tool_name":"mcp__a__b","tool_input":{"paths":["/x",{"path":"/y"}]},"cwd":"/p"}`,
		`{"tool_name":"Read","tool_input":{"file_path":"\ud800"},"cwd":"/p"}`,
		"\xef\xbb\xbf{}", "[", `{"a":1,"A":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeClaude(data)
		if err != nil {
			if c != nil {
				t.Fatal("call with an error")
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %T is not an *InputError", err)
			}
			return
		}
		if c.Tool == "" || !isAbs(c.Cwd) || !utf8.ValidString(c.Tool) {
			t.Fatalf("unusable call accepted: %+v", c)
		}
		for _, a := range c.Args {
			if a.Value == "" || strings.ContainsRune(a.Value, 0) {
				t.Fatalf("bad arg accepted: %+v", a)
			}
		}
		// Whatever was accepted re-encodes as JSON.
		if _, err := json.Marshal(c); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkDecodeClaude measures decoding a real Claude Code hook input.
func BenchmarkDecodeClaude(b *testing.B) {
	data, err := os.ReadFile("../../shared/samples/claude-code/Edit.json")
	if err != nil {
		data = []byte(`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/home/dev/work/proj","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/home/dev/work/proj/src/app.go","old_string":"old","new_string":"new","replace_all":false},"tool_use_id":"toolu_1"}`)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeClaude(data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMCPDeepPaths: a path nested deeper than any fixed walk limit, or in
// nested arrays, is still a target: the walk is bounded by the input's own
// nesting limit only.
func TestMCPDeepPaths(t *testing.T) {
	inner := `{"file_path":"/outside/deep"}`
	for range 20 {
		inner = `{"opts":` + inner + `}`
	}
	in := `{"tool_name":"mcp__fs__read_file","cwd":"/p","tool_input":{"a":` + inner + `,"paths":[["/outside/nested"]]}}`
	c, err := DecodeClaude([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range c.Args {
		got = append(got, a.Value)
	}
	if strings.Join(got, ",") != "/outside/deep,/outside/nested" {
		t.Errorf("args %q, want the deep and the nested path", got)
	}
}

// FuzzPathUnescape: pathUnescape agrees with url.PathUnescape, which it
// stands in for on the hook path.
//
//	go test -fuzz=FuzzPathUnescape -fuzztime=30s ./hookio
func FuzzPathUnescape(f *testing.F) {
	for _, s := range []string{"/h/a%20b/.env", "%", "%4", "%zz", "%2F%2e%2E", "a+b", "%e2%82%ac", "%00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := pathUnescape(s)
		want, err := url.PathUnescape(s)
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("pathUnescape(%q) = %q %v; url.PathUnescape: %q %v", s, got, ok, want, err)
		}
	})
}
