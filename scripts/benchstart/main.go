// Command benchstart prints where a process start goes, for scripts/bench:
// for each program, run -n times with the same stdin,
//
//   - its package initialisation (GODEBUG=inittrace=1, the Go runtime's
//     own trace, one line per package with init work): the packages, their
//     allocations and bytes, and the clock time of their inits summed
//     (median over the runs), then the -top packages by median clock time;
//   - its minor page faults (getrusage's ru_minflt, median), which count
//     the pages populated in bulk (madvise MADV_POPULATE_WRITE, package
//     prefault) as well, and, when perf(1) is on PATH, the page faults the
//     program took (perf stat's page-faults event, median of the runs):
//     the faults that cost one trap each;
//   - its system calls, when strace(1) is on PATH (strace -f -c, one run:
//     every thread's calls, the failed ones, and the -top by count; the
//     file system's calls summed: openat, newfstatat, statx, getdents64,
//     readlinkat, faccessat2).
//
// Counts (packages, allocations, page faults, system calls) are steady from
// run to run and show a regression on a noisy machine; clock times are not
// (compare them against the floor's in the same run).
//
// Usage: benchstart -n 20 -top 8 -stdin input.json PROGRAM...
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func main() {
	n := flag.Int("n", 20, "runs per program")
	top := flag.Int("top", 8, "packages and system calls listed")
	stdin := flag.String("stdin", "", "file to feed on stdin")
	flag.Parse()
	if flag.NArg() == 0 || *stdin == "" {
		fmt.Fprintln(os.Stderr, "usage: benchstart -n N -top K -stdin FILE PROGRAM...")
		os.Exit(2)
	}
	in, err := os.ReadFile(*stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	strace, _ := exec.LookPath("strace")
	perf, _ := exec.LookPath("perf")
	for _, prog := range flag.Args() {
		if err := report(prog, in, *n, *top, strace, perf); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", prog, err)
			os.Exit(1)
		}
	}
}

// pkgInit is one package's line of GODEBUG=inittrace=1 ("init PKG @T ms,
// C ms clock, B bytes, A allocs"; runtime/proc.go doInit1, Go 1.16+).
type pkgInit struct {
	clock         float64 // ms
	bytes, allocs int64
}

func report(prog string, in []byte, n, top int, strace, perf string) error {
	clocks := map[string][]float64{}
	last := map[string]pkgInit{}
	var sums []float64
	var faults []int64
	for range n {
		cmd := exec.Command(prog)
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		cmd.Stdin = bytes.NewReader(in)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if _, exit := err.(*exec.ExitError); !exit {
				return err
			}
		}
		faults = append(faults, minorFaults(cmd.ProcessState))
		sum := 0.0
		for p, pi := range parseInits(stderr.Bytes()) {
			clocks[p] = append(clocks[p], pi.clock)
			last[p] = pi
			sum += pi.clock
		}
		sums = append(sums, sum)
	}
	var allocs, bytes int64
	for _, pi := range last {
		allocs += pi.allocs
		bytes += pi.bytes
	}
	name := filepath.Base(prog)
	taken := "no perf on PATH"
	if perf != "" {
		taken = trapFaults(perf, prog, in, n)
	}
	fmt.Printf("%s: %d packages initialised, %d allocations, %d bytes; inits %.3f ms (median of %d runs); %d page faults (median; getrusage, with the pages populated in bulk), of them taken one by one: %s\n",
		name, len(last), allocs, bytes, median(sums), n, medianInt(faults), taken)
	type row struct {
		pkg string
		ms  float64
	}
	var rows []row
	for p, cs := range clocks {
		rows = append(rows, row{p, median(cs)})
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].ms > rows[j].ms || rows[i].ms == rows[j].ms && rows[i].pkg < rows[j].pkg
	})
	var parts []string
	for _, r := range rows[:min(top, len(rows))] {
		parts = append(parts, fmt.Sprintf("%s %.3f (%d allocs)", r.pkg, r.ms, last[r.pkg].allocs))
	}
	fmt.Printf("  slowest inits (ms): %s\n", strings.Join(parts, ", "))
	if strace == "" {
		fmt.Println("  system calls: (no strace on PATH)")
		return nil
	}
	return syscalls(strace, prog, in, top)
}

