//go:build linux

package confine

// We do not use go-landlock (github.com/landlock-lsm/go-landlock): its
// Restrict applies a ruleset to every thread of the calling process (through
// psx or AllThreadsSyscall before Landlock ABI 8), while the launcher
// restricts only the one thread that then calls execve(2), and its rule
// options open paths following symlinks, while the read complement here
// opens every entry relative to its directory without following any.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock access rights, from the kernel's Landlock documentation
// (Documentation/userspace-api/landlock.rst, "Filesystem flags").
const (
	// llRead is the read right the ruleset handles. Only file contents are
	// restricted: LANDLOCK_ACCESS_FS_READ_DIR is not handled, so every
	// directory can be listed.
	llRead = unix.LANDLOCK_ACCESS_FS_READ_FILE

	// llWriteV1 are the write rights of Landlock ABI 1 (Linux 5.13).
	llWriteV1 = unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR |
		unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM

	// llFileRights are the rights a rule on a non-directory may hold;
	// landlock_add_rule(2) refuses directory rights on a file (EINVAL).
	llFileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE |
		unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE |
		unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// llWrite returns the write rights Landlock ABI version abi knows:
// LANDLOCK_ACCESS_FS_REFER (renaming and linking across directories) since
// ABI 2 (Linux 5.19), LANDLOCK_ACCESS_FS_TRUNCATE since ABI 3 (Linux 6.2).
// Under ABI 1, renaming and linking across directories is always denied.
// Execution (LANDLOCK_ACCESS_FS_EXECUTE), connecting to Unix sockets and
// the network are never handled, so never restricted; device ioctls are
// handled from ABI 5 (newBuilder, grantIoctl).
func llWrite(abi int) uint64 {
	w := uint64(llWriteV1)
	if abi >= 2 {
		w |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		w |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return w
}

// landlockABI returns the Landlock ABI version of the running kernel
// (landlock_create_ruleset(2) with LANDLOCK_CREATE_RULESET_VERSION), or an
// error saying why Landlock cannot be used.
func landlockABI() (int, error) {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch {
	case e == unix.ENOSYS:
		return 0, fmt.Errorf("%w: the kernel has no Landlock (Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK)", ErrUnavailable)
	case e == unix.EOPNOTSUPP:
		return 0, fmt.Errorf("%w: Landlock is disabled (add landlock to the kernel's lsm= boot parameter)", ErrUnavailable)
	case e != 0:
		return 0, fmt.Errorf("%w: landlock_create_ruleset: %v (a seccomp filter may block it)", ErrUnavailable, e)
	}
	return int(v), nil
}

// builder accumulates the rules of one Landlock ruleset.
type builder struct {
	fd    int    // the ruleset, from landlock_create_ruleset(2)
	write uint64 // the write rights this ABI knows
	stats stats
}

// stats counts what building a ruleset did, for the benchmarks.
type stats struct {
	ReadRules  int // rules granting read: the complement of the denied paths
	WriteRules int // rules granting write
	Listed     int // directories listed to build the read complement
	Skipped    int // Write paths skipped: missing, or a symlink
}

// newBuilder creates an empty ruleset handling reads and the writes of abi,
// from ABI 5 (Linux 6.10) the ioctls on devices opened under it
// (LANDLOCK_ACCESS_FS_IOCTL_DEV: see grantIoctl),
// and from ABI 6 (Linux 6.12) scoped: a confined process can neither signal
// a process outside its Landlock domain (an unconfined dev server or MCP
// server that SIGUSR1 would open to a debugger) nor connect to an abstract
// Unix socket made outside it (LANDLOCK_SCOPE_SIGNAL,
// LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET).
func newBuilder(abi int) (*builder, error) {
	// struct landlock_ruleset_attr: handled_access_fs, handled_access_net
	// (0: the network stays open), scoped. Before ABI 6 only the first
	// field is passed (size 8), which every ABI version accepts.
	attr := struct{ fs, net, scoped uint64 }{fs: uint64(llRead | llWrite(abi))}
	if abi >= 5 {
		attr.fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	size := uintptr(8)
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		size = unsafe.Sizeof(attr)
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return nil, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	return &builder{fd: int(fd), write: llWrite(abi)}, nil
}

func (b *builder) close() {
	if b.fd >= 0 {
		unix.Close(b.fd)
		b.fd = -1
	}
}

// add adds a rule granting rights beneath the file or directory open as fd
// (an O_PATH descriptor); for a non-directory the rights are cut to the
// ones a file can hold.
func (b *builder) add(fd int, rights uint64, dir bool) error {
	if !dir {
		rights &= llFileRights
	}
	// struct landlock_path_beneath_attr is packed (12 bytes); the kernel
	// reads no more than that.
	attr := struct {
		allowed uint64
		fd      int32
	}{rights, int32(fd)}
	_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(b.fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
	if e != 0 {
		return fmt.Errorf("landlock_add_rule: %w", e)
	}
	return nil
}

// buildRuleset returns a Landlock ruleset descriptor enforcing rs as the file
// system is now. The read complement is computed here, when the command
// starts, so it matches the directories as they are.
func buildRuleset(rs Ruleset, abi int) (fd int, st stats, err error) {
	b, err := newBuilder(abi)
	if err != nil {
		return -1, stats{}, err
	}
	defer func() {
		if err != nil {
			b.close()
		}
	}()
	for _, p := range rs.Write {
		if err := b.grantWrite(p); err != nil {
			return -1, b.stats, err
		}
	}
	if err := b.grantReadComplement(rs.NoRead, rs.Read, rs.Write); err != nil {
		return -1, b.stats, err
	}
	if abi >= 5 {
		if err := b.grantIoctl(); err != nil {
			return -1, b.stats, err
		}
	}
	return b.fd, b.stats, nil
}

// grantWrite grants every write right beneath p. A path that does not exist,
// or that is reached through a symlink, grants nothing: the ruleset holds
// resolved paths, so a symlink there is not what the hook judged.
func (b *builder) grantWrite(p string) error {
	fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		b.stats.Skipped++
		return nil
	}
	if err != nil {
		return fmt.Errorf("write path %s: %w", p, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("write path %s: %w", p, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		b.stats.Skipped++
		return nil
	}
	if err := b.add(fd, b.write, st.Mode&unix.S_IFMT == unix.S_IFDIR); err != nil {
		return fmt.Errorf("write path %s: %w", p, err)
	}
	b.stats.WriteRules++
	return nil
}

// ioctlDevices are the devices (or directories of devices) whose ioctls a
// confined program may use on a file it opens: the data devices, the
// pseudo-terminal multiplexer (a program making a pty), GPUs (nvidia*, DRI,
// AMD's kfd), KVM, FUSE, tun and sound. Not terminals: an ioctl on a
// terminal it opens (/dev/tty, /dev/pts/N: the user's own) could type into
// it (TIOCSTI, where dev.tty.legacy_tiocsti allows it), or into Claude
// Code's prompt. Descriptors open before the ruleset (stdin, stdout,
// stderr) are not restricted.
var ioctlDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/ptmx", "/dev/pts/ptmx",
	"/dev/dri", "/dev/kfd", "/dev/kvm", "/dev/fuse", "/dev/net", "/dev/snd"}

// grantIoctl grants LANDLOCK_ACCESS_FS_IOCTL_DEV on the ioctlDevices that
// exist and on /dev/nvidia*; every other device's ioctls (terminals first)
// are denied on files opened under the ruleset.
func (b *builder) grantIoctl() error {
	paths := ioctlDevices
	if ents, err := os.ReadDir("/dev"); err == nil {
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "nvidia") {
				paths = append(paths, "/dev/"+e.Name())
			}
		}
	}
	for _, p := range paths {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != nil {
			continue // missing, or a symlink: nothing granted
		}
		var st unix.Stat_t
		err = unix.Fstat(fd, &st)
		if err == nil && st.Mode&unix.S_IFMT != unix.S_IFLNK {
			err = b.add(fd, unix.LANDLOCK_ACCESS_FS_IOCTL_DEV, st.Mode&unix.S_IFMT == unix.S_IFDIR)
		}
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("ioctl path %s: %w", p, err)
		}
	}
	return nil
}

// grantReadComplement grants read beneath every file and directory but the
// NoRead paths, and again beneath the Read paths below those (the Write
// paths count as Read paths; see [Ruleset]). Landlock can only grant, so
// a denied path is carved out by granting each of its siblings, and each
// sibling of each of its ancestors, walking down from /; the ancestors
// themselves get no rule. Inside a denied directory the walk grants the
// Read paths alone, and carves a deeper NoRead path out of one of them
// the same way.
//
// The cost: an entry created later in one of these ancestor directories
// (beside a denied path, beside one of its ancestors, or the denied path
// itself), or anywhere in a denied directory but beneath a Read path, is
// unreadable until the next command starts. A symlink among the
// siblings gets no rule (reading through it is judged where it leads); an
// ancestor that is a symlink is an error, since the denied path would then
// be reachable, and granted, elsewhere. A directory that cannot be listed
// grants nothing but the way on to the paths below it.
func (b *builder) grantReadComplement(denied, read, write []string) error {
	root := &trieNode{}
	for _, p := range denied {
		root.insert(p, -1)
	}
	// Read and Write paths matter beneath a denied path only.
	for _, p := range append(slices.Clone(read), write...) {
		if slices.ContainsFunc(denied, func(d string) bool { return d != p && within(p, d) }) {
			root.insert(p, +1)
		}
	}
	fd, err := unix.Open("/", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open /: %w", err)
	}
	defer unix.Close(fd)
	readable := root.label >= 0
	if len(root.children) == 0 {
		if !readable {
			return nil // "/" itself is denied: nothing is readable
		}
		if err := b.add(fd, llRead, true); err != nil {
			return fmt.Errorf("read /: %w", err)
		}
		b.stats.ReadRules++
		return nil
	}
	return b.complement(fd, "/", root, readable)
}

// complement grants read on every entry of the directory dirfd (at path
// dir) that n does not name when the directory is readable (readable:
// the label of its nearest labelled ancestor, or of itself), and walks
// the entries n names: granting the readable ones that hold no labelled
// path, recursing into the others.
func (b *builder) complement(dirfd int, dir string, n *trieNode, readable bool) error {
	if readable {
		// A directory that cannot be listed grants nothing but the way on.
		entries, err := listDir(dirfd)
		if err != nil {
			entries = nil
		}
		b.stats.Listed++
		for _, e := range entries {
			if n.children[e.name] != nil {
				continue
			}
			if e.typ == unix.DT_LNK {
				continue
			}
			fd, err := unix.Openat(dirfd, e.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if errors.Is(err, unix.ENOENT) {
				continue // removed since the listing
			}
			if err != nil {
				return fmt.Errorf("read complement: %s: %w", join(dir, e.name), err)
			}
			err = b.grantRead(fd, e.typ)
			unix.Close(fd)
			if err != nil {
				return fmt.Errorf("read complement: %s: %w", join(dir, e.name), err)
			}
		}
	}
	for name, child := range n.children {
		p := join(dir, name)
		state := readable
		if child.label != 0 {
			state = child.label > 0
		}
		if len(child.children) == 0 {
			// A labelled path with nothing labelled below: granted whole,
			// or not at all.
			if !state {
				continue
			}
			fd, err := unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if errors.Is(err, unix.ENOENT) {
				continue // nothing there yet
			}
			if err != nil {
				return fmt.Errorf("read path %s: %w", p, err)
			}
			err = b.grantRead(fd, unix.DT_UNKNOWN)
			unix.Close(fd)
			if err != nil {
				return fmt.Errorf("read path %s: %w", p, err)
			}
			continue
		}
		fd, err := unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		switch {
		case errors.Is(err, unix.ENOENT):
			continue // nothing there yet: nothing beneath to grant
		case errors.Is(err, unix.ENOTDIR):
			// A symlink (O_NOFOLLOW|O_DIRECTORY fails with ENOTDIR on one)
			// or a file where the ruleset expects a directory.
			var st unix.Stat_t
			if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				return fmt.Errorf("read complement: %s, on the way to a denied or read path, is a symlink; the ruleset must hold resolved paths", p)
			}
			if !state {
				continue
			}
			fd, err = unix.Openat(dirfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				return fmt.Errorf("read complement: %s: %w", p, err)
			}
			// Nothing can lie beneath a file: it is not the way to anything.
			err = b.add(fd, llRead, false)
			unix.Close(fd)
			if err != nil {
				return fmt.Errorf("read complement: %s: %w", p, err)
			}
			b.stats.ReadRules++
			continue
		case err != nil:
			return fmt.Errorf("read complement: %s: %w", p, err)
		}
		err = b.complement(fd, p, child, state)
		unix.Close(fd)
		if err != nil {
			return err
		}
	}
	return nil
}

// grantRead grants read beneath the file or directory open as the O_PATH
// descriptor fd, whose type getdents reported as typ. Read (READ_FILE) is a
// right both files and directories can hold, so only a symlink, which gets
// no rule, needs telling apart; and the type getdents gives is enough for
// that, unless it gives none. (An entry replaced by a symlink since the
// listing gets a rule on the symlink itself, which grants nothing.)
func (b *builder) grantRead(fd int, typ uint8) error {
	if typ == unix.DT_UNKNOWN {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		if st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return nil
		}
	}
	if err := b.add(fd, llRead, true); err != nil {
		return err
	}
	b.stats.ReadRules++
	return nil
}

