package hookio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// maxDepth bounds the nesting of host JSON. Real hook input nests four or
// five levels (MultiEdit edits, MCP arguments); deeper input is hostile.
const maxDepth = 64

// ErrMalformed is wrapped by every error about the shape of the JSON itself.
var ErrMalformed = errors.New("malformed hook input")

// jkind is the kind of a JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

// jvalue is a decoded JSON value. Objects keep their members in order;
// keys are unique (parseJSON refuses duplicates). Only a string keeps its
// content, and a boolean its value: no decoder needs the value of a number.
type jvalue struct {
	kind  jkind
	str   string    // a string's value; "t" or "f" for a boolean
	keys  []string  // an object's keys
	vals  []*jvalue // an object's values, parallel to keys
	items []*jvalue // an array's elements
}

// get returns the member key of an object, matched exactly, or nil.
func (v *jvalue) get(key string) *jvalue {
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// describe names a value's kind for error messages.
func (v *jvalue) describe() string {
	switch v.kind {
	case jNull:
		return "null"
	case jBool:
		return "a boolean"
	case jNumber:
		return "a number"
	case jString:
		return "a string"
	case jArray:
		return "an array"
	}
	return "an object"
}

// parseJSON decodes data in one pass and verifies that it is exactly one
// JSON object and nothing else (RFC 8259 grammar), that it is valid UTF-8
// and no string holds a lone UTF-16 surrogate escape (encoding/json would
// silently turn either into U+FFFD), that no object has two keys equal under
// Unicode simple case folding (Go's encoding/json matches struct fields
// case-insensitively and lets the last key win, other parsers keep the
// first: either way two readers of the same bytes disagree), and that
// nesting stays within maxDepth. Every error wraps [ErrMalformed].
func parseJSON(data []byte) (*jvalue, error) {
	p := parser{data: data, dec: jsontext.NewDecoder(bytes.NewBuffer(data),
		// The default, stated because the hook relies on it.
		jsontext.AllowInvalidUTF8(false),
		// parser.object checks names itself, under case folding, which
		// catches exact duplicates too.
		jsontext.AllowDuplicateNames(true))}
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, fmt.Errorf("%w: not JSON: %v", ErrMalformed, p.syntaxError(err))
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("%w: the top level must be a JSON object, got %s", ErrMalformed, kindName(tok.Kind()))
	}
	top, err := p.object()
	if err != nil {
		return nil, err
	}
	switch tok, err := p.dec.ReadToken(); {
	case err == io.EOF:
		return top, nil
	case err == nil:
		return nil, fmt.Errorf("%w: trailing data after the JSON object (%s)", ErrMalformed, kindName(tok.Kind()))
	default:
		return nil, fmt.Errorf("%w: trailing data after the JSON object: %v", ErrMalformed, p.syntaxError(err))
	}
}

// parser builds a jvalue tree from jsontext's token stream.
type parser struct {
	data []byte // the whole input, to quote it in errors
	dec  *jsontext.Decoder
}

// object reads the members of the object whose '{' was just read, and its
// '}'.
func (p *parser) object() (*jvalue, error) {
	if p.dec.StackDepth() > maxDepth {
		return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrMalformed, maxDepth)
	}
	v := &jvalue{kind: jObject}
	var seen map[string]string // folded key -> key as sent
	for p.dec.PeekKind() != '}' {
		tok, err := p.dec.ReadToken() // a name: jsontext refuses anything else
		if err != nil {
			return nil, p.invalid(err)
		}
		key := tok.String()
		if seen == nil {
			seen = make(map[string]string, 8)
		}
		f := foldKey(key)
		if prev, dup := seen[f]; dup {
			if prev == key {
				return nil, fmt.Errorf("%w: duplicate key %q in %s", ErrMalformed, key, objectPath(p.dec))
			}
			return nil, fmt.Errorf("%w: keys %q and %q in %s differ only in case; hosts send each key once, in lower case", ErrMalformed, prev, key, objectPath(p.dec))
		}
		seen[f] = key
		val, err := p.value()
		if err != nil {
			return nil, err
		}
		v.keys = append(v.keys, key)
		v.vals = append(v.vals, val)
	}
	if _, err := p.dec.ReadToken(); err != nil { // the closing '}'
		return nil, p.invalid(err)
	}
	return v, nil
}

// array reads the elements of the array whose '[' was just read, and its
// ']'.
func (p *parser) array() (*jvalue, error) {
	if p.dec.StackDepth() > maxDepth {
		return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrMalformed, maxDepth)
	}
	v := &jvalue{kind: jArray}
	for p.dec.PeekKind() != ']' {
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
	}
	if _, err := p.dec.ReadToken(); err != nil { // the closing ']'
		return nil, p.invalid(err)
	}
	return v, nil
}

