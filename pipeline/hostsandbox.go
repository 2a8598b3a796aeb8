package pipeline

// Claude Code's own sandbox (its settings' "sandbox"; issue 28). Claude
// Code 2.1.330 runs each Bash command it sandboxes inside bubblewrap with
// --disable-userns: the whole disk read-only but the project and its
// temporary directory ($TMPDIR=/tmp/claude-UID), the project's .claude
// read-only, and no new user namespace. A confined command there cannot
// have the launcher's mount namespace; Landlock still works. So a command
// that may run inside it gets a ruleset the launcher may reduce to what
// Landlock alone holds (confine.Ruleset.HostSandbox), where what that
// loses is held by Claude Code's sandbox instead: the secrets it hides
// (its denyRead), and Unix sockets, which the launcher then refuses.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// claudeSandboxed names Claude Code's sandbox when the call's command may
// run inside it ("" when it will not): sandbox.enabled in a settings
// layer, and the call does not leave it (dangerouslyDisableSandbox, where
// allowUnsandboxedCommands lets it). A command the settings exclude
// (excludedCommands), or one run where the sandbox is unavailable, runs
// outside: there the launcher's namespace works, and the fallback is not
// taken.
func claudeSandboxed(pol *policy.Policy, call *hookio.Call) string {
	hs := pol.HostSandbox
	if !hs.Enabled.Value || call == nil || call.Kind != hookio.KindShell {
		return ""
	}
	if call.LeaveHostSandbox && hs.AllowUnsandboxed.Value {
		return ""
	}
	return "Claude Code's sandbox (sandbox.enabled, " + hs.Enabled.Pos.String() + ")"
}

// hostFallback checks what c's ruleset loses where the command runs inside
// the host's sandbox sandboxName, and returns what to tell the model of it.
// The error names what neither Landlock nor the host's sandbox would hold
// there:
//   - a secret in a directory the command may write (Landlock cannot hide
//     it) that Claude Code's sandbox does not hide either (its denyRead,
//     less its allowRead);
//   - a read-only path (code a later unconfined program runs) in a
//     directory Claude Code's sandbox lets a command write (the project,
//     its temporary directory, the additional directories, allowWrite)
//     that it does not keep read-only itself (its fixed list, denyWrite);
//   - a code cache the launcher would overlay, there;
//   - safezone's own files, there.
//
// Sockets are not a loss: the launcher refuses Unix sockets there when
// it hides any (confine.Ruleset.HostSandbox).
func (j *Judger) hostFallback(c *confinement, pol *policy.Policy, sandboxName, project string) (string, error) {
	home := j.Sys.Getenv("HOME")
	hs := &pol.HostSandbox
	writable := hostWritable(pol, project, home, claudeTempDir(j.Sys))
	_, lost := c.Ruleset.WithoutNamespace()
	var covered, secrets, readOnly, caches []string
	for _, p := range lost {
		if j.isSocket(p) {
			continue
		}
		if by, ok := hostHides(hs, p, project, home); ok {
			covered = append(covered, shortHome(p, home)+" ("+by+")")
			continue
		}
		secrets = append(secrets, p)
	}
	for _, p := range c.Ruleset.ReadOnly {
		if writable(p) && !claudeKeepsReadOnly(hs, p, project) && !hostMatches(hs.DenyWrite, p, project, home) {
			readOnly = append(readOnly, p)
		}
	}
	for _, p := range c.Ruleset.Overlay {
		if writable(p) && !hostMatches(hs.DenyWrite, p, project, home) {
			caches = append(caches, p)
		}
	}
	for _, o := range []string{j.Sys.Executable, j.Sys.StateDir()} {
		if o != "" && writable(o) {
			return "", fmt.Errorf("it may run inside %s, where no user namespace can be made, and there %s (safezone's own) lies where Claude Code's sandbox lets a command write; install safezone, and keep its state, outside the project and the sandbox's allowWrite", sandboxName, shortHome(o, home))
		}
	}
	var lacks []string
	if len(secrets) > 0 {
		lacks = append(lacks, "hide "+hiddenList(secrets, home)+" (add them to sandbox.filesystem.denyRead)")
	}
	if len(readOnly) > 0 {
		lacks = append(lacks, "keep "+hiddenList(readOnly, home)+" read-only (add them to sandbox.filesystem.denyWrite)")
	}
	if len(caches) > 0 {
		lacks = append(lacks, "keep the code cache "+hiddenList(caches, home)+" from being changed for later programs (take it out of sandbox.filesystem.allowWrite)")
	}
	if len(lacks) > 0 {
		return "", fmt.Errorf("it may run inside %s, where no user namespace can be made; there the kernel alone cannot, nor does Claude Code's sandbox, %s; `safezone init --host-sandbox` writes the entries for this project, or let sandboxed commands make user namespaces (sandbox.allowNestedUserNamespaces in ~/.claude/settings.json)",
			sandboxName, strings.Join(lacks, ", nor "))
	}
	s := "if it runs inside " + sandboxName + ", where no user namespace can be made, Landlock alone confines it, with Claude Code's sandbox: what it may write and the secrets outside those directories hold as above"
	if len(covered) > 0 {
		s += "; " + strings.Join(covered, ", ") + " hidden by Claude Code's sandbox instead"
	}
	if j.hidesSocket(c.Ruleset) {
		s += "; it cannot create Unix sockets (seccomp), since those leading outside cannot be hidden there (a socket a grant keeps reachable is not reachable either)"
	}
	s += "; the read-only paths are kept read-only by Claude Code's sandbox"
	return s, nil
}

