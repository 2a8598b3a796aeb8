// Package glob is the algebra of glob patterns that safezone needs beyond
// matching one path (which doublestar does): brace expansion, the literal
// prefix of a pattern, escaping a literal path into a pattern, and deciding
// whether two patterns can match a common path.
//
// Syntax (doublestar's, which the policy uses): "*" any run of non-slash
// characters, "?" one non-slash character, "[...]" a class ("[!...]" or
// "[^...]" negated, ranges "a-z", "\" escapes), "{a,b}" alternatives, "**"
// as a whole path element any number of elements, "\x" a literal x.
//
// Bash's patterns are another language (POSIX classes, extended globs,
// shell options): [Expand] is bash 5.2's pathname expansion of one word,
// ported from its source, and [FromShell] writes a bash pattern in the
// syntax above, never narrower, for the checks against the policy.
package glob

import (
	"strings"
	"unicode/utf8"
)

// Whether two patterns meet is decided by running both as automata in
// lockstep (a product construction). It answers questions such as "can
// Grep's glob .env* select a file that Read(.env*) denies?" exactly, without
// listing the file system.

// MaxAlternatives bounds brace expansion; a pattern with more alternatives
// is treated as matching anything (the safe answer for a deny check).
const MaxAlternatives = 256

// runeSet is a set of characters: intervals, possibly negated, optionally
// excluding '/'.
type runeSet struct {
	ranges  [][2]rune
	negate  bool
	noSlash bool // '/' is never in the set (classes, '?' and '*' never match '/')
}

func (s *runeSet) has(r rune) bool {
	if r == '/' && s.noSlash {
		return false
	}
	in := false
	for _, rg := range s.ranges {
		if r >= rg[0] && r <= rg[1] {
			in = true
			break
		}
	}
	return in != s.negate
}

// intersects reports whether some character is in both sets. Both are finite
// unions of intervals or their complements, so membership only changes at
// interval ends: testing every end, its neighbours, and a few fixed points
// is exact.
func (s *runeSet) intersects(t *runeSet) bool {
	// Fast paths: single literal characters, the common case.
	if !s.negate && len(s.ranges) == 1 && s.ranges[0][0] == s.ranges[0][1] {
		return t.has(s.ranges[0][0]) && s.has(s.ranges[0][0])
	}
	if !t.negate && len(t.ranges) == 1 && t.ranges[0][0] == t.ranges[0][1] {
		return s.has(t.ranges[0][0]) && t.has(t.ranges[0][0])
	}
	for _, c := range [...]rune{0, '/', 'a', utf8.MaxRune} {
		if s.has(c) && t.has(c) {
			return true
		}
	}
	for _, set := range [...]*runeSet{s, t} {
		for _, rg := range set.ranges {
			for _, c := range [...]rune{rg[0], rg[1], rg[0] - 1, rg[1] + 1} {
				if c >= 0 && c <= utf8.MaxRune && s.has(c) && t.has(c) {
					return true
				}
			}
		}
	}
	return false
}

// nfa is a Thompson automaton: state i has character edges and epsilon edges.
type nfa struct {
	edges  [][]edge
	eps    [][]int
	accept int
	// closures[i] is the epsilon closure of state i, filled by compileGlob.
	closures [][]int
	pool     []edge
	self     []int // self[i] == i, backing the closures of states without epsilon edges
}

// edgeKind says which characters an edge takes.
type edgeKind uint8

const (
	edgeRune    edgeKind = iota // exactly r
	edgeNoSlash                 // any character but '/'
	edgeAny                     // any character
	edgeClass                   // a "[...]" class (never '/')
)

type edge struct {
	kind edgeKind
	r    rune     // for edgeRune
	set  *runeSet // for edgeClass
	to   int
	// lit marks an edge from a literal character or a class, as opposed to
	// a wildcard ("*", "?", "**") or a path separator.
	lit bool
}

func (e *edge) has(r rune) bool {
	switch e.kind {
	case edgeRune:
		return r == e.r
	case edgeNoSlash:
		return r != '/'
	case edgeAny:
		return true
	}
	return e.set.has(r)
}

// meets reports whether some character is taken by both edges.
func (e *edge) meets(f *edge) bool {
	switch {
	case e.kind == edgeRune:
		return f.has(e.r)
	case f.kind == edgeRune:
		return e.has(f.r)
	case e.kind == edgeClass && f.kind == edgeClass:
		return e.set.intersects(f.set)
	case e.kind == edgeClass:
		return e.set.intersects(anyNoSlash)
	case f.kind == edgeClass:
		return f.set.intersects(anyNoSlash)
	}
	return true // two wildcards: any non-slash character will do
}

