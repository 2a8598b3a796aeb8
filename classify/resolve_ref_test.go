package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// refResolve is a reference for [Resolve], written for plainness, not
// speed: the directory reached is a list of names, and a symbolic link's
// target is walked by a recursive call before the components after the
// link. It implements the contract of Resolve's doc comment and nothing
// else; the differential tests below compare the two.
func refResolve(fsys fs.ReadLinkFS, abs string) (Resolution, error) {
	if !strings.HasPrefix(abs, "/") {
		return Resolution{}, ErrNotAbs
	}
	if len(abs) > MaxPath {
		return Resolution{}, ErrTooLong
	}
	r := &refWalk{fsys: fsys, exists: true}
	if err := r.walk(components(abs), nil, true); err != nil {
		return Resolution{}, err
	}
	res := Resolution{Path: "/" + strings.Join(r.dir, "/"), Exists: r.exists, Dir: r.isDir, Hops: r.hops}
	res.Location = res.Path
	if r.located {
		res.Location = r.location
	}
	if !r.exists {
		res.Dir = false
		res.Ancestor = r.ancestor
	}
	if len(res.Path) > MaxPath || len(res.Location) > MaxPath {
		return Resolution{}, ErrTooLong
	}
	return res, nil
}

type refWalk struct {
	fsys          fs.ReadLinkFS
	dir           []string // the directory reached, one name per element
	exists, isDir bool
	ancestor      string
	located       bool
	location      string
	hops          []Hop
}

func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func (r *refWalk) here(extra ...string) string {
	return "/" + strings.Join(append(append([]string(nil), r.dir...), extra...), "/")
}

// walk walks comps; after are the components that will be walked once
// comps are done (the rest of the path below a link); given marks the
// path's own components, whose last one sets the location.
func (r *refWalk) walk(comps, after []string, given bool) error {
	for i, c := range comps {
		last := given && i == len(comps)-1
		later := append(append([]string(nil), comps[i+1:]...), after...)
		if c == "." || c == ".." {
			if c == ".." && len(r.dir) > 0 {
				r.dir = r.dir[:len(r.dir)-1]
			}
			if last {
				r.located, r.location = true, r.here()
			}
			continue
		}
		if len(c) > MaxName {
			return ErrTooLong
		}
		if last {
			r.located, r.location = true, r.here(c)
		}
		if !r.exists {
			r.dir = append(r.dir, c)
			continue
		}
		fi, err := r.fsys.Lstat(r.here(c)[1:])
		if err != nil {
			if !notExist(err) {
				return ErrUnreadable
			}
			r.exists, r.ancestor = false, r.here()
			r.dir = append(r.dir, c)
			continue
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			r.isDir = fi.IsDir()
			if !fi.IsDir() && slicesHasName(later) {
				r.exists, r.ancestor = false, r.here()
			}
			r.dir = append(r.dir, c)
			continue
		}
		if len(r.hops) == MaxSymlinks {
			return ErrLoop
		}
		link := r.here(c)
		target, err := r.fsys.ReadLink(link[1:])
		switch {
		case err != nil && notExist(err):
			r.exists, r.ancestor = false, r.here()
			r.dir = append(r.dir, c)
			continue
		case err != nil, target == "":
			return ErrUnreadable
		}
		r.hops = append(r.hops, Hop{Link: link, Target: target})
		if strings.HasPrefix(target, "/") {
			r.dir = nil
		}
		if err := r.walk(components(target), later, false); err != nil {
			return err
		}
	}
	return nil
}

// slicesHasName reports whether cs holds a component other than ".".
func slicesHasName(cs []string) bool {
	for _, c := range cs {
		if c != "." {
			return true
		}
	}
	return false
}

// refFS is a tree with every form Resolve must handle: links relative and
// absolute, chained, to files, to directories, dangling, looping, with
// "." and ".." and repeated slashes in their targets, through a file, and
// empty.
func refFS() fstest.MapFS {
	return makefs("proj/README.md", "proj/src/main.go", "proj/src/deep/", "outside/secret.txt", "outside/deep/",
		"proj/out => /outside", "proj/rel => ../outside/secret.txt", "proj/c1 => c2", "proj/c2 => out",
		"proj/in => src/deep", "proj/up => in/../..", "proj/loop => loop", "proj/ping => pong", "proj/pong => ping",
		"proj/root => /", "proj/src/parent => ../..", "proj/dang => /outside/new.txt", "proj/dangrel => nope/x",
		"proj/slash => src/", "proj/dots => ./src/./deep/", "proj/dd => //outside//deep/", "proj/file => README.md",
		"proj/fdot => README.md/.", "proj/fdd => README.md/..", "proj/emp => ")
}

