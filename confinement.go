package main

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
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// maxSecretMatches bounds the files one denied-read glob (Read(~/.cargo/
// credentials*)) adds to a ruleset.
const maxSecretMatches = 64

// readOnlyInRoot are the paths inside each writable sandbox root that stay
// read-only for a confined command: the host's project settings and hooks
// (.claude), git's configuration and hooks, which run code on the user's
// next git command (commondir would point git at another configuration;
// the rest of .git stays writable: a build may commit),
// safezone's policy files and the other hosts' hook registrations.
var readOnlyInRoot = []string{".claude", ".git/config", ".git/hooks", ".git/commondir", ".git/config.worktree",
	policy.ProjectFile, policy.LocalFile, ".mcp.json", "hooks.json", "hooks/hooks.json",
	".codex", ".gemini/settings.json", ".github/hooks", ".cursor/hooks.json", ".cursor/sandbox.json"}

// codeCaches are directories inside the default confine.write caches that
// hold code a later unconfined process runs: the packages npx runs (Claude
// Code starts npx-configured MCP servers from there) and pre-commit's hook
// environments. Where they exist they stay read-only; a confined npx or
// pre-commit cannot add to them.
var codeCaches = []string{"~/.npm/_npx", "~/.cache/pre-commit"}

// makeInRoot are the directories of readOnlyInRoot the hook creates, empty,
// where their parent exists, so that the kernel can keep them read-only and
// Claude Code's own settings file, made later in .claude, is not missing:
// git ignores an empty directory.
var makeInRoot = []string{".claude", ".git/hooks"}

// confinement is how a confined call is run and explained.
type confinement struct {
	Ruleset confine.Ruleset
	Command string          // the rewritten command
	Input   json.RawMessage // tool_input with the command replaced
	// Missing are the read-only paths that did not exist: the kernel
	// cannot stop the command from creating them, the watch list records
	// them (see watch.go).
	Missing []string
	// ReadOnlyOff says why ReadOnly paths are not enforced by the kernel
	// here ("" when they are).
	ReadOnlyOff string
}

// confinable says whether a shell command of call could run confined here:
// the host runs a rewritten command (Claude Code's updatedInput, Codex's
// and Gemini CLI's equivalents), the shell that runs it can run the
// rewritten form (bash where the host runs the user's $SHELL; see
// hookio.ShellOf), and the kernel confines (confine.Available). Its second
// result says why not.
func (s *system) confinable(call *hookio.Call, host hookio.Host) (bool, string) {
	if ok, why := s.confinableHere(call, host); !ok {
		return false, why
	}
	return s.kernelConfines()
}

// confinableHere is confinable without asking the kernel: the host and the
// shell.
func (s *system) confinableHere(call *hookio.Call, host hookio.Host) (bool, string) {
	if call == nil || call.Kind != hookio.KindShell {
		return false, ""
	}
	if r, ok := host.(hookio.Rewriter); !ok || !r.RewritesShell() {
		return false, "the host " + host.Name() + " cannot run a rewritten command"
	}
	if sh := s.getenv("SHELL"); hookio.ShellOf(host) == hookio.ShellUser && sh != "" && path.Base(sh) != "bash" {
		return false, "the Bash tool runs " + sh + ", and a confined command needs bash"
	}
	return true, ""
}

// kernelConfines is the kernel's part of confinable (confine.Available,
// once per process): a probe that starts and ends a thread.
func (s *system) kernelConfines() (bool, string) {
	if st := s.confineStatus(); !st.Confine() {
		return false, st.Landlock.Error()
	}
	return true, ""
}

// confineMatters reports whether whether the kernel confines could change
// res, decided as if it did: only for a shell command with a target
// safezone cannot know, or one that runs a program whose own accesses it
// cannot see, or under confine.mode always. classify looks at Env.Confinable
// for those commands only (the unknown row, allow rules over unknown
// targets, confine.mode), so for any other command the kernel's answer is
// not needed.
func confineMatters(res *classify.Result, pol *policy.Policy) bool {
	if res.Confine || pol.Confine.Mode.Value == policy.ConfineAlways || res.Shell == nil || !res.Shell.Known() {
		return true
	}
	for _, c := range res.Shell.Commands {
		if c.Runs != "" {
			return true
		}
	}
	return false
}

