//go:build linux

package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ReachableSockets returns, of the bound socket paths ([BoundList.Paths]),
// those that a process with the caller's credentials could connect(2) to
// now, resolved: the path leads to a socket file (lstat(2): S_IFSOCK, its
// directories' symlinks followed, not a last one) that the caller owns or
// may write (access(2) W_OK: connect(2) needs write permission on the
// socket file); the directories on the way are resolved, so the path
// returned holds no symlink (one lookup per directory, remembered). skip
// is asked first, with the path as listed: a path it reports is left out
// without a look (one beneath a directory the caller hides whole).
//
// A path that leads nowhere the caller can reach (ENOENT, ENOTDIR,
// EACCES, ELOOP, ENAMETOOLONG: the socket was removed or renamed, or lies
// in a directory closed to the caller) or to a file that is no socket is
// left out. Any other error looking is returned with the path: a caller
// that hides the sockets must not run a command as if it had.
func ReachableSockets(paths []string, skip func(string) bool) ([]string, error) {
	uid := uint32(os.Getuid())
	dirs := map[string]string{}
	var out []string
	for _, p := range paths {
		if skip != nil && skip(p) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			if unreachable(err) {
				continue
			}
			return nil, fmt.Errorf("socket %s: %w", p, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
			continue
		}
		if st.Uid != uid {
			if err := unix.Access(p, unix.W_OK); err != nil {
				if unreachable(err) {
					continue
				}
				return nil, fmt.Errorf("socket %s: %w", p, err)
			}
		}
		dir := filepath.Dir(p)
		r, ok := dirs[dir]
		if !ok {
			var err error
			r, err = filepath.EvalSymlinks(dir)
			if err != nil {
				if errors.Is(err, os.ErrNotExist) {
					continue // removed since the lstat
				}
				return nil, fmt.Errorf("socket %s: %w", p, err)
			}
			dirs[dir] = r
		}
		out = append(out, filepath.Join(r, filepath.Base(p)))
	}
	return out, nil
}

// unreachable reports whether a lookup's error means that the caller
// cannot reach the path at all.
func unreachable(err error) bool {
	for _, e := range []error{unix.ENOENT, unix.ENOTDIR, unix.EACCES, unix.ELOOP, unix.ENAMETOOLONG} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
