package hookio

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

const regCmd = "/opt/safezone/bin/safezone --host "

// registerFixtures are existing files per host: a foreign hook and other
// settings to keep, an older safezone entry to update, duplicates to drop.
var registerFixtures = map[string][]struct{ name, in string }{
	"claude": {
		{"foreign hooks and settings", `{
    "permissions": {"allow": ["Bash(go test:*)"], "deny": []},
    "model": "opus",
    "hooks": {
        "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "gofmt -w", "timeout": 10.0}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/guard"}]}]
    },
    "z": 12345678901234567890
}`},
		{"older safezone entry updated in place", `{"hooks":{"PreToolUse":[
  {"matcher":"Read","hooks":[{"type":"command","command":"\"/old path/safezone\" -r","timeout":30,"statusMessage":"checking"}]},
  {"matcher":"Bash","hooks":[{"type":"command","command":"/usr/bin/guard"}]}]}}`},
		{"duplicates and a mixed group", `{"hooks":{"PreToolUse":[
  {"matcher":"Bash","hooks":[{"type":"command","command":"/usr/bin/guard"},{"type":"command","command":"safezone"}]},
  {"matcher":"*","hooks":[{"type":"command","command":"env X=1 /bin/safezone --yes"}]},
  {"matcher":"*","hooks":[{"type":"command","command":"safezone.exe"}]}]}}`},
	},
	"codex": {
		{"foreign hooks", `{"hooks":{"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"echo hi","statusMessage":"Loading"}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"python3 guard.py"}]}]}}`},
		{"older safezone entry", `{"hooks":{"PreToolUse":[{"matcher":"Bash|apply_patch","hooks":[{"type":"command","command":"/usr/bin/safezone --host codex -r","timeout":5}]}]}}`},
	},
	"gemini": {
		{"settings kept", `{"theme":"GitHub","general":{"vimMode":true},"hooksConfig":{"enabled":true},"hooks":{"BeforeTool":[{"matcher":"write_file|replace","sequential":true,"hooks":[{"name":"security-check","type":"command","command":"$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh","timeout":5000}]}]}}`},
		{"older safezone entry", `{"hooks":{"BeforeTool":[{"matcher":"read_file","hooks":[{"name":"safezone","type":"command","command":"safezone --host gemini","timeout":60000,"description":"mine"}]}]}}`},
	},
	"copilot": {
		{"foreign hooks", `{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"./scripts/session-start.sh"}],"preToolUse":[{"type":"command","bash":"./scripts/security-check.sh","powershell":"./scripts/security-check.ps1","cwd":"scripts","timeoutSec":30,"comment":"first"}]}}`},
		{"older safezone entry, command form", `{"hooks":{"preToolUse":[{"type":"command","command":"safezone --host copilot","timeout":30},{"type":"command","bash":"/x/safezone"}]}}`},
	},
	"vscode": {
		{"vscode-style entry", `{"hooks":{"PreToolUse":[{"type":"command","command":"./scripts/validate-tool.sh","timeout":15}]}}`},
	},
	"cursor": {
		{"foreign hooks", `{"version":1,"hooks":{"afterFileEdit":[{"command":"./hooks/format.sh"}],"beforeShellExecution":[{"command":"./hooks/audit.sh","timeout":5}]}}`},
		{"older safezone entry without failClosed", `{"version":1,"hooks":{"preToolUse":[{"command":"/old/safezone --host cursor","matcher":"Read"}]}}`},
	},
}

// TestRegister pins each host's registration (testdata/hosts/<host>/
// register.golden) for a new file and for each fixture, and checks the
// contract on all of them: idempotent, one safezone entry per event,
// foreign entries and other keys kept in order.
func TestRegister(t *testing.T) {
	for _, host := range []string{"claude", "codex", "gemini", "copilot", "vscode", "cursor"} {
		t.Run(host, func(t *testing.T) {
			cmd := regCmd + host
			var golden strings.Builder
			cases := append([]struct{ name, in string }{{"new file", ""}}, registerFixtures[host]...)
			for _, c := range cases {
				out, err := Register(host, []byte(c.in), cmd)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				fmt.Fprintf(&golden, "== %s\n%s", c.name, out)
				again, err := Register(host, out, cmd)
				if err != nil || !bytes.Equal(again, out) {
					t.Errorf("%s: a second call changed the file (%v):\n%s", c.name, err, again)
				}
				if n := strings.Count(string(out), `"`+cmd+`"`); n == 0 {
					t.Errorf("%s: command missing", c.name)
				}
				root, err := parseEdit(out)
				if err != nil {
					t.Fatalf("%s: output is not JSON: %v", c.name, err)
				}
				checkOneEntryPerEvent(t, c.name, root)
				if c.in != "" {
					checkForeignKept(t, c.name, c.in, root)
				}
			}
			checkGolden(t, filepath.Join("..", "testdata", "hosts", host, "register.golden"), golden.String())
		})
	}
}

