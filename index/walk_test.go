package index

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/policy"
)

// mkTree makes the files (a trailing slash: a directory; "a -> b": a symlink)
// below a fresh directory and returns it, resolved.
func mkTree(t *testing.T, entries ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if name, target, ok := strings.Cut(e, " -> "); ok {
			p := filepath.Join(root, name)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if strings.HasPrefix(target, "=") { // a hard link
				if err := os.Link(filepath.Join(root, target[1:]), p); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.Symlink(strings.ReplaceAll(target, "ROOT", root), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p := filepath.Join(root, e)
		if strings.HasSuffix(e, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(e), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// matcher is the default policy's part that the kernel holds, for the
// project at proj.
func matcher(t *testing.T, proj string) *classify.PathMatcher { return matcherB(t, proj) }

func matcherB(t testing.TB, proj string) *classify.PathMatcher {
	t.Helper()
	spec := classify.KernelSpec{
		Roots:     []string{proj},
		Project:   []string{proj},
		Templates: []string{".env.example"},
		Hide: []classify.SpecPattern{
			{Anchor: policy.AnyDepth, Glob: ".env*"}, {Anchor: policy.AnyDepth, Glob: "*.pem"},
			{Anchor: policy.ProjectRoot, Glob: "config/credentials.json"},
		},
		ReadOnly: []classify.SpecPattern{
			{Anchor: policy.AnyDepth, Glob: ".env*"}, {Anchor: policy.ProjectRoot, Glob: "migrations/**"},
			{Anchor: policy.ProjectRoot, Glob: ".git/**"}, {Anchor: policy.ProjectRoot, Glob: "package-lock.json"},
		},
		Skip: []classify.SpecPattern{
			{Anchor: policy.ProjectRoot, Glob: ".git/**"}, {Anchor: policy.ProjectRoot, Glob: "node_modules/**"},
			{Anchor: policy.ProjectRoot, Glob: "package-lock.json"},
		},
	}
	m, err := spec.Matcher()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func rel(root string, ps []string) []string {
	out := []string{}
	for _, p := range ps {
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			r = "OUT:" + filepath.Base(p)
		}
		out = append(out, r)
	}
	return out
}

func TestWalk(t *testing.T) {
	outside := mkTree(t, "prod.env.txt", "notes")
	root := mkTree(t,
		".env", ".env.example", "README.md", "src/main.go", "services/api/.env.local",
		"certs.pem/inner/a", // a directory a hide pattern matches: hidden whole
		"config/credentials.json", "config/other.json",
		"migrations/001.sql", "migrations/.env", // read-only, and a secret inside
		"node_modules/pkg/.env", "node_modules/pkg/test/key.pem", // skipped
		".git/config", ".git/objects/x.pem", // skipped
		"package-lock.json",
		".envlink -> ROOT/src/main.go",         // a symlink a hide pattern matches: its target is hidden
		".env.out -> "+outside+"/prod.env.txt", // ... outside: unreadable by Landlock
		"plain -> .env",                        // a symlink to a hidden file: nothing more
		".env.dangling -> nowhere",
		"copy -> =.env",                                    // a hard link of .env under another name
		"vendor/lib/.git/config", "vendor/lib/.git/hooks/", // a nested repository
		"wt/.git",                               // a linked worktree's (or submodule's) .git file
		"linked/.git -> ../vendor/lib/.git",     // a .git symlink: git follows it
		"src/objects/", "src/refs/", "src/HEAD", // a repository itself: git in src takes it
		"lib/HEAD",                                                                  // a file named HEAD alone is none
		"vendor/lib/.git/HEAD", "vendor/lib/.git/objects/", "vendor/lib/.git/refs/", // the repository's own .git
		"vendor/lib/.git/worktrees/w/HEAD", "vendor/lib/.git/worktrees/w/commondir", // and its worktree's
		"node_modules/dep/.git/HEAD", // skipped: not searched
	)
	f := Walk(matcher(t, root), []string{root}, Limits{})
	if f.Incomplete != "" {
		t.Fatalf("incomplete: %s", f.Incomplete)
	}
	wantHide := []string{".env", "certs.pem", "config/credentials.json", "copy", "migrations/.env", "services/api/.env.local", "src/main.go"}
	if got := rel(root, f.Hide); !slices.Equal(got, wantHide) {
		t.Errorf("Hide = %q, want %q", got, wantHide)
	}
	if got, want := rel(root, f.ReadOnly), []string{"migrations"}; !slices.Equal(got, want) {
		t.Errorf("ReadOnly = %q, want %q", got, want)
	}
	if got, want := rel(root, f.NoRead), []string{"OUT:prod.env.txt"}; !slices.Equal(got, want) {
		t.Errorf("NoRead = %q, want %q", got, want)
	}
	if got, want := rel(root, f.Repos), []string{"linked", "src", "vendor/lib", "wt"}; !slices.Equal(got, want) {
		t.Errorf("Repos = %q, want %q", got, want)
	}
}

// TestWalkManyRepos: past maxRepos nested repositories the search is
// incomplete, not a list with the last ones left out (plain ones made
// first would hide one with a hook from the watch list).
func TestWalkManyRepos(t *testing.T) {
	var entries []string
	for i := range maxRepos {
		entries = append(entries, fmt.Sprintf("r%04d/.git/HEAD", i))
	}
	root := mkTree(t, entries...)
	if f := Walk(matcher(t, root), []string{root}, Limits{}); f.Incomplete != "" || len(f.Repos) != maxRepos {
		t.Fatalf("%d repositories: incomplete %q, %d found", maxRepos, f.Incomplete, len(f.Repos))
	}
	os.MkdirAll(root+"/zz/.git/hooks", 0o755)
	if f := Walk(matcher(t, root), []string{root}, Limits{}); !strings.Contains(f.Incomplete, "nested git repositories") {
		t.Fatalf("%d repositories: incomplete %q, %d found", maxRepos+1, f.Incomplete, len(f.Repos))
	}
}

func TestWalkLimits(t *testing.T) {
	root := mkTree(t, "a/.env", "b/.env", "c/.env", "d/x", "e/y")
	if f := Walk(matcher(t, root), []string{root}, Limits{Found: 2}); !strings.Contains(f.Incomplete, "over 2 files") {
		t.Errorf("found limit: incomplete %q", f.Incomplete)
	}
	if f := Walk(matcher(t, root), []string{root}, Limits{Entries: 3}); !strings.Contains(f.Incomplete, "over 3 entries") {
		t.Errorf("entries limit: incomplete %q", f.Incomplete)
	}
	if f := Walk(matcher(t, root), []string{root, root + "/missing", root + "/a"}, Limits{}); f.Incomplete != "" || len(f.Hide) != 3 {
		t.Errorf("roots: %+v", f)
	}
}

// TestWalkHardLinks: every name below the roots of a hidden file with
// several links is hidden, in the skipped trees too (searched only then);
// a name outside the roots is not found (the caller's count of links says
// so); hard links of files that are not hidden change nothing.
func TestWalkHardLinks(t *testing.T) {
	outside := mkTree(t, "x")
	root := mkTree(t,
		".env", ".env.local", "cert.pem", "src/a.go", "src/b.go",
		"node_modules/x -> =.env.local", "node_modules/a/b/c -> =.env.local",
		"package-lock.json -> =.env", ".git/objects/o -> =.env",
		"node_modules/.pnpm/pkg/a.go -> =src/a.go", "src/b2.go -> =src/b.go", // not secrets
	)
	if err := os.Link(filepath.Join(root, "cert.pem"), filepath.Join(outside, "cert")); err != nil {
		t.Fatal(err)
	}
	f := Walk(matcher(t, root), []string{root}, Limits{})
	if f.Incomplete != "" {
		t.Fatalf("incomplete: %s", f.Incomplete)
	}
	wantHide := []string{".env", ".env.local", ".git/objects/o", "cert.pem", "node_modules/a/b/c", "node_modules/x", "package-lock.json"}
	if got := rel(root, f.Hide); !slices.Equal(got, wantHide) {
		t.Errorf("Hide = %q, want %q", got, wantHide)
	}
	got := map[string]string{}
	for k, v := range f.Links {
		got[rel(root, []string{k})[0]] = rel(root, []string{v})[0]
	}
	want := map[string]string{".git/objects/o": ".env", "package-lock.json": ".env", "node_modules/x": ".env.local", "node_modules/a/b/c": ".env.local"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
	// Without a secret with links missing, the skipped trees are not
	// listed: the entries seen are the same with or without them.
	plain := mkTree(t, ".env", "src/a.go", "node_modules/.pnpm/pkg/a.go -> =src/a.go", "node_modules/.pnpm/pkg/b/c/d")
	bare := mkTree(t, ".env", "src/a.go")
	os.Mkdir(filepath.Join(bare, "node_modules"), 0o755)
	if a, b := Walk(matcher(t, plain), []string{plain}, Limits{}), Walk(matcher(t, bare), []string{bare}, Limits{}); a.Entries != b.Entries || len(a.Hide) != 1 {
		t.Errorf("a tree with hard links of plain files: %+v; without: %+v", a, b)
	}
}
