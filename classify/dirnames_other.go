//go:build !linux

package classify

// eachRootName is the Linux reading of a directory's names; elsewhere ok
// is false and the caller reads the directory through its file system.
func eachRootName(string, []byte, int, func(string)) (ok bool, err error) { return false, nil }

// eachNameFD is the Linux reading of an open directory; elsewhere no
// directory is opened for it (openNoLinks).
func eachNameFD(int, []byte, int, func(string)) error { return errDirent }
