//go:build unix

package main

import (
	"os"
	"syscall"
)

// minorFaults returns the minor page faults of a finished process
// (getrusage(2) ru_minflt), 0 when unknown.
func minorFaults(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru != nil {
		return int64(ru.Minflt)
	}
	return 0
}