type dirEntry struct {
	name string
	typ  uint8 // DT_* from getdents64, DT_UNKNOWN where the file system does not say
}

// listDir lists the directory open as the O_PATH descriptor dirfd, without
// "." and "..". Where the file system gives no type (DT_UNKNOWN) it asks
// with fstatat so that symlinks are told apart.
func listDir(dirfd int) ([]dirEntry, error) {
	fd, err := unix.Openat(dirfd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var out []dirEntry
	buf := make([]byte, 16<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return out, err
		}
		if n <= 0 {
			break
		}
		for off := 0; off < n; {
			// struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			s := string(name)
			if s == "." || s == ".." {
				continue
			}
			if typ == unix.DT_UNKNOWN {
				var st unix.Stat_t
				if unix.Fstatat(dirfd, s, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
					typ = unix.DT_LNK
				}
			}
			out = append(out, dirEntry{s, typ})
		}
	}
	return out, nil
}

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// restrictThread enforces the ruleset fd on the calling OS thread only:
// PR_SET_NO_NEW_PRIVS, which landlock_restrict_self(2) requires of a
// process without CAP_SYS_ADMIN, then landlock_restrict_self with flags
// (the LANDLOCK_RESTRICT_SELF_LOG_* ones, or 0) and without
// LANDLOCK_RESTRICT_SELF_TSYNC. Both act on the calling thread alone. The
// caller must hold the thread (runtime.LockOSThread) and never hand it back:
// a program it then execve(2)s inherits the thread's Landlock domain and
// no_new_privs, and the other threads end at the execve.
func restrictThread(fd int, flags uintptr) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), flags, 0); e != 0 {
		if e == unix.E2BIG {
			return fmt.Errorf("landlock_restrict_self: too many nested Landlock domains (16 at most): %w", e)
		}
		return fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return nil
}

