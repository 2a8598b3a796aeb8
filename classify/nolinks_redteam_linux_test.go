package classify

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// redTree makes, below a temporary directory reached through no link, a
// project deep enough for knowDir (a/b/c/proj), a home (home/u/h) and an
// outside directory, with the links a project or a home may be reached
// through, and links planted at the self-protected names: it returns the
// temporary directory.
func redTree(t testing.TB) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b/c/proj/sub", "a/b/c/proj/.git", "a/b/c/other", "home/u/h/.ssh", "outside/claude", "outside/hooks"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/b/c/proj/f.txt", "outside/secret", "home/u/h/.ssh/id_rsa", "home/u/h/.bashrc", "file"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A FIFO: opening it for reading without O_DIRECTORY would block.
	if err := syscall.Mkfifo(filepath.Join(dir, "a/b/c/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for l, target := range map[string]string{
		"lnk":                   dir + "/a",          // an ancestor of the project, a link
		"rel":                   "a",                 // the same, relative
		"plink":                 dir + "/a/b/c/proj", // the project itself, a link
		"hlnk":                  dir + "/home",       // an ancestor of the home, a link
		"a/b/c/proj/out":        dir + "/outside",    // a link out of the project
		"a/b/c/proj/.claude":    dir + "/outside/claude",
		"a/b/c/proj/.mcp.json":  dir + "/outside/secret",
		"a/b/c/proj/.git/hooks": dir + "/outside/hooks",
		"home/u/h/.config":      dir + "/outside",
		"home/u/h/.gitconfig":   dir + "/outside/secret",
	} {
		if err := os.Symlink(target, filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openFDs lists the descriptors this process holds open, with what each
// leads to.
func openFDs(t testing.TB) map[string]string {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	fds := map[string]string{}
	for _, e := range ents {
		target, _ := os.Readlink("/proc/self/fd/" + e.Name())
		fds[e.Name()] = target
	}
	return fds
}

// TestResolveDirSpellings: a sandbox root or a home directory however it
// is spelt (a link above it or at it, relative or absolute, "//", ".",
// "..", a trailing slash, /proc/self magic links, a file, a FIFO, a
// missing path) resolves through ResolveDir and a MemoFS view of the real
// root as a plain walk resolves it, and so does each path below it
// resolved through that view afterwards (what a decision does with its
// targets).
func TestResolveDirSpellings(t *testing.T) {
	dir := redTree(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir + "/a/b/c/proj"); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	P, H := dir+"/a/b/c/proj", dir+"/home/u/h"
	roots := []string{
		P, P + "/", "/" + P, P + "/.", dir + "/a/b/../b/c/proj", dir + "/a/./b/c/proj", dir + "/a/b/c/other/../proj",
		dir + "/lnk/b/c/proj", dir + "/rel/b/c/proj", dir + "/plink", dir + "/plink/", dir + "/plink/sub",
		"/proc/self/cwd", "/proc/self/root" + P, "/proc/" + fmt.Sprint(os.Getpid()) + "/cwd",
		dir + "/file", dir + "/file/x/y", dir + "/a/b/c/fifo", dir + "/a/b/c/fifo/x", dir + "/missing/a/b", P + "/out", P + "/.claude", P + "/.git/hooks",
		H, dir + "/hlnk/u/h", H + "/.config", H + "/.ssh",
	}
	below := []string{"", "/f.txt", "/new.txt", "/out/x", "/.claude/settings.json", "/.mcp.json", "/.git/hooks/pre-commit",
		"/sub/../out/secret", "/../../../../outside/secret", "/.config/safezone/policy.yaml", "/.ssh/id_rsa", "/.gitconfig"}
	root := os.DirFS("/").(fs.ReadLinkFS)
	for _, r := range roots {
		m := newMemoFS(root)
		got, gotErr := ResolveDir(m, r)
		want, wantErr := Resolve(root, r)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("ResolveDir(%s) = %+v, %v; a walk gives %+v, %v", r, got, gotErr, want, wantErr)
		}
		for _, b := range below {
			p := strings.TrimSuffix(r, "/") + b
			got, gotErr := Resolve(m, p)
			want, wantErr := Resolve(root, p)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("after ResolveDir(%s): Resolve(%s) = %+v, %v; a walk gives %+v, %v", r, p, got, gotErr, want, wantErr)
			}
		}
		CloseMemoFS(m)
	}
}

// TestDecideClosesKnownDirs: however many decisions a process makes (a
// replay, a fuzzer, a test), the directories knowDir opens are closed: by
// their read, by Decide, or by CloseMemoFS for a view no decision used.
func TestDecideClosesKnownDirs(t *testing.T) {
	dir := redTree(t)
	P, H := dir+"/a/b/c/proj", dir+"/home/u/h"
	loc := policy.Locations{ProjectRoot: P, Home: H, User: H + "/.config/safezone/policy.yaml"}
	pol := policy.Merge(mustLayer(t, policy.EmbeddedName, string(mustRead(t, "../policy.example.yaml"))), policy.SelfProtection(loc, nil))
	env := Env{ProjectDir: P, Home: H, Today: "2026-11-22"}
	root := os.DirFS("/").(fs.ReadLinkFS)
	calls := []map[string]any{
		{"tool_name": "Write", "tool_input": map[string]any{"file_path": P + "/f.txt", "content": "x"}},
		{"tool_name": "Write", "tool_input": map[string]any{"file_path": P + "/.claude/settings.json", "content": "x"}},
		{"tool_name": "Read", "tool_input": map[string]any{"file_path": H + "/.ssh/id_rsa"}},
		{"tool_name": "Read", "tool_input": map[string]any{"file_path": dir + "/outside/secret"}},
		{"tool_name": "Bash", "tool_input": map[string]any{"command": "cat out/secret ../../../../outside/secret; echo > .mcp.json"}},
		{"tool_name": "Glob", "tool_input": map[string]any{"pattern": "**/*", "path": P}},
	}
	before := openFDs(t)
	held := 0 // views that held a directory open before CloseMemoFS
	for i := range 300 {
		c := calls[i%len(calls)]
		c["cwd"] = P
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		call, err := hookio.DecodeClaude(data)
		if err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 0: // Decide's own view
			Decide(call, pol, env, root)
		case 1: // a view shared with a ResolveDir before the decision (the watch list's)
			v := MemoFS(root)
			if _, err := ResolveDir(v, P); err != nil {
				t.Fatal(err)
			}
			Decide(call, pol, env, v)
		case 2: // a view no decision uses
			v := MemoFS(root)
			for _, d := range []string{P, H, dir + "/outside/claude"} {
				if _, err := ResolveDir(v, d); err != nil {
					t.Fatal(err)
				}
			}
			if len(openFDs(t)) > len(before) {
				held++
			}
			CloseMemoFS(v)
		}
	}
	if held == 0 {
		t.Error("ResolveDir held no directory open: knowDir was not exercised")
	}
	after := openFDs(t)
	for fd, target := range after {
		if _, ok := before[fd]; !ok {
			t.Errorf("descriptor %s (%s) left open after 300 decisions", fd, target)
		}
	}
}

