package confine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReachableSockets: of the bound paths, the sockets that can be
// reached, resolved through a symlinked directory; a removed socket, a
// regular file, a missing directory and a skipped path are left out.
func TestReachableSockets(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	live, gone, file := d+"/real/live.sock", d+"/real/gone.sock", d+"/real/file.sock"
	listen(t, live)
	listen(t, d+"/skipped/s.sock")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(d+"/real", d+"/link"); err != nil {
		t.Fatal(err)
	}
	got, err := ReachableSockets([]string{d + "/link/live.sock", live, gone, file, d + "/missing/x.sock", d + "/skipped/s.sock"},
		func(p string) bool { return filepath.Base(filepath.Dir(p)) == "skipped" })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{live, live}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
