package confine

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/safezonehq/safezone/netrule"
)

// The costs of a confined command, to compare with
//
//	go test -run '^$' -bench . -benchtime 200x ./confine/
//
// Each run reports wall time per command (ns/op, which the load of the
// machine inflates) and the CPU time the command's processes used
// (cpu-ms/op, from getrusage(RUSAGE_CHILDREN)), which it inflates less.

// typicalRuleset is a ruleset as the hook would build it for a project in
// a temporary directory and the current user's home: the project, the
// temporary directories and the devices writable, the usual secrets of
// $HOME unreadable, and the project's protected paths read-only if
// readOnly.
func typicalRuleset(b *testing.B, readOnly bool) Ruleset {
	proj, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range []string{".git/hooks", ".claude"} {
		os.MkdirAll(filepath.Join(proj, d), 0o755)
	}
	os.WriteFile(filepath.Join(proj, ".git/config"), nil, 0o644)
	os.WriteFile(filepath.Join(proj, ".safezone.yaml"), nil, 0o644)
	home, err := os.UserHomeDir()
	if err != nil {
		b.Fatal(err)
	}
	home, _ = filepath.EvalSymlinks(home)
	rs := Ruleset{Write: append([]string{proj, "/tmp", "/var/tmp", "/dev/shm", home + "/.cache"}, Devices()...)}
	for _, s := range []string{".ssh", ".aws", ".gnupg", ".config/gh", ".config/gcloud", ".azure", ".kube", ".docker/config.json",
		".netrc", ".git-credentials", ".npmrc", ".pypirc"} {
		rs.NoRead = append(rs.NoRead, filepath.Join(home, s))
	}
	if readOnly {
		rs.ReadOnly = []string{proj + "/.git/config", proj + "/.git/hooks", proj + "/.claude", proj + "/.safezone.yaml"}
	}
	return rs.Normalize()
}

// benchCommand runs newCmd's command b.N times and reports its CPU time.
func benchCommand(b *testing.B, newCmd func() *exec.Cmd) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
	b.ResetTimer()
	for b.Loop() {
		if out, err := newCmd().CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.StopTimer()
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkBashTrue compares a bare `bash -c true` with a confined one,
// without and with read-only paths (a second start of the launcher in a
// new user and mount namespace), and with the floor: the least a Go
// program (scripts/benchfloor) costs to start.
func BenchmarkBashTrue(b *testing.B) {
	if !Available().Confine() {
		b.Skip("confining is unavailable here")
	}
	b.Run("bare", func(b *testing.B) {
		benchCommand(b, func() *exec.Cmd { return exec.Command("/bin/bash", "-c", "true") })
	})
	b.Run("floor", func(b *testing.B) {
		floor := filepath.Join(b.TempDir(), "floor")
		build := exec.Command(goTool(), "build", "-o", floor, "../scripts/benchfloor")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			b.Skipf("building scripts/benchfloor: %v\n%s", err, out)
		}
		benchCommand(b, func() *exec.Cmd { return exec.Command(floor) })
	})
	for _, readOnly := range []bool{false, true} {
		name := "confined"
		if readOnly {
			name = "confined-readonly"
		}
		b.Run(name, func(b *testing.B) {
			if readOnly && namespaces() != nil {
				b.Skipf("read-only paths are unavailable here: %v", namespaces())
			}
			rules, _ := typicalRuleset(b, readOnly).MarshalText()
			benchCommand(b, func() *exec.Cmd {
				return exec.Command(launcherPath, Subcommand, "exec", string(rules), "/bin/bash", "-c", "true")
			})
		})
	}
}

