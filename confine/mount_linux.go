//go:build linux

package confine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// mountAll builds the command's view of the file system in the launcher's
// private mount namespace (see [Ruleset]):
//
//   - each Tmpfs directory gets an empty tmpfs of its own, with the Keep
//     paths beneath it bound back in place;
//   - each Overlay directory gets an overlayfs with a private upper layer;
//   - each Replace path gets its replacement bind-mounted over it,
//     read-only;
//   - each existing ReadOnly path becomes a read-only bind mount of itself;
//   - each existing Hide path gets an empty file or directory of mode 000,
//     from a tmpfs made for the purpose, bind-mounted over it read-only.
//
// So that a ReadOnly or Hide path cannot be swapped for another, every
// directory between the outermost Write path holding it and the path
// itself (that Write path included, / excluded) first becomes a bind mount
// of itself: the kernel refuses to rename or remove a mount point (EBUSY),
// in this namespace only. A hidden or read-only path, being a mount point,
// cannot be removed, renamed, or hard-linked elsewhere either (EXDEV).
// Landlock then keeps the program from unmounting or remounting anything (a
// domain with file system rules denies mount(2), umount(2) and
// pivot_root(2)).
//
// A path that does not exist is skipped; one reached through a symlink is
// an error (the ruleset holds resolved paths). A directory the caller holds
// open from before (the working directory, which run enters again, an
// inherited descriptor) still leads to the mounts as they were. The program
// cannot reach the namespace it came from through /proc/PID/cwd or
// /proc/PID/root either: Landlock denies it the /proc entries of processes
// outside its domain (its ptrace restrictions). The mounts use the mount
// API of Linux 5.12 (fsopen(2), open_tree(2), mount_setattr(2),
// move_mount(2)), which every kernel with Landlock ABI 2 has.
func mountAll(rs Ruleset) error {
	// Mount events must not propagate to the namespace we came from.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make / private: %w", err)
	}
	m := &mounter{rs: rs, pinned: map[string]bool{}, stand: -1}
	defer m.close()
	for _, d := range rs.Tmpfs {
		if err := m.tmpfs(d); err != nil {
			return fmt.Errorf("private directory %s: %w", d, err)
		}
	}
	for _, d := range rs.Overlay {
		if err := m.overlay(d); err != nil {
			return fmt.Errorf("overlaid directory %s: %w", d, err)
		}
	}
	keys := make([]string, 0, len(rs.Replace))
	for k := range rs.Replace {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := m.replace(k, rs.Replace[k]); err != nil {
			return fmt.Errorf("replaced file %s: %w", k, err)
		}
	}
	type target struct {
		path string
		hide bool
	}
	var ts []target
	for _, p := range rs.ReadOnly {
		ts = append(ts, target{p, false})
	}
	for _, p := range rs.Hide {
		ts = append(ts, target{p, true})
	}
	// Outer paths first, so that a pin or a read-only directory never
	// covers a mount made below it before.
	slices.SortFunc(ts, func(a, b target) int { return strings.Compare(a.path, b.path) })
	for _, t := range ts {
		what := "read-only path"
		if t.hide {
			what = "hidden path"
		}
		fd, err := openNoSymlinks(t.path)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if t.hide && errors.Is(err, unix.EACCES) {
			// The launcher, with every capability the command could
			// have and more, cannot reach it (a socket in another
			// user's directory): neither can the command.
			continue
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", what, t.path, err)
		}
		var st unix.Stat_t
		err = unix.Fstat(fd, &st)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("%s %s: %w", what, t.path, err)
		}
		if err := m.pin(t.path); err != nil {
			return err
		}
		if t.hide {
			err = m.hide(t.path, st.Mode&unix.S_IFMT == unix.S_IFDIR)
		} else {
			err = bindSelf(t.path, true)
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", what, t.path, err)
		}
	}
	return nil
}

