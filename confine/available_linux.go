//go:build linux

package confine

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Available says whether the launcher can confine commands here. It starts
// no process and takes well under a millisecond, so the hook can call it on
// every tool call.
//
// Landlock is checked for real: the kernel's ABI version is read, then a
// ruleset is created and enforced on a throwaway thread, which ends with
// the goroutine that locked it. This catches a kernel without Landlock,
// Landlock left out of the lsm= boot parameter, and a seccomp filter
// (a container runtime's) that refuses the Landlock system calls.
//
// User namespaces, needed for ReadOnly paths, cannot be tried without
// starting a process (a multi-threaded process cannot enter one): Available
// reads the settings that forbid them (user.max_user_namespaces,
// kernel.unprivileged_userns_clone, kernel.apparmor_restrict_unprivileged_userns).
// A seccomp filter or a security module that refuses them anyway makes the
// launcher fail, and the command not run; [Probe] tries for real.
func Available() Status {
	var s Status
	abi, err := landlockABI()
	if err == nil {
		err = probeLandlock(abi)
	}
	if err != nil {
		s.Landlock = err
		s.ReadOnly = fmt.Errorf("%w: no Landlock", ErrUnavailable)
		return s
	}
	s.LandlockABI = abi
	s.ReadOnly = userNamespaceSettings(os.Geteuid(), readSysctl)
	return s
}

// probeLandlock enforces an empty ruleset on a new thread that is then
// thrown away, and reports what failed.
func probeLandlock(abi int) error {
	done := make(chan error, 1)
	go func() {
		// Never unlocked: when this goroutine returns, the runtime ends the
		// thread, and its Landlock domain and no_new_privs with it.
		runtime.LockOSThread()
		b, err := newBuilder(abi)
		if err != nil {
			done <- fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		defer b.close()
		if err := restrictThread(b.fd, 0); err != nil {
			done <- fmt.Errorf("%w: %v", ErrUnavailable, err)
			return
		}
		done <- nil
	}()
	return <-done
}

// readSysctl returns the trimmed content of /proc/sys/NAME, with dots as
// slashes, and whether it could be read.
func readSysctl(name string) (string, bool) {
	b, err := os.ReadFile("/proc/sys/" + strings.ReplaceAll(name, ".", "/"))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// userNamespaceSettings reports the first system setting that keeps a
// process of effective user ID euid from creating a user namespace in which
// it can mount, read through sysctl.
func userNamespaceSettings(euid int, sysctl func(string) (string, bool)) error {
	if v, ok := sysctl("user.max_user_namespaces"); ok && v == "0" {
		return fmt.Errorf("%w: user namespaces are disabled (user.max_user_namespaces = 0)", ErrUnavailable)
	}
	if euid == 0 {
		return nil // the settings below restrict unprivileged users only
	}
	if v, ok := sysctl("kernel.unprivileged_userns_clone"); ok && v == "0" {
		return fmt.Errorf("%w: unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)", ErrUnavailable)
	}
	if v, ok := sysctl("kernel.apparmor_restrict_unprivileged_userns"); ok && v == "1" {
		return fmt.Errorf("%w: AppArmor denies capabilities in unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)", ErrUnavailable)
	}
	return nil
}
