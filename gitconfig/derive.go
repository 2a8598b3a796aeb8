package gitconfig

import (
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Limits of Derive: git itself stops at 10 nested includes
// (MAX_INCLUDE_DEPTH in git's config.c); the others bound the work one
// hook call does on a strange repository.
const (
	maxIncludeDepth = 10
	maxModuleDepth  = 4   // modules/ directories below one another
	maxEntries      = 256 // submodules or linked worktrees read per repository
	maxGitdirs      = 64  // repositories followed in all
	maxSmallFile    = 4096
)

// Missing says what should be done about a derived path that does not
// exist.
type Missing uint8

const (
	// Ignore: nothing; a command that creates it gains nothing git reads
	// (a linked worktree's .git file that was pruned, a global file).
	Ignore Missing = iota
	// Make: a directory git runs hooks from: made empty, so that it can
	// be kept read-only (git ignores an empty directory).
	Make
	// Watch: a file git would read as configuration if it appeared: the
	// kernel cannot stop its creation, so it is to be watched.
	Watch
)

// Path is one file or directory that git reads as configuration or runs
// programs from, for a repository Derive found.
type Path struct {
	Path    string // absolute and clean, symlinks not resolved
	Dir     bool   // a directory (hooks), else a file
	Why     string // what makes git read or run it, for explain
	Missing Missing
	// Submodule marks the config file of a submodule's repository
	// (modules/NAME/config), which git submodule update rewrites
	// (core.worktree) every time it runs.
	Submodule bool
	// Worktree marks what git worktree remove and prune delete of a linked
	// worktree: its work tree's .git file and core.hooksPath directory, and
	// worktrees/NAME/commondir and config.worktree.
	Worktree bool
}

// Env is what Derive takes from the environment git would run in: $HOME,
// $XDG_CONFIG_HOME, $GIT_CONFIG_GLOBAL, $GIT_CONFIG_SYSTEM and
// $GIT_CONFIG_NOSYSTEM (git-config(1), "FILES" and "ENVIRONMENT").
type Env func(name string) string

// Derive returns the files and directories that git would read as
// configuration or run as code for the repositories of dirs: for each
// absolute directory, the repository git finds from it (its .git
// directory or file, searching upwards as git does, or the directory
// itself when it is a bare repository), and, within each, its submodules'
// repositories (modules/, gitrepository-layout(5)) and its linked
// worktrees (worktrees/).
//
// For each repository it lists: the .git file (gitdir: …) when .git is
// one; the repository's config, config.worktree and commondir and its
// hooks directory (those of the common directory for a linked worktree,
// which shares them); every file include.path and includeIf.*.path name,
// followed to git's depth of 10, whatever the includeIf condition (a
// superset of what git reads: the conditions depend on the command);
// the directory core.hooksPath names (relative to the work tree, or to
// the repository for a bare one, "~/" the home directory), and its parent
// when it is named "_" (husky 9's .husky/_, whose hooks run the scripts
// in .husky); for each
// submodule the .git file of its work tree (from its core.worktree) and
// for each linked worktree its .git file (from worktrees/NAME/gitdir). The
// global and system configuration files are read too (their core.hooksPath
// and includes count for every repository), but not listed themselves:
// they belong to the user, not to a repository.
//
// fsys is the whole file system, paths without their leading "/"
// (os.DirFS("/")). Nothing is run and nothing is written. Files that
// cannot be read are skipped, and so are the entries of one larger than
// MaxFile (the file itself is still listed); a configuration file git would refuse
// counts up to its bad line (git would stop there too). Work is bounded
// (maxGitdirs repositories, maxEntries submodules or worktrees each);
// past the bounds the rest is not listed. The result is sorted by path,
// each path once (the first reason found).
func Derive(fsys fs.ReadLinkFS, env Env, dirs []string) []Path {
	d := &deriver{fsys: fsys, home: env("HOME"), seen: map[string]bool{}, parsed: map[string][]sourced{}, sub: map[string]bool{}, linked: map[string]bool{}, got: map[string]int{}}
	d.globals(env)
	for _, dir := range dirs {
		if path.IsAbs(dir) {
			d.discover(path.Clean(dir))
		}
	}
	slices.SortFunc(d.out, func(a, b Path) int { return strings.Compare(a.Path, b.Path) })
	return d.out
}

// config is one configuration file read, with the files it includes.
type config struct {
	file    string
	entries []sourced
}

// sourced is an entry and the file that set it.
type sourced struct {
	Entry
	file string
}

type deriver struct {
	fsys    fs.ReadLinkFS
	home    string
	global  []sourced // system, then global, in git's order
	seen    map[string]bool
	parsed  map[string][]sourced // a file read at depth 0, with its includes
	sub     map[string]bool      // the submodules' repositories
	linked  map[string]bool      // the linked worktrees' (worktrees/NAME)
	got     map[string]int       // path -> index in out
	out     []Path
	gitdirs int
}

func (d *deriver) add(p Path) {
	p.Path = path.Clean(p.Path)
	if _, ok := d.got[p.Path]; ok {
		return
	}
	d.got[p.Path] = len(d.out)
	d.out = append(d.out, p)
}

func rel(p string) string { return strings.TrimPrefix(p, "/") }

func (d *deriver) lstat(p string) (fs.FileInfo, bool) {
	fi, err := d.fsys.Lstat(rel(p))
	return fi, err == nil
}

func (d *deriver) isDir(p string) bool {
	fi, err := fs.Stat(d.fsys, rel(p))
	return err == nil && fi.IsDir()
}

func (d *deriver) isFile(p string) bool {
	fi, err := fs.Stat(d.fsys, rel(p))
	return err == nil && fi.Mode().IsRegular()
}

// readSmall reads the first line of a small file (commondir, gitdir, a
// .git file), trimmed; "" when it cannot.
func (d *deriver) readSmall(p string) string {
	f, err := d.fsys.Open(rel(p))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, maxSmallFile)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return strings.TrimSpace(line)
}

