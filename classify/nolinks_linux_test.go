package classify

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestKnowDir: ResolveDir's one openat2 call answers for every component of a
// directory's path when none is a link, and a resolution through what it
// learnt is the one a walk gives; a link, a missing component or a file
// on the way teaches it nothing, and a name the view has already answered
// for is not asked again.
func TestKnowDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b/c/d/e", "x/y"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "a/b/c/f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b", filepath.Join(dir, "a/l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "x"), filepath.Join(dir, "a/b/c/d/out")); err != nil {
		t.Fatal(err)
	}
	root := os.DirFS("/").(fs.ReadLinkFS)
	for _, tc := range []struct {
		path  string
		learn bool
	}{
		{"a/b/c/d/e", true},
		{"a/l/c/d/e", false},         // a link on the way
		{"a/b/c/d/out", false},       // the last component a link
		{"a/b/c/d/out/y", false},     // a link, then more
		{"a/b/c/missing/e", false},   // a component missing
		{"a/b/c/f/e", false},         // a file on the way
		{"a/b/c/f", false},           // a file
		{"a/b/../b/c/d/e", false},    // not clean: left to the walk
		{"a/b/c/d/e/../../d", false}, // likewise
	} {
		abs := dir + "/" + tc.path
		m := newMemoFS(root)
		got, gotErr := ResolveDir(m, abs)
		want, wantErr := Resolve(root, abs)
		_, learnt := m.dirs[abs]
		if _, open := m.dirFDs[abs]; open != learnt {
			t.Errorf("%s: knowDir left the directory open: %v, want %v", tc.path, open, learnt)
		}
		CloseMemoFS(m)
		if len(m.dirFDs) != 0 {
			t.Errorf("%s: CloseMemoFS left %v open", tc.path, m.dirFDs)
		}
		if learnt != tc.learn {
			t.Errorf("%s: knowDir learnt %v, want %v", tc.path, learnt, tc.learn)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: resolved after knowDir to %+v, %v; a walk gives %+v, %v", tc.path, got, gotErr, want, wantErr)
		}
		if learnt {
			// Nothing was looked up by name on the way.
			for name := range m.lstat {
				if strings.HasPrefix(abs, "/"+name) {
					t.Errorf("%s: %s looked up although knowDir answered for it", tc.path, name)
				}
			}
		}
	}

	// A name the view answered for is not asked again: the decision sees
	// one answer per name.
	m := newMemoFS(root)
	if _, err := m.Lstat(strings.TrimPrefix(dir+"/a/b", "/")); err != nil {
		t.Fatal(err)
	}
	m.knowDir(dir + "/a/b/c/d/e")
	if _, learnt := m.dirs[dir+"/a/b/c/d/e"]; learnt {
		t.Error("knowDir asked about a path of which the view holds an answer")
	}

	// Another file system than the real root is walked.
	m = newMemoFS(lookupFS{makefs("p/q/r/s/")})
	m.knowDir("/p/q/r/s")
	if len(m.dirs) != 0 {
		t.Errorf("knowDir learnt %v on a file system that is not the real root", m.dirs)
	}
}

