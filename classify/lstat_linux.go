//go:build linux && (amd64 || arm64)

package classify

import (
	"io/fs"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatRootMax bounds the names lstatRoot answers for: "/", the name and
// a NUL fit in a buffer on the stack; a longer one goes to os.DirFS.
const lstatRootMax = 512 - 2

// lstatRoot is os.DirFS("/").Lstat(name), the same answer (a FileInfo
// whose Sys is the *syscall.Stat_t, and whose mode, size, time and name
// are os's; the same *fs.PathError, Op "lstat", Path name), made with one
// fstatat(2) call and one allocation (the answer) instead of four: the
// absolute path is spelled on the stack, not joined into a new string
// and copied into another for the kernel. ok is false for a name it
// leaves to os.DirFS: not fs.ValidPath, ".", longer than lstatRootMax,
// holding a NUL (os's error for it).
func lstatRoot(name string) (fi fs.FileInfo, ok bool, err error) {
	if len(name) > lstatRootMax || name == "." || !fs.ValidPath(name) || strings.IndexByte(name, 0) >= 0 {
		return nil, false, nil
	}
	var buf [lstatRootMax + 2]byte
	buf[0] = '/'
	copy(buf[1:], name)
	buf[1+len(name)] = 0
	var st syscall.Stat_t
	fd := unix.AT_FDCWD
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		switch e {
		case 0:
			return &rootInfo{name: name[strings.LastIndexByte(name, '/')+1:], sys: st}, true, nil
		case syscall.EINTR:
			continue
		}
		return nil, true, &fs.PathError{Op: "lstat", Path: name, Err: e}
	}
}

// rootInfo is lstatRoot's answer: os's fileStat (os/stat_linux.go,
// fillFileStatFromSys), its fields computed when asked.
type rootInfo struct {
	name string
	sys  syscall.Stat_t
}

func (i *rootInfo) Name() string       { return i.name }
func (i *rootInfo) Size() int64        { return i.sys.Size }
func (i *rootInfo) ModTime() time.Time { return time.Unix(i.sys.Mtim.Unix()) }
func (i *rootInfo) IsDir() bool        { return i.Mode().IsDir() }
func (i *rootInfo) Sys() any           { return &i.sys }

func (i *rootInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.sys.Mode & 0o777)
	switch i.sys.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if i.sys.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if i.sys.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if i.sys.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
