package glob

import (
	"errors"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// This file matches one name against a bash pattern as bash 5.2 does in
// pathname expansion: its strmatch (lib/glob/sm_loop.c, smatch.c), ported
// closely, quirks included, so that what safezone expands is what bash
// opens. Patterns are in the form bash's glob library gets them: quoted
// characters escaped with a backslash.
//
// Bash matches bytes in the C locale, and wide characters in a multibyte
// locale when the pattern or the name holds a non-ASCII character. The
// host's locale is not known, so a name matches when either reading
// matches. What depends on the locale beyond that (a character class, an
// equivalence class, a collating symbol, case folding or a range met by a
// non-ASCII character under the wide reading) fails with [ErrLocale].

// Errors of matching and expansion.
var (
	// ErrLocale: the answer depends on the locale's character tables.
	ErrLocale = errors.New("the match depends on the locale")
	// ErrCostly: the pattern needs more than maxMatchSteps steps for one
	// name (nested extended globs backtrack).
	ErrCostly = errors.New("the pattern is too costly to match")
)

// maxMatchSteps bounds the recursive calls of one strmatch: bash's
// extended globs backtrack, and a pattern such as *(*(*(a))) on a long
// name would otherwise take exponential time in the hook.
const maxMatchSteps = 200000

// fnm are strmatch's flags (lib/glob/strmatch.h).
type fnm uint8

const (
	fnmPathname fnm = 1 << iota // "/" is matched only by "/"
	fnmPeriod                   // a leading "." is matched only by a literal "."
	fnmDotDot                   // "." and ".." are matched only literally (dotglob)
	fnmCaseFold                 // nocaseglob
	fnmExtMatch                 // extglob
)

// matcher is one strmatch: the reading (bytes or wide characters) and the
// work left.
type matcher struct {
	wide  bool // wide characters, Unicode tables; else bytes, C locale
	steps int
	err   error // ErrLocale or ErrCostly, once met
}

// strmatch reports whether name matches pat under flags, in the C locale
// or, for non-ASCII text, in a UTF-8 one.
func strmatch(pat, name string, flags fnm) (bool, error) {
	m := matcher{steps: maxMatchSteps}
	if ok := m.run(pat, name, flags); ok || m.err != nil {
		return ok, m.err
	}
	if isASCII(pat) && isASCII(name) {
		return false, nil
	}
	// A multibyte locale reads wide characters, unless either string is
	// not valid UTF-8 (bash then falls back to bytes, done above).
	if !utf8.ValidString(pat) || !utf8.ValidString(name) {
		return false, nil
	}
	w := matcher{wide: true, steps: maxMatchSteps}
	ok := w.run(pat, name, flags)
	return ok, w.err
}

// strmatchAll reports whether name matches pat in every reading (the C
// locale and, for non-ASCII text, a UTF-8 one): what may be dropped from
// a result (GLOBIGNORE) must match in each.
func strmatchAll(pat, name string, flags fnm) (bool, error) {
	m := matcher{steps: maxMatchSteps}
	ok := m.run(pat, name, flags)
	if !ok || m.err != nil || isASCII(pat) && isASCII(name) || !utf8.ValidString(pat) || !utf8.ValidString(name) {
		return ok, m.err
	}
	w := matcher{wide: true, steps: maxMatchSteps}
	ok = w.run(pat, name, flags)
	return ok, w.err
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// run matches in the matcher's reading.
func (m *matcher) run(pat, name string, flags fnm) bool {
	p, s := m.chars(pat), m.chars(name)
	return m.gmatch(s, 0, len(s), p, 0, len(p), nil, flags)
}

// chars splits s into the reading's characters: bytes, or runes.
func (m *matcher) chars(s string) []rune {
	if !m.wide {
		out := make([]rune, len(s))
		for i := 0; i < len(s); i++ {
			out[i] = rune(s[i])
		}
		return out
	}
	return []rune(s)
}

// at returns b[i], or 0 past its end: the C code reads up to the string's
// terminating NUL, past the end of the part it matches.
func at(b []rune, i int) rune {
	if i < 0 || i >= len(b) {
		return 0
	}
	return b[i]
}

// spend counts one step; false once the budget is spent.
func (m *matcher) spend() bool {
	if m.steps <= 0 {
		if m.err == nil {
			m.err = ErrCostly
		}
		return false
	}
	m.steps--
	return true
}

// locale records that the answer depends on the locale.
func (m *matcher) locale() {
	if m.err == nil {
		m.err = ErrLocale
	}
}

// fold is FOLD: tolower under nocaseglob (C locale: ASCII only; wide:
// towlower of an upper-case character).
func (m *matcher) fold(c rune, flags fnm) rune {
	if flags&fnmCaseFold == 0 {
		return c
	}
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	if m.wide && c >= utf8.RuneSelf && unicode.IsUpper(c) {
		m.locale()
	}
	return c
}

// sdotOrDotdot is SDOT_OR_DOTDOT: s[i:] is "." or ".." to the end.
func sdotOrDotdot(s []rune, i int) bool {
	return at(s, i) == '.' && (at(s, i+1) == 0 || at(s, i+1) == '.' && at(s, i+2) == 0)
}

// pdotOrDotdot is PDOT_OR_DOTDOT: s[i:] is "." or ".." up to a "/" or the end.
func pdotOrDotdot(s []rune, i int) bool {
	sep := func(c rune) bool { return c == '/' || c == 0 }
	return at(s, i) == '.' && (sep(at(s, i+1)) || at(s, i+1) == '.' && sep(at(s, i+2)))
}

// smEnds is struct STRUCT: where a "*" was met, to resume from.
type smEnds struct{ p, s int }

// leadingDot reports whether the character at n is a "." that a wildcard
// may not match: FNM_PERIOD at the start of the string or after a "/".
func leadingDot(s []rune, str, n int, sc rune, flags fnm) bool {
	return flags&fnmPeriod != 0 && sc == '.' && (n == str || flags&fnmPathname != 0 && at(s, n-1) == '/')
}

// dotName reports whether the name at n is "." or ".." where FNM_DOTDOT
// keeps wildcards from matching it.
func dotName(s []rune, str, n int, flags fnm) bool {
	return flags&fnmDotDot != 0 && (n == str && sdotOrDotdot(s, n) ||
		flags&fnmPathname != 0 && at(s, n-1) == '/' && pdotOrDotdot(s, n))
}

// gmatch is GMATCH: whether s[str:se] matches p[pi:pe].
func (m *matcher) gmatch(s []rune, str, se int, p []rune, pi, pe int, ends *smEnds, flags fnm) bool {
	if !m.spend() {
		return false
	}
	n := str
outer:
	for pi < pe {
		c := m.fold(at(p, pi), flags)
		pi++
		sc := rune(0)
		if n < se {
			sc = s[n]
		}
		if flags&fnmExtMatch != 0 && at(p, pi) == '(' && strings.ContainsRune("+*?@!", c) {
			lflags := flags
			if n != str {
				lflags &^= fnmPeriod | fnmDotDot
			}
			return m.extmatch(c, s, n, se, p, pi, pe, lflags)
		}
		switch c {
		case '?':
			switch {
			case sc == 0:
				return false
			case flags&fnmPathname != 0 && sc == '/':
				return false
			case leadingDot(s, str, n, sc, flags):
				return false
			case dotName(s, str, n, flags):
				return false
			}
		case '\\':
			if pi == pe && sc == '\\' && n+1 == se {
				break
			}
			if pi == pe {
				return false
			}
			c = at(p, pi)
			pi++
			if pi > pe {
				return false
			}
			if m.fold(sc, flags) != m.fold(c, flags) {
				return false
			}
		case '*':
			if ends != nil {
				ends.p, ends.s = pi-1, n
				return true
			}
			r, done, np, nn := m.star(s, str, n, se, p, pi, pe, flags)
			if done {
				return r
			}
			pi, n = np, nn
			continue outer
		case '[':
			if sc == 0 || n == se || leadingDot(s, str, n, sc, flags) || dotName(s, str, n, flags) {
				return false
			}
			np := m.brackmatch(p, pi, sc, flags)
			if np < 0 {
				return false
			}
			pi = np
		default:
			if c != m.fold(sc, flags) {
				return false
			}
		}
		n++
	}
	return n == se
}

// star is the "*" case of GMATCH, the "*" at p[pi-1] meeting s[n:]: done
// with the answer r, or the pattern and string positions to go on from
// (glibc's trick of resuming at the last "*" instead of backtracking).
func (m *matcher) star(s []rune, str, n, se int, p []rune, pi, pe int, flags fnm) (r, done bool, np, nn int) {
	sc := rune(0)
	if n < se {
		sc = s[n]
	}
	if leadingDot(s, str, n, sc, flags) || dotName(s, str, n, flags) {
		return false, true, 0, 0
	}
	if pi == pe {
		return true, true, 0, 0
	}
	ext := flags&fnmExtMatch != 0
	// Collapse consecutive "*" and "?", each "?" taking one character.
	c := at(p, pi)
	pi++
	for c == '?' || c == '*' {
		switch {
		case flags&fnmPathname != 0 && sc == '/':
			return false, true, 0, 0
		case ext && c == '?' && at(p, pi) == '(':
			if m.extmatch(c, s, n, se, p, pi, pe, flags) {
				return true, true, 0, 0
			}
			pi = patscanOr(p, pi+1, pe, 0, pe)
		case c == '?':
			if sc == 0 {
				return false, true, 0, 0
			}
			n++
			sc = 0
			if n < se {
				sc = s[n]
			}
		}
		if ext && c == '*' && at(p, pi) == '(' {
			for newn := n; newn < se; newn++ {
				if m.extmatch(c, s, newn, se, p, pi, pe, flags) {
					return true, true, 0, 0
				}
			}
			pi = patscanOr(p, pi+1, pe, 0, pe)
		}
		if pi == pe {
			break
		}
		c = at(p, pi)
		pi++
	}
	if c == 0 {
		if flags&fnmPathname == 0 || !containsRune(s[n:se], '/') {
			return true, true, 0, 0
		}
		return false, true, 0, 0
	}
	if pi == pe && (c == '?' || c == '*') {
		return true, true, 0, 0
	}
	if n == se && ext && (c == '!' || c == '?') && at(p, pi) == '(' {
		pi--
		matched := m.extmatch(c, s, n, se, p, pi, pe, flags)
		return matched != (c == '!'), true, 0, 0
	}
	if c == '/' && flags&fnmPathname != 0 {
		for n < se && s[n] != '/' {
			n++
		}
		return n < se && s[n] == '/' && m.gmatch(s, n+1, se, p, pi, pe, nil, flags), true, 0, 0
	}
	// The general case: try each position up to the next "/".
	end := smEnds{p: -1}
	endp := se
	if flags&fnmPathname != 0 {
		if i := indexRune(s[n:se], '/'); i >= 0 {
			endp = n + i
		}
	}
	c1 := c
	if c == '\\' {
		c1 = at(p, pi)
	}
	c1 = m.fold(c1, flags)
	pi--
	for ; n < endp; n++ {
		if m.err != nil {
			return false, true, 0, 0
		}
		if !ext && c != '[' && m.fold(s[n], flags) != c1 {
			continue
		}
		if ext && at(p, pi+1) != '(' && at(p, pi) != 0 && !strings.ContainsRune("?*+@!", at(p, pi)) && c != '[' && m.fold(s[n], flags) != c1 {
			continue
		}
		if m.gmatch(s, n, se, p, pi, pe, &end, flags&^(fnmPeriod|fnmDotDot)) {
			if end.p < 0 {
				return true, true, 0, 0
			}
			break
		}
	}
	if end.p >= 0 {
		return false, false, end.p, end.s
	}
	return false, true, 0, 0
}

func containsRune(s []rune, r rune) bool { return indexRune(s, r) >= 0 }

func indexRune(s []rune, r rune) int {
	for i, c := range s {
		if c == r {
			return i
		}
	}
	return -1
}

// invalidColl is INVALID: a collating symbol with no value.
const invalidColl = -1

// brackmatch is BRACKMATCH: the bracket expression after the "[" at
// p[pi-1] against test. It returns where the pattern goes on after it, or
// -1 for no match (the "[" with no "]" is a literal "[").
func (m *matcher) brackmatch(p []rune, pi int, test rune, flags fnm) int {
	end, matched, ok := m.bracket(p, pi, test, flags)
	switch {
	case !ok && end < 0:
		return -1
	case !ok:
		return end // the literal "[" matched test
	case matched:
		return end
	}
	return -1
}

// bracket runs BRACKMATCH. ok false: no bracket expression (end is where
// a literal "[" goes on when test is "[", else -1). ok true: matched
// says whether test is in it (negation applied), and end is where the
// pattern goes on when it is.
func (m *matcher) bracket(p []rune, pi int, test rune, flags fnm) (end int, matched, ok bool) {
	origTest := test
	test = m.fold(origTest, flags)
	savep := pi
	literal := func() (int, bool, bool) {
		if test == '[' {
			return savep, true, false
		}
		return -1, false, false
	}
	not := at(p, pi) == '!' || at(p, pi) == '^'
	if not {
		pi++
	}
	c := at(p, pi)
	pi++
	hit := false
	for !hit {
		cstart, cend := c, c
		forcecoll := false
		// [=c=]: an equivalence class (one character).
		if c == '[' && at(p, pi) == '=' && at(p, pi+2) == '=' && at(p, pi+3) == ']' {
			pc := m.fold(at(p, pi+1), flags)
			pi += 4
			if m.collequiv(test, pc) {
				pi++
				hit = true
				break
			}
			c = at(p, pi)
			pi++
			if c == 0 {
				return literal()
			}
			c = m.fold(c, flags)
			continue
		}
		// [:name:]: a character class.
		if c == '[' && at(p, pi) == ':' {
			in := false
			cl := pi + 1
			for at(p, cl) != 0 && !(at(p, cl) == ':' && at(p, cl+1) == ']') {
				cl++
			}
			if at(p, cl) != 0 {
				in = m.isCclass(origTest, dequoteRunes(p[pi+1:cl])) == 1
				pi = cl + 2
			}
			if in {
				pi++
				hit = true
				break
			}
			c = at(p, pi)
			pi++
			if c == 0 {
				return literal()
			}
			if c == ']' {
				break
			}
			c = m.fold(c, flags)
			continue
		}
		// [.sym.]: a collating symbol.
		if c == '[' && at(p, pi) == '.' {
			var pc rune
			pi, pc = parseCollsym(p, pi)
			cstart = pc
			if pc == invalidColl {
				cstart = test + 1
			}
			forcecoll = true
		}
		if c == '\\' {
			if at(p, pi) == 0 {
				return -1, false, false
			}
			cstart = at(p, pi)
			pi++
		}
		cstart = m.fold(cstart, flags)
		cend = cstart
		isrange := false
		if c == 0 {
			return literal()
		}
		c = m.fold(at(p, pi), flags)
		pi++
		if c == 0 {
			return literal()
		}
		if flags&fnmPathname != 0 && c == '/' {
			return -1, false, false // [/] never matches a pathname
		}
		if c == '-' && at(p, pi) != ']' {
			cend = at(p, pi)
			pi++
			if cend == '\\' {
				cend = at(p, pi)
				pi++
			}
			if cend == 0 {
				return -1, false, false
			}
			if cend == '[' && at(p, pi) == '.' {
				var pc rune
				pi, pc = parseCollsym(p, pi)
				cend = pc
				if pc == invalidColl {
					cend = test - 1
				}
				forcecoll = true
			}
			cend = m.fold(cend, flags)
			c = at(p, pi)
			pi++
			if m.rangecmp(cstart, cend, forcecoll) > 0 {
				// An inverted range matches nothing; the rest of the
				// expression still counts.
				if c == ']' {
					break
				}
				c = m.fold(c, flags)
				continue
			}
			isrange = true
		}
		if !isrange && test == cstart ||
			isrange && m.rangecmp(test, cstart, forcecoll) >= 0 && m.rangecmp(test, cend, forcecoll) <= 0 {
			hit = true
			break
		}
		if c == ']' {
			break
		}
	}
	if !hit {
		return pi, not, true
	}
	// Skip the rest of the bracket expression that matched.
	pi--
	c = at(p, pi)
	brcnt := 1
	brchrp := -1
	for brcnt > 0 {
		if c == 0 {
			return literal()
		}
		oc := c
		c = at(p, pi)
		pi++
		switch {
		case c == '[' && (at(p, pi) == '=' || at(p, pi) == ':' || at(p, pi) == '.'):
			brcnt++
			brchrp = pi
			pi++
			if c = at(p, pi); c == 0 {
				return literal()
			}
		case c == ']' && brcnt > 1 && brchrp >= 0 && oc == at(p, brchrp):
			brcnt--
			brchrp = -1
		case c == ']' && (brchrp < 0 || at(p, brchrp) != '.') && brcnt >= 1:
			brcnt = 0
		case c == '\\':
			if at(p, pi) == 0 {
				return -1, false, false
			}
			pi++
		}
	}
	return pi, !not, true
}

// dequoteRunes removes backslashes (DEQUOTE_PATHNAME) from a class name.
func dequoteRunes(r []rune) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		if r[i] == '\\' && i+1 < len(r) {
			i++
		}
		b.WriteRune(r[i])
	}
	return b.String()
}

