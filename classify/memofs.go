package classify

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
)

// memoFS remembers every Lstat and ReadLink answer for the length of one
// decision: the project root, the home directory and every target share
// their leading directories, which would otherwise be inspected again for
// each. It also gives the decision one consistent view of each name.
type memoFS struct {
	fs.ReadLinkFS
	lstat map[string]lstatResult
	link  map[string]linkResult
	// dirs are the directories a resolution through this view reached by
	// an existing directory that is no symbolic link (walk.step), each
	// absolute: physical paths, whose every component is such a directory.
	// The parent of each is there too (or is "/"), so that a later
	// resolution can start at the deepest one its path begins with
	// (walk.skipKnown).
	dirs map[string]struct{}
	// dirFDs are directories knowDir opened for reading, by absolute
	// path: the first read of each (eachName) uses and closes its
	// descriptor; closeDirs closes those left.
	dirFDs map[string]int
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
	// absent: a directory read found no such name (absentFrom); Lstat
	// answers with a "does not exist" error naming it.
	absent bool
}

type linkResult struct {
	target string
	err    error
}

// CloseMemoFS closes the directories a [MemoFS] view holds open for a
// later read ([ResolveDir] keeps the directory it opened for the
// decision's read of it; [Decide] closes them when it returns): a caller
// that made a view and may not decide with it calls it when done. It does
// nothing to another file system, and the view stays usable (a later read
// opens the directory by its path).
func CloseMemoFS(fsys fs.ReadLinkFS) {
	if m, ok := fsys.(*memoFS); ok {
		m.closeDirs()
	}
}

// MemoFS returns a view of fsys that asks fsys each Lstat and ReadLink
// question once and then repeats its answer, errors included; Open and
// the rest go to fsys. [Decide] uses such a view when it is given one and
// makes its own otherwise, so that a caller can share one with the checks
// it makes around a decision ([Resolve] of the same directories). The view
// is a snapshot: a name created, removed or relinked after it was asked
// about is not seen, so it must not outlive the work it was made for, nor
// span a change the caller makes itself. It is not safe for concurrent
// use.
func MemoFS(fsys fs.ReadLinkFS) fs.ReadLinkFS {
	if m, ok := fsys.(*memoFS); ok {
		return m
	}
	return newMemoFS(fsys)
}

func newMemoFS(fsys fs.ReadLinkFS) *memoFS {
	return &memoFS{ReadLinkFS: fsys, lstat: make(map[string]lstatResult, 16), link: map[string]linkResult{}}
}

