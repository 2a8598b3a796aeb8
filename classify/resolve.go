package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
)

// Limits of path resolution, the kernel's own (Linux limits.h).
const (
	// MaxSymlinks is how many symbolic links one resolution may follow:
	// Linux's MAXSYMLINKS (40), after which open(2) fails with ELOOP.
	MaxSymlinks = 40
	// MaxPath is PATH_MAX: a longer path, given or resolved, is refused.
	MaxPath = 4096
	// MaxName is NAME_MAX: a longer path component is refused.
	MaxName = 255
)

// Conditions of a failed resolution; every one makes the call an error
// (decision row 1, on_error).
var (
	ErrLoop       = errors.New("too many levels of symbolic links")
	ErrTooLong    = errors.New("path too long")
	ErrNotAbs     = errors.New("path is not absolute")
	ErrUnreadable = errors.New("cannot inspect path")
)

// Hop is one symbolic link followed during a resolution.
type Hop struct {
	Link   string // the link's absolute path (its parents resolved)
	Target string // what it points to, verbatim
}

// Resolution is where an absolute path leads, as the kernel would walk it.
type Resolution struct {
	// Path is the final target: every symbolic link followed, including the
	// last component; "." and ".." applied to the physical directory they
	// occur in. Always absolute and clean.
	Path string
	// Location is the path's own location: every directory resolved, the
	// last component not followed. It differs from Path only when the last
	// component is a symbolic link. Writers that replace a file through a
	// temp file and rename replace the link itself, so a write is judged at
	// both.
	Location string
	// Exists reports whether Path exists; Dir whether it is a directory.
	Exists bool
	Dir    bool
	// Ancestor is the deepest existing directory when Path does not exist:
	// a new file is created through it.
	Ancestor string
	// Links is the link count (st_nlink) of Path when it is an existing
	// regular file and the file system's Lstat says it (a stat record on
	// Linux and macOS), else 0: above 1, the file has other names (hard
	// links), which read and write the same contents.
	Links uint64
	Hops  []Hop
}

// Resolve walks abs component by component like the kernel's path lookup,
// using fsys (names are abs without its leading "/": production passes
// os.DirFS("/")).
//
// Nothing is cleaned before symbolic links are resolved: "link/../x" goes
// where link points, then up. Every existing component is inspected with
// Lstat and followed with ReadLink, relative targets against the link's
// directory. A component that does not exist ends the physical walk; the rest
// is applied lexically ("missing/../x" is "x", as Node's path.resolve, which
// the host uses, would make it). Dangling links are followed (open with
// O_CREAT creates their target). A regular file followed by more components
// ends the walk the same way (the kernel would fail with ENOTDIR).
//
// Errors: abs not absolute ([ErrNotAbs]); abs or the result longer than
// [MaxPath] or a component longer than [MaxName] ([ErrTooLong]); more than
// [MaxSymlinks] links ([ErrLoop]); any Lstat or ReadLink failure other than
// "does not exist" or "not a directory", such as EACCES ([ErrUnreadable]).
func Resolve(fsys fs.ReadLinkFS, abs string) (Resolution, error) {
	if !strings.HasPrefix(abs, "/") {
		return Resolution{}, fmt.Errorf("%w: %q", ErrNotAbs, abs)
	}
	if len(abs) > MaxPath {
		return Resolution{}, fmt.Errorf("%w: %d bytes, over PATH_MAX (%d)", ErrTooLong, len(abs), MaxPath)
	}
	w := walk{fsys: fsys, abs: abs, base: abs, exists: true, n: 1}
	w.pieces[0] = piece{s: abs}
	if m, ok := fsys.(*memoFS); ok {
		w.memo = m
		w.skipKnown()
	}
	for {
		c, tail, last, ok := w.next()
		if !ok {
			break
		}
		if err := w.step(c, tail, last); err != nil {
			return w.res, err
		}
	}
	res := w.res
	res.Path = w.dir()
	res.Exists = w.exists
	if !w.located {
		res.Location = res.Path
	}
	if w.exists {
		res.Ancestor = ""
	} else {
		res.Dir, res.Links = false, 0
	}
	if len(res.Path) > MaxPath || len(res.Location) > MaxPath {
		return res, fmt.Errorf("%w: %s resolves to a path over PATH_MAX (%d)", ErrTooLong, abs, MaxPath)
	}
	return res, nil
}

