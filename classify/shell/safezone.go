package shell

import (
	"slices"
	"strings"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy/glob"
)

// safezoneTools is safezone itself.
var safezoneTools = []cmdSpec{
	{name: "safezone", role: roleCustom, custom: safezoneCmd},
}

// safezoneReads are safezone's Subcommands that only read.
var safezoneReads = []string{"version", "help", "explain", "validate", "policy", "replay", "test", "doctor"}

// safezoneFlagsRead reports whether safezone's flags leave it a reader:
// --audit FILE (and --audit=FILE) appends to, rotates and removes FILE,
// which makes the command unknown; so does a flag that is not static.
func safezoneFlagsRead(c *cmdCtx) bool {
	for _, w := range c.args {
		if w.unknown != "" {
			continue // judged as an operand
		}
		if w.lit == "--audit" || strings.HasPrefix(w.lit, "--audit=") || strings.HasPrefix(w.lit, "--au") && strings.HasPrefix("--audit", strings.SplitN(w.lit, "=", 2)[0]) {
			c.cmd.ReadOnly = false
			c.unknown("safezone --audit writes its log where it says")
			return false
		}
	}
	return true
}

// safezoneCmd: "safezone init" writes the project's policy, the host's hook
// registration and .gitignore files (or, with --user, the user's); "safezone
// trust FILE" accepts a file the watch list reported, or what a project's
// policy file widens, which only the user may do: unknown, and a write of
// safezone's state directory (which self-protection denies in every mode;
// confined, the command cannot write it either); the hook
// itself (no subcommand) and safezoneReads only read; any other subcommand
// (the launcher of confined commands) is unknown.
func safezoneCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if !safezoneFlagsRead(c) {
		return
	}
	if len(c.args) == 0 || strings.HasPrefix(c.args[0].lit, "-") && c.args[0].unknown == "" {
		return
	}
	switch sub := c.args[0]; {
	case sub.unknown != "":
		c.unknown("safezone's subcommand is not static")
		return
	case slices.Contains(safezoneReads, sub.lit), sub.lit == "trust" && len(c.args) == 1:
		// Their operands (policy files, case files, transcripts) are read.
		for _, w := range c.args[1:] {
			if w.unknown != "" || !strings.HasPrefix(w.lit, "-") {
				c.add(w, Read)
			}
		}
		return
	case sub.lit == "trust":
		c.cmd.ReadOnly = false
		if d := c.a.env.StateDir; strings.HasPrefix(d, "/") {
			c.add(sword{lit: d, pat: glob.Escape(d), src: d}, Write)
		}
		c.unknown("safezone trust accepts what the user checked (files the watch list reported, a project's policy or settings file): the user runs it, not the agent")
		return
	case sub.lit != "init":
		c.cmd.ReadOnly = false
		c.unknown("safezone " + sub.lit + " is not one of safezone's read-only Subcommands")
		return
	}
	safezoneInit(c)
}

// safezoneInit: the files "safezone init" writes: the project's policy,
// .gitignore files and the host's registration (with --user, the user's
// policy and registration); --dry-run writes none.
func safezoneInit(c *cmdCtx) {
	c.cmd.ReadOnly = false
	host, user := "claude", false
	for i, w := range c.args[1:] {
		t := w.text()
		switch {
		case w.unknown != "":
			c.unknown("a safezone init argument is not static")
			return
		case t == "--user":
			user = true
		case t == "--dry-run":
			c.cmd.ReadOnly = true
			return
		case t == "--host" && i+2 < len(c.args):
			host = c.args[i+2].lit
		case strings.HasPrefix(t, "--host="):
			host = strings.TrimPrefix(t, "--host=")
		}
	}
	base := c.a.env.ProjectDir
	if base == "" && len(c.a.cwd) == 1 {
		base = c.a.cwd[0]
	}
	files := []string{".safezone.yaml", ".gitignore", "agent_sandbox/.gitignore"}
	if user {
		base = c.a.env.Home
		files = []string{".config/safezone/policy.yaml"}
	}
	if base == "" {
		c.unknown("safezone init: no project directory or home")
		return
	}
	cfg, err := hookio.ConfigPath(host, base, base, user)
	if err != nil {
		c.unknown("safezone init: " + err.Error())
		return
	}
	for _, f := range append(files, cfg) {
		if !strings.HasPrefix(f, "/") {
			f = base + "/" + f
		}
		c.add(sword{lit: f, pat: glob.Escape(f), src: f}, Write)
	}
}
