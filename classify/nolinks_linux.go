//go:build linux

package classify

import "golang.org/x/sys/unix"

// openNoLinks reports whether the directory abs (absolute) exists and is
// reached through no symbolic link, in one openat2(2) call (Linux 5.6):
// RESOLVE_NO_SYMLINKS makes the kernel fail with ELOOP at the first link
// on the way, the last component included, and O_DIRECTORY with ENOTDIR
// where it is no directory. ok is false where openat2 cannot answer
// (ENOSYS before 5.6, EPERM from a seccomp filter, EAGAIN, EACCES ...):
// the caller then walks the path with lstat.
func openNoLinks(abs string) (dir, ok bool) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for {
		fd, err := unix.Openat2(unix.AT_FDCWD, abs, &how)
		switch err {
		case nil:
			unix.Close(fd)
			return true, true
		case unix.EINTR:
			continue
		case unix.ELOOP, unix.ENOENT, unix.ENOTDIR:
			return false, true
		}
		return false, false
	}
}