func (m *memoFS) Lstat(name string) (fs.FileInfo, error) {
	fi, absent, err := m.lstatOrAbsent(name)
	if absent {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	return fi, err
}

// lstatOrAbsent is Lstat, except that for a name a directory read found
// missing (absentFrom) it reports absent instead of making an error.
func (m *memoFS) lstatOrAbsent(name string) (fi fs.FileInfo, absent bool, err error) {
	if r, ok := m.lstat[name]; ok {
		return r.fi, r.absent, r.err
	}
	answered := false
	if fs.FS(m.ReadLinkFS) == osRoot {
		fi, answered, err = lstatRoot(name)
	}
	if !answered {
		fi, err = m.ReadLinkFS.Lstat(name)
	}
	m.lstat[name] = lstatResult{fi: fi, err: err}
	return fi, false, err
}

// knownAbsent reports whether a directory read found no such name
// (absentFrom), without asking the file system.
func (m *memoFS) knownAbsent(name string) bool {
	r, ok := m.lstat[name]
	return ok && r.absent
}

// knownMissing reports whether the view's answer for the name of abs
// (absolute: "/" and the name), without asking the file system, is that
// it is missing as a walk sees it (walk.step): a directory read found no
// such name, or Lstat answered with an error notExist takes for missing
// (the hook's policy cache check asks many of the self-protected names
// through the view before the decision). A name the view also knows as a
// directory (memoFS.dirs: answers of different moments) is not.
func (m *memoFS) knownMissing(abs string) bool {
	r, ok := m.lstat[abs[1:]]
	if !ok || !r.absent && (r.err == nil || !notExist(r.err)) {
		return false
	}
	_, dir := m.dirs[abs]
	return !dir
}

func (m *memoFS) ReadLink(name string) (string, error) {
	if r, ok := m.link[name]; ok {
		return r.target, r.err
	}
	t, err := m.ReadLinkFS.ReadLink(name)
	m.link[name] = linkResult{t, err}
	return t, err
}

// listDirMin is how many names of one directory a decision must be about to
// look up before the directory is read instead: a read costs about four
// system calls (open, two getdents, close), an lstat one.
const listDirMin = 6

// listDirMaxSize bounds the size (st_size) of a directory read instead of
// looked up name by name: a few blocks, a few hundred entries; a larger one
// costs more to read than the lstats it saves.
const listDirMaxSize = 16 << 10

// listDirMaxRecords bounds the records (getdents64's, larger than the
// file system's own) read from a directory whose size was not asked for
// (knowDir): about what listDirMaxSize holds.
const listDirMaxRecords = 32 << 10

// absentFrom reads the directory dir (a physical path, without its leading
// "/", as Lstat takes names; "" for the root) once and remembers, for each
// of names that it does not hold, the answer Lstat would give: does not
// exist. It changes no answer: a name it holds, a name that is not plain
// ASCII (on a file system that folds case or normalises, lstat finds
// spellings a listing does not show: such names, and any the listing holds
// in another case or in a spelling Linux's casefold takes for it,
// kernelFolds, are left to Lstat), and a directory that cannot be read or
// is too large are left to Lstat. A file system that normalises to
// compatibility forms (ZFS normalization=formKC or formKD: a fullwidth
// "．ｓｓｈ" is ".ssh" there) is not covered.
func (m *memoFS) absentFrom(dir string, names []string) {
	m.absentFromAtLeast(dir, names, 1)
}

// absentFromAtLeast is absentFrom when least or more of names are still
// to learn about: the view holds no answer for them (the hook's policy
// cache check asks about many of the names a decision's self-protection
// wants, through the same view); with fewer, the directory is not read
// (each is looked up by itself, if at all, which costs less).
func (m *memoFS) absentFromAtLeast(dir string, names []string, least int) {
	// The names to learn about, and their paths, made in one string.
	var buf strings.Builder
	buf.Grow(len(names) * (len(dir) + 16))
	want, paths := make([]string, 0, len(names)), make([]string, 0, len(names))
	for _, n := range names {
		if !plainASCII(n) {
			continue
		}
		start := buf.Len()
		if dir != "" {
			buf.WriteString(dir)
			buf.WriteByte('/')
		}
		buf.WriteString(n)
		full := buf.String()[start:]
		if _, known := m.lstat[full]; known {
			continue
		}
		want, paths = append(want, n), append(paths, full)
	}
	if len(want) == 0 || len(want) < least {
		return
	}
	// A directory knowDir learnt about is a directory: its size is not
	// asked for, its read stops after as many bytes of records instead.
	if _, known := m.dirs["/"+dir]; !known || m.hasLstat(dir) {
		fi, err := m.Lstat(dirOrRoot(dir))
		if err != nil || !fi.IsDir() || fi.Size() > listDirMaxSize {
			return
		}
	}
	held := make([]bool, len(want))
	if err := m.eachName(dir, listDirMaxRecords, func(e string) {
		// An entry all ASCII folds to a name of its own length only; one
		// that is not may fold to a shorter one (K, the Kelvin sign, to
		// k) or a longer one (kernelFolds), and is compared with every
		// name.
		ascii := true
		for i := 0; i < len(e); i++ {
			if e[i] >= 0x80 {
				ascii = false
				break
			}
		}
		if !ascii {
			e = kernelFolds.Replace(e)
		}
		for i, n := range want {
			if !held[i] && (!ascii || len(e) == len(n)) {
				held[i] = strings.EqualFold(e, n)
			}
		}
	}); err != nil {
		return
	}
	for i, p := range paths {
		if !held[i] {
			m.lstat[p] = lstatResult{absent: true}
		}
	}
}

// kernelFolds spells, in ASCII, the characters that a directory which
// folds case finds by an ASCII name strings.EqualFold does not match (it
// folds one character to one: K, the Kelvin sign, and ſ, the long s, it
// matches itself): Linux's casefold (ext4, f2fs, tmpfs) is Unicode's full
// case folding after NFD (fs/unicode/mkutf8data.c, "Use the C+F
// casefold"), under which these, and no other non-ASCII character, become
// ASCII (Unicode 14; the kernel's tables are 12.1): an entry ".conﬁg" is
// what lstat(".config") finds there.
var kernelFolds = strings.NewReplacer(
	"\u00df", "ss", "\u1e9e", "ss", // ß, ẞ
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st", // ligatures
	"\u037e", ";", "\u1fef", "`", // canonical singletons (NFD)
)

// direntBufs are eachRootName's buffers, 8 KiB as os.ReadDir reads.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// osRoot is the file system production decides on.
var osRoot fs.FS = os.DirFS("/")

// eachName calls f with the name of each entry of the directory dir (as
// absentFrom takes it); f's argument is valid only during the call. On
// os.DirFS("/") the directory is read with the system calls themselves
// where the platform allows (eachRootName), else with fs.ReadDir.
func (m *memoFS) eachName(dir string, limit int, f func(string)) error {
	if fs.FS(m.ReadLinkFS) == osRoot {
		buf := direntBufs.Get().(*[]byte)
		defer direntBufs.Put(buf)
		if fd, ok := m.dirFDs["/"+dir]; ok {
			delete(m.dirFDs, "/"+dir)
			defer closeFD(fd)
			return eachNameFD(fd, *buf, limit, f)
		}
		if ok, err := eachRootName("/"+dir, *buf, limit, f); ok {
			return err
		}
	}
	entries, err := fs.ReadDir(m.ReadLinkFS, dirOrRoot(dir))
	if err != nil {
		return err
	}
	for _, e := range entries {
		f(e.Name())
	}
	return nil
}

// errDirent is a directory record that does not parse, or a directory
// that cannot be read as records where the platform has none.
var errDirent = errors.New("malformed directory entry")

// errDirTooBig is a directory whose records exceed a read's limit.
var errDirTooBig = errors.New("directory too large to read for a decision")

// hasLstat reports whether the view holds an answer for name.
func (m *memoFS) hasLstat(name string) bool {
	_, ok := m.lstat[name]
	return ok
}

// noLinksMin is how many components of a directory's path the view must
// not know yet before one openat2 call (and a close) is made instead of
// an lstat for each.
const noLinksMin = 3

// knowDir learns, in fewer system calls than a walk would make, that the
// directory abs (absolute and clean) and each directory above it exist
// and are reached through no symbolic link, and records them in dirs as a
// walk through them would (walk.step); a later [Resolve] of abs or of a
// path below it then starts there (walk.skipKnown). It learns nothing,
// and Resolve walks as before, on another file system than the real root
// (the kernel answers for that one), for a path of which fewer than
// noLinksMin components are unknown, when the view already holds an
// answer for one of them (a decision sees one answer per name), where
// openat2 cannot answer, and when the kernel finds a link, a missing
// component or a file on the way.
func (m *memoFS) knowDir(abs string) {
	if fs.FS(m.ReadLinkFS) != osRoot || len(abs) < 2 || abs[0] != '/' || path.Clean(abs) != abs {
		return
	}
	unknown := 0
	for p := abs; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
		if _, ok := m.dirs[p]; ok {
			break
		}
		if m.hasLstat(p[1:]) {
			return
		}
		unknown++
	}
	if unknown < noLinksMin {
		return
	}
	fd, dir, ok := openNoLinks(abs)
	if !ok || !dir {
		return
	}
	if fd >= 0 {
		if m.dirFDs == nil {
			m.dirFDs = make(map[string]int, 2)
		}
		if old, ok := m.dirFDs[abs]; ok {
			closeFD(old)
		}
		m.dirFDs[abs] = fd
	}
	m.recordDirs(abs)
}

