// Package audit appends safezone's decision records to a JSON Lines file
// shared by many processes at once, and to the local syslog.
//
// Each record is one line written with a single write(2) on a file opened
// with O_APPEND, under an exclusive flock(2) of that file, so concurrent hook
// processes (parallel tool calls, several sessions) never interleave or lose
// lines. Rotation renames the file while holding the lock; a writer that
// locked a file which was meanwhile rotated notices (the path no longer
// names the file it holds) and opens the path again.
//
// On Windows there is no lock: each line is still one append of the whole
// line, but rotation is not coordinated between processes, and renaming a
// log another process holds open fails (reported as a rotation error). On
// Windows, prefer max_bytes: 0 and rotate with the system's tools.
package audit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

// Record is one audit line (README, "Audit log"). Decision is what was
// printed; in a dry run it is "abstain" and WouldDecide holds the decision
// safezone would have made.
type Record struct {
	Time           string   `json:"time"` // RFC 3339, UTC, milliseconds
	Host           string   `json:"host"`
	SessionID      string   `json:"session_id"`
	ToolUseID      string   `json:"tool_use_id"`
	Tool           string   `json:"tool"`
	Cwd            string   `json:"cwd"`
	PermissionMode string   `json:"permission_mode"`
	Targets        []Target `json:"targets"`
	Decision       string   `json:"decision"`
	// Rule names the rule, class or mode that decided ("Read(.env*)",
	// `paths.protected ".git/**"`, "sandbox.outside_write", "on_error")
	// and Source where it is defined ("policy.yaml:14").
	Rule   string `json:"rule"`
	Source string `json:"source"`
	Reason string `json:"reason"`
	// Error is set when the call could not be judged (a deny by on_error).
	Error string `json:"error,omitempty"`
	// Confined is set when a Bash command was rewritten to run inside the
	// kernel sandbox; Confine says why one whose effects are unknown was
	// not ("confinement is not available here: ...").
	Confined    bool   `json:"confined,omitempty"`
	Confine     string `json:"confine,omitempty"`
	DryRun      bool   `json:"dry_run,omitempty"`
	WouldDecide string `json:"would_decide,omitempty"`
}

// Target is one path of the call: as the tool gave it, as it resolves
// (every symlink followed), and read or write.
type Target struct {
	Given    string `json:"given"`
	Resolved string `json:"resolved"`
	Access   string `json:"access"`
}

// TimeFormat is RFC 3339 with milliseconds, for UTC times.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// maxReopen bounds how often Append opens the path again because the file
// it locked was rotated in the meantime: each retry means another process
// rotated, which takes max_bytes of writes.
const maxReopen = 32

// ErrRotate wraps a failure to rotate: the record itself was written.
var ErrRotate = errors.New("cannot rotate the audit log")

// File is an audit log shared by concurrent processes.
type File struct {
	Path string
	// MaxBytes rotates the file once it reaches this size; 0 never does.
	MaxBytes int64
	// Keep is how many rotated files are kept: Path.1 (newest) to
	// Path.Keep. With 0, a full log is removed.
	Keep int
}

// Append writes line, one JSON object ending in "\n", at the end of the
// file in one write under an exclusive lock, creating the file (mode 0600)
// if needed, then rotates it if it reached MaxBytes. A short write is
// undone, so the file only ever holds whole lines. An error wrapping
// [ErrRotate] means the line was written but rotation failed.
func (f *File) Append(line []byte) error {
	if len(line) == 0 || line[len(line)-1] != '\n' || bytes.IndexByte(line[:len(line)-1], '\n') >= 0 {
		return errors.New("audit: a record must be one line ending in a newline")
	}
	for range maxReopen {
		h, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		done, err := f.appendLocked(h, line)
		h.Close() // releases the lock
		if done {
			return err
		}
	}
	return fmt.Errorf("audit: %s: rotated by other processes %d times while waiting for the lock", f.Path, maxReopen)
}

// appendLocked locks h and, if h is still the file at f.Path, appends line
// and rotates. done is false when h was rotated away before the lock was
// acquired: the caller opens the path again.
func (f *File) appendLocked(h *os.File, line []byte) (done bool, err error) {
	if err := lock(h); err != nil {
		return true, fmt.Errorf("audit: lock %s: %w", f.Path, err)
	}
	held, err := h.Stat()
	if err != nil {
		return true, err
	}
	now, err := os.Stat(f.Path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !os.SameFile(held, now)) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if !held.Mode().IsRegular() {
		return true, fmt.Errorf("audit: %s is not a regular file", f.Path)
	}
	n, err := h.Write(line)
	if err != nil {
		if n > 0 {
			// Only whole lines: cut the partial one (the lock keeps other
			// writers out, so the size before is still the end).
			h.Truncate(held.Size())
		}
		return true, fmt.Errorf("audit: write %s: %w", f.Path, err)
	}
	if f.MaxBytes > 0 && held.Size()+int64(n) >= f.MaxBytes {
		if err := f.rotate(); err != nil {
			return true, fmt.Errorf("%w %s: %v", ErrRotate, f.Path, err)
		}
	}
	return true, nil
}

// rotate shifts Path.N-1 to Path.N, ..., Path to Path.1, dropping what falls
// past Keep. The caller holds the lock of the file at Path.
func (f *File) rotate() error {
	if f.Keep <= 0 {
		return os.Remove(f.Path)
	}
	name := func(i int) string { return f.Path + "." + strconv.Itoa(i) }
	for i := f.Keep - 1; i >= 1; i-- {
		if err := os.Rename(name(i), name(i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return os.Rename(f.Path, name(1))
}
