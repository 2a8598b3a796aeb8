package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/yamldoc"
)

const testUsage = `Usage:
    safezone test [-v] [flags] CASES.yaml...

Checks the policy against cases, for teams that pin their policy in CI. A
cases file is a YAML list; each case is

    - name: reading .env is denied        # required
      input:                              # the hook input, as YAML
        tool_name: Read
        tool_input: {file_path: .env}
      expect: deny                        # allow, ask, deny or abstain
      rule: Read(.env*)                   # optional: the rule, class or
                                          # mode that must decide

or names a JSON hook input beside the cases file with input_file: FILE
instead of input. An input without a cwd, or with a relative one, runs in
the project root ($CLAUDE_PROJECT_DIR, else the working directory), so that
cases stay portable; input_file is used byte for byte.

Each call is judged exactly as the hook judges it, with the policy the hook
would load for the call's project (the usual lookup, with the hook's flags
on top: --policy FILE, -r, -y, ...), each project's policy loaded once. The
audit log is not written; dry run does not apply (the cases check what the
policy decides). Rules are named as explain and the audit log name them:
"Read(.env*)", "paths.protected \".git/**\"", "sandbox.outside_write",
"read mode", "on_error".

Each failure is printed with its explain trace; the last line is
"N passed, M failed". See examples/policy-test.yaml.

Options:
    -v, --verbose   Also list the cases that pass.
    -h, --help      Show this help.

Exit status: 0 when every case passes, 1 when a case fails or a cases file
is invalid, 2 for a usage error.
`

// testCase is one case of a cases file.
type testCase struct {
	name   string
	pos    policy.Pos
	input  []byte // the hook input, JSON
	expect policy.Decision
	rule   *string
}

