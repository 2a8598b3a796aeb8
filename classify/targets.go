package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// maxGlobAlternatives bounds the brace alternatives of one Glob pattern; each
// is a target of its own.
const maxGlobAlternatives = 64

// ErrNoHome is returned for "~" paths when the home directory is unknown.
var ErrNoHome = errors.New("path starts with ~ but HOME is not set")

// Class is the path class of a write target (policy paths.protected,
// paths.warned, paths.safe), the first that matches in that order.
type Class uint8

// The path classes.
const (
	ClassNone Class = iota
	ClassProtected
	ClassWarned
	ClassSafe
)

var classNames = [...]string{ClassNone: "", ClassProtected: "protected", ClassWarned: "warned", ClassSafe: "safe"}

// String returns "protected", "warned", "safe", or "" for none.
func (c Class) String() string { return classNames[c] }

// Target is one path a call reads or writes, with every spelling under which
// the kernel or the host may reach it.
type Target struct {
	Field  string        // the tool_input field it came from
	Given  string        // as the tool gave it (for a Glob pattern: the literal prefix)
	Access policy.Access // read or write
	// Abs is the lexical absolute path: "~" expanded, joined to the cwd,
	// cleaned ("a/../b" is "b"): how the host's Node path.resolve sees it.
	Abs string
	// Res is the physical resolution of the path as given (see [Resolve]).
	Res Resolution
	// Lex is the physical resolution of Abs, present when the path has a ".."
	// element: then both readings are judged, since some hosts normalise
	// the path before the tool opens it and the kernel does not.
	Lex *Resolution
	// Globs, when set, make this a pattern target (a Grep glob filter):
	// absolute globs of the files it may select. It is judged against deny
	// and ask rules only; its directory is a target of its own.
	Globs []string
	// Excepts[i], when present, are globs that the paths Globs[i] selects
	// do not match (find's negated tests, what -prune leaves out): they
	// narrow what a pattern target reaches among existing files
	// (decider.patternReaches), never what it names.
	Excepts [][]string

	Inside bool  // every view is within a sandbox root (or the sandbox is off)
	Class  Class // the path class of a write target
	// Err is set when the target could not be resolved; the call is then an
	// error (decision row 1).
	Err error
	// Cmd is the index of the shell command the target belongs to (in
	// Result.Shell.Commands); Recursive marks a write reaching everything
	// below a directory (rm -r): protected paths below it count.
	Cmd       int
	Recursive bool
	// Below: a read that reaches every file below the directory
	// (shell.Target.Below): the files a deny rule matches there count
	// when the command will not run confined (decider.secretBelow).
	Below bool
	// Members: the recursive write is an archive's members extracted in
	// place (shell.Target.Members): protected paths below are left to the
	// kernel sandbox the command runs in.
	Members bool
	// WorkDir: the target is the directory a program whose own accesses
	// are not known runs in (shell.Target.Cwd); reasons name the command.
	WorkDir bool

	// Names are other names (hard links) of the file t resolves to that
	// matter to the policy (Env.OtherNames): views of t, so that a deny
	// rule matching one of them matches t. NamesUnknown, when not empty,
	// says why they could not be known: t is then asked where it would
	// have been allowed.
	Names        []string
	NamesUnknown string

	viewCache, placeCache []string
}

// views returns every absolute path under which t is reached: the lexical
// path, the link location and final target, and the same for the lexical
// reading, and the other names of the file it resolves to (Names). Rules
// and classes match if any view matches.
func (t *Target) views() []string {
	if t.viewCache == nil {
		t.viewCache = t.computeViews()
	}
	return t.viewCache
}

func (t *Target) computeViews() []string {
	vs := make([]string, 0, 5)
	add := func(p string) {
		if p == "" {
			return
		}
		for _, v := range vs {
			if v == p {
				return
			}
		}
		vs = append(vs, p)
	}
	add(t.Abs)
	add(t.Res.Location)
	add(t.Res.Path)
	if t.Lex != nil {
		add(t.Lex.Location)
		add(t.Lex.Path)
	}
	for _, n := range t.Names {
		add(n)
	}
	return vs
}

// placeViews returns the paths that must all be inside the sandbox: where the
// kernel ends up (final target, and for writes the link location), in both
// readings.
func (t *Target) placeViews() []string {
	if t.placeCache == nil {
		t.placeCache = t.computePlaceViews()
	}
	return t.placeCache
}

func (t *Target) computePlaceViews() []string {
	vs := make([]string, 1, 4)
	vs[0] = t.Res.Path
	if t.Access == policy.Write && t.Res.Location != t.Res.Path {
		vs = append(vs, t.Res.Location)
	}
	if t.Lex != nil {
		vs = append(vs, t.Lex.Path)
		if t.Access == policy.Write && t.Lex.Location != t.Lex.Path {
			vs = append(vs, t.Lex.Location)
		}
	}
	return vs
}

// expandHome expands a leading "~" or "~/" with home.
func expandHome(p, home string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	if home == "" {
		return "", ErrNoHome
	}
	return home + strings.TrimPrefix(p, "~"), nil
}

// absolute returns p made absolute against dir, "~" expanded, not cleaned.
func absolute(p, dir, home string) (string, error) {
	p, err := expandHome(p, home)
	if err != nil {
		return "", err
	}
	if strings.HasPrefix(p, "/") {
		return p, nil
	}
	return dir + "/" + p, nil
}