// BenchmarkNetwork compares a confined `bash -c true` with read-only
// paths, through the fast launcher and the Go launcher, without a network
// of its own (no-net), with one (net: a network namespace, the loopback
// brought up, the helper started, the daemon asked and waited for; the
// daemon itself, already running, is not counted), and with one that has
// no way out (none: safezone-proxy not installed).
func BenchmarkNetwork(b *testing.B) {
	if !Available().Confine() || namespaces() != nil {
		b.Skip("namespaces are unavailable here")
	}
	proxy, err := proxyPath()
	if err != nil {
		b.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "confine-fast-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Mkdir(filepath.Join(dir, "fast"), 0o755)
	fast := filepath.Join(dir, "fast", "safezone-launch")
	if err := BuildFast(fast); err != nil {
		fast = ""
	}
	for _, launcher := range []string{"fast", "go"} {
		for _, net := range []string{"no-net", "net", "none"} {
			b.Run(launcher+"-"+net, func(b *testing.B) {
				path := launcherPath
				if launcher == "fast" {
					if fast == "" {
						b.Skip("no fast launcher here")
					}
					path = fast
				}
				rs := typicalRuleset(b, true)
				switch net {
				case "net":
					sock := filepath.Join(b.TempDir(), "proxy.sock")
					b.Cleanup(func() { stopDaemon(sock) })
					rs.Net = &Net{Proxy: proxy, Socket: sock, Policy: []byte(`{"protocol":` + strconv.Itoa(netrule.Protocol) + `,"allow":["registry.npmjs.org","proxy.golang.org"]}`)}
					rs.Hide = append(rs.Hide, sock)
				case "none":
					rs.Net = &Net{}
				}
				rules, _ := rs.MarshalText()
				benchCommand(b, func() *exec.Cmd {
					return exec.Command(path, Subcommand, "exec", string(rules), "/bin/bash", "-c", "true")
				})
			})
		}
	}
}

// BenchmarkHideSockets measures what hiding the bound sockets costs a
// confined `bash -c true` (readonly: the typical ruleset with read-only
// paths, already in a mount namespace): with 0 and 50 sockets bound by
// this process hidden (a busy desktop's /run and home hold a few dozen).
func BenchmarkHideSockets(b *testing.B) {
	if !Available().Confine() || namespaces() != nil {
		b.Skip("hidden paths are unavailable here")
	}
	for _, n := range []int{0, 50} {
		b.Run(fmt.Sprintf("sockets-%d", n), func(b *testing.B) {
			rs := typicalRuleset(b, true)
			dir, _ := filepath.EvalSymlinks(b.TempDir())
			for i := range n {
				p := filepath.Join(dir, fmt.Sprintf("s%d.sock", i))
				l, err := net.Listen("unix", p)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { l.Close() })
				rs.Hide = append(rs.Hide, p)
			}
			rules, _ := rs.Normalize().MarshalText()
			benchCommand(b, func() *exec.Cmd {
				return exec.Command(launcherPath, Subcommand, "exec", string(rules), "/bin/bash", "-c", "true")
			})
		})
	}
}

// BenchmarkFindBoundSockets measures the hook's part of hiding the bound
// sockets on every confined call: reading and parsing /proc/net/unix (a
// table of 300 bound sockets, as a busy desktop's), and looking at each
// path (50 live sockets, the rest gone).
func BenchmarkFindBoundSockets(b *testing.B) {
	dir, _ := filepath.EvalSymlinks(b.TempDir())
	var table strings.Builder
	table.WriteString("Num       RefCount Protocol Flags    Type St Inode Path\n")
	for i := range 300 {
		p := filepath.Join(dir, fmt.Sprintf("gone%d.sock", i))
		if i < 50 {
			p = filepath.Join(dir, fmt.Sprintf("s%d.sock", i))
			l, err := net.Listen("unix", p)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { l.Close() })
		}
		fmt.Fprintf(&table, "0000000000000000: 00000002 00000000 00010000 0001 01 %5d %s\n", 10000+i, p)
	}
	data := table.String()
	b.ResetTimer()
	for b.Loop() {
		bl, err := ParseProcNetUnix(strings.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		got, err := ReachableSockets(bl.Paths, nil)
		if err != nil || len(got) != 50 {
			b.Fatalf("%d sockets, %v", len(got), err)
		}
	}
}

// BenchmarkRuleset measures what the launcher does in-process before the
// exec: list the directories of the read complement, open every rule's
// path, build the Landlock ruleset and enforce it (on a thread then thrown
// away). It reports the rules: for the typical ruleset on this machine's
// home, and for a made-up home of 200 entries with 50 in ~/.config.
func BenchmarkRuleset(b *testing.B) {
	s := Available()
	if !s.Confine() {
		b.Skip("confining is unavailable here")
	}
	b.Run("home", func(b *testing.B) { benchRuleset(b, s.LandlockABI, typicalRuleset(b, false)) })
	// The private home (issue 29): $HOME NoRead, what programs read there
	// Read (a dozen of pipeline's homeReads that a home usually holds).
	b.Run("private-home", func(b *testing.B) {
		rs := typicalRuleset(b, false)
		home, _ := os.UserHomeDir()
		home, _ = filepath.EvalSymlinks(home)
		rs.NoRead = append(rs.NoRead, home)
		for _, r := range []string{".bashrc", ".profile", ".gitconfig", ".config/git", ".cargo", ".rustup", ".pyenv", ".nvm", "go/bin", "go/pkg", ".local/bin", ".local/lib", ".npm", ".config/go"} {
			rs.Read = append(rs.Read, filepath.Join(home, r))
		}
		benchRuleset(b, s.LandlockABI, rs.Normalize())
	})
	b.Run("home-200-entries", func(b *testing.B) {
		home, err := filepath.EvalSymlinks(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		for i := range 200 {
			os.WriteFile(filepath.Join(home, fmt.Sprintf(".dot%03d", i)), nil, 0o644)
		}
		for i := range 50 {
			os.MkdirAll(filepath.Join(home, ".config", fmt.Sprintf("app%02d", i)), 0o755)
		}
		rs := typicalRuleset(b, false)
		rs.NoRead = nil
		for _, s := range []string{".ssh", ".aws", ".gnupg", ".config/gh", ".config/gcloud", ".azure", ".kube", ".docker/config.json",
			".netrc", ".git-credentials", ".npmrc", ".pypirc"} {
			rs.NoRead = append(rs.NoRead, filepath.Join(home, s))
		}
		benchRuleset(b, s.LandlockABI, rs)
	})
}

func benchRuleset(b *testing.B, abi int, rs Ruleset) {
	var st stats
	for b.Loop() {
		done := make(chan error)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			fd, stats, err := buildRuleset(rs, abi)
			if err == nil {
				err = restrictThread(fd, 0)
				syscall.Close(fd)
			}
			st = stats
			done <- err
		}()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.ReadRules), "read-rules")
	b.ReportMetric(float64(st.WriteRules), "write-rules")
	b.ReportMetric(float64(st.Listed), "dirs-listed")
}