// expand makes a configured path absolute: "~/" is the home directory, a
// relative one is below base.
func (d *deriver) expand(v, base string) string {
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if d.home == "" {
			return ""
		}
		return path.Join(d.home, strings.TrimPrefix(v, "~"))
	case strings.HasPrefix(v, "~"):
		return "" // ~user: not followed
	case path.IsAbs(v):
		return path.Clean(v)
	case base == "":
		return ""
	}
	return path.Join(base, v)
}

// read parses the configuration file at p and, depth first, the files its
// include.path and includeIf.*.path name (git-config(1), "Includes"),
// appending every entry in the order git sees them; each included file is
// listed with why (from names the file that names it).
func (d *deriver) read(p string, depth int, into *[]sourced) {
	if depth > maxIncludeDepth {
		return
	}
	if depth == 0 {
		// A repository's config is read once however many worktrees
		// and submodules share it.
		if got, ok := d.parsed[p]; ok {
			*into = append(*into, got...)
			return
		}
		var all []sourced
		caller := into
		defer func() {
			d.parsed[p] = all
			*caller = append(*caller, all...)
		}()
		into = &all
	}
	f, err := d.fsys.Open(rel(p))
	if err != nil {
		return
	}
	data, _ := io.ReadAll(io.LimitReader(f, MaxFile+1))
	f.Close()
	entries, _ := Parse(data)
	for _, e := range entries {
		*into = append(*into, sourced{e, p})
		if e.Key != "path" || e.NoValue || !(e.Section == "include" && e.Subsection == "" || e.Section == "includeif" && e.Subsection != "") {
			continue
		}
		inc := d.expand(e.Value, path.Dir(p))
		if inc == "" {
			continue
		}
		why := "include.path in " + p + ": git reads it as configuration"
		if e.Section == "includeif" {
			why = "includeIf." + e.Subsection + ".path in " + p + ": git reads it as configuration"
		}
		d.add(Path{Path: inc, Why: why, Missing: Watch})
		d.read(inc, depth+1, into)
	}
}

