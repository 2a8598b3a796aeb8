package confine

import (
	"bytes"
	"crypto/sha256"
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
// modes; NoRead paths that hold no Read path it hides as Hide ones) and
// fails the same way
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
// done): a launcher that does not is removed and its failure returned.
// Beside dst it writes dst+".sum" (see [UsableFast]): the SHA-256 of the
// bytes that passed the check and the identity of the file they were
// installed as. It runs the first of trustedCompilers that exists and is
// owned by root, with a minimal environment, and takes at most a minute.
// Linux only.
//
// Nothing of the build is in a place a confined command may write (issue
// 27: a process left by an earlier confined command swapped the object
// file in /tmp between the assembler and the linker): the source, the
// compiler's intermediate files ($TMPDIR), the output and the check's
// fixture are all in a directory of mode 0700 made for the build beside
// dst, and dst's directory, and its parent, must be the user's own and
// writable by no one else (the state directory's launcher/, which the hook
// keeps read-only for confined commands). The compiler's environment is
// PATH=/usr/bin:/bin, LANG=C and that TMPDIR: no variable of the caller's
// reaches it (GCC_EXEC_PREFIX, COMPILER_PATH, LIBRARY_PATH, CPATH...).
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
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := privateDir(d); err != nil {
			return err
		}
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
	cmd := exec.Command(cc, "-O2", "-pipe", "-o", out, src)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C", "TMPDIR=" + tmp}
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
	sum, err := fileSum(out)
	if err != nil {
		return err
	}
	// The sum first, without an identity (UsableFast then hashes), so that
	// no launcher is ever in place without one.
	if err := writeSum(dst, sum, ""); err != nil {
		return err
	}
	if err := os.Rename(out, dst); err != nil {
		return err
	}
	fi, err := os.Lstat(dst)
	if err != nil {
		return err
	}
	id, _, _ := fileIdentity(fi)
	return writeSum(dst, sum, id)
}

// privateDir checks that the directory d is the user's own and writable by
// no one else.
func privateDir(d string) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return err
	}
	owner, ok := fileOwner(fi)
	if !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 || !ok || owner != os.Getuid() {
		return fmt.Errorf("%s is not a directory of the user's own that no one else may write (mode %v): the fast launcher is not built there", d, fi.Mode())
	}
	return nil
}

// fileSum returns the hex SHA-256 of the file at p.
func fileSum(p string) (string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// writeSum writes dst+".sum": "sha256 HEX\n", then, when id is not empty,
// "identity ID\n" (see fileIdentity).
func writeSum(dst, sum, id string) error {
	text := "sha256 " + sum + "\n"
	if id != "" {
		text += "identity " + id + "\n"
	}
	tmp := dst + ".sum.tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, dst+".sum")
}

// checkFast runs the launcher at bin on a small fixture in dir: it must
// confine. The shell it runs there finds its programs in /usr/bin and /bin
// only.
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
	// The compiler's environment: nothing of the caller's, whose PATH may
	// list a directory a confined command wrote (a project's .venv/bin:
	// a planted cat ran here, under the check's ruleset, which hides
	// nothing but the fixture's secret).
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C"}
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
// run: a regular executable file with one link, owned by uid and writable
// by no one else, whose content is what [BuildFast] built and checked. The
// content is known by p+".sum" (written by BuildFast, also uid's own and
// writable by no one else): when the file's identity (device, inode, size,
// modification and change times: any write, chmod or replacement changes
// the change time) is the one recorded there, the bytes are those it
// hashed; otherwise the file is hashed again (SHA-256) and must match.
// Any error (no sum, an unreadable file) makes it unusable: the Go
// launcher runs instead.
func UsableFast(p string, uid int) bool {
	fi, err := os.Lstat(p)
	if err != nil || !ownFile(fi, uid) || fi.Mode().Perm()&0o100 == 0 {
		return false
	}
	id, links, ok := fileIdentity(fi)
	if !ok || links != 1 {
		return false
	}
	f, err := os.Open(p + ".sum")
	if err != nil {
		return false
	}
	defer f.Close()
	sfi, err := f.Stat()
	if err != nil || !ownFile(sfi, uid) || sfi.Size() > 512 {
		return false
	}
	var buf [512]byte
	n, _ := f.Read(buf[:])
	var sum, want string
	for _, line := range strings.Split(string(buf[:n]), "\n") {
		if v, ok := strings.CutPrefix(line, "sha256 "); ok {
			sum = v
		} else if v, ok := strings.CutPrefix(line, "identity "); ok {
			want = v
		}
	}
	if len(sum) != 2*sha256.Size {
		return false
	}
	if want != "" && id == want {
		return true
	}
	got, err := fileSum(p)
	return err == nil && got == sum
}

// ownFile reports whether fi is a regular file owned by uid and writable by
// no one else.
func ownFile(fi os.FileInfo, uid int) bool {
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o022 != 0 {
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
