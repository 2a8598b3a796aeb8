package shell

import "strings"

// awkCmd: awk [OPTIONS] PROGRAM [FILE | VAR=VALUE]... reads its file
// operands; what the program does besides is found by awkProgram: a file it
// prints to is written, one it reads with getline is read, and a program
// that runs a command (system, a pipe) is unknown. Program files (-f, -E,
// -i) are read and unknown: safezone does not read them. The options are
// gawk's, mawk's and POSIX awk's (gawk(1) OPTIONS, mawk(1)).
func awkCmd(c *cmdCtx) {
	progs, ops, ok := c.awkOptions()
	if !ok {
		return
	}
	if !c.awkHasFile() {
		if len(ops) == 0 {
			c.unknown("awk without a program")
			return
		}
		progs, ops = append(progs, ops[0]), ops[1:]
	}
	for _, p := range progs {
		if p.unknown != "" {
			c.unknown("the awk program is not static")
			continue
		}
		files, why := awkProgram(p.lit)
		if why != "" {
			c.unknown(why)
		}
		for _, f := range files {
			c.add(literal(f.name), f.access)
		}
	}
	for _, w := range ops {
		if w.unknown == "" && assignLike(w.lit) {
			continue // a VAR=VALUE operand
		}
		c.add(w, Read)
	}
	c.cmd.ReadOnly = c.cmd.Unknown == "" && !c.writes()
}

// awkOptionsSpec are awk's options: gawk's (gawk(1) 5.2 OPTIONS, main.c
// optlist "+F:f:v:W;bcCd::D::e:E:ghi:Il:L::nNo::Op::MPrSstVYZ:"), mawk's
// (mawk(1) 1.3.4) and POSIX awk's. The options end at the program (the
// "+" of gawk's optlist; POSIX awk's synopsis): a word after it that looks
// like an option ("-F") is an operand, a file. -d, -o, -p and -L take an
// optional value, attached (-dFILE, --profile=FILE); getopt_long takes an
// abbreviated long option (--prof=FILE).
var awkOptionsSpec = cmdSpec{short: "bcCghIkMnNOPrsStV", shortArg: "FfvEilWeD", shortOpt: "dopL", optEnd: true,
	long: []string{"characters-as-bytes", "traditional", "copyright", "gen-pot", "help", "bignum", "use-lc-numeric",
		"optimize", "posix", "re-interval", "no-optimize", "sandbox", "lint-old", "version", "csv", "non-decimal-data",
		"trace", "nostalgia", "dump-variables", "pretty-print", "profile", "lint", "debug"},
	longArg: []string{"field-separator", "file", "assign", "exec", "include", "load", "source",
		"dump-variables", "pretty-print", "profile", "lint", "debug"}}

// awkOptionalValue are awk's options whose value is optional and attached,
// with the file each writes without one (gawk(1)): -d (--dump-variables),
// -o (--pretty-print), -p (--profile); -L (--lint) writes none.
var awkOptionalValue = []struct{ short, long, file string }{
	{"d", "dump-variables", "awkvars.out"}, {"o", "pretty-print", "awkprof.out"}, {"p", "profile", "awkprof.out"}, {"L", "lint", ""},
}

// awkSafeW are the values of -W that run nothing and name no file (mawk(1)
// -W, gawk(1) -W).
var awkSafeW = []string{"version", "v", "interactive", "i", "posix", "posix_space", "traditional", "compat", "sandbox", "usage", "help"}

// awkOptions parses awk's options: it returns the program texts of -e
// (--source) and the operands, adding the files the options name.
func (c *cmdCtx) awkOptions() (progs, ops []sword, ok bool) {
	c.spec = &awkOptionsSpec
	if !c.getopt() {
		return nil, nil, false
	}
	for _, o := range c.opts {
		switch o.name {
		case "f", "file", "E", "exec", "i", "include":
			c.add(o.val, Read)
			c.unknown("an awk program file safezone does not read")
		case "l", "load":
			c.unknown("awk -l loads an extension's code")
		case "D", "debug":
			c.unknown("awk -D runs the debugger, whose commands safezone does not read")
		case "e", "source":
			progs = append(progs, o.val)
		case "W":
			if o.val.unknown != "" || !containsStr(awkSafeW, o.val.lit) {
				c.unknown("awk -W " + o.val.text() + " is not in safezone's table")
			}
		}
		for _, f := range awkOptionalValue {
			if o.name != f.short && o.name != f.long {
				continue
			}
			switch {
			case o.has:
				if f.short != "L" {
					c.add(o.val, Write)
				}
			case f.file != "":
				c.add(literal(f.file), Write)
			}
		}
	}
	return progs, c.ops, true
}

// awkHasFile reports whether the program comes from an option (-f, -E,
// -e) rather than the first operand.
func (c *cmdCtx) awkHasFile() bool {
	return c.has("f", "file", "E", "exec", "e", "source")
}

// scriptFile is a file an awk program or a sed script names: written by a
// print redirection or sed's w, read by getline or sed's r.
type scriptFile struct {
	name   string
	access Access
}

// awkScan is the state of awkProgram's scan.
type awkScan struct {
	prog    string
	i       int
	operand bool // the last token ends an operand: a "/" after it divides
	// print is true inside a print or printf statement, whose top-level
	// ">" is a redirection; printDepth is the parenthesis depth it
	// started at.
	print      bool
	printDepth int
	depth      int
	getline    bool // a getline came earlier in the statement: "<" reads a file
	files      []scriptFile
	why        string
}

