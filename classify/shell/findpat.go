package shell

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/safezonehq/safezone/policy/glob"
)

// This file is the pattern language of find's tests that select by name or
// path (find(1), GNU findutils 4.9: -name, -iname, -path, -ipath,
// -wholename, -iwholename, -regex, -iregex): their fnmatch(3) patterns
// and regular expressions are parsed into one small regular language over
// paths (pnode), flattened into sequences of atoms (one character of a set,
// or any string over a set), and printed as the globs safezone judges
// (policy/glob's syntax, relative to a start point).
//
// A translation is exact when its globs match the same paths as the test,
// and an over-approximation otherwise (they match more, never less): a
// repetition of anything but "." in a regular expression (x* is read as
// "empty, or x then anything"), a case-folded class beyond ASCII, a POSIX
// class (which a locale may extend beyond ASCII). Only exact translations
// may exclude paths (find's negated tests); either kind may select them.

// runeRange is the characters lo to hi, inclusive.
type runeRange struct{ lo, hi rune }

// charSet is a set of characters: sorted, disjoint, non-adjacent ranges.
type charSet []runeRange

var (
	anyChar     = charSet{{0, unicode.MaxRune}}
	anyButSlash = charSet{{0, '/' - 1}, {'/' + 1, unicode.MaxRune}}
)

func runeSet(r rune) charSet { return charSet{{r, r}} }

func (s charSet) has(r rune) bool {
	for _, rg := range s {
		if r < rg.lo {
			return false
		}
		if r <= rg.hi {
			return true
		}
	}
	return false
}

// union returns s ∪ t, normalised.
func (s charSet) union(t charSet) charSet {
	all := make(charSet, 0, len(s)+len(t))
	all = append(append(all, s...), t...)
	slices.SortFunc(all, func(a, b runeRange) int { return int(a.lo - b.lo) })
	var out charSet
	for _, rg := range all {
		if n := len(out); n > 0 && rg.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, rg.hi)
			continue
		}
		out = append(out, rg)
	}
	return out
}

// complement returns every character not in s.
func (s charSet) complement() charSet {
	var out charSet
	next := rune(0)
	for _, rg := range s {
		if rg.lo > next {
			out = append(out, runeRange{next, rg.lo - 1})
		}
		next = rg.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, runeRange{next, unicode.MaxRune})
	}
	return out
}

// intersect returns s ∩ t.
func (s charSet) intersect(t charSet) charSet {
	return s.complement().union(t.complement()).complement()
}

// covers reports whether every character of t is in s.
func (s charSet) covers(t charSet) bool { return len(t.intersect(s.complement())) == 0 }

// foldLimit bounds the characters folded one by one; a larger range folds
// to every character (an over-approximation).
const foldLimit = 4096

// fold returns s with every case variant of its characters (unicode's
// simple folding orbits), and whether that is exactly what a case-folding
// match does: GNU fnmatch and regex compare towlower of both sides, which
// agrees with the orbits on ASCII but not on every letter beyond it
// (U+017F folds with "s" by orbit, not by towlower).
func (s charSet) fold() (charSet, bool) {
	out := s
	exact := true
	for _, rg := range s {
		if rg.hi-rg.lo > foldLimit {
			return anyChar, false
		}
		for r := rg.lo; r <= rg.hi; r++ {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if !out.has(f) {
					out = out.union(runeSet(f))
					exact = exact && r < utf8.RuneSelf && f < utf8.RuneSelf
				}
			}
		}
	}
	return out, exact
}

// pkind is the kind of a pnode.
type pkind uint8

const (
	pChar pkind = iota // one character of set
	pStar              // any string of characters of set (anyChar or anyButSlash)
	pCat               // subs one after another (none: the empty string)
	pAlt               // any one of subs
)

// pnode is a pattern over paths.
type pnode struct {
	kind pkind
	set  charSet
	subs []*pnode
}

func pcat(subs ...*pnode) *pnode { return &pnode{kind: pCat, subs: subs} }
func palt(subs ...*pnode) *pnode { return &pnode{kind: pAlt, subs: subs} }
func pchar(s charSet) *pnode     { return &pnode{kind: pChar, set: s} }
func pstar(s charSet) *pnode     { return &pnode{kind: pStar, set: s} }

// mayHaveSlash reports whether some string n matches holds a "/".
func (n *pnode) mayHaveSlash() bool {
	switch n.kind {
	case pChar, pStar:
		return n.set.has('/')
	}
	for _, s := range n.subs {
		if s.mayHaveSlash() {
			return true
		}
	}
	return false
}

