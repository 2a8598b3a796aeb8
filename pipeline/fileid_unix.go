//go:build linux || darwin

package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/policy"
)

// statID returns the identity of the file at path, symbolic links followed.
func statID(path string) (fileID, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return fileID{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return idOf(&st), nil
}

// infoID returns the identity of the file fi describes.
func infoID(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return fileID{}, false
	}
	return idOf(st), true
}

// linkCount returns the device, inode number and link count (st_nlink) of
// the file fi describes; ok is false where fi holds no stat(2) record.
func linkCount(fi fs.FileInfo) (dev, ino, nlink uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), true
}

// readWithID is policy.ReadCapped that also returns the identity of the
// file it read, taken from the open file before reading it: a change after
// that changes its ctime, so that a cache keyed by the identity is never
// newer than the content.
func readWithID(path string) ([]byte, fileID, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileID{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fileID{}, false, err
	}
	id, ok := infoID(fi)
	data, err := io.ReadAll(io.LimitReader(f, policy.MaxFileSize+1))
	if err != nil {
		return nil, fileID{}, false, err
	}
	if len(data) > policy.MaxFileSize {
		return nil, fileID{}, false, fmt.Errorf("%s is over %d bytes", path, policy.MaxFileSize)
	}
	return data, id, ok, nil
}

// readCacheFile reads the policy cache at path, not through a symbolic
// link, when it can be trusted: a regular file of this user's (uid) that no
// one else may write, of least to most bytes. It uses the system calls
// themselves, not an os.File: a call reads this one file, and an os.File
// costs five more system calls (the network poller's registration, which a
// regular file refuses, and the descriptor's flags, set and restored) and a
// finalizer (issue 31). The file is opened through fsys's view where it
// can be (classify.OpenNoLinks: the state directory reached through no
// symbolic link, which the call's decision then need not look up again),
// else as before.
func readCacheFile(fsys fs.ReadLinkFS, path string, uid int, least, most int64) ([]byte, bool) {
	fd, answered, err := classify.OpenNoLinks(fsys, path)
	for !answered {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		answered = err != syscall.EINTR
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG ||
		int64(st.Uid) != int64(uid) || st.Mode&0o022 != 0 || st.Size < least || st.Size > most {
		return nil, false
	}
	data := make([]byte, st.Size)
	for n := 0; n < len(data); {
		m, err := syscall.Read(fd, data[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m == 0 {
			return nil, false // an error, or the file shrank
		}
		n += m
	}
	return data, true
}
