// Package yamldoc reads one YAML document into a tree of nodes that keep
// their line and column, for a caller that checks a schema of its own and
// places every error in the file (safezone's policy files and cases files).
//
// It is built on the parser of github.com/goccy/go-yaml, whose packages
// do almost nothing when the program starts (go.yaml.in/yaml/v3 compiles
// regular expressions at start-up, which every hook call paid, policy file
// or not). The tree resembles yaml.v3's Node: mappings hold their keys and
// values in turn, scalars their text and a resolved tag of the YAML 1.2
// core schema ("!!str", "!!int", "!!float", "!!bool", "!!null"), or the
// tag written in the file. An alias stands for the node its anchor names
// (the same *Node, which a reader must not change); a merge key ("<<") is a
// key like any other.
//
// Parse refuses input that could make the parser take long or the tree
// large (see [MaxFlowDepth], [MaxKeys] and [MaxNodes]) and recovers from a
// panic of the parser: every problem is an error.
package yamldoc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Kind is a node's kind; the zero Kind is no node (a key that is absent).
type Kind uint8

const (
	MappingNode Kind = iota + 1
	SequenceNode
	ScalarNode
)

// Node is one node of a document.
type Node struct {
	Kind Kind
	// Tag is a scalar's tag: the one written ("!!str" for "!!str 5", "!x"
	// for a local tag), else the core schema's resolution of its text:
	// "!!null", "!!bool", "!!int", "!!float" or "!!str" (quoted scalars and
	// block scalars are strings). It is "" for other kinds.
	Tag string
	// Value is a scalar's text: a string's content (quotes and escapes
	// undone, a block scalar's lines), a number or a boolean as written.
	Value string
	// Line and Column place the node, 1-based: a scalar where it starts
	// (its quote, its block indicator), a block mapping at its first key, a
	// block sequence at its first "-", a flow collection at its bracket.
	Line, Column int
	// Content holds a mapping's keys and values in turn (key, value, key,
	// value, ...) and a sequence's items.
	Content []*Node
}

// Error is a problem with the document as YAML, placed at a line and
// column (1-based; 0 when unknown).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// ErrDuplicateKey is wrapped by the error for a mapping that holds a key
// twice (YAML requires keys to be unique).
var ErrDuplicateKey = errors.New("duplicate key")

// DuplicateKeyError is the error for a key a mapping already holds.
type DuplicateKeyError struct {
	Key         string
	Line, Col   int // the second one
	FirstLine   int
	FirstColumn int
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("line %d: mapping key %q already defined at line %d", e.Line, e.Key, e.FirstLine)
}

func (e *DuplicateKeyError) Unwrap() error { return ErrDuplicateKey }

// Limits that keep a hostile file from making the parser take long: its
// work grows with the square of the nesting of flow collections and of the
// number of keys in one mapping (goccy/go-yaml v1.19), and a policy file
// comes with a repository. A policy has a few dozen keys, nested three
// deep.
const (
	// MaxFlowDepth bounds the nesting of flow collections ([...], {...}).
	MaxFlowDepth = 100
	// MaxKeys bounds the keys of a document, all mappings together.
	MaxKeys = 20000
	// MaxNodes bounds the nodes of a document counted with every alias
	// standing for its anchor's nodes ("a billion laughs").
	MaxNodes = 200000
)

// Parse parses data, which must hold at most one YAML document, and returns
// its root node; nil, and no error, when there is no document or it is
// empty (comments only). A UTF-8 byte order mark is skipped. Errors are
// *Error (with a line when the problem has one) or *DuplicateKeyError.
func Parse(data []byte) (root *Node, err error) {
	defer func() {
		if v := recover(); v != nil {
			root, err = nil, &Error{Msg: fmt.Sprintf("the YAML parser failed: %v", v)}
		}
	}()
	src := strings.TrimPrefix(string(data), "\ufeff")
	tokens := lexer.Tokenize(src)
	if err := checkTokens(tokens); err != nil {
		return nil, err
	}
	file, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, syntaxError(err)
	}
	var docs []*ast.DocumentNode
	for _, d := range file.Docs {
		if _, directive := d.Body.(*ast.DirectiveNode); directive {
			continue // %YAML 1.2 before ---
		}
		docs = append(docs, d)
	}
	if len(docs) > 1 {
		line := 0
		if d := docs[1]; d.Start != nil {
			line = d.Start.Position.Line
		} else if d.Body != nil {
			line = d.Body.GetToken().Position.Line
		}
		return nil, &Error{Line: line, Msg: "more than one YAML document"}
	}
	if len(docs) == 0 || docs[0].Body == nil {
		return nil, nil
	}
	c := converter{anchors: map[string]*Node{}, sizes: map[*Node]int{}}
	return c.convert(docs[0].Body)
}

