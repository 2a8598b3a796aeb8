package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/safezonehq/safezone/policy"
)

// Problems as validate and test print them: file:line:col: field: message.

// finding is one problem validate reports.
type finding struct {
	file    string
	line    int
	col     int
	field   string
	msg     string
	warning bool
	note    bool // neither an error nor a warning: where something comes from
}

// isError reports whether f is an error, not a warning or a note.
func (f finding) isError() bool { return !f.warning && !f.note }

func (f finding) String() string {
	loc := f.file
	if f.line > 0 {
		loc += fmt.Sprintf(":%d", f.line)
		if f.col > 0 {
			loc += fmt.Sprintf(":%d", f.col)
		}
	}
	var b strings.Builder
	b.WriteString(loc + ": ")
	if f.field != "" {
		b.WriteString(f.field + ": ")
	}
	switch {
	case f.warning:
		b.WriteString("warning: ")
	case f.note:
		b.WriteString("note: ")
	}
	b.WriteString(f.msg)
	return b.String()
}

// findings turns a (possibly joined) error into findings, one per problem.
func findings(err error, warning bool) []finding {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []finding
		for _, e := range j.Unwrap() {
			out = append(out, findings(e, warning)...)
		}
		if p, ok := err.(*policy.Problems); ok {
			for _, w := range p.Warnings {
				out = append(out, findings(w, true)...)
			}
		}
		return out
	}
	var pe *policy.Error
	if errors.As(err, &pe) {
		return []finding{{file: pe.File, line: pe.Line, col: pe.Col, field: pe.Field, msg: pe.Err.Error(), warning: warning}}
	}
	return []finding{{msg: err.Error(), warning: warning}}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