// trieNode is one path element of the NoRead and Read paths: label -1
// for a NoRead path, +1 for a Read one, 0 for a directory on the way.
type trieNode struct {
	label    int8
	children map[string]*trieNode
}

// insert labels the clean absolute path p; a NoRead label is not
// overwritten by a Read one (NoRead wins at the same path).
func (n *trieNode) insert(p string, label int8) {
	for _, el := range splitPath(p) {
		if n.children == nil {
			n.children = map[string]*trieNode{}
		}
		c := n.children[el]
		if c == nil {
			c = &trieNode{}
			n.children[el] = c
		}
		n = c
	}
	if n.label != -1 {
		n.label = label
	}
}

// splitPath splits a clean absolute path into its elements ("/" has none).
func splitPath(p string) []string {
	if p == "/" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

// reportFlags returns the landlock_restrict_self(2) flags that log what
// Landlock refuses the program the launcher execs, and the programs it
// starts: LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON, known from ABI 7 (an
// older kernel refuses the flag, and logs nothing after an exec anyway).
func reportFlags(r *Report, abi int) uintptr {
	if r == nil || abi < 7 {
		return 0
	}
	return unix.LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON
}

// register writes the launcher's registration in r.Dir (see [Ruleset]'s
// Report): the file named by the process ID, holding the path of the
// running executable, a newline, the process's start time (field 22 of
// /proc/self/stat, which the exec keeps), a newline and r.Call, replaced
// whole (written beside it, then renamed: a collector never reads half of
// one). The directory is made if missing (mode 0700).
func register(r *Report) error {
	if r == nil {
		return nil
	}
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return fmt.Errorf("reporting refusals: %w", err)
	}
	start, err := selfStart()
	if err != nil {
		return fmt.Errorf("reporting refusals: %w", err)
	}
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return fmt.Errorf("reporting refusals: %w", err)
	}
	name := filepath.Join(r.Dir, strconv.Itoa(os.Getpid()))
	tmp := name + ".new"
	if err := os.WriteFile(tmp, []byte(exe+"\n"+start+"\n"+r.Call), 0o600); err != nil {
		return fmt.Errorf("reporting refusals: %w", err)
	}
	if err := os.Rename(tmp, name); err != nil {
		return fmt.Errorf("reporting refusals: %w", err)
	}
	return nil
}

// selfStart returns this process's start time: field 22 of
// /proc/self/stat (proc(5)), counted after the last ')' since the command
// name may hold spaces and parentheses.
func selfStart() (string, error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return "", err
	}
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 20 {
		return "", fmt.Errorf("/proc/self/stat: %.80q has no field 22", b)
	}
	return f[19], nil
}
