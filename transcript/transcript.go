// Package transcript reads the tool calls out of Claude Code session
// transcripts: the JSON Lines files under ~/.claude/projects/<project>/
// (checked against Claude Code 2.1.330).
//
// Each line is one record with a "type". Records of type "assistant" carry
// the model's message; each "tool_use" block of its "content" is one tool
// call ({"type":"tool_use","id":...,"name":...,"input":{...}}), with the
// input as the model sent it (relative paths are relative to the record's
// "cwd"). Parallel tool calls are separate assistant records. The
// permission mode is not on assistant records: it is on the "user" records
// ("permissionMode"), so the last one seen in the session applies. Every
// other record type ("queue-operation", "tools-used", "last-prompt", ...)
// only contributes its cwd, session and mode, and types not known today are
// skipped the same way.
//
// A [Reader] streams: it holds one line at a time (at most [MaxLine]
// bytes), never the file. Lines that are not one JSON object, or are
// longer than MaxLine, are skipped and counted.
//
// The JSON of each line is checked completely (RFC 8259 syntax; UTF-8 is
// left to the hook decoder, as encoding/json does) by a small scanner that
// decodes only the fields it needs and skips the rest without allocating:
// transcripts of hundreds of megabytes are mostly tool results nobody
// needs. Object keys are compared as written: a key spelled with escapes
// ("\u0074ype") is not recognised, which Claude Code never writes.
package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
)

// MaxLine caps one transcript line (64 MiB): a tool call larger than the
// hook's own input limit (32 MiB) could not have been judged either, and a
// longer line would have to be held whole in memory.
const MaxLine = 64 << 20

// ToolUse is one tool call of a transcript. The string fields hold JSON
// string tokens as they appear in the file (quotes and escapes included),
// so that a hook input can be assembled from them without re-encoding; use
// [Str] for their values.
type ToolUse struct {
	Line int // 1-based line number of the assistant record

	SessionID      []byte // the record's "sessionId"; nil when absent
	Cwd            []byte // the record's "cwd"; nil when absent
	PermissionMode []byte // the session's last "permissionMode"; nil when none yet
	// ProjectDir is the session's first cwd: where Claude Code was started,
	// what $CLAUDE_PROJECT_DIR was for the hook.
	ProjectDir []byte

	// Timestamp is the record's "timestamp" (RFC 3339); nil when absent.
	Timestamp []byte

	ID    []byte // the block's "id"
	Name  []byte // the block's "name"
	Input []byte // the block's "input": raw JSON, any type
}

// Stats counts what a Reader saw.
type Stats struct {
	Lines     int   // lines read, blank ones included
	Bytes     int64 // bytes read
	Records   int   // lines that were one JSON object
	Malformed int   // lines that were not
	TooLong   int   // lines over MaxLine, skipped unread
	ToolUses  int   // tool calls returned
	// BadToolUses counts tool_use blocks without a string id and name or
	// without an input: not a call the host would have run.
	BadToolUses int
}

// Reader reads the tool calls of one transcript, in file order.
type Reader struct {
	r     *bufio.Reader
	max   int
	buf   []byte // the current long line, when it spans reads
	stats Stats
	// sessions keeps, per session id, what later records inherit.
	sessions *Sessions
	pending  []ToolUse
	rec      record
}

// Sessions is what records inherit from earlier records of their session:
// the permission mode, the project directory (the first cwd) and the last
// cwd. Readers of several transcripts share one, so that a subagent's
// transcript (a sidechain: <session>/subagents/agent-*.jsonl, whose records
// carry the parent's session id and no mode) gets the mode of the session
// that started it, once that session's transcript was read.
type Sessions struct {
	m map[string]*session
}

// NewSessions returns an empty Sessions.
func NewSessions() *Sessions { return &Sessions{m: map[string]*session{}} }

// session holds a session's inherited fields by value: a line's buffer is
// reused.
type session struct {
	mode, projectDir, cwd []byte
	// exitPlan is the id of an ExitPlanMode call waiting for its result.
	exitPlan []byte
}

// defaultMode is the mode a session continues in once the user approves
// ExitPlanMode and no record says which mode was chosen.
var defaultMode = []byte(`"default"`)

// NewReader returns a Reader of r with sessions of its own.
func NewReader(r io.Reader) *Reader { return NewSharedReader(r, NewSessions()) }