// confinementFor builds the ruleset of a confined call and rewrites its
// command in the form the host's shell runs (confine.Rewrite for bash,
// confine.RewritePOSIX for a shell the hook cannot name). hostSandbox names
// the host's own sandbox the command will run in ("" for none): read-only
// paths then cannot be kept by the kernel. data is the hook input (for the
// tool input to carry the new command).
// The project's watch list gets the read-only paths that are missing (see
// watch.go); an error writing it is an error: the command is then not
// confined.
func (j *judger) confinementFor(res *classify.Result, call *hookio.Call, host hookio.Host, hostSandbox string, pol *policy.Policy, data []byte, project string) (*confinement, error) {
	if j.sys.executable == "" || !filepath.IsAbs(j.sys.executable) {
		return nil, errors.New("cannot tell where this safezone binary is: the launcher needs its absolute path")
	}
	c := &confinement{}
	roErr := j.sys.confineStatus().ReadOnly
	if roErr == nil && hostSandbox != "" {
		// The hook runs outside the host's sandbox, the command inside,
		// where a new user namespace is refused (Codex 0.171.0's
		// read-only and workspace-write sandboxes: EPERM).
		roErr = fmt.Errorf("the command runs inside %s, where user namespaces are not available", hostSandbox)
	}
	c.Ruleset, c.Missing = j.ruleset(res, pol)
	if roErr != nil {
		c.ReadOnlyOff = roErr.Error()
		c.Ruleset.ReadOnly = nil
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
	if j.live {
		if err := j.sys.recordWatch(project, c.Missing); err != nil {
			return nil, fmt.Errorf("the files it could create cannot be watched: %w", err)
		}
	}
	c.Ruleset = c.Ruleset.Normalize()
	if err := c.Ruleset.Validate(); err != nil {
		return nil, err
	}
	rewrite := confine.Rewrite
	if hookio.ShellOf(host) == hookio.ShellPOSIX {
		rewrite = confine.RewritePOSIX
	}
	cmd, err := rewrite(call.Command, j.sys.executable, c.Ruleset)
	if err != nil {
		return nil, err
	}
	c.Command = cmd
	if c.Input, err = withCommand(data, cmd); err != nil {
		return nil, err
	}
	return c, nil
}

// ruleset computes what the confined command may do: write in the sandbox
// roots, the temporary directories, the devices and confine.write; not read
// the secrets the deny rules name by an absolute or home path; not write
// safezone's own files and the host's and git's configuration inside the
// roots. Its second result lists those that do not exist (see readOnly).
//
// A confine.write directory that does not exist is created when its parent
// does (~/.cache in a new home directory: a tool that finds no cache
// directory creates one, and could not); else it is left out.
func (j *judger) ruleset(res *classify.Result, pol *policy.Policy) (confine.Ruleset, []string) {
	var rs confine.Ruleset
	home := j.sys.getenv("HOME")
	addWrite := func(p string) {
		if r, ok := j.resolvedDir(p); ok {
			rs.Write = append(rs.Write, r)
		}
	}
	for _, root := range res.Roots {
		if !root.ReadOnly {
			rs.Write = append(rs.Write, root.Resolved)
		}
	}
	for _, tmp := range []string{j.sys.getenv("TMPDIR"), "/tmp", "/var/tmp"} {
		if filepath.IsAbs(tmp) {
			addWrite(tmp)
		}
	}
	rs.Write = append(rs.Write, confine.Devices()...)
	project := ""
	if len(res.Roots) > 0 {
		project = res.Roots[0].Resolved
	}
	for _, d := range pol.Confine.Write {
		if p := policy.ExpandDir(d, home, project); p != "" {
			j.makeDir(p)
			addWrite(p)
		}
	}
	rs.NoRead = j.secrets(pol, home)
	var missing []string
	rs.ReadOnly, missing = j.readOnly(res, pol, rs.Write)
	return rs, missing
}

// stateInside returns safezone's state directory, made if missing and
// resolved, when it lies inside one of the directories writable.
func (j *judger) stateInside(writable []string) (string, bool) {
	sd := j.sys.stateDir()
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
func (j *judger) makeDir(p string) {
	if !j.live {
		return
	}
	if _, ok := j.resolvedDir(p); ok {
		return
	}
	if _, ok := j.resolvedDir(filepath.Dir(p)); ok {
		_ = os.Mkdir(p, 0o700)
	}
}

// resolvedDir returns p with symlinks resolved, if it exists.
func (j *judger) resolvedDir(p string) (string, bool) {
	r, err := classify.Resolve(j.sys.fsys, p)
	if err != nil || !r.Exists {
		return "", false
	}
	return r.Path, true
}

// secrets are the existing paths that deny Read rules name by an absolute or
// home path: their literal prefix, or the files their glob matches there
// (bounded). Project-anchored and name patterns (.env*) are guarded by the
// analysis only: denying them to the kernel inside a writable root would
// make every new file beside them unreadable.
func (j *judger) secrets(pol *policy.Policy, home string) []string {
	var out []string
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
		switch {
		case rest == "" || rest == "**":
			if p, ok := j.resolvedDir(dir); ok {
				out = append(out, p)
			}
		default:
			out = append(out, j.matches(dir, rest)...)
		}
	}
	return out
}

// matches returns the resolved paths below dir that the glob rest matches,
// at most maxSecretMatches.
func (j *judger) matches(dir, rest string) []string {
	d, ok := j.resolvedDir(dir)
	if !ok {
		return nil
	}
	var out []string
	full := glob.Escape(strings.TrimPrefix(d, "/")) + "/" + rest
	_ = doublestar.GlobWalk(j.sys.fsys, full, func(p string, _ fs.DirEntry) error {
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
// writable root and the literal absolute self-protection patterns (cands),
// those of them that may be missing without being watched (optional: .git
// files where there is no repository), and the code caches that count
// only when they exist (existingOnly).
func (j *judger) readOnlyCandidates(res *classify.Result, pol *policy.Policy) (cands, optional, existingOnly []string) {
	for _, root := range res.Roots {
		if root.ReadOnly {
			continue
		}
		gitDir := j.isDir(filepath.Join(root.Resolved, ".git"))
		for _, rel := range readOnlyInRoot {
			c := filepath.Join(root.Resolved, rel)
			if slices.Contains(makeInRoot, rel) {
				j.makeDirIn(c, root.Resolved)
			}
			cands = append(cands, c)
			if strings.HasPrefix(rel, ".git/") && !gitDir {
				optional = append(optional, c)
			}
		}
	}
	if home := j.sys.getenv("HOME"); filepath.IsAbs(home) {
		for _, c := range codeCaches {
			if r, ok := j.resolvedDir(filepath.Join(home, strings.TrimPrefix(c, "~/"))); ok {
				existingOnly = append(existingOnly, r)
			}
		}
	}
	for i := range pol.Protected {
		p := &pol.Protected[i]
		if p.Pos.File == policy.SelfProtectionSource && p.Anchor == policy.Absolute {
			if prefix, rest := glob.LiteralPrefix(p.Glob); rest == "" || rest == "**" {
				cands = append(cands, prefix)
			}
		}
	}
	return cands, optional, existingOnly
}

// readOnly lists the existing files inside the write roots that stay
// read-only (resolved): readOnlyInRoot in each writable sandbox root and
// the literal absolute self-protection patterns. Its second result lists
// the ones that do not exist but could be created (absolute, clean): their
// nearest existing parent lies in a write root. The missing directories of
// makeInRoot are first created. In a root that is no git repository (no
// .git directory), .git/config and .git/hooks are not listed: a confined
// program can make a repository with hooks there (README, "What the kernel
// enforces").
func (j *judger) readOnly(res *classify.Result, pol *policy.Policy, writable []string) (existing, missing []string) {
	cands, optional, existingOnly := j.readOnlyCandidates(res, pol)
	inWritable := func(r string) bool {
		return slices.ContainsFunc(writable, func(w string) bool { return r != w && (w == "/" || strings.HasPrefix(r, w+"/")) })
	}
	for _, r := range existingOnly {
		if !slices.Contains(existing, r) && inWritable(r) {
			existing = append(existing, r)
		}
	}
	for _, c := range cands {
		r, ok := j.resolvedDir(c)
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
		}
	}
	return existing, missing
}

// existingParent returns the nearest existing directory above the missing
// path p, resolved.
func (j *judger) existingParent(p string) (string, bool) {
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
func (j *judger) isDir(p string) bool {
	fi, err := j.sys.fsys.Lstat(strings.TrimPrefix(p, "/"))
	return err == nil && fi.IsDir()
}

// makeDirIn creates the directory c inside root (mode 0755, as git and
// Claude Code would) when it is missing and its parent is an existing
// directory below or at root, not reached through a symlink; never in the
// root "/" or the home directory, and on the live path only.
func (j *judger) makeDirIn(c, root string) {
	if !j.live || root == "/" || root == j.sys.getenv("HOME") {
		return
	}
	if _, ok := j.resolvedDir(c); ok {
		return
	}
	parent := filepath.Dir(c)
	if r, ok := j.resolvedDir(parent); ok && r == parent && (r == root || strings.HasPrefix(r, root+"/")) {
		_ = os.Mkdir(c, 0o755)
	}
}

// withCommand returns the tool input of the hook input data with its
// "command" replaced, every other field kept as it was (numbers exactly).
func withCommand(data []byte, command string) (json.RawMessage, error) {
	var in struct {
		ToolInput map[string]json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal(data, &in); err != nil || in.ToolInput == nil {
		return nil, fmt.Errorf("the tool input cannot be rewritten: %v", err)
	}
	cmd, err := marshalString(command)
	if err != nil {
		return nil, err
	}
	in.ToolInput["command"] = cmd
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in.ToolInput); err != nil {
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
	short := func(ps []string) string {
		var out []string
		for _, p := range ps {
			if strings.HasPrefix(p, "/dev/") {
				continue
			}
			if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
				p = "~" + strings.TrimPrefix(p, home)
			}
			out = append(out, p)
		}
		return strings.Join(out, ", ")
	}
	s := "it runs confined by the kernel: it may write only in " + short(c.Ruleset.Write)
	if len(c.Ruleset.NoRead) > 0 {
		s += "; it cannot read " + short(c.Ruleset.NoRead)
	}
	if len(c.Ruleset.ReadOnly) > 0 {
		s += "; it cannot change " + short(c.Ruleset.ReadOnly)
	}
	return s
}
