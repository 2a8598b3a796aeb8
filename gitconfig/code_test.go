package gitconfig

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCodeOrdinary: repositories as git itself makes them for ordinary
// work (init, clone, a remote, an upstream branch, user.email, a
// submodule, a linked worktree, a commit) carry no code.
func TestCodeOrdinary(t *testing.T) {
	root, home := gitTree(t)
	up := upstream(t, root, home)

	proj := filepath.Join(root, "proj")
	os.MkdirAll(proj, 0o755)
	gitIn(t, proj, home, "init", "-q")
	check := func(what string) {
		t.Helper()
		if items := Code(rootFS(), proj+"/.git", nil); len(items) > 0 {
			t.Errorf("after %s: %q, want nothing", what, items)
		}
	}
	check("git init")
	gitIn(t, proj, home, "config", "user.email", "agent@example.com")
	gitIn(t, proj, home, "config", "user.name", "Agent")
	gitIn(t, proj, home, "remote", "add", "origin", up)
	gitIn(t, proj, home, "fetch", "-q", "origin")
	gitIn(t, proj, home, "checkout", "-q", "-b", "work", "--track", "origin/"+gitIn(t, up, home, "branch", "--show-current"))
	gitIn(t, proj, home, "config", "pull.rebase", "false")
	check("user.*, a remote, an upstream branch, pull.rebase")
	gitIn(t, proj, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "vendor/up")
	check("git submodule add")
	gitIn(t, proj, home, "worktree", "add", "-q", filepath.Join(root, "wt"))
	check("git worktree add")
	os.WriteFile(filepath.Join(proj, "b"), []byte("b\n"), 0o644)
	gitIn(t, proj, home, "add", "b")
	gitIn(t, proj, home, "commit", "-qm", "b")
	check("a commit")

	clone := filepath.Join(root, "clone")
	gitIn(t, root, home, "clone", "-q", up, clone)
	if items := Code(rootFS(), clone+"/.git", nil); len(items) > 0 {
		t.Errorf("after git clone: %q, want nothing", items)
	}
	if items := Code(rootFS(), filepath.Join(root, "none", ".git"), nil); items != nil {
		t.Errorf("a missing .git: %q, want nothing", items)
	}
}

