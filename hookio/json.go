package hookio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
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
// keys are unique (parseJSON refuses duplicates).
type jvalue struct {
	kind  jkind
	str   string    // a string's value
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

// parseJSON decodes data, which must be valid UTF-8, in one pass and
// verifies that it is exactly one JSON object and nothing else, that no
// object has two keys equal under Unicode case folding (Go's encoding/json
// matches struct fields case-insensitively and lets the last key win, other
// parsers keep the first: either way two readers of the same bytes
// disagree), that no string holds a lone UTF-16 surrogate escape (which
// encoding/json silently replaces with U+FFFD), and that nesting stays under
// maxDepth.
func parseJSON(data []byte) (*jvalue, error) {
	if err := checkSurrogates(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: not JSON: %v", ErrMalformed, syntaxError(err))
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("%w: the top level must be a JSON object, got %s", ErrMalformed, tokenKind(tok))
	}
	top, err := parseObject(dec, "", 1)
	if err != nil {
		return nil, err
	}
	if tok, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, fmt.Errorf("%w: trailing data after the JSON object (%s)", ErrMalformed, tokenKind(tok))
		}
		return nil, fmt.Errorf("%w: trailing data after the JSON object: %v", ErrMalformed, syntaxError(err))
	}
	return top, nil
}

func parseObject(dec *json.Decoder, at string, depth int) (*jvalue, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrMalformed, maxDepth)
	}
	v := &jvalue{kind: jObject}
	var seen map[string]string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: invalid JSON: %v", ErrMalformed, syntaxError(err))
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("%w: object key is not a string", ErrMalformed)
		}
		if seen == nil {
			seen = make(map[string]string, 8)
		}
		f := foldKey(key)
		if prev, dup := seen[f]; dup {
			if prev == key {
				return nil, fmt.Errorf("%w: duplicate key %q in %s", ErrMalformed, key, where(at))
			}
			return nil, fmt.Errorf("%w: keys %q and %q in %s differ only in case; hosts send each key once, in lower case", ErrMalformed, prev, key, where(at))
		}
		seen[f] = key
		val, err := parseValue(dec, join(at, key), depth)
		if err != nil {
			return nil, err
		}
		v.keys = append(v.keys, key)
		v.vals = append(v.vals, val)
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, fmt.Errorf("%w: invalid JSON: %v", ErrMalformed, syntaxError(err))
	}
	return v, nil
}

func parseValue(dec *json.Decoder, at string, depth int) (*jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%w: invalid JSON: %v", ErrMalformed, syntaxError(err))
	}
	switch t := tok.(type) {
	case string:
		return &jvalue{kind: jString, str: t}, nil
	case json.Number:
		return &jvalue{kind: jNumber, str: string(t)}, nil
	case bool:
		return &jvalue{kind: jBool}, nil
	case nil:
		return &jvalue{kind: jNull}, nil
	case json.Delim:
		switch t {
		case '{':
			return parseObject(dec, at, depth+1)
		case '[':
			if depth+1 > maxDepth {
				return nil, fmt.Errorf("%w: nested deeper than %d levels", ErrMalformed, maxDepth)
			}
			v := &jvalue{kind: jArray}
			for i := 0; dec.More(); i++ {
				item, err := parseValue(dec, at+"["+strconv.Itoa(i)+"]", depth+1)
				if err != nil {
					return nil, err
				}
				v.items = append(v.items, item)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("%w: invalid JSON: %v", ErrMalformed, syntaxError(err))
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("%w: invalid JSON token %v", ErrMalformed, tok)
}

// syntaxError words a decoder error for people: the decoder reports a
// truncated document as a bare EOF.
func syntaxError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("unexpected end of input (truncated?)")
	}
	return err
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func where(at string) string {
	if at == "" {
		return "the top-level object"
	}
	return at
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", t.String())
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// foldKey maps every rune of s to the smallest rune of its Unicode simple
// case-folding orbit, so "K", "k" and the Kelvin sign fold alike, as do "s"
// and the long s, which encoding/json also treats as equal.
func foldKey(s string) string {
	var b []byte
	for i, r := range s {
		f := r
		for c := unicode.SimpleFold(r); c != r; c = unicode.SimpleFold(c) {
			if c < f {
				f = c
			}
		}
		if f != r && b == nil {
			b = append(make([]byte, 0, len(s)), s[:i]...)
		}
		if b != nil {
			b = utf8.AppendRune(b, f)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// checkSurrogates rejects a \uD800-\uDFFF escape that is not a high
// surrogate immediately followed by an escaped low surrogate.
func checkSurrogates(data []byte) error {
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			if i+1 >= len(data) {
				return nil // truncated; the decoder reports it
			}
			i++
			if data[i] != 'u' {
				continue
			}
			u, ok := hex4(data, i+1)
			if !ok {
				continue // the decoder reports a bad escape
			}
			i += 4
			switch {
			case u >= 0xDC00 && u <= 0xDFFF:
				return fmt.Errorf("%w: lone UTF-16 low surrogate escape \\u%04X in a string", ErrMalformed, u)
			case u >= 0xD800 && u <= 0xDBFF:
				if i+2 < len(data) && data[i+1] == '\\' && data[i+2] == 'u' {
					if lo, ok := hex4(data, i+3); ok && lo >= 0xDC00 && lo <= 0xDFFF {
						i += 6
						continue
					}
				}
				return fmt.Errorf("%w: lone UTF-16 high surrogate escape \\u%04X in a string", ErrMalformed, u)
			}
		}
	}
	return nil
}

func hex4(data []byte, at int) (rune, bool) {
	if at+4 > len(data) {
		return 0, false
	}
	var v rune
	for _, c := range data[at : at+4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			v |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			v |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return v, true
}