// trapFaults runs prog n times under perf stat -e page-faults (a software
// event counted in the page fault handler: pages populated in bulk are not
// counted) and returns the median, or why there is none (perf may be
// refused: kernel.perf_event_paranoid).
func trapFaults(perf, prog string, in []byte, n int) string {
	out, err := os.CreateTemp("", "benchstart-perf")
	if err != nil {
		return err.Error()
	}
	out.Close()
	defer os.Remove(out.Name())
	var counts []int64
	for range n {
		cmd := exec.Command(perf, "stat", "-x,", "-e", "page-faults", "-o", out.Name(), "--", prog)
		cmd.Stdin = bytes.NewReader(in)
		if err := cmd.Run(); err != nil {
			if _, exit := err.(*exec.ExitError); !exit {
				return err.Error()
			}
		}
		b, err := os.ReadFile(out.Name())
		if err != nil {
			return err.Error()
		}
		// perf stat -x,: "VALUE,UNIT,EVENT,..." after comment lines.
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Split(line, ",")
			if len(f) > 2 && f[2] == "page-faults" {
				if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					counts = append(counts, v)
				}
			}
		}
	}
	if len(counts) == 0 {
		return "perf stat counted none (kernel.perf_event_paranoid?)"
	}
	return fmt.Sprintf("%d (perf stat -e page-faults, median)", medianInt(counts))
}

// parseInits reads GODEBUG=inittrace=1 lines from a process's stderr.
func parseInits(stderr []byte) map[string]pkgInit {
	out := map[string]pkgInit{}
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		// init PKG @T ms, C ms clock, B bytes, A allocs
		if len(f) != 11 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		c, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		a, err3 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		out[f[1]] = pkgInit{clock: c, bytes: b, allocs: a}
	}
	return out
}

// syscalls runs prog once under strace -f -c and prints the counts.
func syscalls(strace, prog string, in []byte, top int) error {
	out, err := os.CreateTemp("", "benchstart-strace")
	if err != nil {
		return err
	}
	out.Close()
	defer os.Remove(out.Name())
	cmd := exec.Command(strace, "-f", "-c", "-o", out.Name(), prog)
	cmd.Stdin = bytes.NewReader(in)
	if err := cmd.Run(); err != nil {
		if _, exit := err.(*exec.ExitError); !exit {
			return err
		}
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		return err
	}
	type row struct {
		name          string
		calls, errors int
	}
	var rows []row
	total, failed, files := 0, 0, 0
	fileCalls := []string{"openat", "open", "newfstatat", "stat", "lstat", "statx", "getdents64", "readlinkat", "readlink", "faccessat2", "access"}
	// strace -c: "% time seconds usecs/call calls [errors] syscall", then
	// a "total" row.
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) < 5 || f[len(f)-1] == "total" {
			continue
		}
		calls, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		errs := 0
		if len(f) == 6 {
			errs, _ = strconv.Atoi(f[4])
		}
		r := row{f[len(f)-1], calls, errs}
		rows = append(rows, r)
		total += calls
		failed += errs
		if slices.Contains(fileCalls, r.name) {
			files += calls
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].calls > rows[j].calls || rows[i].calls == rows[j].calls && rows[i].name < rows[j].name
	})
	var parts []string
	for _, r := range rows[:min(top, len(rows))] {
		parts = append(parts, fmt.Sprintf("%s %d", r.name, r.calls))
	}
	fmt.Printf("  system calls: %d (%d failed), of the file system %d; most: %s\n", total, failed, files, strings.Join(parts, ", "))
	return nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianInt(v []int64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