// isSocket reports whether p is a Unix socket.
func (j *Judger) isSocket(p string) bool {
	st, err := j.Sys.FS.Lstat(strings.TrimPrefix(p, "/"))
	return err == nil && st.Mode()&fs.ModeSocket != 0
}

// hidesSocket reports whether rs hides a socket, or gives a directory of
// sockets a tmpfs (all but /dev/shm): where the launcher falls back to
// Landlock alone, it then refuses Unix sockets (confine's rule, said here
// for the model).
func (j *Judger) hidesSocket(rs confine.Ruleset) bool {
	return slices.ContainsFunc(rs.Hide, j.isSocket) || slices.ContainsFunc(rs.Tmpfs, func(p string) bool { return p != "/dev/shm" })
}

// hostWritable returns whether Claude Code's sandbox lets a command write a
// path (sandboxing docs, "Filesystem isolation"): the project, its
// temporary directory, the additional directories of its settings
// (directories added with --add-dir the hook cannot see), and allowWrite
// with the Edit allow rules. An allowWrite entry the hook cannot place
// makes every path count as writable.
func hostWritable(pol *policy.Policy, project, home, tmp string) func(string) bool {
	dirs := []string{project, tmp}
	for _, d := range pol.AdditionalDirectories {
		if d.Host {
			dirs = append(dirs, policy.ExpandDir(d, home, project))
		}
	}
	var globs []string
	for _, w := range pol.HostSandbox.AllowWrite {
		g := hostGlob(w, project, home)
		if g == "" {
			return func(string) bool { return true }
		}
		globs = append(globs, g)
	}
	return func(p string) bool {
		if slices.ContainsFunc(dirs, func(d string) bool { return inDir(p, d) }) {
			return true
		}
		return slices.ContainsFunc(globs, func(g string) bool { return globCovers(g, p) })
	}
}

// claudeKeepsReadOnly reports whether Claude Code's sandbox keeps p, in the
// project, read-only of itself (Claude Code 2.1.330's fixed list, relative
// to its working directory, the project: the files .gitconfig,
// .gitmodules, .bashrc, .bash_profile, .zshrc, .zprofile, .profile,
// .ripgreprc and .mcp.json at any depth, everything below .claude, .vscode
// and .idea, .git/hooks, and .git/config unless allowGitConfig).
func claudeKeepsReadOnly(hs *policy.HostSandbox, p, project string) bool {
	if !inDir(p, project) || p == project {
		return false
	}
	rel := strings.TrimPrefix(p, project+"/")
	parts := strings.Split(rel, "/")
	for i, el := range parts {
		switch el {
		case ".claude", ".vscode", ".idea":
			return true
		case ".git":
			if i+1 < len(parts) && parts[i+1] == "hooks" {
				return true
			}
			if i+2 == len(parts) && parts[i+1] == "config" && !hs.GitConfigWritable.Value {
				return true
			}
		}
	}
	switch parts[len(parts)-1] {
	case ".gitconfig", ".gitmodules", ".bashrc", ".bash_profile", ".zshrc", ".zprofile", ".profile", ".ripgreprc", ".mcp.json":
		return true
	}
	return false
}

// inDir reports whether p is dir or beneath it, by whole path elements.
func inDir(p, dir string) bool {
	return dir != "" && (p == dir || dir == "/" || strings.HasPrefix(p, dir+"/"))
}

// claudeTempDir is the temporary directory Claude Code gives sandboxed
// commands ($TMPDIR there): /tmp/claude-UID.
func claudeTempDir(s *System) string {
	return fmt.Sprintf("/tmp/claude-%d", s.uid)
}

// hostHides reports whether Claude Code's sandbox keeps the absolute path
// p from being read, and by which entry (as written, with where): a
// denyRead entry (or Read deny rule) covers it, and no allowRead entry
// reads it again (one the hook cannot place counts as reading everything
// again).
func hostHides(hs *policy.HostSandbox, p, project, home string) (string, bool) {
	for _, a := range hs.AllowRead {
		if g := hostGlob(a, project, home); g == "" || globCovers(g, p) {
			return "", false
		}
	}
	for _, d := range hs.DenyRead {
		if g := hostGlob(d, project, home); g != "" && globCovers(g, p) {
			return d.String(), true
		}
	}
	return "", false
}

