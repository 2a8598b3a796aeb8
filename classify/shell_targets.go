package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/policy/glob"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/policy"
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

// budgetFS counts the directories a glob expansion reads (ReadDir), and
// fails past the budget.
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

// shellTargets turns the analysis of a shell command into targets: plain
// paths are resolved like any file tool's; a glob is expanded against the
// file system as bash does (bounded; without dotglob, so "*" does not match
// a leading "."), each match becoming a target judged like any path ("cat
// .e*" reads .env), and its literal directory is a target too (so a glob
// in a directory outside is outside). A glob that matches nothing, or that
// is not a valid pattern ("notes[*"), is passed on as it is, as bash does: a
// literal file name. One that matches too much makes its command unknown.
func shellTargets(sa *shell.Analysis, fsys fs.ReadLinkFS) []Target {
	var out []Target
	dirs := maxGlobDirs
	globFS := budgetFS{fsys, &dirs}
	for ci := range sa.Commands {
		cmd := &sa.Commands[ci]
		for _, st := range cmd.Targets {
			switch {
			case st.Pattern:
				out = append(out, patternTarget(st, ci, fsys))
			case st.Glob:
				ts, why := expandShellGlob(st, ci, globFS)
				if why != "" && cmd.Unknown == "" {
					cmd.Unknown = why
				}
				out = append(out, ts...)
			default:
				t := newTarget(fsys, "command", st.Given, st.Path, accessOf(st.Access))
				t.Cmd, t.Recursive, t.Members, t.WorkDir = ci, st.Recursive, st.Members, st.Cwd
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

func expandShellGlob(st shell.Target, ci int, fsys budgetFS) ([]Target, string) {
	// Without bash's globstar, "**" is "*".
	pat := st.Path
	for strings.Contains(pat, "**") {
		pat = strings.ReplaceAll(pat, "**", "*")
	}
	literal := func() ([]Target, string) {
		t := newTarget(fsys, "command", st.Given, glob.Unescape(st.Path), accessOf(st.Access))
		t.Cmd, t.Recursive, t.Members = ci, st.Recursive, st.Members
		return []Target{t}, ""
	}
	if !doublestar.ValidatePattern(pat) {
		return literal()
	}
	prefix, rest := glob.LiteralPrefix(pat)
	dir := newTarget(fsys, "command", path.Dir(st.Given)+" (the directory of "+st.Given+")", prefix, accessOf(st.Access))
	dir.Cmd = ci
	out := []Target{dir}
	if dir.Err != nil {
		return out, ""
	}
	for _, el := range strings.Split(rest, "/") {
		if el == ".." || el == "." {
			return out, "the glob " + st.Given + " has " + el + " after a wildcard"
		}
	}
	base := strings.TrimPrefix(dir.Res.Path, "/")
	full := rest
	if base != "" {
		full = glob.Escape(base) + "/" + rest
	}
	var matches []string
	err := doublestar.GlobWalk(fsys, full, func(p string, _ fs.DirEntry) error {
		if len(matches) >= maxGlobMatches {
			return errTooManyMatches
		}
		matches = append(matches, p)
		return nil
	}, doublestar.WithNoHidden())
	switch {
	case errors.Is(err, errTooManyMatches):
		return out, fmt.Sprintf("the glob %s matches more than %d paths", st.Given, maxGlobMatches)
	case errors.Is(err, errTooManyDirs) || *fsys.left <= 0: // doublestar skips directories it cannot read
		return out, fmt.Sprintf("the globs of the command read more than %d directories (%s)", maxGlobDirs, st.Given)
	case err != nil:
		return out, "the glob " + st.Given + " cannot be expanded: " + err.Error()
	case len(matches) == 0:
		return literal()
	}
	for _, m := range matches {
		t := newTarget(fsys, "command", m, "/"+m, accessOf(st.Access))
		t.Cmd, t.Recursive, t.Members = ci, st.Recursive, st.Members
		out = append(out, t)
	}
	return out, ""
}

// accessOf is the policy's access for a shell target's.
func accessOf(a shell.Access) policy.Access {
	if a == shell.Read {
		return policy.Read
	}
	return policy.Write
}
