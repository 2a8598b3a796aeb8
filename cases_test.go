package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestExamplePolicyTests runs examples/policy-test.yaml as a fresh clone
// would (no CLAUDE_PROJECT_DIR, the working directory as the project, no
// policy file: the built-in default): every case passes.
func TestExamplePolicyTests(t *testing.T) {
	sys, _ := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(t.TempDir(), map[string]string{"HOME": t.TempDir()})
	var out, errb bytes.Buffer
	code := cmdTest([]string{"-v", "examples/policy-test.yaml"}, &out, &errb, sys)
	if code != 0 || !strings.HasSuffix(out.String(), "8 passed, 0 failed\n") {
		t.Errorf("exit %d:\n%s%s", code, out.String(), errb.String())
	}
}

// TestCaseInputJSON: a case's YAML input becomes the JSON the host sends,
// each scalar by its YAML type, with cwd under the project root.
func TestCaseInputJSON(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ yaml, want string }{
		{"{tool_name: Read, tool_input: {file_path: a}}", `{"tool_name":"Read","tool_input":{"file_path":"a"},"cwd":"/p"}`},
		{"{cwd: sub, n: 7, s: '007', f: 1.5, b: true, z: null, d: 2026-11-22, l: [x, {y: 1}]}", `{"n":7,"s":"007","f":1.5,"b":true,"z":null,"d":"2026-11-22","l":["x",{"y":1}],"cwd":"/p/sub"}`},
		{"{cwd: /abs, a: &x [1], b: *x}", `{"a":[1],"b":[1],"cwd":"/abs"}`},
	}
	for _, tt := range tests {
		f := dir + "/c.yaml"
		writeFile(t, f, "- name: x\n  input: "+tt.yaml+"\n  expect: deny\n")
		cs, err := loadCases(f, "/p")
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %v", tt.yaml, err)
		}
		if string(cs[0].input) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.yaml, cs[0].input, tt.want)
		}
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
