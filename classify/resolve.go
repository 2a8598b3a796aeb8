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
	Hops     []Hop
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
	w := walk{fsys: fsys, abs: abs, rest: splitPath(abs), exists: true}
	w.nOrig = len(w.rest)
	w.cur = make([]string, 0, len(w.rest))
	for len(w.rest) > 0 {
		if err := w.step(); err != nil {
			return w.res, err
		}
	}
	res := w.res
	res.Path = joinAbs(w.cur)
	res.Exists = w.exists
	if !w.located {
		res.Location = res.Path
	}
	if w.exists {
		res.Ancestor = ""
	} else {
		res.Dir = false
	}
	if len(res.Path) > MaxPath || len(res.Location) > MaxPath {
		return res, fmt.Errorf("%w: %s resolves to a path over PATH_MAX (%d)", ErrTooLong, abs, MaxPath)
	}
	return res, nil
}

// walk is the state of one resolution: the components still to walk (the
// path's own, after those of the links met), the physical directory
// reached, and what is known of the result so far.
type walk struct {
	fsys    fs.ReadLinkFS
	abs     string
	rest    []string // components still to walk
	nOrig   int      // the path's own components still in rest (always its tail)
	cur     []string // the physical directory reached
	exists  bool     // every component so far exists
	located bool     // res.Location is set (the path's last component was met)
	hops    int      // symbolic links followed
	res     Resolution
}

// step walks one component.
func (w *walk) step() error {
	c := w.rest[0]
	orig := len(w.rest) == w.nOrig
	w.rest = w.rest[1:]
	if orig {
		w.nOrig--
	}
	last := orig && w.nOrig == 0
	switch c {
	case ".", "..":
		if c == ".." && len(w.cur) > 0 {
			w.cur = w.cur[:len(w.cur)-1]
		}
		if last {
			w.res.Location, w.located = joinAbs(w.cur), true
		}
		return nil
	}
	if len(c) > MaxName {
		return fmt.Errorf("%w: component %.40q... is %d bytes, over NAME_MAX (%d)", ErrTooLong, c, len(c), MaxName)
	}
	if last {
		w.res.Location, w.located = joinAbs(append(w.cur, c)), true
	}
	if !w.exists {
		w.cur = append(w.cur, c)
		return nil
	}
	name := strings.Join(append(w.cur, c), "/")
	fi, err := w.fsys.Lstat(name)
	switch {
	case err != nil && notExist(err):
		w.missing(c)
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrUnreadable, "/"+name, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return w.follow(c, name)
	}
	w.cur = append(w.cur, c)
	w.res.Dir = fi.IsDir()
	if !fi.IsDir() && hasMore(w.rest) {
		// "file/x" cannot exist; the kernel fails with ENOTDIR.
		w.exists = false
		w.res.Ancestor = joinAbs(w.cur[:len(w.cur)-1])
	}
	return nil
}

// missing records that component c of the current directory does not
// exist: the rest of the path is applied lexically.
func (w *walk) missing(c string) {
	w.exists = false
	w.res.Ancestor = joinAbs(w.cur)
	w.cur = append(w.cur, c)
}

// follow follows the symbolic link c (at name): its target's components
// are walked before the rest, from the root for an absolute target.
func (w *walk) follow(c, name string) error {
	w.hops++
	if w.hops > MaxSymlinks {
		return fmt.Errorf("%w: more than %d links from %s (a symlink loop?)", ErrLoop, MaxSymlinks, w.abs)
	}
	target, err := w.fsys.ReadLink(name)
	switch {
	case err != nil && notExist(err): // removed while we looked: treat as missing
		w.missing(c)
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %v", ErrUnreadable, "/"+name, unwrapPathError(err))
	case target == "":
		return fmt.Errorf("%w: %s: empty symbolic link", ErrUnreadable, "/"+name)
	}
	w.res.Hops = append(w.res.Hops, Hop{Link: "/" + name, Target: target})
	if strings.HasPrefix(target, "/") {
		w.cur = w.cur[:0]
	}
	w.rest = append(splitPath(target), w.rest...)
	return nil
}

// hasMore reports whether rest names another component ("." and "" do not).
func hasMore(rest []string) bool {
	for _, c := range rest {
		if c != "." && c != "" {
			return true
		}
	}
	return false
}

// splitPath splits a slash path into its non-empty components.
func splitPath(p string) []string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, c := range parts {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func joinAbs(cur []string) string {
	if len(cur) == 0 {
		return "/"
	}
	return "/" + strings.Join(cur, "/")
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
