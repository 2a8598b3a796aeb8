package pipeline

// The private home directory (issue 29): a confined command reads in the
// home directory only what programs need there, so that a script cannot
// read the user's other projects, personal folders, browser profiles,
// password stores, keyrings, mail or other agents' logins.

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// homeReads are what programs read in the home directory, relative to it:
// the shells' startup files, toolchains and version managers, their
// configuration and caches. A confined command reads these (less the
// secrets the deny rules name below them: ~/.cargo/credentials.toml,
// ~/.m2/settings.xml) and nothing else of the home directory but the
// sandbox roots, sandbox.read_dirs, what a Read allow rule names by a ~ or
// absolute path, the host's session files and what a grant leaves
// readable. Everything outside the home directory stays readable (the
// system: /usr, /etc, /opt, /nix, ...).
//
// Measured (strace -f -e trace=open,openat,execve, December 2026, this
// repository's real-work fixtures: git status and commit, make, go build,
// go run and go vet, cargo build, python3 -m venv, pip in the venv,
// pytest, npm test, npm install, npx, bash -i and bash -l): what they open
// in the home directory is ~/.pyenv (versions, shims, libexec, plugins,
// version), ~/.rustup (toolchains, settings.toml), ~/.cargo (bin, env,
// config, .package-cache, .global-cache), ~/go/bin, ~/.config/go
// (env, telemetry), ~/.cache (go-build, pip), ~/.npm, ~/.npmrc,
// ~/.gitconfig, ~/.config/git (config, attributes, ignore), ~/.ssh/config
// (ssh: a grant's), ~/.bashrc, ~/.profile, ~/.bash_profile, ~/.bash_login;
// and nothing else. The other entries are the same tools' documented
// places (pip's, uv's, poetry's, conda's, nvm's, volta's, rbenv's,
// sdkman's, ...) and fonts and terminfo, which programs with output read.
// Not listed, so not readable: ~/go/src (GOPATH-mode projects), ~/.config
// but the tools' own directories there (browsers, VS Code's state,
// keyrings and other applications live there), ~/.local/share but the
// tools' own (keyrings, mail, fish history), ~/.codex, ~/.gemini, ~/.claude
// (but the session's files), ~/.mozilla, ~/.password-store, ~/Documents,
// ~/Downloads, ~/Desktop, and every other project.
var homeReads = []string{
	// Shells' startup files (a script that sources ~/.bashrc) and readline.
	".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".bash_aliases", ".inputrc",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".config/fish",
	// git and editors' shared settings.
	".gitconfig", ".config/git", ".gitignore", ".gitignore_global", ".gitattributes", ".editorconfig",
	// Go.
	"go/bin", "go/pkg", "sdk", ".config/go",
	// Rust.
	".cargo", ".rustup",
	// JavaScript: npm's cache (~/.npmrc is read as a copy without its
	// credentials: homeRead), nvm, volta, fnm, bun, deno, yarn, pnpm.
	".npm", ".nvm", ".volta", ".fnm", ".local/share/fnm", ".bun", ".deno",
	".yarn", ".yarnrc", ".yarnrc.yml", ".config/yarn", ".local/share/pnpm", ".config/pnpm", ".node-gyp",
	// Python: pyenv, pip's settings, user installs, uv, pipx, poetry,
	// pipenv, virtualenvwrapper, conda and its installs, linters' settings.
	".pyenv", ".config/pip", ".pip", ".pydistutils.cfg", ".local/bin", ".local/lib",
	".config/uv", ".local/share/uv", ".local/pipx", ".local/share/pipx",
	".config/pypoetry", ".local/share/pypoetry", ".poetry", ".local/share/virtualenvs", ".virtualenvs",
	".condarc", ".conda", "miniconda3", "anaconda3", "miniforge3", "mambaforge",
	".config/ruff", ".config/flake8", ".config/pycodestyle", ".pylintrc", ".config/matplotlib", ".matplotlib",
	// Ruby, the JVM, .NET, Haskell, OCaml, Lean, Julia.
	".rbenv", ".rvm", ".gem", ".gemrc", ".sdkman", ".jenv", ".jdks", ".m2", ".gradle", ".ivy2", ".sbt",
	".dotnet", ".nuget", ".ghcup", ".cabal", ".stack", ".opam", ".elan", ".julia", ".juliaup",
	// Version managers for many languages, Nix.
	".asdf", ".tool-versions", ".local/share/mise", ".config/mise", ".nix-profile", ".nix-defexpr",
	// The user's own programs, fonts, terminal descriptions.
	"bin", ".fonts", ".local/share/fonts", ".config/fontconfig", ".terminfo",
}

