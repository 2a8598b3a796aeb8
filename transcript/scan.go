package transcript

import (
	"errors"
	"fmt"
)

// maxDepth bounds the nesting of a record (real records nest a dozen
// levels; tool results holding JSON are strings, not nesting).
const maxDepth = 512

var (
	errSyntax  = errors.New("invalid JSON")
	errTooDeep = tooDeep{}
)

// tooDeep is errSyntax for a record nested past maxDepth. A type, not
// fmt.Errorf at package level: every hook process would pay fmt's first,
// cold call at start-up.
type tooDeep struct{}

func (tooDeep) Error() string { return "invalid JSON: nested deeper than 512 levels" }
func (tooDeep) Unwrap() error { return errSyntax }

// record is what one line contributes: the fields a Reader uses, as raw
// JSON tokens pointing into the line.
type record struct {
	typ, sessionID, cwd, mode, timestamp []byte
	uses                                 []use
	results                              []result
}

type use struct {
	id, name, input []byte
}

// result is a tool_result block: the tool_use it answers, and whether it
// is an error (a refused or failed call).
type result struct {
	useID   []byte
	isError bool
}

// parse checks that line is exactly one JSON object and reads its type,
// sessionId, cwd, permissionMode, timestamp (string values only) and, in
// message.content, every tool_use block. A key given twice keeps its last
// value, as JavaScript's JSON.parse does.
func (rec *record) parse(line []byte) error {
	*rec = record{uses: rec.uses[:0], results: rec.results[:0]}
	s := scanner{b: line}
	s.space()
	if s.peek() != '{' {
		return errSyntax
	}
	err := s.object(func(key []byte) error {
		switch string(key) {
		case `"type"`:
			rec.typ = s.stringOrSkip()
		case `"sessionId"`:
			rec.sessionID = s.stringOrSkip()
		case `"cwd"`:
			rec.cwd = s.stringOrSkip()
		case `"permissionMode"`:
			rec.mode = s.stringOrSkip()
		case `"timestamp"`:
			rec.timestamp = s.stringOrSkip()
		case `"message"`:
			rec.uses, rec.results = rec.uses[:0], rec.results[:0]
			return s.message(rec)
		default:
			return s.skip()
		}
		return s.err
	})
	if err != nil {
		return err
	}
	s.space()
	if s.i != len(s.b) {
		return fmt.Errorf("%w: data after the record", errSyntax)
	}
	return nil
}

// scanner walks one line of JSON. Every method validates what it passes.
type scanner struct {
	b     []byte
	i     int
	depth int
	err   error
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) space() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

func (s *scanner) fail() error {
	if s.err == nil {
		s.err = fmt.Errorf("%w at byte %d", errSyntax, s.i)
	}
	return s.err
}

// object reads an object at s.i, calling member for each key (a raw string
// token) with s.i at the start of the value; member must consume the value.
func (s *scanner) object(member func(key []byte) error) error {
	if s.depth++; s.depth > maxDepth {
		s.err = errTooDeep
		return s.err
	}
	s.i++ // '{'
	s.space()
	if s.peek() == '}' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.space()
		if s.peek() != '"' {
			return s.fail()
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		s.space()
		if s.peek() != ':' {
			return s.fail()
		}
		s.i++
		s.space()
		if err := member(key); err != nil {
			return err
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail()
		}
	}
}

// array reads an array at s.i, calling elem with s.i at each element.
func (s *scanner) array(elem func() error) error {
	if s.depth++; s.depth > maxDepth {
		s.err = errTooDeep
		return s.err
	}
	s.i++ // '['
	s.space()
	if s.peek() == ']' {
		s.i++
		s.depth--
		return nil
	}
	for {
		s.space()
		if err := elem(); err != nil {
			return err
		}
		s.space()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return nil
		default:
			return s.fail()
		}
	}
}

// stringOrSkip returns the string token at s.i, or skips a value of
// another type and returns nil.
func (s *scanner) stringOrSkip() []byte {
	if s.peek() != '"' {
		s.skip()
		return nil
	}
	tok, _ := s.str()
	return tok
}

// message reads the "message" value: an object whose "content" array
// holds the blocks; tool_use blocks are collected. Any other shape is
// skipped.
func (s *scanner) message(rec *record) error {
	if s.peek() != '{' {
		return s.skip()
	}
	return s.object(func(key []byte) error {
		if string(key) != `"content"` || s.peek() != '[' {
			return s.skip()
		}
		rec.uses, rec.results = rec.uses[:0], rec.results[:0]
		return s.array(func() error {
			if s.peek() != '{' {
				return s.skip()
			}
			return s.block(rec)
		})
	})
}

// block reads one content block: a tool_use (id, name, input) or a
// tool_result (tool_use_id, is_error); other blocks are skipped.
func (s *scanner) block(rec *record) error {
	var u use
	var r result
	var typ []byte
	err := s.object(func(key []byte) error {
		switch string(key) {
		case `"type"`:
			typ = s.stringOrSkip()
		case `"id"`:
			u.id = s.stringOrSkip()
		case `"name"`:
			u.name = s.stringOrSkip()
		case `"input"`:
			start := s.i
			if err := s.skip(); err != nil {
				return err
			}
			u.input = s.b[start:s.i]
		case `"tool_use_id"`:
			r.useID = s.stringOrSkip()
		case `"is_error"`:
			r.isError = s.peek() == 't'
			return s.skip()
		default:
			return s.skip()
		}
		return s.err
	})
	switch {
	case err != nil:
	case string(typ) == `"tool_use"`:
		rec.uses = append(rec.uses, u)
	case string(typ) == `"tool_result"` && r.useID != nil:
		rec.results = append(rec.results, r)
	}
	return err
}

// skip passes over one value of any type.
func (s *scanner) skip() error {
	switch c := s.peek(); {
	case c == '"':
		_, err := s.str()
		return err
	case c == '{':
		return s.object(func([]byte) error { return s.skip() })
	case c == '[':
		return s.array(s.skip)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.fail()
}

func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return s.fail()
	}
	s.i += len(lit)
	return nil
}

// number passes over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() error {
	if s.peek() == '-' {
		s.i++
	}
	switch c := s.peek(); {
	case c == '0':
		s.i++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return s.fail()
	}
	if s.peek() == '.' {
		s.i++
		if !s.digits() {
			return s.fail()
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.i++
		if c := s.peek(); c == '+' || c == '-' {
			s.i++
		}
		if !s.digits() {
			return s.fail()
		}
	}
	return nil
}

func (s *scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// str passes over the string at s.i and returns its token, quotes
// included. Control characters must be escaped; escapes must be valid.
func (s *scanner) str() ([]byte, error) {
	start := s.i
	s.i++ // '"'
	b := s.b
	for i := s.i; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return b[start:s.i], nil
		case c < 0x20:
			s.i = i
			return nil, s.fail()
		case c == '\\':
			i++
			if i >= len(b) {
				s.i = i
				return nil, s.fail()
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					s.i = i
					return nil, s.fail()
				}
				i += 4
			default:
				s.i = i
				return nil, s.fail()
			}
		}
	}
	s.i = len(b)
	return nil, s.fail()
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
