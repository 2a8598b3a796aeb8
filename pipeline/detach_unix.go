//go:build !windows

package pipeline

import "syscall"

// detached returns the process attributes that start a helper in a session
// of its own (setsid(2)): no controlling terminal, not signalled with the
// host's process group.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