func hasDotDot(p string) bool {
	for p != "" {
		var c string
		c, p, _ = strings.Cut(p, "/")
		if c == ".." {
			return true
		}
	}
	return false
}

// newTarget resolves one path (already absolute, not cleaned).
func newTarget(fsys fs.ReadLinkFS, field, given, raw string, access policy.Access) Target {
	t := Target{Field: field, Given: given, Access: access, Abs: path.Clean(raw)}
	t.Res, t.Err = Resolve(fsys, raw)
	if t.Err == nil && hasDotDot(raw) {
		lex, err := Resolve(fsys, t.Abs)
		if err != nil {
			t.Err = err
		} else if lex.Path != t.Res.Path || lex.Location != t.Res.Location {
			t.Lex = &lex
		}
	}
	return t
}

// targets turns a call's arguments into resolved targets.
func targets(c *hookio.Call, home string, fsys fs.ReadLinkFS) []Target {
	var out []Target
	for _, a := range c.Args {
		switch a.Kind {
		case hookio.ArgPath:
			raw, err := absolute(a.Value, c.Cwd, home)
			if err != nil {
				out = append(out, Target{Field: a.Field, Given: a.Value, Access: a.Access, Err: err})
				continue
			}
			if a.Loose && !topExists(fsys, raw) {
				continue // a JSON pointer or a route, not a file (hookio.Arg.Loose)
			}
			out = append(out, newTarget(fsys, a.Field, a.Value, raw, a.Access))
		case hookio.ArgGlob:
			out = append(out, globTargets(c, a, home, fsys)...)
		case hookio.ArgFilter:
			out = append(out, filterTargets(c, a, home, fsys)...)
		}
	}
	return out
}

// topExists reports whether the first element of the absolute path p
// exists ("/spec" of "/spec/replicas"): a path below a top-level directory
// that does not exist names no file, and none can be made there but by
// root. An error other than "does not exist" counts as existing.
func topExists(fsys fs.ReadLinkFS, p string) bool {
	top, _, _ := strings.Cut(strings.TrimPrefix(path.Clean(p), "/"), "/")
	if top == "" {
		return true
	}
	_, err := fs.Lstat(fsys, top)
	return !errors.Is(err, fs.ErrNotExist)
}

// baseDir returns the absolute (uncleaned) directory an ArgGlob or ArgFilter
// is relative to.
func baseDir(c *hookio.Call, a hookio.Arg, home string) (string, error) {
	if a.Base == "" {
		return c.Cwd, nil
	}
	return absolute(a.Base, c.Cwd, home)
}

// globTargets returns the directories a Glob pattern reads: for each brace
// alternative, the pattern's literal prefix joined to the base directory
// ("../../etc/*" reads "../../etc"). A ".." after the first wildcard element
// climbs out of whatever the wildcard matched, so each one adds a ".." to
// the prefix.
func globTargets(c *hookio.Call, a hookio.Arg, home string, fsys fs.ReadLinkFS) []Target {
	base, err := baseDir(c, a, home)
	if err != nil {
		return []Target{{Field: a.Field, Given: a.Value, Access: a.Access, Err: err}}
	}
	alts, ok := glob.ExpandBraces(a.Value, maxGlobAlternatives)
	if !ok {
		return []Target{{Field: a.Field, Given: a.Value, Access: a.Access,
			Err: fmt.Errorf("glob pattern %q has unbalanced braces or more than %d alternatives", a.Value, maxGlobAlternatives)}}
	}
	var out []Target
	for _, alt := range alts {
		prefix, rest := glob.LiteralPrefix(alt)
		for _, el := range strings.Split(rest, "/") {
			if el == ".." {
				if prefix == "" {
					prefix = ".."
				} else {
					prefix += "/.."
				}
			}
		}
		given := prefix
		if given == "" {
			given = "."
		}
		raw, err := absolute(prefix, base, home)
		if err != nil {
			out = append(out, Target{Field: a.Field, Given: alt, Access: a.Access, Err: err})
			continue
		}
		if prefix == "" {
			raw = base
		}
		out = append(out, newTarget(fsys, a.Field, given, raw, a.Access))
	}
	return out
}

// filterTargets turns a Grep glob filter into a pattern target: the files
// below the base directory that the glob selects (a glob without "/"
// matches names at any depth, as ripgrep's --glob does), spelled from the
// directory as given and as resolved. An exclusion ("!*.md") selects nothing
// new and yields no target.
func filterTargets(c *hookio.Call, a hookio.Arg, home string, fsys fs.ReadLinkFS) []Target {
	if strings.HasPrefix(a.Value, "!") {
		return nil
	}
	t := Target{Field: a.Field, Given: a.Value, Access: a.Access}
	base, err := baseDir(c, a, home)
	if err != nil {
		t.Err = err
		return []Target{t}
	}
	res, err := Resolve(fsys, base)
	if err != nil {
		t.Err = err
		return []Target{t}
	}
	t.Abs, t.Res = path.Clean(base), res
	g := strings.TrimPrefix(a.Value, "/")
	if !strings.Contains(g, "/") {
		g = "**/" + g
	}
	for _, dir := range []string{res.Path, t.Abs} {
		glob := strings.TrimSuffix(glob.Escape(dir), "/") + "/" + g
		if len(t.Globs) == 0 || t.Globs[0] != glob {
			t.Globs = append(t.Globs, glob)
		}
	}
	return []Target{t}
}
