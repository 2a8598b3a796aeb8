package shell

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/classify/glob"
	"mvdan.cc/sh/v3/syntax"
)

// sword is a shell word made static.
type sword struct {
	lit     string // its value, quotes removed
	pat     string // as a glob pattern: quoted metacharacters escaped
	glob    bool   // holds an unquoted *, ? or [
	brace   bool   // holds an unquoted { (brace expansion)
	src     string // the word as written, for display and rule matching
	unknown string // why the word is not static; empty when it is
}

// text is the word for display and rule matching: its value when static,
// else as written.
func (w sword) text() string {
	if w.unknown != "" {
		return w.src
	}
	return w.lit
}

// word makes a word static: its value and glob pattern, with "~", $HOME,
// $PWD, $CLAUDE_PROJECT_DIR and the variables assigned a literal expanded,
// or why it is not static (any other expansion). The command and process
// substitutions in it are walked: they run.
func (a *analyzer) word(w *syntax.Word, depth int) sword {
	if w == nil {
		return sword{}
	}
	// Most words are one plain literal (rm, -rf, src/x.go): their value,
	// pattern and source are the text itself.
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[]{},~") {
			return sword{lit: l.Value, pat: l.Value, src: l.Value}
		}
	}
	var b wordBuilder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 {
				v = a.tilde(v, &b)
			}
			b.unquotedLit(v)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			b.quoted(v)
		case *syntax.DblQuoted:
			a.dblQuoted(p, &b, depth)
		case *syntax.ParamExp:
			v, why := a.param(p)
			if why != "" {
				b.unknown(why)
			} else if strings.ContainsAny(v, " \t\n") {
				b.unknown("an unquoted variable holding spaces is split into several words")
			}
			// Unquoted: the value is subject to globbing.
			b.unquotedLit(strings.ReplaceAll(v, `\`, `\\`))
		default:
			a.expansion(part, &b, depth)
		}
	}
	out := b.out
	out.lit, out.pat = b.lit.String(), b.pat.String()
	out.src = a.source(w)
	return out
}

// wordBuilder accumulates a word being made static: its value, its glob
// pattern, and what sword records besides (glob, brace, unknown).
type wordBuilder struct {
	lit, pat strings.Builder
	out      sword
}

// unknown records why the word is not static; the first reason stays.
func (b *wordBuilder) unknown(why string) {
	if b.out.unknown == "" {
		b.out.unknown = why
	}
}

// quoted adds a quoted string: its glob metacharacters are escaped.
func (b *wordBuilder) quoted(s string) {
	b.lit.WriteString(s)
	b.pat.WriteString(glob.Escape(s))
}

// tilde expands the "~" that starts a word's first literal v: "~" alone or
// before "/" is $HOME; "~user" is unknown. It returns what is left of v.
func (a *analyzer) tilde(v string, b *wordBuilder) string {
	if !strings.HasPrefix(v, "~") {
		return v
	}
	end := strings.IndexByte(v, '/')
	if end < 0 {
		end = len(v)
	}
	if end != 1 {
		b.unknown("~user is not expanded")
		return v
	}
	if a.env.Home == "" {
		b.unknown("~ without HOME")
		return v
	}
	b.quoted(a.env.Home)
	return v[1:]
}

// dblQuoted adds a double-quoted part: its literals and static parameters
// are quoted text; a command substitution in it is walked.
func (a *analyzer) dblQuoted(p *syntax.DblQuoted, b *wordBuilder, depth int) {
	for _, dp := range p.Parts {
		switch q := dp.(type) {
		case *syntax.Lit:
			b.quoted(dquoteUnescape(q.Value))
		case *syntax.ParamExp:
			v, why := a.param(q)
			if why != "" {
				b.unknown(why)
			}
			b.quoted(v)
		case *syntax.CmdSubst:
			a.substitution(q.Stmts, depth)
			b.unknown("a command substitution")
		default:
			b.unknown(fmt.Sprintf("an expansion (%s)", nodeKind(dp)))
		}
	}
}

// expansion records why a part that is no literal, quote or parameter
// makes the word unknown, walking the commands it runs.
func (a *analyzer) expansion(part syntax.WordPart, b *wordBuilder, depth int) {
	switch p := part.(type) {
	case *syntax.CmdSubst:
		a.substitution(p.Stmts, depth)
		b.unknown("a command substitution")
	case *syntax.ProcSubst:
		a.substitution(p.Stmts, depth)
		b.unknown("a process substitution")
	case *syntax.ArithmExp:
		syntax.Walk(p, func(n syntax.Node) bool {
			if cs, ok := n.(*syntax.CmdSubst); ok {
				a.substitution(cs.Stmts, depth)
				return false
			}
			return true
		})
		b.unknown("an arithmetic expansion")
	case *syntax.ExtGlob:
		b.unknown("an extended glob")
	default:
		b.unknown(fmt.Sprintf("an expansion (%s)", nodeKind(part)))
	}
}

// unquotedLit adds an unquoted literal: backslash escapes are removed, and
// *, ? and [ are glob metacharacters, { a brace expansion.
func (b *wordBuilder) unquotedLit(v string) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			if v[i] == '\n' {
				continue
			}
			b.lit.WriteByte(v[i])
			b.pat.WriteString(glob.Escape(string(v[i])))
		case c == '*' || c == '?' || c == '[':
			b.out.glob = true
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		case c == '{' || c == '}' || c == ',':
			if c == '{' {
				b.out.brace = true
			}
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		case c == ']':
			b.lit.WriteByte(c)
			b.pat.WriteString(`\]`)
		default:
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		}
	}
}

// param expands a parameter if it is static.
func (a *analyzer) param(p *syntax.ParamExp) (string, string) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil {
		return "", "a parameter expansion with an operator"
	}
	name := p.Param.Value
	if v, ok := a.vars[name]; ok {
		if !v.known {
			return "", "$" + name + " is not a literal"
		}
		return v.value, ""
	}
	switch name {
	case "HOME":
		if a.env.Home != "" {
			return a.env.Home, ""
		}
	case "PWD":
		if len(a.cwd) == 1 {
			return a.cwd[0], ""
		}
	case "CLAUDE_PROJECT_DIR":
		if a.env.ProjectDir != "" {
			return a.env.ProjectDir, ""
		}
	}
	return "", "$" + name + " is not known to safezone"
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}

// notAFile lists device files that are not data: writing to them or reading
// from them is not a file access the policy is about.
func notAFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty",
		"/dev/zero", "/dev/random", "/dev/urandom":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// source returns w as written in the script being walked: the text
// between its positions, or, should they not fit the script, as printed.
func (a *analyzer) source(w *syntax.Word) string {
	from, to := w.Pos().Offset(), w.End().Offset()
	if w.Pos().IsValid() && w.End().IsValid() && from <= to && int(to) <= len(a.src) {
		return a.src[from:to]
	}
	return printWord(w)
}

func printWord(w *syntax.Word) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, w); err != nil {
		return "?"
	}
	return b.String()
}

func nodeKind(n syntax.Node) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
}

// dquoteUnescape removes the backslashes that quote inside double quotes:
// before $, `, ", \ and a newline (which it removes too).
func dquoteUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes the escapes of bash's $'...' quoting (bash(1) QUOTING):
// an escape it does not know stays as written.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i = ansiCEscape(&b, s, i+1)
	}
	return b.String()
}

