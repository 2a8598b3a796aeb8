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
		for _, e := range s.denyRead {
			p.HostSandbox.DenyRead = append(p.HostSandbox.DenyRead, HostPath{Text: e.value, Pos: e.pos, Scope: l.Scope})
		}
	}
	for _, r := range l.Deny {
		if spec, ok := strings.CutPrefix(r.Text, "Read("); ok && strings.HasSuffix(spec, ")") && len(spec) > 1 {
			p.HostSandbox.DenyRead = append(p.HostSandbox.DenyRead, HostPath{Text: strings.TrimSuffix(spec, ")"), Pos: r.Pos, Scope: l.Scope})
		}
	}
}

// claudeSandbox is the part of a settings file's "sandbox" object that
// safezone reads.
type claudeSandbox struct {
	enabled, allowUnsandboxed, nested *Setting[bool]
	denyRead                          []settingsEntry
}
