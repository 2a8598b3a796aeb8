package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pborman/getopt/v2"

	"github.com/safezonehq/safezone/policy"
)

// The command-line parser of the hook and every subcommand: getopt syntax
// (github.com/pborman/getopt/v2: "-r", "--policy FILE", "--policy=FILE",
// combined short flags "-ry", "--" ends the flags), with flags and
// arguments in any order, and errors worded for a person ("unknown flag:
// --polcy (did you mean --policy?)"). getopt rather than pflag because
// pflag links the net package (its IP flag types), which makes a default
// cgo build dynamically linked: every hook call then pays the loader.
//
// A FlagSet only records its declarations; they reach getopt when Parse
// sees an argument. The hook's usual command line has none, and getopt's
// declarations cost (runtime.Caller for each, some 0.2 ms for the hook's
// flags): with no arguments every flag keeps its default, no parser runs.

// ErrHelp is returned by [FlagSet.parse] for -h or --help, unless the
// command line declares a flag named help itself.
var ErrHelp = errors.New("help requested")

// FlagSet is one command line's flags and, once parsed, its arguments.
type FlagSet struct {
	set   *getopt.Set             // nil until Parse sees an argument
	decls []func(set *getopt.Set) // each declaration, for set
	longs []string                // the long names, for suggestions
	args  []string                // the arguments that are not flags, in order
}

// NewFlagSet returns an empty FlagSet.
func NewFlagSet() *FlagSet {
	return &FlagSet{}
}

// declare records a flag's declaration for getopt.
func (f *FlagSet) declare(long string, d func(set *getopt.Set)) {
	f.decls = append(f.decls, d)
	f.longs = append(f.longs, long)
}

// Bool declares a flag without a value, --long (and -short unless short
// is 0); "--long=false" also works.
func (f *FlagSet) Bool(long string, short rune) *bool {
	p := new(bool)
	f.declare(long, func(set *getopt.Set) { set.FlagLong(p, long, short) })
	return p
}

// String declares --long VALUE, def when absent; the last one given wins.
func (f *FlagSet) String(long, def string) *string {
	p := &def
	f.declare(long, func(set *getopt.Set) { set.FlagLong(p, long, 0) })
	return p
}

// Int declares --long N, def when absent.
func (f *FlagSet) Int(long string, def int) *int {
	p := &def
	f.declare(long, func(set *getopt.Set) { set.FlagLong(p, long, 0) })
	return p
}

// Strings declares --long VALUE, repeatable: every value in order, commas
// included (getopt's own list flag would split at them).
func (f *FlagSet) Strings(long string) *[]string {
	p := &repeated{}
	f.declare(long, func(set *getopt.Set) { set.FlagLong(p, long, 0) })
	return &p.values
}

// Changed reports whether --long was given.
func (f *FlagSet) Changed(long string) bool { return f.set != nil && f.set.IsSet(long) }

// Args are the arguments that are not flags; NArg how many; Arg the i-th
// or "".
func (f *FlagSet) Args() []string { return f.args }
func (f *FlagSet) NArg() int      { return len(f.args) }
func (f *FlagSet) Arg(i int) string {
	if i < len(f.args) {
		return f.args[i]
	}
	return ""
}

// Parse reads args (without the program name). Flags may follow
// arguments; everything after "--" is an argument. It returns [ErrHelp]
// for -h or --help (unless a help flag is declared), and otherwise an
// error naming the bad flag: unknown (with the nearest known one),
// missing its value, or with a value it cannot take.
func (f *FlagSet) Parse(args []string) error {
	var help *bool
	if !slices.Contains(f.longs, "help") {
		help = f.Bool("help", 'h')
	}
	f.args = nil
	if len(args) == 0 {
		return nil // every flag keeps its default
	}
	f.set = getopt.New()
	for _, d := range f.decls {
		d(f.set)
	}
	for {
		if err := f.set.Getopt(append([]string{"safezone"}, args...), nil); err != nil {
			return f.explain(err)
		}
		rest := f.set.Args()
		if f.set.State() == getopt.DashDash || len(rest) == 0 {
			f.args = append(f.args, rest...)
			break
		}
		// getopt stops at the first argument: take it, go on after it.
		f.args = append(f.args, rest[0])
		args = rest[1:]
	}
	if help != nil && *help {
		return ErrHelp
	}
	return nil
}

// explain words a getopt error the way safezone's messages are worded
// (pflag's wording, which hooks.json users have seen).
func (f *FlagSet) explain(err error) error {
	var ge *getopt.Error
	if !errors.As(err, &ge) {
		return err
	}
	switch ge.ErrorCode {
	case getopt.UnknownOption:
		msg := "unknown flag: " + ge.Name
		if s := nearest(strings.TrimLeft(ge.Name, "-"), f.longs); s != "" && strings.HasPrefix(ge.Name, "--") {
			msg += " (did you mean --" + s + "?)"
		}
		return errors.New(msg)
	case getopt.MissingParameter:
		return fmt.Errorf("flag needs an argument: %s", ge.Name)
	case getopt.Invalid:
		return fmt.Errorf("invalid argument %q for %s", ge.Parameter, ge.Name)
	}
	return err
}

// repeated is the value of a repeatable flag: every value given, in order.
type repeated struct{ values []string }

func (r *repeated) Set(v string, _ getopt.Option) error {
	r.values = append(r.values, v)
	return nil
}

func (r *repeated) String() string { return strings.Join(r.values, ",") }

// nearest returns the candidate closest to word by edit distance (insertions,
// deletions, substitutions and swaps of neighbours), when close enough to be
// a likely typo: at most one edit for words of up to four letters, two for
// longer ones, or word is a prefix of exactly one candidate. It returns ""
// otherwise.
func nearest(word string, candidates []string) string {
	best, bestD := "", -1
	prefixed := ""
	nPrefixed := 0
	for _, c := range candidates {
		if len(word) >= 2 && strings.HasPrefix(c, word) {
			prefixed = c
			nPrefixed++
		}
		if d := policy.EditDistance(word, c); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(word) <= 4 {
		limit = 1
	}
	switch {
	case bestD >= 0 && bestD <= limit:
		return best
	case nPrefixed == 1:
		return prefixed
	}
	return ""
}
