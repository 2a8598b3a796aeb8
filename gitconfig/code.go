package gitconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"syscall"
)

// Limits of Code: a repository a command has just made holds a few
// files; past these the rest counts as code (fail closed), not as read.
const (
	maxCodeDirEntries = 256 // entries of hooks/, modules/, worktrees/
	maxCodeDepth      = 3   // modules/ below one another
)

// Code lists what in the repository at dotgit (an absolute path, a
// work tree's ".git" as git finds it, not followed) would make git run a
// program that the repository chose: an empty list for a repository as
// `git init` or `git clone` makes it, with no hook installed and only the
// configuration those commands, `git remote`, `git branch` and
// `git config user.*` write.
//
// Each item is a short description, in the order found:
//   - ".git is a symlink": git reads the repository elsewhere, which this
//     does not follow;
//   - for a ".git" file (gitdir: DIR, gitrepository-layout(5)), the items
//     of DIR, each prefixed with "gitdir DIR: "; when DIR is a linked
//     worktree's (it holds commondir), its config.worktree and the items
//     of the common directory it names, unless elsewhere reports that
//     common directory (absolute, clean) judged on its own (the .git of a
//     sandbox root: git worktree add is ordinary work);
//   - "hooks/NAME": a file in the hooks directory that is not one of git's
//     disabled "*.sample" files (githooks(5));
//   - "config: KEY=VALUE": a variable outside [benignKey]'s list, or a
//     core.worktree outside the directory that holds dotgit
//     (worktreeWithin), which
//     includes every one that runs a program (core.hooksPath,
//     core.fsmonitor, core.sshCommand, core.pager, credential.helper,
//     include.path, filter.*, alias.* starting with "!", …; git-config(1));
//   - "commondir": the repository takes its hooks and configuration from
//     another directory (gitrepository-layout(5));
//   - for a remote whose URL is a local repository, its items (git push
//     runs its hooks), prefixed with the variable; a remote helper's URL,
//     a relative path or a missing repository is an item itself
//     (localRemote);
//   - the same for each submodule's repository (modules/NAME, up to
//     maxCodeDepth deep) and each linked worktree's config.worktree.
//
// A file that cannot be read, a configuration git would refuse, and a
// directory longer than maxCodeDirEntries are items too: what is not read
// is not known to be harmless. fsys is the whole file system, paths
// without their leading "/" (os.DirFS("/")). Nothing is written or run.
// A missing dotgit has no items.
func Code(fsys fs.ReadLinkFS, dotgit string, elsewhere func(commonDir string) bool) []string {
	items, _ := CodeFiles(fsys, dotgit, elsewhere)
	return items
}

// collect is what Code finds: the items, and the files they are read
// from.
type collect struct {
	items, files []string
	// worktree is where core.worktree may point: the directory that
	// holds the .git judged (its own work tree); "" for none.
	worktree string
	// remote is set while the repository a local remote names is read:
	// its own remotes are not followed.
	remote bool
}

// CodeFiles is Code, and the files its items come from (absolute: each
// hook, each configuration file with an item, each commondir, the .git
// file followed): a program rewritten in place changes one of them (its
// change time) though not the items.
func CodeFiles(fsys fs.ReadLinkFS, dotgit string, elsewhere func(commonDir string) bool) (items, files []string) {
	dotgit = path.Clean(dotgit)
	c := &collect{worktree: path.Dir(dotgit)}
	codeFrom(fsys, dotgit, elsewhere, c)
	return c.items, c.files
}

// ModuleCodeFiles is CodeFiles for the submodule repository gitdir
// (SUPER/.git/modules/NAME) of the superproject whose work tree is
// worktree: its core.worktree may name a directory there. A missing
// gitdir has no items.
func ModuleCodeFiles(fsys fs.ReadLinkFS, gitdir, worktree string) (items, files []string) {
	gitdir = path.Clean(gitdir)
	c := &collect{worktree: worktree}
	fi, err := fsys.Lstat(rel(gitdir))
	switch {
	case err != nil && isNotExist(err):
	case err != nil || !fi.IsDir():
		c.items = append(c.items, "not a directory")
	default:
		codeIn(fsys, gitdir, "", 0, c)
	}
	return c.items, c.files
}