// hostMatches reports whether one of entries covers p (see hostGlob).
func hostMatches(entries []policy.HostPath, p, project, home string) bool {
	return slices.ContainsFunc(entries, func(e policy.HostPath) bool {
		g := hostGlob(e, project, home)
		return g != "" && globCovers(g, p)
	})
}

// globCovers reports whether the absolute glob g matches p or a directory
// above it (an entry naming a directory covers what is below it).
func globCovers(g, p string) bool {
	for q := p; ; q = path.Dir(q) {
		if ok, err := doublestar.Match(g, q); err == nil && ok {
			return true
		}
		if q == "/" || q == "." {
			return false
		}
	}
}

// hostGlob is the absolute glob of an entry of Claude Code's sandbox
// settings, "" for a spelling the hook does not count. It counts only the
// spellings measured under Claude Code 2.1.330: "//abs", "~/path", and, in
// the project's settings, "path" and "./path" relative to the project
// root ("**/" reaching any depth below it), with "*", "?" and "[...]".
// "/path" (relative to the settings file), a relative path in the user's
// or managed settings, braces and backslash escapes (which Claude Code's
// globs do not take as doublestar does) are not counted: the hook does not
// claim what it has not seen held.
func hostGlob(d policy.HostPath, project, home string) string {
	t := strings.TrimSuffix(d.Text, "/**")
	switch {
	case t == "" || strings.ContainsAny(t, "{}\\\x00"):
		return ""
	case strings.HasPrefix(t, "//"):
		return path.Clean(t[1:])
	case t == "~" || strings.HasPrefix(t, "~/"):
		if home == "" || !path.IsAbs(home) {
			return ""
		}
		return path.Join(home, strings.TrimPrefix(t, "~"))
	case strings.HasPrefix(t, "/"), strings.HasPrefix(t, "~"):
		return ""
	}
	if d.Scope != policy.ScopeProject && d.Scope != policy.ScopeLocal || project == "" {
		return ""
	}
	if slices.Contains(strings.Split(t, "/"), "..") {
		return ""
	}
	return path.Join(project, t)
}

// HostSandboxSettings returns the entries of Claude Code's sandbox
// settings that hold, inside its sandbox, what the launcher's mount
// namespace holds outside it for the project at root (see hostFallback):
//   - denyRead: the policy's Read deny rules that reach into the project,
//     in the spellings measured under Claude Code 2.1.330 for the project's
//     settings: a name pattern that matches at any depth (".env*") becomes
//     "**/.env*", one anchored at the project root ("secrets/**")
//     "./secrets/**". Rules on paths outside the project (~/.ssh) need
//     none: Landlock denies reading them there.
//   - denyWrite: the read-only paths of a command confined in the project
//     now (the policy's protected paths, safezone's and the hosts' files,
//     git's configuration and hooks as derived from the repositories) that
//     lie in the project and that Claude Code's sandbox does not keep
//     read-only of itself, each "./path".
//
// The missing ones are those its settings do not cover yet. The error says
// why the policy cannot be loaded, or why no command would run confined
// here.
func HostSandboxSettings(opts *Options, sys *System, root string) (denyRead, missingRead, denyWrite, missingWrite []string, err error) {
	pol, err := LoadPolicy(opts, root, sys, nil)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("the policy cannot be used: %w", err)
	}
	home := sys.Getenv("HOME")
	hs := &pol.HostSandbox
	for _, r := range pol.Deny {
		if r.Kind != policy.RulePath || r.Access != policy.Read {
			continue
		}
		var e string
		switch r.Path.Anchor {
		case policy.AnyDepth:
			e = "**/" + r.Path.Glob
		case policy.ProjectRoot:
			e = "./" + r.Path.Glob
		default:
			continue
		}
		if slices.Contains(denyRead, e) {
			continue
		}
		denyRead = append(denyRead, e)
		if !slices.ContainsFunc(hs.DenyRead, func(h policy.HostPath) bool { return h.Text == e }) {
			missingRead = append(missingRead, e)
		}
	}
	// The ruleset of a script confined in the project, as outside the
	// host's sandbox.
	in, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": root, "permission_mode": "bypassPermissions",
		"session_id": "safezone-init", "tool_input": map[string]any{"command": "sh safezone-init-probe.sh"},
	})
	j := &Judger{Opts: opts, Sys: sys, outsideHost: true}
	v := j.Decide(in, nil, root)
	if v.conf == nil {
		_, reason := Outcome(v)
		return denyRead, missingRead, nil, nil, fmt.Errorf("no command runs confined in %s (%s), so its read-only paths cannot be listed", root, reason)
	}
	for _, p := range v.conf.Ruleset.ReadOnly {
		if !inDir(p, root) || p == root || claudeKeepsReadOnly(hs, p, root) {
			continue
		}
		e := "./" + strings.TrimPrefix(p, root+"/")
		denyWrite = append(denyWrite, e)
		if !hostMatches(hs.DenyWrite, p, root, home) {
			missingWrite = append(missingWrite, e)
		}
	}
	return denyRead, missingRead, denyWrite, missingWrite, nil
}