// checkTokens enforces MaxFlowDepth and MaxKeys, and reports the first
// invalid token.
func checkTokens(tokens token.Tokens) error {
	depth, keys := 0, 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.InvalidType:
			return &Error{Line: tk.Position.Line, Column: tk.Position.Column, Msg: tk.Error}
		case token.SequenceStartType, token.MappingStartType:
			if depth++; depth > MaxFlowDepth {
				return &Error{Line: tk.Position.Line, Column: tk.Position.Column, Msg: fmt.Sprintf("collections nested more than %d deep", MaxFlowDepth)}
			}
		case token.SequenceEndType, token.MappingEndType:
			depth--
		case token.MappingValueType:
			if keys++; keys > MaxKeys {
				return &Error{Line: tk.Position.Line, Column: tk.Position.Column, Msg: fmt.Sprintf("more than %d keys", MaxKeys)}
			}
		}
	}
	return nil
}

// goccyError is what the parser's errors have (goccy/go-yaml's
// internal/errors.Error, without importing the package that exports it,
// whose decoder this one does not need).
type goccyError interface {
	GetToken() *token.Token
	GetMessage() string
}

func syntaxError(err error) error {
	var ge goccyError
	if errors.As(err, &ge) {
		e := &Error{Msg: ge.GetMessage()}
		if tk := ge.GetToken(); tk != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
		}
		return e
	}
	return &Error{Msg: err.Error()}
}

// converter turns the parser's tree into Nodes: it resolves aliases,
// counts the nodes (MaxNodes) and checks mappings for duplicate keys.
type converter struct {
	anchors map[string]*Node
	sizes   map[*Node]int // the nodes below an anchored node, itself included
	nodes   int
}

func (c *converter) count(n int, tk *token.Token) error {
	if c.nodes += n; c.nodes > MaxNodes {
		e := &Error{Msg: fmt.Sprintf("more than %d nodes, aliases expanded", MaxNodes)}
		if tk != nil {
			e.Line, e.Column = tk.Position.Line, tk.Position.Column
		}
		return e
	}
	return nil
}

