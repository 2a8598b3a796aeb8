// Package prefault maps, at start-up, the heap memory a hook call is about
// to use in one system call instead of one page fault per page.
//
// A hook call is a process start, and what a Go process start costs is
// mostly page faults: a call of safezone's touches some 200 pages of heap
// (a fresh span for each size class it allocates, the goroutines' stacks,
// the policy read back from its cache), each first touched by a fault. On
// the CI VM a fault costs 12 to 15 µs of CPU (a paravirtualised guest, as
// many cloud and sandbox VMs are), while populating a page in bulk with
// madvise(MADV_POPULATE_WRITE) costs about 1.2 µs (measured with a C loop,
// 2026-12-07). Imported for its side effect by package main, the package's
// initialisation finds the heap's frontier, where the next spans will come
// from, and populates the Above bytes past it. It imports only syscall and
// unsafe so that it runs among the first (Go initialises, of the packages
// whose imports are done, the first by import path: here right after
// syscall, before os and the libraries). With the stack's growth
// (growStack), a call's page faults taken one by one (perf stat -e
// page-faults, medians of 15, December 2026) fell from about 380 to 280 on
// an Edit and from 420 to 296 on a Bash command, the floor's being 218.
//
// Nothing changes in what the process does: the pages populated are the
// heap's own, mapped already, and read as zero as untouched pages do. The
// pages populated and never used cost their bulk mapping (about 0.3 ms
// for the 1 MiB on the CI VM; on a machine whose faults are cheap, the gain
// and the loss are both small). getrusage's minor-fault count includes the
// populated pages; perf's page-faults event counts only real faults.
//
// Linux only, from 5.14 (MADV_POPULATE_WRITE; older kernels answer EINVAL,
// and nothing is done); elsewhere the package does nothing. Every start of
// the binary does it (the arguments are not known this early): the Go
// launcher of a confined command too, where it measured neither faster nor
// slower (real faults 475 to 398, the time paired within the noise; before
// growStack was added).
package prefault

// Above is how much of the heap past its frontier is populated at
// start-up: in December 2026 a call's heap reached 0.5 to 1.0 MiB past
// the frontier the initialisation finds (perf record -e page-faults -d).
const Above = 1 << 20
