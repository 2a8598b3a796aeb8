package classify

import (
	"runtime"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/safezonehq/safezone/policy"
)

// caseInsensitive is true on the platforms whose default file systems ignore
// case (APFS and HFS+ on macOS, NTFS on Windows): there ".ENV" is ".env", so
// patterns and containment compare case-folded.
const caseInsensitive = runtime.GOOS == "darwin" || runtime.GOOS == "windows"

// anchors are the directories patterns are relative to. Each holds every
// spelling under which the directory may appear in a path: as given and as
// resolved (a project reached through a symlink).
type anchors struct {
	project []string // the project root(s), absolute and clean
	home    []string // the home directory, if known
	// templates are the policy's paths.templates, folded: names a pattern
	// reaches only by naming them (see [anchors.template]).
	templates []string
}

func fold(s string) string {
	if caseInsensitive {
		return strings.ToLower(s)
	}
	return s
}

// within reports whether p is root or below it, by whole path components:
// "/proj-evil" and "/proj.bak" are not within "/proj".
func within(root, p string) bool {
	root, p = fold(root), fold(p)
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	// p == root, or p starts with root and a "/": without building
	// root+"/", which this, called for every rule and target, would allocate.
	return strings.HasPrefix(p, root) && (len(p) == len(root) || p[len(root)] == '/')
}

// relTo returns p relative to root ("" for root itself) if p is within it.
func relTo(root, p string) (string, bool) {
	if !within(root, p) {
		return "", false
	}
	if len(p) == len(root) {
		return "", true
	}
	if root == "/" {
		return p[1:], true
	}
	return p[len(root)+1:], true
}

// matchPattern reports whether the absolute, clean path abs is matched by
// pattern p, or lies below a directory that p matches (a pattern that matches
// a directory covers everything below it).
func matchPattern(p *policy.Pattern, abs string, a *anchors) bool {
	glob := fold(p.Glob)
	abs = fold(abs)
	// The template exception is looked at only for a match: most
	// patterns match nothing.
	return matchAnchored(p.Anchor, glob, abs, a) && !a.template(glob, abs[strings.LastIndexByte(abs, '/')+1:])
}

// matchAnchored is matchPattern without the exception for templates: glob
// and abs are folded.
func matchAnchored(anchor policy.Anchor, glob, abs string, a *anchors) bool {
	switch anchor {
	case policy.AnyDepth:
		lit := globLiteral(glob)
		pre, suf, star := oneStar(glob)
		for p := abs; p != ""; {
			c := p
			if i := strings.IndexByte(p, '/'); i >= 0 {
				c, p = p[:i], p[i+1:]
			} else {
				p = ""
			}
			if c == "" || !strings.HasPrefix(c, lit) {
				continue // cannot match: the glob starts with lit
			}
			if lit == glob {
				if c == glob {
					return true
				}
				continue
			}
			if star {
				if len(c) >= len(pre)+len(suf) && strings.HasSuffix(c, suf) {
					return true // c starts with lit, which is pre
				}
				continue
			}
			if doublestar.MatchUnvalidated(glob, c) {
				return true
			}
		}
		return false
	case policy.Absolute:
		return matchPrefixes(glob, abs, true)
	case policy.ProjectRoot:
		return matchRelative(glob, abs, a.project)
	case policy.Home:
		return matchRelative(glob, abs, a.home)
	}
	return false
}

// oneStar splits a one-element glob whose only metacharacter is one "*"
// ("*.pem", ".env*", "id_*.pub") into the text before and after it: a name
// matches it exactly when it is long enough for both, starts with pre and
// ends with suf, without a call to the general matcher for each path
// component. ok is false for any other glob.
func oneStar(glob string) (pre, suf string, ok bool) {
	i := strings.IndexByte(glob, '*')
	if i < 0 || strings.ContainsAny(glob, "?[{\\/") || strings.IndexByte(glob[i+1:], '*') >= 0 {
		return "", "", false
	}
	return glob[:i], glob[i+1:], true
}