// TestResolveDirUnreadable: a root the user may search but not read (a
// 0311 project, a 0711 home of another user: openat2 for reading fails
// with EACCES, knowDir asks again with O_PATH) is learnt without a
// descriptor, resolves as a walk resolves it, and its names are left to
// lstat: none is recorded missing from a read that failed. Root reads
// every directory, so it runs for another user only (as CI does; by hand:
// go test -c ./classify && setpriv --reuid=65534 --regid=65534
// --clear-groups ./classify.test -test.run TestResolveDirUnreadable).
func TestResolveDirUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a directory whatever its mode")
	}
	dir := redTree(t)
	P := dir + "/a/b/c/proj"
	if err := os.Chmod(P, 0o311); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(P, 0o755)
	root := os.DirFS("/").(fs.ReadLinkFS)
	m := newMemoFS(root)
	got, gotErr := ResolveDir(m, P)
	want, wantErr := Resolve(root, P)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Errorf("ResolveDir(%s) = %+v, %v; a walk gives %+v, %v", P, got, gotErr, want, wantErr)
	}
	if _, learnt := m.dirs[P]; !learnt {
		t.Errorf("knowDir learnt nothing of a directory it may search (O_PATH)")
	}
	if fd, open := m.dirFDs[P]; open {
		t.Errorf("knowDir holds descriptor %d of a directory it may not read", fd)
	}
	m.absentFrom(P[1:], []string{".claude", ".mcp.json", "f.txt", "gone", "hooks", ".vscode"})
	for _, n := range []string{".claude", ".mcp.json", "f.txt", "gone"} {
		if m.knownAbsent(P[1:] + "/" + n) {
			t.Errorf("%s recorded missing from a directory that could not be read", n)
		}
	}
	for _, n := range []string{"/.claude/settings.json", "/.mcp.json", "/f.txt", "/out/secret"} {
		got, gotErr := Resolve(m, P+n)
		want, wantErr := Resolve(root, P+n)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve(%s) = %+v, %v; a walk gives %+v, %v", P+n, got, gotErr, want, wantErr)
		}
	}
	CloseMemoFS(m)
}

