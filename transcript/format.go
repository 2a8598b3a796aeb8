package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrFormat is wrapped by CheckFormat's errors: the file is some other
// agent's session log, which replay does not read.
var ErrFormat = errors.New("not a Claude Code transcript")

// formatPeek is how much of a file CheckFormat looks at.
const formatPeek = 64 << 10

// CheckFormat tells another agent's session log from a Claude Code
// transcript by its first record, and rewinds f. It returns an error
// wrapping ErrFormat that names the format for:
//   - a Codex session log (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl:
//     records {"timestamp", "type": "session_meta" | "response_item" |
//     "event_msg" | "turn_context", "payload"});
//   - a Gemini CLI session (~/.gemini/tmp/<project>/chats/*.json: one JSON
//     object with "messages", or a JSON array of log entries).
//
// Anything else (a Claude Code transcript, an empty file, another JSON
// Lines file, whose records Reader then skips) is nil.
func CheckFormat(f io.ReadSeeker) error {
	br := bufio.NewReaderSize(f, formatPeek)
	head, _ := br.Peek(formatPeek)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	first := bytes.TrimSpace(head)
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	switch {
	case len(first) == 0:
		return nil
	case first[0] == '[':
		return fmt.Errorf("%w: it is a JSON array (a Gemini CLI log?); replay reads Claude Code's ~/.claude/projects/*/*.jsonl", ErrFormat)
	case bytes.Contains(head, []byte(`"projectHash"`)) || (bytes.Contains(head, []byte(`"messages"`)) && !bytes.Contains(head, []byte(`"message"`))):
		return fmt.Errorf("%w: it looks like a Gemini CLI session (one JSON object of messages); replay reads Claude Code's ~/.claude/projects/*/*.jsonl", ErrFormat)
	}
	var rec record
	if rec.parse(first) != nil || !bytes.Contains(first, []byte(`"payload"`)) {
		return nil
	}
	switch string(rec.typ) {
	case `"session_meta"`, `"response_item"`, `"event_msg"`, `"turn_context"`:
		return fmt.Errorf("%w: it is a Codex session log (rollout, record type %s); replay reads Claude Code's ~/.claude/projects/*/*.jsonl", ErrFormat, rec.typ)
	}
	return nil
}
