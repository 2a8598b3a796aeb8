package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// countingFS counts the Lstat and ReadLink questions asked of a view, one
// system call each on os.DirFS.
type countingFS struct {
	fs.ReadLinkFS
	mu    sync.Mutex
	asked map[string]int // "lstat NAME", "readlink NAME"
}

func (c *countingFS) count(q string) {
	c.mu.Lock()
	c.asked[q]++
	c.mu.Unlock()
}

func (c *countingFS) Lstat(name string) (fs.FileInfo, error) {
	c.count("lstat " + name)
	return c.ReadLinkFS.Lstat(name)
}

func (c *countingFS) ReadLink(name string) (string, error) {
	c.count("readlink " + name)
	return c.ReadLinkFS.ReadLink(name)
}

// TestHookLooksOnce checks that one hook call asks the file system about
// each name at most once: the watch check, the directories a confined
// command may write, and the decision (twice for a shell command the
// kernel cannot confine) share one view (classify.MemoFS). Each path
// below the project is otherwise inspected again by each of them, one
// lstat(2) per component.
func TestHookLooksOnce(t *testing.T) {
	sys, dir := testSystem(t)
	// The kernel cannot confine: a shell command is decided again,
	// without confinement, and nothing is made on the disk for it.
	sys.Confine = &OnceStatus{Get: func() confine.Status {
		return confine.Status{Landlock: fmt.Errorf("%w: test", confine.ErrUnavailable)}
	}}
	for _, f := range []string{"proj/README.md", "proj/src/main.go"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proj := dir + "/proj"
	tests := []struct {
		name, input, want string
	}{
		{"write", pipelinetest.Input("Write", proj, map[string]any{"file_path": proj + "/src/new.go", "content": "x"}), "abstain"},
		{"read", pipelinetest.Input("Read", proj, map[string]any{"file_path": proj + "/README.md"}), "allow"},
		{"bash", pipelinetest.Input("Bash", proj, map[string]any{"command": "grep -rn TODO src | sort | head -20 > agent_sandbox/todo.txt && wc -l agent_sandbox/todo.txt"}), "abstain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingFS{ReadLinkFS: os.DirFS("/").(fs.ReadLinkFS), asked: map[string]int{}}
			s := *sys
			s.FS = c
			r := runHook(t, &s, strings.NewReader(tt.input))
			if r.decision != tt.want {
				t.Fatalf("decision %s, want %s (stdout %s, stderr %s)", r.decision, tt.want, r.stdout, r.stderr)
			}
			total := 0
			for q, n := range c.asked {
				total += n
				if n > 1 {
					t.Errorf("%s asked %d times in one call", q, n)
				}
			}
			t.Logf("%d questions, %d names", total, len(c.asked))
		})
	}
}
