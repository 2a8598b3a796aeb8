package yamldoc

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// show prints a tree compactly: kind, tag, value, line:column.
func show(n *Node) string {
	if n == nil {
		return "nil"
	}
	switch n.Kind {
	case MappingNode, SequenceNode:
		var parts []string
		for _, c := range n.Content {
			parts = append(parts, show(c))
		}
		open, end := "{", "}"
		if n.Kind == SequenceNode {
			open, end = "[", "]"
		}
		return fmt.Sprintf("%d:%d%s%s%s", n.Line, n.Column, open, strings.Join(parts, " "), end)
	}
	return fmt.Sprintf("%d:%d%s(%s)", n.Line, n.Column, n.Tag, n.Value)
}

func TestParse(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain scalars resolve by the core schema", "a: x\nb: 1\nc: 1.5\nd: true\ne: ~\nf:\ng: yes\nh: 0x1F\ni: 1_000\nj: .inf\nk: 2026-01-01\n",
			"1:1{1:1!!str(a) 1:4!!str(x) 2:1!!str(b) 2:4!!int(1) 3:1!!str(c) 3:4!!float(1.5) 4:1!!str(d) 4:4!!bool(true) 5:1!!str(e) 5:4!!null() 6:1!!str(f) 6:3!!null() 7:1!!str(g) 7:4!!str(yes) 8:1!!str(h) 8:4!!int(0x1F) 9:1!!str(i) 9:4!!int(1_000) 10:1!!str(j) 10:4!!float(.inf) 11:1!!str(k) 11:4!!str(2026-01-01)}"},
		{"quoted and block scalars are strings, placed at their start", "a: \"1\"\nb: 'it''s'\nc: |\n  one\n  two\n",
			"1:1{1:1!!str(a) 1:4!!str(1) 2:1!!str(b) 2:4!!str(it's) 3:1!!str(c) 3:4!!str(one\ntwo\n)}"},
		{"flow collections at their bracket, block ones at their first entry", "x:\n  - a\n  - [b, c]\ny: {k: v}\n",
			"1:1{1:1!!str(x) 2:3[2:5!!str(a) 3:5[3:6!!str(b) 3:9!!str(c)]] 4:1!!str(y) 4:4{4:5!!str(k) 4:8!!str(v)}}"},
		{"a written tag", "a: !!str 5\nb: !!int \"7\"\nc: !local x\n",
			"1:1{1:1!!str(a) 1:4!!str(5) 2:1!!str(b) 2:4!!int(7) 3:1!!str(c) 3:4!local(x)}"},
		{"an alias stands for its anchor's node", "a: &x [1, 2]\nb: *x\nc: &s str\nd: [*s, !!str *s]\n",
			"1:1{1:1!!str(a) 1:7[1:8!!int(1) 1:11!!int(2)] 2:1!!str(b) 1:7[1:8!!int(1) 1:11!!int(2)] 3:1!!str(c) 3:7!!str(str) 4:1!!str(d) 4:4[3:7!!str(str) 4:9!!str(str)]}"},
		{"a byte order mark and a directive", "\ufeff%YAML 1.2\n---\na: 1\n", "3:1{3:1!!str(a) 3:4!!int(1)}"},
		{"comments only", "# nothing\n", "nil"},
		{"nothing", "", "nil"},
		{"a scalar document", "hello\n", "1:1!!str(hello)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := show(n); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	deep := "a: " + strings.Repeat("[", MaxFlowDepth+1) + strings.Repeat("]", MaxFlowDepth+1) + "\n"
	var many strings.Builder
	for i := range MaxKeys + 1 {
		fmt.Fprintf(&many, "k%d: 1\n", i)
	}
	for _, tc := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"an unclosed flow sequence", "a: 1\nb: [x\n", 2, "sequence end token ']' not found"},
		{"an unclosed quote", "a: \"x\n", 1, "could not find end character of double-quoted text"},
		{"two documents", "a: 1\n---\na: 2\n", 2, "more than one YAML document"},
		{"a tab for indentation", "a:\n\tb: 1\n", 2, "found character '\t' that cannot start any token"},
		{"flow collections nested too deep", deep, 1, "collections nested more than 100 deep"},
		{"too many keys", many.String(), MaxKeys + 1, "more than 20000 keys"},
		{"an alias before its anchor", "a: *x\nb: &x 1\n", 1, "unknown alias *x (no anchor &x before it)"},
		{"a billion laughs", laughs(), 6, "more than 200000 nodes, aliases expanded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || e.Msg != tc.msg {
				t.Errorf("err = %#v, want line %d %q", err, tc.line, tc.msg)
			}
		})
	}
	// A key written twice, in a block mapping and in a flow one; the
	// benign neighbour: the same key in two mappings.
	for in, want := range map[string]int{"a: 1\nb: 2\na: 3\n": 3, "x: {k: 1, k: 2}\n": 1} {
		_, err := Parse([]byte(in))
		var d *DuplicateKeyError
		if !errors.As(err, &d) || d.Line != want || !errors.Is(err, ErrDuplicateKey) {
			t.Errorf("%q: err = %v, want a duplicate key at line %d", in, err, want)
		}
	}
	if _, err := Parse([]byte("a: {k: 1}\nb: {k: 1}\n")); err != nil {
		t.Errorf("the same key in two mappings: %v", err)
	}
}

// laughs is a document whose aliases stand for 10^9 nodes.
func laughs() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestScalarValues(t *testing.T) {
	n, err := Parse([]byte("a: 0x10\nb: 0o17\nc: 017\nd: -5\ne: 9223372036854775808\nf: True\ng: false\nh: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := func(i int) *Node { return n.Content[2*i+1] }
	for i, want := range []int64{16, 15, 15, -5} {
		if got, err := v(i).Int(); err != nil || got != want {
			t.Errorf("%s: %d %v, want %d", v(i).Value, got, err, want)
		}
	}
	if _, err := v(4).Int(); err == nil {
		t.Errorf("%s: no overflow error", v(4).Value)
	}
	if b, err := v(5).Bool(); err != nil || !b {
		t.Errorf("True: %v %v", b, err)
	}
	if b, err := v(6).Bool(); err != nil || b {
		t.Errorf("false: %v %v", b, err)
	}
	if _, err := v(7).Bool(); err == nil {
		t.Error("x read as a boolean")
	}
}

// FuzzParse: Parse never panics and never takes long (the limits), and
// every node it returns is complete: a kind, a position, mappings with
// keys and values in pairs.
//
//	go test -fuzz=FuzzParse -fuzztime=60s ./policy/yamldoc
func FuzzParse(f *testing.F) {
	for _, s := range []string{"version: 1\nrules:\n  deny: [\"Read(.env*)\"]\n", "a: &x [1, {b: *x}]\n", "- a\n- ? b\n  : c\n", "a: |\n  x\n", "%YAML 1.2\n---\n!!str a\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err != nil {
			return
		}
		var check func(*Node)
		check = func(n *Node) {
			if n == nil {
				t.Fatal("a nil node in the tree")
			}
			if n.Kind == 0 || n.Line < 1 || n.Column < 1 {
				t.Fatalf("an incomplete node %+v", n)
			}
			if n.Kind == MappingNode && len(n.Content)%2 != 0 {
				t.Fatalf("a mapping with %d keys and values", len(n.Content))
			}
			for _, c := range n.Content {
				check(c)
			}
		}
		if n != nil {
			check(n)
		}
	})
}
