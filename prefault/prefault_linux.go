package prefault

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14,
// include/uapi/asm-generic/mman-common.h; the same on every architecture).
const madvPopulateWrite = 0x17

// probeSize is the size of the allocation that finds the heap's frontier:
// large enough for a span of its own (5 pages, from the allocating P's
// page cache), small enough to stay below the size that bypasses it.
const probeSize = 40 << 10

// probe holds the frontier's allocation: kept from the stack, so the
// address is the heap's.
var probe []byte

func init() {
	_, _ = Heap(Above)
	growStack(0)
}

// Heap populates n bytes of the heap from its frontier up: the page of a
// fresh allocation of probeSize bytes (a page of the heap's, so the range
// starts inside its mapping). Errors are ignored: a kernel without
// MADV_POPULATE_WRITE, or a range that runs past the heap's mapping
// (populated up to there), only leaves pages to be faulted in as before;
// Heap returns the range's start and Range's error for the tests.
func Heap(n int) (uintptr, error) {
	probe = make([]byte, probeSize)
	at := uintptr(unsafe.Pointer(unsafe.SliceData(probe))) &^ uintptr(syscall.Getpagesize()-1)
	probe = nil
	return at, Range(at, n)
}

// Range populates, writable, the n bytes of this process's memory at addr
// (page aligned) with madvise(MADV_POPULATE_WRITE): the page tables filled
// in one system call, as if each page had been written, without writing
// them. The error is the kernel's: EINVAL before Linux 5.14, ENOMEM when
// part of the range is not mapped (the part before it is populated).
func Range(addr uintptr, n int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(n), madvPopulateWrite); e != 0 {
		return e
	}
	return nil
}

// stackFrame is the frame of growStack: large enough that the main
// goroutine's stack, 4 KiB when the package is initialised, grows at once
// to 64 KiB (runtime.newstack doubles it until the frame fits), the most a
// call was seen to need in December 2026 (a Bash command's analysis; an
// Edit's, 16 KiB).
const stackFrame = 40 << 10

// growStack, called with 0, grows the calling goroutine's stack to fit
// stackFrame without touching it: the frame is reserved by the function's
// prologue, and only written when n > 0. Grown here, while the stack holds
// three frames, the main goroutine's stack is copied once instead of four
// times later, deep in a call, where each copy reads the stack maps
// (pclntab) of every frame on it: about 9 page faults of the binary's.
//
//go:noinline
func growStack(n int) byte {
	if n > 0 {
		var buf [stackFrame]byte
		for i := range buf {
			buf[i] = byte(i + n)
		}
		return buf[n%len(buf)]
	}
	return 0
}
