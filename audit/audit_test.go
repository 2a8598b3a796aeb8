package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func line(i int) []byte {
	b, _ := json.Marshal(Record{ToolUseID: "toolu_" + strconv.Itoa(i), Decision: "deny", Reason: strings.Repeat("x", i%50)})
	return append(b, '\n')
}

// readAll returns every line of path and its rotated files, checking each
// is a whole JSON record.
func readAll(t *testing.T, path string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	files, _ := filepath.Glob(path + "*")
	for _, f := range files {
		h, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(h)
		for sc.Scan() {
			var r Record
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil || dec.More() {
				t.Errorf("%s: not one whole record: %q: %v", f, sc.Text(), err)
				continue
			}
			seen[r.ToolUseID]++
		}
		h.Close()
	}
	return seen
}

func TestAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	f := &File{Path: path}
	for i := range 3 {
		if err := f.Append(line(i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := readAll(t, path); len(got) != 3 {
		t.Errorf("lines: %v", got)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: the log names the files the agent touched", st.Mode().Perm())
	}
	for _, bad := range []string{"", "{}", "{}\n{}\n", "{\n}\n"} {
		if err := f.Append([]byte(bad)); err == nil {
			t.Errorf("Append(%q) accepted: a record is exactly one line", bad)
		}
	}
}

func TestAppendErrors(t *testing.T) {
	dir := t.TempDir()
	if err := (&File{Path: filepath.Join(dir, "missing", "audit.jsonl")}).Append(line(1)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: %v", err)
	}
	if err := (&File{Path: dir}).Append(line(1)); err == nil {
		t.Error("a directory as the log: no error")
	}
}

// TestRotate: the log rotates once it reaches MaxBytes; FILE.1 is the
// newest; only Keep rotated files remain.
func TestRotate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := line(0)
	f := &File{Path: path, MaxBytes: int64(3 * len(l)), Keep: 2}
	for range 10 {
		if err := f.Append(l); err != nil {
			t.Fatal(err)
		}
	}
	// 10 lines, 3 per file: 3 rotations of full files, 1 line in the log.
	sizes := map[string]int64{}
	files, _ := filepath.Glob(path + "*")
	for _, name := range files {
		st, _ := os.Stat(name)
		sizes[filepath.Base(name)] = st.Size()
	}
	want := map[string]int64{"audit.jsonl": int64(len(l)), "audit.jsonl.1": int64(3 * len(l)), "audit.jsonl.2": int64(3 * len(l))}
	if fmt.Sprint(sizes) != fmt.Sprint(want) {
		t.Errorf("files %v, want %v", sizes, want)
	}

	// Keep 0: a full log is dropped.
	f = &File{Path: path + "-0", MaxBytes: int64(len(l)), Keep: 0}
	for range 3 {
		if err := f.Append(l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(f.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("keep 0: the full log remains: %v", err)
	}
	if m, _ := filepath.Glob(f.Path + ".*"); len(m) != 0 {
		t.Errorf("keep 0: rotated files %v", m)
	}
}

// TestRotateError: a log that cannot be rotated still gets the record;
// the error says so (ErrRotate).
func TestRotateError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	// FILE.1 is a directory that is not empty: renaming onto it fails.
	if err := os.MkdirAll(path+".1/x", 0o755); err != nil {
		t.Fatal(err)
	}
	f := &File{Path: path, MaxBytes: 1, Keep: 1}
	err := f.Append(line(1))
	if !errors.Is(err, ErrRotate) {
		t.Fatalf("error %v, want ErrRotate", err)
	}
	if got := readAll(t, path); got["toolu_1"] != 1 {
		t.Errorf("the record was not written: %v", got)
	}
}

// TestAppendConcurrent: many writers, each with its own open file (as
// separate processes have), rotating all the while, lose and break no line.
// The whole-process version is TestAuditConcurrentProcesses in package main.
func TestAppendConcurrent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no file lock on Windows: rotation is not coordinated (see the package documentation)")
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	const writers, each = 16, 100
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			f := &File{Path: path, MaxBytes: 4096, Keep: MaxKeepForTest}
			for i := range each {
				if err := f.Append(line(w*each + i)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := readAll(t, path)
	for i := range writers * each {
		if n := seen["toolu_"+strconv.Itoa(i)]; n != 1 {
			t.Errorf("record %d found %d times", i, n)
		}
	}
	if rotated, _ := filepath.Glob(path + ".*"); len(rotated) < 2 {
		t.Errorf("only %d rotations: the test did not rotate under contention", len(rotated))
	}
}

// MaxKeepForTest keeps every rotated file, so that no line is dropped by
// design and a lost one is a bug.
const MaxKeepForTest = 100

func BenchmarkAppend(b *testing.B) {
	f := &File{Path: filepath.Join(b.TempDir(), "audit.jsonl"), MaxBytes: 1 << 20, Keep: 2}
	l := line(7)
	b.ReportAllocs()
	for b.Loop() {
		if err := f.Append(l); err != nil {
			b.Fatal(err)
		}
	}
}