// recordDirs records the directory abs (absolute and clean) and each
// above it in dirs, as reached through no symbolic link.
func (m *memoFS) recordDirs(abs string) {
	if m.dirs == nil {
		m.dirs = make(map[string]struct{}, 8)
	}
	for p := abs; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
		if _, ok := m.dirs[p]; ok {
			break
		}
		m.dirs[p] = struct{}{}
	}
}

// OpenNoLinks opens the file abs (absolute and clean) for reading where
// it is reached through no symbolic link, its last component included
// (openat2(2) with RESOLVE_NO_SYMLINKS, Linux 5.6), and, when fsys is a
// [MemoFS] view of the real root, records in the view that abs's
// directory and each directory above it exist and are reached through no
// link, as a walk through them would (walk.step): a later [Resolve] of a
// path below starts there (walk.skipKnown), with no lstat of those
// directories. The view learns nothing when it already holds an answer
// for one of them (a decision sees one answer per name). A caller that
// reads a file it expects to find through no link (safezone's policy
// cache, in its state directory) learns that much for free. ok is false,
// and nothing is opened, where this cannot be asked (another file system
// than the real root, a platform or kernel without openat2, a seccomp
// filter) or the kernel met a link (ELOOP): the caller opens the file as
// it would have. Otherwise fd is the open file (the caller closes it) or
// err is the kernel's reason (ENOENT: a component is missing, as a plain
// open would find too).
func OpenNoLinks(fsys fs.ReadLinkFS, abs string) (fd int, ok bool, err error) {
	m, memo := fsys.(*memoFS)
	if !memo || fs.FS(m.ReadLinkFS) != osRoot || len(abs) < 2 || abs[0] != '/' || path.Clean(abs) != abs {
		return -1, false, nil
	}
	fd, err = openFileNoLinks(abs)
	switch {
	case err == nil:
		m.noLinksTo(abs[:strings.LastIndexByte(abs, '/')])
		return fd, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return -1, true, err
	}
	return -1, false, nil
}

// noLinksTo records that the directory dir ("" for the root, else
// absolute and clean) and each directory above it exist and are reached
// through no symbolic link (the kernel said so), unless the view holds an
// answer for one of them.
func (m *memoFS) noLinksTo(dir string) {
	for p := dir; p != ""; p = p[:strings.LastIndexByte(p, '/')] {
		if _, ok := m.dirs[p]; ok {
			break
		}
		if m.hasLstat(p[1:]) {
			return
		}
	}
	m.recordDirs(dir)
}

// dirOrRoot is dir as an fs.FS name: "." for the root.
func dirOrRoot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// plainASCII reports whether s holds printable ASCII only.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return s != ""
}

// closeDirs closes the directories knowDir opened that no read used.
func (m *memoFS) closeDirs() {
	for abs, fd := range m.dirFDs {
		closeFD(fd)
		delete(m.dirFDs, abs)
	}
}
