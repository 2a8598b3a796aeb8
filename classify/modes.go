package classify

import (
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// modesOf is the effective mode of call c under policy p: the host's
// permission_mode and the policy's mode, auto_approve and sandbox.enabled.
func modesOf(p *policy.Policy, c *hookio.Call) Modes {
	var m Modes
	m.AGI = p.Mode.Value == policy.ModeAGI
	switch {
	case c.PermissionMode == hookio.PermPlan:
		m.Read = Mode{true, hostMode(c)}
		m.AGI = false
	case p.Mode.Value == policy.ModeRead:
		m.Read = Mode{true, origin("mode: read", p.Mode.Pos)}
	}
	switch {
	case m.Read.On:
	case m.AGI:
		m.AutoApprove = Mode{true, origin("mode: agi", p.Mode.Pos)}
	case p.AutoApprove.Value:
		m.AutoApprove = Mode{true, origin("auto_approve: true", p.AutoApprove.Pos)}
	case c.PermissionMode == hookio.PermAcceptEdits || c.PermissionMode == hookio.PermBypass:
		m.AutoApprove = Mode{true, hostMode(c)}
	}
	switch {
	case p.Mode.Value == policy.ModeAGI:
		m.Sandbox = Mode{false, origin("mode: agi", p.Mode.Pos)}
	case !p.SandboxEnabled.Value:
		m.Sandbox = Mode{false, origin("sandbox.enabled: false", p.SandboxEnabled.Pos)}
	default:
		m.Sandbox = Mode{true, origin("sandbox.enabled: true", p.SandboxEnabled.Pos)}
	}
	return m
}

// origin says where a setting came from: "mode: read at policy.yaml:3" for
// a file, just the flag ("-r/--read") for a flag or built-in default.
func origin(setting string, pos policy.Pos) string {
	if pos.Line == 0 {
		return pos.File
	}
	return setting + " at " + pos.String()
}

// hostMode names the host's permission mode and, where the hook found it
// outside the input, where (hookio.Call.PermissionFrom).
func hostMode(c *hookio.Call) string {
	s := "host permission_mode " + c.PermissionMode.String()
	if c.PermissionFrom != "" {
		s += " (" + c.PermissionFrom + ")"
	}
	return s
}
