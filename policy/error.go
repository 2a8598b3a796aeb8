package policy

import (
	"errors"
	"fmt"
	"strconv"
)

// Pos places a value in a policy file. Line and Col are 1-based; zero means
// unknown (a built-in default, a flag).
type Pos struct {
	File string // "policy.yaml", "<embedded default>", "<built-in default>", "--yes"
	Line int
	Col  int
}

// String returns "file:line", or just "file" when the line is unknown.
func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

// Error places a validation problem in the source file, like
// "policy.yaml:14:7: rules.deny[3]: glob "src/**.go" has ** inside a path element".
type Error struct {
	Pos
	Field string // "rules.deny[3]", "sandbox.outside_write"
	Err   error
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
		if e.Col > 0 {
			loc += ":" + strconv.Itoa(e.Col)
		}
	}
	if e.Field == "" {
		return fmt.Sprintf("%s: %v", loc, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", loc, e.Field, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Conditions callers and tests branch on with errors.Is.
var (
	ErrEmpty       = errors.New("policy is empty")
	ErrUnknownKey  = errors.New("unknown key")
	ErrBadValue    = errors.New("bad value")
	ErrBadGlob     = errors.New("bad glob")
	ErrBadRule     = errors.New("bad rule")
	ErrBadVersion  = errors.New("unsupported version")
	ErrYAML        = errors.New("invalid YAML")
	ErrNotAPolicy  = errors.New("not a policy mapping")
	ErrDuplicate   = errors.New("duplicate entry")
	ErrUnknownTool = errors.New("unknown tool")
	// ErrSkippedRule marks a Claude Code settings rule safezone cannot use
	// (a pattern with "..", a bad glob): reported and left out, as the
	// host's file is not ours to refuse.
	ErrSkippedRule = errors.New("rule skipped")
	// ErrRemovesNothing marks an entry of a remove: section that names no
	// entry of a lower layer.
	ErrRemovesNothing = errors.New("removes nothing")
)

// Problems is the error Parse returns for a policy it refuses: every error
// and, for `safezone validate`, the warnings found on the way. Its text lists
// the errors only; errors.Is and errors.As see each error.
type Problems struct {
	Errors   []error
	Warnings []*Error
}

func (p *Problems) Error() string { return errors.Join(p.Errors...).Error() }

func (p *Problems) Unwrap() []error { return p.Errors }
