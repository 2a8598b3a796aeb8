package pipeline

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestFlagSet: the getopt syntax the hook's command line keeps (combined
// short flags, --flag=value, repeatable flags with commas kept, flags
// after arguments, "--"), and errors that name the flag.
func TestFlagSet(t *testing.T) {
	tests := []struct {
		args     []string
		read     bool
		yes      bool
		policies []string
		host     string
		rest     []string
		err      string
	}{
		{args: []string{"-ry"}, read: true, yes: true, host: "claude"},
		{args: []string{"-r", "-y", "--host", "codex"}, read: true, yes: true, host: "codex"},
		{args: []string{"--host=gemini", "--policy", "a,b.yaml", "--policy=c.yaml"}, host: "gemini", policies: []string{"a,b.yaml", "c.yaml"}},
		{args: []string{"x", "-r", "y"}, read: true, host: "claude", rest: []string{"x", "y"}},
		{args: []string{"-r", "--", "-y", "--host"}, read: true, host: "claude", rest: []string{"-y", "--host"}},
		{args: []string{"--read=false", "-"}, host: "claude", rest: []string{"-"}},
		{args: []string{"--polcy", "x"}, err: "unknown flag: --polcy (did you mean --policy?)"},
		{args: []string{"--hots=x"}, err: "unknown flag: --hots (did you mean --host?)"},
		{args: []string{"--zzzzzz"}, err: "unknown flag: --zzzzzz"},
		{args: []string{"-rq"}, err: "unknown flag: -q"},
		{args: []string{"--policy"}, err: "flag needs an argument: --policy"},
		{args: []string{"--yes=perhaps"}, err: `invalid argument "perhaps" for --yes`},
	}
	for _, tt := range tests {
		fs := NewFlagSet()
		read, yes := fs.Bool("read", 'r'), fs.Bool("yes", 'y')
		policies, host := fs.Strings("policy"), fs.String("host", "claude")
		err := fs.Parse(tt.args)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error %v, want %q", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil || *read != tt.read || *yes != tt.yes || *host != tt.host || !slices.Equal(*policies, tt.policies) || !slices.Equal(fs.Args(), tt.rest) {
			t.Errorf("%q: read %v yes %v host %q policies %q args %q err %v", tt.args, *read, *yes, *host, *policies, fs.Args(), err)
		}
	}
	for _, help := range []string{"-h", "--help"} {
		if err := NewFlagSet().Parse([]string{help}); !errors.Is(err, ErrHelp) {
			t.Errorf("%s: %v, want errHelp", help, err)
		}
	}
}

// TestNearest: a likely typo gets its word back; anything else gets none.
func TestNearest(t *testing.T) {
	words := []string{"policy", "host", "add-dir", "no-sandbox", "json", "explain", "test", "init"}
	for in, want := range map[string]string{
		"polcy": "policy", "plicy": "policy", "poilcy": "policy", "hots": "host", "jsno": "json",
		"add-dirs": "add-dir", "nosandbox": "no-sandbox", "explian": "explain", "tset": "test",
		"pol": "policy", "frobnicate": "", "x": "", "yes": "", "input.json": "",
	} {
		if got := nearest(in, words); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFlagSetNoArguments: with no arguments no parser runs, and every flag
// keeps its default (the hook's usual command line); the same declarations
// parse when there are arguments.
func TestFlagSetNoArguments(t *testing.T) {
	declare := func() (*FlagSet, *bool, *string, *int, *[]string) {
		f := NewFlagSet()
		return f, f.Bool("yes", 'y'), f.String("policy", "def.yaml"), f.Int("jobs", 3), f.Strings("add-dir")
	}
	f, y, p, j, dirs := declare()
	if err := f.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if *y || *p != "def.yaml" || *j != 3 || len(*dirs) != 0 || f.Changed("policy") || f.NArg() != 0 || f.set != nil {
		t.Fatalf("no arguments: yes=%v policy=%q jobs=%d add-dir=%q changed=%v args=%q parsed=%v", *y, *p, *j, *dirs, f.Changed("policy"), f.Args(), f.set != nil)
	}
	f, y, p, j, dirs = declare()
	if err := f.Parse([]string{"-y", "--policy=x.yaml", "a", "--jobs", "5", "--add-dir", "d1", "--add-dir", "d,2"}); err != nil {
		t.Fatal(err)
	}
	if !*y || *p != "x.yaml" || *j != 5 || strings.Join(*dirs, "|") != "d1|d,2" || !f.Changed("policy") || !f.Changed("jobs") || f.Arg(0) != "a" {
		t.Fatalf("arguments: yes=%v policy=%q jobs=%d add-dir=%q args=%q", *y, *p, *j, *dirs, f.Args())
	}
}
