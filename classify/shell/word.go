package shell

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/policy/glob"
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
	// split is true when the word holds an unquoted expansion that is not
	// static: bash splits its value into fields and globs them, so the
	// word may become several words or none, shifting the operands after
	// it (bash(1) Word Splitting).
	split bool
	// varOpts are the shell options a loop variable's glob was expanded
	// with, for a word that holds one; ownGlob is true when the word has
	// glob characters of its own too.
	varOpts []glob.ShellOptions
	ownGlob bool
	// extGlob is true for a word with an extended glob written in the
	// line: bash parsed it, so extglob was on then.
	extGlob bool
}

// text is the word for display and rule matching: its value when static,
// else as written.
func (w sword) text() string {
	if w.unknown != "" {
		return w.src
	}
	return w.lit
}

// literal returns a static word holding s, quoted (no glob, no brace).
func literal(s string) sword {
	return sword{lit: s, pat: glob.Escape(s), src: s}
}

// word makes a word static: its value and glob pattern, with "~", $HOME,
// $PWD, $TMPDIR, $CLAUDE_PROJECT_DIR and the variables assigned a literal
// expanded, or why it is not static (any other expansion). The command and
// process substitutions in it are walked: they run.
func (a *analyzer) word(w *syntax.Word, depth int) sword { return a.wordOf(w, depth, false) }

// wordOf is word; assign is true for the value of a variable assignment,
// where a "~" after a ":" expands too (bash(1) Tilde Expansion).
func (a *analyzer) wordOf(w *syntax.Word, depth int, assign bool) sword {
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
	// A word that looks like an assignment (NAME=...), given as an
	// argument, has its tildes after "=" and ":" expanded as an
	// assignment's are.
	tildes := tildeStart
	if assign {
		tildes = tildeColons
	} else if l, ok := w.Parts[0].(*syntax.Lit); ok && assignLike(l.Value) {
		tildes = tildeAssignment
	}
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			a.unquotedPart(p.Value, i, i < len(w.Parts)-1, tildes, &b)
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
			switch {
			case why != "":
				b.unknown(why)
				b.out.split = true
			case v.glob:
				b.globbed(v)
			case strings.ContainsAny(v.value, " \t\n"):
				b.unknown("an unquoted variable holding spaces is split into several words")
				b.out.split = true
			default:
				// Unquoted: the value is subject to globbing.
				b.unquotedValue(v.value)
			}
		default:
			a.expansion(part, &b, depth)
		}
	}
	out := b.out
	out.lit, out.pat = b.lit.String(), b.pat.String()
	out.src = a.source(w)
	if out.unknown == "" && a.unknown == "" && subscriptRuns(out.lit) {
		// The line as a whole: where bash evaluates it is not tracked.
		a.unknown = out.src + ": bash may evaluate the command substitution in its subscript"
	}
	return out
}

// subscriptRuns reports whether a static value holds an array subscript
// with a command substitution ("a[$(cmd)]"): bash evaluates such a
// subscript, running cmd, wherever it takes the value as a variable name
// or arithmetic (test -v, declare, printf -v, read, unset, let, (( )), a
// variable used in arithmetic).
//
// Only a subscript counts: a "[" right after a name character, up to its
// "]" (a Markdown "[link](url)" and "`code`" in a PR body do not).
func subscriptRuns(v string) bool {
	for i := 1; i < len(v); i++ {
		if v[i] != '[' || !isNameByte(v[i-1]) {
			continue
		}
		sub := v[i+1:]
		if end := strings.IndexByte(sub, ']'); end >= 0 {
			sub = sub[:end]
		}
		if strings.Contains(sub, "$(") || strings.Contains(sub, "`") {
			return true
		}
	}
	return false
}

func isNameByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// Where an unquoted literal may start a tilde-prefix (bash(1) Tilde
// Expansion): at the start of the word; in an assignment's value, also
// after each ":"; in an argument that looks like an assignment, after its
// first "=" and after each ":".
type tildeRule uint8

const (
	tildeStart tildeRule = iota
	tildeColons
	tildeAssignment
)

