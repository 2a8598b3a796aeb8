package glob

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// This file is bash 5.2's pathname expansion (lib/glob/glob.c glob_filename,
// glob_vector and skipname; pathexp.c shell_glob_filename and GLOBIGNORE),
// ported closely: the same directories read, the same system calls made, the
// same names returned, over a file system the caller gives ([DirFS]).

// ShellOptions are the shell settings in force where bash expands a word
// that change what it makes of a pattern (bash(1) Pathname Expansion, The
// Shopt Builtin, The Set Builtin). The zero value is bash 5.2's default.
type ShellOptions struct {
	DotGlob    bool // shopt dotglob, also turned on by setting GLOBIGNORE: wildcards match a leading "."
	NoCaseGlob bool // shopt nocaseglob
	ExtGlob    bool // shopt extglob: ?(…) *(…) +(…) @(…) !(…)
	GlobStar   bool // shopt globstar: "**" as a whole element crosses directories
	NullGlob   bool // shopt nullglob: a pattern that matches nothing makes no word
	FailGlob   bool // shopt failglob: a pattern that matches nothing fails the command
	NoGlob     bool // set -f: no pathname expansion at all
	KeepDots   bool // shopt -u globskipdots: "." and ".." may match
	// Ignore is GLOBIGNORE's value: ":"-separated patterns; a name that
	// matches one is dropped from the result. Empty when unset or empty.
	Ignore string
}

// DirFS is the file system a bash pattern expands against: the system
// calls bash's glob makes, on names as bash builds them (relative to the
// working directory, or absolute; never cleaned: "src/../.env" goes
// through src).
type DirFS interface {
	// ReadDir returns the names in the directory (opendir(3), following
	// symbolic links), without "." and "..".
	ReadDir(name string) ([]string, error)
	// Stat and Lstat return the type bits of the file (stat(2) and
	// lstat(2)).
	Stat(name string) (fs.FileMode, error)
	Lstat(name string) (fs.FileMode, error)
}

// ErrStop marks a [DirFS] error that stops an expansion (a budget spent):
// Expand then fails with it. Any other error is bash's own: the directory
// or file is taken as absent, as bash takes it.
var ErrStop = errors.New("the expansion was stopped")

// ErrTooMany: the pattern matches more names than the limit.
var ErrTooMany = errors.New("the pattern matches too many names")

// IsPattern reports whether bash expands the word pat as a pattern
// (subst.c unquoted_glob_pattern_p): an unquoted "*" or "?", a "[" with a
// "]" after it, or "+(", "@(" or "!(" (whatever extglob says). In pat, a
// quoted character is escaped with a backslash.
func IsPattern(pat string) bool {
	open := false
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '?', '*':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '/':
			open = false
			if i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		case '+', '@', '!':
			if i+1 < len(pat) && pat[i+1] == '(' {
				return true
			}
		case '\\':
			i++ // a quoted character
		}
	}
	return false
}

// Expand returns the names bash makes of the pattern pat in pathname
// expansion, with the options o, sorted; nil when it matches nothing
// (bash then keeps the word as it is, drops it under nullglob, or fails
// the command under failglob: the caller's to decide, as is set -f, which
// Expand does not look at). pat is the word with its quoted characters
// escaped by a backslash; names are relative to the working directory
// when pat is. At most limit names are returned ([ErrTooMany] past it).
//
// Errors: [ErrTooMany]; an error of fsys that wraps [ErrStop]; and, for a
// name whose match bash's answer would depend on the locale or cost too
// much, [ErrLocale] and [ErrCostly].
func Expand(fsys DirFS, pat string, o ShellOptions, limit int) ([]string, error) {
	g := &globber{fs: fsys, o: o, limit: limit}
	// quote_string_for_globbing drops the quoting of a "/".
	pat = strings.ReplaceAll(pat, `\/`, "/")
	flags := gxFlags(0)
	if o.GlobStar {
		flags |= gxGlobStar
	}
	res, failed := g.filename(pat, flags)
	if g.err != nil {
		return nil, g.err
	}
	if failed || len(res) == 0 {
		return nil, nil
	}
	if o.Ignore != "" {
		if res, g.err = ignoreMatches(res, o); g.err != nil {
			return nil, g.err
		}
	}
	if len(res) == 0 {
		return nil, nil
	}
	slices.Sort(res)
	return res, nil
}

