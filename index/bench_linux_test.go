package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// bigTree makes a tree of about n files (directories of 12 files, 10 to a
// parent, like node_modules or a build output) with a .env in ten of its
// directories, whatever its size, and returns its root.
func bigTree(b *testing.B, n int) string {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	files := 0
	for p := 0; files < n; p++ {
		for d := 0; d < 10 && files < n; d++ {
			dir := filepath.Join(root, "src", fmt.Sprintf("pkg%d", p), fmt.Sprintf("sub%d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for f := 0; f < 12; f++ {
				name := fmt.Sprintf("f%d.js", f)
				if f == 0 && d == 0 && p%(n/1200+1) == 0 && p/(n/1200+1) < 10 {
					name = ".env"
				}
				if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
					b.Fatal(err)
				}
				files++
			}
		}
	}
	return root
}

// BenchmarkWalk100k is one search of a 100,000-file tree: what the first
// confined call in a project costs (and each call where no daemon runs).
func BenchmarkWalk100k(b *testing.B) {
	root := bigTree(b, 100_000)
	m := matcherB(b, root)
	b.ResetTimer()
	for b.Loop() {
		if f := Walk(m, []string{root}, Limits{}); f.Incomplete != "" || len(f.Hide) == 0 {
			b.Fatalf("walk: %+v", f)
		}
	}
}

// BenchmarkQuery100k is one query of the daemon of a 100,000-file tree:
// what every later confined call costs. It does not grow with the tree.
func BenchmarkQuery100k(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := bigTree(b, n)
			sock := filepath.Join(b.TempDir(), "i.sock")
			go Serve(matcherB(b, root), []string{root}, sock, 10*time.Second)
			for i := 0; ; i++ {
				if _, err := Query(sock, 5*time.Second); err == nil {
					break
				}
				if i > 500 {
					b.Fatal("no daemon")
				}
				time.Sleep(20 * time.Millisecond)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := Query(sock, time.Second); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
