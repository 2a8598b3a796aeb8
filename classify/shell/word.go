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

func (a *analyzer) word(w *syntax.Word, depth int) sword {
	out := sword{}
	if w == nil {
		return out
	}
	// Most words are one plain literal (rm, -rf, src/x.go): their value,
	// pattern and source are the text itself.
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[]{},~") {
			return sword{lit: l.Value, pat: l.Value, src: l.Value}
		}
	}
	var lit, pat strings.Builder
	unknown := func(why string) {
		if out.unknown == "" {
			out.unknown = why
		}
	}
	addQuoted := func(s string) {
		lit.WriteString(s)
		pat.WriteString(glob.Escape(s))
	}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				end := strings.IndexByte(v, '/')
				if end < 0 {
					end = len(v)
				}
				if end != 1 || (len(w.Parts) > 1 && end == len(v) && !isSlashStart(w.Parts[1])) {
					if end != 1 {
						unknown("~user is not expanded")
					}
				}
				if end == 1 {
					if a.env.Home == "" {
						unknown("~ without HOME")
					} else {
						addQuoted(a.env.Home)
						v = v[1:]
					}
				}
			}
			a.unquotedLit(v, &lit, &pat, &out)
		case *syntax.SglQuoted:
			v := p.Value
			if p.Dollar {
				v = ansiC(v)
			}
			addQuoted(v)
		case *syntax.DblQuoted:
			for _, dp := range p.Parts {
				switch q := dp.(type) {
				case *syntax.Lit:
					addQuoted(dquoteUnescape(q.Value))
				case *syntax.ParamExp:
					v, why := a.param(q)
					if why != "" {
						unknown(why)
					}
					addQuoted(v)
				case *syntax.CmdSubst:
					a.substitution(q.Stmts, depth)
					unknown("a command substitution")
				default:
					unknown(fmt.Sprintf("an expansion (%s)", nodeKind(dp)))
				}
			}
		case *syntax.ParamExp:
			v, why := a.param(p)
			if why != "" {
				unknown(why)
			} else if strings.ContainsAny(v, " \t\n") {
				unknown("an unquoted variable holding spaces is split into several words")
			}
			// Unquoted: the value is subject to globbing.
			a.unquotedLit(strings.ReplaceAll(v, `\`, `\\`), &lit, &pat, &out)
		case *syntax.CmdSubst:
			a.substitution(p.Stmts, depth)
			unknown("a command substitution")
		case *syntax.ProcSubst:
			a.substitution(p.Stmts, depth)
			unknown("a process substitution")
		case *syntax.ArithmExp:
			syntax.Walk(p, func(n syntax.Node) bool {
				if cs, ok := n.(*syntax.CmdSubst); ok {
					a.substitution(cs.Stmts, depth)
					return false
				}
				return true
			})
			unknown("an arithmetic expansion")
		case *syntax.ExtGlob:
			unknown("an extended glob")
		default:
			unknown(fmt.Sprintf("an expansion (%s)", nodeKind(part)))
		}
	}
	out.lit, out.pat = lit.String(), pat.String()
	out.src = a.source(w)
	return out
}

func isSlashStart(p syntax.WordPart) bool {
	l, ok := p.(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "/")
}

// unquotedLit adds an unquoted literal: backslash escapes are removed, and
// *, ? and [ are glob metacharacters, { a brace expansion.
func (a *analyzer) unquotedLit(v string, lit, pat *strings.Builder, out *sword) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			if v[i] == '\n' {
				continue
			}
			lit.WriteByte(v[i])
			pat.WriteString(glob.Escape(string(v[i])))
		case c == '*' || c == '?' || c == '[':
			out.glob = true
			lit.WriteByte(c)
			pat.WriteByte(c)
		case c == '{' || c == '}' || c == ',':
			if c == '{' {
				out.brace = true
			}
			lit.WriteByte(c)
			pat.WriteByte(c)
		case c == ']':
			lit.WriteByte(c)
			pat.WriteString(`\]`)
		default:
			lit.WriteByte(c)
			pat.WriteByte(c)
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

// ansiC decodes the escapes of bash's $'...' quoting.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case '\\', '\'', '"', '?':
			b.WriteByte(s[i])
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[i]]
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(s[i])
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if s[i] == 'x' {
				b.WriteByte(byte(v))
			} else {
				b.WriteRune(rune(v))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