// newState adds a state. States take their first two edges from one
// shared array (a glob's states rarely have more), which keeps compiling a
// long absolute glob to a few allocations.
func (n *nfa) newState() int {
	i := len(n.edges)
	var es []edge
	if 2*i+2 <= len(n.pool) {
		es = n.pool[2*i : 2*i : 2*i+2]
	}
	n.edges = append(n.edges, es)
	n.eps = append(n.eps, nil)
	return i
}

var anyNoSlash = &runeSet{negate: true, noSlash: true}

func (n *nfa) add(from int, e edge) { n.edges[from] = append(n.edges[from], e) }

// compileGlob builds an automaton for one brace-free pattern. Characters in
// the first neutral bytes never count as literal (see [Cache.Names]). ok is
// false for a malformed pattern.
func compileGlob(p string, neutral int) (n *nfa, ok bool) {
	n = &nfa{edges: make([][]edge, 0, len(p)+8), eps: make([][]int, 0, len(p)+8), pool: make([]edge, 2*len(p)+16)}
	cur := n.newState()
	var els []string
	for _, el := range strings.Split(p, "/") {
		// "**/**" means the same as "**".
		if el == "**" && len(els) > 0 && els[len(els)-1] == "**" {
			continue
		}
		els = append(els, el)
	}
	offset := 0
	for i, el := range els {
		if i > 0 {
			offset += len(els[i-1]) + 1
		}
		if el == "**" {
			// "**" as a whole element: any number of elements. With its
			// separators: "a/**/b" is a/(anything/)?b, "**/b" is
			// (anything/)?b, "a/**" is a(/anything)?, "**" is anything.
			first, lastEl := i == 0, i == len(els)-1
			switch {
			case first && lastEl:
				n.add(cur, edge{kind: edgeAny, to: cur})
			case lastEl:
				// cur is after "a" and before the "/" we have not emitted.
				next := n.newState()
				n.eps[cur] = append(n.eps[cur], next)
				mid := n.newState()
				n.add(cur, edge{kind: edgeRune, r: '/', to: mid})
				n.add(mid, edge{kind: edgeAny, to: mid})
				n.eps[mid] = append(n.eps[mid], next)
				cur = next
			default:
				// [/](anything/)? then the next element; the "/" after
				// "**" is consumed here, so it is not emitted below.
				if !first {
					s1 := n.newState()
					n.add(cur, edge{kind: edgeRune, r: '/', to: s1})
					cur = s1
				}
				next := n.newState()
				n.eps[cur] = append(n.eps[cur], next)
				mid := n.newState()
				n.eps[cur] = append(n.eps[cur], mid)
				n.add(mid, edge{kind: edgeAny, to: mid})
				n.add(mid, edge{kind: edgeRune, r: '/', to: next})
				cur = next
			}
			continue
		}
		if i > 0 && els[i-1] != "**" {
			next := n.newState()
			n.add(cur, edge{kind: edgeRune, r: '/', to: next})
			cur = next
		}
		var good bool
		if cur, good = n.element(cur, el, offset < neutral); !good {
			return nil, false
		}
	}
	n.accept = cur
	n.closures = make([][]int, len(n.edges))
	n.self = make([]int, len(n.edges))
	for i := range n.self {
		n.self[i] = i
	}
	for i := range n.edges {
		n.closures[i] = n.closure(i)
	}
	return n, true
}

// element adds one path element (no '/', no "**" element) after state cur;
// neutral elements add no literal edges.
func (n *nfa) element(cur int, el string, neutral bool) (int, bool) {
	for i := 0; i < len(el); {
		r, w := utf8.DecodeRuneInString(el[i:])
		switch r {
		case '*':
			for i < len(el) && el[i] == '*' {
				i++
			}
			n.add(cur, edge{kind: edgeNoSlash, to: cur})
			continue
		case '?':
			next := n.newState()
			n.add(cur, edge{kind: edgeNoSlash, to: next})
			cur = next
		case '[':
			set, used, ok := parseClass(el[i:])
			if !ok {
				return cur, false
			}
			next := n.newState()
			n.add(cur, edge{kind: edgeClass, set: set, to: next, lit: !neutral})
			cur = next
			i += used
			continue
		case '\\':
			i += w
			if i >= len(el) {
				return cur, false
			}
			r, w = utf8.DecodeRuneInString(el[i:])
			fallthrough
		default:
			next := n.newState()
			n.add(cur, edge{kind: edgeRune, r: r, to: next, lit: !neutral})
			cur = next
		}
		i += w
	}
	return cur, true
}