// parseCollsym is PARSE_COLLSYM: the collating symbol whose "." is at
// p[pi]; it returns where the pattern goes on and its value.
func parseCollsym(p []rune, pi int) (int, rune) {
	pi++
	pc := 0
	for at(p, pi+pc) != 0 && !(at(p, pi+pc) == '.' && at(p, pi+pc+1) == ']') {
		pc++
	}
	if at(p, pi+pc) == 0 {
		return pi + pc, invalidColl
	}
	return pi + pc + 2, collsym(string(p[pi : pi+pc]))
}

// collsym is COLLSYM: a collating symbol's character (lib/glob/collsyms.h,
// or the one character named).
func collsym(name string) rune {
	if c, ok := collNames()[name]; ok {
		return c
	}
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		return r
	}
	return invalidColl
}

// collNames are bash's POSIX collating symbol names (lib/glob/collsyms.h).
var collNames = sync.OnceValue(func() map[string]rune {
	return map[string]rune{
		"NUL": 0, "SOH": 1, "STX": 2, "ETX": 3, "EOT": 4, "ENQ": 5, "ACK": 6, "alert": 7, "BS": 8, "backspace": 8,
		"HT": 9, "tab": 9, "LF": 10, "newline": 10, "VT": 11, "vertical-tab": 11, "FF": 12, "form-feed": 12,
		"CR": 13, "carriage-return": 13, "SO": 14, "SI": 15, "DLE": 16, "DC1": 17, "DC2": 18, "DC3": 19, "DC4": 20,
		"NAK": 21, "SYN": 22, "ETB": 23, "CAN": 24, "EM": 25, "SUB": 26, "ESC": 27, "IS4": 28, "FS": 28, "IS3": 29,
		"GS": 29, "IS2": 30, "RS": 30, "IS1": 31, "US": 31, "space": ' ', "exclamation-mark": '!',
		"quotation-mark": '"', "number-sign": '#', "dollar-sign": '$', "percent-sign": '%', "ampersand": '&',
		"apostrophe": '\'', "left-parenthesis": '(', "right-parenthesis": ')', "asterisk": '*', "plus-sign": '+',
		"comma": ',', "hyphen": '-', "hyphen-minus": '-', "minus": '-', "dash": '-', "period": '.', "full-stop": '.',
		"slash": '/', "solidus": '/', "zero": '0', "one": '1', "two": '2', "three": '3', "four": '4', "five": '5',
		"six": '6', "seven": '7', "eight": '8', "nine": '9', "colon": ':', "semicolon": ';', "less-than-sign": '<',
		"equals-sign": '=', "greater-than-sign": '>', "question-mark": '?', "commercial-at": '@',
		"left-square-bracket": '[', "backslash": '\\', "reverse-solidus": '\\', "right-square-bracket": ']',
		"circumflex": '^', "circumflex-accent": '^', "underscore": '_', "grave-accent": '`', "left-brace": '{',
		"left-curly-bracket": '{', "vertical-line": '|', "right-brace": '}', "right-curly-bracket": '}',
		"tilde": '~', "DEL": 127,
	}
})