// gxFlags are glob_filename's and glob_vector's flags (lib/glob/glob.h).
type gxFlags uint16

const (
	gxMatchDirs gxFlags = 1 << iota // only directories
	gxAllDirs                       // every name below, recursively ("**")
	gxNullDir                       // no directory before the pattern
	gxAddCurDir                     // add the directory itself
	gxGlobStar                      // "**" is special
	gxRecurse                       // glob_filename called for a directory part
	gxSymlink                       // a symbolic link to a directory
	gxNegate                        // an extended glob being negated
)

// globber is one expansion.
type globber struct {
	fs    DirFS
	o     ShellOptions
	limit int
	found int
	err   error
}

// fail records the error that stops the expansion; the first stays.
func (g *globber) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

// check notes an error of the file system: one that stops, or bash's.
func (g *globber) check(err error) error {
	if err != nil && errors.Is(err, ErrStop) {
		g.fail(err)
	}
	return err
}

// count adds n names to the result's size.
func (g *globber) count(n int) bool {
	g.found += n
	if g.found > g.limit {
		g.fail(fmt.Errorf("%w (over %d)", ErrTooMany, g.limit))
		return false
	}
	return true
}

// filename is glob_filename: the names pathname matches; failed is
// glob_error_return (no such directory, nothing matched in a directory part).
func (g *globber) filename(pathname string, flags gxFlags) (result []string, failed bool) {
	if g.err != nil {
		return nil, true
	}
	slash := strings.LastIndexByte(pathname, '/')
	if slash >= 0 && g.o.ExtGlob {
		slash = dirscan(pathname)
	}
	directoryName, filename := "", pathname
	if slash >= 0 {
		directoryName, filename = pathname[:slash+1], pathname[slash+1:]
	}
	if directoryName != "" && globPatternP(directoryName) {
		return g.globbedDirectory(directoryName, filename, flags)
	}
	return g.onlyFilename(directoryName, filename, flags)
}

// globbedDirectory is glob_filename for a directory part that is itself a
// pattern: each directory it matches is searched for filename.
func (g *globber) globbedDirectory(directoryName, filename string, flags gxFlags) ([]string, bool) {
	d := directoryName
	dflags := flags
	allStarstar, lastStarstar := false, false
	// Collapse leading "**/" elements into one "**".
	if flags&gxGlobStar != 0 && strings.HasPrefix(d, "**") && (len(d) == 2 || d[2] == '/') {
		p, i := 0, 0
		for strings.HasPrefix(d[i:], "**") && (len(d) == i+2 || d[i+2] == '/') {
			p = i
			if len(d) == i+2 {
				break
			}
			i += 3
			for i < len(d) && d[i] == '/' {
				i++
			}
			if i == len(d) {
				break
			}
		}
		allStarstar = i == len(d)
		d = d[p:]
		dflags |= gxAllDirs | gxAddCurDir
	}
	dlen := len(d)
	// Collapse trailing "/**/" elements.
	if flags&gxGlobStar != 0 && !allStarstar {
		dl, prev := dlen, dlen
		for dl >= 4 && d[dl-1] == '/' && d[dl-2] == '*' && d[dl-3] == '*' && d[dl-4] == '/' {
			prev = dl
			dl -= 3
		}
		lastStarstar = dl != dlen
		dlen = prev
	}
	if lastStarstar && dlen > 4 && filename == "**" {
		dlen -= 3
	}
	dpart := d[:dlen]
	if strings.HasSuffix(dpart, "/") {
		dpart = dpart[:len(dpart)-1]
	}
	directories, failed := g.filename(dpart, dflags|gxRecurse)
	if failed || len(directories) == 0 || g.err != nil {
		return nil, true
	}
	if allStarstar && filename == "**" {
		return g.onlyFilename("", filename, flags)
	}
	var result []string
	for _, dir := range directories {
		dflags := flags &^ (gxAllDirs | gxAddCurDir)
		if flags&gxGlobStar != 0 && filename == "**" {
			dflags |= gxAllDirs | gxAddCurDir
		}
		dname := dir
		if dname == "" && filename != "" {
			dflags |= gxNullDir
			dname = "."
		}
		var temp []string
		var tfailed bool
		if allStarstar && dflags&gxNullDir == 0 && g.testdir(dname, flags|gxAllDirs) == -2 && g.testdir(dname, 0) == 0 {
			// A symbolic link to a directory: "**" does not descend it.
			if filename != "" {
				tfailed = true
			} else {
				temp = []string{""}
				dflags |= gxSymlink
			}
		} else {
			temp, tfailed = g.vector(filename, dname, dflags)
		}
		if g.err != nil {
			return nil, true
		}
		if tfailed {
			continue // probably not a directory
		}
		shouldBreak := false
		var array []string
		if dflags&gxAllDirs != 0 && strings.HasPrefix(filename, "**") && (len(filename) == 2 || filename[2] == '/') {
			array = temp
			if dflags&gxNullDir != 0 && flags&gxNullDir == 0 && len(temp) > 0 && temp[0] == "" {
				n := 0
				for n < len(temp) && temp[n] == "" {
					n++
				}
				array = temp[n:]
				shouldBreak = true
			}
		} else {
			array = dirToArray(dir, temp)
		}
		result = append(result, array...)
		if shouldBreak {
			break
		}
	}
	return result, false
}

