package pipeline

import (
	"bytes"
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
// system call each on os.DirFS, and the directories read (an open, two
// getdents and a close on os.DirFS).
type countingFS struct {
	fs.ReadLinkFS
	mu    sync.Mutex
	asked map[string]int // "lstat NAME", "readlink NAME", "readdir NAME"
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

func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.count("readdir " + name)
	return fs.ReadDir(c.ReadLinkFS, name)
}

// TestHookLooksOnce checks that one hook call asks the file system about
// each name at most once: the policy cache's check, the watch check, the
// directories a confined command may write, and the decision (twice for a
// shell command the kernel cannot confine) share one view
// (classify.MemoFS). Each path below the project is otherwise inspected
// again by each of them, one lstat(2) per component, and the
// self-protected names of the project and the home directory (.claude,
// .codex, .safezone.yaml, ...) by the cache check and the decision.
//
// Each call is made with the policy loaded (no cache file yet; the call
// writes it once it is done with the view) and with the policy read from
// the cache a first call wrote: then every file the cache depends on is
// asked about through the view, once, and the home directory, whose
// self-protected names the check has asked about but one, is not read
// for the decision (a directory read costs four system calls, a lookup
// one).
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
	for _, cached := range []bool{false, true} {
		for _, tt := range tests {
			name := tt.name + "/loaded"
			if cached {
				name = tt.name + "/cached"
			}
			t.Run(name, func(t *testing.T) {
				s := *sys
				var deps []string
				s.cacheSettle = cacheSettleForTest
				settle()
				if err := os.RemoveAll(filepath.Join(s.StateDir(), "cache")); err != nil {
					t.Fatal(err)
				}
				if cached {
					if r := runHook(t, &s, strings.NewReader(tt.input)); r.decision != tt.want {
						t.Fatalf("first call: decision %s, want %s (stdout %s, stderr %s)", r.decision, tt.want, r.stdout, r.stderr)
					}
					files := cacheFiles(t, &s)
					if len(files) != 1 {
						t.Fatalf("%d policy cache files, want 1", len(files))
					}
					deps = cacheDeps(t, files[0])
				}
				c := &countingFS{ReadLinkFS: os.DirFS("/").(fs.ReadLinkFS), asked: map[string]int{}}
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
				for _, d := range append(deps, s.Executable) {
					if n := c.asked["lstat "+strings.TrimPrefix(d, "/")]; n != 1 {
						t.Errorf("the policy cache's %s: asked of the call's view %d times, want once", d, n)
					}
				}
				if home := strings.TrimPrefix(s.Getenv("HOME"), "/"); cached && c.asked["readdir "+home] > 0 {
					t.Errorf("the home directory was read: the policy cache's check asked about its names")
				}
				t.Logf("%d questions, %d names", total, len(c.asked))
			})
		}
	}
}

// cacheDeps returns the paths of the files a policy cache file depends
// on, as writePolicyCache lays them out.
func cacheDeps(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(policyCacheMagic)) || len(data) < len(policyCacheMagic)+8 {
		t.Fatalf("%s: no policy cache", file)
	}
	r := cacheReader{b: data[len(policyCacheMagic)+8:]}
	r.bytes() // the key
	var deps []string
	for n := r.uint(); n > 0 && !r.bad; n-- {
		deps = append(deps, string(r.bytes()))
		if r.byte() == 1 {
			r.id()
		}
	}
	if r.bad || len(deps) == 0 {
		t.Fatalf("%s: no dependencies read (%d)", file, len(deps))
	}
	return deps
}
