package glob

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FromShell returns globs in this package's syntax (the policy's) that
// together match every path the bash pattern pat may match under the
// options o, and as few others as the syntax allows: a shell glob checked
// as a pattern against deny rules ([Cache.Names]) must name .env when bash
// would open it ("cat .e[a-z]v", "cat @(.env|x)", "shopt -s nocaseglob;
// cat .ENV").
//
// Exact: "*", "?", escapes, bracket expressions (ranges, negation, POSIX
// classes, a leading "]", escapes, nocaseglob's folding, all for ASCII),
// the leading "." that only a literal "." matches without dotglob, "**"
// with globstar. Wider than bash: non-ASCII characters in a bracket
// expression that is negated or holds a class; a bracket expression that
// holds "/" (bash never matches it); extended globs, written as
// alternatives: @(a|b) is {a,b}, ?(a|b) is {,a,b}, +(a|b) is {a,b}*,
// *(a|b) is {,{a,b}*}, !(a|b) is *; "**" crossing hidden directories.
// An element ".." after other elements adds a glob with the two removed
// ("*/../.env" names ".env" too), since where it leads is physical.
//
// The globs read characters as UTF-8; bash in the C locale reads bytes,
// so a multi-byte character that several "?" match there is not covered.
func FromShell(pat string, o ShellOptions) []string {
	pat = strings.ReplaceAll(pat, `\/`, "/")
	els := shellElements(pat, o)
	conv := make([]string, len(els))
	for i, el := range els {
		c, ok := shellElement(el, o, i == 0 && strings.HasPrefix(pat, "/"))
		if !ok {
			return nil // no path matches
		}
		conv[i] = c
	}
	out := []string{strings.Join(conv, "/")}
	// X/.. removed, lexically.
	var clean []string
	changed := false
	for _, c := range conv {
		if c == `..` || c == `\.\.` {
			if n := len(clean); n > 0 && clean[n-1] != ".." && clean[n-1] != "" {
				clean = clean[:n-1]
				changed = true
				continue
			}
		}
		clean = append(clean, c)
	}
	if changed {
		out = append(out, strings.Join(clean, "/"))
	}
	return out
}

// shellElements splits a bash pattern into the elements bash matches one
// by one: at its last "/" (outside an extended glob's parentheses with
// extglob, as glob_dirscan finds it), then the directory part likewise.
func shellElements(pat string, o ShellOptions) []string {
	var out []string
	for {
		d := strings.LastIndexByte(pat, '/')
		if d >= 0 && o.ExtGlob {
			d = dirscan(pat)
		}
		if d < 0 {
			out = append(out, pat)
			break
		}
		out = append(out, pat[d+1:])
		pat = pat[:d]
	}
	slices.Reverse(out)
	return out
}

// shellElement converts one path element; ok false when it can match
// nothing.
func shellElement(el string, o ShellOptions, root bool) (string, bool) {
	switch {
	case el == "" && root:
		return "", true
	case el == "**" && o.GlobStar:
		return "**", true
	}
	cv := converter{o: o}
	mode := dotFree
	if !o.DotGlob {
		mode = dotLiteral
	}
	p := []rune(el)
	return cv.conv(p, 0, len(p), mode)
}

// dotMode says what may match the first character of a name.
type dotMode uint8

const (
	dotFree    dotMode = iota // anything
	dotLiteral                // a "." only literally (FNM_PERIOD at an element's start)
	dotNone                   // no "." at all (after a "*" that matched nothing there)
)

// converter converts the pattern of one element.
type converter struct {
	o     ShellOptions
	steps int
}

