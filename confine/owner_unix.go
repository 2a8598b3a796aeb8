//go:build unix

package confine

import (
	"io/fs"
	"syscall"
)

// fileOwner returns the user ID owning fi's file.
func fileOwner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
