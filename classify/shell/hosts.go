package shell

import "strings"

// hostTools are the command-line tools of the coding agents themselves,
// sorted by name. Their Subcommands that add or remove MCP servers,
// plugins, extensions or settings write the agent's own configuration
// (Claude Code's ~/.claude.json, ~/.claude/settings.json and plugins, the
// project's .claude/settings*.json and .mcp.json; Codex's
// ~/.codex/config.toml; Gemini CLI's settings.json files and extensions),
// where the hook's self-protection decides; listing them only reads; any
// other use runs the agent, a program whose accesses are not known.
// Sources: Claude Code's CLI reference and plugins CLI reference ("claude
// mcp", "claude plugin", "claude config"), the Codex CLI's "codex mcp",
// Gemini CLI's "gemini mcp" and "gemini extensions".
var hostTools = []cmdSpec{
	{name: "claude", role: roleCustom, custom: claudeCmd},
	{name: "codex", role: roleCustom, custom: codexCmd},
	{name: "gemini", role: roleCustom, custom: geminiCmd},
}

// hostArgs returns the command's words that are not options (a
// subcommand path and its operands) up to "--", and the value of the
// scope option (-s, --scope).
func hostArgs(args []sword) (words []string, scope string, static bool) {
	static = true
	for i := 0; i < len(args); i++ {
		w := args[i]
		t := w.text()
		switch {
		case w.unknown != "":
			static = false
		case t == "--":
			return words, scope, static
		case t == "-s" || t == "--scope":
			if i+1 < len(args) {
				i++
				scope = args[i].text()
			}
		case strings.HasPrefix(t, "--scope="):
			scope = strings.TrimPrefix(t, "--scope=")
		case strings.HasPrefix(t, "-"):
		default:
			words = append(words, t)
		}
	}
	return words, scope, static
}

// hostFile adds a file of the agent's configuration: rel under the home
// directory, or, with project, under the project's root (Env.ProjectDir,
// else the working directory).
func (c *cmdCtx) hostFile(rel string, project, recursive bool) {
	base := ""
	switch {
	case project && c.a.env.ProjectDir != "":
		base = c.a.env.ProjectDir
	case project && len(c.a.cwd) == 1:
		base = c.a.cwd[0]
	case !project:
		home, why := c.a.home()
		if why != "" {
			c.unknown(c.name + " writes its settings in the home directory: " + why)
			return
		}
		base = home
	default:
		c.unknown(c.name + " writes the project's settings, whose root is not known")
		return
	}
	c.addT(literal(strings.TrimSuffix(base, "/")+"/"+rel), Write, recursive)
}

// hostRuns judges a use of the agent's tool that runs the agent itself
// (or one only showing its version or help).
func (c *cmdCtx) hostRuns(words []string) {
	if len(c.args) == 1 && c.args[0].unknown == "" && containsStr([]string{"--version", "-v", "-V", "--help", "-h"}, c.args[0].lit) {
		c.cmd.ReadOnly = true
		return
	}
	c.a.program(c.cmd, append([]sword{literal(c.name)}, c.args...), c.name)
}

// claudeCmd: claude mcp add|add-json|add-from-claude-desktop|remove|
// reset-project-choices writes ~/.claude.json (scopes local and user) or
// the project's .mcp.json (scope project); claude plugin
// install|uninstall|enable|disable|update|configure|prune writes the
// settings file of its scope (user ~/.claude/settings.json, project
// .claude/settings.json, local .claude/settings.local.json) and the
// plugins under ~/.claude/plugins; claude plugin marketplace
// add|remove|update writes the plugins and the user's settings; claude
// plugin init writes ~/.claude/skills; claude config set|add|remove writes
// ~/.claude.json (and, without -g, the project's settings.local.json).
// list, get, details and validate only read.
func claudeCmd(c *cmdCtx) {
	words, scope, static := hostArgs(c.args)
	if !static {
		c.unknown("an argument of claude is not static")
		return
	}
	if len(words) < 2 || !containsStr([]string{"mcp", "plugin", "plugins", "config"}, words[0]) {
		c.hostRuns(words)
		return
	}
	sub := words[1]
	switch {
	case containsStr([]string{"list", "get", "details", "validate", "ls"}, sub):
		c.cmd.ReadOnly = true
	case words[0] == "mcp":
		c.claudeMCP(sub, scope)
	case words[0] == "config":
		c.claudeConfig(sub)
	case sub == "marketplace":
		if len(words) > 2 && containsStr([]string{"list", "ls"}, words[2]) {
			c.cmd.ReadOnly = true
			return
		}
		c.hostFile(".claude/plugins", false, true)
		c.claudeSettings(scope)
	case sub == "init" || sub == "new":
		c.hostFile(".claude/skills", false, true)
	case containsStr([]string{"install", "i", "uninstall", "remove", "rm", "enable", "disable", "update", "configure", "prune", "autoremove"}, sub):
		c.hostFile(".claude/plugins", false, true)
		c.claudeSettings(scope)
	default:
		c.unknown("claude plugin " + sub + " is not in safezone's table")
	}
}