// globals reads the system and global configuration files
// (git-config(1), "FILES"): $GIT_CONFIG_SYSTEM or /etc/gitconfig unless
// $GIT_CONFIG_NOSYSTEM; $GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config
// (~/.config/git/config) and ~/.gitconfig.
func (d *deriver) globals(env Env) {
	var files []string
	if env("GIT_CONFIG_NOSYSTEM") == "" {
		if s := env("GIT_CONFIG_SYSTEM"); s != "" {
			files = append(files, s)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if g := env("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		xdg := env("XDG_CONFIG_HOME")
		if !path.IsAbs(xdg) && d.home != "" {
			xdg = path.Join(d.home, ".config")
		}
		if path.IsAbs(xdg) {
			files = append(files, path.Join(xdg, "git", "config"))
		}
		if d.home != "" {
			files = append(files, path.Join(d.home, ".gitconfig"))
		}
	}
	for _, f := range files {
		if !path.IsAbs(f) {
			continue
		}
		d.read(f, 0, &d.global)
	}
}

// discover finds the repository git would use from dir (git's discovery:
// dir, then each directory above it) and follows it.
func (d *deriver) discover(dir string) {
	if d.dotGit(dir, "") {
		return
	}
	if d.isFile(path.Join(dir, "HEAD")) && d.isDir(path.Join(dir, "objects")) && d.isFile(path.Join(dir, "config")) {
		// A bare repository (or a .git directory named directly).
		d.gitdir(dir, "")
		return
	}
	for p := path.Dir(dir); ; p = path.Dir(p) {
		if d.dotGit(p, "") {
			return
		}
		if p == "/" {
			return
		}
	}
}

// dotGit follows the .git of the work tree wt, if it has one: a
// directory is the repository; a file says "gitdir: PATH" (relative to
// wt). what names the work tree for the reasons ("" for the one found
// from a directory).
func (d *deriver) dotGit(wt, what string) bool {
	g := path.Join(wt, ".git")
	fi, ok := d.lstat(g)
	if !ok {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi2, err := fs.Stat(d.fsys, rel(g)); err == nil {
			fi = fi2
		}
	}
	if fi.IsDir() {
		d.gitdir(g, wt)
		return true
	}
	line := d.readSmall(g)
	target, ok := strings.CutPrefix(line, "gitdir:")
	if !ok {
		return true // git stops here too ("invalid gitfile format")
	}
	why := "the .git file of " + wt + ": git finds the repository from it"
	if what != "" {
		why = "the .git file of " + what + ": git finds the repository from it"
	}
	d.add(Path{Path: g, Why: why})
	if t := strings.TrimSpace(target); t != "" && !strings.HasPrefix(t, "~") {
		d.gitdir(d.expand(t, wt), wt)
	}
	return true
}

// gitdir follows the repository directory g, whose work tree is wt ("" for
// a bare one).
func (d *deriver) gitdir(g, wt string) {
	if d.seen[g] || d.gitdirs >= maxGitdirs {
		return
	}
	d.seen[g] = true
	d.gitdirs++
	d.add(Path{Path: path.Join(g, "commondir"), Why: "commondir of " + g + ": git reads the shared configuration and hooks where it points", Missing: Watch, Worktree: d.linked[g]})
	d.add(Path{Path: path.Join(g, "config.worktree"), Why: "the per-worktree configuration of " + g, Missing: Watch, Worktree: d.linked[g]})
	common := g
	if c := d.readSmall(path.Join(g, "commondir")); c != "" {
		common = d.expand(c, g)
	}
	d.add(Path{Path: path.Join(common, "config"), Why: "the configuration of the repository " + common, Missing: Watch, Submodule: d.sub[common]})
	d.add(Path{Path: path.Join(common, "hooks"), Dir: true, Why: "the hooks of the repository " + common + " (githooks(5))", Missing: Make})
	var local []sourced
	d.read(path.Join(common, "config"), 0, &local)
	for _, e := range local {
		// git reads config.worktree only with this extension on
		// (git-worktree(1), "CONFIGURATION FILE").
		if e.Section == "extensions" && e.Subsection == "" && e.Key == "worktreeconfig" && (e.NoValue || isTrue(e.Value)) {
			d.read(path.Join(g, "config.worktree"), 0, &local)
			break
		}
	}
	all := append(slices.Clone(d.global), local...)
	hooksPath, hooksFrom, coreWT := "", "", ""
	for _, e := range all {
		if e.Section == "core" && e.Subsection == "" && !e.NoValue {
			switch e.Key {
			case "hookspath":
				hooksPath, hooksFrom = e.Value, e.file
			case "worktree":
				coreWT = e.Value
			}
		}
	}
	bare := wt == ""
	for _, e := range local {
		if e.Section == "core" && e.Subsection == "" && e.Key == "bare" && (e.NoValue || isTrue(e.Value)) {
			bare = true
		}
	}
	if coreWT != "" {
		// core.worktree is relative to the repository (git-config(1)).
		if w := d.expand(coreWT, g); w != "" {
			wt, bare = w, false
		}
	}
	if hooksPath != "" {
		base := wt
		if bare || wt == "" {
			base = g // hooks of a bare repository run in it (githooks(5))
		}
		if hp := d.expand(hooksPath, base); hp != "" {
			d.add(Path{Path: hp, Dir: true, Why: "core.hooksPath in " + hooksFrom + ": git runs the hooks there", Missing: Make, Worktree: d.linked[g]})
			if path.Base(hp) == "_" && path.Dir(hp) != "/" {
				// husky 9 sets core.hooksPath to .husky/_, whose
				// wrappers (each sourcing _/h) run the script of the
				// same name one level up: .husky/pre-commit.
				d.add(Path{Path: path.Dir(hp), Dir: true, Why: "the scripts husky's hooks in " + hp + " run (core.hooksPath in " + hooksFrom + ")", Missing: Ignore, Worktree: d.linked[g]})
			}
		}
	}
	d.modules(common, path.Join(common, "modules"), 0)
	if common != g {
		// A linked worktree: the repository it shares is followed too
		// (its config and hooks are listed above, its own work tree and
		// its other worktrees below).
		mainWT := ""
		if path.Base(common) == ".git" {
			mainWT = path.Dir(common)
		}
		d.gitdir(common, mainWT)
		return
	}
	d.worktrees(g)
}

// modules follows the submodules' repositories below dir (a modules/
// directory of the repository common, gitrepository-layout(5)): a
// directory with a HEAD file is one (a submodule's name may hold "/",
// so the others are searched below, to maxModuleDepth). Each submodule's
// work tree is its core.worktree, whose .git file is listed.
func (d *deriver) modules(common, dir string, depth int) {
	if depth >= maxModuleDepth {
		return
	}
	ents, err := fs.ReadDir(d.fsys, rel(dir))
	if err != nil {
		return
	}
	for i, e := range ents {
		if i >= maxEntries {
			return
		}
		if !e.IsDir() {
			continue
		}
		m := path.Join(dir, e.Name())
		if !d.isFile(path.Join(m, "HEAD")) {
			d.modules(common, m, depth+1)
			continue
		}
		wt := ""
		var cfg []sourced
		d.read(path.Join(m, "config"), 0, &cfg)
		for _, c := range cfg {
			if c.Section == "core" && c.Subsection == "" && c.Key == "worktree" && !c.NoValue {
				wt = d.expand(c.Value, m)
			}
		}
		if wt != "" {
			if fi, ok := d.lstat(path.Join(wt, ".git")); ok && !fi.IsDir() {
				d.add(Path{Path: path.Join(wt, ".git"), Why: "the .git file of the submodule in " + wt + ": git finds its repository from it"})
			}
		}
		d.sub[m] = true
		d.gitdir(m, wt)
	}
}

// worktrees follows the linked worktrees of the repository g
// (worktrees/NAME, gitrepository-layout(5)): each one's gitdir file names
// the .git file of its work tree.
func (d *deriver) worktrees(g string) {
	ents, err := fs.ReadDir(d.fsys, rel(path.Join(g, "worktrees")))
	if err != nil {
		return
	}
	for i, e := range ents {
		if i >= maxEntries {
			return
		}
		if !e.IsDir() {
			continue
		}
		w := path.Join(g, "worktrees", e.Name())
		gitfile := d.readSmall(path.Join(w, "gitdir"))
		wt := ""
		if path.IsAbs(gitfile) {
			wt = path.Dir(path.Clean(gitfile))
			if _, ok := d.lstat(gitfile); ok {
				d.add(Path{Path: gitfile, Why: "the .git file of the linked worktree " + wt + ": git finds its repository from it", Worktree: true})
			}
		}
		d.linked[w] = true
		d.gitdir(w, wt)
	}
}

// isTrue is git's boolean true (git-config(1), "Values").
func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// LocalFile returns the configuration file that `git config --local`
// writes for the repository git finds from the absolute directory dir (git's
// discovery, as Derive does it, without GIT_DIR or
// GIT_CEILING_DIRECTORIES): the config of the repository's common
// directory (gitrepository-layout(5): a linked worktree shares its main
// repository's). Its second result is false when no repository is found
// or its .git file cannot be read. The path is clean, symlinks not
// resolved.
func LocalFile(fsys fs.ReadLinkFS, dir string) (string, bool) {
	if !path.IsAbs(dir) {
		return "", false
	}
	d := &deriver{fsys: fsys}
	dir = path.Clean(dir)
	g := ""
	if d.isFile(path.Join(dir, "HEAD")) && d.isDir(path.Join(dir, "objects")) && d.isFile(path.Join(dir, "config")) {
		g = dir
	}
	for p := dir; g == ""; p = path.Dir(p) {
		dot := path.Join(p, ".git")
		if d.isDir(dot) {
			g = dot
			break
		}
		if d.isFile(dot) {
			t, ok := strings.CutPrefix(d.readSmall(dot), "gitdir:")
			if t = strings.TrimSpace(t); !ok || t == "" || strings.HasPrefix(t, "~") {
				return "", false
			}
			g = d.expand(t, p)
			break
		}
		if p == "/" {
			return "", false
		}
	}
	common := g
	if c := d.readSmall(path.Join(g, "commondir")); c != "" {
		common = d.expand(c, g)
	}
	return path.Join(common, "config"), true
}