// mounter is the state of mountAll.
type mounter struct {
	rs     Ruleset
	pinned map[string]bool
	// stand is the root of a detached tmpfs holding "f", an empty file,
	// and "d", an empty directory, both mode 000: what stands in for a
	// hidden path; -1 until needed.
	stand int
}

func (m *mounter) close() {
	if m.stand >= 0 {
		unix.Close(m.stand)
	}
}

// pin makes every directory between the outermost Write path holding p
// and p (that Write path included, / and p excluded) a mount point.
func (m *mounter) pin(p string) error {
	var root string
	for _, w := range m.rs.Write {
		if within(p, w) && (root == "" || len(w) < len(root)) {
			root = w
		}
	}
	if root == "" {
		return nil
	}
	for d := root; d != p; d = next(d, p) {
		if d == "/" || m.pinned[d] {
			continue
		}
		if err := bindSelf(d, false); err != nil {
			return fmt.Errorf("pin %s: %w", d, err)
		}
		m.pinned[d] = true
	}
	return nil
}

// newTmpfs creates a detached tmpfs (fsopen(2), fsmount(2)) and returns the
// descriptor of its root.
func newTmpfs(mode string) (int, error) {
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("fsopen tmpfs: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "mode", mode); err != nil {
		return -1, fmt.Errorf("fsconfig mode: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return -1, fmt.Errorf("fsconfig create: %w", err)
	}
	mfd, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
	if err != nil {
		return -1, fmt.Errorf("fsmount: %w", err)
	}
	return mfd, nil
}

// tmpfs mounts an empty tmpfs (mode 1777 for a directory everyone used,
// like /dev/shm; 0700 else) over the existing directory d, and binds the
// Keep paths beneath d back in it, each at its place (the directories on
// the way made 0700).
func (m *mounter) tmpfs(d string) error {
	fd, err := openNoSymlinks(d)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return fmt.Errorf("not a directory")
	}
	// What is kept is opened before the tmpfs covers it.
	type kept struct {
		rel string
		fd  int
		dir bool
	}
	var keep []kept
	defer func() {
		for _, k := range keep {
			unix.Close(k.fd)
		}
	}()
	for _, k := range m.rs.Keep {
		if k == d || !within(k, d) {
			continue
		}
		kfd, err := openNoSymlinks(k)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return fmt.Errorf("kept path %s: %w", k, err)
		}
		var kst unix.Stat_t
		if err := unix.Fstat(kfd, &kst); err != nil {
			unix.Close(kfd)
			return fmt.Errorf("kept path %s: %w", k, err)
		}
		keep = append(keep, kept{strings.TrimPrefix(k, d+"/"), kfd, kst.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	mode := "0700"
	if st.Mode&unix.S_ISVTX != 0 {
		mode = "1777"
	}
	mfd, err := newTmpfs(mode)
	if err != nil {
		return err
	}
	defer unix.Close(mfd)
	for _, k := range keep {
		if err := placeholder(mfd, k.rel, k.dir); err != nil {
			return fmt.Errorf("kept path %s: %w", k.rel, err)
		}
	}
	if err := unix.MoveMount(mfd, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	for _, k := range keep {
		dst, err := openNoSymlinks(d + "/" + k.rel)
		if err != nil {
			return fmt.Errorf("kept path %s: %w", k.rel, err)
		}
		tree, err := unix.OpenTree(k.fd, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH)
		if err == nil {
			err = unix.MoveMount(tree, "", dst, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH)
			unix.Close(tree)
		}
		unix.Close(dst)
		if err != nil {
			return fmt.Errorf("kept path %s: %w", k.rel, err)
		}
	}
	return nil
}

// placeholder makes rel, a relative path, beneath the directory dirfd: the
// directories on the way (0700), then an empty directory or file.
func placeholder(dirfd int, rel string, dir bool) error {
	els := strings.Split(rel, "/")
	for i := range els[:len(els)-1] {
		if err := unix.Mkdirat(dirfd, strings.Join(els[:i+1], "/"), 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return err
		}
	}
	if dir {
		return unix.Mkdirat(dirfd, rel, 0o700)
	}
	f, err := unix.Openat(dirfd, rel, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	return unix.Close(f)
}

// overlay mounts over the existing directory d an overlayfs whose lower
// layer is d itself and whose upper layer is a fresh tmpfs: the command
// sees d's files and may change them, in the tmpfs only. In a user
// namespace overlayfs keeps its metadata in user.* extended attributes
// (userxattr, Linux 5.11).
func (m *mounter) overlay(d string) error {
	fd, err := openNoSymlinks(d)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return fmt.Errorf("not a directory")
	}
	up, err := newTmpfs("0755")
	if err != nil {
		return err
	}
	defer unix.Close(up)
	for _, n := range []string{"upper", "work"} {
		if err := unix.Mkdirat(up, n, 0o755); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	fsfd, err := unix.Fsopen("overlay", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("fsopen overlay: %w", err)
	}
	defer unix.Close(fsfd)
	self := fmt.Sprintf("/proc/self/fd/%d", up)
	for _, kv := range [][2]string{{"lowerdir", fmt.Sprintf("/proc/self/fd/%d", fd)}, {"upperdir", self + "/upper"}, {"workdir", self + "/work"}} {
		if err := unix.FsconfigSetString(fsfd, kv[0], kv[1]); err != nil {
			return fmt.Errorf("fsconfig %s: %w", kv[0], err)
		}
	}
	if err := unix.FsconfigSetFlag(fsfd, "userxattr"); err != nil {
		return fmt.Errorf("fsconfig userxattr: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return fmt.Errorf("fsconfig create: %w", err)
	}
	mfd, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
	if err != nil {
		return fmt.Errorf("fsmount: %w", err)
	}
	defer unix.Close(mfd)
	if err := unix.MoveMount(mfd, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}

// replace bind-mounts the regular file with, read-only, over the regular
// file p.
func (m *mounter) replace(p, with string) error {
	dst, err := openNoSymlinks(p)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dst)
	src, err := openNoSymlinks(with)
	if err != nil {
		return fmt.Errorf("replacement %s: %w", with, err)
	}
	defer unix.Close(src)
	for _, fd := range []int{dst, src} {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG {
			return fmt.Errorf("not a regular file")
		}
	}
	if err := m.pin(p); err != nil {
		return err
	}
	return moveClone(src, "", dst)
}

// hide mounts the stand-in for a directory (dir) or anything else over p.
func (m *mounter) hide(p string, dir bool) error {
	if m.stand < 0 {
		fd, err := newTmpfs("0755")
		if err != nil {
			return err
		}
		m.stand = fd
		if err := unix.Mkdirat(fd, "d", 0); err != nil {
			return fmt.Errorf("stand-in directory: %w", err)
		}
		f, err := unix.Openat(fd, "f", unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("stand-in file: %w", err)
		}
		unix.Close(f)
		// The umask may have left bits: none is wanted.
		for _, n := range []string{"d", "f"} {
			if err := unix.Fchmodat(fd, n, 0, 0); err != nil {
				return fmt.Errorf("stand-in %s: %w", n, err)
			}
		}
	}
	name := "f"
	if dir {
		name = "d"
	}
	dst, err := openNoSymlinks(p)
	if err != nil {
		return err
	}
	defer unix.Close(dst)
	return moveClone(m.stand, name, dst)
}

// moveClone clones the file or directory name beneath dirfd (itself when
// name is "") as a read-only bind mount and moves it over dst.
func moveClone(dirfd int, name string, dst int) error {
	flags := unix.OPEN_TREE_CLONE | unix.OPEN_TREE_CLOEXEC
	if name == "" {
		flags |= unix.AT_EMPTY_PATH
	}
	tree, err := unix.OpenTree(dirfd, name, uint(flags))
	if err != nil {
		return fmt.Errorf("open_tree: %w", err)
	}
	defer unix.Close(tree)
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
	if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
		return fmt.Errorf("mount_setattr: %w", err)
	}
	if err := unix.MoveMount(tree, "", dst, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}
