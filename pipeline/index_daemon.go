package pipeline

// The index daemon (package index) as a hidden subcommand of the binary:
// `safezone __index SPEC SOCKET` serves the files to hide below the roots
// of SPEC (the JSON of a classify.KernelSpec) on SOCKET, until it has
// been idle for indexIdle or a root goes away. The hook starts it, in a
// session of its own, when a confined command finds none, and walks the
// roots itself that once.

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/index"
)

// IndexSubcommand is the hidden first argument of the index daemon.
const IndexSubcommand = "__index"

// indexIdle is how long a daemon waits for a query before it ends.
const indexIdle = 30 * time.Minute

// indexTimeout bounds one query of a daemon; past it the hook walks.
const indexTimeout = 500 * time.Millisecond

// IndexMain is `safezone __index SPEC SOCKET`. It prints nothing on stdout
// and returns 0, or 1 with the error on stderr (no one reads them: the
// hook started it detached).
func IndexMain(args []string, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: safezone "+IndexSubcommand+" SPEC SOCKET")
		return 1
	}
	var spec classify.KernelSpec
	if err := json.Unmarshal([]byte(args[0]), &spec); err != nil {
		fmt.Fprintln(stderr, "safezone: index:", err)
		return 1
	}
	m, err := spec.Matcher()
	if err == nil {
		err = index.Serve(m, spec.Roots, args[1], indexIdle)
	}
	if err != nil {
		fmt.Fprintln(stderr, "safezone: index:", err)
		return 1
	}
	return 0
}

// startBuild returns the function that builds the fast launcher into dst
// from the binary exe, detached (as startIndex does); nil where exe is
// unknown or a Go test binary.
func startBuild(exe string) func(dst string) error {
	if !filepath.IsAbs(exe) || strings.HasSuffix(exe, ".test") {
		return nil
	}
	return func(dst string) error {
		cmd := exec.Command(exe, BuildLauncherSubcommand, dst)
		cmd.SysProcAttr = detached()
		cmd.Dir = "/"
		if err := cmd.Start(); err != nil {
			return err
		}
		return cmd.Process.Release()
	}
}

// startIndex returns the function that starts the daemon for spec on sock
// from the binary exe, detached: a session of its own, no terminal, its
// standard streams on /dev/null, not waited for. It returns nil where exe
// is unknown, or is a Go test binary (go test's, whose main runs tests:
// the hook's tests walk instead).
func startIndex(exe string) func(spec []byte, sock string) error {
	if !filepath.IsAbs(exe) || strings.HasSuffix(exe, ".test") {
		return nil
	}
	return func(spec []byte, sock string) error {
		cmd := exec.Command(exe, IndexSubcommand, string(spec), sock)
		cmd.SysProcAttr = detached()
		cmd.Dir = "/"
		if err := cmd.Start(); err != nil {
			return err
		}
		return cmd.Process.Release()
	}
}

// BuildLauncherSubcommand is the hidden first argument that builds the
// fast launcher (confine.BuildFast): `safezone __build-launcher DST`.
const BuildLauncherSubcommand = "__build-launcher"

// BuildLauncherMain is `safezone __build-launcher DST`: 0 when DST holds a
// fast launcher that passed its check, else 1 with why on stderr.
func BuildLauncherMain(args []string, stderr io.Writer) int {
	if len(args) != 1 || !filepath.IsAbs(args[0]) {
		fmt.Fprintln(stderr, "usage: safezone "+BuildLauncherSubcommand+" DST")
		return 1
	}
	if err := confine.BuildFast(args[0]); err != nil {
		fmt.Fprintln(stderr, "safezone: the fast launcher:", err)
		return 1
	}
	return 0
}

// FastLauncher returns the fast launcher (confine's fast/launch.c) built
// for this source in the state directory's launcher/, or "" where there is
// none yet: then, on the live path, it starts a build in the background
// (at most one every ten minutes), for the next calls, and the Go launcher
// runs this one. A launcher anyone else could write is never used.
func (s *System) FastLauncher(live bool) string {
	sd := s.StateDir()
	if sd == "" || s.StartBuild == nil {
		return ""
	}
	p := filepath.Join(sd, "launcher", confine.FastKey(), "safezone-launch")
	dir := filepath.Dir(p)
	if confine.UsableFast(p, s.uid) {
		return p
	}
	if !live {
		return ""
	}
	mark := filepath.Join(dir, ".building")
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < 10*time.Minute {
		return "" // a build is under way, or failed lately
	}
	if os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	os.WriteFile(mark, nil, 0o600)
	_ = s.StartBuild(p)
	return ""
}

// indexSocket returns the socket of the daemon for spec: in the state
// directory's index/, named by a hash of the spec and of this binary (its
// path, size and modification time: a new build starts a daemon of its
// own), or "" when there is no state directory or the path is too long.
func (s *System) indexSocket(spec []byte) string {
	sd := s.StateDir()
	if sd == "" {
		return ""
	}
	h := fnv.New64a()
	h.Write(spec)
	h.Write([]byte(s.Executable))
	if fi, err := os.Stat(s.Executable); err == nil {
		fmt.Fprintf(h, "\x00%d\x00%d", fi.Size(), fi.ModTime().UnixNano())
	}
	return index.SocketFor(filepath.Join(sd, "index"), hex.EncodeToString(h.Sum(nil)))
}
