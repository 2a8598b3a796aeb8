package shell

import (
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
)

// gnuFind is true where find is GNU findutils (Linux; Git for Windows and
// MSYS2 ship it too). The BSD find of macOS and the BSDs reads -regex in
// another syntax (POSIX basic, or extended with -E, with Apple's \+ and
// \? extensions): there a -regex makes the command unknown.
const gnuFind = runtime.GOOS == "linux" || runtime.GOOS == "windows"

// reSyntax is what the characters of one of find's regular expression
// types mean (find(1) -regextype; the findutils manual, "Regular
// Expressions").
type reSyntax struct {
	// bkParens: "\(", "\)" group and "\|" alternates; "(", ")" and "|"
	// are literal. Otherwise the other way round.
	bkParens bool
	// bkPlusQM: "\+" and "\?" repeat; "+" and "?" are literal. Otherwise
	// the other way round.
	bkPlusQM bool
	// classes: "[[:alpha:]]" and the like in brackets.
	classes bool
}

// regexTypes are the types of -regextype safezone reads: findutils-default
// (the default) and emacs, posix-basic, posix-extended and posix-egrep
// (egrep). The others (awk, gnu-awk, posix-awk, grep, sed, ed,
// posix-minimal-basic) differ in details safezone does not follow: a
// -regex of theirs makes the command unknown.
var regexTypes = sync.OnceValue(func() map[string]reSyntax {
	return map[string]reSyntax{
		"findutils-default": {bkParens: true},
		"emacs":             {bkParens: true},
		"posix-basic":       {bkParens: true, bkPlusQM: true, classes: true},
		"posix-extended":    {classes: true},
		"posix-egrep":       {classes: true},
		"egrep":             {classes: true},
	}
})

// regexPattern parses a regular expression of find's -regex (matched
// against the whole path) in syntax syn, case-folded with fold (-iregex).
// It reads the common part of the GNU syntaxes: literals, ".", bracket
// expressions, groups, alternation, "*", "+", "?", "^" at the very start
// and "$" at the very end. Anything else (back-references, intervals, the
// GNU operators \w \W \s \S \< \> \b \B \` \', an operator with nothing
// before it, an anchor inside) is not read: why says so, and the command
// is unknown. It returns the pattern and whether it is exact.
func regexPattern(re string, syn reSyntax, fold bool) (n *pnode, exact bool, why string) {
	if !utf8.ValidString(re) {
		return nil, false, "a find regular expression that is not UTF-8"
	}
	p := &reParser{s: re, syn: syn, exact: true}
	if strings.HasPrefix(p.s, "^") {
		p.i = 1
	}
	if strings.HasSuffix(p.s, "$") && !strings.HasSuffix(p.s, `\$`) && len(p.s) > p.i {
		p.s = p.s[:len(p.s)-1]
	}
	n = p.alt(0)
	if p.why == "" && p.i < len(p.s) {
		p.why = "an unmatched group end in the regular expression " + re
	}
	if p.why != "" {
		return nil, false, p.why
	}
	if fold {
		p.exact = n.foldCase() && p.exact
	}
	return n, p.exact, ""
}

// reParser reads one regular expression.
type reParser struct {
	s     string
	i     int
	syn   reSyntax
	exact bool
	why   string
}

// maxRegexDepth bounds the nesting of groups.
const maxRegexDepth = 32

func (p *reParser) fail(why string) *pnode {
	if p.why == "" {
		p.why = why + " in the regular expression " + p.s
	}
	return pcat()
}

// token reports which operator, if any, is at p.i, and its length:
// "(" group, ")" end, "|" alternative, "*" "+" "?" repetitions.
func (p *reParser) token() (op byte, n int) {
	if p.i >= len(p.s) {
		return 0, 0
	}
	c := p.s[p.i]
	if c == '\\' && p.i+1 < len(p.s) {
		d := p.s[p.i+1]
		switch {
		case p.syn.bkParens && (d == '(' || d == ')' || d == '|'):
			return d, 2
		case p.syn.bkPlusQM && (d == '+' || d == '?'):
			return d, 2
		}
		return 0, 0
	}
	switch {
	case c == '*':
		return c, 1
	case !p.syn.bkParens && (c == '(' || c == ')' || c == '|'):
		return c, 1
	case !p.syn.bkPlusQM && (c == '+' || c == '?'):
		return c, 1
	}
	return 0, 0
}

// alt reads alternatives up to the end or a group's end.
func (p *reParser) alt(depth int) *pnode {
	if depth > maxRegexDepth {
		return p.fail("too deep a nesting of groups")
	}
	alts := []*pnode{p.seq(depth)}
	for p.why == "" {
		op, n := p.token()
		if op != '|' {
			break
		}
		p.i += n
		alts = append(alts, p.seq(depth))
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return palt(alts...)
}

// seq reads items up to an alternative, a group's end or the end.
func (p *reParser) seq(depth int) *pnode {
	var items []*pnode
	for p.why == "" && p.i < len(p.s) {
		op, n := p.token()
		switch op {
		case '|', ')':
			return pcat(items...)
		case '*', '+', '?':
			if len(items) == 0 {
				return p.fail("a repetition with nothing before it")
			}
			p.i += n
			last := items[len(items)-1]
			switch op {
			case '?':
				items[len(items)-1] = palt(pcat(), last)
			default:
				min := 0
				if op == '+' {
					min = 1
				}
				var exact bool
				items[len(items)-1], exact = repeat(last, min)
				p.exact = p.exact && exact
			}
		case '(':
			p.i += n
			g := p.alt(depth + 1)
			if op, n := p.token(); op != ')' {
				return p.fail("an unclosed group")
			} else {
				p.i += n
			}
			items = append(items, g)
		default:
			items = append(items, p.atom())
		}
	}
	return pcat(items...)
}

// atom reads one character, ".", a bracket expression or an escape.
func (p *reParser) atom() *pnode {
	c := p.s[p.i]
	switch c {
	case '.':
		p.i++
		return pchar(anyChar)
	case '[':
		set, n, ok, class, why := bracket(p.s[p.i:], false)
		switch {
		case why != "":
			return p.fail(why)
		case !ok:
			return p.fail("an unclosed bracket expression")
		case class && !p.syn.classes:
			return p.fail("a character class this syntax does not have")
		}
		p.exact = p.exact && !class
		p.i += n
		return pchar(set)
	case '^', '$':
		return p.fail("an anchor inside")
	case '{', '}':
		return p.fail("a brace (an interval in some syntaxes)")
	case '\\':
		if p.i+1 >= len(p.s) {
			return p.fail("a trailing backslash")
		}
		r, w := utf8.DecodeRuneInString(p.s[p.i+1:])
		if r < utf8.RuneSelf && (isNameByte(byte(r)) || r == '{' || r == '}') {
			// Letters and digits after "\" are GNU operators or
			// back-references; "\{" an interval.
			return p.fail(`an escape \` + string(r))
		}
		p.i += 1 + w
		return pchar(runeSet(r))
	}
	r, w := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += w
	return pchar(runeSet(r))
}
