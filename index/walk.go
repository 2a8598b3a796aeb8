// Package index finds the files below the sandbox roots that the kernel
// must hide from a confined command, or keep read-only (README, "What the
// kernel enforces"): the matches of the policy's Read deny rules (.env*,
// *.pem, *.key, ...) and of its protected paths, which Landlock alone
// cannot take away inside a directory the command may write.
//
// [Walk] searches the roots once. A daemon per project and policy
// ([Serve], Linux) keeps the result current with inotify(7) between tool
// calls, so that a call costs a round trip on a Unix socket whatever the
// size of the tree; [Query] asks it.
package index

import (
	"errors"
	"fmt"
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

// Found is what a search found. Every path is absolute, clean and resolved
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
	// Entries is how many directory entries the search looked at.
	Entries int `json:"entries"`
	// Incomplete says why the search did not finish ("" when it did): a
	// limit, the deadline, a directory the daemon could not watch. An
	// incomplete result must not be used to confine a command that would
	// run without a question.
	Incomplete string `json:"incomplete,omitempty"`
}

// errStop ends a search early; tree.incomplete says why.
var errStop = errors.New("stop")

// tree is what a search knows of the roots: the paths to hide or keep
// read-only, the symlinks that lead to such paths (resolved when asked),
// and the regular files by inode number (for the other names of a hidden
// file). The daemon keeps one current; Walk fills one once.
type tree struct {
	c      Classifier
	roots  []string
	limits Limits
	hide   map[string]bool
	ro     map[string]bool
	// links are the symlinks a pattern matches, with their class: their
	// targets are hidden, or kept read-only, as they are when asked.
	links map[string]classify.PathClass
	// files maps each regular file seen to its inode number, inodes the
	// other way.
	files  map[string]uint64
	inodes map[uint64][]string
	// entries counts the directory entries looked at; checked since the
	// last look at the clock.
	entries, checked int
	incomplete       string
	// enter, when set, is called for each directory the search enters,
	// before it lists it (the daemon watches it there); roOnly says it
	// lies below a read-only directory.
	enter func(dir string, roOnly bool) error
}

func newTree(c Classifier, roots []string, limits Limits) *tree {
	if limits.Entries <= 0 {
		limits.Entries = DefaultLimits.Entries
	}
	if limits.Found <= 0 {
		limits.Found = DefaultLimits.Found
	}
	return &tree{c: c, roots: outermost(roots), limits: limits, hide: map[string]bool{}, ro: map[string]bool{},
		links: map[string]classify.PathClass{}, files: map[string]uint64{}, inodes: map[uint64][]string{}}
}

// Walk searches each root (absolute, clean, resolved directories) for the
// paths c hides or keeps read-only. It does not follow symlinks, and does
// not descend into a hidden or skipped directory (a read-only one it
// searches for paths to hide). A symlink that c hides or keeps read-only
// adds its target, resolved: inside a root to Hide or ReadOnly, outside to
// NoRead (hidden ones only). A hidden regular file with more than one link
// also hides its other names below the roots. A root that is missing or
// not a directory is skipped; a directory that cannot be listed is
// skipped (the confined command cannot list it either: it runs as the
// same user).
func Walk(c Classifier, roots []string, limits Limits) Found {
	t := newTree(c, roots, limits)
	t.scanRoots()
	return t.result()
}

// scanRoots searches every root anew.
func (t *tree) scanRoots() {
	for _, root := range t.roots {
		if err := t.scanRoot(root); err != nil {
			if !errors.Is(err, errStop) && t.incomplete == "" {
				t.incomplete = err.Error()
			}
			return
		}
	}
}

func (t *tree) scanRoot(root string) error {
	fi, err := os.Lstat(root)
	if err != nil || !fi.IsDir() {
		return nil
	}
	switch t.c.Class(root) {
	case classify.PathSkip:
		return nil
	case classify.PathHide:
		return t.add(t.hide, root)
	case classify.PathReadOnly:
		if err := t.add(t.ro, root); err != nil {
			return err
		}
		return t.dir(root, true)
	}
	return t.dir(root, false)
}

// dir searches the directory d; below a read-only directory (roOnly) only
// paths to hide are added.
func (t *tree) dir(d string, roOnly bool) error {
	if t.enter != nil {
		if err := t.enter(d, roOnly); err != nil {
			return err
		}
	}
	ents, err := readDir(d)
	if err != nil && len(ents) == 0 {
		return nil // unreadable: skipped
	}
	if err := t.count(len(ents)); err != nil {
		return err
	}
	for _, e := range ents {
		if err := t.entry(d, e, roOnly); err != nil {
			return err
		}
	}
	return nil
}