func cmdTest(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	fs := pipeline.NewFlagSet()
	build := pipeline.PolicyFlags(fs)
	verbose := fs.Bool("verbose", 'v')
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pipeline.ErrHelp) {
			fmt.Fprint(stdout, testUsage)
			return 0
		}
		fmt.Fprintf(stderr, "safezone: test: %v\n%s", err, testUsage)
		return 2
	}
	opts, err := build()
	if err == nil && fs.NArg() == 0 {
		err = errors.New("no cases file given")
	}
	if err != nil {
		fmt.Fprintf(stderr, "safezone: test: %v\n%s", err, testUsage)
		return 2
	}
	for _, w := range opts.Warnings {
		fmt.Fprintln(stderr, "safezone: "+w)
	}
	root := sys.ProjectRoot()

	var cases []testCase
	bad := false
	for _, f := range fs.Args() {
		cs, err := loadCases(f, root)
		for _, f := range findings(err, false) {
			fmt.Fprintln(stdout, f)
			bad = true
		}
		cases = append(cases, cs...)
	}
	if bad {
		fmt.Fprintln(stdout, "cases files are invalid: no case was run")
		return 1
	}

	j := &pipeline.Judger{Opts: opts, Sys: sys, Cache: map[string]pipeline.LoadedPolicy{}}
	passed, failed := 0, 0
	for _, c := range cases {
		why, got, rule, trace := runCase(j, c)
		if len(why) == 0 {
			passed++
			if *verbose {
				fmt.Fprintf(stdout, "ok    %s (%s): %s by %s\n", c.name, c.pos, got, rule)
			}
			continue
		}
		failed++
		fmt.Fprintf(stdout, "FAIL  %s (%s): %s\n", c.name, c.pos, strings.Join(why, "; "))
		for line := range strings.SplitSeq(strings.TrimRight(trace, "\n"), "\n") {
			fmt.Fprintf(stdout, "      %s\n", line)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// runCase judges one case as the hook would and returns why it failed
// (nothing when it passed), the decision, the rule that decided it and
// the explain trace.
func runCase(j *pipeline.Judger, c testCase) (why []string, got policy.Decision, rule, trace string) {
	v := j.Decide(c.input, nil, "")
	got, _ = pipeline.Outcome(v)
	rule = "on_error"
	if v.Res != nil {
		trace = pipeline.ExplanationOf(v).Text()
		if v.Res.Row != classify.RowError {
			rule = v.Res.Deciding.Rule
		}
	} else {
		_, reason := pipeline.FailReason(v.OnError, v.Err)
		trace = fmt.Sprintf("error      %v\nreason     %s\n", v.Err, reason)
	}
	if got != c.expect {
		why = append(why, fmt.Sprintf("decision %s, want %s", got, c.expect))
	}
	if c.rule != nil && rule != *c.rule {
		why = append(why, fmt.Sprintf("decided by %q, want %q", rule, *c.rule))
	}
	return why, got, rule, trace
}

// loadCases reads and checks a cases file. Every problem is an
// *policy.Error with the file, line and column; all are returned, joined.
func loadCases(file, root string) ([]testCase, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	top, err := yamldoc.Parse(data)
	if err != nil {
		return nil, policy.YAMLError(file, err)
	}
	if top == nil {
		top = &yamldoc.Node{} // an empty file
	}
	p := caseParser{file: file, dir: filepath.Dir(file), root: root}
	if top.Kind != yamldoc.SequenceNode {
		p.fail(top, "", "a cases file is a YAML list of cases (- name: ..., input: ..., expect: ...)")
		return nil, errors.Join(p.errs...)
	}
	var out []testCase
	for i, n := range top.Content {
		if c, ok := p.testCase(n, fmt.Sprintf("[%d]", i)); ok {
			out = append(out, c)
		}
	}
	if len(out) == 0 && len(p.errs) == 0 {
		p.fail(top, "", "no cases")
	}
	slices.SortStableFunc(p.errs, func(a, b error) int {
		pa, _ := errors.AsType[*policy.Error](a)
		pb, _ := errors.AsType[*policy.Error](b)
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	return out, errors.Join(p.errs...)
}

type caseParser struct {
	file, dir, root string
	errs            []error
}

func (p *caseParser) pos(n *yamldoc.Node) policy.Pos {
	return policy.Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *caseParser) fail(n *yamldoc.Node, field, msg string, args ...any) {
	p.errs = append(p.errs, &policy.Error{Pos: p.pos(n), Field: field, Err: fmt.Errorf("%w: "+msg, append([]any{policy.ErrBadValue}, args...)...)})
}

func (p *caseParser) testCase(n *yamldoc.Node, field string) (testCase, bool) {
	c := testCase{pos: p.pos(n)}
	if n.Kind != yamldoc.MappingNode {
		p.fail(n, field, "a case is a mapping with name, input or input_file, expect and rule")
		return c, false
	}
	nerrs := len(p.errs)
	var input, inputFile, expect, name *yamldoc.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := field + "." + k.Value
		if seen[k.Value] {
			p.fail(k, f, "%q is given twice", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "name":
			name = v
		case "input":
			input = v
		case "input_file":
			inputFile = v
		case "expect":
			expect = v
		case "rule":
			if s, ok := p.str(v, f); ok {
				c.rule = &s
			}
		default:
			p.errs = append(p.errs, &policy.Error{Pos: p.pos(k), Field: field, Err: fmt.Errorf("%w %q (known keys: name, input, input_file, expect, rule)", policy.ErrUnknownKey, k.Value)})
		}
	}
	if name == nil {
		p.fail(n, field, "name is missing")
	} else if s, ok := p.str(name, field+".name"); ok {
		c.name = s
	}
	switch {
	case input != nil && inputFile != nil:
		p.fail(inputFile, field, "input and input_file are given: use one")
	case input != nil:
		c.input = p.inlineInput(input, field+".input")
	case inputFile != nil:
		if s, ok := p.str(inputFile, field+".input_file"); ok {
			path := s
			if !filepath.IsAbs(path) {
				path = filepath.Join(p.dir, path)
			}
			data, err := readInputFile(path)
			if err != nil {
				p.fail(inputFile, field+".input_file", "%v", err)
			}
			c.input = data
		}
	default:
		p.fail(n, field, "input or input_file is missing")
	}
	if expect == nil {
		p.fail(n, field, "expect is missing (allow, ask, deny or abstain)")
	} else if s, ok := p.str(expect, field+".expect"); ok {
		if err := c.expect.UnmarshalText([]byte(s)); err != nil {
			p.fail(expect, field+".expect", "%v", err)
		}
	}
	return c, len(p.errs) == nerrs
}

func (p *caseParser) str(n *yamldoc.Node, field string) (string, bool) {
	if n.Kind != yamldoc.ScalarNode || n.Tag != "!!str" {
		p.fail(n, field, "want a string")
		return "", false
	}
	return n.Value, true
}

// readInputFile reads a JSON hook input, at most hookio.MaxInput bytes.
func readInputFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return hookio.ReadInput(f)
}

// inlineInput turns the input mapping into the JSON the host would send,
// with cwd defaulting to (or relative to) the project root.
func (p *caseParser) inlineInput(n *yamldoc.Node, field string) []byte {
	if n.Kind != yamldoc.MappingNode {
		p.fail(n, field, "the input is a mapping (tool_name: ..., tool_input: ...)")
		return nil
	}
	cwd := p.root
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "cwd" && v.Kind == yamldoc.ScalarNode && v.Tag == "!!str" {
			cwd = v.Value
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(p.root, cwd)
			}
			continue
		}
		if err := p.appendJSON(&b, k, field); err != nil {
			p.errs = append(p.errs, err)
			return nil
		}
		b.WriteByte(':')
		if err := p.appendJSON(&b, v, field+"."+k.Value); err != nil {
			p.errs = append(p.errs, err)
			return nil
		}
		b.WriteByte(',')
	}
	b.WriteString(`"cwd":`)
	q, _ := json.Marshal(cwd)
	b.Write(q)
	b.WriteByte('}')
	return b.Bytes()
}

// appendJSON writes a YAML node as JSON: mappings (with string keys) as
// objects, sequences as arrays, and scalars by their resolved YAML type,
// so that "007" stays a string and 7 a number; a timestamp stays the text
// written.
func (p *caseParser) appendJSON(b *bytes.Buffer, n *yamldoc.Node, field string) error {
	bad := func(msg string) error {
		return &policy.Error{Pos: p.pos(n), Field: field, Err: fmt.Errorf("%w: %s", policy.ErrBadValue, msg)}
	}
	switch n.Kind {
	case yamldoc.MappingNode:
		b.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yamldoc.ScalarNode {
				return bad("mapping keys must be strings")
			}
			if seen[k.Value] {
				return bad(fmt.Sprintf("key %q is given twice", k.Value))
			}
			seen[k.Value] = true
			if i > 0 {
				b.WriteByte(',')
			}
			q, _ := json.Marshal(k.Value)
			b.Write(q)
			b.WriteByte(':')
			if err := p.appendJSON(b, n.Content[i+1], field+"."+k.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yamldoc.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := p.appendJSON(b, c, fmt.Sprintf("%s[%d]", field, i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yamldoc.ScalarNode:
		switch n.Tag {
		case "!!null":
			b.WriteString("null")
		case "!!bool", "!!int", "!!float":
			v, err := scalarValue(n)
			if err != nil {
				return bad(err.Error())
			}
			if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
				return bad("JSON has no infinity or NaN")
			}
			q, err := json.Marshal(v)
			if err != nil {
				return bad(err.Error())
			}
			b.Write(q)
		default: // !!str, !!timestamp, !!binary: the text as written
			q, _ := json.Marshal(n.Value)
			b.Write(q)
		}
	default:
		return bad("unsupported YAML node")
	}
	return nil
}

// scalarValue is the value of a boolean, integer or float scalar (YAML 1.2
// core schema: .inf, -.inf and .nan among the floats).
func scalarValue(n *yamldoc.Node) (any, error) {
	switch n.Tag {
	case "!!bool":
		return n.Bool()
	case "!!int":
		return n.Int()
	}
	text := strings.ReplaceAll(n.Value, "_", "")
	switch strings.ToLower(strings.TrimLeft(text, "+-")) {
	case ".inf":
		if strings.HasPrefix(text, "-") {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case ".nan":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(text, 64)
}