// foldCase replaces every set of n by its case fold and reports whether
// that is exact (see charSet.fold).
func (n *pnode) foldCase() bool {
	exact := true
	switch n.kind {
	case pChar:
		var ok bool
		n.set, ok = n.set.fold()
		exact = ok
	case pStar:
		// anyChar and anyButSlash fold to themselves.
	default:
		for _, s := range n.subs {
			exact = s.foldCase() && exact
		}
	}
	return exact
}

// repeat returns a pattern for zero or more (min 0) or one or more (min 1)
// of n, and whether it is exact: any string over a set that holds every
// character but "/" is exact; any other repetition is read as n, then any
// string (of characters but "/" when n holds none), an over-approximation.
func repeat(n *pnode, min int) (*pnode, bool) {
	var rest *pnode
	exact := false
	if n.kind == pChar && n.set.covers(anyButSlash) {
		rest, exact = pstar(n.set), true
		if min == 0 {
			return rest, true
		}
	} else if n.mayHaveSlash() {
		rest = pstar(anyChar)
	} else {
		rest = pstar(anyButSlash)
	}
	once := pcat(n, rest)
	if min == 0 {
		return palt(pcat(), once), exact
	}
	return once, exact
}

// patom is one atom of a flattened pattern: one character of set, or with
// star any string of them.
type patom struct {
	set  charSet
	star bool
}

// flatten returns the sequences of atoms whose union n matches, at most
// limit; false past it.
func flatten(n *pnode, limit int) ([][]patom, bool) {
	switch n.kind {
	case pChar, pStar:
		if len(n.set) == 0 {
			if n.kind == pStar {
				return [][]patom{nil}, true // the empty string only
			}
			return nil, true // no character: nothing
		}
		return [][]patom{{{set: n.set, star: n.kind == pStar}}}, true
	case pAlt:
		var out [][]patom
		for _, s := range n.subs {
			fs, ok := flatten(s, limit)
			if !ok {
				return nil, false
			}
			out = append(out, fs...)
			if len(out) > limit {
				return nil, false
			}
		}
		return out, true
	}
	out := [][]patom{nil}
	for _, s := range n.subs {
		fs, ok := flatten(s, limit)
		if !ok {
			return nil, false
		}
		var next [][]patom
		for _, a := range out {
			for _, b := range fs {
				next = append(next, append(slices.Clip(a), b...))
				if len(next) > limit {
					return nil, false
				}
			}
		}
		out = next
	}
	return out, true
}

// residuals returns the suffixes of f that match what may follow s: f
// matches s+x exactly when one of them matches x.
func residuals(f []patom, s string) [][]patom {
	cur := closeStars(f, []int{0})
	for _, r := range s {
		var next []int
		for _, i := range cur {
			if i == len(f) || !f[i].set.has(r) {
				continue
			}
			if f[i].star {
				next = append(next, i)
			} else {
				next = append(next, i+1)
			}
		}
		cur = closeStars(f, next)
		if len(cur) == 0 {
			return nil
		}
	}
	out := make([][]patom, 0, len(cur))
	for k, i := range cur {
		// After a star, what follows it matches less than the star
		// and what follows it: leave it out.
		if k > 0 && cur[k-1] == i-1 && f[i-1].star {
			continue
		}
		out = append(out, f[i:])
	}
	return out
}

