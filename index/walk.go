// Package index finds the files below the sandbox roots that the kernel
// must hide from a confined command, or keep read-only (README, "What the
// kernel enforces"): the matches of the policy's Read deny rules (.env*,
// *.pem, *.key, ...) and of its protected paths, which Landlock alone
// cannot take away inside a directory the command may write.
//
// [Walk] searches the roots once. A per-project daemon ([Serve]) keeps the
// result current with inotify(7) between tool calls, so that a call costs a
// round trip on a Unix socket whatever the size of the tree; [Query] asks it,
// and starts it when there is none.
package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/safezonehq/safezone/classify"
)

// Classifier says what the kernel does with a path: a *classify.PathMatcher.
type Classifier interface {
	// Class classifies the absolute, clean path abs, or what lies at it
	// (see classify.PathMatcher.Class).
	Class(abs string) classify.PathClass
}

// Limits bound a walk.
type Limits struct {
	// Entries is the most directory entries a walk looks at; 0 means
	// DefaultLimits.Entries.
	Entries int
	// Found is the most paths a walk may return (hidden and read-only
	// together): each costs the launcher a mount; 0 means
	// DefaultLimits.Found.
	Found int
	// Deadline, when not zero, ends the walk (incomplete) once passed.
	Deadline time.Time
}

// DefaultLimits: two million entries, 2,048 paths.
var DefaultLimits = Limits{Entries: 2_000_000, Found: 2048}

// Found is what a walk found. Every path is absolute, clean and resolved
// (no symlink in it), sorted, without duplicates.
type Found struct {
	// Hide are the files and directories to hide: matched by a Read deny
	// rule, or the target (inside a root) of a symlink that is, or another
	// name (a hard link) of a file that is.
	Hide []string `json:"hide,omitempty"`
	// ReadOnly are the files and directories to keep read-only.
	ReadOnly []string `json:"readonly,omitempty"`
	// NoRead are the targets outside every root of symlinks a Read deny
	// rule matches: Landlock can deny reading them.
	NoRead []string `json:"noread,omitempty"`
	// Entries is how many directory entries the walk looked at.
	Entries int `json:"entries"`
	// Incomplete says why the walk did not finish ("" when it did): a
	// limit, the deadline. An incomplete result must not be used to
	// confine a command that would run without a question.
	Incomplete string `json:"incomplete,omitempty"`
}

// errStop ends a walk early; Found.Incomplete says why.
var errStop = errors.New("stop")

// walker is one walk's state.
type walker struct {
	c      Classifier
	roots  []string
	limits Limits
	found  Found
	// inodes maps each regular file's inode number to its paths, for
	// finding the other names of a hidden file (hard links).
	inodes map[uint64][]string
	// hiddenFiles are the hidden regular files with more than one link.
	hiddenFiles []string
	checked     int
}

// Walk searches each root (absolute, clean, resolved directories) for the
// paths c hides or keeps read-only. It does not follow symlinks, and does
// not descend into a hidden or skipped directory (a read-only one it
// searches for paths to hide). A symlink that c hides or keeps read-only
// adds its target, resolved: inside a root to Hide or ReadOnly, outside to
// NoRead (hidden ones only). A hidden regular file with more than one link
// also hides its other names below the roots. A root that is missing or
// not a directory is skipped; a directory that cannot be listed is
// skipped (the confined command cannot list it either, as far as the
// kernel lets it: it runs as the same user).
func Walk(c Classifier, roots []string, limits Limits) Found {
	if limits.Entries <= 0 {
		limits.Entries = DefaultLimits.Entries
	}
	if limits.Found <= 0 {
		limits.Found = DefaultLimits.Found
	}
	w := &walker{c: c, roots: roots, limits: limits, inodes: map[uint64][]string{}}
	err := w.run()
	if err != nil && !errors.Is(err, errStop) && w.found.Incomplete == "" {
		w.found.Incomplete = err.Error()
	}
	f := w.found
	f.Hide, f.ReadOnly, f.NoRead = sortedSet(f.Hide), sortedSet(f.ReadOnly), sortedSet(f.NoRead)
	// A path both hidden and read-only is hidden.
	f.ReadOnly = slices.DeleteFunc(f.ReadOnly, func(p string) bool { _, ok := slices.BinarySearch(f.Hide, p); return ok })
	return f
}

func (w *walker) run() error {
	for _, root := range outermost(w.roots) {
		fi, err := os.Lstat(root)
		if err != nil || !fi.IsDir() {
			continue
		}
		switch w.c.Class(root) {
		case classify.PathSkip:
			continue
		case classify.PathHide:
			if err := w.add(&w.found.Hide, root); err != nil {
				return err
			}
			continue
		case classify.PathReadOnly:
			if err := w.add(&w.found.ReadOnly, root); err != nil {
				return err
			}
		}
		if err := w.dir(root, false); err != nil {
			return err
		}
	}
	return w.hardLinks()
}