// NewSharedReader returns a Reader of r that shares sessions with others.
func NewSharedReader(r io.Reader, sessions *Sessions) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<20), max: MaxLine, sessions: sessions}
}

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Next returns the next tool call, or io.EOF after the last. Its byte
// slices stay valid until the next call of Next. Other errors are read
// errors of the underlying reader.
func (r *Reader) Next() (*ToolUse, error) {
	for len(r.pending) == 0 {
		line, err := r.line()
		if err != nil {
			return nil, err
		}
		if line == nil {
			continue
		}
		r.record(line)
	}
	t := &r.pending[0]
	r.pending = r.pending[1:]
	r.stats.ToolUses++
	return t, nil
}

// line returns the next line without its newline, nil for a line that was
// skipped (too long), or an error (io.EOF at the end).
func (r *Reader) line() ([]byte, error) {
	r.buf = r.buf[:0]
	tooLong := false
	for {
		chunk, err := r.r.ReadSlice('\n')
		r.stats.Bytes += int64(len(chunk))
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !tooLong && len(r.buf)+len(chunk) <= r.max {
				r.buf = append(r.buf, chunk...)
			} else {
				tooLong, r.buf = true, r.buf[:0]
			}
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err != nil && len(chunk) == 0 && len(r.buf) == 0 && !tooLong:
			return nil, io.EOF
		}
		r.stats.Lines++
		if tooLong || len(r.buf)+len(chunk) > r.max+1 {
			r.stats.TooLong++
			return nil, nil
		}
		line := chunk
		if len(r.buf) > 0 {
			r.buf = append(r.buf, chunk...)
			line = r.buf
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, nil
	}
}

// record reads one line's record and queues its tool calls.
func (r *Reader) record(line []byte) {
	if len(trimSpace(line)) == 0 {
		return
	}
	rec := &r.rec
	if err := rec.parse(line); err != nil {
		r.stats.Malformed++
		return
	}
	r.stats.Records++
	s := r.session(rec)
	if string(rec.typ) != `"assistant"` {
		return
	}
	for _, b := range rec.uses {
		if b.id == nil || b.name == nil || b.input == nil {
			r.stats.BadToolUses++
			continue
		}
		t := ToolUse{Line: r.stats.Lines, SessionID: rec.sessionID, Cwd: rec.cwd, Timestamp: rec.timestamp, ID: b.id, Name: b.name, Input: b.input}
		if s != nil {
			t.PermissionMode, t.ProjectDir = s.mode, s.projectDir
			if t.Cwd == nil {
				t.Cwd = s.cwd
			}
			if string(b.name) == `"ExitPlanMode"` {
				s.exitPlan = append(s.exitPlan[:0], b.id...)
			}
		} else {
			t.PermissionMode = rec.mode
			t.ProjectDir = rec.cwd
		}
		r.pending = append(r.pending, t)
	}
}

// session updates and returns the session of rec, nil when it names none:
// its mode (a record's permissionMode; after an approved ExitPlanMode,
// defaultMode), its first and last cwd.
func (r *Reader) session(rec *record) *session {
	if rec.sessionID == nil {
		return nil
	}
	id := Str(rec.sessionID)
	s := r.sessions.m[id]
	if s == nil {
		s = &session{}
		r.sessions.m[id] = s
	}
	switch {
	case rec.mode != nil:
		s.mode = append(s.mode[:0], rec.mode...)
	case s.exitPlan != nil:
		for _, res := range rec.results {
			if string(res.useID) == string(s.exitPlan) {
				if !res.isError {
					s.mode = append(s.mode[:0], defaultMode...)
				}
				s.exitPlan = nil
			}
		}
	}
	if rec.cwd != nil {
		if s.projectDir == nil {
			s.projectDir = append([]byte(nil), rec.cwd...)
		}
		s.cwd = append(s.cwd[:0], rec.cwd...)
	}
	return s
}

// Str returns the value of a JSON string token as [ToolUse] holds it, or ""
// for nil or a token that is not a valid string.
func Str(tok []byte) string {
	if len(tok) < 2 {
		return ""
	}
	inner := tok[1 : len(tok)-1]
	simple := true
	for _, c := range inner {
		if c == '\\' {
			simple = false
			break
		}
	}
	if simple {
		return string(inner)
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return ""
	}
	return s
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
