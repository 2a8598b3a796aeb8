package pipeline

// Kernel confinement of the Bash commands whose own accesses safezone cannot
// see (classify.Result.Confine): the ruleset built from the resolved policy,
// the rewritten command (confine.Rewrite) and the tool input that carries it
// (Claude Code's updatedInput).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/gitconfig"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/index"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// maxSecretMatches bounds the files one denied-read glob (Read(~/.cargo/
// credentials*)) adds to a ruleset.
const maxSecretMatches = 64

// readOnlyInRoot are the paths inside each writable sandbox root that stay
// read-only for a confined command: the host's project settings and hooks
// (.claude), safezone's policy files, the other hosts' hook registrations and the
// other hosts' project files that run code when the project is opened
// (VS Code's tasks with runOn folderOpen, Cursor's and Gemini CLI's MCP
// servers and hooks, direnv's .envrc). Each maps to why, for explain.
// One that does not exist is watched (watch.go): the kernel cannot keep it
// from being created. What git reads as configuration or runs is derived
// from the repositories themselves (gitPaths).
var readOnlyInRoot = map[string]string{
	".claude":          "Claude Code's project settings and hooks, run unconfined",
	policy.ProjectFile: "safezone's project policy",
	policy.LocalFile:   "safezone's local policy",
	".mcp.json":        "Claude Code's project MCP servers, run unconfined",
	"hooks.json":       "a plugin's hook registrations",
	"hooks/hooks.json": "a plugin's hook registrations",
	".codex":           "Codex's project configuration and hooks",
	".gemini":          "Gemini CLI's project settings, hooks, MCP servers and extensions",
	".github/hooks":    "Copilot's and VS Code's hook registrations",
	".cursor":          "Cursor's hooks, MCP servers and environment",
	".vscode":          "VS Code's tasks (runOn folderOpen), settings, launch configurations and MCP servers",
	".envrc":           "direnv's script, run when the user enters the directory",
}

// codeCaches are the caches, below the home directory, that hold code a
// later unconfined process runs without checking it again: the packages
// npx runs (Claude Code starts npx-configured MCP servers from there),
// pre-commit's hook environments, go's checksum database's latest tree head
// (signed; a confined command's stays its own), go's extracted modules (go checks a
// module zip's hash when it downloads it, not the extracted tree, and
// chmod is no write Landlock governs) and build cache, cargo's extracted
// crates and git checkouts, maven's and gradle's jars, uv's and pip's
// caches (pip serves a package download from its HTTP cache, and a wheel
// it built before), corepack's package managers. A confined
// command sees each with a private layer on top (confine.Ruleset.Overlay):
// it may download and build there for itself, and what the next unconfined
// run trusts stays as it was; what it added is gone when it ends (the next
// call downloads or builds it again). The hook makes them, empty, where
// their parent exists; the caches the environment moves elsewhere
// (cacheEnv) are overlaid too. pnpm's store (~/.local/share/pnpm) is not
// writable at all: a confined pnpm install keeps its store in the
// project's node_modules/.pnpm-store (pnpm 12.26.0, measured).
var codeCaches = []string{"~/.npm/_npx", "~/.cache/pre-commit",
	"~/go/pkg/mod", "~/go/pkg/sumdb", "~/.cache/go-build", "~/.cargo/registry", "~/.cargo/git",
	"~/.m2/repository", "~/.gradle/caches", "~/.cache/uv", "~/.cache/pip",
	"~/.cache/node/corepack"}

// agiReadOnly are the files below the home directory a later unconfined
// shell runs, kept read-only for a confined command that may write the
// home directory (agi mode, the sandbox off): Claude Code's shell
// snapshots (Claude Code 2.1.330 sources one in the shell of every Bash
// call, outside the confined command) and the shell startup files. Each
// maps to whether a missing one is watched (watch.go): Claude Code makes
// its snapshots directory itself, so a missing one is not.
var agiReadOnly = map[string]bool{
	"~/.claude/shell-snapshots": false,
	"~/.bashrc":                 true, "~/.bash_profile": true, "~/.bash_login": true, "~/.profile": true, "~/.bash_logout": true,
	"~/.zshrc": true, "~/.zshenv": true, "~/.zprofile": true, "~/.zlogin": true,
	"~/.config/fish/config.fish": true,
}

// makeInRoot are the directories of readOnlyInRoot the hook creates, empty,
// where their parent exists, so that the kernel can keep them read-only and
// Claude Code's own settings file, made later in .claude, is not missing.
var makeInRoot = []string{".claude"}

// confinement is how a confined call is run and explained.
type confinement struct {
	Ruleset confine.Ruleset
	// Refusals says whether what the kernel refuses the command is
	// reported (to the audit log and the model), and why not; set for
	// explain, and on the live path when it is.
	Refusals string
	Command  string          // the rewritten command
	Input    json.RawMessage // tool_input with the command replaced
	// Missing are the read-only paths that did not exist: the kernel
	// cannot stop the command from creating them, the watch list records
	// them (see watch.go).
	Missing []string
	// ReadOnlyOff says why ReadOnly paths are not enforced by the kernel
	// here ("" when they are).
	ReadOnlyOff string
	// HostFallback says what holds if the command runs inside the host's
	// own sandbox, where the launcher falls back to Landlock alone
	// (Ruleset.HostSandbox); "" when it does not.
	HostFallback string
	// Found is what the search of the sandbox roots found (hidden and
	// read-only files), for explain.
	Found index.Found
	// Why says why each path of the ruleset is hidden, read-only, given a
	// tmpfs or replaced, or granted: the rule or pattern, or what a hidden
	// socket leads to. Kept are the sockets left reachable
	// (confine.sockets, grants).
	Why  map[string]string
	Kept []string
	// Granted are the secrets the call's grants left readable.
	Granted []string
	// Npmrc is the copy of ~/.npmrc without its credentials that the
	// command reads in its place ("" for none).
	Npmrc string
	// GitWritable are the paths git reads as configuration or runs that
	// this one line may write (gitOnly), with why; every other confined
	// command has them read-only.
	GitWritable map[string]string
	// Launcher is the fast launcher the command runs through ("" for the
	// safezone binary itself: confine's Go launcher).
	Launcher string
	// NetAllow is what the command may connect to when it has a network
	// of its own (Ruleset.Net), with why each entry is there; NetOff says
	// why network.isolate is on and the network open all the same.
	NetAllow []string
	NetWhy   map[string]string
	NetOff   string
}

// confinable says whether a shell command of call could run confined here:
// the host runs a rewritten command (Claude Code's updatedInput, Codex's,
// Gemini CLI's and Copilot CLI's equivalents), the shell that runs it can run the
// rewritten form (bash where the host runs the user's $SHELL; see
// hookio.ShellOf), and the kernel confines (confine.Available). Its second
// result says why not.
func (s *System) confinable(call *hookio.Call, host hookio.Host) (bool, string) {
	if ok, why := s.confinableHere(call, host); !ok {
		return false, why
	}
	return s.kernelConfines()
}

