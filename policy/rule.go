package policy

import (
	"fmt"
	"path"
	"strings"
)

// RuleKind says how a [Rule] is matched.
type RuleKind uint8

const (
	// RuleTool: a bare tool name or tool-name glob ("Bash", "WebFetch",
	// "mcp__github__*"): matches every call of the tool.
	RuleTool RuleKind = iota
	// RulePath: a path specifier ("Read(.env*)", "Edit(/etc/**)").
	RulePath
	// RuleCommand: a shell command specifier ("Bash(rm -rf *)",
	// "Bash(go test:*)").
	RuleCommand
	// RuleOpaque: a specifier safezone cannot evaluate ("WebFetch(domain:x)").
	// As a deny or ask rule it matches every call of its tool (a rule that
	// cannot be evaluated fails closed); as an allow rule it never matches.
	RuleOpaque
)

// Tool families used by rules: Read(...) covers every read and Edit(...) and
// Write(...) every write, as in Claude Code's permission rules ("Read and
// Edit rules apply to all built-in tools that read or edit files").
var (
	readTools  = []string{"Read", "Glob", "Grep", "LS"}
	writeTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}
	shellTools = []string{"Bash", "PowerShell"}
)

// BuiltinTools is every tool name safezone knows by itself (Claude Code
// 2.1.330 tool names plus the legacy LS and MultiEdit). A rule naming another
// tool is accepted with a warning, since hosts and MCP servers add tools.
var BuiltinTools = []string{
	"Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS",
	"Bash", "PowerShell", "WebFetch", "WebSearch", "Agent", "Task", "TodoWrite",
	"NotebookRead", "BashOutput", "KillShell", "ExitPlanMode", "SlashCommand",
	"Skill", "AskUserQuestion",
}

// Rule is one compiled entry of rules.deny, rules.ask or rules.allow, in the
// hosts' own syntax: "Tool" or "Tool(specifier)".
type Rule struct {
	Text string // as written
	Pos  Pos
	Kind RuleKind
	// Tool is the tool name or a glob over tool names (path.Match syntax:
	// "mcp__github__*").
	Tool string
	// AnyAccess is true for Read(...), Edit(...) and Write(...): the rule
	// covers every tool with that Access, not only the named tool.
	AnyAccess bool
	Access    Access  // for RulePath
	Path      Pattern // for RulePath
	// Command is the command pattern of a RuleCommand, without a trailing
	// ":*". In it "*" matches any text, spaces included.
	Command string
	Prefix  bool // the specifier ended in ":*": a prefix match on words
}

func (r Rule) String() string { return r.Text }

// NamesTool reports whether the rule's tool name (or tool-name glob) matches
// tool. "mcp__server" also names every tool of that server, as in Claude
// Code's permission rules ("MCP"). It says nothing about AnyAccess, which
// package classify applies to targets of every tool.
func (r *Rule) NamesTool(tool string) bool {
	if !hasMatchMeta(r.Tool) {
		// No metacharacter: path.Match is equality.
		if r.Tool == tool {
			return true
		}
	} else if ok, err := path.Match(r.Tool, tool); err == nil && ok {
		return true
	}
	if server, ok := strings.CutPrefix(r.Tool, "mcp__"); ok && server != "" && !strings.Contains(server, "__") && !strings.ContainsAny(server, "*?[") {
		return strings.HasPrefix(tool, r.Tool+"__")
	}
	return false
}

// hasMatchMeta reports whether s holds a metacharacter of path.Match.
func hasMatchMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			return true
		}
	}
	return false
}