// closeStars adds to the positions those reached by skipping stars (a star
// matches the empty string), sorted and without duplicates.
func closeStars(f []patom, pos []int) []int {
	var out []int
	for _, i := range pos {
		for ; ; i++ {
			out = append(out, i)
			if i == len(f) || !f[i].star {
				break
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// matchesFlat reports whether f matches s.
func matchesFlat(f []patom, s string) bool {
	for _, r := range residuals(f, s) {
		if nullable(r) {
			return true
		}
	}
	return false
}

func nullable(f []patom) bool {
	for _, a := range f {
		if !a.star {
			return false
		}
	}
	return true
}

// gtok is one token of a glob being printed: a character of set (never
// "/"), a "/", or a star (any string; with slash, "/" included).
type gtok struct {
	kind  uint8 // gChar, gSlash, gStar
	set   charSet
	slash bool
}

const (
	gChar uint8 = iota
	gSlash
	gStar
)

// relGlobs returns globs (policy/glob syntax) that together match exactly
// the relative paths f matches: paths with no leading, trailing or
// doubled "/", as find builds them below a start point. At most limit;
// false past it.
func relGlobs(f []patom, limit int) ([]string, bool) {
	// Adjacent stars are one star.
	var atoms []patom
	for _, a := range f {
		if n := len(atoms); n > 0 && a.star && atoms[n-1].star {
			atoms[n-1].set = atoms[n-1].set.union(a.set)
			continue
		}
		atoms = append(atoms, a)
	}
	// A character that may be "/" or another is two variants.
	lists := [][]gtok{nil}
	for _, a := range atoms {
		var alts []gtok
		switch {
		case a.star:
			alts = []gtok{{kind: gStar, slash: a.set.has('/')}}
		default:
			if a.set.has('/') {
				alts = append(alts, gtok{kind: gSlash})
			}
			if rest := a.set.intersect(nameChars); len(rest) > 0 {
				alts = append(alts, gtok{kind: gChar, set: rest})
			}
		}
		var next [][]gtok
		for _, l := range lists {
			for _, t := range alts {
				next = append(next, append(slices.Clip(l), t))
			}
		}
		if len(next) > limit {
			return nil, false
		}
		lists = next
	}
	var out []string
	for _, l := range lists {
		gs, ok := printGlob(l, limit-len(out))
		if !ok {
			return nil, false
		}
		out = append(out, gs...)
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// printGlob prints one token list as globs; none when it can only match
// paths find never builds (a leading, trailing or doubled "/").
func printGlob(l []gtok, limit int) ([]string, bool) {
	for i, t := range l {
		if t.kind == gSlash && (i == 0 || i == len(l)-1 || l[i-1].kind == gSlash) {
			return nil, true
		}
	}
	outs := []string{""}
	for i, t := range l {
		var parts []string
		switch t.kind {
		case gSlash:
			parts = []string{"/"}
		case gChar:
			parts = []string{printSet(t.set)}
		case gStar:
			parts = []string{"*"}
			if t.slash {
				// Any string with a "/" in it is "*/**/*"; at the start of
				// a path element, with "*" it is "**/*", at its end "*/**",
				// and a whole element is one or more elements, "*/**".
				first := i == 0 || l[i-1].kind == gSlash
				last := i == len(l)-1 || l[i+1].kind == gSlash
				switch {
				case last:
					parts = []string{"*/**"}
				case first:
					parts = []string{"**/*"}
				default:
					parts = []string{"*", "*/**/*"}
				}
			}
		}
		var next []string
		for _, o := range outs {
			for _, p := range parts {
				next = append(next, o+p)
			}
		}
		if len(next) > limit {
			return nil, false
		}
		outs = next
	}
	return outs, true
}

// printSet prints one character of s (never "/"): the character, "?" for
// any, or a class, whichever of the set and its complement is shorter.
// The characters NUL and the UTF-16 surrogates are left out: no file name
// holds them (a path's invalid UTF-8 decodes to U+FFFD).
func printSet(s charSet) string {
	s = s.intersect(nameChars)
	if len(s) == 1 && s[0].lo == s[0].hi {
		return glob.Escape(string(s[0].lo))
	}
	if s.covers(nameChars) {
		return "?"
	}
	neg := nameChars.intersect(s.complement())
	var b strings.Builder
	b.WriteByte('[')
	set := s
	if len(neg) < len(s) {
		b.WriteByte('!')
		set = neg
	}
	for _, rg := range set {
		writeClassRune(&b, rg.lo)
		if rg.hi > rg.lo+1 {
			b.WriteByte('-')
		}
		if rg.hi > rg.lo {
			writeClassRune(&b, rg.hi)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// nameChars are the characters a path element may hold, as decoded.
var nameChars = charSet{{1, '/' - 1}, {'/' + 1, 0xD7FF}, {0xE000, unicode.MaxRune}}

func writeClassRune(b *strings.Builder, r rune) {
	if strings.ContainsRune(`\[]!^-{},*?`, r) {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// fnmatchPattern parses a pattern of fnmatch(3) as find gives it (GNU
// fnmatch, flags 0 or FNM_CASEFOLD; no FNM_PATHNAME, no FNM_PERIOD): "*"
// any string, "?" any character, "[...]" a bracket expression ("!" or "^"
// negates, "]" first is literal, ranges, POSIX classes, "\" escapes; an
// unclosed "[" is literal), "\" escapes the next character. For -name the
// string is a file name and holds no "/" (slash false). It returns the
// pattern, whether it is exact, or why it cannot be read.
func fnmatchPattern(p string, slash, fold bool) (*pnode, bool, string) {
	if !utf8.ValidString(p) {
		return nil, false, "a find pattern that is not UTF-8"
	}
	chars := anyChar
	if !slash {
		chars = anyButSlash
	}
	exact := true
	var seq []*pnode
	for i := 0; i < len(p); {
		r, w := utf8.DecodeRuneInString(p[i:])
		switch r {
		case '*':
			seq = append(seq, pstar(chars))
		case '?':
			seq = append(seq, pchar(chars))
		case '[':
			set, n, ok, class, why := bracket(p[i:], true)
			switch {
			case why != "":
				return nil, false, why
			case ok:
				exact = exact && !class // a POSIX class, which a locale may extend
				seq = append(seq, pchar(set.intersect(chars)))
				i += n
				continue
			}
			seq = append(seq, pchar(runeSet('[')))
		case '\\':
			if i+w < len(p) {
				i += w
				r, w = utf8.DecodeRuneInString(p[i:])
			}
			seq = append(seq, pchar(runeSet(r)))
		default:
			seq = append(seq, pchar(runeSet(r)))
		}
		i += w
	}
	n := pcat(seq...)
	if fold {
		exact = n.foldCase() && exact
	}
	return n, exact, ""
}

// posixClasses are the ASCII members of the POSIX character classes; a
// class also takes every character beyond ASCII, which a UTF-8 locale may
// put in it (an over-approximation).
var posixClasses = sync.OnceValue(func() map[string]charSet {
	return map[string]charSet{
		"alpha":  {{'A', 'Z'}, {'a', 'z'}},
		"digit":  {{'0', '9'}},
		"alnum":  {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}},
		"upper":  {{'A', 'Z'}},
		"lower":  {{'a', 'z'}},
		"space":  {{'\t', '\r'}, {' ', ' '}},
		"blank":  {{'\t', '\t'}, {' ', ' '}},
		"punct":  {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}},
		"print":  {{' ', '~'}},
		"graph":  {{'!', '~'}},
		"cntrl":  {{0, 0x1f}, {0x7f, 0x7f}},
		"xdigit": {{'0', '9'}, {'A', 'F'}, {'a', 'f'}},
	}
})

// bracket parses the bracket expression at the start of p ("[...]"),
// returning its set and length; ok is false when it is not closed (then
// "[" is literal in fnmatch). With fnmatch, "!" negates as "^" does and
// "\" quotes the next character; in GNU regular expressions only "^"
// negates and "\" is literal. class reports a
// POSIX class (an over-approximation, see posixClasses). why is set for a
// form safezone does not read (equivalence classes, collating symbols, an
// unknown class, a reversed range).
func bracket(p string, fnmatch bool) (set charSet, n int, ok, class bool, why string) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '^' || fnmatch && p[i] == '!') {
		negate = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			if negate {
				set = set.complement()
			}
			return set, i + 1, true, class, ""
		}
		first = false
		if strings.HasPrefix(p[i:], "[:") {
			end := strings.Index(p[i+2:], ":]")
			if end < 0 {
				return nil, 0, false, false, "a bracket expression safezone does not read: " + p
			}
			cls, known := posixClasses()[p[i+2:i+2+end]]
			if !known {
				return nil, 0, false, false, "an unknown character class in " + p
			}
			class = true
			set = set.union(cls).union(charSet{{utf8.RuneSelf, unicode.MaxRune}})
			i += end + 4
			continue
		}
		if strings.HasPrefix(p[i:], "[=") || strings.HasPrefix(p[i:], "[.") {
			return nil, 0, false, false, "an equivalence class or collating symbol in " + p
		}
		lo, w := bracketRune(p, i, fnmatch)
		if w == 0 {
			return nil, 0, false, false, ""
		}
		i += w
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			var w2 int
			hi, w2 = bracketRune(p, i+1, fnmatch)
			if w2 == 0 {
				return nil, 0, false, false, ""
			}
			i += 1 + w2
			if hi < lo {
				return nil, 0, false, false, "a reversed range in " + p
			}
		}
		set = set.union(charSet{{lo, hi}})
	}
	return nil, 0, false, false, ""
}

// bracketRune returns the character at p[i] in a bracket expression and
// its length, 0 at the end of p.
func bracketRune(p string, i int, escapes bool) (rune, int) {
	if escapes && p[i] == '\\' {
		if i+1 >= len(p) {
			return 0, 0
		}
		r, w := utf8.DecodeRuneInString(p[i+1:])
		return r, w + 1
	}
	return utf8.DecodeRuneInString(p[i:])
}
