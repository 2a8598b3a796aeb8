// Command benchcall times whole process calls: it runs each given program
// -n times, interleaved so that machine noise hits all of them alike, with
// the same stdin, and prints for each the median, mean and 90th percentile
// wall time of one call (start to exit), and its cost as a multiple of the
// first program's (the floor): the ratio of the medians, and the median of
// the ratios paired by round (each round runs every program once, one
// after the other, so a paired ratio compares calls made under the same
// load; on a noisy machine it is the steadier figure), and the median
// number of page faults a call takes (getrusage's minor faults: the cost
// of a process start grows with the pages it touches; they include the
// pages safezone populates in bulk at start-up, package prefault, which
// cost no trap each: scripts/benchstart counts the faults taken one by one
// with perf), and the median CPU
// time of a call (user and system, getrusage's, paired as the wall times
// are: on a loaded machine the wall time holds the waits for a processor,
// the CPU time does not).
//
// A program is a path, or @FILE: the command line in FILE, one argument a
// line (for commands with arguments, such as the confining launcher).
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
	"strings"
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
	argvs := make([][]string, len(progs))
	for j, p := range progs {
		if argvs[j], err = argv(p); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	times := make([][]time.Duration, len(progs))
	faults := make([][]int64, len(progs))
	cpus := make([][]time.Duration, len(progs))
	for i := 0; i < *n; i++ {
		for j, p := range progs {
			d, cpu, flt, out, err := call(argvs[j], in)
			if err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n%s", p, err, out)
				os.Exit(1)
			}
			times[j] = append(times[j], d)
			faults[j] = append(faults[j], flt)
			cpus[j] = append(cpus[j], cpu)
			if i == 0 && j > 0 && len(out) > 0 {
				fmt.Printf("%s answered: %s", p, out)
			}
		}
	}
	report(progs, times, cpus, faults)
}

// argv is the command line of the program p (a path or @FILE).
func argv(p string) ([]string, error) {
	file, ok := strings.CutPrefix(p, "@")
	if !ok {
		return []string{p}, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	args := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(args) == 0 || args[0] == "" {
		return nil, fmt.Errorf("%s: no command", file)
	}
	return args, nil
}

// call runs one command with in on stdin and returns its wall time, its CPU
// time and minor page faults (those of its children included) and its
// stdout.
func call(args []string, in []byte) (time.Duration, time.Duration, int64, []byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if cmd.ProcessState == nil {
		return d, 0, 0, out.Bytes(), err
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return d, cpu, minorFaults(cmd.ProcessState), out.Bytes(), err
}

// report prints one line per program.
func report(progs []string, times, cpus [][]time.Duration, faults [][]int64) {
	ratios := make([][]float64, len(progs))
	cpuRatios := make([][]float64, len(progs))
	for j := range progs {
		for i, t := range times[j] {
			ratios[j] = append(ratios[j], float64(t)/float64(times[0][i]))
			if cpus[0][i] > 0 {
				cpuRatios[j] = append(cpuRatios[j], float64(cpus[j][i])/float64(cpus[0][i]))
			}
		}
	}
	var floor time.Duration
	for j, p := range progs {
		ts := slices.Clone(times[j])
		slices.Sort(ts)
		med := ts[len(ts)/2]
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		if j == 0 {
			floor = med
		}
		slices.Sort(ratios[j])
		name := p
		if len(name) > 40 {
			name = "..." + name[len(name)-37:]
		}
		fs := slices.Clone(faults[j])
		slices.Sort(fs)
		cs := slices.Clone(cpus[j])
		slices.Sort(cs)
		slices.Sort(cpuRatios[j])
		cpuPaired := 0.0
		if len(cpuRatios[j]) > 0 {
			cpuPaired = cpuRatios[j][len(cpuRatios[j])/2]
		}
		fmt.Printf("%-40s median %8.3f ms  mean %8.3f ms  p90 %8.3f ms  x%.2f of the floor (paired x%.2f)  %d page faults  cpu %.3f ms (paired x%.2f)\n",
			name, ms(med), ms(sum/time.Duration(len(ts))), ms(ts[len(ts)*9/10]), float64(med)/float64(floor), ratios[j][len(ratios[j])/2], fs[len(fs)/2],
			ms(cs[len(cs)/2]), cpuPaired)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