// BenchmarkClaudeCommand compares `true` run as Claude Code runs a Bash
// command (sourcing a snapshot, then eval) as is and rewritten to run
// confined: what a confined Bash call adds in all.
func BenchmarkClaudeCommand(b *testing.B) {
	if !Available().Confine() {
		b.Skip("confining is unavailable here")
	}
	snapshot, err := filepath.Abs("testdata/snapshot.sh")
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	wrap := func(command string) *exec.Cmd {
		return exec.Command("/bin/bash", "-c", "source "+snapshot+` 2>/dev/null || true && eval '`+
			command+"' < /dev/null && pwd -P >| "+shellQuote(tmp+"/cwd"))
	}
	b.Run("as-is", func(b *testing.B) {
		benchCommand(b, func() *exec.Cmd { return wrap("true") })
	})
	for _, readOnly := range []bool{false, true} {
		name := "rewritten"
		if readOnly {
			name = "rewritten-readonly"
		}
		b.Run(name, func(b *testing.B) {
			if readOnly && namespaces() != nil {
				b.Skipf("read-only paths are unavailable here: %v", namespaces())
			}
			rs := typicalRuleset(b, readOnly)
			benchCommand(b, func() *exec.Cmd {
				rewritten, err := Rewrite("true", launcherPath, rs)
				if err != nil {
					b.Fatal(err)
				}
				return wrap(shellQuoteInner(rewritten))
			})
		})
	}
}

// shellQuoteInner escapes s for the inside of a single-quoted word, as
// Claude Code does.
func shellQuoteInner(s string) string {
	q := shellQuote(s)
	return q[1 : len(q)-1]
}

// BenchmarkAvailable measures the check the hook makes on every call.
func BenchmarkAvailable(b *testing.B) {
	for b.Loop() {
		if s := Available(); !s.Confine() {
			b.Skip(s.Landlock)
		}
	}
}

// BenchmarkOverlays measures what the private layers of the code caches
// add to a confined `bash -c true` with read-only paths: none, the two
// that npx's and pre-commit's caches took before issue 27, and the twelve
// a home with every code cache takes now (go's two, cargo's two, maven's,
// gradle's, uv's, pip's, corepack's, npx's, pre-commit's and one that the
// environment names). Each is an overlayfs over an existing directory with
// a fresh tmpfs as its upper layer.
func BenchmarkOverlays(b *testing.B) {
	if !Available().Confine() || namespaces() != nil {
		b.Skip("overlays are unavailable here")
	}
	for _, n := range []int{0, 2, 12} {
		b.Run(fmt.Sprintf("overlays-%d", n), func(b *testing.B) {
			rs := typicalRuleset(b, true)
			caches, err := filepath.EvalSymlinks(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			rs.Write = append(rs.Write, caches)
			for i := range n {
				d := filepath.Join(caches, fmt.Sprintf("cache%02d", i))
				if err := os.MkdirAll(filepath.Join(d, "pkg"), 0o755); err != nil {
					b.Fatal(err)
				}
				rs.Overlay = append(rs.Overlay, d)
			}
			rules, _ := rs.Normalize().MarshalText()
			benchCommand(b, func() *exec.Cmd {
				return exec.Command(launcherPath, Subcommand, "exec", string(rules), "/bin/bash", "-c", "true")
			})
		})
	}
}
