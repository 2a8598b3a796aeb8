package classify

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	long := "/proj/" + strings.Repeat("a/", 2100) + "x"
	tests := []struct {
		name     string
		fs       []string
		path     string
		resolved string
		location string // defaults to resolved
		exists   bool
		ancestor string
		hops     int
		err      error
	}{
		{name: "existing file", path: "/proj/README.md", resolved: "/proj/README.md", exists: true},
		{name: "root", path: "/", resolved: "/", exists: true},
		{name: "dot and double slashes", path: "/proj/./src//main.go", resolved: "/proj/src/main.go", exists: true},
		{name: "trailing slash", path: "/proj/src/", resolved: "/proj/src", exists: true},
		{name: "dotdot inside", path: "/proj/src/../README.md", resolved: "/proj/README.md", exists: true},
		{name: "dotdot above root stays at root", path: "/../../etc/passwd", resolved: "/etc/passwd", ancestor: "/"},
		{name: "new file in existing dir", path: "/proj/notes.txt", resolved: "/proj/notes.txt", ancestor: "/proj"},
		{name: "new file in new dirs", path: "/proj/a/b/c.txt", resolved: "/proj/a/b/c.txt", ancestor: "/proj"},
		{name: "missing then dotdot is lexical", path: "/proj/missing/../README.md", resolved: "/proj/README.md", ancestor: "/proj"},
		{name: "file used as a directory", path: "/proj/README.md/x", resolved: "/proj/README.md/x", ancestor: "/proj"},
		{
			name: "symlinked file", fs: []string{"proj/leak.txt => /outside/secret.txt"},
			path: "/proj/leak.txt", resolved: "/outside/secret.txt", location: "/proj/leak.txt", exists: true, hops: 1,
		},
		{
			name: "relative link target", fs: []string{"proj/rel => ../outside/secret.txt"},
			path: "/proj/rel", resolved: "/outside/secret.txt", location: "/proj/rel", exists: true, hops: 1,
		},
		{
			name: "symlinked parent directory", fs: []string{"proj/out => ../outside"},
			path: "/proj/out/secret.txt", resolved: "/outside/secret.txt", exists: true, hops: 1,
		},
		{
			name: "new file under a symlinked directory", fs: []string{"proj/out => ../outside"},
			path: "/proj/out/new.txt", resolved: "/outside/new.txt", ancestor: "/outside", hops: 1,
		},
		{
			name: "new deep path under a symlinked directory", fs: []string{"proj/out => /outside"},
			path: "/proj/out/a/b/new.txt", resolved: "/outside/a/b/new.txt", ancestor: "/outside", hops: 1,
		},
		{
			name: "dangling link is followed", fs: []string{"proj/dang => /outside/not_yet.txt"},
			path: "/proj/dang", resolved: "/outside/not_yet.txt", location: "/proj/dang", ancestor: "/outside", hops: 1,
		},
		{
			name: "dangling relative link", fs: []string{"proj/cfg => .env.production"},
			path: "/proj/cfg", resolved: "/proj/.env.production", location: "/proj/cfg", ancestor: "/proj", hops: 1,
		},
		{
			name: "chain of links", fs: []string{"proj/c3 => /outside", "proj/c2 => c3", "proj/c1 => c2"},
			path: "/proj/c1/x", resolved: "/outside/x", ancestor: "/outside", hops: 3,
		},
		{
			name: "chain staying inside", fs: []string{"proj/i2 => src", "proj/i1 => i2"},
			path: "/proj/i1/main.go", resolved: "/proj/src/main.go", exists: true, hops: 2,
		},
		{
			name: "dotdot after symlink is physical", fs: []string{"proj/deeplink => /outside/deep"},
			path: "/proj/deeplink/../secret.txt", resolved: "/outside/secret.txt", exists: true, hops: 1,
		},
		{
			name: "link to root", fs: []string{"proj/rootlink => /"},
			path: "/proj/rootlink/etc/passwd", resolved: "/etc/passwd", ancestor: "/", hops: 1,
		},
		{
			name: "absolute link pointing inside", fs: []string{"proj/abs_in => /proj/src"},
			path: "/proj/abs_in/x.go", resolved: "/proj/src/x.go", ancestor: "/proj/src", hops: 1,
		},
		{
			name: "last component dotdot after link", fs: []string{"proj/deeplink => /outside/deep"},
			path: "/proj/deeplink/..", resolved: "/outside", exists: true, hops: 1,
		},
		{
			name: "symlink loop", fs: []string{"proj/loop1 => loop2", "proj/loop2 => loop1"},
			path: "/proj/loop1", err: ErrLoop,
		},
		{
			name: "self loop under a write", fs: []string{"proj/self => self"},
			path: "/proj/self/x", err: ErrLoop,
		},
		{name: "relative path", path: "proj/README.md", err: ErrNotAbs},
		{name: "path over PATH_MAX", path: long, err: ErrTooLong},
		{name: "component over NAME_MAX", path: "/proj/" + strings.Repeat("x", 300), err: ErrTooLong},
		{
			name: "link resolving over PATH_MAX", fs: []string{"proj/big => " + strings.Repeat("/a", 1500)},
			path: "/proj/big/" + strings.Repeat("b/", 700) + "c", err: ErrTooLong,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := makefs(append(append([]string{}, baseFS...), tt.fs...)...)
			res, err := Resolve(fsys, tt.path)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Resolve(%q) error = %v, want %v", tt.path, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.path, err)
			}
			loc := tt.location
			if loc == "" {
				loc = tt.resolved
			}
			if res.Path != tt.resolved || res.Location != loc || res.Exists != tt.exists || res.Ancestor != tt.ancestor || len(res.Hops) != tt.hops {
				t.Errorf("Resolve(%q) = path %q location %q exists %v ancestor %q hops %d\nwant path %q location %q exists %v ancestor %q hops %d",
					tt.path, res.Path, res.Location, res.Exists, res.Ancestor, len(res.Hops),
					tt.resolved, loc, tt.exists, tt.ancestor, tt.hops)
			}
		})
	}
}

