package policy

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Anchor says what a [Pattern] is relative to.
type Anchor uint8

const (
	// AnyDepth: a pattern without a slash matches a path component anywhere
	// on the file system, inside the project or not (".env*", "*.pem",
	// "node_modules"), like a gitignore pattern without a slash.
	AnyDepth Anchor = iota
	// ProjectRoot: a pattern with a slash ("src/**", "./build") is anchored
	// at the project root. Glob is relative, without a leading "./".
	ProjectRoot
	// Absolute: "/abs/..." and "//abs/..." (Claude Code's spelling of an
	// absolute path). Glob starts with "/".
	Absolute
	// Home: "~" or "~/...", the home directory. Glob is relative to it
	// ("" for "~" itself).
	Home
)

// Pattern is a compiled path pattern from the policy: a path class entry or
// the specifier of a Read(...)/Edit(...)/Write(...) rule.
//
// Syntax (README, "Schema", Patterns): gitignore-style globs in doublestar syntax
// ("*", "?", "[...]", "{a,b}", "**" as a whole path element). A pattern that
// matches a directory covers everything below it. Patterns never contain ".."
// elements. Matching is done by package classify, which knows the project root
// and home directory; Glob is already validated, so matching cannot fail.
type Pattern struct {
	Text   string // as written in the policy
	Pos    Pos
	Anchor Anchor
	Glob   string // see Anchor for its form
	// Resolve marks a pattern naming one literal path (no wildcards) that
	// also covers where that path resolves to: a write to the file behind a
	// symlinked ~/.config/safezone/policy.yaml is a write to the policy.
	// Package classify resolves it, lazily, for write targets.
	Resolve bool
	// Why says, for a self-protection pattern derived from a host's
	// settings (HostCodeFiles), which setting runs the file; "" otherwise.
	Why string
}

func (p Pattern) String() string { return p.Text }

// CompilePattern validates text and returns its compiled form. pos is only
// recorded. The errors wrap [ErrBadGlob] and say what to write instead.
func CompilePattern(text string, pos Pos) (Pattern, error) {
	p := Pattern{Text: text, Pos: pos}
	if text == "" {
		return p, fmt.Errorf("%w: empty pattern", ErrBadGlob)
	}
	if strings.ContainsRune(text, 0) {
		return p, fmt.Errorf("%w: pattern contains a NUL byte", ErrBadGlob)
	}
	if strings.TrimSpace(text) != text {
		return p, fmt.Errorf("%w: pattern %q has leading or trailing spaces", ErrBadGlob, text)
	}
	g := text
	switch {
	case g == "~" || strings.HasPrefix(g, "~/"):
		p.Anchor = Home
		g = strings.TrimPrefix(strings.TrimPrefix(g, "~"), "/")
	case strings.HasPrefix(g, "~"):
		return p, fmt.Errorf("%w: %q: ~user is not supported; write the absolute path", ErrBadGlob, text)
	case strings.HasPrefix(g, "/"):
		p.Anchor = Absolute
		g = "/" + strings.TrimLeft(g, "/")
	case strings.HasPrefix(g, "./"):
		p.Anchor = ProjectRoot
		g = strings.TrimLeft(strings.TrimPrefix(g, "."), "/")
	default:
		// A trailing slash marks a directory (gitignore); it does not anchor.
		if strings.Contains(strings.TrimRight(g, "/"), "/") {
			p.Anchor = ProjectRoot
		} else {
			p.Anchor = AnyDepth
		}
	}
	if len(g) > 1 {
		g = strings.TrimRight(g, "/")
	}
	// Collapse "//" and "/./" but refuse "..": a pattern names places, it
	// does not walk.
	for _, el := range strings.Split(g, "/") {
		if el == ".." {
			return p, fmt.Errorf("%w: %q: patterns may not contain \"..\"; write the path from the project root, or an absolute path", ErrBadGlob, text)
		}
	}
	if g != "" && g != "/" {
		lead := strings.HasPrefix(g, "/")
		g = path.Clean(g)
		if lead && !strings.HasPrefix(g, "/") {
			g = "/" + g
		}
		if g == "." {
			g = ""
		}
	}
	if !doublestar.ValidatePattern(g) {
		return p, fmt.Errorf("%w: %q is not a valid glob (unbalanced [ ] or { }, or a trailing \\)", ErrBadGlob, text)
	}
	for _, el := range strings.Split(g, "/") {
		if strings.Contains(el, "**") && el != "**" {
			return p, fmt.Errorf("%w: %q has ** inside a path element; it matches like * (did you mean %q?)", ErrBadGlob, text, suggestDoubleStar(text))
		}
	}
	p.Glob = g
	return p, nil
}

// suggestDoubleStar rewrites "src/**.go" as "src/**/*.go" for error hints.
func suggestDoubleStar(text string) string {
	els := strings.Split(text, "/")
	for i, el := range els {
		if strings.Contains(el, "**") && el != "**" {
			before, after, _ := strings.Cut(el, "**")
			var parts []string
			if before != "" {
				parts = append(parts, before+"*")
			}
			parts = append(parts, "**")
			if after != "" {
				parts = append(parts, "*"+after)
			}
			els[i] = strings.Join(parts, "/")
		}
	}
	return strings.Join(els, "/")
}
