//go:build linux

package shell

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/safezonehq/safezone/policy/glob"
)

// TestShellKernelGlobForms extends the kernel oracle (TestShellKernel) to
// glob forms generated from a seed: bracket expressions (ranges, sets,
// classes, negation, escapes, a leading "]"), "?", "*", extended globs,
// capitals under nocaseglob, "*/..", "**" under globstar, each after a
// prefix that sets shell options (shopt, set -f/+f, GLOBIGNORE, in a
// subshell or a function), in reads, redirections and writes, over a
// fixture of secrets, hidden directories, dotted directory names, mixed
// case and a symbolic link. bash runs each under bwrap and strace; every
// path the kernel saw opened must be a name the analysis's globs expand
// to (glob.Expand over the fixture, with the options the analysis found
// in force; the word itself when nothing matches), a target, or a
// directory bash listed. A form the hook would not let run unasked (the
// analysis unknown, an expansion past its limits, nullglob dropping a
// word) is not run.
func TestShellKernelGlobForms(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs the generated glob forms for real")
	}
	if why := kernelUsable(t.TempDir()); why != "" {
		t.Skip("TestShellKernelGlobForms skipped: " + why)
	}
	template := globFormsFixture(t)
	forms := globForms(rand.New(rand.NewPCG(21, 500)), 400)
	var ran, skipped, matched atomic.Int64
	base := t.TempDir()
	var seq atomic.Int64
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cmd := range work {
				dir := filepath.Join(base, fmt.Sprint(seq.Add(1)))
				msgs, run, hits, err := globFormCheck(dir, template, cmd)
				os.RemoveAll(dir)
				switch {
				case run:
					ran.Add(1)
				case err == nil:
					skipped.Add(1)
				}
				if hits {
					matched.Add(1)
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
	for _, f := range forms {
		work <- f
	}
	close(work)
	wg.Wait()
	t.Logf("%d glob forms generated; %d run under the kernel and compared (%d whose globs matched files), %d unknown or past the expansion's limits (not run)",
		len(forms), ran.Load(), matched.Load(), skipped.Load())
	if ran.Load() < 300 {
		t.Errorf("only %d forms ran; the oracle wants 300", ran.Load())
	}
}

// globFormsFixture builds the fixture once: the project p, the home h.
func globFormsFixture(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "template")
	for _, f := range []string{
		"p/.env", "p/.env.local", "p/.envrc", "p/.env.example", "p/key.pem", "p/CERT.PEM", "p/.git/config",
		"p/.git/hooks/pre-commit", "p/.gitignore", "p/src/a.go", "p/src/b.txt", "p/src/.env", "p/src/sub/deep.go",
		"p/dir.with.dots/x.env", "p/README.md", "p/Readme.txt", "p/UPPER", "p/x", "p/notes.txt", "p/[x]",
		"p/node_modules/p/index.js", "h/.keep",
	} {
		full := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("a line of "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("src", filepath.Join(root, "p", "link")); err != nil {
		t.Fatal(err)
	}
	return root
}

// globFormCheck copies the fixture into dir, analyses cmd there and, when
// the hook would let it run, runs it under the kernel and returns every
// kernel event the expansion does not account for. hits: its globs
// matched some file.
func globFormCheck(dir, template, cmd string) (msgs []string, ran, hits bool, err error) {
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		return nil, false, false, err
	}
	fx := filepath.Join(dir, "f")
	if out, err := exec.Command("cp", "-a", template, fx).CombinedOutput(); err != nil {
		return nil, false, false, fmt.Errorf("copying the fixture: %v: %s", err, out)
	}
	fx = resolvedDir(fx)
	cwd, home := filepath.Join(fx, "p"), filepath.Join(fx, "h")
	r := &kernelRun{Cmd: cmd, Fixture: fx, Home: home}
	r.Analysis = Analyze(cmd, Env{Cwd: cwd, Home: home, ProjectDir: cwd, TmpDir: kernelTmpDir, ReadFile: readSmallFile})
	if !r.Analysis.Known() {
		return nil, false, false, nil
	}
	names, hits, ok := expandedNames(&r.Analysis)
	if !ok {
		return nil, false, false, nil
	}
	r.Events, err = traceCommand(dir, cwd, home, cmd, nil)
	if err != nil {
		return nil, true, hits, err
	}
	targets := analysisTargets(&r.Analysis)
	var plain []Target
	for _, t := range targets {
		if !t.Glob {
			plain = append(plain, t)
		}
	}
events:
	for i := range r.Events {
		e := &r.Events[i]
		for _, x := range kernelExclusions {
			if x.skip(r, e) {
				continue events
			}
		}
		switch {
		case covered(plain, e):
		case slices.Contains(names, e.Path):
		case e.Access == Read && strings.Contains(e.Line, "O_DIRECTORY") && within(fx, e.Path):
			// bash lists a directory to expand a glob
		case e.Access == Write && strings.HasPrefix(filepath.Base(e.Path), "sed") && slices.ContainsFunc(names, func(n string) bool { return filepath.Dir(n) == filepath.Dir(e.Path) }):
			// sed -i's temporary file beside a name it edits (kernelExclusions)
		default:
			msgs = append(msgs, fmt.Sprintf("kernel %s of %s is not among the names the globs expand to %q nor the targets %v\n\t%s",
				accessWord(e.Access), e.Path, names, describeTargets(plain), e.Line))
		}
	}
	return msgs, true, hits, nil
}

// expandedNames returns the paths (joined to the working directory,
// cleaned as the kernel events are) that the analysis's glob targets
// expand to over the fixture as it is, with each set of options: the word
// itself where nothing matches or set -f holds. ok is false where the hook
// would make the command unknown (past a limit, nullglob dropping a word).
func expandedNames(a *Analysis) (names []string, hits, ok bool) {
	for _, t := range analysisTargets(a) {
		if !t.Glob {
			continue
		}
		pat, base, literal := t.Path, "/", glob.Unescape(t.Path)
		if t.GlobDir != "" {
			p := strings.TrimSuffix(glob.Escape(t.GlobDir), "/") + "/"
			pat, base, literal = strings.TrimPrefix(t.Path, p), t.GlobDir, filepath.Join(t.GlobDir, t.Given)
		}
		for _, o := range t.GlobOpts {
			if o.NoGlob {
				names = append(names, filepath.Clean(literal))
				continue
			}
			got, err := glob.Expand(osGlobFS{base}, pat, o, 1000)
			switch {
			case err != nil:
				return nil, false, false
			case len(got) == 0 && o.NullGlob:
				return nil, false, false
			case len(got) == 0:
				names = append(names, filepath.Clean(literal))
			}
			for _, n := range got {
				hits = true
				if !filepath.IsAbs(n) {
					n = filepath.Join(base, n)
				}
				names = append(names, filepath.Clean(n))
			}
		}
	}
	return names, hits, true
}

// osGlobFS is glob.DirFS on the real file system, names relative to dir.
type osGlobFS struct{ dir string }

func (f osGlobFS) abs(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return f.dir + "/" + name
}

func (f osGlobFS) ReadDir(name string) ([]string, error) {
	ents, err := os.ReadDir(f.abs(name))
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out, err
}

func (f osGlobFS) Stat(name string) (fs.FileMode, error) {
	fi, err := os.Stat(f.abs(name))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

func (f osGlobFS) Lstat(name string) (fs.FileMode, error) {
	fi, err := os.Lstat(f.abs(name))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// globFormPrefixes set the shell options the glob expands with; extglob
// must be on at parse time, so its prefix ends the line.
var globFormPrefixes = []struct {
	text string
	opts glob.ShellOptions
}{
	{"", glob.ShellOptions{}},
	{"shopt -s dotglob; ", glob.ShellOptions{DotGlob: true}},
	{"shopt -s nocaseglob; ", glob.ShellOptions{NoCaseGlob: true}},
	{"shopt -s extglob\n", glob.ShellOptions{ExtGlob: true}},
	{"shopt -s extglob dotglob\n", glob.ShellOptions{ExtGlob: true, DotGlob: true}},
	{"shopt -s globstar; ", glob.ShellOptions{GlobStar: true}},
	{"GLOBIGNORE=README.md; ", glob.ShellOptions{DotGlob: true}},
	{"GLOBIGNORE=x ", glob.ShellOptions{}},
	{"GLOBIGNORE=x true; ", glob.ShellOptions{}},
	{"set -f; ", glob.ShellOptions{NoGlob: true}},
	{"set -f; set +f; ", glob.ShellOptions{}},
	{"(shopt -s dotglob); ", glob.ShellOptions{}},
	{"f() { shopt -s dotglob; }; f; ", glob.ShellOptions{DotGlob: true}},
	{"test -f x && shopt -s dotglob; ", glob.ShellOptions{DotGlob: true}},
	{"shopt -s dotglob; shopt -u dotglob; ", glob.ShellOptions{}},
	{"shopt -u globskipdots; ", glob.ShellOptions{KeepDots: true}},
	{"shopt -s failglob; ", glob.ShellOptions{}},
}

// globFormTargets are the fixture's names a form aims at.
var globFormTargets = []string{".env", ".env.local", ".envrc", "key.pem", "CERT.PEM", "README.md", "notes.txt",
	"src/a.go", "src/.env", ".git/config", ".git/hooks/pre-commit", "dir.with.dots/x.env", "UPPER", "src/sub/deep.go", "link/b.txt"}

// globFormCommands put the word in a read, a redirection or a write.
var globFormCommands = []string{"cat %s", "cat < %s", "head -c1 %s", "wc -c %s", "grep -c a %s",
	"sed -i s/a/b/ %s", "truncate -s0 %s", "touch %s", "cp x %s"}

// globForms draws n distinct forms.
func globForms(r *rand.Rand, n int) []string {
	var out []string
	seen := map[string]bool{}
	for len(out) < n {
		pre := globFormPrefixes[r.IntN(len(globFormPrefixes))]
		name := globFormTargets[r.IntN(len(globFormTargets))]
		word := globWord(r, name, pre.opts)
		cmd := pre.text + fmt.Sprintf(globFormCommands[r.IntN(len(globFormCommands))], word)
		if !seen[cmd] {
			seen[cmd] = true
			out = append(out, cmd)
		}
	}
	return out
}

// globWord spells a pattern that aims at name: a few characters of its
// last element replaced by a form that takes them (a bracket expression,
// "?", "*", an extended glob), or a directory replaced by "*/..", "**".
func globWord(r *rand.Rand, name string, o glob.ShellOptions) string {
	dir, base := filepath.Split(name)
	var b strings.Builder
	runes := []rune(base)
	for i := 0; i < len(runes); i++ {
		c := runes[i]
		switch k := r.IntN(14); {
		case k < 6:
			b.WriteString(bracketFor(r, c))
		case k == 6:
			b.WriteByte('?')
		case k == 7 && i == len(runes)-1:
			b.WriteByte('*')
		case k == 8 && o.ExtGlob:
			op := "@+?*"[r.IntN(4)]
			fmt.Fprintf(&b, "%c(%s|zz)", op, shellLit(c))
		case k == 9 && o.NoCaseGlob && c >= 'a' && c <= 'z':
			b.WriteRune(c - 'a' + 'A')
		default:
			b.WriteString(shellLit(c))
		}
	}
	word := b.String()
	switch {
	case dir == "" && r.IntN(5) == 0:
		dir = "*/../"
	case dir != "" && o.GlobStar && r.IntN(3) == 0:
		dir = "**/"
	case dir != "" && r.IntN(4) == 0:
		dir = bracketFor(r, rune(dir[0])) + dir[1:]
	}
	return dir + word
}

// bracketFor returns a bracket expression that takes c.
func bracketFor(r *rand.Rand, c rune) string {
	lit := shellClassLit(c)
	switch r.IntN(7) {
	case 0: // a range around it
		lo, hi := c-rune(r.IntN(3)), c+rune(r.IntN(3))
		return "[" + shellClassLit(lo) + "-" + shellClassLit(hi) + "]"
	case 1: // a set
		return "[" + lit + "qz]"
	case 2: // a class
		switch {
		case c >= 'a' && c <= 'z':
			return "[[:lower:]]"
		case c >= 'A' && c <= 'Z':
			return "[[:upper:]]"
		case c >= '0' && c <= '9':
			return "[[:digit:]]"
		}
		return "[[:punct:]]"
	case 3: // negation
		return "[!" + shellClassLit(c^1) + "]"
	case 4:
		return "[^" + shellClassLit(c^1) + "]"
	case 5: // a leading ]
		return "[]" + lit + "]"
	}
	return "[\\" + string(c) + "]" // an escape inside
}

// shellLit writes c as a word character, quoted where the shell would
// read it otherwise.
func shellLit(c rune) string {
	if strings.ContainsRune("[]*?\\(){}|&;<>$`'\" !#~", c) {
		return "\\" + string(c)
	}
	return string(c)
}

// shellClassLit writes c inside a bracket expression.
func shellClassLit(c rune) string {
	if c < 0x21 || c > 0x7e {
		return "a"
	}
	if strings.ContainsRune("]\\!^-(){}|&;<>$`'\" #~", c) {
		return "\\" + string(c)
	}
	return string(c)
}
