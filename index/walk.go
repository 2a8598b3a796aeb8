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
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/gitconfig"
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

// maxRepos bounds the nested repositories a search reports; past it the
// search is incomplete: a repository it left out would be one no later
// call judges (pipeline's NoteRepos), so 64 made with git init would hide
// a 65th with a hook. Each costs the hook a few stat calls
// (gitconfig.Derive reads at most 64 repositories' configuration).
const maxRepos = 1024

// DefaultLimits: two million entries, 2,048 paths.
var DefaultLimits = Limits{Entries: 2_000_000, Found: 2048}

// Found is what a search found. Every path is absolute, clean and resolved
// (no symlink in it), sorted, without duplicates.
type Found struct {
	// Hide are the files and directories to hide: matched by a Read deny
	// rule, or the target (inside a root) of a symlink that is, or another
	// name (a hard link) of a file that is, found anywhere below the roots,
	// confine.program_writable trees included (see Walk).
	Hide []string `json:"hide,omitempty"`
	// Links maps each name of Hide that is there only as another name (a
	// hard link) of a hidden regular file to that file's hidden name.
	Links map[string]string `json:"links,omitempty"`
	// ReadOnly are the files and directories to keep read-only.
	ReadOnly []string `json:"readonly,omitempty"`
	// NoRead are the targets outside every root of symlinks a Read deny
	// rule matches: Landlock can deny reading them.
	NoRead []string `json:"noread,omitempty"`
	// Repos are the directories below the roots (the roots themselves
	// excluded) that hold an entry named .git, a directory, a file or a
	// symlink, or that are a repository themselves (gitconfig.IsGitDir):
	// nested repositories (a vendored checkout, one an earlier command
	// made with git init or git clone), whose configuration and hooks a
	// later unconfined git reads (see pipeline's readOnly). Those inside
	// a skipped tree (node_modules) are not found.
	Repos []string `json:"repos,omitempty"`
	// Entries is how many directory entries the search looked at.
	Entries int `json:"entries"`
	// Incomplete says why the search did not finish ("" when it did): a
	// limit, the deadline, a directory the daemon could not watch. An
	// incomplete result must not be used to confine a command that would
	// run without a question.
	Incomplete string `json:"incomplete,omitempty"`
}

// inGitDir reports whether the directory d is a .git or lies in one:
// its repositories (.git itself, modules/NAME, worktrees/NAME) are the
// repository's own, judged with it (pipeline's watch of modules).
func inGitDir(d string) bool {
	return strings.HasSuffix(d, "/.git") || strings.Contains(d, "/.git/")
}

// rootFS is the whole file system as gitconfig reads it.
var rootFS = os.DirFS("/").(fs.ReadLinkFS)

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
	// skipped are the directories below the roots that are not searched
	// (confine.program_writable: .git, node_modules): looked through only
	// for the other names of a hidden file whose links are not all found
	// elsewhere (otherNames).
	skipped map[string]bool
	// repos are the directories seen holding a .git entry (Found.Repos).
	repos map[string]bool
	// stamps are, after result, what it saw of each hidden regular file
	// and of each other name found in a skipped tree: while each still
	// holds, the answer holds (see daemon.answer), unless unsettled: a
	// hidden file's names were not all found, and one not found (in a
	// hidden directory, outside the roots) may be moved into a skipped
	// tree unseen.
	stamps    []stamp
	unsettled bool
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
		links: map[string]classify.PathClass{}, files: map[string]uint64{}, inodes: map[uint64][]string{},
		skipped: map[string]bool{}, repos: map[string]bool{}}
}