// confinableHere is confinable without asking the kernel: the host and the
// shell.
func (s *System) confinableHere(call *hookio.Call, host hookio.Host) (bool, string) {
	if call == nil || call.Kind != hookio.KindShell {
		return false, ""
	}
	if r, ok := host.(hookio.Rewriter); !ok || !r.RewritesShell() {
		return false, "the host " + host.Name() + " cannot run a rewritten command"
	}
	if sh := s.Getenv("SHELL"); hookio.ShellOf(host) == hookio.ShellUser && sh != "" && path.Base(sh) != "bash" {
		return false, "the Bash tool runs " + sh + ", and a confined command needs bash"
	}
	return true, ""
}

// kernelConfines is the kernel's part of confinable (confine.Available,
// once per process): a probe that starts and ends a thread.
func (s *System) kernelConfines() (bool, string) {
	if st := s.ConfineStatus(); !st.Confine() {
		return false, st.Landlock.Error()
	}
	return true, ""
}

// confineMatters reports whether whether the kernel confines could change
// res, decided as if it did: an allowed shell command runs confined, and an
// abstaining one let through by the kernel's agreement
// (classify.Result.KernelAgreed) would be judged otherwise. An ask or a
// deny decided as if the kernel confined is the same without it: classify
// only ever relaxes a decision for a command that runs confined.
func confineMatters(res *classify.Result, pol *policy.Policy) bool {
	if res.Shell == nil {
		return false
	}
	if pol.Confine.Mode.Value == policy.ConfineAlways {
		return true
	}
	return res.Decision == policy.Allow || res.Decision == policy.Abstain && res.KernelAgreed
}

// confinementFor builds the ruleset of a confined call and rewrites its
// command in the form the host's shell runs (confine.Rewrite for the
// user's bash with its state, confine.RewriteBash for a host's own bash
// (Gemini CLI, Copilot CLI),
// confine.RewritePOSIX for a shell the hook cannot name). hostSandbox names
// the host's own sandbox the command will run in ("" for none): read-only
// paths then cannot be kept by the kernel. maySandbox names the one it may
// run in (Claude Code's, see hostsandbox.go): the launcher may then fall
// back to Landlock alone, where what that loses is held otherwise. data is
// the hook input (for the tool input to carry the new command).
// The project's watch list gets the read-only paths that are missing (see
// watch.go); an error writing it is an error: the command is then not
// confined. So is a ruleset the kernel cannot enforce here: files to hide
// where there are no user namespaces, a search of the sandbox roots that
// did not finish.
func (j *Judger) confinementFor(res *classify.Result, call *hookio.Call, host hookio.Host, hostSandbox, maySandbox string, pol *policy.Policy, data []byte, project string) (*confinement, error) {
	if j.Sys.Executable == "" || !filepath.IsAbs(j.Sys.Executable) {
		return nil, errors.New("cannot tell where this safezone binary is: the launcher needs its absolute path")
	}
	c := &confinement{}
	roErr := j.Sys.ConfineStatus().ReadOnly
	if roErr == nil && hostSandbox != "" {
		// The hook runs outside the host's sandbox, the command inside,
		// where a new user namespace is refused (Codex 0.171.0's
		// read-only and workspace-write sandboxes: EPERM).
		roErr = fmt.Errorf("the command runs inside %s, where user namespaces are not available", hostSandbox)
	}
	if err := j.ruleset(c, res, pol, call.Cwd, j.Sys.session(call, j.Sys.Getenv("HOME")), roErr == nil); err != nil {
		return nil, err
	}
	c.Ruleset = c.Ruleset.Normalize()
	if roErr != nil {
		// No mount namespace: Landlock alone denies reading the hidden
		// paths outside the writable ones; inside them it cannot.
		rs, lost := c.Ruleset.WithoutNamespace()
		if len(lost) > 0 {
			return nil, fmt.Errorf("the kernel cannot hide %s here (%v), so a confined program could read it", hiddenList(lost, j.Sys.Getenv("HOME")), roErr)
		}
		c.ReadOnlyOff = roErr.Error()
		c.Ruleset = rs
	}
	if sd, ok := j.stateInside(c.Ruleset.Write); ok {
		// The watch list lies where the command may write (a project that
		// holds the home directory): it must stay read-only, or the command
		// could delete it.
		if roErr != nil {
			return nil, fmt.Errorf("safezone's state directory %s lies in a directory it may write, and keeping it read-only needs user namespaces: %v", sd, roErr)
		}
		c.Ruleset.ReadOnly = append(c.Ruleset.ReadOnly, sd)
	}
	if err := j.network(c, res, call, host, pol, project, roErr); err != nil {
		return nil, err
	}
	if roErr == nil && maySandbox != "" && !pol.HostSandbox.NestedUserNS.Value {
		c.Ruleset = c.Ruleset.Normalize()
		note, err := j.hostFallback(c, pol, maySandbox, project)
		if err != nil {
			return nil, err
		}
		c.Ruleset.HostSandbox, c.HostFallback = maySandbox, note
	}
	j.report(c, call, host, pol, project)
	if j.live {
		if err := j.Sys.RecordWatch(project, c.Missing); err != nil {
			return nil, fmt.Errorf("the files it could create cannot be watched: %w", err)
		}
		// A nested repository that appeared since the last search is
		// watched: this command is confined (its configuration and hooks
		// read-only to it), the next call is judged by what git would run.
		if _, err := j.Sys.NoteRepos(project, c.Found.Repos, true); err != nil {
			return nil, fmt.Errorf("the repositories it could make cannot be watched: %w", err)
		}
	}
	c.Ruleset = c.Ruleset.Normalize()
	if err := c.Ruleset.Validate(); err != nil {
		return nil, err
	}
	rewrite := confine.Rewrite
	switch hookio.ShellOf(host) {
	case hookio.ShellPOSIX:
		rewrite = confine.RewritePOSIX
	case hookio.ShellBash:
		rewrite = confine.RewriteBash
	}
	// The fast launcher, where it is built, for a ruleset that takes the
	// mount namespace: one process instead of the Go launcher's two,
	// network namespace included.
	launcher := j.Sys.Executable
	if roErr == nil && c.Ruleset.NeedsNamespace() && c.Ruleset.HostSandbox == "" {
		if fast := j.Sys.FastLauncher(j.live); fast != "" {
			launcher, c.Launcher = fast, fast
		}
	}
	cmd, err := rewrite(call.Command, launcher, c.Ruleset)
	if err != nil {
		return nil, err
	}
	c.Command = cmd
	if c.Input, err = withCommand(data, cmd); err != nil {
		return nil, err
	}
	return c, nil
}

// hiddenList names up to three of the paths ps, "~" for home, and how many
// more there are.
func hiddenList(ps []string, home string) string {
	var out []string
	for i, p := range ps {
		if i == 3 {
			return strings.Join(out, ", ") + fmt.Sprintf(" and %d more", len(ps)-3)
		}
		out = append(out, shortHome(p, home))
	}
	return strings.Join(out, ", ")
}

// shortHome writes p below home as ~/....
func shortHome(p, home string) string {
	if home != "" && home != "/" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + strings.TrimPrefix(p, home)
	}
	return p
}