// dir searches the directory d; below a read-only directory (roOnly) only
// paths to hide are added.
func (w *walker) dir(d string, roOnly bool) error {
	ents, err := readDir(d)
	if err != nil {
		return nil // unreadable: skipped
	}
	if err := w.count(len(ents)); err != nil {
		return err
	}
	for _, e := range ents {
		p := d + "/" + e.name
		if d == "/" {
			p = "/" + e.name
		}
		class := w.c.Class(p)
		if class == classify.PathSkip {
			continue
		}
		if class == classify.PathReadOnly && roOnly {
			class = classify.PathOpen // already read-only below its directory
		}
		switch e.typ {
		case typeLink:
			if class == classify.PathHide || class == classify.PathReadOnly {
				if err := w.link(p, class); err != nil {
					return err
				}
			}
		case typeDir:
			switch class {
			case classify.PathHide:
				if err := w.add(&w.found.Hide, p); err != nil {
					return err
				}
				continue
			case classify.PathReadOnly:
				if err := w.add(&w.found.ReadOnly, p); err != nil {
					return err
				}
				if err := w.dir(p, true); err != nil {
					return err
				}
				continue
			}
			if err := w.dir(p, roOnly); err != nil {
				return err
			}
		default:
			if e.typ == typeFile && e.ino != 0 {
				w.inodes[e.ino] = append(w.inodes[e.ino], p)
			}
			switch class {
			case classify.PathHide:
				if err := w.add(&w.found.Hide, p); err != nil {
					return err
				}
				if e.typ == typeFile {
					w.hiddenFiles = append(w.hiddenFiles, p)
				}
			case classify.PathReadOnly:
				if err := w.add(&w.found.ReadOnly, p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// link adds the resolved target of the symlink p, which c hides or keeps
// read-only: inside a root as the link's class, outside as NoRead when
// hidden. A dangling or looping link adds nothing: it reaches no file now.
func (w *walker) link(p string, class classify.PathClass) error {
	t, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil
	}
	inside := slices.ContainsFunc(w.roots, func(r string) bool { return within(t, r) })
	switch {
	case inside && class == classify.PathHide:
		return w.add(&w.found.Hide, t)
	case inside:
		return w.add(&w.found.ReadOnly, t)
	case class == classify.PathHide:
		return w.add(&w.found.NoRead, t)
	}
	return nil
}

// hardLinks hides the other names, below the roots, of each hidden regular
// file that has more than one link: a name that does not match would read
// the same contents.
func (w *walker) hardLinks() error {
	for _, p := range w.hiddenFiles {
		var st fs.FileInfo
		st, err := os.Lstat(p)
		if err != nil {
			continue
		}
		dev, ino, nlink, ok := fileID(st)
		if !ok || nlink < 2 {
			continue
		}
		for _, q := range w.inodes[ino] {
			if q == p {
				continue
			}
			qs, err := os.Lstat(q)
			if err != nil {
				continue
			}
			if qdev, qino, _, ok := fileID(qs); ok && qdev == dev && qino == ino {
				if err := w.add(&w.found.Hide, q); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// add appends p to list, or stops the walk when the found limit is passed.
func (w *walker) add(list *[]string, p string) error {
	if len(w.found.Hide)+len(w.found.ReadOnly)+len(w.found.NoRead) >= w.limits.Found {
		w.found.Incomplete = fmt.Sprintf("over %d files to hide or keep read-only below the sandbox roots", w.limits.Found)
		return errStop
	}
	*list = append(*list, p)
	return nil
}

// count adds n entries, and stops the walk at the limits.
func (w *walker) count(n int) error {
	w.found.Entries += n
	if w.found.Entries > w.limits.Entries {
		w.found.Incomplete = fmt.Sprintf("over %d entries below the sandbox roots", w.limits.Entries)
		return errStop
	}
	w.checked += n
	if !w.limits.Deadline.IsZero() && w.checked >= 1024 {
		w.checked = 0
		if time.Now().After(w.limits.Deadline) {
			w.found.Incomplete = fmt.Sprintf("the search of the sandbox roots took too long (%d entries)", w.found.Entries)
			return errStop
		}
	}
	return nil
}

// within reports whether p is root or lies beneath it; both absolute and
// clean.
func within(p, root string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

// outermost returns the sorted paths of ps that lie beneath no other.
func outermost(ps []string) []string {
	s := sortedSet(ps)
	var out []string
	for _, p := range s {
		if !slices.ContainsFunc(out, func(o string) bool { return within(p, o) }) {
			out = append(out, p)
		}
	}
	return out
}

func sortedSet(ps []string) []string {
	s := slices.Clone(ps)
	slices.Sort(s)
	return slices.Compact(s)
}
