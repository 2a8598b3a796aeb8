//go:build !linux

package classify

import "syscall"

// openNoLinks is the Linux answer to "is abs a directory reached through
// no link?"; elsewhere ok is false and the caller walks the path.
func openNoLinks(string) (fd int, dir, ok bool) { return -1, false, false }

// openFileNoLinks is Linux's; elsewhere it is never answered (ENOSYS).
func openFileNoLinks(string) (int, error) { return -1, syscall.ENOSYS }

func closeFD(int) {}