// kernelWrite returns what a confined command of a call with these roots
// may write besides the writable sandbox roots, resolved through fsys: the
// temporary directories, the devices and confine.write
// (classify.Env.KernelWrite).
func (j *Judger) kernelWrite(pol *policy.Policy, project string, fsys fs.ReadLinkFS) []string {
	var out []string
	for _, tmp := range []string{j.Sys.Getenv("TMPDIR"), "/tmp", "/var/tmp", "/dev/shm"} {
		if filepath.IsAbs(tmp) {
			if r, ok := resolvedDirIn(fsys, tmp); ok {
				out = append(out, r)
			}
		}
	}
	out = append(out, confine.Devices()...)
	for _, d := range j.cacheDirs(pol, project) {
		if r, ok := resolvedDirIn(fsys, d); ok {
			out = append(out, r)
		}
	}
	return out
}

// cacheDirs are the caches a confined command may write: confine.write, and
// where the environment moves a tool's cache elsewhere (GOMODCACHE,
// GOCACHE, XDG_CACHE_HOME, CARGO_HOME's registry and git, npm_config_cache,
// the pnpm store), those places too. They are absolute, not resolved.
func (j *Judger) cacheDirs(pol *policy.Policy, project string) []string {
	home := j.Sys.Getenv("HOME")
	var out []string
	for _, d := range pol.Confine.Write {
		if p := policy.ExpandDir(d, home, project); p != "" {
			out = append(out, p)
		}
	}
	for _, v := range []string{"GOMODCACHE", "GOCACHE", "XDG_CACHE_HOME", "npm_config_cache", "NPM_CONFIG_CACHE", "npm_config_store_dir", "PNPM_STORE_DIR"} {
		if p := j.Sys.Getenv(v); filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	if ch := j.Sys.Getenv("CARGO_HOME"); filepath.IsAbs(ch) {
		out = append(out, filepath.Join(ch, "registry"), filepath.Join(ch, "git"))
	}
	return out
}

// cacheEnv are the environment variables that move a code cache
// elsewhere (go, cargo, uv, pip, corepack, pnpm): the directory each names
// is overlaid like codeCaches. CARGO_HOME's registry and git are.
var cacheEnv = []string{"GOMODCACHE", "GOCACHE", "UV_CACHE_DIR", "PIP_CACHE_DIR", "COREPACK_HOME", "npm_config_store_dir", "PNPM_STORE_DIR"}

// overlaid returns the code caches (codeCaches, and where cacheEnv or
// CARGO_HOME move them) that lie in or below a directory of write,
// resolved: a confined command sees each with a private layer on top. A
// missing one is made where its parent exists (see madeDir; would as
// there), or with the whole way to it where its nearest existing parent
// lies in a directory of write (but "/"). why gets the reason of each.
func (j *Judger) overlaid(write []string, pol *policy.Policy, project string, would, why map[string]string) []string {
	home := j.Sys.Getenv("HOME")
	var cands []string
	if home != "" {
		for _, cc := range codeCaches {
			cands = append(cands, filepath.Join(home, strings.TrimPrefix(cc, "~/")))
		}
	}
	for _, v := range cacheEnv {
		if p := j.Sys.Getenv(v); filepath.IsAbs(p) {
			cands = append(cands, filepath.Clean(p))
		}
	}
	if ch := j.Sys.Getenv("CARGO_HOME"); filepath.IsAbs(ch) {
		cands = append(cands, filepath.Join(ch, "registry"), filepath.Join(ch, "git"))
	}
	inWrite := func(r string) bool {
		return slices.ContainsFunc(write, func(w string) bool { return w == "/" || r == w || strings.HasPrefix(r, w+"/") })
	}
	var out []string
	for _, p := range cands {
		if _, ok := j.resolvedDir(p); !ok && !slices.Contains(write, "/") {
			// A cache whose parent is missing too (~/.cache/node for
			// corepack's) inside a directory the command may write: the
			// command would make it, for good, outside any layer. The hook
			// makes the way to it first. (Not where the whole disk is
			// writable, agi mode: nothing there is kept from the command.)
			if parent, ok := j.existingParent(p); ok && inWrite(parent) {
				j.makeDirAll(p, would)
			}
		}
		r, ok := j.madeDir(p, would)
		if !ok || slices.Contains(out, r) || !inWrite(r) {
			continue
		}
		out = append(out, r)
		why[r] = "a cache of code that later unconfined programs run: the command's changes are its own, gone when it ends"
	}
	return out
}

// ruleset computes what the confined command may do: write in the sandbox
// roots, the temporary directories, the devices and the caches (everywhere
// when the sandbox is off or in agi mode, nowhere but the devices in read
// mode); neither read nor write what the Read deny rules match (by an
// absolute or home path: Landlock's NoRead outside the writable paths;
// inside them, found by searching the sandbox roots: hidden in the mount
// namespace); not change the protected paths, safezone's own files and the
// host's and git's configuration inside the roots; read in the home
// directory only what programs need there (homeRead). Its second result lists
// the read-only paths that do not exist (see readOnly), its third what the
// search found. namespaces says whether the launcher can use a mount
// namespace here (private /dev/shm).
//
// A confine.write directory that does not exist is created when its parent
// does (~/.cache in a new home directory: a tool that finds no cache
// directory creates one, and could not); else it is left out.
func (j *Judger) ruleset(c *confinement, res *classify.Result, pol *policy.Policy, cwd string, session hookio.Session, namespaces bool) error {
	var rs confine.Ruleset
	// Off the live path, the directories the hook would have made.
	would := map[string]string{}
	home := j.Sys.Getenv("HOME")
	addWrite := func(p string) {
		if r, ok := j.resolvedDir(p); ok {
			rs.Write = append(rs.Write, r)
		}
	}
	project := ""
	if len(res.Roots) > 0 {
		project = res.Roots[0].Resolved
	}
	switch {
	case res.Modes.Read.On:
		// Read mode: nothing may be written but the devices.
	case res.Modes.AGI || !res.Modes.Sandbox.On:
		rs.Write = []string{"/"}
	default:
		for _, root := range res.Roots {
			if !root.ReadOnly {
				rs.Write = append(rs.Write, root.Resolved)
			}
		}
		for _, tmp := range []string{j.Sys.Getenv("TMPDIR"), "/tmp", "/var/tmp"} {
			if filepath.IsAbs(tmp) {
				addWrite(tmp)
			}
		}
		tools := toolsRun(res)
		for _, d := range j.cacheDirs(pol, project) {
			if toolCache(d, home, tools) {
				// The tool this line runs would make its cache, and
				// could not: make the whole way to it.
				j.makeDirAll(d, would)
			}
			if r, ok := j.madeDir(d, would); ok {
				rs.Write = append(rs.Write, r)
			}
		}
	}
	rs.Write = append(rs.Write, confine.Devices()...)
	if shm, ok := j.resolvedDir("/dev/shm"); ok && !res.Modes.Read.On {
		// POSIX shared memory (Python's multiprocessing): a tmpfs of the
		// command's own where the namespace can be had, else the shared one.
		rs.Write = append(rs.Write, shm)
		if namespaces {
			rs.Tmpfs = append(rs.Tmpfs, shm)
		}
	}
	// The secrets named by an absolute or home path: hidden where the
	// command may write (agi, or a project holding the home directory),
	// else unreadable by Landlock alone (Normalize sorts them).
	c.Why = map[string]string{}
	var absent []string
	var named []string
	named, absent = j.secrets(pol, home, c.Why)
	found, err := j.search(res, pol, c.Why)
	if err != nil {
		return err
	}
	rs.Hide = append(named, found.Hide...)
	rs.NoRead = found.NoRead
	var missing []string
	c.GitWritable = map[string]string{}
	rs.ReadOnly, missing = j.readOnly(res, pol, cwd, found.Repos, rs.Write, c.Why, c.GitWritable)
	missing = append(missing, j.missingRepos(res)...)
	rs.ReadOnly = append(rs.ReadOnly, found.ReadOnly...)
	for _, root := range res.Roots {
		// sandbox.read_dirs below a directory the command may write (a
		// temporary one, a cache) stay read-only.
		if root.ReadOnly {
			rs.ReadOnly = append(rs.ReadOnly, root.Resolved)
			c.Why[root.Resolved] = "sandbox.read_dirs: read, not written"
		}
	}
	rs.Overlay = j.overlaid(rs.Write, pol, project, would, c.Why)
	if namespaces {
		ways, kept, err := j.outsideWays(&rs, res, pol)
		if err != nil {
			return fmt.Errorf("the sockets of the programs outside the sandbox cannot all be hidden: %w", err)
		}
		for p, w := range ways {
			if strings.HasPrefix(w, "reachable: ") {
				c.Why[p] = w
			} else {
				c.Why[p] = "leads to " + w
			}
		}
		c.Kept = kept
	}
	c.Granted = grantedRead(&rs, res)
	for _, p := range c.Granted {
		if g, ok := res.Granted(p); ok {
			c.Why[p] = "granted to " + g.Command.Text + " (" + g.Pos.String() + ")"
		}
	}
	if namespaces {
		if cp := j.npmrc(&rs, home); cp != "" {
			c.Npmrc = cp
			for k := range rs.Replace {
				c.Why[k] = "read as " + cp + ": the same settings without the credentials"
			}
		}
	}
	// The secrets named outside the writable paths are also Landlock's
	// NoRead, existing or not, but those a grant leaves readable or that
	// are read as a copy (~/.npmrc): a stand-in hides what is at a name
	// when the command starts, and a rename over that name (an editor's
	// save, docker login, a token refresh) detaches it in the namespace of
	// a process the command left running; Landlock grants reads on the
	// complement of the way to them, so whatever is put at the name later
	// stays unreadable. Landlock cannot deny a read beneath a path it
	// grants writes to, nor around one (the write grant needs the way to
	// it readable).
	for _, p := range slices.Concat(named, absent) {
		_, granted := res.Granted(p)
		_, replaced := rs.Replace[p]
		if !granted && !replaced && !slices.ContainsFunc(rs.Write, func(w string) bool { return pathWithin(p, w) || pathWithin(w, p) }) {
			rs.NoRead = append(rs.NoRead, p)
		}
	}
	// The rest of the home directory is private: NoRead, but what
	// programs need there.
	j.homeRead(&rs, res, pol, session, c.Granted, c.Why)
	j.cargo(&rs, home)
	if err := linksHeld(&rs, home); err != nil {
		return err
	}
	c.Ruleset, c.Missing, c.Found = rs, missing, found
	return nil
}

// linksHeld checks that the kernel holds every name of each secret of rs:
// a regular file among its Hide, NoRead and Replace paths that has more
// than one link (st_nlink) must have each of them there, counted once per
// directory entry (the parent directory's identity and the base name: a
// path through a bind mount is the same name). Else a name the ruleset
// does not hold reads the same contents (a hard link made under
// node_modules/, in /tmp, or before the session), and it returns an error
// that names the file, its link count, how many names are held and how to
// find the others; the caller then does not confine the command, which is
// asked instead of run (denied where the host cannot ask).
//
// st_nlink counts the links on the whole file system, so a name anywhere
// on it counts, readable by the command or not; only names found by the
// search of the sandbox roots (index.Found.Links: the skipped trees
// included) or named by the policy are held. A path that cannot be
// lstat'ed is no name of a file now and is passed over; one whose stat
// record carries no link count (not Linux or macOS) is too: nothing is
// confined there. It costs an lstat(2) per secret, and one per name of a
// secret with several links.
func linksHeld(rs *confine.Ruleset, home string) error {
	type fileKey struct{ dev, ino uint64 }
	type secret struct {
		path  string
		nlink uint64
		names map[string]bool
	}
	secrets := map[fileKey]*secret{}
	var order []fileKey
	paths := slices.Concat(rs.Hide, rs.NoRead, slices.Collect(maps.Keys(rs.Replace)))
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		dev, ino, nlink, ok := linkCount(fi)
		if !ok || nlink < 2 {
			continue
		}
		k := fileKey{dev, ino}
		s := secrets[k]
		if s == nil {
			s = &secret{path: p, nlink: nlink, names: map[string]bool{}}
			secrets[k] = s
			order = append(order, k)
		}
		name := p
		if pi, err := os.Lstat(filepath.Dir(p)); err == nil {
			if pdev, pino, _, ok := linkCount(pi); ok {
				name = fmt.Sprintf("%d:%d/%s", pdev, pino, filepath.Base(p))
			}
		}
		s.names[name] = true
	}
	for _, k := range order {
		s := secrets[k]
		if held := uint64(len(s.names)); held < s.nlink {
			return fmt.Errorf("%s, a file the policy hides, has %d links (hard links: other names of the same file) and the kernel would hide %d of them: "+
				"another name, which safezone did not find below the sandbox roots, would read it; remove the extra links (find %s -xdev -samefile %s lists every name), or run the command yourself",
				shortHome(s.path, home), s.nlink, held, mountOf(s.path, k.dev), s.path)
		}
	}
	return nil
}