// parseClass parses "[...]" at the start of s and returns the set and the
// bytes consumed.
func parseClass(s string) (*runeSet, int, bool) {
	set := &runeSet{noSlash: true}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		set.negate = true
		i++
	}
	first := true
	for i < len(s) {
		if s[i] == ']' && !first {
			return set, i + 1, true
		}
		first = false
		lo, w, ok := classRune(s, i)
		if !ok {
			return nil, 0, false
		}
		i += w
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, w, ok = classRune(s, i+1)
			if !ok {
				return nil, 0, false
			}
			i += 1 + w
		}
		if hi < lo {
			return nil, 0, false
		}
		set.ranges = append(set.ranges, [2]rune{lo, hi})
	}
	return nil, 0, false
}

func classRune(s string, i int) (rune, int, bool) {
	if s[i] == '\\' {
		if i+1 >= len(s) {
			return 0, 0, false
		}
		r, w := utf8.DecodeRuneInString(s[i+1:])
		return r, w + 1, true
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return r, w, true
}

// closure returns the states reachable from s by epsilon edges, s included.
func (n *nfa) closure(s int) []int {
	if len(n.eps[s]) == 0 {
		return n.self[s : s+1 : s+1]
	}
	out := []int{s}
	for i := 0; i < len(out); i++ {
		for _, t := range n.eps[out[i]] {
			seen := false
			for _, o := range out {
				seen = seen || o == t
			}
			if !seen {
				out = append(out, t)
			}
		}
	}
	return out
}

// intersect reports whether some string is accepted by both automata; with
// aligned, only strings in which at least one character is matched by a
// literal edge in both automata count. It walks the product automaton
// breadth-first; states are (a-state, b-state, aligned yet).
func intersect(a, b *nfa, aligned bool) bool {
	nb := len(b.edges)
	seen := make([]bool, len(a.edges)*nb*2)
	type state struct {
		x, y int
		hit  bool
	}
	queue := make([]state, 0, 16)
	push := func(x, y int, hit bool) {
		for _, cx := range a.closures[x] {
			for _, cy := range b.closures[y] {
				k := (cx*nb + cy) * 2
				if hit {
					k++
				}
				if !seen[k] {
					seen[k] = true
					queue = append(queue, state{cx, cy, hit})
				}
			}
		}
	}
	push(0, 0, !aligned)
	for len(queue) > 0 {
		s := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if s.hit && s.x == a.accept && s.y == b.accept {
			return true
		}
		for i := range a.edges[s.x] {
			ea := &a.edges[s.x][i]
			for j := range b.edges[s.y] {
				eb := &b.edges[s.y][j]
				if ea.meets(eb) {
					push(ea.to, eb.to, s.hit || (ea.lit && eb.lit))
				}
			}
		}
	}
	return false
}

// intersects reports whether some path matches both glob patterns a and
// b. A malformed pattern, or one with more than MaxAlternatives brace
// alternatives, intersects everything: callers use the answer to apply deny
// rules, and an answer that cannot be computed must not let a deny slip.
func intersects(a, b string) bool { return meet(nil, a, b, 0, false) }

// Cache holds compiled automata; the zero value is not usable, make one with
// make(glob.Cache). It is not safe for concurrent use: safezone keeps one for
// the length of one decision.
type Cache map[cacheKey][]*nfa

type cacheKey struct {
	glob    string
	neutral int
}

// Names reports whether the glob target names a path that pattern matches:
// some path matches both, and in it at least one character that pattern
// spells literally is also spelled literally by target (the first neutral
// bytes of pattern, its anchor directory, do not count). So ".env*", ".e*"
// and "*.env" name ".env*" files, while "*.go" and "**" do not, though they
// could select a file called ".env.go": choosing by wildcard alone is a
// search of a whole directory, judged by that directory. A malformed
// pattern, or one with more than MaxAlternatives brace alternatives, names
// everything. A nil Cache compiles afresh each time.
func (c Cache) Names(target, pattern string, neutral int) bool {
	return meet(c, target, pattern, neutral, true)
}

// compiled returns the automata of every brace alternative of glob; nil
// with ok false for a pattern that cannot be compiled.
func (c Cache) compiled(glob string, neutral int) ([]*nfa, bool) {
	k := cacheKey{glob, neutral}
	if ns, ok := c[k]; ok {
		return ns, ns != nil
	}
	var out []*nfa
	alts, ok := ExpandBraces(glob, MaxAlternatives)
	if ok {
		for _, alt := range alts {
			n, good := compileGlob(alt, neutral)
			if !good {
				out, ok = nil, false
				break
			}
			out = append(out, n)
		}
	}
	if c != nil {
		c[k] = out
	}
	return out, ok
}

func meet(c Cache, a, b string, neutral int, aligned bool) bool {
	as, okA := c.compiled(a, 0)
	bs, okB := c.compiled(b, neutral)
	if !okA || !okB {
		return true
	}
	for _, na := range as {
		for _, nb := range bs {
			if intersect(na, nb, aligned) {
				return true
			}
		}
	}
	return false
}

// ExpandBraces expands "{a,b}" alternatives (nested, "\" escapes honoured)
// into at most limit patterns; ok is false past the limit or on an unclosed
// "{". A stray "}" is literal.
func ExpandBraces(p string, limit int) ([]string, bool) {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			// Skip a class: braces inside it are literal.
			if j := classEnd(p, i); j > 0 {
				i = j
			}
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue // a stray "}" is literal, as in bash
			}
			depth--
			if depth == 0 {
				var out []string
				pre, post := p[:open], p[i+1:]
				for _, alt := range splitAlternatives(p[open+1 : i]) {
					more, ok := ExpandBraces(pre+alt+post, limit-len(out))
					if !ok {
						return nil, false
					}
					out = append(out, more...)
					if len(out) > limit {
						return nil, false
					}
				}
				return out, true
			}
		}
	}
	if depth != 0 {
		return nil, false
	}
	return []string{p}, true
}