// checkOneEntryPerEvent: every hooks.<event> holds at most one safezone
// handler.
func checkOneEntryPerEvent(t *testing.T, name string, root hujson.Value) {
	t.Helper()
	ours := isOurs(regCmd)
	hooks := asObject(member(asObject(&root), "hooks"))
	for _, ev := range hooks.Members {
		n := 0
		for _, it := range asArray(&ev.Value).Elements {
			if hs := member(asObject(&it), "hooks"); hs != nil {
				for _, h := range asArray(hs).Elements {
					if handlerIsOurs(asObject(&h), ours) {
						n++
					}
				}
			} else if handlerIsOurs(asObject(&it), ours) {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%s: %d safezone entries under %s", name, n, ev.Name.Value)
		}
	}
}

// names returns the member names of an object.
func names(o *hujson.Object) []string {
	var ns []string
	for i := range o.Members {
		n, _ := asString(&o.Members[i].Name)
		ns = append(ns, n)
	}
	return ns
}

// checkForeignKept: the top-level keys and hooks events of the input keep
// their order, and every foreign handler is still there, unchanged.
func checkForeignKept(t *testing.T, name, in string, root hujson.Value) {
	t.Helper()
	orig, err := parseEdit([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if !isPrefixOrder(names(asObject(&orig)), names(asObject(&root))) {
		t.Errorf("%s: top-level keys %v became %v", name, names(asObject(&orig)), names(asObject(&root)))
	}
	ohooks, nhooks := asObject(member(asObject(&orig), "hooks")), asObject(member(asObject(&root), "hooks"))
	if !isPrefixOrder(names(ohooks), names(nhooks)) {
		t.Errorf("%s: hooks events %v became %v", name, names(ohooks), names(nhooks))
	}
	out := string(encodeEdit(&root))
	ours := isOurs(regCmd)
	for v := range orig.All() {
		if h := asObject(v); h != nil && (member(h, "command") != nil || member(h, "bash") != nil) && !handlerIsOurs(h, ours) {
			if !strings.Contains(flatten(out), flatten(compactEdit(*v))) {
				t.Errorf("%s: foreign handler lost or changed: %s", name, compactEdit(*v))
			}
		}
	}
	for _, m := range asObject(&orig).Members {
		if k, _ := asString(&m.Name); k != "hooks" && !strings.Contains(flatten(out), flatten(compactEdit(m.Value))) {
			t.Errorf("%s: setting %q changed", name, k)
		}
	}
}

// flatten drops the blanks JSON formatting adds, to compare values written
// at different depths.
func flatten(s string) string {
	return strings.NewReplacer("\n", "", " ", "").Replace(s)
}

// isPrefixOrder reports whether old's keys appear in new in the same order.
func isPrefixOrder(old, new []string) bool {
	j := 0
	for _, k := range new {
		if j < len(old) && k == old[j] {
			j++
		}
	}
	return j == len(old)
}

func TestRegisterKeepsUnchangedBytes(t *testing.T) {
	in := []byte("{\n    \"version\": 1,\n    \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"command\": \"" + regCmd + "copilot\", \"bash\": \"" + regCmd + "copilot\", \"powershell\": \"" + regCmd + "copilot\", \"timeoutSec\": 10}]}\n}\n")
	out, err := Register("copilot", in, regCmd+"copilot")
	if err != nil || !bytes.Equal(out, in) {
		t.Errorf("an up-to-date file was rewritten (%v):\n%s", err, out)
	}
}

func TestRegisterErrors(t *testing.T) {
	tests := []struct {
		host, in, cmd, want string
	}{
		{"claude", `{"hooks":`, regCmd, "existing file is not valid JSON: line 1: unexpected end of input"},
		{"claude", "{\n  \"a\": 1,\n  // comment\n}", regCmd, "line 3:"},
		{"gemini", "{\n  // theme\n  \"theme\": \"x\"\n}", regCmd, "comments and trailing commas are not JSON"},
		{"claude", `[]`, regCmd, "existing file holds an array, not a JSON object"},
		{"claude", `{"hooks":[]}`, regCmd, "hooks: want an object, got an array"},
		{"claude", `{"hooks":{"PreToolUse":{}}}`, regCmd, "hooks.PreToolUse: want an array, got an object"},
		{"codex", `{"hooks":{"PreToolUse":["x"]}}`, regCmd, "hooks.PreToolUse[0]: want an object, got a string"},
		{"gemini", `{"hooks":{"BeforeTool":[{"hooks":{"a":1}}]}}`, regCmd, "hooks.BeforeTool[0].hooks: want an array, got an object"},
		{"claude", `{"hooks":{"PreToolUse":[{"hooks":[1]}]}}`, regCmd, "hooks.PreToolUse[0].hooks[0]: want an object, got a number"},
		{"copilot", `{"version":2,"hooks":{}}`, regCmd, "version: safezone writes version 1 hook files, this one is 2"},
		{"cursor", `{"version":1,"hooks":{"beforeReadFile":[null]}}`, regCmd, "hooks.beforeReadFile[0]: want an object, got null"},
		{"claude", `{"a":1,"a":2}`, regCmd, `key "a" appears twice`},
		{"claude", `{"a":1} {}`, regCmd, "trailing data"},
		{"claude", "{\"a\":\"\xff\"}", regCmd, "not valid UTF-8"},
		{"claude", ``, "  ", "the hook command is empty"},
		{"claude", ``, "safezone\n--yes", "line break"},
		{"auto", ``, regCmd, "auto is not a host to register"},
		{"zed", ``, regCmd, `unknown host "zed"`},
	}
	for _, tt := range tests {
		out, err := Register(tt.host, []byte(tt.in), tt.cmd)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Register(%s, %q): %v, want an error containing %q; out %s", tt.host, tt.in, err, tt.want, out)
		}
		if out != nil {
			t.Errorf("Register(%s, %q) returned content with an error", tt.host, tt.in)
		}
	}
}

func TestConfigPath(t *testing.T) {
	tests := []struct {
		host       string
		user       bool
		want, fail string
	}{
		{host: "claude", want: "/p/.claude/settings.json"},
		{host: "claude", user: true, want: "/h/.claude/settings.json"},
		{host: "codex", want: "/p/.codex/hooks.json"},
		{host: "codex", user: true, want: "/h/.codex/hooks.json"},
		{host: "gemini", want: "/p/.gemini/settings.json"},
		{host: "gemini", user: true, want: "/h/.gemini/settings.json"},
		{host: "copilot", want: "/p/.github/hooks/safezone.json"},
		{host: "copilot", user: true, want: "/h/.copilot/hooks/safezone.json"},
		{host: "vscode", want: "/p/.github/hooks/safezone.json"},
		{host: "vscode", user: true, want: "/h/.copilot/hooks/safezone.json"},
		{host: "cursor", want: "/p/.cursor/hooks.json"},
		{host: "cursor", user: true, want: "/h/.cursor/hooks.json"},
		{host: "auto", fail: "auto is not a host"},
		{host: "nope", fail: "unknown host"},
	}
	for _, tt := range tests {
		got, err := ConfigPath(tt.host, "/p", "/h", tt.user)
		if tt.fail != "" {
			if err == nil || !strings.Contains(err.Error(), tt.fail) {
				t.Errorf("ConfigPath(%s): %q, %v; want error %q", tt.host, got, err, tt.fail)
			}
			continue
		}
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("ConfigPath(%s, user=%v) = %q, %v; want %q", tt.host, tt.user, got, err, tt.want)
		}
	}
	if _, err := ConfigPath("claude", "", "/h", false); err == nil {
		t.Error("no project root accepted")
	}
	if _, err := ConfigPath("claude", "/p", "", true); err == nil {
		t.Error("no home accepted")
	}
}

func TestProgramBase(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/safezone --host codex": "safezone",
		`"/path with space/safezone" -r`:       "safezone",
		"env FOO=1 safezone":                   "safezone",
		`C:\tools\safezone.exe --host copilot`: "safezone.exe",
		"python3 guard.py safezone":            "python3",
		"":                                     "",
	} {
		if got := programBase(in); got != want {
			t.Errorf("programBase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEditModelRoundTrip(t *testing.T) {
	in := `{"a":[1,2.50,-0,1e400,{"b":null,"c":true,"d":false}],"e":{},"f":[],"g":"<\u00e9\n>","h":12345678901234567890}`
	n, err := parseEdit([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "a": [
    1,
    2.50,
    -0,
    1e400,
    {
      "b": null,
      "c": true,
      "d": false
    }
  ],
  "e": {},
  "f": [],
  "g": "<é\n>",
  "h": 12345678901234567890
}
`
	if got := string(encodeEdit(&n)); got != want {
		t.Errorf("encode:\n%s\nwant\n%s", got, want)
	}
}