// mountOf returns the topmost directory above p on the device dev: where
// find -xdev looks for every name of a file of p's file system.
func mountOf(p string, dev uint64) string {
	d := filepath.Dir(p)
	for d != "/" {
		fi, err := os.Lstat(filepath.Dir(d))
		if err != nil {
			break
		}
		if pdev, _, _, ok := linkCount(fi); !ok || pdev != dev {
			break
		}
		d = filepath.Dir(d)
	}
	return d
}

// search finds the files below the sandbox roots that the kernel must hide
// or keep read-only (package index). A search that does not finish is an
// error: the command would run with secrets it should not see.
func (j *Judger) search(res *classify.Result, pol *policy.Policy, why map[string]string) (index.Found, error) {
	spec := res.KernelSpec(pol)
	m, err := spec.Matcher()
	if err != nil {
		return index.Found{}, err
	}
	f, ok := j.askIndex(spec)
	if !ok {
		f = index.Walk(m, spec.Roots, index.Limits{Deadline: time.Now().Add(searchBudget)})
	}
	if f.Incomplete != "" {
		return f, fmt.Errorf("safezone could not list the files to hide from it: %s", f.Incomplete)
	}
	for _, l := range [][]string{f.Hide, f.ReadOnly, f.NoRead} {
		for _, p := range l {
			if h, ok := f.Links[p]; ok {
				why[p] = "another name (a hard link) of " + h + ", the same file"
			} else if w := m.Why(p); w != "" {
				why[p] = w
			} else {
				why[p] = "the target of a symbolic link, or another name of a hidden file"
			}
		}
	}
	return f, nil
}