// onlyFilename is glob_filename for a directory part with no pattern (or
// none): the directory, dequoted, is searched for filename.
func (g *globber) onlyFilename(directoryName, filename string, flags gxFlags) ([]string, bool) {
	if filename == "" {
		return []string{directoryName}, false
	}
	directoryName = dequote(directoryName)
	dflags := flags
	if directoryName == "" {
		dflags |= gxNullDir
	}
	if flags&gxGlobStar != 0 && filename == "**" {
		dflags |= gxAllDirs | gxAddCurDir
		if directoryName == "" && flags&gxAllDirs == 0 {
			dflags &^= gxAddCurDir
		}
	}
	dir := directoryName
	if dir == "" {
		dir = "."
	}
	temp, failed := g.vector(filename, dir, dflags)
	if failed || g.err != nil {
		return nil, true
	}
	if dflags&gxAllDirs != 0 {
		return temp, false
	}
	return dirToArray(directoryName, temp), false
}

// dirToArray is glob_dir_to_array: each name joined to dir.
func dirToArray(dir string, names []string) []string {
	if dir == "" {
		return names
	}
	sep := "/"
	if strings.HasSuffix(dir, "/") {
		sep = ""
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = dir + sep + n
	}
	return out
}

// testdir is glob_testdir: 0 for a directory, -2 for a symbolic link
// (lstat under gxAllDirs), -1 otherwise.
func (g *globber) testdir(dir string, flags gxFlags) int {
	if dir == "" {
		return -1 // stat("") fails with ENOENT
	}
	stat := g.fs.Stat
	if flags&gxAllDirs != 0 {
		stat = g.fs.Lstat
	}
	mode, err := stat(dir)
	if g.check(err) != nil {
		return -1
	}
	switch {
	case mode&fs.ModeSymlink != 0:
		return -2
	case !mode.IsDir():
		return -1
	}
	return 0
}

