package shell

import (
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
	"github.com/safezonehq/safezone/hookio"
)

// safezoneTools is safezone itself.
var safezoneTools = []cmdSpec{
	{name: "safezone", role: roleCustom, custom: safezoneCmd},
}

// safezoneCmd: "safezone init" writes the project's policy, the host's hook
// registration and .gitignore files (or, with --user, the user's); every
// other use of safezone only reads.
func safezoneCmd(c *cmdCtx) {
	c.cmd.ReadOnly = true
	if len(c.args) == 0 || c.args[0].unknown != "" || c.args[0].lit != "init" {
		if len(c.args) > 0 && c.args[0].unknown != "" {
			c.unknown("safezone's subcommand is not static")
		}
		return
	}
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
