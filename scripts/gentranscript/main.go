// Command gentranscript writes a generated Claude Code session transcript
// (see package transcripttest) to stdout or -o FILE, for replay fixtures
// and benchmarks.
//
// Usage:
//
//	go run ./scripts/gentranscript [-project DIR] [-home DIR] [-calls N] [-bytes N] [-seed N] [-malformed N] [-o FILE]
//
// Example, the 200 MB replay benchmark:
//
//	go run ./scripts/gentranscript -bytes 200000000 -project $PWD -o /tmp/big.jsonl
//	safezone replay /tmp/big.jsonl
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/safezonehq/safezone/transcript/transcripttest"
)

func main() {
	var o transcripttest.Options
	flag.StringVar(&o.Project, "project", "/home/dev/work/proj", "the session's project directory (every record's cwd)")
	flag.StringVar(&o.Home, "home", "/home/dev/work/home", "the home directory of paths outside the project")
	flag.IntVar(&o.Calls, "calls", 100, "tool calls to write at least")
	flag.Int64Var(&o.Bytes, "bytes", 0, "bytes to write at least")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed: the same options write the same transcript")
	flag.IntVar(&o.Malformed, "malformed", 0, "truncate every Nth line (0: none)")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gentranscript:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	st, err := transcripttest.Generate(w, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentranscript:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "gentranscript: %d calls, %d lines (%d malformed), %d bytes\n", st.Calls, st.Lines, st.Malformed, st.Bytes)
}