// CompileRule parses text ("Read(.env*)", "Bash(npm test)", "WebFetch").
// It returns the rule and, separately, a warning (nil if none) for rules that
// are valid but may not do what the author meant: a tool safezone does not
// know, a specifier it cannot evaluate. Errors wrap [ErrBadRule] or
// [ErrBadGlob]; on error the returned rule holds at most Text, Pos and Tool.
func CompileRule(text string, pos Pos) (Rule, error, error) {
	r := Rule{Text: text, Pos: pos}
	tool, spec, err := splitRule(text)
	if err != nil {
		return r, err, nil
	}
	r.Tool = tool
	if near := nearTool(tool); near != "" {
		return r, fmt.Errorf("%w: %q: unknown tool %q: did you mean %q? (tool names are case-sensitive)", ErrBadRule, text, tool, near), nil
	}
	warn := unknownTool(tool)
	if spec == "" || spec == "*" {
		// "Bash", "Bash()" and "Bash(*)" all match every call of the tool.
		r.Kind = RuleTool
		return r, nil, warn
	}
	switch {
	case contains(readTools, tool) || contains(writeTools, tool):
		pat, err := CompilePattern(spec, pos)
		if err != nil {
			return r, err, nil
		}
		r.Kind, r.Path = RulePath, pat
		r.Access = Write
		if contains(readTools, tool) {
			r.Access = Read
		}
		r.AnyAccess = tool == "Read" || tool == "Edit" || tool == "Write"
	case contains(shellTools, tool):
		r.Kind = RuleCommand
		r.Command = strings.TrimSpace(spec)
		if c, ok := strings.CutSuffix(r.Command, ":*"); ok {
			r.Command, r.Prefix = strings.TrimSpace(c), true
		}
		if r.Command == "" {
			r.Kind = RuleTool
		}
	default:
		r.Kind = RuleOpaque
		if warn == nil {
			warn = fmt.Errorf("%w: safezone cannot evaluate the specifier of %q: as a deny or ask rule it matches every %s call, as an allow rule it never matches", ErrBadRule, text, tool)
		}
	}
	return r, nil, warn
}

// splitRule splits "Tool(specifier)" into the tool name (or tool-name
// glob) and the specifier; "Tool" has the specifier "", as "Tool()" does.
// The error, wrapping [ErrBadRule], names what to write instead.
func splitRule(text string) (tool, spec string, err error) {
	if strings.TrimSpace(text) == "" {
		return "", "", fmt.Errorf("%w: empty rule", ErrBadRule)
	}
	tool, spec, hasSpec := strings.Cut(text, "(")
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			return "", "", fmt.Errorf("%w: %q: missing closing parenthesis; write Tool(specifier)", ErrBadRule, text)
		}
		spec = strings.TrimSuffix(spec, ")")
	}
	if tool == "" || strings.ContainsAny(tool, " \t/\\)") {
		return "", "", fmt.Errorf("%w: %q: tool name must be a word like Read, Bash or mcp__server__tool", ErrBadRule, text)
	}
	if _, err := path.Match(tool, ""); err != nil {
		return "", "", fmt.Errorf("%w: %q: bad tool-name glob", ErrBadRule, text)
	}
	return tool, spec, nil
}

// unknownTool returns the warning, wrapping [ErrUnknownTool], for a rule
// naming a tool that is not in [BuiltinTools]: the rule is kept, as hosts
// and MCP servers add tools, but a builtin name in other letter case is
// most likely a typo. Tool-name globs and mcp__ names get no warning.
func unknownTool(tool string) error {
	if strings.ContainsAny(tool, "*?[") || isBuiltin(tool) || strings.HasPrefix(tool, "mcp__") {
		return nil
	}
	for _, b := range BuiltinTools {
		if strings.EqualFold(b, tool) {
			return fmt.Errorf("%w: %q is not a tool safezone knows (tool names are case-sensitive: did you mean %q?)", ErrUnknownTool, tool, b)
		}
	}
	return fmt.Errorf("%w: %q is not a tool safezone knows; the rule only matches a call of a tool named exactly %q", ErrUnknownTool, tool, tool)
}

// nearTool returns the built-in tool that tool, an unknown name, is most
// likely a typo of (in other letter case, or up to two letters added,
// dropped or changed: "read", "Wrte", "Bahs"), or "". A name that is
// another tool's is left alone: hosts and MCP servers add tools.
func nearTool(tool string) string {
	if strings.ContainsAny(tool, "*?[") || isBuiltin(tool) || strings.HasPrefix(tool, "mcp__") || len(tool) < 3 {
		return ""
	}
	return Suggest(tool, BuiltinTools, 2)
}

// Suggest returns the word of known nearest to word, compared without
// letter case, if it is at most max edits away (Levenshtein distance), or
// "". It names what a user most likely meant in an error: a tool name, a
// key, a flag.
func Suggest(word string, known []string, max int) string {
	best, bestD := "", max+1
	w := strings.ToLower(word)
	for _, k := range known {
		if d := EditDistance(w, strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// EditDistance is the optimal string alignment distance between a and b
// (Levenshtein's insertions, deletions and substitutions, plus the swap of
// two adjacent bytes, no substring edited twice), in bytes: how far a
// misspelt name (a tool, a flag, a subcommand) is from a known one.
func EditDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func isBuiltin(tool string) bool { return contains(BuiltinTools, tool) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