// codeFrom adds the items of the .git at dotgit (clean) to c.
func codeFrom(fsys fs.ReadLinkFS, dotgit string, elsewhere func(commonDir string) bool, c *collect) {
	fi, err := fsys.Lstat(rel(dotgit))
	switch {
	case err != nil && isNotExist(err):
	case err != nil:
		c.items = append(c.items, ".git cannot be inspected: "+err.Error())
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := fsys.ReadLink(rel(dotgit))
		c.items = append(c.items, ".git is a symlink to "+quoteShort(target))
	case fi.Mode().IsRegular():
		c.files = append(c.files, dotgit)
		gitFileCode(fsys, dotgit, elsewhere, c)
	case !fi.IsDir():
		c.items = append(c.items, ".git is neither a directory nor a file")
	default:
		codeIn(fsys, dotgit, "", 0, c)
	}
}

// gitFileCode is Code for a .git that is a file.
func gitFileCode(fsys fs.ReadLinkFS, dotgit string, elsewhere func(string) bool, c *collect) {
	content, _ := readGitPath(fsys, dotgit)
	dir, ok := strings.CutPrefix(content, "gitdir: ")
	if !ok || dir == "" {
		c.items = append(c.items, ".git is a file without a gitdir line: "+quoteShort(content))
		return
	}
	if !path.IsAbs(dir) {
		dir = path.Dir(dotgit) + "/" + dir
	}
	// git takes the directory the kernel resolves ("l/.." is where the
	// symlink l leads, up one), not the path cleaned.
	dir, ok = realPath(fsys, dir)
	prefix := "gitdir " + dir + ": "
	if !ok {
		prefix = "gitdir " + quoteShort(content) + ": "
	}
	if fi, err := fsys.Lstat(rel(dir)); !ok || err != nil || !fi.IsDir() {
		c.items = append(c.items, prefix+"not a directory")
		return
	}
	if _, err := fsys.Lstat(rel(dir + "/commondir")); err != nil {
		// A submodule's repository (modules/NAME of its superproject), or
		// any other: all of it.
		codeIn(fsys, dir, prefix, 0, c)
		return
	}
	c.files = append(c.files, dir+"/commondir")
	// A linked worktree: git reads its config.worktree, and the hooks and
	// configuration of the common directory.
	common, _ := readGitPath(fsys, dir+"/commondir")
	if !path.IsAbs(common) {
		common = dir + "/" + common
	}
	common, ok = realPath(fsys, common)
	configCode(fsys, dir+"/config.worktree", prefix+"config.worktree", c)
	if !ok || elsewhere == nil || !elsewhere(common) {
		if fi, err := fsys.Lstat(rel(common)); !ok || err != nil || !fi.IsDir() {
			c.items = append(c.items, prefix+"commondir "+common+": not a directory")
		} else {
			codeIn(fsys, common, prefix+"commondir "+common+": ", 0, c)
		}
	}
}

// worktreeWithin reports whether core.worktree v, set in the
// configuration of the repository directory gitdir, names top or a
// directory below it, resolved as git resolves it (relative to gitdir,
// symlinks followed; git-config(1) core.worktree). Elsewhere, the user's
// git checkout, pull or reset writes the repository's files there: into
// the home directory, say, outside the sandbox. git submodule writes one
// that names the submodule's directory in the superproject's work tree.
func worktreeWithin(fsys fs.ReadLinkFS, gitdir, v, top string) bool {
	if top == "" || v == "" {
		return false
	}
	if !path.IsAbs(v) {
		v = gitdir + "/" + v
	}
	// A work tree not made yet (git submodule update makes it): the
	// part that exists resolved, the rest without "..".
	r, ok := realPath(fsys, v)
	for rest := ""; !ok; {
		i := strings.LastIndex(v, "/")
		if i <= 0 {
			return false
		}
		switch base := v[i+1:]; base {
		case "", ".":
		case "..":
			return false
		default:
			rest = path.Join(base, rest)
		}
		v = v[:i]
		if r, ok = realPath(fsys, v); ok {
			r = path.Join(r, rest)
		}
	}
	rt, ok2 := realPath(fsys, top)
	return ok2 && (r == rt || strings.HasPrefix(r, rt+"/") || rt == "/")
}

// readGitPath reads the file p as git reads a .git file
// (read_gitfile_gently) or a commondir (get_common_dir_noenv, git 2.39
// setup.c): the whole of it, only trailing "\n" and "\r" removed (a
// space or a second line is part of the path). ok is false when it cannot
// be read or is larger than maxSmallFile.
func readGitPath(fsys fs.ReadLinkFS, p string) (string, bool) {
	f, err := fsys.Open(rel(p))
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSmallFile+1))
	if err != nil || len(data) > maxSmallFile {
		return "", false
	}
	return strings.TrimRight(string(data), "\r\n"), true
}

// maxLinks bounds the symlinks realPath follows, as the kernel does
// (ELOOP past 40).
const maxLinks = 40

