package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
)

// Symbolic links made by the line itself (ln -s, cp -s, and mv of such a
// link) change the tree the commands after them see: "ln -s ../elsewhere
// l && echo x > l/y" writes ../elsewhere/y. The caller resolves targets
// against the disk as it is before the line runs, where l does not exist
// yet, so the analysis rewrites, lexically, every later path through such a
// link: the link's directory joined to its target (path_resolution(7)).

// maxLinkHops bounds the links followed one after the other.
const maxLinkHops = 8

// madeLink is a symbolic link the line makes.
type madeLink struct {
	path string // where the link is, absolute and clean
	// dest is where it leads, absolute and clean (its directory joined to
	// its target); content is the target as written, which a move
	// resolves again from the new directory.
	dest, content string
	// why says why its target is not known, or "".
	why string
}

// link records a symbolic link at the absolute path at, whose target is
// content as written (resolved against at's directory when relative);
// content unknown leaves the paths through it unknown.
func (a *analyzer) link(at string, content sword) {
	at = path.Clean(at)
	l := madeLink{path: at}
	switch {
	case content.unknown != "":
		l.why = "the link " + at + " made earlier in the line leads to " + content.src + ", which is not static"
	case content.glob:
		l.why = "the link " + at + " made earlier in the line leads to a glob's match"
	default:
		l.content = content.lit
		l.dest = linkDest(at, content.lit)
	}
	a.links = append(a.links, l)
}

// linkDest is where a link at "at" whose target is content leads.
func linkDest(at, content string) string {
	if strings.HasPrefix(content, "/") {
		return path.Clean(content)
	}
	return path.Join(path.Dir(at), content)
}

// moveLinks records that a move of from to to carries the links at or
// below from with it: a relative target now resolves from the new place.
func (a *analyzer) moveLinks(from, to string) {
	from, to = path.Clean(from), path.Clean(to)
	for _, l := range a.links {
		if !under(from, l.path) {
			continue
		}
		moved := madeLink{path: to + strings.TrimPrefix(l.path, from), content: l.content, why: l.why}
		if l.why == "" {
			moved.dest = linkDest(moved.path, l.content)
		}
		a.links = append(a.links, moved)
	}
}

// viaLinks adds, for each target whose path goes through a link made
// earlier in the line, the target where the link leads (Target.Via), and
// returns why a target is unknown: it goes through a link whose target is
// not static, or a glob may match such a link.
func (a *analyzer) viaLinks(ts []Target) ([]Target, string) {
	if len(a.links) == 0 {
		return ts, ""
	}
	n := len(ts)
	for i := 0; i < n; i++ {
		t := ts[i]
		for hop := 0; hop < maxLinkHops; hop++ {
			next, why := a.throughLinks(t)
			if why != "" {
				return nil, why
			}
			if next == nil {
				break
			}
			ts = append(ts, *next)
			t = *next
		}
	}
	return ts, ""
}

// throughLinks returns t through the last link made that its path goes
// through, or nil.
func (a *analyzer) throughLinks(t Target) (*Target, string) {
	p, rest := path.Clean(t.Path), ""
	if t.Glob || t.Pattern {
		p, rest = glob.LiteralPrefix(t.Path)
		p = path.Clean(p)
	}
	for i := len(a.links) - 1; i >= 0; i-- {
		l := &a.links[i]
		switch {
		case under(l.path, p):
		case rest != "" && under(p, l.path) && globMayReach(rest, strings.TrimPrefix(l.path, p+"/")):
			return nil, "the glob " + t.Given + " may match the link " + l.path + " made earlier in the line"
		default:
			continue
		}
		if l.why != "" {
			return nil, l.why
		}
		next := t
		next.Via = l.path
		next.Path = l.dest + strings.TrimPrefix(p, l.path)
		if rest != "" {
			next.Path = strings.TrimSuffix(glob.Escape(next.Path), "/") + "/" + rest
		}
		if next.Path == t.Path {
			return nil, ""
		}
		return &next, ""
	}
	return nil, ""
}

// globMayReach reports whether the glob pattern rest (relative elements)
// may match the relative path rel or a directory above it, element by
// element.
func globMayReach(rest, rel string) bool {
	pats, els := strings.Split(rest, "/"), strings.Split(rel, "/")
	for i := 0; i < len(pats) && i < len(els); i++ {
		if pats[i] == "**" {
			return true
		}
		if ok, err := path.Match(pats[i], els[i]); err != nil || !ok {
			return err != nil
		}
	}
	return true
}

// throughLink returns the link made earlier in the line that the absolute
// path p goes through, or "".
func (a *analyzer) throughLink(p string) string {
	p = path.Clean(p)
	for _, l := range a.links {
		if under(l.path, p) {
			return l.path
		}
	}
	return ""
}