// ansiCLetters are the one-letter escapes of $'...' and the bytes they
// stand for.
var ansiCLetters = [...]struct{ letter, value byte }{
	{'n', '\n'}, {'t', '\t'}, {'r', '\r'}, {'a', 7}, {'b', 8}, {'e', 27}, {'E', 27}, {'f', 12}, {'v', 11},
	{'\\', '\\'}, {'\'', '\''}, {'"', '"'}, {'?', '?'},
}

// ansiCEscape decodes the escape whose letter is s[i] (after the
// backslash) into b and returns the index of its last byte.
func ansiCEscape(b *strings.Builder, s string, i int) int {
	e := s[i]
	for _, l := range ansiCLetters {
		if l.letter == e {
			b.WriteByte(l.value)
			return i
		}
	}
	switch {
	case e == 'x' || e == 'u' || e == 'U':
		return ansiCHex(b, s, i)
	case e >= '0' && e <= '7':
		// \NNN: one to three octal digits, a byte.
		j := i
		for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(s[i:j], 8, 8)
		b.WriteByte(byte(v))
		return j - 1
	case e == 'c':
		// \cX: the control character X & 0x1f.
		if i+1 < len(s) {
			i++
			b.WriteByte(s[i] & 0x1f)
		}
		return i
	}
	b.WriteByte('\\')
	b.WriteByte(e)
	return i
}

// ansiCHex decodes \xHH (a byte), \uHHHH and \UHHHHHHHH (a character),
// whose letter is s[i], into b and returns the index of its last byte.
// Without a hex digit the escape stays as written.
func ansiCHex(b *strings.Builder, s string, i int) int {
	digits := 2
	switch s[i] {
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	}
	j := i + 1
	for j < len(s) && j < i+1+digits && isHex(s[j]) {
		j++
	}
	if j == i+1 {
		b.WriteByte('\\')
		b.WriteByte(s[i])
		return i
	}
	v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
	if s[i] == 'x' {
		b.WriteByte(byte(v))
	} else {
		b.WriteRune(rune(v))
	}
	return j - 1
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
