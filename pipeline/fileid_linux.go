package pipeline

import "syscall"

func idOf(st *syscall.Stat_t) fileID {
	return fileID{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size,
		Mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, Ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec}
}
