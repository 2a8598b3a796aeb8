//go:build !unix

package refusals

import "os"

// lockFile does nothing: there is no collector here to race with.
func lockFile(*os.File) error { return nil }

// Running is false: no collector runs here.
func Running(Dirs) bool { return false }
