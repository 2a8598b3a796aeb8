//go:build !linux

package netproxy

import (
	"fmt"
	"io"
)

// Main: only Linux gives a command a network namespace of its own.
func Main(args []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "safezone-proxy runs on Linux only")
	return 1
}
