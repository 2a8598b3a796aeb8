package confine

import (
	"bytes"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// The fast launcher. The Go launcher ([Main]) needs two starts of the
// safezone binary for a ruleset with a mount namespace: a Go process has
// threads before main runs, and a process with threads cannot enter a new
// user namespace, so the first stage starts a second one in new namespaces.
// The fast launcher, fast/launch.c, does the same work (the namespace, the
// mounts, the Landlock ruleset, the exec) in one small process that has no
// other thread: about a fifth of the Go launcher's cost (README,
// "Performance"). It takes the Go launcher's arguments (bash and exec
// modes; NoRead paths it hides as Hide ones) and fails the same way
// (ExitCannotRun, the command not run).
//
// It is built on the user's machine from the source embedded here, by the
// system's C compiler ([BuildFast]); where there is none, or the build
// fails its check, the Go launcher runs, and `safezone doctor` says which
// one is in use.

//go:embed fast/launch.c
var fastSource []byte

// FastKey names the fast launcher built from this source (an FNV-64 hash
// of it, in hex): a new source is built anew, beside the old.
func FastKey() string {
	h := fnv.New64a()
	h.Write(fastSource)
	fmt.Fprintf(h, "\x00%s/%s", runtime.GOOS, runtime.GOARCH)
	return hex.EncodeToString(h.Sum(nil))
}

// trustedCompilers are the C compilers BuildFast uses: only at these
// absolute paths, where a system's package manager puts them, never one
// $PATH finds (the agent may write directories $PATH lists).
var trustedCompilers = []string{"/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang", "/usr/local/bin/cc", "/usr/local/bin/gcc", "/usr/local/bin/clang"}

// ErrNoCompiler is returned by BuildFast where no C compiler is found.
var ErrNoCompiler = errors.New("no C compiler (cc, gcc or clang in /usr/bin or /usr/local/bin)")

// BuildFast builds the fast launcher into dst, which it replaces atomically
// (a temporary file beside it, renamed), and checks that it confines
// (a hidden file unreadable, a write outside refused, a write inside
// done): a launcher that does not is removed and its failure returned. It
// runs the first of trustedCompilers that exists and is owned by root,
// with a minimal environment, and takes at most a minute. Linux only.
func BuildFast(dst string) error {
	if runtime.GOOS != "linux" {
		return fmt.Errorf("%w: the fast launcher is for Linux", ErrUnavailable)
	}
	cc := ""
	for _, c := range trustedCompilers {
		if ownedByRoot(c) {
			cc = c
			break
		}
	}
	if cc == "" {
		return ErrNoCompiler
	}
	dir := filepath.Dir(dst)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "launch.c")
	if err := os.WriteFile(src, fastSource, 0o600); err != nil {
		return err
	}
	out := filepath.Join(tmp, "safezone-launch")
	cmd := exec.Command(cc, "-O2", "-o", out, src)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C"}
	cmd.Dir = tmp
	var msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &msg, &msg
	if err := runWithin(cmd, time.Minute); err != nil {
		return fmt.Errorf("%s: %v: %s", cc, err, strings.TrimSpace(msg.String()))
	}
	if err := os.Chmod(out, 0o755); err != nil {
		return err
	}
	if err := checkFast(out, tmp); err != nil {
		return fmt.Errorf("the built launcher fails its check: %w", err)
	}
	return os.Rename(out, dst)
}

// checkFast runs the launcher at bin on a small fixture in dir: it must
// confine.
func checkFast(bin, dir string) error {
	fx := filepath.Join(dir, "check")
	for _, d := range []string{"proj", "outside"} {
		if err := os.MkdirAll(filepath.Join(fx, d), 0o755); err != nil {
			return err
		}
	}
	fx, err := filepath.EvalSymlinks(fx)
	if err != nil {
		return err
	}
	if err := os.WriteFile(fx+"/proj/secret", []byte("s3cret"), 0o600); err != nil {
		return err
	}
	rs := Ruleset{Write: []string{fx + "/proj", "/dev/null"}, Hide: []string{fx + "/proj/secret"}}
	text, err := rs.MarshalText()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, Subcommand, "exec", string(text), "/bin/sh", "-c",
		"cat secret; echo in > inside; echo out > ../outside/x; cat inside")
	cmd.Dir = fx + "/proj"
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := runWithin(cmd, 30*time.Second)
	got := out.String()
	switch {
	case runErr != nil && !strings.Contains(runErr.Error(), "exit status"):
		return runErr
	case strings.Contains(got, "s3cret"):
		return errors.New("a hidden file was read")
	case !strings.Contains(got, "in\n"):
		return fmt.Errorf("a write inside failed: %q", got)
	case strings.Contains(got, "safezone: confine:"):
		return fmt.Errorf("%s", strings.TrimSpace(got))
	}
	if _, err := os.Stat(fx + "/outside/x"); err == nil {
		return errors.New("a write outside succeeded")
	}
	return nil
}

// runWithin runs cmd, killing it after d.
func runWithin(cmd *exec.Cmd, d time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		return fmt.Errorf("it took over %v", d)
	}
}

// UsableFast reports whether the file at p is a fast launcher the hook may
// run: a regular executable file owned by uid and writable by no one else.
// A file anyone else could have written is never run.
func UsableFast(p string, uid int) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 || fi.Mode().Perm()&0o100 == 0 {
		return false
	}
	owner, ok := fileOwner(fi)
	return ok && owner == uid
}

// ownedByRoot reports whether the file at p exists, is owned by root and
// writable by no one else.
func ownedByRoot(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	owner, ok := fileOwner(fi)
	return ok && owner == 0
}
