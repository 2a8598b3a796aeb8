package gitconfig

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir with home as HOME and fails the test on error.
func gitIn(t *testing.T, dir, home string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestDeriveAsGit makes, with git itself, a repository with core.hooksPath,
// an include.path, an includeIf, a submodule and a linked worktree, and
// checks that Derive lists every configuration file git reports reading
// (git config --list --show-origin) and the hooks directory git runs
// (git rev-parse --git-path hooks), from each work tree.
func TestDeriveAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	for _, d := range []string{home, filepath.Join(root, "up"), filepath.Join(root, "proj")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = ~/more.gitconfig\n"), 0o644)
	os.WriteFile(filepath.Join(home, "more.gitconfig"), []byte("[user]\n\tname = t\n"), 0o644)
	up, proj := filepath.Join(root, "up"), filepath.Join(root, "proj")
	gitIn(t, up, home, "init", "-q")
	os.WriteFile(filepath.Join(up, "f"), []byte("x\n"), 0o644)
	gitIn(t, up, home, "add", "f")
	gitIn(t, up, home, "commit", "-qm", "up")
	gitIn(t, proj, home, "init", "-q")
	os.WriteFile(filepath.Join(proj, "team.gitconfig"), []byte("[include]\n\tpath = nested.gitconfig\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "nested.gitconfig"), []byte("[color]\n\tui = auto\n"), 0o644)
	os.WriteFile(filepath.Join(proj, "cond.gitconfig"), []byte("[color]\n\tui = auto\n"), 0o644)
	gitIn(t, proj, home, "config", "include.path", "../team.gitconfig")
	gitIn(t, proj, home, "config", "includeIf.gitdir:"+proj+"/.path", "../cond.gitconfig")
	gitIn(t, proj, home, "config", "core.hooksPath", ".githooks")
	os.WriteFile(filepath.Join(proj, "a"), []byte("a\n"), 0o644)
	gitIn(t, proj, home, "add", "a")
	gitIn(t, proj, home, "commit", "-qm", "a")
	gitIn(t, proj, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "sub")
	gitIn(t, proj, home, "commit", "-qm", "sub")
	gitIn(t, proj, home, "worktree", "add", "-q", filepath.Join(root, "wt"))
	gitIn(t, proj, home, "config", "extensions.worktreeConfig", "true")
	gitIn(t, filepath.Join(root, "wt"), home, "config", "--worktree", "core.hooksPath", ".wthooks")

	getenv := func(k string) string {
		switch k {
		case "HOME":
			return home
		case "XDG_CONFIG_HOME":
			return filepath.Join(home, ".config")
		case "GIT_CONFIG_NOSYSTEM":
			return "1"
		}
		return ""
	}
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	for _, dir := range []string{proj, filepath.Join(root, "wt"), filepath.Join(proj, "sub")} {
		got := map[string]Path{}
		for _, p := range Derive(fsys, getenv, []string{dir}) {
			got[p.Path] = p
		}
		var want []string
		for _, line := range strings.Split(gitIn(t, dir, home, "config", "--list", "--show-origin"), "\n") {
			origin, _, _ := strings.Cut(line, "\t")
			if f, ok := strings.CutPrefix(origin, "file:"); ok {
				if !filepath.IsAbs(f) {
					f = filepath.Join(dir, f)
				}
				if f = filepath.Clean(f); f != filepath.Join(home, ".gitconfig") {
					// The global file itself is the user's, not listed.
					want = append(want, f)
				}
			}
		}
		hooks := gitIn(t, dir, home, "rev-parse", "--git-path", "hooks")
		if !filepath.IsAbs(hooks) {
			hooks = filepath.Join(dir, hooks)
		}
		want = append(want, filepath.Clean(hooks))
		gitFile := filepath.Join(dir, ".git")
		if fi, err := os.Lstat(gitFile); err == nil && !fi.IsDir() {
			want = append(want, gitFile)
		}
		t.Logf("from %s: git names %d paths, Derive lists %d", dir, len(want), len(got))
		for _, w := range want {
			if _, ok := got[w]; !ok {
				t.Errorf("from %s: git reads or runs %s, Derive does not list it (it lists %d paths)", dir, w, len(got))
			}
		}
	}
	all := map[string]bool{}
	for _, p := range Derive(fsys, getenv, []string{proj}) {
		all[p.Path] = true
	}
	// From the superproject alone: the submodule's and the linked
	// worktree's files too.
	for _, w := range []string{filepath.Join(proj, ".git/modules/sub/config"), filepath.Join(proj, ".git/modules/sub/hooks"),
		filepath.Join(proj, "sub/.git"), filepath.Join(root, "wt/.git"), filepath.Join(proj, ".git/worktrees/wt/commondir"),
		filepath.Join(proj, ".githooks"), filepath.Join(root, "wt/.wthooks"), filepath.Join(proj, ".git/worktrees/wt/config.worktree"), filepath.Join(proj, "team.gitconfig"), filepath.Join(proj, "nested.gitconfig")} {
		if !all[w] {
			t.Errorf("from %s: %s is not listed", proj, w)
		}
	}
}

// TestLocalFile compares LocalFile with git rev-parse --git-path config
// (which follows commondir) from the work trees of TestDeriveAsGit's
// kinds: a repository, a subdirectory, a linked worktree, a submodule.
func TestLocalFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	os.MkdirAll(home, 0o755)
	os.MkdirAll(filepath.Join(proj, "d"), 0o755)
	gitIn(t, proj, home, "init", "-q")
	gitIn(t, proj, home, "commit", "-q", "--allow-empty", "-m", "i")
	gitIn(t, proj, home, "worktree", "add", "-q", filepath.Join(root, "wt"))
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	for _, dir := range []string{proj, filepath.Join(proj, "d"), filepath.Join(root, "wt")} {
		want := gitIn(t, dir, home, "rev-parse", "--path-format=absolute", "--git-path", "config")
		if got, ok := LocalFile(fsys, dir); !ok || got != want {
			t.Errorf("LocalFile(%s) = %q, %v; git writes %q", dir, got, ok, want)
		}
	}
	if got, ok := LocalFile(fsys, home); ok {
		t.Errorf("LocalFile(%s) = %q outside any repository", home, got)
	}
}

// BenchmarkDerive measures Derive from this module's own directory (the
// repository it is checked out in, if any): the cost a confined call pays.
func BenchmarkDerive(b *testing.B) {
	dir, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	for b.Loop() {
		Derive(fsys, os.Getenv, []string{dir})
	}
}
