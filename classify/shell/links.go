package shell

import (
	"path"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
)

// Symbolic links made by the line itself (ln -s, cp -s, and mv of such a
// link) change the tree the commands after them see: "ln -s ../elsewhere
// l && echo x > l/y" writes ../elsewhere/y. The caller resolves targets
// against the disk as it is before the line runs, where l does not exist
// yet, so the analysis rewrites every later path through such a link: the
// link's directory joined to its target, resolved element by element
// (path_resolution(7)), ".." lexically but after a link made.

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
		if t.Glob || t.Pattern {
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
			continue
		}
		p, via, why := a.overLinks(t.Path)
		if why != "" {
			return nil, why
		}
		if via != "" {
			t.Path, t.Via = p, via
			ts = append(ts, t)
		}
	}
	return ts, ""
}

// overLinks resolves the absolute path p through the links made earlier in
// the line, element by element as the kernel does (path_resolution(7)):
// a link met is replaced by where it leads, before any ".." after it; ".."
// is lexical elsewhere (the caller resolves the links on the disk). It
// returns the path, the last link made in the line it went through ("" for
// none), and why it is unknown.
func (a *analyzer) overLinks(p string) (string, string, string) {
	if !strings.HasPrefix(p, "/") {
		return p, "", ""
	}
	via := ""
	for hop := 0; ; hop++ {
		els := strings.Split(p, "/")
		cur := "/"
		var l *madeLink
		i := 0
		for ; i < len(els) && l == nil; i++ {
			switch els[i] {
			case "", ".":
				continue
			case "..":
				cur = path.Dir(cur)
				continue
			}
			cur = path.Join(cur, els[i])
			l = a.linkAt(cur)
		}
		switch {
		case l == nil:
			return cur, via, ""
		case l.why != "":
			return "", "", l.why
		case hop >= maxLinkHops:
			return "", "", "the links made in the line lead into one another too many times"
		}
		via = l.path
		p = l.dest + "/" + strings.Join(els[i:], "/")
	}
}

// linkAt returns the last link made in the line at the clean path p, or
// nil.
func (a *analyzer) linkAt(p string) *madeLink {
	for i := len(a.links) - 1; i >= 0; i-- {
		if a.links[i].path == p {
			return &a.links[i]
		}
	}
	return nil
}

// throughLinks returns the glob or pattern target t through the last link
// made that its literal directory goes through, or nil; a glob that may
// match a link made is unknown.
func (a *analyzer) throughLinks(t Target) (*Target, string) {
	p, rest := glob.LiteralPrefix(t.Path)
	p = path.Clean(p)
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
		next.Path = strings.TrimSuffix(glob.Escape(l.dest+strings.TrimPrefix(p, l.path)), "/") + "/" + rest
		if rest == "" {
			next.Path = glob.Escape(l.dest + strings.TrimPrefix(p, l.path))
		}
		if next.Path == t.Path {
			return nil, ""
		}
		return &next, ""
	}
	return nil, ""
}

// globMayReach reports whether the glob pattern rest (relative elements,
// bash's syntax) may match the relative path rel or a directory above it,
// element by element, under any shell options.
func globMayReach(rest, rel string) bool {
	pats, els := strings.Split(rest, "/"), strings.Split(rel, "/")
	for i := 0; i < len(pats) && i < len(els); i++ {
		if pats[i] == "**" {
			return true
		}
		if !glob.MayMatchName(pats[i], els[i]) {
			return false
		}
	}
	return true
}

// throughLink returns the link made earlier in the line that the absolute
// path p goes through, or "".
func (a *analyzer) throughLink(p string) string {
	_, via, why := a.overLinks(p)
	if why != "" {
		return "a link whose target is not static"
	}
	return via
}
