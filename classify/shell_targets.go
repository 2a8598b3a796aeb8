package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// maxGlobMatches bounds the expansion of one glob in a shell command; past
// it the command's targets are unknown.
const maxGlobMatches = 1000

// maxGlobDirs bounds the directories the globs of one shell command may
// read while expanding: "cat /*/*/*/*/*/x*" would otherwise walk the whole
// disk before the hook's deadline. Past it the command is unknown.
const maxGlobDirs = 1000

var (
	errTooManyMatches = errors.New("too many matches")
	errTooManyDirs    = errors.New("too many directories")
)

// budgetFS counts the directories a walk of a policy pattern reads
// (ReadDir), and fails past the budget.
type budgetFS struct {
	fs.ReadLinkFS
	left *int
}

func (b budgetFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if *b.left <= 0 {
		return nil, errTooManyDirs
	}
	*b.left--
	return fs.ReadDir(b.ReadLinkFS, name)
}

// shellDirFS is the file system a shell glob expands against
// (glob.DirFS): the names bash builds, relative to dir or absolute, are
// resolved as the kernel walks them ([Resolve]), so "src/../.env" goes
// through src; every directory read counts against the command's budget.
type shellDirFS struct {
	fsys fs.ReadLinkFS
	dir  string
	left *int
}

func (s shellDirFS) abs(name string) string {
	if strings.HasPrefix(name, "/") {
		return name
	}
	return strings.TrimSuffix(s.dir, "/") + "/" + name
}

// ReadDir lists a directory (opendir follows links), within the budget.
func (s shellDirFS) ReadDir(name string) ([]string, error) {
	if *s.left <= 0 {
		return nil, fmt.Errorf("%w: %w", glob.ErrStop, errTooManyDirs)
	}
	res, err := Resolve(s.fsys, s.abs(name))
	switch {
	case err != nil:
		return nil, err
	case !res.Exists || !res.Dir:
		return nil, fs.ErrNotExist
	}
	*s.left--
	rel := strings.TrimPrefix(res.Path, "/")
	if rel == "" {
		rel = "."
	}
	ents, err := fs.ReadDir(s.fsys, rel)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names, nil
}

// Stat is stat(2): the file the name leads to.
func (s shellDirFS) Stat(name string) (fs.FileMode, error) {
	res, err := Resolve(s.fsys, s.abs(name))
	switch {
	case err != nil:
		return 0, err
	case !res.Exists:
		return 0, fs.ErrNotExist
	case res.Dir:
		return fs.ModeDir, nil
	}
	return 0, nil
}

// Lstat is lstat(2): the name itself, its directory resolved.
func (s shellDirFS) Lstat(name string) (fs.FileMode, error) {
	abs := s.abs(name)
	i := strings.LastIndexByte(abs, '/')
	parent, base := abs[:i], abs[i+1:]
	if base == "" || base == "." || base == ".." {
		return s.Stat(name)
	}
	if parent == "" {
		parent = "/"
	}
	res, err := Resolve(s.fsys, parent)
	switch {
	case err != nil:
		return 0, err
	case !res.Exists || !res.Dir:
		return 0, fs.ErrNotExist
	}
	fi, err := s.fsys.Lstat(strings.TrimPrefix(strings.TrimSuffix(res.Path, "/")+"/"+base, "/"))
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}

// shellTargets turns the analysis of a shell command into targets: plain
// paths are resolved like any file tool's; a glob is expanded against the
// file system as bash 5.2 does (glob.Expand: bracket expressions, classes,
// extended globs, with the shell options the analysis found in force
// there; bounded), each name becoming a target judged like any path ("cat
// .e[a-z]v" reads .env, "cat */../.env" reads it through each directory),
// and its literal directory is a target too (so a glob in a directory
// outside is outside). A glob that matches nothing is passed on as it is,
// as bash does: a literal file name (unless nullglob may drop it, which
// shifts the operands after it: unknown). A glob that matches nothing, or
// in a line where another command may create files before it expands, is
// also a pattern target (glob.FromShell), judged against deny, ask and
// protected patterns: "cat .e*" names .env even when it does not exist
// yet. One that matches too much, or whose answer would depend on the
// locale, makes its command unknown.
func shellTargets(sa *shell.Analysis, fsys fs.ReadLinkFS) []Target {
	n := 0
	for ci := range sa.Commands {
		n += len(sa.Commands[ci].Targets)
	}
	out := make([]Target, 0, n) // a glob may add more
	dirs := maxGlobDirs
	for ci := range sa.Commands {
		cmd := &sa.Commands[ci]
		for _, st := range cmd.Targets {
			switch {
			case st.Pattern:
				out = append(out, patternTarget(st, ci, fsys))
			case st.Glob:
				ts, why := expandShellGlob(st, ci, fsys, &dirs, othersWrite(sa, ci))
				if why != "" && cmd.Unknown == "" {
					cmd.Unknown = why
				}
				out = append(out, ts...)
			default:
				t := newTarget(fsys, "command", st.Given, st.Path, accessOf(st.Access))
				t.Cmd, t.Recursive, t.Members, t.WorkDir, t.Below = ci, st.Recursive, st.Members, st.Cwd, st.Below
				out = append(out, t)
			}
		}
	}
	return out
}

