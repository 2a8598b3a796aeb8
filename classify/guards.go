package classify

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/safezonehq/safezone/policy"
)

// The guards (README, "Guards"; policy guards.lose_work and
// guards.install_outside): families of shell commands that ask, or deny, in
// every mode, bypassPermissions included, whatever allows them otherwise.
// Each is spotted from a simple command's argv (after wrapper stripping) and,
// for rm -r, from its resolved targets.

// guardLoseWork says whether argv throws away work git cannot give back:
// uncommitted changes, stashes, unmerged branches, the remote's history.
// Sources: git-reset(1) --hard, git-checkout(1) and git-restore(1) of the
// whole tree, git-clean(1) -f, git-stash(1) drop and clear, git-push(1)
// --force and +refspec (not --force-with-lease), git-branch(1) -D.
func guardLoseWork(argv []string) string {
	if len(argv) < 2 || path.Base(argv[0]) != "git" {
		return ""
	}
	sub, args := gitSubcommand(argv[1:])
	if f := loseWork()[sub]; f != nil {
		return f(sub, args)
	}
	return ""
}

// loseWork are guardLoseWork's checks, by git subcommand: each returns why
// the arguments lose work, or "".
var loseWork = sync.OnceValue(func() map[string]func(sub string, args []string) string {
	return map[string]func(sub string, args []string) string{
		"reset": func(_ string, args []string) string {
			if hasLongOpt(args, "--hard") {
				return "git reset --hard discards every uncommitted change"
			}
			return ""
		},
		"checkout": wholeTree,
		"restore":  wholeTree,
		"clean": func(_ string, args []string) string {
			if (hasShortFlag(args, 'f') || hasLongOpt(args, "--force")) && !hasShortFlag(args, 'n') && !hasLongOpt(args, "--dry-run") {
				return "git clean -f deletes the untracked files"
			}
			return ""
		},
		"stash": func(_ string, args []string) string {
			if len(args) > 0 && (args[0] == "drop" || args[0] == "clear") {
				return "git stash " + args[0] + " deletes stashed changes"
			}
			return ""
		},
		"push": func(_ string, args []string) string {
			for _, a := range args {
				if hasLongOpt([]string{a}, "--force") && !strings.HasPrefix(a, "--force-") || a == "-f" || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'f')) ||
					(strings.HasPrefix(a, "+") && len(a) > 1) {
					return "git push --force rewrites the remote's history (--force-with-lease does not ask)"
				}
			}
			return ""
		},
		"branch": func(_ string, args []string) string {
			if slices.Contains(args, "-D") || (slices.Contains(args, "--delete") && slices.Contains(args, "--force")) {
				return "git branch -D deletes a branch that may not be merged"
			}
			return ""
		},
	}
})

// wholeTree: git checkout or git restore of the whole tree (".", ":/",
// "*"), except git restore --staged alone, which changes only the index.
func wholeTree(sub string, args []string) string {
	if sub == "restore" && (slices.Contains(args, "--staged") || slices.Contains(args, "-S")) && !slices.Contains(args, "--worktree") && !slices.Contains(args, "-W") {
		return ""
	}
	for _, a := range args {
		if a == "." || a == ":/" || a == "*" || a == "./" {
			return "git " + sub + " " + a + " discards the uncommitted changes of the whole tree"
		}
	}
	return ""
}

// gitSubcommand skips git's global options (-C DIR, -c KEY=VALUE, ...) and
// returns the subcommand and its arguments.
func gitSubcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:]
		}
	}
	return "", nil
}

// hasLongOpt reports whether args hold the long option long, spelt out or
// abbreviated (git accepts any unambiguous prefix: "--ha" is "--hard").
func hasLongOpt(args []string, long string) bool {
	for _, a := range args {
		name, _, _ := strings.Cut(a, "=")
		if len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(long, name) {
			return true
		}
	}
	return false
}

func hasShortFlag(args []string, f byte) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.IndexByte(a, f) > 0 {
			return true
		}
	}
	return false
}