// classEnd returns the index of the "]" closing the class at p[i], or -1.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// splitAlternatives splits the inside of one brace group at top-level commas.
func splitAlternatives(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// LiteralPrefix returns the leading elements of a brace-free pattern that
// hold no glob metacharacter, unescaped, joined with "/" (absolute patterns
// keep their leading "/"), and the rest of the pattern.
//
// A pattern without a backslash needs no unescaping: both are then slices
// of p, and nothing is allocated (classify calls this for every protected
// pattern and write target).
func LiteralPrefix(p string) (prefix, rest string) {
	if !strings.Contains(p, `\`) {
		for start := 0; ; {
			end := strings.IndexByte(p[start:], '/')
			if end < 0 {
				end = len(p)
			} else {
				end += start
			}
			if HasMeta(p[start:end]) {
				if start > 0 {
					prefix = p[:start-1]
				}
				if prefix == "" && strings.HasPrefix(p, "/") {
					prefix = "/"
				}
				return prefix, p[start:]
			}
			if end == len(p) {
				return p, ""
			}
			start = end + 1
		}
	}
	els := strings.Split(p, "/")
	i := 0
	for ; i < len(els); i++ {
		if HasMeta(els[i]) {
			break
		}
	}
	lits := make([]string, i)
	for j := 0; j < i; j++ {
		lits[j] = Unescape(els[j])
	}
	prefix = strings.Join(lits, "/")
	if strings.HasPrefix(p, "/") && prefix == "" {
		prefix = "/"
	}
	return prefix, strings.Join(els[i:], "/")
}

// HasMeta reports whether the path element el holds an unescaped glob
// metacharacter: *, ?, [ or {, or the start of one of bash's extended
// globs: +(, @( or !(.
func HasMeta(el string) bool {
	for i := 0; i < len(el); i++ {
		switch el[i] {
		case '\\':
			i++
		case '*', '?', '[', '{':
			return true
		case '+', '@', '!':
			if i+1 < len(el) && el[i+1] == '(' {
				return true
			}
		}
	}
	return false
}

// Unescape removes the backslash escapes of a pattern (element): `a\*b`
// is "a*b". It is the literal text of a pattern that has no metacharacter.
func Unescape(el string) string {
	if !strings.Contains(el, `\`) {
		return el
	}
	var b strings.Builder
	for i := 0; i < len(el); i++ {
		if el[i] == '\\' && i+1 < len(el) {
			i++
		}
		b.WriteByte(el[i])
	}
	return b.String()
}

// Escape quotes every glob metacharacter in a literal path, so that it can
// be used in, or joined to, a pattern: Escape("/a[1]") is `/a\[1\]`. A "("
// is quoted too, so that no extended glob of bash's starts in it.
func Escape(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\(`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\(`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// NoHidden rewrites a pattern for matching as a shell's filename expansion
// does without dotglob (bash(1), "Pathname Expansion"): a name that starts
// with "." is only matched by an element that starts with a literal ".".
// Each element that starts with "*" or "?" gets a first character that is
// not ".": "*.txt" becomes "[!.]*.txt", "?x" becomes "[!.]x". An element
// that starts with a class is left alone (bash matches no leading "." with
// one either; the pattern errs on matching too much).
func NoHidden(p string) string {
	els := strings.Split(p, "/")
	for i, el := range els {
		switch {
		case strings.HasPrefix(el, "*"):
			els[i] = "[!.]" + el
		case strings.HasPrefix(el, "?"):
			els[i] = "[!.]" + el[1:]
		}
	}
	return strings.Join(els, "/")
}