// TestAbsentFromFoldsAsTheKernel: in a directory that folds case (ext4,
// f2fs or tmpfs with casefold: Unicode full case folding after NFD,
// fs/unicode/mkutf8data.c "Use the C+F casefold"), lstat(".config") finds
// an entry ".conﬁg" (the fi ligature), ".ssh" finds ".ßh" and "stuff"
// finds "ﬆuﬀ", although strings.EqualFold (simple folding) matches none
// of them: a directory read must leave such names to lstat, not record
// them missing. A name no entry may fold to is recorded missing still.
func TestAbsentFromFoldsAsTheKernel(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := dir + "/p/q/home"
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{".con\ufb01g", ".\u00dfh", "\ufb06u\ufb00", "a\u037eb", "\u212aelvin"} {
		if err := os.WriteFile(d+"/"+n, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, known := range []bool{false, true} {
		m := newMemoFS(os.DirFS("/").(fs.ReadLinkFS))
		if known {
			m.knowDir(d)
		}
		m.absentFrom(d[1:], []string{".config", ".ssh", "stuff", "a;b", "kelvin", "gone", ".conf", "ss"})
		for _, n := range []string{".config", ".ssh", "stuff", "a;b", "kelvin"} {
			if m.knownAbsent(d[1:] + "/" + n) {
				t.Errorf("%s recorded missing (knowDir %v), though the kernel's casefold finds an entry by it", n, known)
			}
		}
		for _, n := range []string{"gone", ".conf", "ss"} {
			if !m.knownAbsent(d[1:] + "/" + n) {
				t.Errorf("%s not recorded missing (knowDir %v)", n, known)
			}
		}
		CloseMemoFS(m)
	}
}

// TestHookDescriptorIsNotTheWriters: a path through /proc/self/fd/N names
// the descriptor N of the process that opens it (the host's, writing a
// file; the shell's, running a command), not the hook's. knowDir keeps the
// sandbox root open for its read, so the hook's own descriptor N is the
// project while the decision resolves its targets: "/proc/self/fd/N/x"
// must not be allowed as a write inside the project (the host writes
// below whatever its descriptor N is: exec 7</etc; echo > /proc/self/fd/7/x).
func TestHookDescriptorIsNotTheWriters(t *testing.T) {
	dir := redTree(t)
	P, H := dir+"/a/b/c/proj", dir+"/home/u/h"
	pol := policy.Merge(mustLayer(t, "p.yaml", "version: 1\nrules:\n  allow: [\"Write(/**)\", \"Edit(**)\"]\n"))
	env := Env{ProjectDir: P, Home: H, Today: "2026-11-22"}
	root := os.DirFS("/").(fs.ReadLinkFS)
	decide := func(p string, fsys fs.ReadLinkFS) *Result {
		in, _ := json.Marshal(map[string]any{"tool_name": "Write", "cwd": P,
			"tool_input": map[string]any{"file_path": p, "content": "x"}})
		call, err := hookio.DecodeClaude(in)
		if err != nil {
			t.Fatal(err)
		}
		return Decide(call, pol, env, fsys)
	}
	if r := decide(P+"/x.txt", root); r.Decision != policy.Allow {
		t.Fatalf("a write inside the project: %s: %s", r.Decision, r.Reason)
	}
	for _, p := range []string{dir + "/outside/x.txt", "/proc/self/fd/999/x.txt"} {
		if r := decide(p, root); r.Decision == policy.Allow {
			t.Fatalf("a write outside the project allowed: %s", r.Reason)
		}
	}
	// The descriptor Decide's own knowDir gets: the lowest free one.
	probe, err := syscall.Open(P, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Close(probe)
	for _, p := range []string{fmt.Sprintf("/proc/self/fd/%d/x.txt", probe), fmt.Sprintf("/dev/fd/%d/x.txt", probe),
		fmt.Sprintf("/proc/%d/fd/%d/x.txt", os.Getpid(), probe), fmt.Sprintf("/proc/thread-self/fd/%d/x.txt", probe)} {
		if r := decide(p, root); r.Decision == policy.Allow {
			t.Errorf("write %s allowed (the hook's descriptor %d, not the writer's): %s\n%s", p, probe, r.Reason, trace(r))
		}
	}
	// A view shared with the watch list's ResolveDir, as the engine makes.
	v := MemoFS(root)
	if _, err := ResolveDir(v, P); err != nil {
		t.Fatal(err)
	}
	for _, fd := range v.(*memoFS).dirFDs {
		if r := decide(fmt.Sprintf("/proc/self/fd/%d/x.txt", fd), v); r.Decision == policy.Allow {
			t.Errorf("write /proc/self/fd/%d/x.txt allowed through a shared view: %s", fd, r.Reason)
		}
	}
	CloseMemoFS(v)
}
