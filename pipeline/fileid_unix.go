//go:build linux || darwin

package pipeline

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

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

// openCacheFile opens the policy cache at path for reading, not through a
// symbolic link, and returns it with its size when it can be trusted: a
// regular file of this user's (uid) that no one else may write.
func openCacheFile(path string, uid int) (*os.File, int64, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, 0, false
	}
	fi, err := f.Stat()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if err != nil || !ok || !fi.Mode().IsRegular() || int64(st.Uid) != int64(uid) || fi.Mode().Perm()&0o022 != 0 {
		f.Close()
		return nil, 0, false
	}
	return f, fi.Size(), true
}
