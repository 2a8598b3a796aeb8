//go:build linux

package index

import (
	"io/fs"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// readDir lists the directory d with getdents64(2): each entry's name, its
// type and inode number without a stat per entry. Where the file system
// gives no type (DT_UNKNOWN) it asks with lstat.
func readDir(d string) ([]entry, error) {
	fd, err := unix.Open(d, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var out []entry
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
			ino := *(*uint64)(unsafe.Pointer(&buf[off]))
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			dt := buf[off+18]
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
			e := entry{name: s, ino: ino}
			switch dt {
			case unix.DT_DIR:
				e.typ = typeDir
			case unix.DT_REG:
				e.typ = typeFile
			case unix.DT_LNK:
				e.typ = typeLink
			case unix.DT_UNKNOWN:
				var st unix.Stat_t
				if unix.Fstatat(fd, s, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
					e.typ = typeOf(st.Mode)
				}
			default:
				e.typ = typeOther
			}
			out = append(out, e)
		}
	}
}

func typeOf(mode uint32) uint8 {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return typeDir
	case unix.S_IFREG:
		return typeFile
	case unix.S_IFLNK:
		return typeLink
	}
	return typeOther
}

// fileID returns the device, inode and link count of st.
func fileID(st fs.FileInfo) (dev, ino, nlink uint64, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(s.Dev), s.Ino, uint64(s.Nlink), true
}
