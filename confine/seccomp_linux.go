//go:build linux

package confine

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// auditArch is the AUDIT_ARCH_* value of this build's architecture
// (linux/audit.h), which a seccomp filter must check before it trusts a
// system call number; 0 where the filter is not supported.
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return 0xC000003E // AUDIT_ARCH_X86_64
	case "arm64":
		return 0xC00000B7 // AUDIT_ARCH_AARCH64
	}
	return 0
}

// denyUnixSockets installs, on the calling thread (which must stay locked
// and exec the program), a seccomp filter under which socket(2) of the
// AF_UNIX family fails with EACCES: a program can then connect to no Unix
// socket bound on the file system (nor bind one), which Landlock cannot
// refuse (connect(2) is not a file access it governs up to ABI 7).
// io_uring, which makes and connects sockets without socket(2), fails the
// same way. socketpair(2) still works, and so do pipes. It is what Anthropic's
// sandbox-runtime does on Linux for the same reason (its seccomp filter),
// used here where no mount namespace can hide a socket. A system call of
// another architecture (x32, or 32-bit compat) fails with EACCES as a whole.
// no_new_privs must be set first.
func denyUnixSockets() error {
	arch := auditArch()
	if arch == 0 {
		return fmt.Errorf("no seccomp filter for %s", runtime.GOARCH)
	}
	const (
		ldAbs   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq     = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge     = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		ret     = unix.BPF_RET | unix.BPF_K
		allow   = unix.SECCOMP_RET_ALLOW
		refuse  = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
		offNr   = 0  // struct seccomp_data: int nr
		offArch = 4  // __u32 arch
		offArg0 = 16 // __u64 args[0]; its low 32 bits first (little-endian)
	)
	filter := []unix.SockFilter{
		{Code: ldAbs, K: offArch},
		{Code: jeq, Jt: 1, K: arch},
		{Code: ret, K: refuse},
		{Code: ldAbs, K: offNr},
		// x32 system calls carry bit 30 (__X32_SYSCALL_BIT) on x86_64.
		{Code: jge, Jt: 7, K: 0x40000000},
		// io_uring makes and connects sockets without socket(2)
		// (IORING_OP_SOCKET, IORING_OP_CONNECT): no io_uring at all, as
		// under Claude Code's own seccomp filter.
		{Code: jeq, Jt: 6, K: unix.SYS_IO_URING_SETUP},
		{Code: jeq, Jt: 5, K: unix.SYS_IO_URING_ENTER},
		{Code: jeq, Jt: 4, K: unix.SYS_IO_URING_REGISTER},
		{Code: jeq, Jf: 2, K: unix.SYS_SOCKET},
		{Code: ldAbs, K: offArg0},
		{Code: jeq, Jt: 1, K: unix.AF_UNIX},
		{Code: ret, K: allow},
		{Code: ret, K: refuse},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, e := unix.Syscall(unix.SYS_PRCTL, unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return fmt.Errorf("prctl(PR_SET_SECCOMP): %w", e)
	}
	runtime.KeepAlive(filter)
	return nil
}
