package index

// entry is one directory entry: its name, type and inode number (0 where
// the system does not say).
type entry struct {
	name string
	typ  uint8
	ino  uint64
}

// The entry types.
const (
	typeOther uint8 = iota // a socket, a FIFO, a device, or not known
	typeDir
	typeFile
	typeLink
)
