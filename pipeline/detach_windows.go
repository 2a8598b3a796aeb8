//go:build windows

package pipeline

import "syscall"

// detached returns nil on Windows: the helpers it would start (the index
// daemon, the fast launcher's build) serve Linux confinement only, and a
// child started with no attributes is not tied to the hook's console.
func detached() *syscall.SysProcAttr { return nil }