// vector is glob_vector: the names in dir that pat matches.
func (g *globber) vector(pat, dir string, flags gxFlags) ([]string, bool) {
	if g.err != nil {
		return nil, true
	}
	if pat == "" {
		if g.testdir(dir, 0) < 0 {
			return nil, true
		}
		return []string{""}, false
	}
	if !globPatternP(pat) {
		// No pattern: the name is there or not (lstat).
		if g.testdir(dir, 0) < 0 {
			return nil, true
		}
		npat := dequote(pat)
		if _, err := g.fs.Lstat(dir + "/" + npat); g.check(err) != nil {
			return nil, false
		}
		if !g.count(1) {
			return nil, true
		}
		return []string{npat}, false
	}
	if dir == "" {
		return nil, true // opendir("") fails with ENOENT
	}
	names, err := g.fs.ReadDir(dir)
	if g.check(err) != nil {
		return nil, true
	}
	mflags := fnmPathname
	if g.o.DotGlob {
		mflags |= fnmDotDot
	} else {
		mflags |= fnmPeriod
	}
	if g.o.NoCaseGlob {
		mflags |= fnmCaseFold
	}
	if g.o.ExtGlob {
		mflags |= fnmExtMatch
	}
	var out []string
	// readdir(3) returns "." and ".." too.
	for _, name := range append([]string{".", ".."}, names...) {
		if g.skipname(pat, name, flags) {
			continue
		}
		if flags&(gxMatchDirs|gxAllDirs) != 0 {
			subdir := makepath(dir, name, flags)
			isdir := g.testdir(subdir, flags)
			if isdir < 0 && flags&gxMatchDirs != 0 {
				continue
			}
			if flags&gxAllDirs != 0 {
				if isdir == 0 {
					below, failed := g.vector(pat, subdir, flags&^gxAddCurDir)
					if g.err != nil {
						return nil, true
					}
					if !failed {
						out = append(out, below...)
					}
				}
				if !g.count(1) {
					return nil, true
				}
				out = append(out, subdir)
				continue
			}
		}
		ok, err := strmatch(pat, name, mflags)
		if err != nil {
			g.fail(fmt.Errorf("%w (%s against %q)", err, pat, name))
			return nil, true
		}
		if ok {
			if !g.count(1) {
				return nil, true
			}
			out = append(out, name)
		}
	}
	if flags&(gxAllDirs|gxAddCurDir) == gxAllDirs|gxAddCurDir {
		if flags&gxNullDir != 0 {
			out = append(out, "")
		} else {
			out = append(out, dir)
		}
	}
	return out, false
}

// makepath is sh_makepath for glob_vector: dir/name, without a leading
// "./" under gxAllDirs (MP_RMDOT) and without dir when it is "." under
// gxNullDir (MP_IGNDOT).
func makepath(dir, name string, flags gxFlags) string {
	if flags&gxNullDir != 0 && (dir == "." || dir == "./") {
		dir = ""
	}
	if flags&gxAllDirs != 0 {
		name = strings.TrimPrefix(name, "./")
	}
	switch {
	case dir == "":
		return name
	case strings.HasSuffix(dir, "/"):
		return dir + name
	}
	return dir + "/" + name
}

// skipname is skipname: whether the name dname is passed over before
// matching, for its leading ".".
func (g *globber) skipname(pat, dname string, flags gxFlags) bool {
	if extglobPatternP(pat) {
		return g.extglobSkipname(pat, dname, flags)
	}
	dots := dname == "." || dname == ".."
	if !g.o.KeepDots && dots {
		return true
	}
	litDot := strings.HasPrefix(pat, ".") || strings.HasPrefix(pat, `\.`)
	if g.o.DotGlob {
		return !litDot && dots
	}
	return strings.HasPrefix(dname, ".") && !litDot
}

// extglobSkipname is extglob_skipname: a name is passed over when every
// pattern of the list says so.
func (g *globber) extglobSkipname(pat, dname string, flags gxFlags) bool {
	negate := pat[0] == '!'
	wild := pat[0] == '*' || pat[0] == '?'
	p := []rune(pat)
	pp, se := 2, len(p)
	pe := patscan(p, pp, se, 0)
	if pe < 0 {
		return false
	}
	xflags := flags
	if negate {
		xflags |= gxNegate
	}
	if pe == se && p[pe-1] == ')' && !containsRune(p[pp:], '|') {
		return g.skipname(string(p[pp:pe-1]), dname, xflags)
	}
	r := true
	for {
		t := patscan(p, pp, pe, '|')
		if t < 0 {
			break
		}
		sub := string(p[pp : t-1])
		if extglobPatternP(string(p[pp:])) && p[t-1] == ')' {
			sub = string(p[pp:]) // a nested extended glob: bash passes the rest as it is
		}
		if r = g.skipname(sub, dname, xflags); !r {
			return false
		}
		pp = t
		if pp == pe {
			break
		}
	}
	if pp == se {
		return r
	}
	if wild && pe < len(p) {
		return g.skipname(string(p[pe:]), dname, flags)
	}
	return true
}