// conv converts p[i:limit] under mode; ok false when it can match
// nothing. p is the whole element: bash's matcher reads a bracket
// expression up to the element's end, past the end of an extended glob's
// pattern it lies in (sm_loop.c BRACKMATCH).
func (cv *converter) conv(p []rune, i, limit int, mode dotMode) (string, bool) {
	if cv.steps++; cv.steps > 10000 {
		return "*", true // too intricate: anything is wider
	}
	if i >= limit {
		return "", true
	}
	c := p[i]
	if cv.o.ExtGlob && strings.ContainsRune("*+!@?", c) && at(p, i+1) == '(' {
		if close := patscan(p, i+2, limit, 0); close > 0 {
			rest, ok := cv.conv(p, close, limit, dotFree)
			if !ok {
				return "", false
			}
			return cv.extglob(p, i, close) + rest, true
		}
	}
	switch c {
	case '*':
		return cv.star(p, i, limit, mode)
	case '?':
		rest, ok := cv.conv(p, i+1, limit, dotFree)
		if mode != dotFree {
			return "[!.]" + rest, ok
		}
		return "?" + rest, ok
	case '[':
		return cv.bracket(p, i, limit, mode)
	case '\\':
		if i+1 == limit {
			return `\\`, true // a trailing backslash matches itself
		}
		c = p[i+1]
		i++
	}
	if mode == dotNone && c == '.' {
		return "", false
	}
	rest, ok := cv.conv(p, i+1, limit, dotFree)
	return shellLiteral(c, cv.o) + rest, ok
}

// star converts a run of "*" and "?" at p[i].
func (cv *converter) star(p []rune, i, limit int, mode dotMode) (string, bool) {
	j, q := i, 0
	for j < limit && (p[j] == '*' || p[j] == '?') {
		if cv.o.ExtGlob && at(p, j+1) == '(' {
			break
		}
		if p[j] == '?' {
			q++
		}
		j++
	}
	if cv.o.ExtGlob && j < limit && strings.ContainsRune("*+!@?", p[j]) && at(p, j+1) == '(' {
		// bash's matcher takes a "*" before an extended glob its own
		// way (sm_loop.c): anything in the rest of the element.
		return "*", true
	}
	rest, ok := cv.conv(p, j, limit, dotFree)
	switch {
	case mode == dotFree:
		return strings.Repeat("?", q) + "*" + rest, ok
	case q > 0:
		return "[!.]" + strings.Repeat("?", q-1) + "*" + rest, ok
	}
	// The "*" takes the first character, not a "."; or nothing, and the
	// rest may not start with a ".".
	empty, okEmpty := cv.conv(p, j, limit, dotNone)
	switch {
	case ok && okEmpty:
		return "{[!.]*" + rest + "," + empty + "}", true
	case ok:
		return "[!.]*" + rest, true
	case okEmpty:
		return empty, true
	}
	return "", false
}

// extglob converts the extended glob p[i:close] (operator, "(", pattern
// list, ")") into alternatives.
func (cv *converter) extglob(p []rune, i, close int) string {
	var alts []string
	for psub := i + 2; psub < close; {
		next := patscan(p, psub, close, '|')
		if next < 0 {
			break
		}
		if a, ok := cv.conv(p, psub, next-1, dotFree); ok {
			alts = append(alts, a)
		}
		psub = next
	}
	list := "{" + strings.Join(alts, ",") + "}"
	switch op := p[i]; {
	case op == '!':
		return "*"
	case len(alts) == 0:
		return "" // @() and the like: only the empty string
	case op == '@':
		return list
	case op == '?':
		return "{," + strings.Join(alts, ",") + "}"
	case op == '+':
		return list + "*"
	}
	return "{," + list + "*}" // '*'
}

// bracket converts the bracket expression whose "[" is at p[i]: each
// ASCII character is tried with bash's matcher, and the characters that
// match are grouped by where the pattern goes on after them (in bash, that
// depends on the character tried); every non-ASCII character is added
// where the expression may take one.
func (cv *converter) bracket(p []rune, i, limit int, mode dotMode) (string, bool) {
	flags := fnmPathname
	if cv.o.NoCaseGlob {
		flags |= fnmCaseFold
	}
	var ends []int
	sets := map[int][]rune{}
	for c := rune(1); c < utf8.RuneSelf; c++ {
		if c == '/' || mode != dotFree && c == '.' {
			continue
		}
		m := matcher{steps: maxMatchSteps}
		end, matched, ok := m.bracket(p, i+1, c, flags)
		switch {
		case ok && (matched || m.err != nil):
		case !ok && end >= 0: // "[" taken literally
		default:
			continue
		}
		if _, seen := sets[end]; !seen {
			ends = append(ends, end)
		}
		sets[end] = append(sets[end], c)
	}
	if wideBracket(p, i+1) {
		probe := matcher{wide: true, steps: maxMatchSteps}
		if end, _, ok := probe.bracket(p, i+1, utf8.MaxRune+1, flags); ok {
			if _, seen := sets[end]; !seen {
				ends = append(ends, end)
				sets[end] = nil
			}
		} else if len(ends) == 0 {
			return "*", true // where it ends is not known: anything is wider
		}
	}
	var alts []string
	for _, end := range ends {
		// Past the end of the pattern it lies in, the pattern is done.
		rest, ok := cv.conv(p, end, limit, dotFree)
		if !ok {
			continue
		}
		alts = append(alts, classOf(sets[end], wideBracket(p, i+1))+rest)
	}
	switch len(alts) {
	case 0:
		return "", false
	case 1:
		return alts[0], true
	}
	return "{" + strings.Join(alts, ",") + "}", true
}

