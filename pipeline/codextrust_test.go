package pipeline

import (
	"errors"
	"strings"
	"testing"
)

// codexHooksJSON is what `safezone init --host codex` writes, the command
// being /usr/local/bin/safezone --host codex.
const codexHooksJSON = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/safezone --host codex",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
`

// TestCodexHookHash: the key and hash of a registration are Codex
// 0.171.0's (`codex app-server`, hooks/list, listed this registration in
// /tmp/cg/home/.codex/hooks.json with this currentHash).
func TestCodexHookHash(t *testing.T) {
	hooks, err := CodexHooks("/tmp/cg/home/.codex/hooks.json", []byte(codexHooksJSON), RunsSafezone("/usr/local/bin/safezone"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].key != "/tmp/cg/home/.codex/hooks.json:pre_tool_use:0:0" ||
		hooks[0].hash != "sha256:b387df374f2c4873defd79bd446db008faa811f42d794d4bad78fd0553b30850" {
		t.Errorf("hooks = %+v", hooks)
	}
	// Another hook first, in its own group and in ours: the indexes move;
	// a status message, the default timeout and async change the hash.
	other := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]},
		{"hooks": [{"type": "command", "command": "lint"}, {"type": "command", "command": "safezone --host codex", "statusMessage": "checking", "async": true}]}],
		"PostToolUse": [{"hooks": [{"type": "command", "command": "safezone --host codex"}]}]}}`
	hooks, err = CodexHooks("/h/.codex/hooks.json", []byte(other), RunsSafezone("/usr/local/bin/safezone"))
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 || hooks[0].key != "/h/.codex/hooks.json:pre_tool_use:1:1" || hooks[0].hash == "" {
		t.Fatalf("hooks = %+v", hooks)
	}
	if _, err := CodexHooks("/h/.codex/hooks.json", []byte(`{"hooks": [`), RunsSafezone("")); err == nil {
		t.Error("a malformed hooks.json is accepted")
	}
}

func TestWithCodexTrust(t *testing.T) {
	h := CodexHook{key: "/h/.codex/hooks.json:pre_tool_use:0:0", hash: "sha256:new"}
	header := `[hooks.state."/h/.codex/hooks.json:pre_tool_use:0:0"]`
	for _, tc := range []struct {
		name, in string
		want     string // a piece of the result
		keep     []string
		err      error
	}{
		{name: "no file", in: "", want: header + "\ntrusted_hash = \"sha256:new\"\n"},
		{name: "other settings and comments kept", in: "# mine\nmodel = \"gpt-5.5\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"", want: header,
			keep: []string{"# mine\nmodel = \"gpt-5.5\"\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n\n"}},
		{name: "an old hash replaced", in: header + "\ntrusted_hash = \"sha256:old\"\nenabled = true\n\n[x]\ny = 1\n",
			want: header + "\ntrusted_hash = \"sha256:new\"\nenabled = true\n\n[x]\ny = 1\n"},
		{name: "a table without a hash", in: "a = 1\n" + header + "\n\n[x]\n", want: "a = 1\n" + header + "\ntrusted_hash = \"sha256:new\"\n\n[x]\n"},
		{name: "another hook's trust kept", in: "[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:x\"\n", want: header,
			keep: []string{"[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:x\"\n"}},
		{name: "disabled: refused", in: header + "\nenabled = false\n", err: errCodexConfigShape},
		{name: "an inline state table: refused", in: "[hooks]\nstate = { }\n", err: errCodexConfigShape},
		{name: "a dotted key: refused", in: "hooks.state.x.trusted_hash = \"y\"\n", err: errCodexConfigShape},
		{name: "a plain [hooks.state] table: refused", in: "[hooks.state]\n\"k\" = { trusted_hash = \"y\" }\n", err: errCodexConfigShape},
		{name: "hooks in [hooks] tables of their own: kept", in: "[hooks]\nPreToolUse = []\n", want: header},
		{name: "not TOML: refused", in: "model = \n", err: errors.New("not valid TOML")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := WithCodexTrust([]byte(tc.in), h)
			if tc.err != nil {
				if err == nil || !errors.Is(err, tc.err) && !strings.Contains(err.Error(), tc.err.Error()) {
					t.Errorf("err = %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("got\n%s\nwant it to hold\n%s", got, tc.want)
			}
			for _, k := range tc.keep {
				if !strings.HasPrefix(string(got), k) && !strings.Contains(string(got), k) {
					t.Errorf("got\n%s\nlost\n%s", got, k)
				}
			}
			st, err := ParseCodexState(got)
			if ok, why := st.Trusted(h); err != nil || !ok {
				t.Errorf("not trusted after: %v %s", err, why)
			}
			again, err := WithCodexTrust(got, h)
			if err != nil || string(again) != string(got) {
				t.Errorf("a second run changed it: %v\n%s", err, again)
			}
		})
	}
}
