package pipeline

import "syscall"

func idOf(st *syscall.Stat_t) fileID {
	return fileID{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size,
		Mtime: st.Mtimespec.Sec*1e9 + st.Mtimespec.Nsec, Ctime: st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec}
}
