//go:build !linux

package classify

// openNoLinks is the Linux answer to "is abs a directory reached through
// no link?"; elsewhere ok is false and the caller walks the path.
func openNoLinks(string) (fd int, dir, ok bool) { return -1, false, false }

func closeFD(int) {}