// globPatternP is glob_pattern_p: the string holds a glob character
// ("[" counts with a "]" after it; "+(", "@(" and "!(" whatever extglob
// says); a backslash quotes the next character.
func globPatternP(s string) bool {
	open := false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '?', '*':
			return true
		case '[':
			open = true
		case ']':
			if open {
				return true
			}
		case '+', '@', '!':
			if i+1 < len(s) && s[i+1] == '(' {
				return true
			}
		case '\\':
			if i+1 == len(s) {
				return false
			}
			i++
		}
	}
	return false
}

// extglobPatternP is extglob_pattern_p: s starts with an extended glob
// operator and its "(".
func extglobPatternP(s string) bool {
	return len(s) > 1 && strings.IndexByte("*+!@?", s[0]) >= 0 && s[1] == '('
}

// dirscan is glob_dirscan: the index of the last "/" of pat outside an
// extended glob's pattern list, or -1.
func dirscan(pat string) int {
	p := []rune(pat)
	d := -1
	se := -1
	for i := 0; i < len(p); i++ {
		if extglobPatternP(string(p[i:min(i+2, len(p))])) {
			if se < 0 {
				se = len(p) - 1
			}
			pe := patscan(p, i+2, se, 0)
			if pe < 0 {
				continue
			}
			if pe >= len(p) {
				break
			}
			i = pe - 1
			continue
		}
		if p[i] == '/' {
			d = i
		}
	}
	if d < 0 {
		return -1
	}
	return len(string(p[:d])) // back to a byte index
}

// dequote is udequote_pathname: every backslash quotes the next byte.
func dequote(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ignoreMatches drops the names GLOBIGNORE's patterns match (pathexp.c
// ignore_glob_matches): whole names as bash built them, each pattern
// with FNM_PATHNAME and the extglob and nocaseglob flags; a last element
// "." or ".." always goes. A name whose match depends on the reading
// stays.
func ignoreMatches(names []string, o ShellOptions) ([]string, error) {
	flags := fnmPathname
	if o.ExtGlob {
		flags |= fnmExtMatch
	}
	if o.NoCaseGlob {
		flags |= fnmCaseFold
	}
	pats := splitIgnore(o.Ignore)
	out := names[:0]
names:
	for _, n := range names {
		last := n
		if i := strings.LastIndexByte(n, '/'); i >= 0 && i+1 < len(n) {
			last = n[i+1:]
		}
		if last == "." || last == ".." {
			continue
		}
		for _, p := range pats {
			ok, err := strmatchAll(p, n, flags)
			if err != nil {
				return nil, err
			}
			if ok {
				continue names
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// splitIgnore splits GLOBIGNORE at the ":"s outside a bracket expression
// and an extended glob's parentheses (pathexp.c split_ignorespec), each
// piece a pattern (an empty one too).
func splitIgnore(v string) []string {
	var out []string
	start, depth, bracket := 0, 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '\\':
			i++
		case bracket:
			if c == ']' {
				bracket = false
			}
		case c == '[':
			bracket = strings.IndexByte(v[i+1:], ']') >= 0
			if bracket && i+1 < len(v) && (v[i+1] == ']' || (v[i+1] == '!' || v[i+1] == '^') && i+2 < len(v) && v[i+2] == ']') {
				i += strings.IndexByte(v[i+1:], ']') + 1 // a leading "]" is a member
			}
		case c == '(' && i > 0 && strings.IndexByte("*+!@?", v[i-1]) >= 0:
			depth++
		case c == '(' && depth > 0:
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ':' && depth == 0:
			out = append(out, v[start:i])
			start = i + 1
		}
	}
	if start < len(v) {
		out = append(out, v[start:])
	}
	return out
}

// PatternListLen returns the length in bytes of the pattern list of an
// extended glob that s starts with (what follows its "("), through the
// ")" bash's matcher closes it with, brackets and nested lists skipped
// (lib/glob/sm_loop.c PATSCAN); -1 when s does not close it.
func PatternListLen(s string) int {
	p := []rune(s)
	end := patscan(p, 0, len(p), 0)
	if end < 0 {
		return -1
	}
	return len(string(p[:end]))
}