func (c *converter) convert(n ast.Node) (*Node, error) {
	pos := func(tk *token.Token) (int, int) {
		if tk == nil {
			return 0, 0
		}
		return tk.Position.Line, tk.Position.Column
	}
	if n != nil {
		if err := c.count(1, n.GetToken()); err != nil {
			return nil, err
		}
	}
	switch v := n.(type) {
	case *ast.MappingNode:
		out := &Node{Kind: MappingNode}
		out.Line, out.Column = pos(v.Start)
		seen := map[string]*Node{}
		for i, mv := range v.Values {
			k, err := c.convert(mv.Key)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return nil, &Error{Line: out.Line, Column: out.Column, Msg: "a mapping key is missing"}
			}
			if i == 0 && !v.IsFlowStyle {
				out.Line, out.Column = k.Line, k.Column
			}
			if k.Kind == ScalarNode {
				if first, ok := seen[k.Value]; ok {
					return nil, &DuplicateKeyError{Key: k.Value, Line: k.Line, Col: k.Column, FirstLine: first.Line, FirstColumn: first.Column}
				}
				seen[k.Value] = k
			}
			val, err := c.convert(mv.Value)
			if err != nil {
				return nil, err
			}
			if val == nil {
				val = &Node{Kind: ScalarNode, Tag: "!!null", Line: k.Line, Column: k.Column}
			}
			out.Content = append(out.Content, k, val)
		}
		return out, nil
	case *ast.MappingValueNode: // a mapping of one key, as the parser may give it
		return c.convert(&ast.MappingNode{BaseNode: v.BaseNode, Start: v.GetToken(), Values: []*ast.MappingValueNode{v}, IsFlowStyle: v.IsFlowStyle})
	case *ast.SequenceNode:
		out := &Node{Kind: SequenceNode}
		out.Line, out.Column = pos(v.Start)
		for _, item := range v.Values {
			x, err := c.convert(item)
			if err != nil {
				return nil, err
			}
			if x == nil {
				x = &Node{Kind: ScalarNode, Tag: "!!null", Line: out.Line, Column: out.Column}
			}
			out.Content = append(out.Content, x)
		}
		return out, nil
	case *ast.AnchorNode:
		before := c.nodes
		x, err := c.convert(v.Value)
		if err != nil || x == nil {
			return x, err
		}
		if v.Name != nil {
			c.anchors[v.Name.GetToken().Value] = x
			c.sizes[x] = c.nodes - before
		}
		return x, nil
	case *ast.AliasNode:
		name := ""
		if v.Value != nil {
			name = v.Value.GetToken().Value
		}
		x, ok := c.anchors[name]
		if !ok {
			line, col := pos(v.Start)
			return nil, &Error{Line: line, Column: col, Msg: fmt.Sprintf("unknown alias *%s (no anchor &%s before it)", name, name)}
		}
		if err := c.count(c.sizes[x], v.Start); err != nil {
			return nil, err
		}
		return x, nil
	case *ast.TagNode:
		inner, err := c.convert(v.Value)
		if err != nil {
			return nil, err
		}
		if inner == nil {
			inner = &Node{Kind: ScalarNode, Value: ""}
			inner.Line, inner.Column = pos(v.Start)
		}
		if inner.Kind == ScalarNode && v.Start != nil {
			tagged := *inner // inner may be an anchored node, shared
			tagged.Tag = v.Start.Value
			tagged.Line, tagged.Column = pos(v.Start)
			return &tagged, nil
		}
		return inner, nil
	case *ast.MappingKeyNode: // "? key"
		return c.convert(v.Value)
	case nil:
		return nil, nil
	}
	return scalar(n)
}

// scalar converts a scalar node, with the tag of the core schema.
func scalar(n ast.Node) (*Node, error) {
	tk := n.GetToken()
	if tk == nil {
		return nil, &Error{Msg: fmt.Sprintf("a YAML node of kind %s without a token", n.Type())}
	}
	out := &Node{Kind: ScalarNode, Line: tk.Position.Line, Column: tk.Position.Column, Value: tk.Value}
	switch v := n.(type) {
	case *ast.StringNode:
		out.Tag, out.Value = "!!str", v.Value
	case *ast.LiteralNode:
		out.Tag = "!!str"
		if v.Value != nil {
			out.Value = v.Value.Value
		}
	case *ast.IntegerNode:
		out.Tag = "!!int"
	case *ast.FloatNode, *ast.InfinityNode, *ast.NanNode:
		out.Tag = "!!float"
	case *ast.BoolNode:
		out.Tag = "!!bool"
	case *ast.NullNode:
		out.Tag, out.Value = "!!null", ""
	case *ast.MergeKeyNode:
		out.Tag = "!!merge"
	default:
		return nil, &Error{Line: out.Line, Column: out.Column, Msg: fmt.Sprintf("unexpected YAML node (%s)", n.Type())}
	}
	return out, nil
}

// Bool returns the value of a "!!bool" scalar.
func (n *Node) Bool() (bool, error) {
	if n.Kind != ScalarNode || n.Tag != "!!bool" {
		return false, fmt.Errorf("%q is not a boolean", n.Value)
	}
	return strconv.ParseBool(strings.ToLower(n.Value))
}

// Int returns the value of an "!!int" scalar: decimal, 0x hexadecimal, 0o
// (or a leading 0) octal, 0b binary, "_" between digits allowed.
func (n *Node) Int() (int64, error) {
	if n.Kind != ScalarNode || n.Tag != "!!int" {
		return 0, fmt.Errorf("%q is not an integer", n.Value)
	}
	s := strings.ReplaceAll(n.Value, "_", "")
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", n.Value, errors.Unwrap(err))
	}
	return v, nil
}
