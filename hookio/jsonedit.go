package hookio

// The hosts' configuration files that safezone init edits (see
// register.go), held as github.com/tailscale/hujson syntax trees: object
// members keep their order and numbers their spelling (10.0,
// 12345678901234567890), where encoding/json's maps and float64 lose both,
// so an edited file differs from the old one only where safezone's entry
// is, and in its layout.
//
// A file must be standard JSON (RFC 8259) as jsontext reads it: valid
// UTF-8 with no lone surrogate escape, one value and nothing after it, no
// member name twice in an object (which value a host would use is
// unknowable), nesting within maxDepth. hujson could keep comments and
// trailing commas, but they are refused: safezone writes only plain JSON,
// which every host reads. Output is indented by two spaces and ends in a
// newline; its strings are escaped as safezone's output is
// ([appendJSONString]).

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/tailscale/hujson"
)

func estr(s string) hujson.Value { return hujson.Value{Value: hujson.String(s)} }
func enum(n string) hujson.Value { return hujson.Value{Value: hujson.Literal(n)} }
func ebool(b bool) hujson.Value  { return hujson.Value{Value: hujson.Bool(b)} }
func earr(items ...hujson.ArrayElement) hujson.Value {
	return hujson.Value{Value: &hujson.Array{Elements: items}}
}

// eobj builds an object from name, value pairs (string, hujson.Value).
func eobj(kv ...any) hujson.Value {
	o := &hujson.Object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.Members = append(o.Members, hujson.ObjectMember{Name: estr(kv[i].(string)), Value: kv[i+1].(hujson.Value)})
	}
	return hujson.Value{Value: o}
}

// asObject returns v's object, or nil when v holds something else.
func asObject(v *hujson.Value) *hujson.Object {
	o, _ := v.Value.(*hujson.Object)
	return o
}

// asArray returns v's array, or nil when v holds something else.
func asArray(v *hujson.Value) *hujson.Array {
	a, _ := v.Value.(*hujson.Array)
	return a
}

// asString returns the value of a string literal; ok is false for
// anything else.
func asString(v *hujson.Value) (s string, ok bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return "", false
	}
	return unquote(lit), true
}

// unquote decodes a string literal that parseEdit accepted (or hujson
// made): its escapes are valid.
func unquote(lit hujson.Literal) string {
	if bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	b, _ := jsontext.AppendUnquote(nil, lit)
	return string(b)
}

// member returns the value of o's member name, or nil.
func member(o *hujson.Object, name string) *hujson.Value {
	for i := range o.Members {
		if n, _ := asString(&o.Members[i].Name); n == name {
			return &o.Members[i].Value
		}
	}
	return nil
}

// setMember replaces the value of o's member name in place, or appends the
// member.
func setMember(o *hujson.Object, name string, v hujson.Value) {
	if old := member(o, name); old != nil {
		*old = v
		return
	}
	o.Members = append(o.Members, hujson.ObjectMember{Name: estr(name), Value: v})
}

// setFirst is setMember, but a new member goes first.
func setFirst(o *hujson.Object, name string, v hujson.Value) {
	if old := member(o, name); old != nil {
		*old = v
		return
	}
	o.Members = append([]hujson.ObjectMember{{Name: estr(name), Value: v}}, o.Members...)
}

// describeEdit names a value's kind for error messages, as
// [jvalue.describe] does.
func describeEdit(v *hujson.Value) string {
	switch v.Value.Kind() {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '0':
		return "a number"
	case '"':
		return "a string"
	case '[':
		return "an array"
	}
	return "an object"
}

// parseEdit parses a configuration file (see the top of this file for
// what is refused). Errors give the line and, for a repeated name, the
// object's field path.
func parseEdit(data []byte) (hujson.Value, error) {
	if !utf8.Valid(data) {
		return hujson.Value{}, errors.New("not valid UTF-8")
	}
	if err := checkEditSyntax(data); err != nil {
		return hujson.Value{}, err
	}
	return hujson.Parse(data) // JSON is JWCC: no error after the check
}

// checkEditSyntax reads data as a jsontext token stream, which checks the
// grammar, the UTF-8 and the uniqueness of names, and checks the depth
// and that one value is all there is.
func checkEditSyntax(data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return editSyntaxError(data, dec, err)
		}
		if k := tok.Kind(); (k == '{' || k == '[') && dec.StackDepth() > maxDepth {
			return fmt.Errorf("line %d: nested deeper than %d levels", lineAt(data, dec.InputOffset()), maxDepth)
		}
		if dec.StackDepth() == 0 {
			break
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("line %d: trailing data after the JSON value", lineAt(data, dec.InputOffset()))
	}
	return nil
}

// editSyntaxError words a jsontext error with its line. A file with
// comments gets a hint, since they are the likely cause.
func editSyntaxError(data []byte, dec *jsontext.Decoder, err error) error {
	off := dec.InputOffset()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("line %d: unexpected end of input (truncated?)", lineAt(data, int64(len(data))))
	}
	msg := err.Error()
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok && se.Err != nil {
		off, msg = se.ByteOffset, syntaxProblem(data, se)
		if se.Err == jsontext.ErrDuplicateName {
			at := fieldPath(dec, se.JSONPointer.Parent())
			if at == "" {
				at = "the top-level object"
			}
			return fmt.Errorf("line %d: %s: key %q appears twice", lineAt(data, off), at, se.JSONPointer.LastToken())
		}
	}
	if bytes.Contains(data, []byte("//")) || bytes.Contains(data, []byte("/*")) {
		msg += " (comments and trailing commas are not JSON; safezone edits plain JSON only)"
	}
	return fmt.Errorf("line %d: %s", lineAt(data, off), msg)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// encodeEdit returns v as a file: two-space indentation, every string
// escaped by [appendJSONString], a final newline. It lays out v in place.
func encodeEdit(v *hujson.Value) []byte {
	layout(v, 0)
	v.BeforeExtra, v.AfterExtra = nil, hujson.Extra("\n")
	return v.Pack()
}

// layout sets the whitespace inside v, a value at nesting level depth:
// each member or element on a line of its own, indented by two spaces a
// level, a space after each colon, empty objects and arrays as {} and [],
// no trailing comma. String literals are rewritten by appendJSONString.
func layout(v *hujson.Value, depth int) {
	inner := hujson.Extra("\n" + strings.Repeat("  ", depth+1))
	closing := hujson.Extra("\n" + strings.Repeat("  ", depth))
	switch t := v.Value.(type) {
	case hujson.Literal:
		if t.Kind() == '"' {
			v.Value = hujson.Literal(appendJSONString(nil, unquote(t)))
		}
	case *hujson.Object:
		for i := range t.Members {
			m := &t.Members[i]
			layout(&m.Name, depth+1)
			layout(&m.Value, depth+1)
			m.Name.BeforeExtra, m.Name.AfterExtra = inner, nil
			m.Value.BeforeExtra, m.Value.AfterExtra = hujson.Extra(" "), nil
		}
		t.AfterExtra = nil
		if len(t.Members) > 0 {
			t.AfterExtra = closing
		}
	case *hujson.Array:
		for i := range t.Elements {
			e := &t.Elements[i]
			layout(e, depth+1)
			e.BeforeExtra, e.AfterExtra = inner, nil
		}
		t.AfterExtra = nil
		if len(t.Elements) > 0 {
			t.AfterExtra = closing
		}
	}
}

// compactEdit is v on one line, its strings escaped as encodeEdit does,
// for an error message.
func compactEdit(v hujson.Value) string {
	v = v.Clone()
	layout(&v, 0)
	v.Minimize()
	return string(v.Pack())
}
