package hookio

import (
	"fmt"
	"strings"
	"unicode"
)

// maxPatchTargets bounds the files one patch may name. Real patches touch a
// handful; each target costs a few Lstat calls within the hook's deadline.
const maxPatchTargets = 4096

// PatchTarget is one file an apply_patch patch changes.
type PatchTarget struct {
	Op   string // "Add File", "Update File", "Delete File" or "Move to"
	Path string // as written in the patch: relative to the cwd, or absolute
	Line int    // 1-based line of the header in the patch text
}

// patchOps are the header markers of the apply_patch format, in the
// spelling of openai/codex codex-rs/apply-patch/src/parser.rs
// (ADD_FILE_MARKER and the others; checked against @openai/codex 0.169.0).
var patchOps = [...]string{"Add File", "Update File", "Delete File", "Move to"}

// PatchTargets returns every path the apply_patch patch text may write:
// the paths of its "*** Add File:", "*** Update File:", "*** Delete File:"
// and "*** Move to:" lines.
//
// It is a deliberate over-approximation of Codex's parser
// (codex-rs/apply-patch/src/parser.rs, @openai/codex 0.169.0), so that no
// file the host would write is missed:
//
//   - Every line is examined, not only the lines Codex reads as headers:
//     a header-shaped line anywhere (inside an update hunk's context, after
//     the end marker, in a heredoc wrapper) is a target. A patch that
//     quotes a header in a context line thus gets an extra target, never a
//     missing one.
//   - Lines are split like Rust's str::lines (at "\n", one trailing "\r"
//     dropped) and trimmed of Unicode white space, as Codex trims header
//     lines; markers match without regard to ASCII case.
//   - Codex takes a header's path after "*** Add File: " on the trimmed
//     line, but a "*** Move to: " path from the untrimmed line, trailing
//     blanks included. Every spelling that differs (with and without the
//     blanks around the path) is returned, each a target of its own.
//
// A header with an empty path yields an empty Path, which callers refuse.
// Paths are not cleaned or resolved. The only error is a patch naming more
// than maxPatchTargets files.
func PatchTargets(patch string) ([]PatchTarget, error) {
	var out []PatchTarget
	seen := make(map[PatchTarget]bool)
	add := func(op, p string, line int) {
		t := PatchTarget{Op: op, Path: p, Line: line}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for n, line := range strings.Split(patch, "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimFunc(line, unicode.IsSpace)
		if !strings.HasPrefix(trimmed, "***") {
			continue
		}
		for _, op := range patchOps {
			marker := "*** " + op + ":"
			rest, ok := cutPrefixFold(trimmed, marker)
			if !ok {
				continue
			}
			// Codex: the trimmed line minus "*** Op: " (one blank).
			exact, hadBlank := strings.CutPrefix(rest, " ")
			if hadBlank {
				add(op, exact, n+1)
			}
			add(op, strings.TrimFunc(rest, unicode.IsSpace), n+1)
			if op == "Move to" {
				// Codex reads "*** Move to: " from the untrimmed line.
				if raw, ok := cutPrefixFold(line, marker+" "); ok {
					add(op, raw, n+1)
				}
			}
			if len(out) > maxPatchTargets {
				return nil, fmt.Errorf("%w: the patch names more than %d files", ErrValue, maxPatchTargets)
			}
		}
	}
	return out, nil
}

// cutPrefixFold is strings.CutPrefix ignoring ASCII case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// looksLikeShellPatch reports whether a shell command may run Codex's
// apply_patch on an inline patch ("apply_patch <<'EOF' ... EOF"), which
// Codex intercepts and applies itself (codex-rs/apply-patch/src/invocation.rs,
// maybe_parse_apply_patch: the programs apply_patch and applypatch).
func looksLikeShellPatch(cmd string) bool {
	if !strings.Contains(cmd, "apply_patch") && !strings.Contains(cmd, "applypatch") {
		return false
	}
	for _, line := range strings.Split(cmd, "\n") {
		if _, ok := cutPrefixFold(strings.TrimFunc(line, unicode.IsSpace), "*** Begin Patch"); ok {
			return true
		}
	}
	return false
}

// changesDir reports whether cmd may change directory anywhere: a word
// "cd" or "pushd" delimited by anything but a name character. That moves
// where a patch's relative paths land.
func changesDir(cmd string) bool {
	return hasWord(cmd, "cd") || hasWord(cmd, "pushd")
}

func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isNameByte(s[j-1])
		after := j+len(w) == len(s) || !isNameByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + len(w)
	}
}

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || (b >= '0' && b <= '9') || (b|0x20 >= 'a' && b|0x20 <= 'z')
}