// Walk searches each root (absolute, clean, resolved directories) for the
// paths c hides or keeps read-only. It does not follow symlinks, and does
// not descend into a hidden or skipped directory (a read-only one it
// searches for paths to hide). A symlink that c hides or keeps read-only
// adds its target, resolved: inside a root to Hide or ReadOnly, outside to
// NoRead (hidden ones only). A hidden regular file with more than one link
// also hides its other names below the roots: those the search saw, and,
// when these are fewer than its link count, those found in the skipped
// trees (confine.program_writable), which are listed for it then, within
// what is left of limits. Names elsewhere (outside the roots, or past a
// limit) are not found, and the result does not say so: the caller
// compares each hidden file's link count with the names it hides (see
// pipeline's linksHeld). A root that is missing or
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
		t.skipped[root] = true
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
	switch {
	case t.repos[d] || slices.Contains(t.roots, d):
	case e.name == ".git" && (e.typ == typeDir || e.typ == typeFile || e.typ == typeLink),
		// A .git symlink counts too: git follows it. So does a directory
		// that is a repository itself (HEAD, objects, refs): git run in
		// it takes it before any .git above.
		(e.name == "HEAD" || e.name == "objects" || e.name == "refs" || e.name == "commondir") && !inGitDir(d) && gitconfig.IsGitDir(rootFS, d):
		if len(t.repos) >= maxRepos {
			t.incomplete = fmt.Sprintf("over %d nested git repositories below the sandbox roots", maxRepos)
			return errStop
		}
		t.repos[d] = true
	}
	class := t.c.Class(p)
	if class == classify.PathSkip {
		// Not searched; its directories are remembered, its files known
		// by inode (package-lock.json may be another name of .env).
		switch {
		case e.typ == typeDir:
			t.skipped[p] = true
		case e.typ == typeFile && e.ino != 0:
			t.files[p] = e.ino
			t.inodes[e.ino] = append(t.inodes[e.ino], p)
		}
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
	for q := range t.skipped {
		if below(q) {
			delete(t.skipped, q)
		}
	}
	for q := range t.repos {
		// p is the repository's .git, or a directory above it.
		if below(q) || q+"/.git" == p {
			delete(t.repos, q)
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
// hidden files with several links added, sorted. It sets t.stamps.
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
	var other []string
	other, f.Links = t.otherNames(sortedSet(hide))
	hide = append(hide, other...)
	f.Hide, f.ReadOnly, f.NoRead = sortedSet(hide), sortedSet(ro), sortedSet(f.NoRead)
	f.Repos = sortedSet(maps(t.repos))
	// A path both hidden and read-only is hidden.
	f.ReadOnly = slices.DeleteFunc(f.ReadOnly, func(p string) bool { _, ok := slices.BinarySearch(f.Hide, p); return ok })
	if f.Incomplete == "" && len(f.Hide)+len(f.ReadOnly)+len(f.NoRead) > t.limits.Found {
		f.Incomplete = fmt.Sprintf("over %d files to hide or keep read-only below the sandbox roots", t.limits.Found)
	}
	return f
}

// stamp is what a search saw of one path: its device, inode and link
// count.
type stamp struct {
	path            string
	dev, ino, nlink uint64
}

// holds reports whether s.path is still what the search saw (lstat(2)).
func (s stamp) holds() bool {
	st, err := os.Lstat(s.path)
	if err != nil {
		return false
	}
	dev, ino, nlink, ok := fileID(st)
	return ok && dev == s.dev && ino == s.ino && nlink == s.nlink
}

// sameFile reports whether p is (lstat(2)) the inode ino of device dev.
func sameFile(p string, dev, ino uint64) bool {
	st, err := os.Lstat(p)
	if err != nil {
		return false
	}
	d, i, _, ok := fileID(st)
	return ok && d == dev && i == ino
}

// otherNames returns the other names, below the roots, of each hidden
// regular file of hide (sorted) that has more than one link: a name that
// does not match would read the same contents. It returns them with the
// hidden name each shares its inode with. Where the names the search saw
// are fewer than the file's link count, the skipped trees are searched
// (searchSkipped). It sets t.stamps: each hidden regular file, and each
// name found in a skipped tree, as lstat(2) saw it; and t.unsettled when
// some name was not found.
func (t *tree) otherNames(hide []string) ([]string, map[string]string) {
	type id struct{ dev, ino uint64 }
	type want struct {
		path  string
		nlink uint64
		names map[string]bool
	}
	t.stamps = nil
	wants := map[id]*want{}
	var order []id
	for _, p := range hide {
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		dev, ino, nlink, ok := fileID(st)
		if !ok {
			continue
		}
		t.stamps = append(t.stamps, stamp{p, dev, ino, nlink})
		if nlink < 2 {
			continue
		}
		k := id{dev, ino}
		w := wants[k]
		if w == nil {
			w = &want{path: p, nlink: nlink, names: map[string]bool{}}
			wants[k] = w
			order = append(order, k)
		}
		w.names[p] = true
		for _, q := range t.inodes[ino] {
			if !w.names[q] && sameFile(q, dev, ino) {
				w.names[q] = true
			}
		}
	}
	missing := map[uint64]bool{}
	for k, w := range wants {
		if uint64(len(w.names)) < w.nlink {
			missing[k.ino] = true
		}
	}
	defer func() { t.unsettled = len(missing) > 0 }()
	if len(missing) > 0 {
		t.searchSkipped(missing, func(q string, ino uint64) bool {
			st, err := os.Lstat(q)
			if err != nil {
				return false
			}
			dev, qino, nlink, ok := fileID(st)
			w := wants[id{dev, qino}]
			if !ok || qino != ino || w == nil || w.names[q] {
				return false
			}
			w.names[q] = true
			t.stamps = append(t.stamps, stamp{q, dev, qino, nlink})
			if uint64(len(w.names)) >= w.nlink {
				delete(missing, ino)
			}
			return len(missing) == 0
		})
	}
	hidden := map[string]bool{}
	for _, p := range hide {
		hidden[p] = true
	}
	var out []string
	var links map[string]string
	for _, k := range order {
		w := wants[k]
		for q := range w.names {
			if !hidden[q] {
				out = append(out, q)
				if links == nil {
					links = map[string]string{}
				}
				links[q] = w.path
			}
		}
	}
	return out, links
}

// searchSkipped lists the skipped trees (t.skipped, sorted, not following
// symlinks) and calls found for each regular file whose inode number is in
// inos, until found returns true. It looks at no more entries than the
// limits leave (Entries less those the search saw; the deadline), and
// stops there without a word: a name it did not find is left out, and the
// caller's count of names against links says so.
func (t *tree) searchSkipped(inos map[uint64]bool, found func(p string, ino uint64) bool) {
	budget := t.limits.Entries - t.entries
	checked := 0
	var walk func(d string) bool
	walk = func(d string) bool {
		ents, err := readDir(d)
		if err != nil && len(ents) == 0 {
			return false
		}
		budget -= len(ents)
		checked += len(ents)
		if budget < 0 {
			return true
		}
		if !t.limits.Deadline.IsZero() && checked >= 1024 {
			checked = 0
			if time.Now().After(t.limits.Deadline) {
				return true
			}
		}
		for _, e := range ents {
			p := d + "/" + e.name
			if d == "/" {
				p = "/" + e.name
			}
			switch {
			case e.typ == typeDir:
				if walk(p) {
					return true
				}
			case e.typ == typeFile && inos[e.ino]:
				if found(p, e.ino) {
					return true
				}
			}
		}
		return false
	}
	for _, d := range sortedSet(maps(t.skipped)) {
		if walk(d) {
			return
		}
	}
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