// claudeMCP: the files claude mcp SUB writes, by scope.
func (c *cmdCtx) claudeMCP(sub, scope string) {
	switch sub {
	case "serve":
		c.a.program(c.cmd, append([]sword{literal(c.name)}, c.args...), c.name)
		return
	case "add", "add-json", "add-from-claude-desktop", "remove", "reset-project-choices":
	default:
		c.unknown("claude mcp " + sub + " is not in safezone's table")
		return
	}
	if scope != "project" {
		c.hostFile(".claude.json", false, false)
	}
	if scope == "project" || sub == "remove" && scope == "" {
		c.hostFile(".mcp.json", true, false)
	}
}

// claudeConfig: the files claude config SUB writes.
func (c *cmdCtx) claudeConfig(sub string) {
	if !containsStr([]string{"set", "add", "remove", "rm"}, sub) {
		c.unknown("claude config " + sub + " is not in safezone's table")
		return
	}
	c.hostFile(".claude.json", false, false)
	global := false
	for _, w := range c.args {
		global = global || w.lit == "-g" || w.lit == "--global"
	}
	if !global {
		c.hostFile(".claude/settings.local.json", true, false)
	}
}

// claudeSettings adds the settings file of a plugin command's scope (user
// by default); the managed scope is the administrator's, unknown.
func (c *cmdCtx) claudeSettings(scope string) {
	switch scope {
	case "", "user":
		c.hostFile(".claude/settings.json", false, false)
	case "project":
		c.hostFile(".claude/settings.json", true, false)
	case "local":
		c.hostFile(".claude/settings.local.json", true, false)
	default:
		c.unknown("claude plugin --scope " + scope + " is not in safezone's table")
	}
}

// codexCmd: codex mcp add|remove|login|logout writes Codex's
// configuration and credentials under ~/.codex; list and get only read.
func codexCmd(c *cmdCtx) {
	words, _, static := hostArgs(c.args)
	switch {
	case !static:
		c.unknown("an argument of codex is not static")
	case len(words) < 2 || words[0] != "mcp":
		c.hostRuns(words)
	case words[1] == "list" || words[1] == "get":
		c.cmd.ReadOnly = true
	case containsStr([]string{"add", "remove", "login", "logout"}, words[1]):
		c.hostFile(".codex", false, true)
	default:
		c.unknown("codex mcp " + words[1] + " is not in safezone's table")
	}
}

// geminiCmd: gemini mcp add|remove writes the settings.json of its scope
// (user ~/.gemini/settings.json, project .gemini/settings.json; both when
// not given); gemini extensions install|uninstall|enable|disable|update|
// link writes ~/.gemini/extensions and the settings; list only reads.
func geminiCmd(c *cmdCtx) {
	words, scope, static := hostArgs(c.args)
	switch {
	case !static:
		c.unknown("an argument of gemini is not static")
	case len(words) < 2 || words[0] != "mcp" && words[0] != "extensions":
		c.hostRuns(words)
	case words[1] == "list":
		c.cmd.ReadOnly = true
	case words[0] == "mcp" && (words[1] == "add" || words[1] == "remove"):
		if scope != "project" {
			c.hostFile(".gemini/settings.json", false, false)
		}
		if scope != "user" {
			c.hostFile(".gemini/settings.json", true, false)
		}
	case words[0] == "extensions" && containsStr([]string{"install", "uninstall", "enable", "disable", "update", "link"}, words[1]):
		c.hostFile(".gemini/extensions", false, true)
		c.hostFile(".gemini/settings.json", false, false)
		c.hostFile(".gemini/settings.json", true, false)
	default:
		c.unknown("gemini " + words[0] + " " + words[1] + " is not in safezone's table")
	}
}