// wideBracket reports whether the bracket expression from p[i] may take a
// non-ASCII character: it is negated, holds a class, an equivalence class
// or a collating symbol, or a non-ASCII character.
func wideBracket(p []rune, i int) bool {
	if at(p, i) == '!' || at(p, i) == '^' {
		return true
	}
	j := bracketSkip(p, i)
	inner := string(p[i:j])
	if strings.Contains(inner, "[:") || strings.Contains(inner, "[=") || strings.Contains(inner, "[.") {
		return true
	}
	return !isASCII(inner)
}

// classOf writes the characters set (and every non-ASCII one when wide)
// as a class.
func classOf(set []rune, wide bool) string {
	var b strings.Builder
	b.WriteByte('[')
	for k := 0; k < len(set); {
		j := k
		for j+1 < len(set) && set[j+1] == set[j]+1 {
			j++
		}
		writeClassRune(&b, set[k])
		if j > k {
			b.WriteByte('-')
			writeClassRune(&b, set[j])
		}
		k = j + 1
	}
	if wide {
		b.WriteRune(utf8.RuneSelf)
		b.WriteByte('-')
		b.WriteRune(unicode.MaxRune)
	}
	b.WriteByte(']')
	return b.String()
}

// shellLiteral is the literal character c, escaped, in both cases under
// nocaseglob.
func shellLiteral(c rune, o ShellOptions) string {
	var b strings.Builder
	if o.NoCaseGlob && unicode.SimpleFold(c) != c {
		b.WriteByte('[')
		for r := c; ; {
			writeClassRune(&b, r)
			if r = unicode.SimpleFold(r); r == c {
				break
			}
		}
		b.WriteByte(']')
		return b.String()
	}
	if strings.ContainsRune(`*?[]{}\,`, c) {
		b.WriteByte('\\')
	}
	b.WriteRune(c)
	return b.String()
}

// writeClassRune writes r for a class, escaped where the class or a brace
// around it would read it otherwise.
func writeClassRune(b *strings.Builder, r rune) {
	if strings.ContainsRune(`]\-!^[{},`, r) {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// bracketSkip returns the index after the "]" closing the bracket
// expression that starts at p[i] (after its "["), or len(p).
func bracketSkip(p []rune, i int) int {
	j := i
	if at(p, j) == '!' || at(p, j) == '^' {
		j++
	}
	if at(p, j) == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j + 1
		}
	}
	return len(p)
}

// Matches reports whether the path p, taken literally, matches the glob g
// (this package's syntax). A malformed glob matches everything.
func Matches(g, p string) bool { return intersects(Escape(p), g) }

// MayMatchName reports whether the bash pattern element pat may match the
// name under some shell options (dotglob, nocaseglob and extglob on: the
// widest), or cannot be evaluated: for checks that must not miss a match.
func MayMatchName(pat, name string) bool {
	if pat == "**" {
		return true
	}
	ok, err := strmatch(pat, name, fnmPathname|fnmDotDot|fnmCaseFold|fnmExtMatch)
	if err != nil || ok {
		return true
	}
	ok, err = strmatch(pat, name, fnmPathname|fnmDotDot)
	return err != nil || ok
}