// assignLike reports whether s starts like a variable assignment, NAME=.
func assignLike(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// unquotedPart adds the unquoted literal v, the i-th part of its word
// (more: other parts follow), expanding the tilde-prefixes the rule
// allows.
func (a *analyzer) unquotedPart(v string, i int, more bool, rule tildeRule, b *wordBuilder) {
	if rule == tildeAssignment && i == 0 {
		eq := strings.IndexByte(v, '=')
		b.unquotedLit(v[:eq+1])
		v = v[eq+1:]
	}
	if rule == tildeStart {
		if i == 0 {
			v = a.tilde(v, more, b)
		}
		b.unquotedLit(v)
		return
	}
	// Each ":"-separated segment may start a tilde-prefix; the first only
	// at the start of the word (or after the "=").
	for k := 0; ; k++ {
		end := unescapedIndex(v, ':')
		seg := v
		if end >= 0 {
			seg = v[:end]
		}
		if k > 0 || i == 0 {
			seg = a.tilde(seg, more && end < 0, b)
		}
		b.unquotedLit(seg)
		if end < 0 {
			return
		}
		b.unquotedLit(":")
		v = v[end+1:]
	}
}

// unescapedIndex returns the index of the first c in s not quoted by a
// backslash, or -1.
func unescapedIndex(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case c:
			return i
		}
	}
	return -1
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

// globbed adds the value of a loop variable bound to a glob's matches: a
// file name matching the pattern, quoted or not, with the options the
// loop expanded it with.
func (b *wordBuilder) globbed(v shellVar) {
	b.out.glob = true
	b.lit.WriteString(v.value)
	b.pat.WriteString(v.pat)
	b.out.varOpts = append(b.out.varOpts, v.opts...)
}

