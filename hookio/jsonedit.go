package hookio

// An order-preserving JSON model for editing the hosts' configuration files
// (see register.go). encoding/json's maps lose the order of object members
// and its float64 rewrites numbers; this keeps both, so that a file safezone
// edits changes only where safezone's entry is. It parses strictly (one
// value, no duplicate keys, bounded depth) and writes with two-space
// indentation and a final newline.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// enode is one JSON value in an edited file.
type enode struct {
	kind  jkind
	text  string   // a string's value, a number as written, "true" or "false"
	keys  []string // an object's member names, in order
	vals  []*enode // an object's member values, parallel to keys
	items []*enode // an array's elements
}

func estr(s string) *enode        { return &enode{kind: jString, text: s} }
func enum(n string) *enode        { return &enode{kind: jNumber, text: n} }
func ebool(b bool) *enode         { return &enode{kind: jBool, text: fmt.Sprint(b)} }
func earr(items ...*enode) *enode { return &enode{kind: jArray, items: items} }

// eobj builds an object from name, value pairs.
func eobj(kv ...any) *enode {
	o := &enode{kind: jObject}
	for i := 0; i+1 < len(kv); i += 2 {
		o.keys = append(o.keys, kv[i].(string))
		o.vals = append(o.vals, kv[i+1].(*enode))
	}
	return o
}

// get returns the member key of an object, or nil.
func (n *enode) get(key string) *enode {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// set replaces the member key in place, or appends it.
func (n *enode) set(key string, v *enode) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

// setFirst is set, but a new member goes first.
func (n *enode) setFirst(key string, v *enode) {
	if n.get(key) != nil {
		n.set(key, v)
		return
	}
	n.keys = append([]string{key}, n.keys...)
	n.vals = append([]*enode{v}, n.vals...)
}

func (n *enode) describe() string {
	return (&jvalue{kind: n.kind}).describe()
}

// parseEdit parses a configuration file: one JSON value, nothing after it,
// no key twice in an object (which value a host would use is unknowable).
// Errors give the line.
func parseEdit(data []byte) (*enode, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseEditValue(dec, data, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("line %d: trailing data after the JSON value", lineAt(data, dec.InputOffset()))
	}
	return n, nil
}

func parseEditValue(dec *json.Decoder, data []byte, at string, depth int) (*enode, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s: nested deeper than %d levels", where(at), maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, editSyntaxError(data, dec, err)
	}
	switch t := tok.(type) {
	case string:
		return estr(t), nil
	case json.Number:
		return enum(string(t)), nil
	case bool:
		return ebool(t), nil
	case nil:
		return &enode{kind: jNull}, nil
	case json.Delim:
		switch t {
		case '{':
			o := &enode{kind: jObject}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return nil, editSyntaxError(data, dec, err)
				}
				key := tok.(string)
				if o.get(key) != nil {
					return nil, fmt.Errorf("line %d: %s: key %q appears twice", lineAt(data, dec.InputOffset()), where(at), key)
				}
				v, err := parseEditValue(dec, data, join(at, key), depth+1)
				if err != nil {
					return nil, err
				}
				o.keys, o.vals = append(o.keys, key), append(o.vals, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, editSyntaxError(data, dec, err)
			}
			return o, nil
		case '[':
			a := &enode{kind: jArray}
			for i := 0; dec.More(); i++ {
				v, err := parseEditValue(dec, data, fmt.Sprintf("%s[%d]", at, i), depth+1)
				if err != nil {
					return nil, err
				}
				a.items = append(a.items, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, editSyntaxError(data, dec, err)
			}
			return a, nil
		}
	}
	return nil, fmt.Errorf("line %d: unexpected %v", lineAt(data, dec.InputOffset()), tok)
}

func editSyntaxError(data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "unexpected end of input (truncated?)"
	}
	if bytes.Contains(data, []byte("//")) || bytes.Contains(data, []byte("/*")) {
		msg += " (comments and trailing commas are not JSON; safezone edits plain JSON only)"
	}
	return fmt.Errorf("line %d: %s", lineAt(data, off), msg)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// encode writes n with two-space indentation and a final newline.
func (n *enode) encode() []byte {
	var b []byte
	b = n.appendTo(b, 0)
	return append(b, '\n')
}

func (n *enode) appendTo(b []byte, indent int) []byte {
	switch n.kind {
	case jNull:
		return append(b, "null"...)
	case jBool, jNumber:
		return append(b, n.text...)
	case jString:
		return appendJSONString(b, n.text)
	case jArray:
		if len(n.items) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '\n')
			b = append(b, strings.Repeat("  ", indent+1)...)
			b = it.appendTo(b, indent+1)
		}
		b = append(b, '\n')
		b = append(b, strings.Repeat("  ", indent)...)
		return append(b, ']')
	}
	if len(n.keys) == 0 {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	for i, k := range n.keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, strings.Repeat("  ", indent+1)...)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = n.vals[i].appendTo(b, indent+1)
	}
	b = append(b, '\n')
	b = append(b, strings.Repeat("  ", indent)...)
	return append(b, '}')
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
