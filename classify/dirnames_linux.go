//go:build linux

package classify

import (
	"bytes"
	"encoding/binary"
	"syscall"
	"unsafe"
)

// eachRootName calls f with the name of each entry of the directory abs
// (absolute), "." and ".." left out, in the order getdents64(2) gives
// them, reading into buf (os.ReadDir reads 8 KiB at a time); f's argument
// is valid only during the call; past limit bytes of records it stops
// with errDirTooBig. It makes what
// os.ReadDir would read without a file, an entry, a string or a sort for
// each (os/dir_unix.go: the same open flags, the same records, entries of
// inode 0 skipped); ok is false where the platform has no such reading.
func eachRootName(abs string, buf []byte, limit int, f func(name string)) (ok bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(abs, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_DIRECTORY, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return true, err
	}
	defer syscall.Close(fd)
	return true, eachNameFD(fd, buf, limit, f)
}

// eachNameFD is eachRootName on the directory open as fd (for reading, at
// its start), which it leaves open.
func eachNameFD(fd int, buf []byte, limit int, f func(name string)) error {
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		if limit -= n; limit < 0 {
			return errDirTooBig
		}
		// struct linux_dirent64 (getdents64(2)): d_ino at 0, d_off at 8,
		// d_reclen at 16, d_type at 18, d_name from 19, NUL-terminated.
		for b := buf[:n]; len(b) > 0; {
			if len(b) < 19 {
				return errDirent
			}
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return errDirent
			}
			ino, name := binary.NativeEndian.Uint64(b[:8]), b[19:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || len(name) == 0 {
				continue
			}
			s := unsafe.String(&name[0], len(name))
			if s == "." || s == ".." {
				continue
			}
			f(s)
		}
	}
}