// patternTarget is the target of a shell pattern (find -name, grep
// --include): its glob and exceptions as the command names them, and, when
// the literal directory they start with resolves elsewhere (a symbolic
// link), spelled from there too, as the kernel reaches the files.
func patternTarget(st shell.Target, ci int, fsys fs.ReadLinkFS) Target {
	t := Target{Field: "command", Given: st.Given, Access: accessOf(st.Access), Abs: st.Path, Cmd: ci,
		Globs: []string{st.Path}, Excepts: [][]string{st.Except}}
	dir, _ := glob.LiteralPrefix(st.Path)
	if !strings.HasPrefix(dir, "/") {
		return t
	}
	res, err := Resolve(fsys, dir)
	if err != nil || res.Path == path.Clean(dir) {
		return t
	}
	from, to := glob.Escape(dir), glob.Escape(res.Path)
	respell := func(g string) string {
		if rest, ok := strings.CutPrefix(g, from); ok && (rest == "" || rest[0] == '/') {
			return strings.TrimSuffix(to, "/") + rest
		}
		return g
	}
	except := make([]string, len(st.Except))
	for i, e := range st.Except {
		except[i] = respell(e)
	}
	t.Globs = append(t.Globs, respell(st.Path))
	t.Excepts = append(t.Excepts, except)
	return t
}

// othersWrite reports whether a command of the line other than the ci-th
// may create files: it writes, or runs a program whose own accesses are
// not known.
func othersWrite(sa *shell.Analysis, ci int) bool {
	for i := range sa.Commands {
		c := &sa.Commands[i]
		if i == ci || c.ReadOnly && c.Runs == "" {
			continue
		}
		if c.Runs != "" {
			return true
		}
		for _, t := range c.Targets {
			if t.Access == shell.Write {
				return true
			}
		}
	}
	return false
}

// expandShellGlob expands the glob target st with each set of options
// that may be in force (shell.Target.GlobOpts); others: another command
// of the line may create files before it.
func expandShellGlob(st shell.Target, ci int, fsys fs.ReadLinkFS, dirs *int, others bool) ([]Target, string) {
	target := func(given, abs string) Target {
		t := newTarget(fsys, "command", given, abs, accessOf(st.Access))
		t.Cmd, t.Recursive, t.Members, t.Below = ci, st.Recursive, st.Members, st.Below
		return t
	}
	prefix, _ := glob.LiteralPrefix(st.Path)
	dir := newTarget(fsys, "command", path.Dir(st.Given)+" (the directory of "+st.Given+")", prefix, accessOf(st.Access))
	dir.Cmd = ci
	out := []Target{dir}
	if dir.Err != nil {
		return out, ""
	}
	// bash expands a relative glob from its directory, and GLOBIGNORE
	// matches the names it builds there.
	pat, base, literal := st.Path, "/", glob.Unescape(st.Path)
	if st.GlobDir != "" {
		if p := strings.TrimSuffix(glob.Escape(st.GlobDir), "/") + "/"; strings.HasPrefix(st.Path, p) {
			pat, base = st.Path[len(p):], st.GlobDir
			literal = strings.TrimSuffix(st.GlobDir, "/") + "/" + st.Given
		}
	} else if st.Via == "" {
		literal = st.Given
	}
	dfs := shellDirFS{fsys: fsys, dir: base, left: dirs}
	opts := st.GlobOpts
	if len(opts) == 0 {
		opts = []glob.ShellOptions{{}}
	}
	var globs []string
	seen := map[string]bool{}
	unmatched, why := false, ""
	for _, o := range opts {
		if o.NoGlob {
			if !seen[literal] {
				seen[literal] = true
				out = append(out, target(st.Given, literal))
			}
			continue
		}
		for _, g := range glob.FromShell(st.Path, o) {
			if !slices.Contains(globs, g) {
				globs = append(globs, g)
			}
		}
		names, err := glob.Expand(dfs, pat, o, maxGlobMatches)
		switch {
		case errors.Is(err, glob.ErrTooMany):
			return out, fmt.Sprintf("the glob %s matches more than %d paths", st.Given, maxGlobMatches)
		case errors.Is(err, errTooManyDirs):
			return out, fmt.Sprintf("the globs of the command read more than %d directories (%s)", maxGlobDirs, st.Given)
		case err != nil:
			return out, "the glob " + st.Given + " cannot be expanded: " + err.Error()
		case len(names) == 0 && o.NullGlob:
			why = "with nullglob, the glob " + st.Given + " that matches nothing makes no word: the operands after it shift"
		case len(names) == 0:
			unmatched = true
			if !seen[literal] {
				seen[literal] = true
				out = append(out, target(st.Given, literal))
			}
		}
		for _, n := range names {
			abs := n
			if !strings.HasPrefix(n, "/") {
				abs = strings.TrimSuffix(base, "/") + "/" + n
			}
			if !seen[abs] {
				seen[abs] = true
				out = append(out, target(n, abs))
			}
		}
	}
	if (unmatched || others || why != "") && len(globs) > 0 {
		out = append(out, Target{Field: "command", Given: st.Given, Access: accessOf(st.Access), Abs: st.Path, Globs: globs, Cmd: ci})
	}
	return out, why
}

// accessOf is the policy's access for a shell target's.
func accessOf(a shell.Access) policy.Access {
	if a == shell.Read {
		return policy.Read
	}
	return policy.Write
}
