package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// serve starts a daemon for root in the test process and returns its
// socket; it ends with the test.
func serve(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	sock := filepath.Join(dir, "i.sock")
	m := matcher(t, root)
	done := make(chan error, 1)
	go func() { done <- Serve(m, []string{root}, sock, 2*time.Second) }()
	for i := 0; ; i++ {
		if _, err := Query(sock, time.Second); err == nil {
			break
		}
		if i > 200 {
			t.Fatal("the daemon did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Cleanup(func() {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("the daemon did not end after its idle time")
		}
	})
	return sock
}

// same reports how the daemon's answer differs from a fresh walk.
func same(t *testing.T, sock, root string) string {
	t.Helper()
	got, err := Query(sock, time.Second)
	if err != nil {
		return "query: " + err.Error()
	}
	want := Walk(matcher(t, root), []string{root}, Limits{})
	got.Entries, want.Entries = 0, 0
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		return fmt.Sprintf("daemon %s\nwalk   %s", g, w)
	}
	return ""
}

// TestDaemon: after each change to the tree, the daemon answers what a
// fresh walk finds: files made and removed, directories made with secrets
// in them, moved in and out and renamed, symlinks and hard links.
func TestDaemon(t *testing.T) {
	root := mkTree(t, "README.md", "src/main.go", ".env", "migrations/001.sql", "node_modules/x/.env")
	sock := serve(t, root)
	steps := []struct {
		name string
		do   func()
	}{
		{"a new .env", func() { os.WriteFile(root+"/src/.env.local", []byte("x"), 0o644) }},
		{"a new directory holding a key", func() {
			os.MkdirAll(root+"/deep/a/b", 0o755)
			os.WriteFile(root+"/deep/a/b/k.pem", []byte("x"), 0o644)
		}},
		{"a directory renamed", func() { os.Rename(root+"/deep", root+"/deeper") }},
		{"a directory moved out", func() { os.Rename(root+"/deeper", filepath.Dir(root)+"/away") }},
		{"a directory moved in", func() { os.Rename(filepath.Dir(root)+"/away", root+"/back") }},
		{"a file renamed to a secret name", func() { os.Rename(root+"/README.md", root+"/.envrc") }},
		{"a secret renamed to a plain name", func() { os.Rename(root+"/.envrc", root+"/README.md") }},
		{"a hard link of .env", func() { os.Link(root+"/.env", root+"/src/copy") }},
		{"a symlink named like a secret", func() { os.Symlink(root+"/src/main.go", root+"/.env.link") }},
		{"a secret in a read-only directory", func() { os.WriteFile(root+"/migrations/.env", []byte("x"), 0o644) }},
		{"a directory named like a secret", func() { os.MkdirAll(root+"/keys.pem/inner", 0o755) }},
		{"a file in the skipped tree", func() { os.WriteFile(root+"/node_modules/x/b.pem", []byte("x"), 0o644) }},
		{"a nested repository made", func() {
			os.MkdirAll(root+"/sub/.git/hooks", 0o755)
			os.WriteFile(root+"/sub/.git/config", []byte("[core]\n"), 0o644)
		}},
		{"a linked worktree's .git file", func() { os.MkdirAll(root+"/wt", 0o755); os.WriteFile(root+"/wt/.git", []byte("gitdir: x\n"), 0o644) }},
		{"a nested repository's .git removed", func() { os.RemoveAll(root + "/sub/.git") }},
		{"a directory holding a repository moved", func() { os.Rename(root+"/wt", root+"/wt2") }},
		{"removals", func() {
			os.RemoveAll(root + "/back")
			os.Remove(root + "/src/.env.local")
			os.Remove(root + "/src/copy")
		}},
	}
	for _, s := range steps {
		s.do()
		if d := same(t, sock, root); d != "" {
			t.Fatalf("after %s:\n%s", s.name, d)
		}
	}
}

