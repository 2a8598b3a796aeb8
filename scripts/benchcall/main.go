// Command benchcall times whole process calls: it runs each given program
// -n times, interleaved so that machine noise hits all of them alike, with
// the same stdin, and prints the median and mean wall time of one call
// (start to exit) and each program's median as a multiple of the first's.
//
// Usage: benchcall -n 300 -stdin input.json FLOOR PROGRAM...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 300, "calls per program")
	stdin := flag.String("stdin", "", "file to feed on stdin")
	flag.Parse()
	progs := flag.Args()
	if len(progs) == 0 || *stdin == "" {
		fmt.Fprintln(os.Stderr, "usage: benchcall -n N -stdin FILE FLOOR PROGRAM...")
		os.Exit(2)
	}
	in, err := os.ReadFile(*stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	times := make([][]time.Duration, len(progs))
	for i := 0; i < *n; i++ {
		for j, p := range progs {
			cmd := exec.Command(p)
			cmd.Stdin = bytes.NewReader(in)
			var out bytes.Buffer
			cmd.Stdout = &out
			start := time.Now()
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", p, err)
				os.Exit(1)
			}
			times[j] = append(times[j], time.Since(start))
			if i == 0 && j > 0 {
				fmt.Printf("%s answered: %s", p, out.String())
			}
		}
	}
	var floor time.Duration
	for j, p := range progs {
		ts := times[j]
		slices.Sort(ts)
		med := ts[len(ts)/2]
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		if j == 0 {
			floor = med
		}
		fmt.Printf("%-40s median %8.3f ms  mean %8.3f ms  p90 %8.3f ms  x%.2f of the floor\n",
			p, ms(med), ms(sum/time.Duration(len(ts))), ms(ts[len(ts)*9/10]), float64(med)/float64(floor))
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
