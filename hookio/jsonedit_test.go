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
