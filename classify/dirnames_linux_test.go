//go:build linux

package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEachRootNameAgreesWithReadDir: the names read with getdents64
// directly are os.ReadDir's, for a directory larger than one buffer, with
// names of every kind; a missing directory and a file are errors.
func TestEachRootNameAgreesWithReadDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		name := fmt.Sprintf("entry-%03d-%s", i, strings.Repeat("x", i%60))
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"caf\u00e9", "with space", "new\nline", ".hidden", "sub", "a"} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/nowhere", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8<<10)
	for _, d := range []string{dir, "/", "/etc"} {
		entries, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, e := range entries {
			want = append(want, e.Name())
		}
		ok, err := eachRootName(d, buf, 1<<20, func(n string) { got = append(got, strings.Clone(n)) })
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", d, ok, err)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %d names, os.ReadDir %d: %q... against %q...", d, len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
		}
	}
	for _, bad := range []string{dir + "/missing", dir + "/entry-000-"} {
		if _, err := eachRootName(bad, buf, 1<<20, func(string) {}); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestAbsentFromOnRootAgreesWithLstat: on os.DirFS("/"), the directory
// read records as missing exactly the names lstat does not find, and
// leaves another case's spelling to lstat.
func TestAbsentFromOnRootAgreesWithLstat(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{".claude", ".Cursor", "hooks.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{".claude", ".cursor", "hooks.json", ".codex", ".gemini", ".vscode", ".mcp.json", "caf\u00e9"}
	memo := newMemoFS(os.DirFS("/").(fs.ReadLinkFS))
	rel := strings.TrimPrefix(dir, "/")
	memo.absentFrom(rel, names)
	for _, n := range names {
		_, recorded := memo.lstat[rel+"/"+n]
		_, lerr := os.Lstat(filepath.Join(dir, n))
		missing := errors.Is(lerr, fs.ErrNotExist)
		if want := missing && n != ".cursor" && n != "caf\u00e9"; recorded != want {
			t.Errorf("%s: recorded missing %v, want %v (lstat: %v)", n, recorded, want, lerr)
		}
		_, merr := memo.Lstat(rel + "/" + n)
		if notExist(merr) != missing {
			t.Errorf("%s: memo says %v, lstat %v", n, merr, lerr)
		}
	}
}
