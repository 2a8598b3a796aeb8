package policy

import "slices"

// Scope places a layer in the precedence order, lowest first (README,
// "Layers"): the embedded default (always the base), managed, user,
// project, local, each --policy file, then the flags. Claude Code's settings
// files contribute rules and directories at the scope of the level they come
// from.
type Scope uint8

const (
	ScopeDefault Scope = iota // the embedded policy.example.yaml
	ScopeManaged              // /etc/safezone/policy.yaml (SAFEZONE_MANAGED_POLICY)
	ScopeUser                 // $XDG_CONFIG_HOME/safezone/policy.yaml
	ScopeProject              // .safezone.yaml at the project root
	ScopeLocal                // .safezone.local.yaml at the project root
	ScopeFile                 // a --policy FILE
	ScopeFlags                // -r, -w, -y, --no-sandbox, --agi, --add-dir
	ScopeBuiltin              // self-protection, added by safezone itself
)

var scopeNames = [...]string{"default", "managed", "user", "project", "local", "file", "flags", "builtin"}

// FromRepository reports whether a layer of this scope lies in the project
// directory, where a clone, an archive or a program run there can put it:
// the project and local scopes (.safezone.yaml, .safezone.local.yaml,
// .claude/settings.json, .claude/settings.local.json). What such a layer
// widens applies only once the user trusts its content (see [Restrict]).
func (s Scope) FromRepository() bool { return s == ScopeProject || s == ScopeLocal }

func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "unknown"
}

// LockableKeys are the keys a managed policy may list under locked. Every
// audit key is lockable: an organisation that audits locks at least
// audit.path and audit.required (so a project can neither redirect nor turn
// off its log) and audit.dry_run (so a project cannot stop enforcement).
var LockableKeys = []string{
	"mode", "auto_approve", "on_error", "host_settings",
	"sandbox.enabled", "sandbox.additional_directories", "sandbox.read_dirs", "sandbox.outside_read", "sandbox.outside_write",
	"guards.lose_work", "guards.install_outside", "confine.mode", "confine.write",
	"paths.protected", "paths.warned", "paths.safe", "paths.templates",
	"rules.deny", "rules.ask", "rules.allow",
	"audit.path", "audit.all", "audit.max_bytes", "audit.keep", "audit.required", "audit.syslog", "audit.dry_run",
}

// IsLockable reports whether key may be listed under locked.
func IsLockable(key string) bool { return slices.Contains(LockableKeys, key) }