// otherNames returns, for each target of res that resolves to an existing
// regular file with more than one link (classify.Resolution.Links), the
// names of the same file (device and inode) that the kernel would hide
// from a confined command: found by the search of the sandbox roots
// (search: the index daemon's answer, or a walk), matched by a Read deny
// rule's absolute or home path (secrets), by the target's resolved path
// (classify.Env.OtherNames). looked is false, at no cost, when no
// target has several links: hard links of plain files (pnpm's store) cost
// a search of the roots (a query of the daemon), no question. A search
// that did not finish is the error, with the names it did find: the
// caller asks what it would have allowed. It looks only on Linux, where
// the index daemon answers for the price of a socket round trip;
// elsewhere each lookup would walk the roots.
func (j *Judger) otherNames(res *classify.Result, pol *policy.Policy) (names map[string][]string, looked bool, err error) {
	if runtime.GOOS != "linux" {
		return nil, false, nil
	}
	var multi []string
	for i := range res.Targets {
		t := &res.Targets[i]
		for _, r := range []*classify.Resolution{&t.Res, t.Lex} {
			if r != nil && r.Exists && r.Links > 1 && !slices.Contains(multi, r.Path) {
				multi = append(multi, r.Path)
			}
		}
	}
	if len(multi) == 0 {
		return nil, false, nil
	}
	type fileKey struct{ dev, ino uint64 }
	keyOf := func(p string) (fileKey, bool) {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return fileKey{}, false
		}
		dev, ino, _, ok := linkCount(fi)
		return fileKey{dev, ino}, ok
	}
	f, serr := j.search(res, pol, map[string]string{})
	hidden, _ := j.secrets(pol, j.Sys.Getenv("HOME"), map[string]string{})
	for _, h := range f.Hide {
		if _, other := f.Links[h]; !other {
			hidden = append(hidden, h)
		}
	}
	byKey := map[fileKey][]string{}
	for _, h := range hidden {
		if k, ok := keyOf(h); ok && !slices.Contains(byKey[k], h) {
			byKey[k] = append(byKey[k], h)
		}
	}
	names = map[string][]string{}
	for _, p := range multi {
		if k, ok := keyOf(p); ok {
			for _, h := range byKey[k] {
				if h != p {
					names[p] = append(names[p], h)
				}
			}
		}
	}
	return names, true, serr
}

// askIndex asks the index daemon of spec's roots what to hide (see
// index.Serve), on the live path only; where none answers it starts one
// for the next call. It reports whether the answer is complete and can be
// used: else the caller walks.
func (j *Judger) askIndex(spec classify.KernelSpec) (index.Found, bool) {
	if !j.live || j.Sys.StartIndex == nil {
		return index.Found{}, false
	}
	data, err := json.Marshal(spec)
	if err != nil {
		return index.Found{}, false
	}
	sock := j.Sys.indexSocket(data)
	if sock == "" {
		return index.Found{}, false
	}
	f, err := index.Query(sock, indexTimeout)
	if err == nil && f.Incomplete == "" {
		return f, true
	}
	if err != nil && os.MkdirAll(filepath.Dir(sock), 0o700) == nil {
		_ = j.Sys.StartIndex(data, sock)
	}
	return index.Found{}, false
}

// searchBudget bounds one search of the sandbox roots.
const searchBudget = 3 * time.Second

// stateInside returns safezone's state directory, made if missing and
// resolved, when it lies inside one of the directories writable.
func (j *Judger) stateInside(writable []string) (string, bool) {
	sd := j.Sys.StateDir()
	if sd == "" {
		return "", false
	}
	parent, ok := j.existingParent(sd + "/x")
	if !ok || !slices.ContainsFunc(writable, func(w string) bool { return w == "/" || parent == w || strings.HasPrefix(parent, w+"/") }) {
		return "", false
	}
	if j.live {
		_ = os.MkdirAll(sd, 0o700)
	}
	r, ok := j.resolvedDir(sd)
	if !ok {
		return sd, true
	}
	return r, true
}

// makeDir creates the directory p (mode 0700) when it is missing and its
// parent exists, on the live path only; errors are left to the caller's
// lookup of p.
func (j *Judger) makeDir(p string) {
	j.madeDir(p, nil)
}

// toolCaches are the caches below the home directory that a tool makes,
// with every directory on the way, when it first runs: go's module cache,
// cargo's registry and git checkouts, gradle's and maven's. When a line
// runs the tool, the hook makes the whole way (a confined go could not
// make ~/go in a home where go never ran); for other lines it makes a
// cache only where its parent exists (madeDir).
var toolCaches = map[string][]string{
	"go":      {"go/pkg/mod", "go/pkg/sumdb"},
	"cargo":   {".cargo/registry", ".cargo/git"},
	"gradle":  {".gradle/caches"},
	"gradlew": {".gradle/caches"},
	"mvn":     {".m2/repository"},
	"mvnw":    {".m2/repository"},
}

// toolsRun returns the programs, by base name, that the shell call of res
// runs.
func toolsRun(res *classify.Result) map[string]bool {
	out := map[string]bool{}
	if res.Shell == nil {
		return out
	}
	for _, c := range res.Shell.Commands {
		if len(c.Argv) > 0 {
			out[filepath.Base(c.Argv[0])] = true
		}
	}
	return out
}

// toolCache reports whether d is the cache of one of the tools run (below
// home, as toolCaches names it).
func toolCache(d, home string, tools map[string]bool) bool {
	if home == "" {
		return false
	}
	for tool, caches := range toolCaches {
		if !tools[tool] {
			continue
		}
		for _, c := range caches {
			if d == filepath.Join(home, c) {
				return true
			}
		}
	}
	return false
}

