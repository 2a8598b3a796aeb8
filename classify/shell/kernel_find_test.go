//go:build linux

package shell

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/safezonehq/safezone/policy/glob"
)

// TestShellKernelFind is TestShellKernel for find's expressions: it runs
// findKernelCount generated find commands (seeded, so every run generates
// the same ones) for real over a fixture tree, each in a fresh copy, under
// bwrap and strace, and checks that what the actions reached is covered
// by what the analysis says they reach. The check is stricter than
// TestShellKernel's: a file a program run by -exec opens, or one find
// itself removes or writes, must be matched by a pattern target of that
// program's command (or find's), its exceptions included, or be a plain
// target itself; a directory target covers what lies below it only as a
// recursive write or as a read (a branch that selects every file); globs
// match as policy/glob matches them (glob.Cache.Match), as classify
// judges pattern targets. Only
// find's own reads (it lists directories) are judged as TestShellKernel
// judges them. Commands the analysis calls unknown are not run.
//
// Run alone with: go test ./classify/shell -run TestShellKernelFind -v
func TestShellKernelFind(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the kernel test runs generated find commands for real")
	}
	if why := kernelUsable(t.TempDir()); why != "" {
		t.Skip("TestShellKernelFind skipped: " + why)
	}
	template := findFixture(t)
	cmds := findCommands(findKernelSeed, findKernelCount)
	var ran, unknown, acted atomic.Int64
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	base := t.TempDir()
	var seq atomic.Int64
	for range max(2, 2*runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cmd := range work {
				dir := filepath.Join(base, strconv.FormatInt(seq.Add(1), 10))
				msgs, didRun, n, err := findKernelCheck(dir, template, cmd)
				acted.Add(int64(n))
				os.RemoveAll(dir)
				if didRun {
					ran.Add(1)
				} else if err == nil {
					unknown.Add(1)
				}
				mu.Lock()
				if err != nil {
					t.Errorf("%q: %v", cmd, err)
				}
				for _, m := range msgs {
					t.Errorf("%q: %s", cmd, m)
				}
				mu.Unlock()
			}
		}()
	}
	for _, c := range cmds {
		work <- c
	}
	close(work)
	wg.Wait()
	t.Logf("%d generated find commands run under the kernel and compared (%d files their actions opened, removed or wrote), %d unknown to the analysis (never allowed, not run)", ran.Load(), acted.Load(), unknown.Load())
	if ran.Load() < findKernelMinRun {
		t.Errorf("only %d of %d generated find commands ran (want at least %d): the generator or the analysis drifted", ran.Load(), len(cmds), findKernelMinRun)
	}
}

// The generated commands: their seed, how many, and how many of them the
// analysis must know (the others are unknown, and not run).
const (
	findKernelSeed   = 21
	findKernelCount  = 300
	findKernelMinRun = 250
)

// findFixtureFiles are the fixture's files, below its project directory p.
var findFixtureFiles = []string{
	".env", ".env.local", ".env.example", ".envrc", "a.tmp", "B.TMP", "key.pem", "README.md", "odd name.txt",
	"src/main.go", "src/util.go", "src/.env", "src/x.tmp", "src/k.PEM", "src/sub/deep.go",
	"docs/a.md", "docs/B.MD", "build/o.tmp", "build/sub/p.o",
	".git/config", ".git/HEAD", ".git/hooks/pre-commit", ".git/x.tmp",
	"node_modules/m/index.js", "empty/",
}

// findFixture builds the template tree once: the project p, the home h.
func findFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "template")
	for _, f := range findFixtureFiles {
		full := filepath.Join(root, "p", f)
		if dir, ok := strings.CutSuffix(full, "/"); ok || strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "h"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// findKernelCheck copies the template into dir, analyses cmd there and,
// when the analysis is known, runs it and returns every event no target
// covers (see TestShellKernelFind), and how many events of the actions
// (not find's own reads) were compared.
func findKernelCheck(dir, template, cmd string) (msgs []string, ran bool, acted int, err error) {
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		return nil, false, 0, err
	}
	fx := filepath.Join(dir, "f")
	if out, err := exec.Command("cp", "-a", template, fx).CombinedOutput(); err != nil {
		return nil, false, 0, fmt.Errorf("copying the fixture: %v: %s", err, out)
	}
	fx = resolvedDir(fx)
	cwd, home := filepath.Join(fx, "p"), filepath.Join(fx, "h")
	r := &kernelRun{Cmd: cmd, Fixture: fx, Home: home}
	r.Analysis = Analyze(cmd, Env{Cwd: cwd, Home: home, ProjectDir: cwd, TmpDir: kernelTmpDir})
	if !r.Analysis.Known() {
		return nil, false, 0, nil
	}
	r.Events, err = traceCommand(dir, cwd, home, cmd, nil)
	if err != nil {
		return nil, true, 0, err
	}
events:
	for i := range r.Events {
		e := &r.Events[i]
		for _, x := range kernelExclusions {
			if x.skip(r, e) {
				continue events
			}
		}
		if e.Exe == "bash" && e.Access == Read {
			continue // bash reading its own startup files or the program it runs
		}
		if e.Exe != "find" || e.Access == Write {
			acted++
		}
		if !findCovered(&r.Analysis, e) {
			var ts []string
			for _, c := range r.Analysis.Commands {
				for _, t := range c.Targets {
					ts = append(ts, c.Argv[0]+": "+accessWord(t.Access)+" "+t.Path+strings.Join(t.Except, " !"))
				}
			}
			msgs = append(msgs, fmt.Sprintf("kernel %s of %s by %s not among the targets %q\n\t%s", accessWord(e.Access), e.Path, e.Exe, ts, e.Line))
		}
	}
	return msgs, true, acted, nil
}

// findCovered reports whether a target of the command that made event e
// covers it: find's own reads as TestShellKernel judges them; anything
// else by a pattern matching the path (and none of its exceptions), the
// path itself, or a directory above it read, or written recursively.
func findCovered(a *Analysis, e *kernelEvent) bool {
	for _, c := range a.Commands {
		if len(c.Argv) == 0 || filepath.Base(c.Argv[0]) != e.Exe {
			continue
		}
		if e.Exe == "find" && e.Access == Read && covered(c.Targets, e) {
			return true
		}
		for _, t := range c.Targets {
			if e.Access == Write && t.Access != Write {
				continue
			}
			if t.Pattern {
				if glob.Cache(nil).Match(t.Path, e.Path) && !slices.ContainsFunc(t.Except, func(x string) bool {
					return glob.Cache(nil).Match(x, e.Path)
				}) {
					return true
				}
				continue
			}
			tp := filepath.Clean(t.Path)
			if tp == e.Path || within(tp, e.Path) && (t.Recursive || t.Access == Read) {
				return true
			}
		}
	}
	return false
}
