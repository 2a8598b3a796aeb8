// Command launcher is the smallest program with the confine launcher in it,
// for the confine package's tests and benchmarks: the same dispatch the
// safezone binary's main does.
package main

import (
	"os"

	"github.com/safezonehq/safezone/confine"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == confine.Subcommand {
		os.Exit(confine.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Stderr.WriteString("usage: launcher " + confine.Subcommand + " ...\n")
	os.Exit(2)
}
