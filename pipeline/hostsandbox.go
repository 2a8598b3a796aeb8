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
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

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
// The error names what neither Landlock nor the host's sandbox would hold:
// a secret in a writable directory the host's sandbox does not hide, or
// safezone's own files where the host's sandbox lets the command write.
func (j *Judger) hostFallback(c *confinement, pol *policy.Policy, sandboxName, project string) (string, error) {
	home := j.Sys.Getenv("HOME")
	_, lost := c.Ruleset.WithoutNamespace()
	var covered, uncovered []string
	sockets := 0
	for _, p := range lost {
		if st, err := j.Sys.FS.Lstat(strings.TrimPrefix(p, "/")); err == nil && st.Mode()&fs.ModeSocket != 0 {
			sockets++
			continue
		}
		if by, ok := hostHides(pol.HostSandbox.DenyRead, p, project, home); ok {
			covered = append(covered, shortHome(p, home)+" ("+by+")")
			continue
		}
		uncovered = append(uncovered, p)
	}
	if len(uncovered) > 0 {
		return "", fmt.Errorf("it may run inside %s, where no user namespace can be made, and there the kernel cannot hide %s, nor does Claude Code's sandbox; add them to sandbox.filesystem.denyRead in Claude Code's settings (`safezone init --host-sandbox` writes the entries for the policy's read-deny rules), or let sandboxed commands make user namespaces (sandbox.allowNestedUserNamespaces in ~/.claude/settings.json)",
			sandboxName, hiddenList(uncovered, home))
	}
	// safezone's own files (the binary, the launcher, the state directory)
	// where Claude Code's sandbox lets a command write: the project and its
	// temporary directory.
	own := []string{j.Sys.Executable, j.Sys.StateDir()}
	for _, p := range c.Ruleset.ReadOnly {
		if !slices.ContainsFunc(own, func(o string) bool { return o != "" && (p == o || strings.HasPrefix(p, o+"/")) }) {
			continue
		}
		if inDir(p, project) || inDir(p, claudeTempDir(j.Sys)) {
			return "", fmt.Errorf("it may run inside %s, where no user namespace can be made, and there %s, which safezone keeps read-only, lies where Claude Code's sandbox lets a command write; install safezone outside the project", sandboxName, shortHome(p, home))
		}
	}
	s := "if it runs inside " + sandboxName + ", where no user namespace can be made, Landlock alone confines it: what it may write and the secrets outside those directories hold as above"
	if len(covered) > 0 {
		s += "; " + strings.Join(covered, ", ") + " hidden by Claude Code's sandbox instead"
	}
	if sockets > 0 {
		s += fmt.Sprintf("; it cannot create Unix sockets (seccomp), as %d socket(s) leading outside could not be hidden", sockets)
	}
	var ro []string
	for _, p := range c.Ruleset.ReadOnly {
		if inDir(p, project) && !inDir(p, path.Join(project, ".claude")) {
			ro = append(ro, p)
		}
	}
	if len(ro) > 0 {
		s += "; " + hiddenList(ro, home) + " stay read-only only by the analysis (the project's .claude is read-only in Claude Code's sandbox)"
	}
	return s, nil
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

// hostHides reports whether one of Claude Code's sandbox read denies
// covers the absolute path p, and which (as written, with where). It
// counts only the spellings measured under Claude Code 2.1.330: "//abs",
// "~/path", and, in the project's settings, "path" and "./path" relative
// to the project root ("**/" reaching any depth below it). "/path"
// (relative to the settings file) and a relative path in the user's or
// managed settings are not counted: the hook does not claim what it has
// not seen held.
func hostHides(denies []policy.HostPath, p, project, home string) (string, bool) {
	for _, d := range denies {
		g := hostGlob(d, project, home)
		if g == "" {
			continue
		}
		for q := p; ; q = path.Dir(q) {
			if ok, err := doublestar.Match(g, q); err == nil && ok {
				return d.String(), true
			}
			if q == "/" || q == "." {
				break
			}
		}
	}
	return "", false
}

// hostGlob is the absolute glob of a sandbox read deny, "" for a spelling
// hostHides does not count.
func hostGlob(d policy.HostPath, project, home string) string {
	t := strings.TrimSuffix(d.Text, "/**")
	switch {
	case t == "" || strings.ContainsRune(t, 0):
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

// HostSandboxDenyRead returns the entries of Claude Code's
// sandbox.filesystem.denyRead that hold pol's Read deny rules inside the
// project, where Landlock alone cannot (see hostFallback), in the
// spellings measured under Claude Code 2.1.330 for the project's settings:
// a name pattern that matches at any depth (".env*") becomes "**/.env*",
// one anchored at the project root ("secrets/**") "./secrets/**". Rules on
// paths outside the project (~/.ssh) need none: Landlock denies reading
// them there. missing are the entries no layer of Claude Code's settings
// has yet (compared as written).
func HostSandboxDenyRead(pol *policy.Policy) (all, missing []string) {
	have := map[string]bool{}
	for _, d := range pol.HostSandbox.DenyRead {
		have[d.Text] = true
	}
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
		if slices.Contains(all, e) {
			continue
		}
		all = append(all, e)
		if !have[e] {
			missing = append(missing, e)
		}
	}
	return all, missing
}
