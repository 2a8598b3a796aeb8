//go:build unix

package refusals

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) of f, released when f is closed.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// Running reports whether a collector holds d's lock.
func Running(d Dirs) bool {
	f, err := os.Open(d.Lock())
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil
}