// rangecmp is RANGECMP with globasciiranges on (bash 5.2's default):
// characters compare by code, unless a collating symbol forces the
// locale's collation, which only the C locale makes known.
func (m *matcher) rangecmp(c1, c2 rune, forcecoll bool) int {
	if !m.wide {
		c1, c2 = c1&0xff, c2&0xff
	}
	if c1 == c2 {
		return 0
	}
	if forcecoll || m.wide && (c1 > 0xff || c2 > 0xff) {
		m.locale()
	}
	return int(c1 - c2)
}

// collequiv is COLLEQUIV: c and the equivalence class's character
// collate alike. Only identity is sure; anything else is the locale's.
func (m *matcher) collequiv(c, equiv rune) bool {
	if c == equiv {
		return true
	}
	if c >= utf8.RuneSelf || equiv >= utf8.RuneSelf || unicode.ToLower(c) == unicode.ToLower(equiv) {
		m.locale()
	}
	return false
}

// isCclass is IS_CCLASS: 1 if c is in the class name, 0 if not, -1 for a
// name that is no class. Classes are the C locale's (ASCII); a non-ASCII
// character in the wide reading depends on the locale.
func (m *matcher) isCclass(c rune, name string) int {
	test, ok := cclasses()[name]
	if !ok {
		return -1
	}
	if c >= utf8.RuneSelf || c < 0 {
		if m.wide && c >= utf8.RuneSelf {
			m.locale()
		}
		return 0
	}
	if test(byte(c)) {
		return 1
	}
	return 0
}