// ResolveDir is [Resolve] for a path the caller expects to be a directory
// (a sandbox root, the home directory). Given a [MemoFS] view of the real
// root, it first asks the kernel, in one openat2(2) call with
// RESOLVE_NO_SYMLINKS (Linux 5.6), whether abs is a directory reached
// through no symbolic link, instead of an lstat per component; when it is
// not (a link, a missing component, a file) or the kernel cannot say,
// Resolve walks as it would have. The result and errors are Resolve's.
func ResolveDir(fsys fs.ReadLinkFS, abs string) (Resolution, error) {
	if m, ok := fsys.(*memoFS); ok {
		m.knowDir(abs)
	}
	return Resolve(fsys, abs)
}

// walk is the state of one resolution: the components still to walk (the
// path's own, under the targets of the links met), the physical directory
// reached, and what is known of the result so far.
//
// The directory reached, cur, is kept as a prefix of one string, base,
// so that descending into the next component is a slice of base whenever
// base spells it (always, along the path as given, until a link or a ".."
// turns off it): a resolution then builds no string for the names it
// inspects.
type walk struct {
	fsys fs.ReadLinkFS
	memo *memoFS // fsys, when it is a MemoFS view
	abs  string
	// pieces[:n] are the paths still to walk: the path given at the
	// bottom, the target of each link met above it (an array, so that a
	// resolution allocates nothing for them).
	pieces [MaxSymlinks + 1]piece
	n      int
	cur    string // the physical directory reached: "" for "/", else "/a/b"
	base   string // cur == base[:len(cur)]
	exists bool   // every component so far exists
	// located: res.Location is set (the path's last component was met).
	located bool
	hops    int // symbolic links followed
	res     Resolution
}

// piece is a path still to walk: s from byte i on.
type piece struct {
	s string
	i int
}

// next returns the next component to walk, what follows it in its piece
// (tail starts with it), and whether it is the last component of the path
// as given (no link's components are pending and none of the path's own
// follow); ok is false when nothing is left.
func (w *walk) next() (c, tail string, last, ok bool) {
	for w.n > 0 {
		top := &w.pieces[w.n-1]
		for top.i < len(top.s) && top.s[top.i] == '/' {
			top.i++
		}
		if top.i == len(top.s) {
			w.n--
			continue
		}
		start := top.i
		end := strings.IndexByte(top.s[start:], '/')
		if end < 0 {
			end = len(top.s)
		} else {
			end += start
		}
		top.i = end
		last = w.n == 1 && strings.Trim(top.s[end:], "/") == ""
		return top.s[start:end], top.s[start:], last, true
	}
	return "", "", false, false
}

// skipKnown starts the walk at the deepest directory the path begins with
// that an earlier resolution through the same view reached (memoFS.dirs):
// walking there again would ask the same questions, get the same answers,
// and learn nothing else (no link, every component an existing
// directory). The path's prefixes that end at a component boundary are in
// dirs up to some length and not beyond (dirs holds the parent of each of
// its directories, and only clean paths: none past a "//", "." or ".."),
// so a binary search over them finds it.
func (w *walk) skipKnown() {
	var buf [64]int
	ends := buf[:0] // the lengths of the prefixes that end at a boundary
	for i := 1; i < len(w.abs); i++ {
		if w.abs[i] == '/' {
			ends = append(ends, i)
		}
	}
	if !strings.HasSuffix(w.abs, "/") {
		ends = append(ends, len(w.abs))
	}
	lo, hi := 0, len(ends) // ends[:lo] are known, ends[hi:] are not
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if _, ok := w.memo.dirs[w.abs[:ends[mid]]]; ok {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return
	}
	k := ends[lo-1]
	w.cur, w.pieces[0].i = w.abs[:k], k
	w.res.Dir = true
}

// dir returns the directory reached, "/" for the root.
func (w *walk) dir() string {
	if w.cur == "" {
		return "/"
	}
	return w.cur
}

// child returns cur + "/" + c, where tail (from the piece being walked)
// starts with c: a slice of base when base spells it, else a new base
// made of cur and all of tail, which the next components of the piece
// will slice in turn.
func (w *walk) child(c, tail string) string {
	n := len(w.cur)
	if len(w.base) >= n+1+len(c) && w.base[n] == '/' && w.base[n+1:n+1+len(c)] == c {
		return w.base[:n+1+len(c)]
	}
	w.base = w.cur + "/" + tail
	return w.base[:n+1+len(c)]
}

