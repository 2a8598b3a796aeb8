package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// BenchmarkHookCall times one hook call in the process, as scripts/bench's
// calls make it (the embedded default policy, read back from the policy
// cache; an Edit of a warned file in acceptEdits, a Bash command, a Read),
// from stdin to the answer: the cache's check, the watch check and the
// decision, without the process start. The system calls each makes are
// scripts/bench's breakdown (strace).
func BenchmarkHookCall(b *testing.B) {
	sys, dir := testSystem(b)
	sys.cacheSettle = cacheSettleForTest
	if err := os.WriteFile(filepath.Join(dir, "proj/src/main.go"), []byte("package main\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	proj := dir + "/proj"
	edit := pipelinetest.Input("Edit", proj, map[string]any{"file_path": proj + "/src/main.go", "old_string": "main", "new_string": "app"})
	edit = strings.Replace(edit, `"permission_mode":"default"`, `"permission_mode":"acceptEdits"`, 1)
	calls := []struct{ name, input string }{
		{"Edit", edit},
		{"Bash", pipelinetest.Input("Bash", proj, map[string]any{"command": "grep -rn TODO src | sort | head -20 > agent_sandbox/todo.txt && wc -l agent_sandbox/todo.txt"})},
		{"Read", pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/src/main.go"})},
	}
	settle()
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			var out, errb bytes.Buffer
			call := func() {
				out.Reset()
				errb.Reset()
				s := *sys
				if code := Run(nil, false, strings.NewReader(c.input), &out, &errb, &s); code != 0 {
					b.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
				}
			}
			call() // writes the policy cache
			if files, _ := filepath.Glob(filepath.Join(sys.StateDir(), "cache", "policy-*")); len(files) != 1 {
				b.Fatalf("%d policy cache files, want 1", len(files))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				call()
			}
		})
	}
}
