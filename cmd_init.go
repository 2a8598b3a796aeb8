package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

const initUsage = `Usage:
    safezone init [--user] [--host NAME] [--trust] [--host-sandbox] [--dry-run]

Sets safezone up for the project (CLAUDE_PROJECT_DIR, else the working
directory):
  - writes .safezone.yaml, unless one exists: a starting point that adds
    nothing to the built-in default yet (it always applies first), with
    examples in comments; so it needs no safezone trust;
  - registers safezone's hook, with the absolute path of this binary, in
    the host's project configuration (.claude/settings.json for Claude Code,
    with "onFailure": "block"), merging the JSON: existing keys and hooks are
    kept, an existing safezone entry is updated in place, and the old file
    is copied to FILE.bak-YYYYMMDD-HHMMSS first;
  - creates agent_sandbox/.gitignore (the agent's scratch area, never
    committed) and adds .safezone.local.yaml to .gitignore.
With --user it registers in the user configuration instead
(~/.claude/settings.json) and writes the user policy
($XDG_CONFIG_HOME/safezone/policy.yaml, the same starting point) unless one
exists; the project is not touched. A second run changes nothing.

Codex CLI, Gemini CLI and Copilot CLI drop a project's hooks without a word
(Codex until the project is trusted, Gemini in an untrusted folder or with
--skip-trust, Copilot in prompt mode in an untrusted folder), so for them
the hook is always registered in the user configuration
($CODEX_HOME/hooks.json, ~/.gemini/settings.json,
$COPILOT_HOME/hooks/safezone.json, ~/.copilot by default). Codex also runs a hook
only once it is trusted: --trust writes that trust for safezone's own hook
into $CODEX_HOME/config.toml (a backup kept), as Codex's /hooks would.

Options:
    --user          Register for every project of this user.
    --host NAME     claude (the default), codex, gemini, copilot, cursor or
                    vscode.
    --trust         Codex: trust safezone's hook in $CODEX_HOME/config.toml.
    --host-sandbox  Claude Code: add to its own sandbox's settings
                    (sandbox.filesystem.denyRead in .claude/settings.json)
                    the policy's Read deny rules that reach into the
                    project ("**/.env*", ...). Inside that sandbox no user
                    namespace can be made, so the kernel cannot hide a
                    secret in the project from a confined command; with
                    these entries Claude Code's sandbox hides it, and
                    commands there run confined instead of being asked.
                    Nothing else of the sandbox settings changes (it does
                    not turn the sandbox on).
    --dry-run       Print the changes as a unified diff; write nothing.
`

// fileChange is one file init creates or changes.
type fileChange struct {
	path    string // absolute
	display string // as printed
	old     []byte // nil when the file does not exist
	new     []byte
	mode    fs.FileMode
	what    string // "created: adds nothing to the built-in default yet", ...
	backup  bool   // copy the old file aside first
}

// cmdInit runs "safezone init". It returns 0, 1 when a file could not be
// read or written (nothing is left half-written: each file is replaced
// atomically), or 2 for a bad command line.
func cmdInit(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	fl := pipeline.NewFlagSet()
	user := fl.Bool("user", 0)
	host := fl.String("host", "claude")
	dry := fl.Bool("dry-run", 0)
	trust := fl.Bool("trust", 0)
	hostSandbox := fl.Bool("host-sandbox", 0)
	help := fl.Bool("help", 'h')
	if err := fl.Parse(args); err != nil {
		fmt.Fprintf(stderr, "safezone: init: %v\n%s", err, initUsage)
		return 2
	}
	if *help {
		fmt.Fprint(stdout, initUsage)
		return 0
	}
	if fl.NArg() > 0 {
		fmt.Fprintf(stderr, "safezone: init: unexpected argument %q\n%s", fl.Arg(0), initUsage)
		return 2
	}
	root := sys.Getenv("CLAUDE_PROJECT_DIR")
	if root == "" {
		wd, err := sys.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "safezone: init: no project directory: %v\n", err)
			return 1
		}
		root = wd
		if top := repositoryRoot(wd); top != "" && top != wd && !*user {
			root = top
			fmt.Fprintf(stdout, "safezone: init: setting up the repository's root, %s (you are in %s)\n", top, wd)
		}
	}
	if *trust && *host != "codex" {
		fmt.Fprintf(stderr, "safezone: init: --trust is for --host codex (the one host that must trust a hook before it runs it)\n%s", initUsage)
		return 2
	}
	if *hostSandbox && (*host != "claude" || *user) {
		fmt.Fprintf(stderr, "safezone: init: --host-sandbox is for Claude Code's project settings (--host claude, without --user: the entries are relative to the project)\n%s", initUsage)
		return 2
	}
	home := sys.Getenv("HOME")
	p, err := planInit(root, home, *host, *user, *trust, sys)
	if err == nil && *hostSandbox {
		err = p.hostSandbox()
	}
	if err != nil {
		fmt.Fprintf(stderr, "safezone: init: %v\n", err)
		if errors.Is(err, errBadHost) {
			return 2
		}
		return 1
	}
	if *dry {
		notes := p.notes
		if p.pending != "" {
			notes = append(notes, p.pending)
		}
		printInitDiff(stdout, p.changes, notes)
		return 0
	}
	if err := applyInit(stdout, p.changes, sys); err != nil {
		fmt.Fprintf(stderr, "safezone: init: %v\n", err)
		return 1
	}
	for _, n := range p.notes {
		fmt.Fprintln(stdout, n)
	}
	if len(p.changes) == 0 {
		fmt.Fprintln(stdout, "safezone: already set up; nothing changed")
	}
	fmt.Fprint(stdout, nextSteps(*host, root, *user, p.pending))
	return 0
}