// tilde expands the tilde-prefix that starts the unquoted literal v (bash(1)
// Tilde Expansion): "~" before "/" or at the end of the word is $HOME, "~+"
// is $PWD; "~user" and "~-" are unknown. A prefix that a quoted part or an
// expansion continues (more, with no "/" in v: ~"x", ~$X) or that holds a
// backslash is no tilde-prefix: bash leaves it as written. It returns what
// is left of v.
func (a *analyzer) tilde(v string, more bool, b *wordBuilder) string {
	if !strings.HasPrefix(v, "~") {
		return v
	}
	end := strings.IndexByte(v, '/')
	if end < 0 {
		if more {
			return v
		}
		end = len(v)
	}
	prefix := v[1:end]
	switch {
	case strings.Contains(prefix, `\`):
		return v
	case prefix == "":
		home, why := a.home()
		if why != "" {
			b.unknown(why)
			return v
		}
		b.quoted(home)
	case prefix == "+" && len(a.cwd) == 1:
		b.quoted(a.cwd[0])
	default:
		b.unknown("~" + prefix + " is not expanded")
		return v
	}
	return v[end:]
}

// home returns $HOME: a value assigned earlier in the line, else the
// environment's.
func (a *analyzer) home() (string, string) {
	if v, ok := a.vars["HOME"]; ok {
		if !v.known || v.glob {
			return "", "$HOME is not a literal"
		}
		return v.value, ""
	}
	if a.env.Home == "" {
		return "", "~ without HOME"
	}
	return a.env.Home, ""
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
			switch {
			case why != "":
				b.unknown(why)
			case v.glob:
				b.globbed(v)
			default:
				b.quoted(v.value)
			}
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
		b.out.split = true
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
		b.out.split = true
	case *syntax.ExtGlob:
		a.extGlob(p, b)
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
			b.out.glob, b.out.ownGlob = true, true
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		case c == '{' || c == '}' || c == ',':
			if c == '{' {
				b.out.brace = true
			}
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		case c == '(':
			// Only an escaped "(" reaches here (above); a raw one would
			// not parse. Kept from starting an extended glob.
			b.lit.WriteByte(c)
			b.pat.WriteString(`\(`)
		default:
			b.lit.WriteByte(c)
			b.pat.WriteByte(c)
		}
	}
}

// unquotedValue adds the value of an unquoted parameter expansion: bash
// globs it (bash(1) Pathname Expansion), a backslash in it quoting the
// next character for the matcher but staying in the word; no brace
// expansion happens in it.
func (b *wordBuilder) unquotedValue(v string) {
	if glob.IsPattern(v) {
		b.out.glob, b.out.ownGlob = true, true
	}
	b.lit.WriteString(v)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			b.pat.WriteByte(c)
			if i+1 < len(v) {
				i++
				b.pat.WriteByte(v[i])
			}
		case '{', '}', ',':
			b.pat.WriteString(glob.Escape(string(c)))
		default:
			b.pat.WriteByte(c)
		}
	}
}

// extGlob adds an extended glob, ?(…) *(…) +(…) @(…) !(…): bash's parser
// reads it only where extglob is on, and matches it then (bash(1) Pattern
// Matching). A pattern list with quotes or expansions in it is unknown, as
// is one whose end the parser and bash's matcher would place apart.
func (a *analyzer) extGlob(p *syntax.ExtGlob, b *wordBuilder) {
	raw := p.Pattern.Value
	text := p.Op.String() + raw + ")"
	if strings.ContainsAny(raw, "'\"\\$`") {
		b.unknown("an extended glob with quotes or expansions in it")
		b.out.split = true
		return
	}
	if !extGlobEnds(raw) {
		b.unknown("an extended glob whose end bash reads elsewhere")
		b.out.split = true
		return
	}
	b.out.glob, b.out.ownGlob, b.out.extGlob = true, true, true
	b.lit.WriteString(text)
	b.pat.WriteString(text)
}

// extGlobEnds reports whether bash's matcher ends the pattern list raw
// (what the parser read between the parentheses) where the parser did: at
// its last byte.
func extGlobEnds(raw string) bool {
	return glob.PatternListLen(raw+")") == len(raw)+1
}

// param expands a parameter if it is static: a variable assigned earlier
// in the line, a positional parameter bound by a function call or a
// "bash -c" script, or one of the environment's ($HOME, $PWD, $TMPDIR,
// $CLAUDE_PROJECT_DIR).
func (a *analyzer) param(p *syntax.ParamExp) (shellVar, string) {
	if !plainParam(p) {
		return shellVar{}, "a parameter expansion with an operator"
	}
	name := p.Param.Value
	if v, ok := a.vars[name]; ok {
		if !v.known {
			return shellVar{}, "$" + name + " is not a literal"
		}
		return v, ""
	}
	if n, err := strconv.Atoi(name); err == nil && n > 0 && a.posKnown {
		if n > len(a.pos) {
			return shellVar{value: "", known: true}, ""
		}
		w := a.pos[n-1]
		if w.unknown != "" {
			return shellVar{}, "$" + name + " is " + w.src + ", which is not static"
		}
		return shellVar{value: w.lit, known: true, glob: w.glob && hasGlobMeta(w.pat), pat: w.pat, opts: w.varOpts}, ""
	}
	if v := a.envParam(name); v != "" {
		return shellVar{value: v, known: true}, ""
	}
	return shellVar{}, "$" + name + " is not known to safezone"
}

// plainParam reports whether p is $NAME or ${NAME}, with no operator.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil && p.Repl == nil &&
		p.Names == 0 && p.Exp == nil && p.NestedParam == nil
}

// envParam returns the value of a parameter the analysis knows from the
// environment ($HOME, $PWD when the directory is sure, $TMPDIR,
// $CLAUDE_PROJECT_DIR, $# where the positional parameters are known), or
// "".
func (a *analyzer) envParam(name string) string {
	switch name {
	case "#":
		if a.posKnown {
			return strconv.Itoa(len(a.pos))
		}
	case "HOME":
		return a.env.Home
	case "PWD":
		if len(a.cwd) == 1 {
			return a.cwd[0]
		}
	case "TMPDIR":
		return a.env.TmpDir
	case "CLAUDE_PROJECT_DIR":
		return a.env.ProjectDir
	}
	return ""
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != ""
}

// notAFile lists device files that are not data: writing to them or reading
// from them is not a file access the policy is about. A descriptor,
// /dev/fd/N (a process substitution's), is one; a path below it
// (/dev/fd/7/x, below a directory the command opened) is a file.
func notAFile(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty",
		"/dev/zero", "/dev/random", "/dev/urandom":
		return true
	}
	n, ok := strings.CutPrefix(p, "/dev/fd/")
	return ok && n != "" && !strings.Contains(n, "/")
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
