package hookio

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopilotRunsUnaskedMeasured: Copilot.RunsUnasked is never true for a
// form Copilot CLI 1.0.102 was seen to ask about
// (testdata/hosts/copilot/unasked.md), and true for the plainest ones it
// ran; in another mode it is always false.
func TestCopilotRunsUnaskedMeasured(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "hosts", "copilot", "unasked.md"))
	if err != nil {
		t.Fatal(err)
	}
	world := unaskedWorld{files: map[string]fs.FileMode{"/r/proj/.git": fs.ModeDir, "/r/proj/README.md": 0, "/r/proj/src": fs.ModeDir}}
	env := UnaskedEnv{Cwd: "/r/proj", Roots: []string{"/r/proj"}, Resolve: world.resolve, Lstat: world.env("/r/proj").Lstat}
	rows, unasked := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		form, rest, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "` | ")
		if !ok {
			t.Fatalf("bad row %q", line)
		}
		measured := strings.TrimSuffix(rest, " |")
		if measured != "ran" && measured != "asked" {
			t.Fatalf("bad row %q", line)
		}
		rows++
		got := Copilot{}.RunsUnasked(PermDefault, form, env)
		if got && measured == "asked" {
			t.Errorf("%q: RunsUnasked, but Copilot asked about it", form)
		}
		if got {
			unasked++
		}
		for _, m := range []PermissionMode{PermAcceptEdits, PermPlan, PermBypass} {
			if (Copilot{}).RunsUnasked(m, form, env) {
				t.Errorf("%q: RunsUnasked in mode %v", form, m)
			}
		}
	}
	for _, form := range []string{"cat README.md", "ls -la", "git status", "cat README.md | wc -l", "ls && pwd", "find . -name '*.md'"} {
		if !(Copilot{}).RunsUnasked(PermDefault, form, env) {
			t.Errorf("%q: not RunsUnasked, although both hosts ran it", form)
		}
	}
	t.Logf("%d measured forms, %d of them judged unasked", rows, unasked)
	if rows < 70 {
		t.Errorf("only %d rows read", rows)
	}
}