// systemInstallers are package managers whose install, remove and upgrade
// write outside the sandbox (the system's or the user's own directories).
var systemInstallers = []string{"apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "apk", "brew", "port", "snap", "flatpak", "nix-env"}

// guardInstallOutside says whether argv installs outside the sandbox:
// global npm/pnpm/yarn packages, pip outside a virtualenv or with --user,
// system package managers, cargo install, go install, gem install, pipx.
// venv says whether a virtualenv is active ($VIRTUAL_ENV, $CONDA_PREFIX).
func guardInstallOutside(argv []string, venv bool) string {
	if len(argv) < 2 {
		return ""
	}
	prog, args := path.Base(argv[0]), argv[1:]
	sub := args[0]
	switch {
	case slices.Contains(systemInstallers, prog) && slices.Contains([]string{"install", "remove", "purge", "upgrade", "dist-upgrade", "reinstall", "-S", "-Syu", "-R", "add", "del", "uninstall"}, sub):
		return prog + " " + sub + " changes the system's packages"
	case (prog == "npm" || prog == "pnpm") && slices.Contains([]string{"install", "i", "add", "uninstall", "remove", "rm", "update", "link"}, sub) &&
		(slices.Contains(args, "-g") || slices.Contains(args, "--global") || slices.Contains(args, "--location=global")):
		return prog + " " + sub + " -g writes the global packages"
	case prog == "yarn" && sub == "global":
		return "yarn global writes the global packages"
	case prog == "cargo" && sub == "install", prog == "go" && sub == "install", prog == "pipx" && sub == "install":
		return prog + " install writes its programs outside the project"
	case prog == "gem" && sub == "install" && !slices.Contains(args, "--install-dir") && !slices.Contains(args, "-i"):
		return "gem install writes the system's or the user's gems"
	}
	return pipOutside(prog, args, venv)
}

// pipOutside says whether pip installs outside a virtualenv: with --user,
// or with no virtualenv active and no --target/--prefix, unless pip itself
// is a virtualenv's (venv/bin/pip).
func pipOutside(prog string, args []string, venv bool) string {
	if prog == "python" || prog == "python3" {
		if len(args) < 2 || args[0] != "-m" || args[1] != "pip" {
			return ""
		}
		prog, args = "pip", args[2:]
	}
	if (prog != "pip" && prog != "pip3") || len(args) == 0 || args[0] != "install" {
		return ""
	}
	if slices.Contains(args, "--user") {
		return "pip install --user writes the user's site-packages"
	}
	for _, a := range args {
		if a == "--target" || a == "-t" || a == "--prefix" || a == "--root" || strings.HasPrefix(a, "--target=") || strings.HasPrefix(a, "--prefix=") {
			return ""
		}
	}
	if venv {
		return ""
	}
	return "pip install outside a virtualenv writes the system's or the user's site-packages"
}

// guardRules adds the guards' reasons for the call (row 7, or row 2 for a
// guard set to deny): every simple command of a shell call that a guard's
// family names.
func (d *decider) guardRules() []Reason {
	if d.shell == nil {
		return nil
	}
	var out []Reason
	venv := d.env.Venv
	for i := range d.shell.Commands {
		argv := d.shell.Commands[i].Argv
		if activatesVenv(argv) {
			venv = true // for the commands after it
		}
		if why := guardLoseWork(argv); why != "" {
			out = append(out, d.guardReason(d.pol.Guards.LoseWork, "lose_work", why)...)
		}
		if why := guardInstallOutside(argv, venv); why != "" {
			out = append(out, d.guardReason(d.pol.Guards.InstallOutside, "install_outside", why)...)
		}
	}
	return out
}

// activatesVenv reports whether argv sources a virtualenv's activate
// script ("source venv/bin/activate", ". .venv/bin/activate"): pip
// installs into that virtualenv afterwards.
func activatesVenv(argv []string) bool {
	return len(argv) == 2 && (argv[0] == "source" || argv[0] == ".") && path.Base(argv[1]) == "activate" && path.Base(path.Dir(argv[1])) == "bin"
}

// guardReason is the reason of a guard that matched, none when it is off.
func (d *decider) guardReason(s policy.Setting[policy.Decision], name, why string) []Reason {
	row := RowAsk
	switch s.Value {
	case policy.Abstain:
		return nil
	case policy.Deny:
		row = RowDeny
	}
	return []Reason{{Row: row, Effect: s.Value, Rule: policy.GuardName(name), Source: s.Pos.String(), Target: -1, Note: why}}
}

// regenerable are directory names whose content a build or a package
// manager makes again: removing them loses no work.
var regenerable = []string{"node_modules", "dist", "build", "target", "out", ".next", ".nuxt", "coverage", ".cache", "tmp",
	"__pycache__", ".pytest_cache", ".mypy_cache", ".venv", "venv", "vendor", "bin", "obj", ".gradle", ".turbo", "agent_sandbox"}

// guardRemoveTop adds the lose_work guard for a recursive write (rm -r) of
// the project root or of a directory directly in it, unless that directory
// is one a build makes again (regenerable) or one .gitignore names.
func (j *judgement) guardRemoveTop() {
	d, t := j.d, j.t
	if d.shell == nil || !t.Recursive || t.Access != policy.Write || len(d.roots) == 0 || !t.Res.Exists ||
		t.Cmd >= len(d.shell.Commands) || len(d.shell.Commands[t.Cmd].Argv) == 0 || path.Base(d.shell.Commands[t.Cmd].Argv[0]) != "rm" {
		return
	}
	root := d.roots[0].Resolved
	p := t.Res.Path
	if p != root && path.Dir(p) != root {
		return
	}
	name := path.Base(p)
	if p != root && (slices.Contains(regenerable, name) || d.ignored(name)) {
		return
	}
	why := fmt.Sprintf("a recursive delete of %s, a top-level project directory, loses work git may not have", p)
	if p == root {
		why = "a recursive delete of the project root loses work git may not have"
	}
	for _, r := range d.guardReason(d.pol.Guards.LoseWork, "lose_work", why) {
		r.Target = j.i
		j.out = append(j.out, r)
	}
}

// maxGitignore bounds the .gitignore read to tell a build output from work.
const maxGitignore = 64 << 10

// ignored reports whether the project's top-level .gitignore names the
// directory name itself ("dist", "/dist", "dist/", "/dist/"): a directory
// git ignores holds no committed work to lose by mistake.
func (d *decider) ignored(name string) bool {
	if d.gitignore == nil {
		d.gitignore = []string{}
		f, err := d.fsys.Open(strings.TrimPrefix(path.Join(d.roots[0].Resolved, ".gitignore"), "/"))
		if err == nil {
			b := make([]byte, maxGitignore)
			n, _ := io.ReadFull(f, b)
			f.Close()
			for _, line := range strings.Split(string(b[:n]), "\n") {
				line = strings.Trim(strings.TrimSpace(line), "/")
				if line != "" && !strings.HasPrefix(line, "#") && !strings.ContainsAny(line, "*?[!/") {
					d.gitignore = append(d.gitignore, line)
				}
			}
		}
	}
	return slices.Contains(d.gitignore, name)
}