// makeDirAll makes the directories on the way to p (0755, as the tools
// do; p itself is left to madeDir), on the live path; off it, it records
// where they would be in would.
func (j *Judger) makeDirAll(p string, would map[string]string) {
	var missing []string
	d := filepath.Dir(p)
	for ; d != "/" && d != "."; d = filepath.Dir(d) {
		if _, ok := j.resolvedDir(d); ok {
			break
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if j.live {
			_ = os.Mkdir(missing[i], 0o755)
		} else if parent, ok := j.resolvedDir(filepath.Dir(missing[i])); ok {
			would[missing[i]] = filepath.Join(parent, filepath.Base(missing[i]))
		} else if parent, ok := would[filepath.Dir(missing[i])]; ok {
			would[missing[i]] = filepath.Join(parent, filepath.Base(missing[i]))
		}
	}
}

// madeDir makes the directory p as makeDir does and returns it resolved,
// and whether it exists; off the live path (explain, replay) it makes
// nothing and returns where the hook would have made it, remembering that
// in would (clean path to where) when it is not nil, so that a directory
// below it would be made too.
func (j *Judger) madeDir(p string, would map[string]string) (string, bool) {
	if r, ok := j.resolvedDir(p); ok {
		return r, true
	}
	parent, ok := j.resolvedDir(filepath.Dir(p))
	if !ok {
		parent, ok = would[filepath.Dir(p)]
	}
	if !ok {
		return "", false
	}
	if !j.live {
		r := filepath.Join(parent, filepath.Base(p))
		if would != nil {
			would[p] = r
		}
		return r, true
	}
	_ = os.Mkdir(p, 0o700)
	return j.resolvedDir(p)
}

// resolvedDir returns p with symlinks resolved, if it exists.
func (j *Judger) resolvedDir(p string) (string, bool) { return resolvedDirIn(j.Sys.FS, p) }

// resolvedDirIn returns p with symlinks resolved through fsys, if it
// exists.
func resolvedDirIn(fsys fs.ReadLinkFS, p string) (string, bool) {
	r, err := classify.Resolve(fsys, p)
	if err != nil || !r.Exists {
		return "", false
	}
	return r.Path, true
}

// secrets are the existing paths that deny Read rules name by an absolute or
// home path: their literal prefix, or the files their glob matches there
// (bounded). Project-anchored and name patterns (.env*) are guarded by the
// analysis only: denying them to the kernel inside a writable root would
// make every new file beside them unreadable. missing are the literal
// prefixes of the rules that deny a whole directory (~/.aws/**) where it
// does not exist yet: resolved through their nearest existing parent, for
// Landlock's NoRead, which keeps them unreadable to every process of the
// command once something creates them (`aws configure` while a process a
// confined command left behind still runs: issue 27).
func (j *Judger) secrets(pol *policy.Policy, home string, why map[string]string) (out, missing []string) {
	for i := range pol.Deny {
		r := &pol.Deny[i]
		if r.Kind != policy.RulePath || r.Access != policy.Read {
			continue
		}
		base := ""
		switch r.Path.Anchor {
		case policy.Absolute:
			base = "/"
		case policy.Home:
			base = home
		default:
			continue
		}
		if base == "" {
			continue
		}
		prefix, rest := glob.LiteralPrefix(r.Path.Glob)
		dir := filepath.Join(base, prefix)
		var found []string
		switch {
		case rest == "" || rest == "**":
			if p, ok := j.resolvedDir(dir); ok {
				found = append(found, p)
			} else if p, ok := j.missingTarget(dir); ok {
				if _, ok := why[p]; !ok {
					why[p] = "deny rule " + r.Text + " (" + r.Pos.String() + "), not there yet: unreadable once created"
				}
				missing = append(missing, p)
			}
		default:
			found = j.matches(dir, rest)
		}
		for _, p := range found {
			if _, ok := why[p]; !ok {
				why[p] = "deny rule " + r.Text + " (" + r.Pos.String() + ")"
			}
		}
		out = append(out, found...)
	}
	return out, missing
}

// pathWithin reports whether p is root or lies beneath it (clean, absolute
// paths).
func pathWithin(p, root string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

// missingTarget returns the path p, which does not exist, as the kernel
// would reach it once made: its nearest existing parent resolved, then the
// rest as written.
func (j *Judger) missingTarget(p string) (string, bool) {
	p = filepath.Clean(p)
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if r, ok := j.resolvedDir(d); ok {
			rel, err := filepath.Rel(d, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				return "", false
			}
			return filepath.Join(r, rel), true
		}
		if d == "/" || d == "." {
			return "", false
		}
	}
}

// matches returns the resolved paths below dir that the glob rest matches,
// at most maxSecretMatches.
func (j *Judger) matches(dir, rest string) []string {
	d, ok := j.resolvedDir(dir)
	if !ok {
		return nil
	}
	var out []string
	full := glob.Escape(strings.TrimPrefix(d, "/")) + "/" + rest
	_ = doublestar.GlobWalk(j.Sys.FS, full, func(p string, _ fs.DirEntry) error {
		if r, ok := j.resolvedDir("/" + p); ok {
			out = append(out, r)
		}
		if len(out) >= maxSecretMatches {
			return fs.SkipAll
		}
		return nil
	})
	return out
}

// readOnlyCandidates lists readOnly's candidates: readOnlyInRoot in each
// writable root, what git reads as configuration or runs for the
// repositories of the writable roots, of cwd and of nested (the nested
// repositories the search of the roots found, index.Found.Repos, less
// those the line is an rm of: nestedRemoved) (gitPaths), the literal
// absolute self-protection patterns (those derived from the hosts'
// settings, policy.HostCodeFiles, less the ones below
// confine.program_writable) and the files a later unconfined shell runs
// (agiReadOnly: they count where the home directory is writable) (cands);
// those of them that may be missing without being watched (optional); and,
// off the live path, the directories the hook would have made (made). why
// gets each candidate's reason, by its clean path, for explain; left those
// git paths left writable to this line (gitOnly), with why.
func (j *Judger) readOnlyCandidates(res *classify.Result, pol *policy.Policy, cwd string, nested []string, why, left map[string]string) (cands, optional, made []string) {
	var dirs []string
	for _, root := range res.Roots {
		if root.ReadOnly {
			continue
		}
		dirs = append(dirs, root.Resolved)
		for _, rel := range slices.Sorted(maps.Keys(readOnlyInRoot)) {
			c := filepath.Join(root.Resolved, rel)
			why[c] = readOnlyInRoot[rel]
			if slices.Contains(makeInRoot, rel) && j.makeDirIn(c, root.Resolved) && !j.live {
				made = append(made, c)
			}
			cands = append(cands, c)
		}
	}
	if filepath.IsAbs(cwd) {
		dirs = append(dirs, filepath.Clean(cwd))
	}
	if len(nested) > 0 {
		removed := j.nestedRemoved(res, cwd)
		for _, n := range nested {
			if slices.ContainsFunc(removed, func(r string) bool { return n == r || r == n+"/.git" || strings.HasPrefix(n, r+"/") }) {
				left[n+"/.git"] = "rm removes the nested repository whole"
				continue
			}
			dirs = append(dirs, n)
		}
	}
	subUpdate := gitOnly(res, "submodule", "update")
	wtRemove := gitOnly(res, "worktree", "remove", "prune")
	for _, g := range j.gitPaths(dirs) {
		switch {
		case g.Submodule && subUpdate:
			left[g.Path] = "git submodule update rewrites core.worktree there (" + g.Why + ")"
			continue
		case g.Worktree && wtRemove:
			left[g.Path] = "git worktree remove or prune deletes it (" + g.Why + ")"
			continue
		}
		why[g.Path] = g.Why
		cands = append(cands, g.Path)
		switch g.Missing {
		case gitconfig.Make:
			for _, root := range res.Roots {
				if !root.ReadOnly && (g.Path == root.Resolved || strings.HasPrefix(g.Path, root.Resolved+"/")) {
					if j.makeDirIn(g.Path, root.Resolved) && !j.live {
						made = append(made, g.Path)
					}
					break
				}
			}
		case gitconfig.Ignore:
			optional = append(optional, g.Path)
		}
	}
	state := j.Sys.StateDir()
	var pw *classify.PathMatcher
	programWritable := func(p string) bool {
		if pw == nil {
			spec := res.KernelSpec(pol)
			spec.Hide, spec.ReadOnly = nil, nil
			m, err := spec.Matcher()
			if err != nil {
				return false
			}
			pw = m
		}
		return pw.Class(p) == classify.PathSkip
	}
	for i := range pol.Protected {
		p := &pol.Protected[i]
		if p.Pos.File == policy.SelfProtectionSource && p.Anchor == policy.Absolute {
			// The state directory is the hook's own to make and keep
			// read-only (stateInside), not a file to watch.
			if prefix, rest := glob.LiteralPrefix(p.Glob); (rest == "" || rest == "**") && prefix != state {
				if p.Why != "" && programWritable(prefix) {
					// A file a host runs, in a tree the programs a
					// command runs rewrite whole (node_modules/.bin/x):
					// kept read-only, npm install could not work.
					continue
				}
				cands = append(cands, prefix)
				if p.Why != "" {
					why[prefix] = "a host runs it unconfined: " + p.Why
				} else if _, ok := why[prefix]; !ok {
					why[prefix] = "self-protection " + p.Text
				}
			}
		}
	}
	if home := j.Sys.Getenv("HOME"); home != "" && filepath.IsAbs(home) {
		for _, rel := range slices.Sorted(maps.Keys(agiReadOnly)) {
			c := filepath.Join(home, strings.TrimPrefix(rel, "~/"))
			cands = append(cands, c)
			why[c] = "run by a later unconfined shell (the host's shell snapshots, the shell's startup files)"
			if !agiReadOnly[rel] {
				optional = append(optional, c)
			}
		}
	}
	return cands, optional, made
}

// gitOnly reports whether the shell line of res is one command, git SUB
// ACTION (one of actions) with no option before SUB. Two such lines need
// derived paths writable that are read-only to every other:
//   - git submodule update (git-submodule(1)) rewrites core.worktree in
//     each submodule's config every time it updates it (ensure_core_worktree
//     in git's builtin/submodule--helper.c, git 2.36 and later);
//   - git worktree remove and prune (git-worktree(1)) delete a linked
//     worktree's .git file and worktrees/NAME, commondir with it.
//
// What else runs then is what the read-only configuration and hooks name
// (the submodules' hooks stay read-only), and git writes no other key
// there.
func gitOnly(res *classify.Result, sub string, actions ...string) bool {
	if res.Shell == nil || !res.Shell.Known() || len(res.Shell.Commands) != 1 {
		return false
	}
	argv := res.Shell.Commands[0].Argv
	if len(argv) < 3 || filepath.Base(argv[0]) != "git" || res.Shell.Commands[0].Untrusted || argv[1] != sub {
		// Runs: ./git, or a git $PATH finds where the agent may write,
		// could be any program the agent wrote.
		return false
	}
	for _, w := range argv[2:] {
		if !strings.HasPrefix(w, "-") {
			return slices.Contains(actions, w)
		}
	}
	return false
}

// nestedRemoved returns, when the line is one rm command alone (rm
// creates nothing, so it can plant nothing), the directories it names,
// resolved against cwd: the nested repositories at or below them are
// not kept read-only for it (their configuration and hooks would be
// mount points, which rm cannot remove: rm -rf vendor/lib of a checkout
// an earlier call cloned would fail). Otherwise nil. rm must be the
// program the command table knows (not Command.Untrusted): not ./rm, nor an
// rm $PATH finds in a directory the agent may write, which could be any
// program the agent wrote.
func (j *Judger) nestedRemoved(res *classify.Result, cwd string) []string {
	if res.Shell == nil || !res.Shell.Known() || len(res.Shell.Commands) != 1 || !filepath.IsAbs(cwd) {
		return nil
	}
	argv := res.Shell.Commands[0].Argv
	if len(argv) < 2 || filepath.Base(argv[0]) != "rm" || res.Shell.Commands[0].Untrusted {
		return nil
	}
	var out []string
	opts := true
	for _, w := range argv[1:] {
		if opts && w == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(w, "-") && w != "-" {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if r, ok := j.resolvedDir(filepath.Clean(p)); ok {
			out = append(out, r)
		}
	}
	return out
}

// gitPaths returns what git reads as configuration or runs as code for
// the repositories git finds from dirs (absolute): gitconfig.Derive, read
// through the judger's file system and environment, without running git.
func (j *Judger) gitPaths(dirs []string) []gitconfig.Path {
	return gitconfig.Derive(j.Sys.FS, j.Sys.Getenv, dirs)
}

// readOnly lists the existing files inside the write roots that stay
// read-only (resolved): readOnlyInRoot in each writable sandbox root, what
// git reads as configuration or runs for the repositories of those roots,
// of cwd and of nested (the nested repositories the search of the roots
// found, index.Found.Repos) (gitconfig.Derive: config, config.worktree, commondir, hooks,
// the .git file, include.path and includeIf files, core.hooksPath, the
// submodules' and linked worktrees' repositories), and the literal
// absolute self-protection patterns (those derived from the hosts'
// settings included), and in agi mode the shell's startup files and the
// host's shell snapshots. Its second result lists the ones that
// do not exist but could be created (absolute, clean): their nearest
// existing parent lies in a write root, and they are not optional (a
// global git configuration file, a pruned worktree's .git file). The
// missing directories of makeInRoot and the missing hooks directories
// (core.hooksPath's too) inside a writable root are first created. why
// gets the reason of each, by its resolved path; left the git
// paths this line may write (gitOnly), with why. In a root that
// is no git repository nothing of git's is listed: a confined program can
// make a repository with hooks there, so its .git is watched instead
// (missingRepos; README, "What the kernel enforces").
func (j *Judger) readOnly(res *classify.Result, pol *policy.Policy, cwd string, nested, writable []string, why, left map[string]string) (existing, missing []string) {
	cand := map[string]string{}
	cands, optional, made := j.readOnlyCandidates(res, pol, cwd, nested, cand, left)
	inWritable := func(r string) bool {
		return slices.ContainsFunc(writable, func(w string) bool { return r != w && (w == "/" || strings.HasPrefix(r, w+"/")) })
	}
	for _, c := range cands {
		r, ok := j.resolvedDir(c)
		if !ok && slices.Contains(made, c) {
			// Off the live path: the hook would have made it.
			r, ok = c, true
		}
		if !ok {
			if slices.Contains(optional, c) {
				continue
			}
			if parent, ok := j.existingParent(c); ok && (inWritable(parent) || slices.Contains(writable, parent)) && !slices.Contains(missing, c) {
				missing = append(missing, c)
			}
			continue
		}
		if !slices.Contains(existing, r) && inWritable(r) {
			existing = append(existing, r)
			if w := cand[c]; w != "" {
				why[r] = w
			}
		}
	}
	return existing, missing
}

// missingRepos returns the ".git" of each writable sandbox root that has
// none: a command can make a repository there (git init), and leave in it
// hooks or configuration that git runs later, outside the sandbox (the
// user's git, a git command the user approves). The kernel cannot stop it
// (Landlock grants by directory), so they are watched: a repository that
// appears holding what git would run (gitconfig.Code) denies every call
// in the project until the user trusts it (checkWatch).
func (j *Judger) missingRepos(res *classify.Result) []string {
	var out []string
	for _, root := range res.Roots {
		if root.ReadOnly {
			continue
		}
		g := filepath.Join(root.Resolved, ".git")
		if _, err := j.Sys.FS.Lstat(strings.TrimPrefix(g, "/")); errors.Is(err, fs.ErrNotExist) && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// existingParent returns the nearest existing directory above the missing
// path p, resolved.
func (j *Judger) existingParent(p string) (string, bool) {
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if r, ok := j.resolvedDir(d); ok {
			return r, true
		}
		if d == "/" || d == "." {
			return "", false
		}
	}
}

// isDir reports whether p is a directory (not followed).
func (j *Judger) isDir(p string) bool {
	fi, err := j.Sys.FS.Lstat(strings.TrimPrefix(p, "/"))
	return err == nil && fi.IsDir()
}

// makeDirIn creates the directory c inside root (mode 0755, as git and
// Claude Code would) when it is missing and its parent is an existing
// directory below or at root, not reached through a symlink; never in the
// root "/" or the home directory. Off the live path (explain, replay) it
// makes nothing and reports whether the hook would have. It returns
// whether c is, or would be, a new directory.
func (j *Judger) makeDirIn(c, root string) bool {
	if root == "/" || root == j.Sys.Getenv("HOME") {
		return false
	}
	if _, ok := j.resolvedDir(c); ok {
		return false
	}
	parent := filepath.Dir(c)
	if r, ok := j.resolvedDir(parent); !ok || r != parent || (r != root && !strings.HasPrefix(r, root+"/")) {
		return false
	}
	if !j.live {
		return true
	}
	return os.Mkdir(c, 0o755) == nil
}

// withCommand returns the tool input of the hook input data with its
// "command" replaced, every other field kept as it was (numbers exactly).
// The tool input is tool_input (Claude Code's shape, and Codex's, Gemini
// CLI's and Copilot CLI's PascalCase event), else toolArgs (Copilot CLI's
// camelCase event), which must be an object.
func withCommand(data []byte, command string) (json.RawMessage, error) {
	var in struct {
		ToolInput map[string]json.RawMessage `json:"tool_input"`
		ToolArgs  map[string]json.RawMessage `json:"toolArgs"`
	}
	if err := json.Unmarshal(data, &in); err != nil || (in.ToolInput == nil && in.ToolArgs == nil) {
		return nil, fmt.Errorf("the tool input cannot be rewritten: %v", err)
	}
	args := in.ToolInput
	if args == nil {
		args = in.ToolArgs
	}
	cmd, err := marshalString(command)
	if err != nil {
		return nil, err
	}
	args["command"] = cmd
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func marshalString(s string) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// describe says, for the reason and the model, where a confined command
// may write and what it cannot read or change.
func (c *confinement) describe(home string) string {
	// At most maxNamed paths of each list are named; the rest are counted
	// (explain lists them all).
	const maxNamed = 8
	short := func(ps []string) string {
		var out []string
		n := 0
		for _, p := range ps {
			if strings.HasPrefix(p, "/dev/") {
				continue
			}
			n++
			if len(out) < maxNamed {
				out = append(out, shortHome(p, home))
			}
		}
		if n > len(out) {
			out = append(out, fmt.Sprintf("%d more", n-len(out)))
		}
		return strings.Join(out, ", ")
	}
	s := "it runs confined by the kernel: "
	if slices.Contains(c.Ruleset.Write, "/") {
		s += "it may write anywhere (no sandbox)"
	} else if w := short(slices.DeleteFunc(slices.Clone(c.Ruleset.Write), func(p string) bool {
		return slices.Contains(c.Ruleset.Tmpfs, p) || slices.Contains(c.Ruleset.Overlay, p)
	})); w != "" {
		s += "it may write only in " + w
	} else {
		s += "it may write nothing (read mode)"
	}
	var secrets, ways []string
	bound := 0
	for _, p := range c.Ruleset.Hide {
		switch {
		case c.Why[p] == "leads to "+boundOutside:
			// Named by no variable nor usual place: counted, not named
			// (explain lists them).
			bound++
		case strings.HasPrefix(c.Why[p], "leads to "):
			ways = append(ways, p)
		default:
			secrets = append(secrets, p)
		}
	}
	for _, p := range c.Ruleset.Tmpfs {
		if strings.HasPrefix(c.Why[p], "leads to ") {
			ways = append(ways, p)
		}
	}
	if len(secrets) > 0 {
		s += "; it can neither read nor write " + short(secrets) + " (the policy's Read deny rules: empty and unreadable to it)"
	}
	switch {
	case len(ways) > 0 && bound > 0:
		s += "; it cannot reach the programs running outside it through " + short(ways) + fmt.Sprintf(", nor the %d other Unix sockets bound outside the sandbox", bound)
	case len(ways) > 0:
		s += "; it cannot reach the programs running outside it through " + short(ways)
	case bound > 0:
		s += fmt.Sprintf("; it cannot reach the programs running outside it through the %d Unix sockets bound outside the sandbox", bound)
	}
	if len(c.Ruleset.Overlay) > 0 {
		s += "; its changes to " + short(c.Ruleset.Overlay) + " are its own (gone when it ends)"
	}
	if len(c.Ruleset.Replace) > 0 {
		for _, k := range slices.Sorted(maps.Keys(c.Ruleset.Replace)) {
			s += "; it reads " + shortHome(k, home) + " without its credentials"
		}
	}
	var noread []string
	for _, p := range c.Ruleset.NoRead {
		if !strings.HasPrefix(c.Why[p], homePrivate) {
			noread = append(noread, p)
			continue
		}
		// The private home directory: what programs need there is read.
		s += "; in " + shortHome(p, home) + " it reads only the sandbox roots and what programs need there (toolchains, their configuration and caches: safezone explain lists them), not the user's other files (ask the user to add a directory to sandbox.read_dirs if the command needs one)"
	}
	if len(noread) > 0 {
		s += "; it cannot read " + short(noread)
	}
	if len(c.Ruleset.ReadOnly) > 0 {
		s += "; it cannot change " + short(c.Ruleset.ReadOnly)
	}
	if c.HostFallback != "" {
		s += "; " + c.HostFallback
	}
	if c.Ruleset.Net != nil && c.Ruleset.Net.Proxy != "" {
		allow := c.NetAllow
		if len(allow) > maxNamed {
			allow = append(slices.Clone(allow[:maxNamed]), fmt.Sprintf("%d more", len(c.NetAllow)-maxNamed))
		}
		s += "; it has a network of its own and connects only through safezone's proxy ($HTTPS_PROXY, $ALL_PROXY) to " + strings.Join(allow, ", ") +
			": other hosts, services on the machine's localhost and the instance metadata address are refused (the proxy answers 403 and says why); a server it leaves running answers at the same port of the machine's 127.0.0.1 (where that port is free), for the user's browser and later commands; ask the user to add a host to network.allow rather than working around a refusal"
	} else if c.NetOff != "" {
		s += "; " + c.NetOff
	}
	if slices.ContainsFunc(c.Ruleset.ReadOnly, gitConfigOrHooks) {
		s += "; git's configuration and hooks (.git/config, .git/hooks) are read-only to it, and so is what that configuration names (the core.hooksPath directory, included files, submodules' and linked worktrees' repositories): git config of a key that runs code and hook installers (husky's core.hooksPath) fail, ask the user to run them; git config of user.name, user.email and other keys git never runs works when it is the whole command"
	}
	return s
}

// gitConfigOrHooks reports whether p is a repository's .git/config or
// .git/hooks.
func gitConfigOrHooks(p string) bool {
	b := filepath.Base(p)
	return filepath.Base(filepath.Dir(p)) == ".git" && (b == "config" || b == "hooks")
}