// realPath resolves the absolute path p as the kernel does (realpath(3),
// which git applies to a gitdir and a commondir): each symlink followed
// where it stands, ".." taken after it. ok is false when a component
// is missing or unreadable, a symlink cannot be read, or there are more
// than maxLinks.
func realPath(fsys fs.ReadLinkFS, p string) (string, bool) {
	if !path.IsAbs(p) {
		return "", false
	}
	done, rest, links := "/", strings.Split(p, "/"), 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			done = path.Dir(done)
			continue
		}
		next := path.Join(done, c)
		fi, err := fsys.Lstat(rel(next))
		if err != nil {
			return "", false
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if links++; links > maxLinks {
			return "", false
		}
		target, err := fsys.ReadLink(rel(next))
		if err != nil || target == "" {
			return "", false
		}
		if path.IsAbs(target) {
			done = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return done, true
}

// codeIn adds the items of the repository directory g to items, each
// prefixed with prefix (its path below the top repository).
func codeIn(fsys fs.ReadLinkFS, g, prefix string, depth int, c *collect) {
	add := func(s string) { c.items = append(c.items, prefix+s) }
	if _, err := fsys.Lstat(rel(g + "/commondir")); err == nil || !isNotExist(err) {
		add("commondir")
		c.files = append(c.files, g+"/commondir")
	}
	for _, name := range []string{"config", "config.worktree"} {
		configCode(fsys, g+"/"+name, prefix+name, c)
	}
	hooks, err := readDirBounded(fsys, g+"/hooks")
	switch {
	case err != nil:
		add("hooks: " + err.Error())
	default:
		for _, h := range hooks {
			if !strings.HasSuffix(h, ".sample") {
				add("hooks/" + h)
				c.files = append(c.files, g+"/hooks/"+h)
			}
		}
	}
	worktrees, err := readDirBounded(fsys, g+"/worktrees")
	if err != nil {
		add("worktrees: " + err.Error())
	}
	for _, w := range worktrees {
		configCode(fsys, g+"/worktrees/"+w+"/config.worktree", prefix+"worktrees/"+w+"/config.worktree", c)
		if _, err := fsys.Lstat(rel(g + "/worktrees/" + w + "/commondir")); err == nil {
			// A linked worktree points at its main repository: this
			// one. Anything else is another repository's.
			c, _ := readGitPath(fsys, g+"/worktrees/"+w+"/commondir")
			common := c
			if !path.IsAbs(common) {
				common = g + "/worktrees/" + w + "/" + common
			}
			rg, ok1 := realPath(fsys, g)
			rc, ok2 := realPath(fsys, common)
			if !ok1 || !ok2 || rc != rg {
				add("worktrees/" + w + "/commondir: " + quoteShort(c))
			}
		}
	}
	modules, err := readDirBounded(fsys, g+"/modules")
	if err != nil {
		add("modules: " + err.Error())
	}
	for _, m := range modules {
		if depth >= maxCodeDepth {
			add("modules/" + m + ": nested deeper than " + fmt.Sprint(maxCodeDepth))
			continue
		}
		sub := g + "/modules/" + m
		fi, err := fsys.Lstat(rel(sub))
		if err != nil || !fi.IsDir() {
			add("modules/" + m + ": not a directory")
			continue
		}
		if _, err := fsys.Lstat(rel(sub + "/config")); err != nil && isNotExist(err) {
			// modules/ groups submodules by their path: a directory
			// without a config is one level of that path.
			codeModules(fsys, sub, prefix+"modules/"+m+"/", depth+1, c)
			continue
		}
		codeIn(fsys, sub, prefix+"modules/"+m+"/", depth+1, c)
	}
}

// codeModules reads a level of modules/ that is not a repository (a
// submodule at a/b is modules/a/b): each entry is a repository or
// another level.
func codeModules(fsys fs.ReadLinkFS, dir, prefix string, depth int, c *collect) {
	if depth > maxCodeDepth {
		c.items = append(c.items, prefix+": nested deeper than "+fmt.Sprint(maxCodeDepth))
		return
	}
	names, err := readDirBounded(fsys, dir)
	if err != nil {
		c.items = append(c.items, prefix+": "+err.Error())
	}
	for _, n := range names {
		sub := dir + "/" + n
		fi, err := fsys.Lstat(rel(sub))
		if err != nil || !fi.IsDir() {
			c.items = append(c.items, prefix+n+": not a directory")
			continue
		}
		if _, err := fsys.Lstat(rel(sub + "/config")); err != nil && isNotExist(err) {
			codeModules(fsys, sub, prefix+n+"/", depth+1, c)
			continue
		}
		codeIn(fsys, sub, prefix+n+"/", depth+1, c)
	}
}

// configCode adds the entries of the configuration file p that run code
// (not benignKey), as "name: KEY=VALUE"; a missing file has none.
func configCode(fsys fs.ReadLinkFS, p, name string, c *collect) {
	fi, err := fsys.Lstat(rel(p))
	switch {
	case err != nil && isNotExist(err):
		return
	case err != nil:
		c.items = append(c.items, name+": "+err.Error())
		return
	case !fi.Mode().IsRegular():
		c.items = append(c.items, name+": not a regular file")
		return
	case fi.Size() > MaxFile:
		c.items = append(c.items, name+": larger than 1 MiB")
		return
	}
	f, err := fsys.Open(rel(p))
	if err != nil {
		c.items = append(c.items, name+": "+err.Error())
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	f.Close()
	if err != nil {
		c.items = append(c.items, name+": "+err.Error())
		return
	}
	n := len(c.items)
	entries, err := Parse(data)
	if err != nil {
		c.items = append(c.items, name+": "+err.Error())
	}
	for _, e := range entries {
		if !benignKey(e) || e.Section == "core" && e.Key == "worktree" && !worktreeWithin(fsys, path.Dir(p), e.Value, c.worktree) {
			c.items = append(c.items, name+": "+e.Name()+"="+quoteShort(e.Value))
		}
	}
	if !c.remote {
		for _, e := range entries {
			if e.Section == "remote" && (e.Key == "url" || e.Key == "pushurl") && benignKey(e) {
				localRemote(fsys, name+": "+e.Name()+"="+quoteShort(e.Value), e.Value, c)
			}
		}
	}
	if len(c.items) > n {
		c.files = append(c.files, p)
	}
}

// localRemote adds the items of the repository a remote's URL v names
// when it is a local one (a path, or file://: git-fetch(1) "GIT URLS"):
// git push runs git receive-pack there, and with it that repository's
// hooks (pre-receive, update, post-receive; githooks(5)) and the
// configuration that names programs. A URL through a remote helper
// ("helper::address", git-remote-helpers(7)) runs a program the URL
// chooses; a relative path or a missing repository is not known: each is
// an item. A URL with a scheme ("https://", "ssh://") or scp-like
// ("host:path") runs only the user's own programs.
func localRemote(fsys fs.ReadLinkFS, what, v string, c *collect) {
	p, isFile := strings.CutPrefix(v, "file://")
	switch {
	case strings.Contains(v, "::"):
		c.items = append(c.items, what+": a remote helper runs a program the URL names")
		return
	case !isFile && strings.Contains(v, "://"):
		return
	case !isFile && strings.Contains(v, ":") && !strings.Contains(v[:strings.Index(v, ":")], "/"):
		return // host:path, ssh
	case !path.IsAbs(p):
		c.items = append(c.items, what+": a local repository at a relative path")
		return
	}
	target := path.Clean(p)
	prefix := what + ", a local repository: "
	sub := &collect{remote: true}
	switch fi, err := fs.Stat(fsys, rel(target)); {
	case err == nil && fi.IsDir() && func() bool { _, err := fsys.Lstat(rel(target + "/.git")); return err == nil }():
		sub.worktree = target
		codeFrom(fsys, target+"/.git", nil, sub)
	case err == nil && fi.IsDir() && IsGitDir(fsys, target):
		codeIn(fsys, target, "", 0, sub)
	default:
		c.items = append(c.items, prefix+"not a repository now")
		return
	}
	for _, it := range sub.items {
		c.items = append(c.items, prefix+it)
	}
	c.files = append(c.files, sub.files...)
}

// benignKey reports whether git never runs a program the value names for
// the variable e, from a list of what `git init`, `git clone`,
// `git remote`, `git branch`, `git submodule add`, `git config user.*`
// and actions/checkout write (git-config(1), git 2.47). Every other
// variable counts as code: the list is short on purpose.
func benignKey(e Entry) bool {
	switch e.Section {
	case "core":
		return e.Subsection == "" && slices.Contains([]string{
			"repositoryformatversion", "filemode", "bare", "logallrefupdates", "ignorecase",
			"precomposeunicode", "symlinks", "autocrlf", "eol", "safecrlf", "quotepath",
			"worktree", "sparsecheckout", "sparsecheckoutcone", "untrackedcache", "splitindex",
			"checkstat", "trustctime", "abbrev", "compression", "loosecompression",
			"bigfilethreshold", "preloadindex", "longpaths", "fscache", "commentchar",
			"whitespace", "excludesfile", "attributesfile",
		}, e.Key)
	case "user", "author", "committer":
		return e.Subsection == "" && slices.Contains([]string{"name", "email", "signingkey", "useconfigonly"}, e.Key)
	case "remote":
		return slices.Contains([]string{"url", "pushurl", "fetch", "push", "tagopt", "prune", "prunetags",
			"mirror", "skipdefaultupdate", "skipfetchall", "promisor", "partialclonefilter"}, e.Key)
	case "branch":
		return e.Subsection != "" && slices.Contains([]string{"remote", "merge", "rebase", "pushremote", "description"}, e.Key)
	case "submodule":
		switch e.Key {
		case "url", "active", "branch", "fetchrecursesubmodules", "ignore", "shallow", "recurse", "fetchjobs":
			return true
		case "update":
			// "!command" runs it (git-submodule(1)).
			return slices.Contains([]string{"checkout", "rebase", "merge", "none"}, e.Value)
		}
	case "init":
		return e.Key == "defaultbranch"
	case "extensions":
		return slices.Contains([]string{"objectformat", "worktreeconfig", "refstorage", "partialclone", "preciousobjects", "noop"}, e.Key)
	case "pull":
		return slices.Contains([]string{"rebase", "ff"}, e.Key)
	case "push":
		return slices.Contains([]string{"default", "autosetupremote", "followtags"}, e.Key)
	case "fetch":
		return slices.Contains([]string{"prune", "prunetags", "recursesubmodules", "writecommitgraph"}, e.Key)
	case "gc", "maintenance":
		return slices.Contains([]string{"auto", "autodetach", "strategy"}, e.Key)
	case "commit", "tag":
		return slices.Contains([]string{"gpgsign", "verbose", "cleanup"}, e.Key)
	case "rebase":
		return slices.Contains([]string{"autostash", "autosquash", "updaterefs"}, e.Key)
	case "merge":
		return e.Subsection == "" && slices.Contains([]string{"ff", "conflictstyle"}, e.Key)
	case "color":
		return true
	case "http":
		// actions/checkout's http.<url>.extraheader holds a token, not a
		// program.
		return slices.Contains([]string{"extraheader", "sslverify", "postbuffer", "version"}, e.Key)
	}
	// alias.* is not on the list: one starting with "!" is a shell
	// command, and any other may carry options that run one ("-c
	// core.fsmonitor=CMD status", "difftool --extcmd=CMD"); a repository's
	// alias overrides the user's own of that name (git-config(1),
	// alias.*).
	return false
}

// readDirBounded returns the names in dir, sorted; a missing dir has none.
// Past maxCodeDirEntries, or when dir is not a directory, it is an error.
func readDirBounded(fsys fs.ReadLinkFS, dir string) ([]string, error) {
	fi, err := fsys.Lstat(rel(dir))
	switch {
	case err != nil && isNotExist(err):
		return nil, nil
	case err != nil:
		return nil, err
	case !fi.IsDir():
		return nil, fmt.Errorf("%s is not a directory", path.Base(dir))
	}
	f, err := fsys.Open(rel(dir))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, fmt.Errorf("%s cannot be listed", path.Base(dir))
	}
	ents, err := rd.ReadDir(maxCodeDirEntries + 1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(ents) > maxCodeDirEntries {
		return nil, fmt.Errorf("more than %d entries", maxCodeDirEntries)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	slices.Sort(names)
	return names, nil
}

// isNotExist: the name is missing (ENOENT), or a component of its path is
// no directory (ENOTDIR): nothing there either way.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// quoteShort quotes s for a reason, bounded to 80 bytes.
func quoteShort(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// IsGitDir reports whether git would take the directory dir itself
// (absolute) for a repository when it looks for one there before the
// directories above it (is_git_directory, git 2.39 setup.c): it holds
// HEAD, and objects and refs, or a commondir naming where they are. A
// directory of a work tree that holds these is a repository to git run in
// it (safe.bareRepository is "all" unless the user sets it), whatever
// .git lies above. A superset: HEAD's content is not checked.
func IsGitDir(fsys fs.ReadLinkFS, dir string) bool {
	has := func(name string) bool {
		_, err := fsys.Lstat(rel(path.Join(dir, name)))
		return err == nil
	}
	if fi, err := fsys.Lstat(rel(path.Join(dir, "HEAD"))); err != nil || fi.IsDir() {
		return false
	}
	return has("commondir") || has("objects") && has("refs")
}