// TestAbsentFromKnownDir: a directory knowDir learnt about is read without
// asking its size; its missing names are recorded, and a directory with
// more records than listDirMaxRecords is left to Lstat.
func TestAbsentFromKnownDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	small, big := dir+"/p/q/small", dir+"/r/s/big"
	for _, d := range []string{small, big} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// held, and K (the Kelvin sign) elvin, which folds to kelvin.
	for _, n := range []string{"held", "\u212aelvin"} {
		if err := os.WriteFile(small+"/"+n, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Records of 19 + 200 + 1 bytes, rounded to 224: more than
	// listDirMaxRecords in all.
	for i := 0; i*224 <= listDirMaxRecords; i++ {
		if err := os.WriteFile(fmt.Sprintf("%s/%0200d", big, i), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := newMemoFS(os.DirFS("/").(fs.ReadLinkFS))
	m.knowDir(small)
	m.knowDir(big)
	for _, d := range []string{small, big} {
		if _, ok := m.dirs[d]; !ok {
			t.Fatalf("knowDir(%s) learnt nothing", d)
		}
	}
	m.absentFrom(small[1:], []string{"held", "gone", "kelvin", "kelvi"})
	m.absentFrom(big[1:], []string{"gone"})
	if len(m.dirFDs) != 0 {
		t.Errorf("directories left open after their reads: %v", m.dirFDs)
	}
	if m.hasLstat(small[1:]) || m.hasLstat(big[1:]) {
		t.Error("absentFrom asked the size of a directory knowDir learnt about")
	}
	if !m.knownAbsent(small[1:] + "/gone") {
		t.Error("small/gone: not recorded missing")
	}
	for _, n := range []string{"held", "kelvin"} {
		if m.knownAbsent(small[1:] + "/" + n) {
			t.Errorf("small/%s: recorded missing although the directory holds it or a spelling that folds to it", n)
		}
	}
	if !m.knownAbsent(small[1:] + "/kelvi") {
		t.Error("small/kelvi: not recorded missing")
	}
	if m.hasLstat(big[1:] + "/gone") {
		t.Error("big/gone: answered from a directory over listDirMaxRecords")
	}
	if _, err := m.Lstat(big[1:] + "/gone"); !notExist(err) {
		t.Errorf("big/gone: %v, want does not exist", err)
	}
}

// BenchmarkAbsentFrom: a home directory of 120 entries read for the
// dozen self-protected names, most of them missing.
func BenchmarkAbsentFrom(b *testing.B) {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := range 120 {
		if err := os.WriteFile(fmt.Sprintf("%s/.entry-%03d", dir, i), nil, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	names := []string{".claude", ".claude.json", ".config", ".bashrc", ".profile", ".zshrc", ".gitconfig", ".ssh", ".gemini", ".codex", ".cursor", ".copilot"}
	root := os.DirFS("/").(fs.ReadLinkFS)
	for b.Loop() {
		m := newMemoFS(root)
		m.absentFrom(dir[1:], names)
	}
}

// TestOpenNoLinks: a file reached through no link is opened and its
// directories recorded in the view, and a resolution through what it
// learnt is the one a walk gives; a link on the way or at the end is left
// to the caller (not opened, nothing learnt), a missing file is the
// kernel's ENOENT with nothing learnt, a name the view has answered for
// keeps the view from learning, and another file system is not asked.
func TestOpenNoLinks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "s/cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s/cache/p"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("p", filepath.Join(dir, "s/cache/q")); err != nil {
		t.Fatal(err)
	}
	root := os.DirFS("/").(fs.ReadLinkFS)
	for _, tc := range []struct {
		path           string
		answered, open bool
	}{
		{"s/cache/p", true, true},
		{"l/cache/p", false, false}, // a link on the way
		{"s/cache/q", false, false}, // the file a link
		{"s/cache/missing", true, false},
		{"s/gone/p", true, false},
		{"s/cache/../cache/p", false, false}, // not clean
	} {
		abs := dir + "/" + tc.path
		m := newMemoFS(root)
		fd, answered, err := OpenNoLinks(m, abs)
		if answered != tc.answered || (fd >= 0) != tc.open || (err == nil) != tc.open && answered {
			t.Errorf("%s: fd %d, answered %v, %v; want answered %v, open %v", tc.path, fd, answered, err, tc.answered, tc.open)
		}
		if fd >= 0 {
			closeFD(fd)
		}
		_, learnt := m.dirs[filepath.Dir(abs)]
		if learnt != tc.open {
			t.Errorf("%s: learnt %v, want %v (%v)", tc.path, learnt, tc.open, m.dirs)
		}
		if !learnt {
			continue
		}
		for p := filepath.Dir(abs); p != "/"; p = filepath.Dir(p) {
			if _, ok := m.dirs[p]; !ok {
				t.Errorf("%s: %s not recorded", tc.path, p)
			}
		}
		for _, q := range []string{"s/cache/p", "s/cache/q/x", "s/cache/new/y", "s/cache"} {
			got, gotErr := Resolve(m, dir+"/"+q)
			want, wantErr := Resolve(root, dir+"/"+q)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: resolved after OpenNoLinks to %+v, %v; a walk gives %+v, %v", q, got, gotErr, want, wantErr)
			}
		}
		for name := range m.lstat {
			if strings.HasPrefix(dir+"/s/cache", "/"+name) {
				t.Errorf("%s looked up although OpenNoLinks answered for it", name)
			}
		}
	}

	// A name the view answered for keeps it from learning.
	m := newMemoFS(root)
	if _, err := m.Lstat(strings.TrimPrefix(dir+"/s", "/")); err != nil {
		t.Fatal(err)
	}
	fd, answered, err := OpenNoLinks(m, dir+"/s/cache/p")
	if !answered || err != nil {
		t.Fatalf("answered %v, %v", answered, err)
	}
	closeFD(fd)
	if len(m.dirs) != 0 {
		t.Errorf("learnt %v about a path of which the view holds an answer", m.dirs)
	}

	// Another file system than the real root is not asked.
	if fd, answered, _ := OpenNoLinks(newMemoFS(lookupFS{makefs("s/cache/p")}), dir+"/s/cache/p"); answered || fd >= 0 {
		t.Errorf("another file system: fd %d, answered %v", fd, answered)
	}
	if fd, answered, _ := OpenNoLinks(root, dir+"/s/cache/p"); answered || fd >= 0 {
		t.Errorf("no view: fd %d, answered %v", fd, answered)
	}
}