// value reads the next value.
func (p *parser) value() (*jvalue, error) {
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, p.invalid(err)
	}
	switch tok.Kind() {
	case '"':
		return &jvalue{kind: jString, str: tok.String()}, nil
	case '0':
		return &jvalue{kind: jNumber}, nil
	case 't', 'f':
		return &jvalue{kind: jBool, str: string(tok.Kind())}, nil
	case 'n':
		return &jvalue{kind: jNull}, nil
	case '{':
		return p.object()
	case '[':
		return p.array()
	}
	// jsontext reports a '}' or ']' where a value must start as an error.
	return nil, fmt.Errorf("%w: invalid JSON: unexpected %v", ErrMalformed, tok.Kind())
}

// invalid wraps a jsontext error met inside the top-level object.
func (p *parser) invalid(err error) error {
	return fmt.Errorf("%w: invalid JSON: %v", ErrMalformed, p.syntaxError(err))
}

// syntaxError words a jsontext error for people: what is wrong, then where
// (the byte offset, and the JSON pointer of the value when inside one),
// without the package's "jsontext:" prefix. A truncated document is
// "unexpected end of input (truncated?)".
func (p *parser) syntaxError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of input (truncated?)")
	}
	se, ok := errors.AsType[*jsontext.SyntacticError](err)
	if !ok || se.Err == nil {
		return err
	}
	what := syntaxProblem(p.data, se)
	if se.JSONPointer != "" {
		return fmt.Errorf("%s at byte %d, in %s", what, se.ByteOffset, se.JSONPointer)
	}
	return fmt.Errorf("%s at byte %d", what, se.ByteOffset)
}

// syntaxProblem is what se says is wrong in data, but an escaped UTF-16
// surrogate that is not half of a pair is named as such (jsontext calls it
// an invalid pair and quotes the bytes after it).
func syntaxProblem(data []byte, se *jsontext.SyntacticError) string {
	u, ok := surrogateAt(data, se.ByteOffset)
	if !ok {
		return se.Err.Error()
	}
	half := "high"
	if u >= 0xDC00 {
		half = "low"
	}
	return fmt.Sprintf("lone UTF-16 %s surrogate escape \\u%04X in a string", half, u)
}

// surrogateAt returns the code unit of a \uD800-\uDFFF escape at data[off:].
func surrogateAt(data []byte, off int64) (rune, bool) {
	if off < 0 || off+6 > int64(len(data)) || data[off] != '\\' || data[off+1] != 'u' {
		return 0, false
	}
	u, err := strconv.ParseUint(string(data[off+2:off+6]), 16, 16)
	if err != nil || u < 0xD800 || u > 0xDFFF {
		return 0, false
	}
	return rune(u), true
}

// objectPath names the object dec is reading members of, the way fields
// are named elsewhere ("tool_input", "edits[0]"), or "the top-level
// object". It is called only for an error message, just after a member
// name was read.
func objectPath(dec *jsontext.Decoder) string {
	if at := fieldPath(dec, dec.StackPointer().Parent()); at != "" {
		return at
	}
	return "the top-level object"
}

// fieldPath writes ptr, a JSON pointer to a value inside the containers
// dec is reading, as a field path: object members joined by ".", array
// indexes in brackets ("hooks.PreToolUse[0]"); "" for the top level.
func fieldPath(dec *jsontext.Decoder, ptr jsontext.Pointer) string {
	var b strings.Builder
	level := 1
	for tok := range ptr.Tokens() {
		if k, _ := dec.StackIndex(level); k == '[' {
			b.WriteString("[" + tok + "]")
		} else {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(tok)
		}
		level++
	}
	return b.String()
}

// kindName names the kind of a token that starts a value.
func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return k.String()
}

// foldKey maps s to a key shared by exactly the strings equal to it under
// Unicode simple case folding (strings.EqualFold): each rune becomes one
// representative of its folding orbit, the ASCII lower-case letter when the
// orbit has one ("K", "k" and the Kelvin sign all become "k"; "S", "s" and
// the long s, which encoding/json also treats as equal, become "s"), else
// its smallest rune. ASCII without upper-case letters, every key hosts
// send, is its own key and costs no allocation.
func foldKey(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			b := make([]byte, i, len(s))
			copy(b, s[:i])
			for _, r := range s[i:] {
				b = utf8.AppendRune(b, foldRune(r))
			}
			return string(b)
		}
	}
	return s
}

// foldRune returns the representative of r's simple case-folding orbit.
func foldRune(r rune) rune {
	if 'a' <= r && r <= 'z' {
		return r
	}
	least := r
	for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
		if 'a' <= c && c <= 'z' {
			return c
		}
		least = min(least, c)
	}
	return least
}
