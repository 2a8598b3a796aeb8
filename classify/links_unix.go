//go:build linux || darwin

package classify

import (
	"io/fs"
	"syscall"
)

// linkCount returns the link count (st_nlink) in fi's stat record, 0 where
// it holds none.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st != nil {
		return uint64(st.Nlink)
	}
	return 0
}
