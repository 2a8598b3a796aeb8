package classify

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy"
)

// sshTools are the programs that reach a host over ssh with the user's
// keys, agent and configuration (ssh(1), FILES: ~/.ssh/config, the
// identity files, known_hosts; the agent through $SSH_AUTH_SOCK), which
// the policy keeps from a confined command (Read(~/.ssh/**), the agent's
// socket hidden). rsync is one when an operand names a host (rsync(1):
// "host:path" goes through a remote shell, ssh by default; "host::path"
// and rsync:// reach an rsync daemon).
var sshTools = map[string]bool{"ssh": true, "scp": true, "sftp": true, "sshfs": true, "ssh-copy-id": true}

// sshGrantHint is what to add to the policy so that the confined ssh tool
// name may use the user's keys and agent (README, "What the kernel
// enforces").
func sshGrantHint(name string) string {
	return `confine.grants: [{command: "` + name + `:*", read: ["~/.ssh/**"], sockets: ["$SSH_AUTH_SOCK"]}] to your policy (README, "What the kernel enforces")`
}

// sshWithoutGrant asks, instead of running confined, a line that runs an
// ssh tool (sshTools, rsync to a host) no grant covers: confined, it
// could read neither ~/.ssh nor reach the agent, and would fail ("Can't
// open user config file ~/.ssh/config: Permission denied"). The user who
// approves it runs it as it is; the reason says which grant lets it run
// confined instead. Where no person can answer, noAsk makes it a deny
// with the same reason.
func (d *decider) sshWithoutGrant(r *Result) {
	if !r.Confine || d.shell == nil || r.Decision != policy.Allow {
		return
	}
	for j := range d.shell.Commands {
		c := &d.shell.Commands[j]
		if len(c.Argv) == 0 || !usesSSH(c.Argv) {
			continue
		}
		granted := false
		for i := range r.Grants {
			if matchShellRule(&r.Grants[i].Command, c.Argv, true) {
				granted = true
			}
		}
		if granted {
			continue
		}
		note := "to let it run confined, the user adds " + sshGrantHint(path.Base(c.Argv[0]))
		inPolicy := false
		for i := range d.pol.Confine.Grants {
			inPolicy = inPolicy || matchShellRule(&d.pol.Confine.Grants[i].Command, c.Argv, true)
		}
		switch {
		case r.GrantRefused != "":
			note = "the grants do not apply: " + r.GrantRefused + "; run it alone on the line, or ask the user"
		case inPolicy:
			note = "the grants do not apply: a grant holds only when every other command of the line is one safezone knows; run it alone on the line, or ask the user"
		}
		r.Confine = false
		r.ConfineNote = "not confined: " + path.Base(c.Argv[0]) + " needs your ssh keys and agent, which a confined command cannot reach without a grant"
		d.override(r, policy.Ask, path.Base(c.Argv[0])+" connects with your ssh keys, configuration and agent (~/.ssh, $SSH_AUTH_SOCK), which a confined command cannot reach; the user decides whether it runs unconfined", note)
		return
	}
}

// usesSSH reports whether the command argv connects over ssh: an ssh tool
// by name, or rsync with an operand host:path (not host::path, not an
// rsync:// URL, not a path whose colon follows a slash).
func usesSSH(argv []string) bool {
	name := path.Base(argv[0])
	if sshTools[name] {
		return true
	}
	if name != "rsync" {
		return false
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "rsync://") {
			continue
		}
		host, _, ok := strings.Cut(a, ":")
		if ok && host != "" && !strings.Contains(host, "/") && !strings.Contains(a, "::") {
			return true
		}
	}
	return false
}
