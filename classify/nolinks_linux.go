//go:build linux

package classify

import "golang.org/x/sys/unix"

// openNoLinks reports whether the directory abs (absolute) exists and is
// reached through no symbolic link, in one openat2(2) call (Linux 5.6):
// RESOLVE_NO_SYMLINKS makes the kernel fail with ELOOP at the first link
// on the way, the last component included, and O_DIRECTORY with ENOTDIR
// where it is no directory. When it is, fd is the directory opened for
// reading (getdents64), or -1 where it cannot be read (EACCES: a second
// call answers with O_PATH instead); the caller closes fd. ok is false
// where openat2 cannot answer (ENOSYS before 5.6, EPERM from a seccomp
// filter, EAGAIN, EACCES on the way ...): the caller then walks the path
// with lstat.
func openNoLinks(abs string) (fd int, dir, ok bool) {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, abs, &how)
		switch {
		case err == nil && how.Flags&unix.O_PATH != 0:
			unix.Close(fd)
			return -1, true, true
		case err == nil:
			return fd, true, true
		case err == unix.EINTR:
		case err == unix.ELOOP || err == unix.ENOENT || err == unix.ENOTDIR:
			return -1, false, true
		case err == unix.EACCES && how.Flags&unix.O_PATH == 0:
			how.Flags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
		default:
			return -1, false, false
		}
	}
}

// openFileNoLinks opens the file abs (absolute) for reading, in one
// openat2(2) call with RESOLVE_NO_SYMLINKS: it fails with ELOOP at the
// first symbolic link on the way, the last component included.
func openFileNoLinks(abs string) (int, error) {
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, abs, &how)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// closeFD closes a descriptor openNoLinks returned.
func closeFD(fd int) { unix.Close(fd) }