// homePrivate begins the reason of the private home directory.
const homePrivate = "your home directory"

// sharedTops are the top-level directories outside the home directory that
// hold people's files rather than the system's (FHS 3.0: /home holds the
// users' home directories, /mnt and /media mounted file systems, /srv the
// data a site serves): other users' homes, other projects kept in /srv,
// backups and removable disks. A confined command reads none of them but
// its sandbox roots, its read_dirs, the paths a Read allow rule names by an
// absolute path and what a grant leaves readable; its own home directory
// is private as homeRead says (the parts programs need stay readable).
// Everything else outside the home directory stays readable: /usr, /etc,
// /opt, /var, /nix, /run, /proc and what programs need there.
var sharedTops = []string{"/home", "/mnt", "/media", "/srv"}

// sharedPrivate begins the reason of a private top-level directory.
const sharedPrivate = "people's files outside your home directory"

// privateTops returns the sharedTops that exist, resolved, for a call
// whose confined commands keep the home directory private (privateHome's
// conditions but the home's own: the sandbox on, not agi mode), less
// those a sandbox root holds (a project at the top of /srv keeps it
// whole).
func (j *Judger) privateTops(res *classify.Result) []string {
	if !res.Modes.Sandbox.On || res.Modes.AGI {
		return nil
	}
	var tops []string
	for _, t := range sharedTops {
		r, ok := j.resolvedDir(t)
		if !ok || r == "/" || slices.Contains(tops, r) {
			continue
		}
		if slices.ContainsFunc(res.Roots, func(root classify.Root) bool { return pathWithin(r, root.Resolved) }) {
			continue
		}
		tops = append(tops, r)
	}
	return tops
}

// privateHome says where a confined command of this call keeps the home
// directory private: its resolved path, or "" where it does not (no home
// directory, the sandbox off or agi mode, where every read outside is
// allowed; a sandbox root that holds the home directory).
func (j *Judger) privateHome(res *classify.Result) string {
	if !res.Modes.Sandbox.On || res.Modes.AGI {
		return ""
	}
	home := j.Sys.Getenv("HOME")
	if !filepath.IsAbs(home) || filepath.Clean(home) == "/" {
		return ""
	}
	r, ok := j.resolvedDir(home)
	if !ok || r == "/" {
		return ""
	}
	for _, root := range res.Roots {
		if pathWithin(r, root.Resolved) {
			return ""
		}
	}
	return r
}

// homeReadable returns what a confined command may read in the private
// home directory besides the sandbox roots: the homeReads that exist,
// resolved, each with why.
// The home directory is listed once, and only the entries whose first
// element it holds are looked at (a dozen lstat(2)s, not a walk per entry).
func (j *Judger) homeReadable(home string) (paths []string, why map[string]string) {
	why = map[string]string{}
	ents, err := fs.ReadDir(j.Sys.FS, strings.TrimPrefix(home, "/"))
	if err != nil {
		return nil, why
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = true
	}
	fsys := classify.MemoFS(j.Sys.FS)
	for _, rel := range homeReads {
		first, _, _ := strings.Cut(rel, "/")
		if !names[first] {
			continue
		}
		if r, ok := resolvedDirIn(fsys, filepath.Join(home, rel)); ok && !slices.Contains(paths, r) {
			paths = append(paths, r)
			why[r] = "read by programs (a toolchain, its configuration or cache, a shell's startup file)"
		}
	}
	return paths, why
}