// entry classifies the entry e of the directory d and, for a directory
// that is neither hidden nor skipped, searches it.
func (t *tree) entry(d string, e entry, roOnly bool) error {
	p := d + "/" + e.name
	if d == "/" {
		p = "/" + e.name
	}
	class := t.c.Class(p)
	if class == classify.PathSkip {
		return nil
	}
	if class == classify.PathReadOnly && roOnly {
		class = classify.PathOpen // already read-only with its directory
	}
	switch e.typ {
	case typeLink:
		if class == classify.PathHide || class == classify.PathReadOnly {
			t.links[p] = class
		}
	case typeDir:
		switch class {
		case classify.PathHide:
			return t.add(t.hide, p)
		case classify.PathReadOnly:
			if err := t.add(t.ro, p); err != nil {
				return err
			}
			return t.dir(p, true)
		}
		return t.dir(p, roOnly)
	default:
		if e.typ == typeFile && e.ino != 0 {
			t.files[p] = e.ino
			t.inodes[e.ino] = append(t.inodes[e.ino], p)
		}
		switch class {
		case classify.PathHide:
			return t.add(t.hide, p)
		case classify.PathReadOnly:
			return t.add(t.ro, p)
		}
	}
	return nil
}

// forget drops p and everything below it from t.
func (t *tree) forget(p string) {
	below := func(q string) bool { return q == p || strings.HasPrefix(q, p+"/") }
	for _, m := range []map[string]bool{t.hide, t.ro} {
		for q := range m {
			if below(q) {
				delete(m, q)
			}
		}
	}
	for q := range t.links {
		if below(q) {
			delete(t.links, q)
		}
	}
	for q, ino := range t.files {
		if below(q) {
			delete(t.files, q)
			t.inodes[ino] = slices.DeleteFunc(t.inodes[ino], func(x string) bool { return x == q })
			if len(t.inodes[ino]) == 0 {
				delete(t.inodes, ino)
			}
		}
	}
}

// result returns what t knows: the links resolved, the other names of the
// hidden files with several links added, sorted.
func (t *tree) result() Found {
	f := Found{Entries: t.entries, Incomplete: t.incomplete}
	hide := maps(t.hide)
	ro := maps(t.ro)
	for p, class := range t.links {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue // dangling or looping: it reaches no file now
		}
		inside := slices.ContainsFunc(t.roots, func(r string) bool { return within(target, r) })
		switch {
		case inside && class == classify.PathHide:
			hide = append(hide, target)
		case inside:
			ro = append(ro, target)
		case class == classify.PathHide:
			f.NoRead = append(f.NoRead, target)
		}
	}
	hide = append(hide, t.otherNames(hide)...)
	f.Hide, f.ReadOnly, f.NoRead = sortedSet(hide), sortedSet(ro), sortedSet(f.NoRead)
	// A path both hidden and read-only is hidden.
	f.ReadOnly = slices.DeleteFunc(f.ReadOnly, func(p string) bool { _, ok := slices.BinarySearch(f.Hide, p); return ok })
	if f.Incomplete == "" && len(f.Hide)+len(f.ReadOnly)+len(f.NoRead) > t.limits.Found {
		f.Incomplete = fmt.Sprintf("over %d files to hide or keep read-only below the sandbox roots", t.limits.Found)
	}
	return f
}

// otherNames returns the other names, below the roots, of each hidden
// regular file that has more than one link: a name that does not match
// would read the same contents.
func (t *tree) otherNames(hide []string) []string {
	var out []string
	for _, p := range hide {
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		dev, ino, nlink, ok := fileID(st)
		if !ok || nlink < 2 {
			continue
		}
		for _, q := range t.inodes[ino] {
			if q == p {
				continue
			}
			if qs, err := os.Lstat(q); err == nil {
				if qdev, qino, _, ok := fileID(qs); ok && qdev == dev && qino == ino {
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// add puts p in the set m, or stops the search when the found limit is
// passed.
func (t *tree) add(m map[string]bool, p string) error {
	if len(t.hide)+len(t.ro)+len(t.links) >= t.limits.Found {
		t.incomplete = fmt.Sprintf("over %d files to hide or keep read-only below the sandbox roots", t.limits.Found)
		return errStop
	}
	m[p] = true
	return nil
}

// count adds n entries, and stops the search at the limits.
func (t *tree) count(n int) error {
	t.entries += n
	if t.entries > t.limits.Entries {
		t.incomplete = fmt.Sprintf("over %d entries below the sandbox roots", t.limits.Entries)
		return errStop
	}
	t.checked += n
	if !t.limits.Deadline.IsZero() && t.checked >= 1024 {
		t.checked = 0
		if time.Now().After(t.limits.Deadline) {
			t.incomplete = fmt.Sprintf("the search of the sandbox roots took too long (%d entries)", t.entries)
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

// maps returns the keys of m.
func maps(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
