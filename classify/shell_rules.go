package classify

import (
	"path"
	"strings"
	"unicode"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// longAliases maps a command's long options to the short ones they mean, for
// comparing a rule's flags with a command's (GNU coreutils manuals).
func longAliases(prog, long string) string {
	switch prog {
	case "rm":
		switch long {
		case "recursive":
			return "r"
		case "force":
			return "f"
		case "dir":
			return "d"
		case "verbose":
			return "v"
		case "interactive":
			return "i"
		}
	case "cp":
		switch long {
		case "recursive":
			return "r"
		case "force":
			return "f"
		case "archive":
			return "a"
		}
	case "chmod", "chown", "chgrp":
		if long == "recursive" {
			return "R"
		}
	case "git":
		if long == "force" {
			return "f"
		}
	}
	return long
}

// shortAlias folds short options that mean the same (rm -R is rm -r).
func shortAlias(prog string, l byte) string {
	if (prog == "rm" || prog == "cp") && l == 'R' {
		return "r"
	}
	return string(l)
}

// splitCommand splits a command's words after the program into its set of
// options (short groups split, long ones by their alias, values after "="
// dropped) and its other words, in order. Words after "--" are never options.
func splitCommand(prog string, words []string) (map[string]bool, []string) {
	flags := map[string]bool{}
	var rest []string
	dash := false
	for _, w := range words {
		switch {
		case dash || w == "-" || !strings.HasPrefix(w, "-"):
			rest = append(rest, w)
		case w == "--":
			dash = true
		case strings.HasPrefix(w, "--"):
			name, _, _ := strings.Cut(w[2:], "=")
			flags[longAliases(prog, name)] = true
		default:
			for i := 1; i < len(w); i++ {
				flags[shortAlias(prog, w[i])] = true
			}
		}
	}
	return flags, rest
}

// matchShellRule reports whether a Bash(...) rule matches one simple command
// (argv after wrapper stripping, the program its base name). In the rule,
// the first word is the program, words starting with "-" are options, the
// others a pattern for the command's other words, in which "*" matches any
// text; a rule ending in ":*" matches the command's words and anything after
// them. Options are compared as sets: a deny or ask rule matches a command
// that has at least the rule's options ("rm -rf *" matches "rm -fr x",
// "rm -r -f x", "rm --recursive --force x" and "rm -rfv x"); an allow rule
// needs exactly the rule's options, so that an option it did not name can
// never widen what it allows.
func matchShellRule(r *policy.Rule, argv []string, allow bool) bool {
	// The program first, without splitting the rule: with thousands of
	// rules, most name another program.
	first := firstField(r.Command)
	if first == "" || len(argv) == 0 {
		return first == ""
	}
	prog := path.Base(first)
	if prog != path.Base(argv[0]) {
		return false
	}
	words := strings.Fields(r.Command)
	want, wantRest := splitCommand(prog, words[1:])
	have, haveRest := splitCommand(prog, argv[1:])
	for f := range want {
		if !have[f] {
			return false
		}
	}
	if allow && !r.Prefix && len(have) != len(want) {
		return false
	}
	pat := strings.Join(wantRest, " ")
	got := strings.Join(haveRest, " ")
	if r.Prefix {
		return got == pat || strings.HasPrefix(got, pat+" ") || (pat == "" && got != "") || wildcard(pat+" *", got)
	}
	return wildcard(pat, got)
}

// firstField is strings.Fields(s)[0], or "" when s is blank, without
// allocating.
func firstField(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// matchRawCommand matches a rule against a whole command line, for commands
// that cannot be parsed: a "*" matches any text; a ":*" rule is a prefix.
func matchRawCommand(r *policy.Rule, cmd string) bool {
	cmd = strings.Join(strings.Fields(cmd), " ")
	pat := strings.Join(strings.Fields(r.Command), " ")
	if r.Prefix {
		return cmd == pat || strings.HasPrefix(cmd, pat+" ") || wildcard(pat+" *", cmd)
	}
	return wildcard(pat, cmd) || wildcard(pat, strings.TrimSpace(cmd))
}

// wildcard matches s against a pattern whose only metacharacter is "*"
// (any text, spaces included).
func wildcard(pat, s string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

// callWrites reports whether the call may change files, for read mode: a
// shell command unless every command in it is a known read-only one with
// known targets.
func (d *decider) callWrites() bool {
	if d.shell == nil {
		return d.call.Writes
	}
	if !d.shell.Known() {
		return true
	}
	for i := range d.shell.Commands {
		if !d.shell.Commands[i].ReadOnly {
			return true
		}
	}
	return false
}

// shellFallback is the last row for a shell command: unknown targets or inline code ask (allow in agi); known
// targets all inside, or none, abstain in write mode (the host asks per
// command) and are allowed with -y, auto_approve, agi or host
// bypassPermissions. acceptEdits covers file edits, not shell commands, and
// the safe class does not apply.
func (d *decider) shellFallback() (policy.Decision, string, string) {
	approved := !d.modes.Read.On && (d.modes.AGI || d.pol.AutoApprove.Value || d.call.PermissionMode == hookio.PermBypass)
	if !d.shell.Known() {
		why := d.shell.Why()
		switch {
		case d.modes.AGI:
			return policy.Allow, "unknown targets, allowed in agi mode", why
		case approved && d.confinable():
			return policy.Allow, "auto-approve (" + d.approveSource() + "), confined: what it reads and writes itself is not known", why
		}
		return policy.Ask, "targets safezone cannot know", why
	}
	where := "known targets inside the sandbox"
	if d.kernelAgrees {
		where = "known targets inside the sandbox, or outside it where the kernel lets a confined command go anyway"
	}
	if approved {
		return policy.Allow, "auto-approve (" + d.approveSource() + ")", ""
	}
	return policy.Abstain, where, "the host asks as usual"
}

// approveSource says what auto-approves a shell command.
func (d *decider) approveSource() string {
	if d.call.PermissionMode == hookio.PermBypass && !d.modes.AGI && !d.pol.AutoApprove.Value {
		return hostMode(d.call)
	}
	return d.modes.AutoApprove.Source
}

// shellRuleMatches applies a Bash(...) or PowerShell(...) rule: to every
// simple command of the analysis (an allow rule must cover all of them), or,
// when the command could not be parsed, to the whole command text (deny and
// ask only).
func (d *decider) shellRuleMatches(r *policy.Rule, allow bool) bool {
	if d.shell == nil {
		return false
	}
	var cmds []*shell.Command
	for i := range d.shell.Commands {
		c := &d.shell.Commands[i]
		if len(c.Argv) == 0 || strings.HasSuffix(c.Argv[0], "=") || c.Argv[0] == "(redirection)" {
			continue
		}
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return !allow && matchRawCommand(r, d.call.Command)
	}
	for _, c := range cmds {
		m := matchShellRule(r, c.Argv, allow)
		if allow && !m {
			return false
		}
		if !allow && m {
			return true
		}
	}
	return allow
}