// globLiteral returns the text every match of glob starts with: glob up to
// its first metacharacter or escape, less a trailing slash ("a/**" also
// matches "a"); all of glob when it has no metacharacter.
func globLiteral(glob string) string {
	if i := strings.IndexAny(glob, "*?[{\\"); i >= 0 {
		return strings.TrimSuffix(glob[:i], "/")
	}
	return glob
}

func matchRelative(glob, abs string, roots []string) bool {
	for _, root := range roots {
		rel, ok := relTo(root, abs)
		if !ok {
			continue
		}
		if glob == "" {
			return true // "./" or "~": the directory itself covers everything below
		}
		if rel != "" && matchPrefixes(glob, rel, false) {
			return true
		}
	}
	return false
}

// matchPrefixes matches glob against p and each of its ancestors ("a",
// "a/b", ... for a relative p; "/a", "/a/b", ... for an absolute one).
func matchPrefixes(glob, p string, abs bool) bool {
	if abs && glob == "/" {
		return true
	}
	// Whatever matches glob starts with its literal prefix: a p without it
	// has no matching prefix, and a glob that is all literal matches p or
	// an ancestor exactly when p is it or lies below it.
	lit := globLiteral(glob)
	if !strings.HasPrefix(p, lit) {
		return false
	}
	if lit == glob && !strings.HasSuffix(glob, "/") {
		return len(p) == len(glob) || p[len(glob)] == '/'
	}
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if doublestar.MatchUnvalidated(glob, p[:i]) {
				return true
			}
		}
	}
	return false
}

// patternGlob is a policy pattern spelled as an absolute glob; its first
// neutral bytes are the anchor directory (see GlobNames).
type patternGlob struct {
	glob    string
	neutral int
}

// patternGlobs returns p as absolute globs, one per anchor spelling and one
// more for what lies below its matches (a pattern that matches a directory
// covers everything below it), for comparing with a pattern target.
func patternGlobs(p *policy.Pattern, a *anchors) []patternGlob {
	switch p.Anchor {
	case policy.AnyDepth:
		return []patternGlob{{"/**/" + p.Glob, 0}, {"/**/" + p.Glob + "/**", 0}}
	case policy.Absolute:
		if p.Glob == "/" {
			return []patternGlob{{"/**", 0}}
		}
		return []patternGlob{{p.Glob, 0}, {p.Glob + "/**", 0}}
	}
	bases := a.project
	if p.Anchor == policy.Home {
		bases = a.home
	}
	var out []patternGlob
	for _, b := range bases {
		prefix := strings.TrimSuffix(glob.Escape(b), "/") + "/"
		if p.Glob == "" {
			out = append(out, patternGlob{prefix + "**", len(prefix)})
			continue
		}
		out = append(out, patternGlob{prefix + p.Glob, len(prefix)}, patternGlob{prefix + p.Glob + "/**", len(prefix)})
	}
	return out
}

// template reports whether name (a folded file name) is one of the
// policy's paths.templates that pat (a folded glob) reaches only by a wildcard in
// its last element: the element starts with the same literal text as name
// and does not spell name's last extension. So ".env*" does not reach
// .env.example, while ".env.example", ".env.ex*ample" and "*.example" (no
// literal start) are left to match as they would; "secrets/**" still
// covers secrets/.env.example.
func (a *anchors) template(pat, name string) bool {
	if len(a.templates) == 0 || !slices.Contains(a.templates, name) {
		return false
	}
	last := pat[strings.LastIndexByte(pat, '/')+1:]
	if !glob.HasMeta(last) {
		return false
	}
	lit := last[:strings.IndexAny(last, "*?[{\\")]
	if lit == "" || !strings.HasPrefix(name, lit) {
		return false
	}
	ext := name
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		ext = name[i:]
	}
	return !strings.Contains(last, ext)
}