// hostNames are the hosts as init names them to the user.
var hostNames = map[string]string{"claude": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI",
	"copilot": "GitHub Copilot CLI", "cursor": "Cursor", "vscode": "VS Code"}

// nextSteps is what init prints last: how to check the set-up and use it,
// the last line saying what to do for the host to run the hook: pending
// when a step is left (the exact command), else how to start the host.
func nextSteps(host, root string, user bool, pending string) string {
	where := " in " + root
	if user || host == "codex" || host == "gemini" || host == "copilot" {
		where = " in " + root + " (or any project)"
	}
	start := "then start " + hostNames[host] + where
	switch host {
	case "codex":
		start = "then run codex (or codex exec)" + where
	case "gemini":
		start = "then run gemini (or gemini -p)" + where
	case "copilot":
		start = "then run copilot (or copilot -p)" + where
	}
	last := start + ": every tool call goes through safezone\n"
	if pending != "" {
		last = pending + "\n"
	}
	return "next:\n" +
		"  safezone validate    check the policy and settings files\n" +
		"  safezone doctor      check the registration, the binary and kernel confinement\n" +
		last
}

// repositoryRoot returns the root of the git repository that holds dir
// (the nearest directory above it with a .git entry), or "".
func repositoryRoot(dir string) string {
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

var errBadHost = errors.New("bad host")

// planInit computes what init changes, without writing: the files with
// their old and new content, notes on what is kept as it is, and the step
// left for the user, if any.
func planInit(root, home, host string, user, trust bool, sys *pipeline.System) (*initPlan, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("project directory %q is not absolute", root)
	}
	p := &initPlan{root: root, home: home, host: host, user: user, trust: trust, sys: sys}
	steps := []func() error{p.policyFile, p.registration}
	if !user {
		steps = append(steps, p.scratchArea, p.gitignore)
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// hostSandbox adds to Claude Code's sandbox settings in the project's
// .claude/settings.json what its sandbox must hold for safezone there (see
// pipeline.HostSandboxSettings): the policy's Read deny rules that reach
// into the project (denyRead) and the project's read-only paths it does
// not keep read-only itself (denyWrite), on top of what the registration
// step changes there.
func (p *initPlan) hostSandbox() error {
	opts, err := pipeline.ParseFlags(nil, false)
	if err != nil {
		return err
	}
	cfg := filepath.Join(p.root, ".claude", "settings.json")
	read, missingRead, write, missingWrite, err := pipeline.HostSandboxSettings(opts, p.sys, p.root)
	if err != nil {
		return err
	}
	// The policy this init creates is read-only to confined commands once
	// it exists, as the one found would be.
	for _, c := range p.changes {
		if c.old == nil && c.path == filepath.Join(p.root, ".safezone.yaml") && !slices.Contains(write, "./.safezone.yaml") {
			write = append(write, "./.safezone.yaml")
			missingWrite = append(missingWrite, "./.safezone.yaml")
		}
	}
	if len(missingRead)+len(missingWrite) == 0 {
		p.notes = append(p.notes, p.display(cfg)+": Claude Code's sandbox settings already hide "+strings.Join(read, ", ")+" and keep "+orNothing(write)+" read-only")
		return nil
	}
	var ch *fileChange
	for i := range p.changes {
		if p.changes[i].path == cfg {
			ch = &p.changes[i]
		}
	}
	if ch == nil {
		old, mode, err := p.read(cfg)
		if err != nil {
			return err
		}
		p.changes = append(p.changes, fileChange{path: cfg, display: p.display(cfg), old: old, new: old, mode: mode, backup: true})
		ch = &p.changes[len(p.changes)-1]
	}
	var what []string
	for _, l := range []struct {
		key, verb string
		entries   []string
	}{{"denyRead", "hides", missingRead}, {"denyWrite", "keeps read-only", missingWrite}} {
		if len(l.entries) == 0 {
			continue
		}
		updated, err := hookio.AddSandboxPaths(ch.new, l.key, l.entries)
		if err != nil {
			return fmt.Errorf("%s: %v", p.display(cfg), err)
		}
		ch.new = updated
		what = append(what, "Claude Code's sandbox "+l.verb+" "+strings.Join(l.entries, ", ")+" (sandbox.filesystem."+l.key+")")
	}
	if ch.what == "" {
		ch.what = strings.Join(what, "; ")
	} else {
		ch.what += "; " + strings.Join(what, "; ")
	}
	pol, err := pipeline.LoadPolicy(opts, p.root, p.sys, nil)
	if err == nil && !pol.HostSandbox.Enabled.Value {
		p.notes = append(p.notes, "Claude Code's sandbox is off (sandbox.enabled): these entries apply once it is on (/sandbox)")
	}
	if err == nil && len(pol.Templates) > 0 {
		var t []string
		for _, x := range pol.Templates {
			t = append(t, x.Value)
		}
		p.notes = append(p.notes, "Claude Code's sandbox knows no template exceptions: inside it, commands cannot read "+strings.Join(t, ", ")+" either (the file tools still can)")
	}
	p.notes = append(p.notes, "a read-only path made later (a new hook directory) is not in these entries: a command in Claude Code's sandbox is then asked, saying so; run safezone init --host-sandbox again")
	return nil
}

// orNothing joins ps, or says "nothing more".
func orNothing(ps []string) string {
	if len(ps) == 0 {
		return "nothing more"
	}
	return strings.Join(ps, ", ")
}

// initPlan is what init will change, built a file at a time.
type initPlan struct {
	root, home, host string
	user, trust      bool
	sys              *pipeline.System
	changes          []fileChange
	notes            []string
	// pending is what the user must still run for the host to run the
	// hook (init's last line); "" when nothing is left.
	pending string
}

// display shows p relative to the project (project set-up) or the home
// directory, else as it is.
func (p *initPlan) display(path string) string {
	if rel, err := filepath.Rel(p.root, path); err == nil && !strings.HasPrefix(rel, "..") && !p.user {
		return rel
	}
	if p.home != "" {
		if rel, err := filepath.Rel(p.home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return path
}

// read returns a file's content and mode; nil content (mode 0644) when it
// does not exist.
func (p *initPlan) read(path string) ([]byte, fs.FileMode, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return b, mode, nil
}

// policyFile creates the project's (or the user's) policy unless one
// exists: a file that adds nothing to the embedded default, which always
// applies first, so that it widens nothing and needs no trust.
func (p *initPlan) policyFile() error {
	polPath := filepath.Join(p.root, ".safezone.yaml")
	text := projectPolicy
	if p.user {
		text = userPolicy
		polPath = policy.DefaultLocations(p.sys.Getenv, p.root, p.home).User
		if polPath == "" {
			return errors.New("no home directory (HOME) for the user policy")
		}
	}
	old, _, err := p.read(polPath)
	if err != nil {
		return err
	}
	if old == nil {
		p.changes = append(p.changes, fileChange{path: polPath, display: p.display(polPath), new: []byte(text), mode: 0o644, what: "created: adds nothing to the built-in default yet (see the examples in it)"})
	} else {
		p.notes = append(p.notes, p.display(polPath)+": kept as it is")
	}
	return nil
}

// registration registers the hook in the host's configuration file: the
// project's, the user's with --user, and always the user's for Codex and
// Gemini CLI, which drop a project's hooks without a word (see
// hostConfigPath).
func (p *initPlan) registration() error {
	cfg, why, err := hostConfigPath(p.host, p.root, p.home, p.user, p.sys.Getenv)
	if err != nil {
		return fmt.Errorf("%w: %v", errBadHost, err)
	}
	if why != "" && !p.user {
		p.notes = append(p.notes, p.display(cfg)+": registered for every project of this user, since "+why)
	}
	if why != "" {
		// An older init registered in the project: the host would run both.
		if proj, err := hookio.ConfigPath(p.host, p.root, p.home, false); err == nil && proj != cfg {
			if b, err := os.ReadFile(proj); err == nil && bytes.Contains(b, []byte("safezone")) {
				p.notes = append(p.notes, p.display(proj)+" registers safezone too: where "+hostNames[p.host]+" loads it, every call runs the hook twice; remove that entry")
			}
		}
	}
	command := shellQuote(p.sys.Executable)
	if p.sys.Executable == "" {
		return errors.New("cannot tell where this safezone binary is; run it by its path")
	}
	if isGoRunBuild(p.sys.Executable) {
		return fmt.Errorf("this safezone is go run's temporary build (%s), which go deletes: install it first (go install . ./cmd/safezone-proxy in a clone) and run the installed safezone init", p.sys.Executable)
	}
	if dir := policy.DefaultLocations(p.sys.Getenv, p.root, p.home).ClaudeConfig; p.host == "claude" && dir != "" && pluginInstalled(dir) {
		p.notes = append(p.notes, "the safezone Claude Code plugin is installed too: with both, every tool call runs the hook twice (the same decision); remove one (claude plugin uninstall safezone, or this registration)")
	}
	if p.host != "claude" {
		command += " --host " + p.host
	}
	old, mode, err := p.read(cfg)
	if err != nil {
		return err
	}
	updated, err := hookio.Register(p.host, old, command)
	if err != nil {
		return fmt.Errorf("%s: %v", p.display(cfg), err)
	}
	if bytes.Equal(old, updated) {
		p.notes = append(p.notes, p.display(cfg)+": safezone is registered already")
	} else {
		what := "registered " + command
		if old == nil {
			what = "created; registered " + command
		}
		p.changes = append(p.changes, fileChange{path: cfg, display: p.display(cfg), old: old, new: updated, mode: mode, what: what, backup: true})
	}
	if p.host == "codex" {
		return p.codexTrust(cfg, updated)
	}
	return nil
}

// hostConfigPath returns the file init registers the hook in, and, when it
// is the user's although a project's was asked for, why: Codex reads a
// project's .codex folder only once the project is trusted, Gemini CLI a
// project's settings, hooks included, only in a trusted folder and not
// with --skip-trust, and Copilot CLI 1.0.102 a project's .github/hooks in
// prompt mode only in a trusted folder; all skip them without a word.
// Codex's user file is $CODEX_HOME/hooks.json (~/.codex when unset),
// Copilot's $COPILOT_HOME/hooks/safezone.json (~/.copilot).
func hostConfigPath(host, root, home string, user bool, getenv func(string) string) (string, string, error) {
	switch host {
	case "codex":
		dir := policy.DefaultLocations(getenv, root, home).CodexHome
		if dir == "" {
			return "", "", errors.New("no home directory (HOME or CODEX_HOME) to register in")
		}
		return filepath.Join(dir, "hooks.json"), "Codex ignores a project's .codex/ until the project is trusted, without a word", nil
	case "gemini":
		cfg, err := hookio.ConfigPath(host, root, home, true)
		return cfg, "Gemini CLI drops a project's hooks in an untrusted folder and with --skip-trust, without a word", err
	case "copilot":
		cfg, err := copilotUserHooks(home, getenv)
		return cfg, "Copilot CLI drops a project's .github/hooks in prompt mode (copilot -p) unless the folder is trusted, without a word", err
	}
	cfg, err := hookio.ConfigPath(host, root, home, user)
	return cfg, "", err
}

// copilotUserHooks is Copilot CLI's user-level hook file:
// $COPILOT_HOME/hooks/safezone.json, ~/.copilot/hooks/safezone.json when
// COPILOT_HOME is unset (`copilot help environment`, 1.0.102).
func copilotUserHooks(home string, getenv func(string) string) (string, error) {
	if dir := getenv("COPILOT_HOME"); dir != "" {
		if !filepath.IsAbs(dir) {
			return "", fmt.Errorf("COPILOT_HOME %q is not absolute (Copilot CLI refuses it too)", dir)
		}
		return filepath.Join(dir, "hooks", "safezone.json"), nil
	}
	return hookio.ConfigPath("copilot", "", home, true)
}

// codexTrust plans Codex's trust of the safezone hooks in cfg (the
// hooks.json content hooks, as init leaves it): with --trust, their
// hooks.state in $CODEX_HOME/config.toml (see withCodexTrust); without,
// the command that does it becomes init's last line, unless Codex trusts
// them already.
func (p *initPlan) codexTrust(cfg string, hooks []byte) error {
	ours, err := pipeline.CodexHooks(cfg, hooks, pipeline.RunsSafezone(p.sys.Executable))
	if err != nil {
		return err
	}
	file := filepath.Join(filepath.Dir(cfg), "config.toml")
	old, mode, err := p.read(file)
	if err != nil {
		return err
	}
	st, err := pipeline.ParseCodexState(old)
	if err != nil {
		return fmt.Errorf("%s is not valid TOML: %v; fix it first (Codex refuses to start with it)", p.display(file), err)
	}
	var untrusted []pipeline.CodexHook
	for _, h := range ours {
		if ok, _ := st.Trusted(h); !ok {
			untrusted = append(untrusted, h)
		}
	}
	switch {
	case len(untrusted) == 0:
		p.notes = append(p.notes, p.display(file)+": Codex trusts safezone's hook already")
		return nil
	case !p.trust:
		p.pending = "Codex skips this hook, without a word, until you trust it: run `safezone init --host codex --trust`, or trust it in codex's /hooks"
		return nil
	}
	updated := old
	for _, h := range untrusted {
		if updated, err = pipeline.WithCodexTrust(updated, h); err != nil {
			return fmt.Errorf("%s: %w; trust the hook in codex's /hooks instead", p.display(file), err)
		}
	}
	p.changes = append(p.changes, fileChange{path: file, display: p.display(file), old: old, new: updated, mode: mode,
		what: "Codex trusts safezone's hook (hooks.state, as codex's /hooks writes it)", backup: true})
	return nil
}

// scratchArea creates agent_sandbox/.gitignore.
func (p *initPlan) scratchArea() error {
	sandboxIgnore := filepath.Join(p.root, "agent_sandbox", ".gitignore")
	old, _, err := p.read(sandboxIgnore)
	if err != nil {
		return err
	}
	if old == nil {
		p.changes = append(p.changes, fileChange{path: sandboxIgnore, display: p.display(sandboxIgnore), new: []byte(sandboxGitignore), mode: 0o644, what: "created (the agent's scratch area, never committed)"})
	}
	return nil
}

// gitignore makes the project's .gitignore ignore .safezone.local.yaml.
func (p *initPlan) gitignore() error {
	gi := filepath.Join(p.root, ".gitignore")
	old, mode, err := p.read(gi)
	if err != nil {
		return err
	}
	if hasLine(old, ".safezone.local.yaml") || hasLine(old, "/.safezone.local.yaml") {
		return nil
	}
	var b []byte
	b = append(b, old...)
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	b = append(b, "# Personal safezone policy (safezone init).\n/.safezone.local.yaml\n"...)
	p.changes = append(p.changes, fileChange{path: gi, display: p.display(gi), old: old, new: b, mode: mode, what: "ignores .safezone.local.yaml"})
	return nil
}

// projectPolicy is the .safezone.yaml init writes: no entry, so nothing
// to trust; the examples are checked by TestInitPolicyExamples.
const projectPolicy = `# safezone policy of this project (schema version 1), written by
# safezone init.
#
# It adds to safezone's built-in default policy, which always applies
# first: secrets such as .env* and ~/.ssh denied, .git and the lock files
# protected, writes outside the project denied, confined commands writing
# only to the sandbox, the temporary directories and the build caches.
# safezone policy shows the whole effective policy and where each entry
# comes from; safezone validate checks this file. Every key is explained in
# policy.example.yaml, in safezone's repository.
#
# A list here adds entries; a value set here replaces the default's; an
# entry of the default goes only by naming it under remove:.
#
# This file comes with the repository: what it tightens applies at once;
# what it widens (allow rules, more directories, safe paths, a looser mode,
# confine.write, removing a deny rule, ...) applies only once you run
# safezone trust .safezone.yaml, and again after each change.
version: 1

# Examples: remove the "# " in front of the lines you want.
# paths:
#   protected: ["migrations/**"]     # writes always denied
#   warned: ["infra/**"]             # writes allowed, with a warning
# rules:
#   deny: ["Read(data/customers/**)"]
#   ask: ["Bash(git push:*)"]
# remove:
#   paths.warned: ["src/**"]         # a default entry this project does not want
`

// userPolicy is the user policy init --user writes.
const userPolicy = `# Your safezone policy, for every project (schema version 1), written by
# safezone init --user.
#
# It adds to safezone's built-in default policy, which always applies
# first: secrets such as .env* and ~/.ssh denied, .git and the lock files
# protected, writes outside the project denied, confined commands writing
# only to the sandbox, the temporary directories and the build caches.
# safezone policy shows the whole effective policy and where each entry
# comes from; safezone validate checks this file. Every key is explained in
# policy.example.yaml, in safezone's repository.
#
# A list here adds entries; a value set here replaces the default's; an
# entry of the default goes only by naming it under remove:. This file is
# yours, so all of it applies; a project's own .safezone.yaml cannot widen
# what it sets unless you trust that file.
version: 1

# Examples: remove the "# " in front of the lines you want.
# sandbox:
#   read_dirs: ["~/src/shared"]      # may be read, never written
# confine:
#   write: ["~/.cache/my-tool"]      # a cache confined commands may write
# remove:
#   rules.deny: ["Read(~/.npmrc)"]   # a default entry you do not want
`

const sandboxGitignore = `# agent_sandbox/ is the agent's scratch area (dated folders such as
# agent_sandbox/2026-11-22/<topic>/). Nothing in it is committed.
*
!.gitignore
`

func hasLine(b []byte, line string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// shellQuote quotes p for a hook command line (run by sh -c on Unix) when
// it holds anything but safe characters.
func shellQuote(p string) string {
	safe := true
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,=", r)) {
			safe = false
			break
		}
	}
	if safe && p != "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// isGoRunBuild reports whether exe is a binary go run built in its
// temporary work directory ($TMPDIR/go-build*/.../exe/NAME), deleted when
// go run exits.
func isGoRunBuild(exe string) bool {
	return strings.Contains(filepath.ToSlash(exe), "/go-build") && filepath.Base(filepath.Dir(exe)) == "exe"
}

// printInitDiff prints init --dry-run's output: a unified diff of each
// change, then the notes.
func printInitDiff(stdout io.Writer, changes []fileChange, notes []string) {
	for _, c := range changes {
		oldName := c.display
		if c.old == nil {
			oldName = "/dev/null"
		}
		stdout.Write(diff.Diff(oldName, c.old, c.display, c.new))
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, "# "+n)
	}
	if len(changes) == 0 {
		fmt.Fprintln(stdout, "# nothing to change")
	}
}

// applyInit writes init's changes, each after a backup of the file it
// replaces (NAME.bak-YYYYMMDD-HHMMSS) where the change asks for one, and
// trusts each file it wrote (the watch list need not report it). It stops
// at the first error, which names the file.
func applyInit(stdout io.Writer, changes []fileChange, sys *pipeline.System) error {
	stamp := sys.Now().Format("20060102-150405")
	for _, c := range changes {
		if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
			return err
		}
		if c.backup && c.old != nil {
			bak := c.path + ".bak-" + stamp
			if err := os.WriteFile(bak, c.old, c.mode); err != nil {
				return fmt.Errorf("backing up %s: %w; nothing changed in it", c.display, err)
			}
			c.what += " (old file kept as " + filepath.Base(bak) + ")"
		}
		if err := pipeline.WriteAtomic(c.path, c.new, c.mode); err != nil {
			return fmt.Errorf("writing %s: %w", c.display, err)
		}
		fmt.Fprintf(stdout, "%s: %s\n", c.display, c.what)
		// The user made it: the hook need not watch it (see watch.go).
		_, _ = sys.Trust(watchedForm(sys, "/", c.path))
	}
	return nil
}