// TestCodePlanted: each way a command that made a repository can leave a
// program that git runs later is an item, and names it.
func TestCodePlanted(t *testing.T) {
	root, home := gitTree(t)
	up := upstream(t, root, home)

	n := 0
	fresh := func() string {
		n++
		p := filepath.Join(root, fmt.Sprint("p", n))
		os.MkdirAll(p, 0o755)
		gitIn(t, p, home, "init", "-q")
		return p
	}
	for _, c := range []struct {
		name string
		make func(p string)
		want string
	}{
		{"a pre-commit hook", func(p string) {
			os.WriteFile(p+"/.git/hooks/pre-commit", []byte("#!/bin/sh\ncurl x|sh\n"), 0o755)
		}, "hooks/pre-commit"},
		{"a sample renamed into place by a link", func(p string) {
			os.Symlink("pre-push.sample", p+"/.git/hooks/pre-push")
		}, "hooks/pre-push"},
		{"core.hooksPath", func(p string) { gitIn(t, p, home, "config", "core.hooksPath", ".husky/_") }, `config: core.hookspath=".husky/_"`},
		{"core.fsmonitor", func(p string) { gitIn(t, p, home, "config", "core.fsmonitor", "./x.sh") }, "config: core.fsmonitor="},
		{"core.sshCommand", func(p string) { gitIn(t, p, home, "config", "core.sshCommand", "./x.sh") }, "config: core.sshcommand="},
		{"a shell alias", func(p string) { gitIn(t, p, home, "config", "alias.st", "!./x.sh") }, "config: alias.st="},
		{"include.path", func(p string) { gitIn(t, p, home, "config", "include.path", "../inc") }, "config: include.path="},
		{"a filter", func(p string) { gitIn(t, p, home, "config", "filter.x.smudge", "./x.sh") }, "config: filter.x.smudge="},
		{"a credential helper", func(p string) { gitIn(t, p, home, "config", "credential.helper", "!./x.sh") }, "config: credential.helper="},
		{"submodule update by a command", func(p string) { gitIn(t, p, home, "config", "submodule.x.update", "!./x.sh") }, "config: submodule.x.update="},
		{"an unknown key", func(p string) { gitIn(t, p, home, "config", "uploadpack.packObjectsHook", "./x.sh") }, "config: uploadpack.packobjectshook="},
		{"config.worktree", func(p string) {
			os.WriteFile(p+"/.git/config.worktree", []byte("[core]\n\thooksPath = h\n"), 0o644)
		}, "config.worktree: core.hookspath="},
		{"a config git refuses", func(p string) {
			f, _ := os.OpenFile(p+"/.git/config", os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("[core\n")
			f.Close()
		}, "config: "},
		{"commondir", func(p string) { os.WriteFile(p+"/.git/commondir", []byte(up+"/.git\n"), 0o644) }, "commondir"},
		{"a submodule's hook", func(p string) {
			gitIn(t, p, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "sub")
			os.WriteFile(p+"/.git/modules/sub/hooks/post-checkout", []byte("#!/bin/sh\n"), 0o755)
		}, "modules/sub/hooks/post-checkout"},
		{"a nested submodule path's hook", func(p string) {
			gitIn(t, p, home, "-c", "protocol.file.allow=always", "submodule", "add", "-q", up, "a/b")
			os.WriteFile(p+"/.git/modules/a/b/hooks/post-checkout", []byte("#!/bin/sh\n"), 0o755)
		}, "modules/a/b/hooks/post-checkout"},
		{"a worktree pointing elsewhere", func(p string) {
			gitIn(t, p, home, "commit", "-q", "--allow-empty", "-m", "x")
			gitIn(t, p, home, "worktree", "add", "-q", p+"-wt")
			os.WriteFile(p+"/.git/worktrees/"+filepath.Base(p)+"-wt/commondir", []byte(up+"/.git\n"), 0o644)
		}, "worktrees/"},
		{"too many hooks to read", func(p string) {
			for i := range maxCodeDirEntries + 1 {
				os.WriteFile(fmt.Sprintf("%s/.git/hooks/x%d.sample", p, i), nil, 0o644)
			}
		}, "hooks: more than"},
		{"hooks a symlink", func(p string) {
			os.RemoveAll(p + "/.git/hooks")
			os.Symlink(home, p+"/.git/hooks")
		}, "hooks: hooks is not a directory"},
		{".git a file naming a repository with a hook", func(p string) {
			os.WriteFile(p+"/.git/hooks/post-checkout", []byte("#!/bin/sh\n"), 0o755)
			os.Rename(p+"/.git", p+"/elsewhere")
			os.WriteFile(p+"/.git", []byte("gitdir: elsewhere\n"), 0o644)
		}, "gitdir " + root},
		{".git a file without gitdir", func(p string) {
			os.RemoveAll(p + "/.git")
			os.WriteFile(p+"/.git", []byte("x\n"), 0o644)
		}, ".git is a file without a gitdir line"},
		{".git a symlink", func(p string) {
			os.RemoveAll(p + "/.git")
			os.Symlink(up+"/.git", p+"/.git")
		}, ".git is a symlink to "},
	} {
		p := fresh()
		c.make(p)
		items := Code(rootFS(), p+"/.git", nil)
		if !slices.ContainsFunc(items, func(s string) bool { return strings.HasPrefix(s, c.want) }) {
			t.Errorf("%s: %q, want an item starting %q", c.name, items, c.want)
		}
	}
}

// rootFS is the whole file system as Code takes it.
func rootFS() fs.ReadLinkFS { return os.DirFS("/").(fs.ReadLinkFS) }

// TestCodeLinkedWorktree: a linked worktree's .git file leads to its
// worktree directory and the common directory, whose hooks git runs: a
// hook there is an item, unless the caller judges that repository on its
// own.
func TestCodeLinkedWorktree(t *testing.T) {
	root, home := gitTree(t)
	p := filepath.Join(root, "p")
	os.MkdirAll(p, 0o755)
	gitIn(t, p, home, "init", "-q")
	gitIn(t, p, home, "commit", "-q", "--allow-empty", "-m", "x")
	gitIn(t, p, home, "worktree", "add", "-q", "wt")
	if items := Code(rootFS(), p+"/wt/.git", nil); len(items) > 0 {
		t.Errorf("a worktree of a plain repository: %q", items)
	}
	os.WriteFile(p+"/.git/hooks/pre-commit", []byte("#!/bin/sh\n"), 0o755)
	items := Code(rootFS(), p+"/wt/.git", nil)
	if !slices.ContainsFunc(items, func(s string) bool { return strings.HasSuffix(s, "commondir "+p+"/.git: hooks/pre-commit") }) {
		t.Errorf("the common directory's hook: %q", items)
	}
	if items := Code(rootFS(), p+"/wt/.git", func(c string) bool { return c == p+"/.git" }); len(items) > 0 {
		t.Errorf("the common directory judged on its own: %q", items)
	}
	os.WriteFile(p+"/.git/worktrees/wt/config.worktree", []byte("[core]\n\tfsmonitor = ./x\n"), 0o644)
	items = Code(rootFS(), p+"/wt/.git", func(c string) bool { return c == p+"/.git" })
	if !slices.ContainsFunc(items, func(s string) bool { return strings.Contains(s, "config.worktree: core.fsmonitor=") }) {
		t.Errorf("the worktree's own config.worktree: %q", items)
	}
}

// TestCodeAsGitRuns: ways a command can leave a program in a repository
// that Code read otherwise than git does. Each case is run with real git
// (the user's ordinary command afterwards) to show the program runs, and
// Code must list an item for it.
func TestCodeAsGitRuns(t *testing.T) {
	root, home := gitTree(t)
	n := 0
	hook := func(g, name, marker string) {
		os.MkdirAll(g+"/hooks", 0o755)
		os.WriteFile(g+"/hooks/"+name, []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755)
	}
	// bareAt makes a repository without a work tree at g (its config says
	// core.bare false, as git init's .git does).
	bareAt := func(t *testing.T, g string) {
		os.MkdirAll(g, 0o755)
		gitIn(t, g, home, "init", "-q", "--bare")
		gitIn(t, g, home, "config", "core.bare", "false")
	}
	for _, c := range []struct {
		name string
		// plant makes the repository at p (its .git) leaving a program
		// that writes marker; run is what the user runs in p afterwards.
		plant func(t *testing.T, p, marker string)
		run   []string
	}{
		{"an alias without '!' that sets core.fsmonitor", func(t *testing.T, p, marker string) {
			gitIn(t, p, home, "init", "-q")
			// The user's own "git st" is overridden by the repository's.
			gitIn(t, p, home, "config", "alias.st", `-c core.fsmonitor="touch '`+marker+`'; false" status`)
		}, []string{"st"}},
		{"an alias without '!' that sets core.hooksPath", func(t *testing.T, p, marker string) {
			gitIn(t, p, home, "init", "-q")
			gitIn(t, p, home, "config", "alias.ci", "-c core.hooksPath=h commit")
			os.MkdirAll(p+"/h", 0o755)
			os.WriteFile(p+"/h/pre-commit", []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755)
		}, []string{"ci", "-q", "--allow-empty", "-m", "x"}},
		{"a remote at a local repository with a pre-receive hook", func(t *testing.T, p, marker string) {
			bareAt(t, p+"-remote")
			hook(p+"-remote", "pre-receive", marker)
			gitIn(t, p, home, "init", "-q")
			gitIn(t, p, home, "remote", "add", "origin", p+"-remote")
			gitIn(t, p, home, "commit", "-q", "--allow-empty", "-m", "x")
		}, []string{"push", "-q", "origin", "HEAD:refs/heads/x"}},
		{"core.worktree outside the repository's directory", func(t *testing.T, p, marker string) {
			// A branch holding a file named as marker, in the directory
			// core.worktree names (say ~): the user's checkout writes it.
			gitIn(t, p, home, "init", "-q")
			os.WriteFile(p+"/"+filepath.Base(marker), []byte("#!/bin/sh\n"), 0o755)
			gitIn(t, p, home, "add", ".")
			gitIn(t, p, home, "commit", "-q", "-m", "x")
			gitIn(t, p, home, "branch", "b")
			gitIn(t, p, home, "rm", "-q", filepath.Base(marker))
			gitIn(t, p, home, "commit", "-q", "-m", "y")
			gitIn(t, p, home, "config", "core.worktree", filepath.Dir(marker))
		}, []string{"checkout", "-q", "b"}},
		{"a gitdir line with a trailing space", func(t *testing.T, p, marker string) {
			bareAt(t, p+"/g")  // what a reading that trims sees
			bareAt(t, p+"/g ") // what git takes
			hook(p+"/g ", "pre-commit", marker)
			os.WriteFile(p+"/.git", []byte("gitdir: g \n"), 0o644)
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}},
		{"a gitdir of two lines", func(t *testing.T, p, marker string) {
			bareAt(t, p+"/g")
			bareAt(t, p+"/g\nx")
			hook(p+"/g\nx", "pre-commit", marker)
			os.WriteFile(p+"/.git", []byte("gitdir: g\nx\n"), 0o644)
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}},
		{"a gitdir through a symlink and ..", func(t *testing.T, p, marker string) {
			bareAt(t, p+"/g")      // p/l/../g cleaned
			bareAt(t, p+"/deep/g") // where the kernel resolves it
			hook(p+"/deep/g", "pre-commit", marker)
			os.MkdirAll(p+"/deep/in", 0o755)
			os.Symlink("deep/in", p+"/l")
			os.WriteFile(p+"/.git", []byte("gitdir: l/../g\n"), 0o644)
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}},
		{"a worktree's commondir through a symlink and ..", func(t *testing.T, p, marker string) {
			bareAt(t, p+"/main")
			bareAt(t, p+"/deep/main")
			hook(p+"/deep/main", "pre-commit", marker)
			os.MkdirAll(p+"/deep/in", 0o755)
			os.MkdirAll(p+"/deep/a/b", 0o755)
			os.Symlink("../deep/a/b", p+"/main/l")
			// A linked worktree of main whose commondir reads as main
			// cleaned, deep/main resolved.
			wt := p + "/main/worktrees/w"
			os.MkdirAll(wt, 0o755)
			os.WriteFile(wt+"/commondir", []byte("../../l/../../main\n"), 0o644)
			os.WriteFile(wt+"/HEAD", []byte("ref: refs/heads/w\n"), 0o644)
			os.WriteFile(wt+"/gitdir", []byte(p+"/.git\n"), 0o644)
			os.WriteFile(p+"/.git", []byte("gitdir: "+wt+"\n"), 0o644)
		}, []string{"commit", "-q", "--allow-empty", "-m", "x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			n++
			p := filepath.Join(root, fmt.Sprint("p", n))
			os.MkdirAll(p, 0o755)
			marker := filepath.Join(root, fmt.Sprint("ran", n))
			c.plant(t, p, marker)
			// Judged as the .git of a project root (the worktree's common
			// directory is not judged on its own elsewhere).
			items := Code(rootFS(), p+"/.git", nil)

			cmd := exec.Command("git", c.run...)
			cmd.Dir = p
			cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
				"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			out, _ := cmd.CombinedOutput()
			if _, err := os.Stat(marker); err != nil {
				t.Fatalf("git %q did not run the planted program (the case is no attack): %s", c.run, out)
			}
			if len(items) == 0 {
				t.Errorf("git %q ran the planted program, Code lists nothing", c.run)
			}
			t.Logf("items: %q", items)
		})
	}
}

// TestCodeRemotes: a remote's URL counts by what it runs: one with a
// scheme or scp-like runs the user's programs only; a local repository
// counts by its own items; a remote helper, a relative path or a missing
// repository is an item.
func TestCodeRemotes(t *testing.T) {
	root, home := gitTree(t)
	plain := filepath.Join(root, "plain")
	for _, d := range []string{home, plain} {
		os.MkdirAll(d, 0o755)
	}
	gitIn(t, plain, home, "init", "-q")
	for i, c := range []struct {
		url  string
		want string // "" for no item
	}{
		{"https://github.com/a/b.git", ""},
		{"ssh://git@host/a/b", ""},
		{"git@github.com:a/b.git", ""},
		{plain, ""},
		{"file://" + plain, ""},
		{plain + "/.git", ""},
		{"ext::sh -c touch% /tmp/x", "a remote helper"},
		{"../plain", "a relative path"},
		{filepath.Join(root, "none"), "not a repository now"},
	} {
		p := filepath.Join(root, fmt.Sprint("p", i))
		os.MkdirAll(p, 0o755)
		gitIn(t, p, home, "init", "-q")
		gitIn(t, p, home, "remote", "add", "origin", c.url)
		items := Code(rootFS(), p+"/.git", nil)
		switch {
		case c.want == "" && len(items) > 0:
			t.Errorf("%s: %q, want nothing", c.url, items)
		case c.want != "" && !slices.ContainsFunc(items, func(s string) bool { return strings.Contains(s, c.want) }):
			t.Errorf("%s: %q, want an item with %q", c.url, items, c.want)
		}
	}
	// A loop of local remotes ends.
	gitIn(t, plain, home, "remote", "add", "back", filepath.Join(root, "p3"))
	os.WriteFile(plain+"/.git/hooks/update", []byte("#!/bin/sh\n"), 0o755)
	if items := Code(rootFS(), filepath.Join(root, "p3", ".git"), nil); !slices.ContainsFunc(items, func(s string) bool { return strings.HasSuffix(s, "hooks/update") }) {
		t.Errorf("a local remote with a hook: %q", items)
	}
}

// gitTree skips the test where git is missing, and returns a temporary
// directory (symlinks resolved) with an empty home directory in it.
func gitTree(t *testing.T) (root, home string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, home
}

// upstream makes root/up, a repository with one commit, and returns it.
func upstream(t *testing.T, root, home string) string {
	t.Helper()
	up := filepath.Join(root, "up")
	if err := os.MkdirAll(up, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, up, home, "init", "-q")
	if err := os.WriteFile(filepath.Join(up, "a"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, up, home, "add", "a")
	gitIn(t, up, home, "commit", "-qm", "a")
	return up
}
