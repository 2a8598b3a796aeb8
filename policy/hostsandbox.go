package policy

import (
	"fmt"
	"strings"
)

// HostSandbox is what safezone knows of Claude Code's own sandbox (its
// settings' "sandbox" object; Claude Code 2.1.330, settings reference
// "Sandbox settings", and the sandboxing docs): whether the Bash commands
// it runs may run inside it, and which paths it keeps from being read
// there. Package pipeline uses it to confine a command that runs inside
// the host's sandbox, where a new user namespace is refused (bubblewrap
// --disable-userns), and to tell which secrets the host's sandbox hides
// where Landlock alone cannot.
type HostSandbox struct {
	// Enabled is sandbox.enabled: true when any layer sets it true (Claude
	// Code treats the key as restrictive: a true anywhere keeps it on, as
	// far as a command's confinement is concerned). Pos is where.
	Enabled Setting[bool]
	// AllowUnsandboxed is sandbox.allowUnsandboxedCommands: whether a call
	// with dangerouslyDisableSandbox runs outside the sandbox. Default
	// true; a false in any layer holds.
	AllowUnsandboxed Setting[bool]
	// NestedUserNS is sandbox.allowNestedUserNamespaces, honoured (as by
	// Claude Code) only from the managed and the user settings: sandboxed
	// commands may then create user namespaces, so the launcher's own
	// mount namespace works inside.
	NestedUserNS Setting[bool]
	// DenyRead are the paths Claude Code's sandbox keeps from being read:
	// sandbox.filesystem.denyRead, and the specifiers of the Read(...)
	// deny rules of permissions.deny, which it merges into them.
	DenyRead []HostPath
	// AllowRead are sandbox.filesystem.allowRead: paths read again inside
	// a denyRead region.
	AllowRead []HostPath
	// DenyWrite are sandbox.filesystem.denyWrite and the Edit(...) deny
	// rules; AllowWrite sandbox.filesystem.allowWrite and the Edit(...)
	// allow rules, which it merges in the same way (settings reference).
	DenyWrite, AllowWrite []HostPath
	// GitConfigWritable is sandbox.filesystem.allowGitConfig: .git/config
	// is then writable inside the sandbox.
	GitConfigWritable Setting[bool]
}

// HostPath is one path of Claude Code's sandbox settings as written, with
// the scope of the file it comes from (which a relative path is relative
// to). Its syntax (sandboxing docs, "Path prefixes"): "//path" is
// absolute, "~/path" is in the home directory, "/path" is relative to the
// settings file's directory, "./path" and "path" are relative (to the
// project root for the project's settings: measured under Claude Code
// 2.1.330, denyRead ".env*" hides the project's .env but not sub/.env, and
// "**/.env*" hides both).
type HostPath struct {
	Text  string
	Pos   Pos
	Scope Scope
}

// String returns the path as written and where.
func (h HostPath) String() string { return fmt.Sprintf("%s (%s)", h.Text, h.Pos) }

// hostSandboxDefaults is HostSandbox before any layer.
func hostSandboxDefaults() HostSandbox {
	return HostSandbox{AllowUnsandboxed: Setting[bool]{Value: true, Pos: Pos{File: "<Claude Code's default>"}}}
}

// mergeHostSandbox adds the sandbox settings of the Claude Code settings
// layer l to p.
func mergeHostSandbox(p *Policy, l *Layer) {
	if !l.ClaudeSettings {
		return
	}
	s := l.claudeSandbox
	if s != nil {
		if s.enabled != nil && s.enabled.Value && !p.HostSandbox.Enabled.Value {
			p.HostSandbox.Enabled = *s.enabled
		}
		if s.allowUnsandboxed != nil && !s.allowUnsandboxed.Value {
			p.HostSandbox.AllowUnsandboxed = *s.allowUnsandboxed
		}
		if s.nested != nil && (l.Scope == ScopeManaged || l.Scope == ScopeUser) {
			p.HostSandbox.NestedUserNS = *s.nested
		}
		hs := &p.HostSandbox
		for key, dst := range map[string]*[]HostPath{"denyRead": &hs.DenyRead, "allowRead": &hs.AllowRead, "denyWrite": &hs.DenyWrite, "allowWrite": &hs.AllowWrite} {
			for _, e := range s.filesystem["sandbox.filesystem."+key] {
				*dst = append(*dst, HostPath{Text: e.value, Pos: e.pos, Scope: l.Scope})
			}
		}
		if g := s.filesystem["sandbox.filesystem.allowGitConfig"]; len(g) > 0 {
			hs.GitConfigWritable = Setting[bool]{Value: true, Pos: g[0].pos}
		}
	}
	ruleSpecs := func(rules []Rule, tools []string, dst *[]HostPath) {
		for _, r := range rules {
			for _, tool := range tools {
				if spec, ok := strings.CutPrefix(r.Text, tool+"("); ok && strings.HasSuffix(spec, ")") && len(spec) > 1 {
					*dst = append(*dst, HostPath{Text: strings.TrimSuffix(spec, ")"), Pos: r.Pos, Scope: l.Scope})
				}
			}
		}
	}
	ruleSpecs(l.Deny, []string{"Read"}, &p.HostSandbox.DenyRead)
	ruleSpecs(l.Deny, []string{"Edit", "Write"}, &p.HostSandbox.DenyWrite)
	ruleSpecs(l.Allow, []string{"Edit", "Write"}, &p.HostSandbox.AllowWrite)
}

// claudeSandbox is the part of a settings file's "sandbox" object that
// safezone reads.
type claudeSandbox struct {
	enabled, allowUnsandboxed, nested *Setting[bool]
	// filesystem holds sandbox.filesystem's lists by their field
	// (sandbox.filesystem.denyRead, ...; allowGitConfig when true).
	filesystem map[string][]settingsEntry
	// network holds sandbox.network's allowedDomains and deniedDomains
	// (networkAllowKey, networkDenyKey), which NetworkLayer takes.
	network map[string][]settingsEntry
}