// deniedFS fails every Lstat below a directory, like EACCES.
type deniedFS struct {
	fs.ReadLinkFS
	dir string
}

func (d deniedFS) Lstat(name string) (fs.FileInfo, error) {
	if strings.HasPrefix(name, d.dir+"/") {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrPermission}
	}
	return d.ReadLinkFS.Lstat(name)
}

func TestResolveUnreadable(t *testing.T) {
	fsys := deniedFS{makefs(baseFS...), "proj/src"}
	_, err := Resolve(fsys, "/proj/src/main.go")
	if !errors.Is(err, ErrUnreadable) {
		t.Fatalf("error = %v, want ErrUnreadable", err)
	}
}

// TestResolveMatchesKernel checks Resolve on a real directory tree against
// the standard library's filepath.EvalSymlinks, an independent
// implementation of the same walk, for every path that exists.
func TestResolveMatchesKernel(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, link string) {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	mk("proj/src/deep")
	mk("outside/deep/er")
	if err := os.WriteFile(filepath.Join(dir, "outside/secret.txt"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln(dir+"/outside/deep", "proj/deeplink")
	ln("../outside", "proj/out")
	ln("src/deep", "proj/sd")
	ln("sd/../..", "proj/up")
	ln(dir+"/outside/secret.txt", "proj/leak")
	paths := []string{
		"proj/deeplink/../secret.txt", "proj/deeplink/er/../..", "proj/out/deep/er",
		"proj/sd/..", "proj/sd/../../out/secret.txt", "proj/up", "proj/up/out/deep",
		"proj/leak", "proj/src/deep/../../deeplink/er", "proj/./sd/./../deep",
	}
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	for _, p := range paths {
		want, err := filepath.EvalSymlinks(dir + "/" + p)
		if err != nil {
			t.Fatalf("EvalSymlinks(%s): %v", p, err)
		}
		res, err := Resolve(fsys, dir+"/"+p)
		if err != nil {
			t.Fatalf("Resolve(%s): %v", p, err)
		}
		if res.Path != want || !res.Exists {
			t.Errorf("Resolve(%s) = %s (exists %v), EvalSymlinks says %s", p, res.Path, res.Exists, want)
		}
	}
}