// cclasses are the POSIX character classes bash knows, in the C locale
// (lib/glob/smatch.c cclass_test).
var cclasses = sync.OnceValue(func() map[string]func(c byte) bool {
	return map[string]func(c byte) bool{
		"ascii": func(c byte) bool { return c < 0x80 },
		"alnum": func(c byte) bool { return isAlpha(c) || isDigit(c) },
		"alpha": isAlpha,
		"blank": func(c byte) bool { return c == ' ' || c == '\t' },
		"cntrl": func(c byte) bool { return c < 0x20 || c == 0x7f },
		"digit": isDigit,
		"graph": func(c byte) bool { return c > 0x20 && c < 0x7f },
		"lower": func(c byte) bool { return c >= 'a' && c <= 'z' },
		"print": func(c byte) bool { return c >= 0x20 && c < 0x7f },
		"punct": func(c byte) bool {
			return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c)
		},
		"space":  func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' },
		"upper":  func(c byte) bool { return c >= 'A' && c <= 'Z' },
		"word":   func(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' },
		"xdigit": func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' },
	}
})

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// patscan is PATSCAN: from p[si], keeping track of nested parentheses and
// bracket expressions, the index after the ")" closing the pattern list
// (delim 0) or after the next top-level "|" (delim '|'); the scan stops at
// end. It returns -1 for an empty or unterminated list.
func patscan(p []rune, si, end int, delim rune) int {
	pnest, bnest := 0, 0
	skip := false
	var cchar rune
	bfirst := -1
	if si == end {
		return -1
	}
	for s := si; at(p, s) != 0; s++ {
		if s >= end {
			return s
		}
		if skip {
			skip = false
			continue
		}
		switch c := p[s]; c {
		case '\\':
			skip = true
		case '[':
			if bnest == 0 {
				bfirst = s + 1
				if at(p, bfirst) == '!' || at(p, bfirst) == '^' {
					bfirst++
				}
				bnest++
			} else if n := at(p, s+1); n == ':' || n == '.' || n == '=' {
				cchar = n
			}
		case ']':
			if bnest != 0 {
				if cchar != 0 && at(p, s-1) == cchar {
					cchar = 0
				} else if s != bfirst {
					bnest--
					bfirst = -1
				}
			}
		case '(':
			if bnest == 0 {
				pnest++
			}
		case ')':
			if bnest == 0 {
				pnest--
				if pnest < 0 {
					return s + 1
				}
			}
		case '|':
			if bnest == 0 && pnest == 0 && delim == '|' {
				return s + 1
			}
		}
	}
	return -1
}