// homeRead adds to rs what keeps the home directory private for a
// confined command (see privateHome): the home directory NoRead, and Read
// what the command may read there: homeReads, the sandbox roots (the
// read_dirs included), the files read as a copy (rs.Replace), the host's
// session files (session), the paths a
// Read allow rule names by a ~ or absolute path (their literal directory,
// or the files their glob matches, bounded) and what the call's grants
// leave readable. why gets the reason of each.
func (j *Judger) homeRead(rs *confine.Ruleset, res *classify.Result, pol *policy.Policy, session hookio.Session, granted []string, why map[string]string) {
	home := j.privateHome(res)
	tops := j.privateTops(res)
	if home == "" && len(tops) == 0 {
		return
	}
	for _, t := range tops {
		rs.NoRead = append(rs.NoRead, t)
		why[t] = sharedPrivate + " (other users' homes, other projects, mounted disks): a confined command reads only its sandbox roots there; sandbox.read_dirs or a Read allow rule by an absolute path opens more"
	}
	var read []string
	if home != "" {
		rs.NoRead = append(rs.NoRead, home)
		why[home] = homePrivate + ": a confined command reads only what programs need there (the read paths below); sandbox.read_dirs or a Read allow rule by a ~ or absolute path opens more"
		var rwhy map[string]string
		read, rwhy = j.homeReadable(home)
		for p, w := range rwhy {
			why[p] = w
		}
	}
	add := func(p, w string) {
		if !slices.Contains(read, p) {
			read = append(read, p)
			if _, ok := why[p]; !ok {
				why[p] = w
			}
		}
	}
	for _, root := range res.Roots {
		add(root.Resolved, "a sandbox root ("+root.Source+")")
	}
	for _, l := range [][]string{session.ReadWrite, session.Plans, session.ReadOnly} {
		for _, p := range l {
			if r, ok := j.resolvedDir(p); ok {
				add(r, "the host's own files for this session")
			}
		}
	}
	for i := range pol.Allow {
		r := &pol.Allow[i]
		if r.Kind != policy.RulePath || r.Access != policy.Read {
			continue
		}
		for _, p := range j.patternPaths(&r.Path, home) {
			add(p, "allow rule "+r.Text+" ("+r.Pos.String()+")")
		}
	}
	for p := range rs.Replace {
		// Read as its copy (~/.npmrc without its credentials); where the
		// launcher drops the copy (Landlock alone), it is NoRead again
		// (confine.Ruleset.WithoutNamespace).
		add(p, "read as a copy without its credentials")
	}
	for _, p := range granted {
		add(p, "granted")
	}
	for i := range res.Grants {
		g := &res.Grants[i]
		for k := range g.Read {
			for _, p := range j.patternPaths(&g.Read[k], home) {
				add(p, "granted to "+g.Command.Text+" ("+g.Pos.String()+")")
			}
		}
	}
	rs.Read = append(rs.Read, read...)
}

// patternPaths returns the existing paths, resolved, that a pattern
// anchored at the home directory or at / names: its literal directory
// when the rest is "" or "**", else the files its glob matches there (at
// most maxSecretMatches). Other anchors name nothing here.
func (j *Judger) patternPaths(pt *policy.Pattern, home string) []string {
	base := ""
	switch pt.Anchor {
	case policy.Absolute:
		base = "/"
	case policy.Home:
		base = j.Sys.Getenv("HOME")
	}
	if !filepath.IsAbs(base) {
		return nil
	}
	prefix, rest := glob.LiteralPrefix(pt.Glob)
	dir := filepath.Join(base, prefix)
	if rest == "" || rest == "**" {
		if r, ok := j.resolvedDir(dir); ok {
			return []string{r}
		}
		return nil
	}
	return j.matches(dir, rest)
}

// kernelReadable returns classify.Env.KernelReadable for a call: whether
// a confined command may read the resolved path p outside the sandbox
// roots, that is, whether p lies outside the home directory and the
// sharedTops, or in one of homeReads in the home directory. It is computed
// once, when first asked (a read outside the roots that a confined command
// names). The home directory and the sharedTops count as private here
// whatever the modes: classify asks only where the sandbox is on.
func (j *Judger) kernelReadable() func(p string) bool {
	var once sync.Once
	var home string
	var read, tops []string
	return func(p string) bool {
		once.Do(func() {
			for _, t := range sharedTops {
				if r, ok := j.resolvedDir(t); ok && r != "/" {
					tops = append(tops, r)
				}
			}
			h := j.Sys.Getenv("HOME")
			if !filepath.IsAbs(h) {
				return
			}
			if r, ok := j.resolvedDir(h); ok && r != "/" {
				home = r
				read, _ = j.homeReadable(r)
			}
		})
		if home != "" && pathWithin(p, home) {
			return slices.ContainsFunc(read, func(r string) bool { return pathWithin(p, r) })
		}
		return !slices.ContainsFunc(tops, func(t string) bool { return pathWithin(p, t) })
	}
}
