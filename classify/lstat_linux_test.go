//go:build linux && (amd64 || arm64)

package classify

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestLstatRootAgreesWithDirFS: lstatRoot answers as os.DirFS("/").Lstat
// does, field by field, for every kind of file (a file, a setuid one, a
// directory, a sticky one, links, a dangling one, a FIFO, a socket, a
// device), a missing name, one below a file (ENOTDIR), below a missing
// directory, through a link, one that is too long, and leaves to DirFS
// the names it does not take.
func TestLstatRootAgreesWithDirFS(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mk(os.WriteFile(dir+"/file", []byte("hello"), 0o640))
	mk(os.WriteFile(dir+"/suid", nil, 0o755))
	mk(os.Chmod(dir+"/suid", 0o755|fs.ModeSetuid|fs.ModeSetgid))
	mk(os.Mkdir(dir+"/dir", 0o755))
	mk(os.Mkdir(dir+"/sticky", 0o777))
	mk(os.Chmod(dir+"/sticky", 0o777|fs.ModeSticky))
	mk(os.Symlink("file", dir+"/link"))
	mk(os.Symlink("/nowhere", dir+"/dangling"))
	mk(os.Symlink("dir", dir+"/dirlink"))
	mk(os.WriteFile(dir+"/dir/inner", nil, 0o600))
	mk(syscall.Mkfifo(dir+"/fifo", 0o600))
	if l, err := net.Listen("unix", dir+"/sock"); err == nil {
		defer l.Close()
	}
	root := os.DirFS("/").(fs.ReadLinkFS)
	rel := dir[1:]
	names := []string{
		rel, rel + "/file", rel + "/suid", rel + "/dir", rel + "/sticky", rel + "/link", rel + "/dangling",
		rel + "/dirlink", rel + "/dirlink/inner", rel + "/fifo", rel + "/sock", rel + "/missing",
		rel + "/file/x", rel + "/missing/x", rel + "/dangling/x", "dev/null", "tmp", "etc",
		rel + "/" + strings.Repeat("n", 255), rel + "/" + strings.Repeat("d/", 300) + "x",
	}
	for _, name := range names {
		fi, answered, err := lstatRoot(name)
		if !answered {
			if len(name) <= lstatRootMax {
				t.Errorf("%s: not answered", name)
			}
			continue
		}
		want, wantErr := root.Lstat(name)
		if !reflect.DeepEqual(err, wantErr) {
			t.Errorf("%s: error %#v, DirFS %#v", name, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if fi.Name() != want.Name() || fi.Mode() != want.Mode() || fi.Size() != want.Size() ||
			!fi.ModTime().Equal(want.ModTime()) || fi.IsDir() != want.IsDir() || !reflect.DeepEqual(fi.Sys(), want.Sys()) {
			t.Errorf("%s: %s %v %d %v %v, DirFS %s %v %d %v %v", name, fi.Name(), fi.Mode(), fi.Size(), fi.ModTime(), fi.IsDir(),
				want.Name(), want.Mode(), want.Size(), want.ModTime(), want.IsDir())
		}
	}
	for _, name := range []string{".", "", "/etc", "etc/", "a/../etc", "a\x00b", strings.Repeat("x", lstatRootMax+1)} {
		if _, answered, _ := lstatRoot(name); answered {
			t.Errorf("%q: answered, want left to DirFS", name)
		}
	}
	// Through a MemoFS view of the real root, the answers are lstatRoot's.
	m := newMemoFS(root)
	if _, err := m.Lstat(rel + "/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if fi, err := m.Lstat(rel + "/file"); err != nil || fi.Size() != 5 {
		t.Errorf("file: %v %v", fi, err)
	} else if _, ok := fi.(*rootInfo); !ok {
		t.Errorf("file: a %T, not lstatRoot's", fi)
	}
}