// refNames are the components random paths are built from.
var refNames = []string{"proj", "src", "deep", "main.go", "README.md", "out", "rel", "c1", "c2", "in", "up", "loop",
	"ping", "root", "parent", "dang", "dangrel", "slash", "dots", "dd", "file", "fdot", "fdd", "emp", ".", "..", "",
	"x", "outside", "secret.txt", "etc", "f"}

// sameResolution reports how Resolve through view and refResolve through
// fsys differ on abs, or "". view is fsys or a MemoFS view of it.
func sameResolution(view, fsys fs.ReadLinkFS, abs string) string {
	got, gerr := Resolve(view, abs)
	want, werr := refResolve(fsys, abs)
	if gerr != nil || werr != nil {
		for _, e := range []error{ErrNotAbs, ErrTooLong, ErrLoop, ErrUnreadable} {
			if errors.Is(gerr, e) != errors.Is(werr, e) {
				return fmt.Sprintf("error %v, reference %v", gerr, werr)
			}
		}
		if (gerr == nil) != (werr == nil) {
			return fmt.Sprintf("error %v, reference %v", gerr, werr)
		}
		return ""
	}
	if len(got.Hops) == 0 {
		got.Hops = nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("\n got %+v\nwant %+v", got, want)
	}
	return ""
}

// TestResolveReference compares Resolve with refResolve on random paths
// over refFS, directly and through one MemoFS view that all of them share
// (where a resolution starts at the directories earlier ones reached).
func TestResolveReference(t *testing.T) {
	fsys := refFS()
	view := MemoFS(fsys)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		var b strings.Builder
		if rng.IntN(3) > 0 {
			b.WriteString("/proj")
		}
		for range 1 + rng.IntN(7) {
			b.WriteString("/" + refNames[rng.IntN(len(refNames))])
		}
		if rng.IntN(5) == 0 {
			b.WriteString("/")
		}
		if diff := sameResolution(fsys, fsys, b.String()); diff != "" {
			t.Fatalf("Resolve(%q): %s", b.String(), diff)
		}
		if diff := sameResolution(view, fsys, b.String()); diff != "" {
			t.Fatalf("Resolve(%q) through a MemoFS view: %s", b.String(), diff)
		}
	}
}

// FuzzResolveReference compares Resolve with refResolve on any path, over
// refFS plus a link proj/f to any target: directly, and through a MemoFS
// view after each shorter prefix of the path ending at a "/" has been
// resolved through it. Run longer with:
//
//	go test ./classify -run '^$' -fuzz FuzzResolveReference -fuzztime 60s
func FuzzResolveReference(f *testing.F) {
	for _, s := range []struct{ path, target string }{
		{"/proj/README.md", "x"}, {"/proj/out/new.txt", "x"}, {"/proj/f/x", "../outside"},
		{"/proj/f/../secret.txt", "/outside/deep"}, {"/proj/up/outside/./x/..", "in/.."}, {"/proj/f", "f"},
		{"/proj/dd/..//x/", "c1/../up"}, {"/proj/fdd/x", "README.md/x"}, {"/proj/f/a", "/proj/emp"},
		{"/proj/slash/deep/../..", "///"}, {"proj/x", "."}, {"/proj/f/.", "src/main.go"},
	} {
		f.Add(s.path, s.target)
	}
	base := refFS()
	f.Fuzz(func(t *testing.T, p, target string) {
		fsys := fstest.MapFS{"proj/f": &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte(target)}}
		for k, v := range base {
			fsys[k] = v
		}
		if diff := sameResolution(fsys, fsys, p); diff != "" {
			t.Fatalf("Resolve(%q) with proj/f => %q: %s", p, target, diff)
		}
		view := MemoFS(fsys)
		for i := range len(p) + 1 {
			if i < len(p) && p[i] != '/' {
				continue
			}
			if diff := sameResolution(view, fsys, p[:i]); diff != "" {
				t.Fatalf("Resolve(%q) with proj/f => %q through a view that resolved its shorter prefixes: %s", p[:i], target, diff)
			}
		}
	})
}
