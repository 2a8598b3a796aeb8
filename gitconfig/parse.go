// Package gitconfig reads git's configuration files and repository layout
// as git does, without running git: enough to tell which files and
// directories git would read as configuration or run as code for a
// repository (Derive), so that safezone can keep them read-only to a
// confined command.
//
// Sources: git-config(1) ("CONFIGURATION FILE": syntax, includes,
// conditional includes), gitrepository-layout(5) (.git as a file,
// commondir, config.worktree, modules/, worktrees/), githooks(5)
// (core.hooksPath), as of git 2.39 to 2.47.
package gitconfig

import (
	"errors"
	"strings"
)

// MaxFile bounds the size of one configuration file that is parsed:
// larger files are an error (git reads any size; a configuration that
// large is no one's).
const MaxFile = 1 << 20

// Entry is one variable set in a configuration file: Section and Key are
// lower case (git compares them without case), Subsection as written
// (case-sensitive; "" for none). A key written without "=" is a boolean
// true: Value "" and NoValue set.
type Entry struct {
	Section, Subsection, Key string
	Value                    string
	NoValue                  bool
}

// Name is the entry's full name, "section.subsection.key" (or
// "section.key"), section and key lower case.
func (e Entry) Name() string {
	if e.Subsection == "" {
		return e.Section + "." + e.Key
	}
	return e.Section + "." + e.Subsection + "." + e.Key
}

// ErrSyntax is returned, wrapped with the line, for a file git would
// refuse ("bad config line").
var ErrSyntax = errors.New("bad config line")

// Parse parses the contents of one git configuration file (git-config(1),
// "Syntax"): sections [section], [section "subsection"] (with \" and \\
// escapes) and the deprecated [section.subsection]; variables "key = value"
// or "key" alone; comments from "#" or ";" outside quotes; values with
// double quotes, the escapes \n \t \b \" \\, and a backslash at the end of
// a line continuing it. It returns the entries in file order, or, for data
// longer than MaxFile or a line git would refuse, the entries before it
// and an error wrapping ErrSyntax. A leading UTF-8 byte order mark is
// skipped, as git does.
func Parse(data []byte) ([]Entry, error) {
	if len(data) > MaxFile {
		return nil, errors.New("git configuration file larger than 1 MiB")
	}
	p := parser{s: strings.TrimPrefix(string(data), "\ufeff"), line: 1}
	return p.parse()
}

type parser struct {
	s    string
	i    int
	line int
	sec  string
	sub  string
	out  []Entry
}

func (p *parser) errf(what string) error {
	return errors.Join(ErrSyntax, errors.New(what+" at line "+itoa(p.line)))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func (p *parser) peek() (byte, bool) {
	if p.i >= len(p.s) {
		return 0, false
	}
	return p.s[p.i], true
}

func (p *parser) skipLine() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

func lower(s string) string { return strings.ToLower(s) }

func (p *parser) parse() ([]Entry, error) {
	for {
		c, ok := p.peek()
		if !ok {
			return p.out, nil
		}
		switch {
		case c == '\n':
			p.i++
			p.line++
		case isSpace(c):
			p.i++
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			if err := p.section(); err != nil {
				return p.out, err
			}
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			if p.sec == "" {
				return p.out, p.errf("a variable before any section")
			}
			if err := p.variable(); err != nil {
				return p.out, err
			}
		default:
			return p.out, p.errf("unexpected character")
		}
	}
}

// section parses "[name]", "[name "sub"]" or "[name.sub]", then anything
// after it on the line is parsed as a variable (git allows
// "[core] bare = true").
func (p *parser) section() error {
	p.i++ // [
	start := p.i
	for p.i < len(p.s) && (isKeyChar(p.s[p.i]) || p.s[p.i] == '.') {
		p.i++
	}
	name := p.s[start:p.i]
	c, ok := p.peek()
	switch {
	case !ok:
		return p.errf("unterminated section header")
	case c == ']':
		p.i++
		if name == "" {
			return p.errf("empty section name")
		}
		// [section.subsection]: the deprecated form, subsection lower
		// cased (git-config(1)).
		sec, sub, dotted := strings.Cut(name, ".")
		if sec == "" || dotted && sub == "" {
			return p.errf("bad section name")
		}
		p.sec, p.sub = lower(sec), lower(sub)
		return nil
	case isSpace(c):
		if strings.Contains(name, ".") || name == "" {
			return p.errf("bad section name")
		}
		for p.i < len(p.s) && isSpace(p.s[p.i]) {
			p.i++
		}
		if c, ok := p.peek(); !ok || c != '"' {
			return p.errf("bad subsection")
		}
		p.i++
		var sub strings.Builder
		for {
			c, ok := p.peek()
			if !ok || c == '\n' {
				return p.errf("unterminated subsection")
			}
			p.i++
			if c == '"' {
				break
			}
			if c == '\\' {
				c, ok = p.peek()
				if !ok || c == '\n' {
					return p.errf("unterminated subsection")
				}
				p.i++
			}
			sub.WriteByte(c)
		}
		if c, ok := p.peek(); !ok || c != ']' {
			return p.errf("bad section header")
		}
		p.i++
		p.sec, p.sub = lower(name), sub.String()
		return nil
	}
	return p.errf("bad section header")
}

// variable parses "key", "key = value" to the end of its (continued)
// line.
func (p *parser) variable() error {
	start := p.i
	for p.i < len(p.s) && isKeyChar(p.s[p.i]) {
		p.i++
	}
	e := Entry{Section: p.sec, Subsection: p.sub, Key: lower(p.s[start:p.i])}
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
	c, ok := p.peek()
	switch {
	case !ok || c == '\n' || c == '#' || c == ';':
		e.NoValue = true
		p.skipLine()
		p.out = append(p.out, e)
		return nil
	case c != '=':
		return p.errf("bad variable")
	}
	p.i++
	v, err := p.value()
	if err != nil {
		return err
	}
	e.Value = v
	p.out = append(p.out, e)
	return nil
}

// value parses a value to the end of its line: spaces at either end
// dropped unless quoted, inner runs kept, quotes removed, escapes
// replaced, comments cut, "\" + newline continuing the line.
func (p *parser) value() (string, error) {
	var b strings.Builder
	quoted := false
	pending := 0 // unquoted spaces not yet written: dropped at the end
	started := false
	for {
		c, ok := p.peek()
		if !ok || c == '\n' {
			if quoted {
				return "", p.errf("unterminated quote")
			}
			s := b.String()
			return s[:len(s)-pending], nil
		}
		p.i++
		switch {
		case isSpace(c) && !quoted:
			if started {
				pending++
				b.WriteByte(c)
			}
			continue
		case (c == '#' || c == ';') && !quoted:
			p.skipLine()
			s := b.String()
			return s[:len(s)-pending], nil
		}
		pending = 0
		started = true
		switch c {
		case '"':
			quoted = !quoted
		case '\\':
			n, ok := p.peek()
			if !ok {
				return "", p.errf("bad escape")
			}
			p.i++
			switch n {
			case '\n':
				p.line++
			case '\r':
				// "\\\r\n" continues too.
				if q, ok := p.peek(); ok && q == '\n' {
					p.i++
					p.line++
				} else {
					return "", p.errf("bad escape")
				}
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '"', '\\':
				b.WriteByte(n)
			default:
				return "", p.errf("bad escape")
			}
		default:
			b.WriteByte(c)
		}
	}
}