// awkProgram scans an awk program (POSIX awk(1) Lexical Conventions,
// Output Statements, getline; gawk's manual) for what it does besides
// reading its operands: print and printf to a file ("> FILE", ">> FILE")
// write it; getline < FILE reads it; a pipe ("|", "|&"), system(), gawk's
// "@" (directives, indirect calls) and ARGV or ARGC (which change the
// operands) make it unknown, as does a file named by an expression.
// Strings and regular expressions are skipped: a "|" in /a|b/ is no pipe.
func awkProgram(prog string) ([]scriptFile, string) {
	s := &awkScan{prog: prog}
	for s.i < len(prog) && s.why == "" {
		s.token()
	}
	return s.files, s.why
}

// token scans one token at s.i.
func (s *awkScan) token() {
	ch := s.prog[s.i]
	switch {
	case ch == ' ' || ch == '\t' || ch == '\r':
		s.i++
	case ch == '\\' && s.i+1 < len(s.prog) && s.prog[s.i+1] == '\n':
		s.i += 2
	case ch == '\n' || ch == ';' || ch == '{' || ch == '}':
		s.print, s.getline, s.operand = false, false, false
		s.i++
	case ch == '#':
		for s.i < len(s.prog) && s.prog[s.i] != '\n' {
			s.i++
		}
	case ch == '"':
		s.str()
		s.operand = true
	case ch == '/' && !s.operand:
		s.regex()
		s.operand = true
	case isAwkWordStart(ch):
		s.word()
	case ch >= '0' && ch <= '9' || ch == '.':
		for s.i < len(s.prog) && (isAwkWordChar(s.prog[s.i]) || s.prog[s.i] == '.') {
			s.i++
		}
		s.operand = true
	default:
		s.operator(ch)
	}
}

// operator scans an operator or punctuation character ch.
func (s *awkScan) operator(ch byte) {
	next := byte(0)
	if s.i+1 < len(s.prog) {
		next = s.prog[s.i+1]
	}
	s.i++
	switch {
	case ch == '|' && next == '|':
		s.i++
		s.operand = false
	case ch == '|':
		s.why = "the awk program writes to or reads from a command (|)"
	case ch == '@':
		s.why = "the awk program uses gawk's @ (a directive or an indirect call)"
	case ch == '>' && s.print && s.depth == s.printDepth:
		if next == '>' {
			s.i++
		}
		s.file(Write)
	case ch == '<' && s.getline:
		s.file(Read)
	case ch == '(' || ch == '[':
		s.depth++
		s.operand = false
	case ch == ')' || ch == ']':
		s.depth--
		s.operand = true
	case (ch == '+' || ch == '-') && next == ch:
		s.i++ // ++ and --: the operand they apply to stays one
	case ch == '$':
		s.operand = false
	default:
		s.operand = false
	}
}

// word scans an identifier or keyword.
func (s *awkScan) word() {
	start := s.i
	for s.i < len(s.prog) && isAwkWordChar(s.prog[s.i]) {
		s.i++
	}
	w := s.prog[start:s.i]
	s.operand = true
	switch w {
	case "print", "printf":
		s.print, s.printDepth = true, s.depth
		s.operand = false
	case "getline":
		s.getline = true
	case "system":
		s.why = "the awk program runs a command (system)"
	case "ARGV", "ARGC":
		s.why = "the awk program may change its operands (" + w + ")"
	case "in", "if", "else", "while", "for", "do", "return", "delete", "exit", "next", "nextfile",
		"function", "func", "case", "default", "switch", "BEGIN", "END", "BEGINFILE", "ENDFILE":
		s.operand = false
	}
}

// str skips a string literal and returns its value (escapes "\"" and "\\"
// decoded, any other kept as written).
func (s *awkScan) str() string {
	var b strings.Builder
	s.i++
	for s.i < len(s.prog) && s.prog[s.i] != '"' {
		if s.prog[s.i] == '\\' && s.i+1 < len(s.prog) {
			s.i++
			if c := s.prog[s.i]; c != '"' && c != '\\' && c != '/' {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(s.prog[s.i])
		s.i++
	}
	if s.i >= len(s.prog) {
		s.why = "an awk string does not end"
	}
	s.i++
	return b.String()
}

// regex skips a regular expression literal: a "/" inside a bracket
// expression or after a backslash does not end it.
func (s *awkScan) regex() {
	s.i++
	bracket := false
	for s.i < len(s.prog) {
		switch c := s.prog[s.i]; {
		case c == '\\':
			s.i++
		case c == '[':
			bracket = true
		case c == ']':
			bracket = false
		case c == '/' && !bracket:
			s.i++
			return
		case c == '\n':
			s.why = "an awk regular expression does not end on its line"
			return
		}
		s.i++
	}
	s.why = "an awk regular expression does not end"
}

// file reads the file a redirection names: a string literal that ends the
// statement (or the getline's parentheses); anything else is unknown.
func (s *awkScan) file(access Access) {
	for s.i < len(s.prog) && (s.prog[s.i] == ' ' || s.prog[s.i] == '\t') {
		s.i++
	}
	if s.i >= len(s.prog) || s.prog[s.i] != '"' {
		s.why = "the awk program names a file with an expression"
		return
	}
	name := s.str()
	j := s.i
	for j < len(s.prog) && (s.prog[j] == ' ' || s.prog[j] == '\t') {
		j++
	}
	if j < len(s.prog) && !strings.ContainsRune(";}\n)", rune(s.prog[j])) {
		s.why = "the awk program names a file with an expression"
		return
	}
	if strings.ContainsRune(name, '\\') {
		s.why = "an awk file name with an escape"
		return
	}
	if name != "-" && !notAFile(name) {
		s.files = append(s.files, scriptFile{name: name, access: access})
	}
	s.operand, s.getline = true, false
}

func isAwkWordStart(c byte) bool { return c == '_' || isLetter(c) }
func isAwkWordChar(c byte) bool  { return isAwkWordStart(c) || c >= '0' && c <= '9' }