// TestDaemonHardLinks: the other names of a hidden file made, renamed and
// removed where no watched directory sees them (a skipped tree, outside
// the roots): the daemon answers what a fresh walk finds, from the hidden
// file's link count and the names it found before.
func TestDaemonHardLinks(t *testing.T) {
	root := mkTree(t, ".env", "src/main.go", "node_modules/x/")
	out := filepath.Dir(root) + "/out"
	sock := serve(t, root)
	for _, s := range []struct {
		name string
		do   func()
	}{
		{"a hard link of .env in the skipped tree", func() { os.Link(root+"/.env", root+"/node_modules/x/copy") }},
		{"that link renamed in the skipped tree", func() { os.Rename(root+"/node_modules/x/copy", root+"/node_modules/x/copy2") }},
		{"a hard link of .env outside the roots", func() { os.Link(root+"/.env", out) }},
		{"the link in the skipped tree removed, another made", func() {
			os.Remove(root + "/node_modules/x/copy2")
			os.Link(out, root+"/node_modules/x/copy3")
		}},
		{"the link outside removed", func() { os.Remove(out) }},
		{"the link in the skipped tree removed", func() { os.Remove(root + "/node_modules/x/copy3") }},
	} {
		s.do()
		if d := same(t, sock, root); d != "" {
			t.Fatalf("after %s:\n%s", s.name, d)
		}
	}
}

// TestDaemonRandom makes random changes and compares the daemon with a
// fresh walk after each.
func TestDaemonRandom(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { daemonRandom(t, seed) })
	}
}

func daemonRandom(t *testing.T, seed uint64) {
	root := mkTree(t, "a/", "b/")
	sock := serve(t, root)
	r := rand.New(rand.NewPCG(seed, 2))
	names := []string{".env", ".env.local", "x.pem", "y.txt", "d", "e", "migrations", "node_modules"}
	var dirs = []string{root}
	pick := func() string { return dirs[r.IntN(len(dirs))] }
	for i := 0; i < 300; i++ {
		p := filepath.Join(pick(), names[r.IntN(len(names))])
		switch r.IntN(6) {
		case 0, 1:
			os.WriteFile(p, []byte("x"), 0o644)
		case 2:
			if os.Mkdir(p, 0o755) == nil {
				dirs = append(dirs, p)
			}
		case 3:
			q := filepath.Join(pick(), names[r.IntN(len(names))])
			os.Rename(p, q)
		case 4:
			os.RemoveAll(p)
		case 5:
			os.Link(p, filepath.Join(pick(), names[r.IntN(len(names))]))
		}
		// Directories that no longer exist are dropped from the picks.
		dirs = dirs[:0:0]
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
		if i%10 == 9 {
			if d := same(t, sock, root); d != "" {
				t.Fatalf("after step %d:\n%s", i, d)
			}
		}
	}
}

// TestDaemonAnswersThroughSignals: a read or write with SO_RCVTIMEO or
// SO_SNDTIMEO set fails with EINTR when a signal handler runs, whatever
// SA_RESTART says (signal(7)). A client whose "sync" comes while signals
// reach the daemon's thread (the Go runtime's SIGURG, a SIGCHLD) still
// gets its answer. It failed as "broken pipe" in CI before the daemon
// tried again.
func TestDaemonAnswersThroughSignals(t *testing.T) {
	root := mkTree(t, ".env", "src/main.go")
	sock := serve(t, root)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		pid := unix.Getpid()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tasks, _ := os.ReadDir("/proc/self/task")
			for _, task := range tasks {
				if tid, err := strconv.Atoi(task.Name()); err == nil {
					unix.Tgkill(pid, tid, unix.SIGURG)
				}
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()
	defer func() { close(stop); <-done }()
	for i := range 5 {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := unix.Connect(fd, &unix.SockaddrUnix{Name: sock}); err != nil {
			t.Fatal(err)
		}
		// The daemon accepts and waits in read(2) meanwhile.
		time.Sleep(30 * time.Millisecond)
		f := os.NewFile(uintptr(fd), "client")
		if _, err := f.Write([]byte("sync\n")); err != nil {
			t.Fatalf("query %d: the daemon dropped the client: %v", i, err)
		}
		out, err := io.ReadAll(f)
		f.Close()
		if err != nil || !bytes.HasSuffix(out, []byte("\n")) {
			t.Fatalf("query %d: answer %q, %v: the daemon gave up on a signal", i, out, err)
		}
	}
}