// step walks one component, c; tail is c and what follows it in its
// piece; last marks the last component of the path as given.
func (w *walk) step(c, tail string, last bool) error {
	switch c {
	case ".", "..":
		if c == ".." && w.cur != "" {
			w.cur = w.cur[:strings.LastIndexByte(w.cur, '/')]
		}
		if last {
			w.res.Location, w.located = w.dir(), true
		}
		return nil
	}
	if len(c) > MaxName {
		return fmt.Errorf("%w: component %.40q... is %d bytes, over NAME_MAX (%d)", ErrTooLong, c, len(c), MaxName)
	}
	next := w.child(c, tail)
	if last {
		w.res.Location, w.located = next, true
	}
	if !w.exists {
		w.cur = next
		return nil
	}
	name := next[1:]
	var fi fs.FileInfo
	var err error
	if w.memo != nil {
		var absent bool
		if fi, absent, err = w.memo.lstatOrAbsent(name); absent {
			// A directory read found it missing: no error value made.
			w.missing(next)
			return nil
		}
	} else {
		fi, err = w.fsys.Lstat(name)
	}
	switch {
	case err != nil && notExist(err):
		w.missing(next)
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrUnreadable, next, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return w.follow(next)
	}
	w.res.Dir = fi.IsDir()
	w.res.Links = 0
	if fi.Mode().IsRegular() {
		w.res.Links = linkCount(fi)
	}
	if fi.IsDir() && w.memo != nil {
		if w.memo.dirs == nil {
			w.memo.dirs = map[string]struct{}{}
		}
		w.memo.dirs[next] = struct{}{}
	}
	if !fi.IsDir() && w.hasMore() {
		// "file/x" cannot exist; the kernel fails with ENOTDIR.
		w.exists = false
		w.res.Ancestor = w.dir()
	}
	w.cur = next
	return nil
}

// missing records that next, a component of the current directory, does
// not exist: the rest of the path is applied lexically.
func (w *walk) missing(next string) {
	w.exists = false
	w.res.Ancestor = w.dir()
	w.cur = next
}

// follow follows the symbolic link at next (absolute): its target's
// components are walked before the rest, from the root for an absolute
// target.
func (w *walk) follow(next string) error {
	w.hops++
	if w.hops > MaxSymlinks {
		return fmt.Errorf("%w: more than %d links from %s (a symlink loop?)", ErrLoop, MaxSymlinks, w.abs)
	}
	if procDescriptor(next) {
		return fmt.Errorf("%w: %s is a descriptor of a process (a /proc magic link): it leads where that descriptor does for the program that opens the path, which safezone cannot see (the hook's own descriptors are not the host's); name the file itself", ErrUnreadable, next)
	}
	target, err := w.fsys.ReadLink(next[1:])
	switch {
	case err != nil && notExist(err): // removed while we looked: treat as missing
		w.missing(next)
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrUnreadable, next, unwrapPathError(err))
	case target == "":
		return fmt.Errorf("%w: %s: empty symbolic link", ErrUnreadable, next)
	}
	w.res.Hops = append(w.res.Hops, Hop{Link: next, Target: target})
	if strings.HasPrefix(target, "/") {
		w.cur = ""
	}
	w.pieces[w.n] = piece{s: target}
	w.n++
	return nil
}

// procDescriptor reports whether link (absolute, its parents resolved)
// is a process's open descriptor in procfs (proc(5)): /proc/PID/fd/N or
// /proc/PID/task/TID/fd/N, which /proc/self/fd, /proc/thread-self/fd and
// /dev/fd lead to. The kernel follows such a link to the open file itself,
// not to the text ReadLink gives, and each process has its own: through
// /proc/self the hook would read its own descriptors (knowDir keeps a
// sandbox root open during a decision), not those of the host or shell
// that opens the path.
func procDescriptor(link string) bool {
	rest, ok := strings.CutPrefix(link, "/proc/")
	if !ok {
		return false
	}
	pid, rest, _ := strings.Cut(rest, "/")
	if !allDigits(pid) {
		return false
	}
	if t, ok := strings.CutPrefix(rest, "task/"); ok {
		tid, after, _ := strings.Cut(t, "/")
		if !allDigits(tid) {
			return false
		}
		rest = after
	}
	n, ok := strings.CutPrefix(rest, "fd/")
	return ok && n != "" && !strings.Contains(n, "/")
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// hasMore reports whether another component is still to walk ("." does
// not count).
func (w *walk) hasMore() bool {
	for k := w.n - 1; k >= 0; k-- {
		for rest := w.pieces[k].s[w.pieces[k].i:]; rest != ""; {
			c, after, _ := strings.Cut(rest, "/")
			if c != "." && c != "" {
				return true
			}
			rest = after
		}
	}
	return false
}

// notExist reports whether err means the component is not there: ENOENT, or
// ENOTDIR (a parent is a file).
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
