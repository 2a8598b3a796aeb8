package hookio

import (
	"strings"
	"testing"
)

// TestParseEditErrors pins what parseEdit says about a configuration file
// it will not edit, with the line of the problem.
func TestParseEditErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"lone surrogate, which would be rewritten as U+FFFD", "{\n\"a\": \"\\udc00\"}", `line 2: lone UTF-16 low surrogate escape \uDC00 in a string`},
		{"repeated name deep inside", "{\"hooks\": {\"PreToolUse\": [\n{\"matcher\": \"*\",\n \"matcher\": \"x\"}]}}", `line 3: hooks.PreToolUse[0]: key "matcher" appears twice`},
		{"too deep", "{\"a\":\n" + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "}", "line 2: nested deeper than 64 levels"},
		{"trailing comma", "{\"a\": 1,\n}", "line 1: invalid character ',' at start of value"},
		{"block comment", "/* x */ {}", "line 1: invalid character '/' at start of value (comments and trailing commas are not JSON"},
		{"truncated on line 2", "{\n\"a\":", "line 2: unexpected end of input"},
		{"second value", "{}\n\n[]", "line 3: trailing data after the JSON value"},
	}
	for _, tt := range tests {
		_, err := parseEdit([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: parseEdit(%q) = %v, want an error with %q", tt.name, tt.in, err, tt.want)
		}
	}
	// Names that differ only in case are different names here: Copilot
	// CLI's files may hold both preToolUse and PreToolUse.
	if _, err := parseEdit([]byte(`{"preToolUse":[],"PreToolUse":[]}`)); err != nil {
		t.Errorf("case variants refused: %v", err)
	}
}

// FuzzRegister: Register never panics; it refuses with an error and no
// content, or returns plain JSON in which a second registration changes
// nothing.
//
//	go test ./hookio -run '^$' -fuzz FuzzRegister -fuzztime 60s
func FuzzRegister(f *testing.F) {
	for _, fixtures := range registerFixtures {
		for _, fx := range fixtures {
			f.Add(fx.in)
		}
	}
	f.Add(`{"version":1,"hooks":{"PreToolUse":[{"command":"safezone"}],"preToolUse":[]}}`)
	f.Add(`{"a":"\u00e9\u2028","b":[1.50,-0,1e400]}`)
	f.Fuzz(func(t *testing.T, in string) {
		for _, host := range []string{"claude", "gemini", "copilot", "cursor"} {
			out, err := Register(host, []byte(in), regCmd+host)
			if err != nil {
				if out != nil {
					t.Fatalf("%s: content with an error", host)
				}
				continue
			}
			if _, err := parseEdit(out); err != nil {
				t.Fatalf("%s: output is not plain JSON: %v\n%s", host, err, out)
			}
			again, err := Register(host, out, regCmd+host)
			if err != nil || string(again) != string(out) {
				t.Fatalf("%s: a second call changed the file (%v):\n%s\n%s", host, err, out, again)
			}
		}
	})
}
