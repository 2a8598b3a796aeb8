package prefault

import (
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// resident reports how many of the pages of the n bytes at addr (page
// aligned) the kernel has mapped (mincore).
func resident(t *testing.T, addr uintptr, n int) int {
	t.Helper()
	page := syscall.Getpagesize()
	vec := make([]byte, (n+page-1)/page)
	if _, _, e := syscall.Syscall(syscall.SYS_MINCORE, addr, uintptr(n), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatalf("mincore: %v", e)
	}
	c := 0
	for _, v := range vec {
		c += int(v & 1)
	}
	return c
}

// start is the address of m's first byte.
func start(m []byte) uintptr { return uintptr(unsafe.Pointer(&m[0])) }

// TestRange populates a fresh anonymous mapping: none of its pages are
// mapped before, all are after, and they read as zero.
func TestRange(t *testing.T) {
	const size = 64 << 10
	m, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(m)
	if n := resident(t, start(m), len(m)); n != 0 {
		t.Fatalf("%d pages of a fresh mapping resident before", n)
	}
	err = Range(start(m), size)
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)")
	}
	if err != nil {
		t.Fatal(err)
	}
	if n, want := resident(t, start(m), len(m)), size/syscall.Getpagesize(); n != want {
		t.Fatalf("%d of %d pages resident after Range", n, want)
	}
	for i, b := range m {
		if b != 0 {
			t.Fatalf("byte %d is %d after Range, want 0", i, b)
		}
	}
}

// TestHeap: the range Heap populates starts on a page of the heap's and
// is resident afterwards (up to the end of the heap's mapping, when the
// range runs past it).
func TestHeap(t *testing.T) {
	const n = 128 << 10
	at, err := Heap(n)
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)")
	}
	if err != nil && !errors.Is(err, syscall.ENOMEM) {
		t.Fatal(err)
	}
	size := n
	if errors.Is(err, syscall.ENOMEM) {
		size = syscall.Getpagesize() // the mapping ended early: its first page at least
	}
	if got, want := resident(t, at, size), size/syscall.Getpagesize(); got != want {
		t.Fatalf("%d of %d pages resident from the heap's frontier after Heap", got, want)
	}
}

// TestRangeUnmapped: a range that runs past a mapping is populated up to
// its end and reported (ENOMEM), without harm.
func TestRangeUnmapped(t *testing.T) {
	page := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 4*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		t.Fatal(err)
	}
	// Unmap the last two pages (raw munmap: syscall.Munmap unmaps whole
	// mappings only): the range's second half is a hole.
	if _, _, e := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[2*page])), uintptr(2*page), 0); e != 0 {
		t.Fatal(e)
	}
	defer syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&m[0])), uintptr(2*page), 0)
	m = m[:2*page]
	err = Range(start(m), 4*page)
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("this kernel has no MADV_POPULATE_WRITE (Linux 5.14)")
	}
	if !errors.Is(err, syscall.ENOMEM) {
		t.Fatalf("Range over a hole: %v, want ENOMEM", err)
	}
	if n := resident(t, start(m), len(m)); n != 2 {
		t.Fatalf("%d of the 2 mapped pages resident", n)
	}
}

// TestEarlyInit keeps the package's imports to syscall and unsafe: Go
// initialises, of the packages whose imports are initialised, the first by
// import path, so an import of os (or of anything after it) would run the
// populating after os and the libraries' initialisations, whose heap
// pages would then be faulted in one by one.
func TestEarlyInit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p != "syscall" && p != "unsafe" {
				t.Errorf("%s imports %s: only syscall and unsafe keep the package's initialisation among the first", f, p)
			}
		}
	}
}
