package confine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ProcNetUnix is the file that lists the Unix domain sockets of the
// reader's network namespace (proc(5), "/proc/net/unix").
const ProcNetUnix = "/proc/net/unix"

// BoundSockets reads [ProcNetUnix] and returns the socket files bound in
// the caller's network namespace (see [ParseProcNetUnix]). An error
// opening or reading the file is returned, wrapped: a caller that hides
// sockets must then not run a command as if there were none.
func BoundSockets() (BoundList, error) {
	f, err := os.Open(ProcNetUnix)
	if err != nil {
		return BoundList{}, fmt.Errorf("cannot list the bound Unix sockets: %w", err)
	}
	defer f.Close()
	b, err := ParseProcNetUnix(f)
	if err != nil {
		return BoundList{}, fmt.Errorf("cannot list the bound Unix sockets: %s: %w", ProcNetUnix, err)
	}
	return b, nil
}

// BoundList is what [ParseProcNetUnix] finds.
type BoundList struct {
	// Paths are the absolute path names sockets are bound to, clean,
	// sorted, without duplicates. A path is the name given to bind(2): the
	// socket file may since have been removed, renamed, or replaced by
	// another file; a caller looks before it hides.
	Paths []string
	// Relative counts the sockets bound to a relative name (relative to
	// the binder's working directory, which the file does not give): they
	// cannot be found from the list.
	Relative int
	// Malformed counts the lines with fewer than seven fields: the rest of
	// a path holding a newline.
	Malformed int
}

// ParseProcNetUnix reads the socket table in the format of /proc/net/unix
// (proc(5): a header line, then one line per socket: "Num: RefCount
// Protocol Flags Type St Inode Path", seven fields, then, for a bound
// socket, one space and the path it is bound to, written byte for byte).
// Unbound sockets (no Path) and abstract ones (a Path starting with "@":
// Landlock's scopes, not the file system, govern those; a relative name
// starting with "@" reads the same) are left out; the header is skipped.
//
// A path with a newline in it cannot be told from two lines: its first
// part is read as a path (which then names no socket, or another one), the
// rest is a line with fewer than seven fields, counted in Malformed. Only
// an error reading r is returned.
func ParseProcNetUnix(r io.Reader) (BoundList, error) {
	var b BoundList
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Bytes()
		if first {
			first = false
			if bytes.HasPrefix(line, []byte("Num")) {
				continue
			}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		rest := line
		for i := 0; i < 7; i++ {
			rest = bytes.TrimLeft(rest, " ")
			j := bytes.IndexByte(rest, ' ')
			if j < 0 {
				if i == 6 && len(rest) > 0 {
					rest = nil // the last field, no path
					break
				}
				b.Malformed++
				rest = nil
				break
			}
			rest = rest[j:]
		}
		if len(rest) < 2 || rest[0] != ' ' {
			continue // unbound, or malformed
		}
		p := string(rest[1:])
		switch {
		case strings.HasPrefix(p, "@"):
			// Abstract (the kernel writes a leading NUL as "@").
		case filepath.IsAbs(p):
			b.Paths = append(b.Paths, filepath.Clean(p))
		default:
			b.Relative++
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return BoundList{}, fmt.Errorf("a line over 1 MiB")
		}
		return BoundList{}, err
	}
	slices.Sort(b.Paths)
	b.Paths = slices.Compact(b.Paths)
	return b, nil
}
