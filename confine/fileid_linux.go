package confine

import (
	"fmt"
	"io/fs"
	"syscall"
)

// fileIdentity returns fi's device, inode, size, and modification and
// change times (ns) as one string: a file whose identity is unchanged has
// not been written, renamed over or chmod'ed since (the change time cannot
// be set by a program), and its link count.
func fileIdentity(fi fs.FileInfo) (id string, links uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return "", 0, false
	}
	return fmt.Sprintf("%d:%d:%d:%d.%09d:%d.%09d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec), uint64(st.Nlink), true
}