// patscanOr is patscan, or def where it fails.
func patscanOr(p []rune, si, end int, delim rune, def int) int {
	if r := patscan(p, si, end, delim); r >= 0 {
		return r
	}
	return def
}

// extmatch is EXTMATCH: the extended glob whose operator is xc and whose
// "(" is at p[pi], with the rest of the pattern after it, against
// s[si:se].
func (m *matcher) extmatch(xc rune, s []rune, si, se int, p []rune, pi, pe int, flags fnm) bool {
	if !m.spend() {
		return false
	}
	start := pi
	if at(p, pi) == '(' {
		start++
	}
	prest := patscan(p, start, pe, 0)
	if prest < 0 {
		// Not a valid pattern list: compare as strings.
		return runesEqual(p[pi-1:pe], s[si:se])
	}
	notStart := func(srest int) fnm {
		if srest > si {
			return flags &^ (fnmPeriod | fnmDotDot)
		}
		return flags
	}
	switch xc {
	case '+', '*':
		if xc == '*' && m.gmatch(s, si, se, p, prest, pe, nil, flags) {
			return true
		}
		for psub := pi + 1; ; {
			pnext := patscan(p, psub, pe, '|')
			if pnext < 0 {
				return false
			}
			for srest := si; srest <= se; srest++ {
				if m.err != nil {
					return false
				}
				if !m.gmatch(s, si, srest, p, psub, pnext-1, nil, flags) {
					continue
				}
				xflags := notStart(srest)
				if m.gmatch(s, srest, se, p, prest, pe, nil, xflags) ||
					si != srest && m.gmatch(s, srest, se, p, pi-1, pe, nil, xflags) {
					return true
				}
			}
			if pnext == prest {
				return false
			}
			psub = pnext
		}
	case '?', '@':
		if xc == '?' && m.gmatch(s, si, se, p, prest, pe, nil, flags) {
			return true
		}
		for psub := pi + 1; ; {
			pnext := patscan(p, psub, pe, '|')
			if pnext < 0 {
				return false
			}
			srest := si
			if prest == pe {
				srest = se
			}
			for ; srest <= se; srest++ {
				if m.err != nil {
					return false
				}
				if m.gmatch(s, si, srest, p, psub, pnext-1, nil, flags) &&
					m.gmatch(s, srest, se, p, prest, pe, nil, notStart(srest)) {
					return true
				}
			}
			if pnext == prest {
				return false
			}
			psub = pnext
		}
	case '!':
		for srest := si; srest <= se; srest++ {
			if m.err != nil {
				return false
			}
			m1 := false
			for psub := pi + 1; ; {
				pnext := patscan(p, psub, pe, '|')
				if pnext < 0 {
					break
				}
				if m1 = m.gmatch(s, si, srest, p, psub, pnext-1, nil, flags); m1 || pnext == prest {
					break
				}
				psub = pnext
			}
			if m1 {
				continue
			}
			// A leading "." is never matched by a negation.
			if flags&fnmPeriod != 0 && at(s, si) == '.' {
				return false
			}
			if flags&fnmDotDot != 0 && (sdotOrDotdot(s, si) || flags&fnmPathname != 0 && at(s, si-1) == '/' && pdotOrDotdot(s, si)) {
				return false
			}
			if m.gmatch(s, srest, se, p, prest, pe, nil, notStart(srest)) {
				return true
			}
		}
		return false
	}
	return false
}

func runesEqual(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
