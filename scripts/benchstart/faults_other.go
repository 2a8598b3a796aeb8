//go:build !unix

package main

import "os"

// minorFaults is 0 where getrusage(2) is not available.
func minorFaults(*os.ProcessState) int64 { return 0 }
