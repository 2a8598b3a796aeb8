package pipeline

import (
	"io/fs"
	"syscall"
	"time"
)

// inodeChanged is fi's ctime: when its inode last changed (created, written,
// renamed, linked, its mode or times set), which no unprivileged program
// can set back. Without a syscall.Stat_t (a test file system), the
// modification time.
func inodeChanged(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}
