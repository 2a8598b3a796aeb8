// Safezone-proxy is the network proxy of a confined command that has a
// network namespace of its own (package netproxy). safezone's launcher
// starts it, one per command, as
//
//	safezone-proxy serve CONFIG
//
// with the socket it sends the listening sockets through as descriptor 3.
// It is a program of its own because it links Go's net package, which the
// hook binary does not: install it beside safezone
// (go install github.com/safezonehq/safezone/cmd/safezone-proxy@latest).
package main

import (
	"os"

	"github.com/safezonehq/safezone/netproxy"
)

func main() {
	os.Exit(netproxy.Main(os.Args[1:], os.Stderr))
}
