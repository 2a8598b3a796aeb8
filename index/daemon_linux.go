//go:build linux

package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The daemon keeps a tree current with inotify(7): one watch per directory
// it searched (not below a hidden or skipped directory). inotify queues an
// event when the change is made, before the system call that made it
// returns, so once a query has read every queued event (the queue read
// until EAGAIN), every change made before the query was sent is known:
// the answer is as fresh as a walk started at that moment.
//
// Events handled, for a name N in a watched directory D:
//   - created or moved in (IN_CREATE, IN_MOVED_TO): N is classified, and
//     searched (watched first, then listed) when it is a directory, so that
//     what was made in it before the watch is found by the listing;
//   - removed or moved out (IN_DELETE, IN_MOVED_FROM): D/N and everything
//     below it are forgotten, and the watches below it removed;
//   - a root removed or moved (IN_DELETE_SELF, IN_MOVE_SELF on it): the
//     daemon ends;
//   - the queue overflowed (IN_Q_OVERFLOW), or a watch could not be added:
//     the tree is searched anew on the next query (and marked incomplete
//     when the watch limit is the cause).

// watchMask are the events asked for each directory.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// watched is a directory under watch.
type watched struct {
	path   string
	roOnly bool
}

// daemon is the state of Serve.
type daemon struct {
	t       *tree
	ifd     int
	wds     map[int32]watched
	byPath  map[string]int32
	rescan  bool   // search everything anew before the next answer
	gone    string // set when a root went away: the daemon ends
	watchOK bool   // every directory searched is watched
	// last is the last answer, and dirty says an event has come since.
	// Symlinks are resolved anew for every answer, since what they lead
	// to may change outside the roots; so are the other names of the
	// hidden files when a stamp no longer holds (tree.stamps: a hidden
	// file's link count changed, or a name found in an unwatched skipped
	// tree is gone), which no event of a watched directory says: a link
	// made in node_modules changes no directory watched. While a hidden
	// file has names not found (tree.unsettled), every answer searches
	// the skipped trees again: one not found may have been moved there.
	last  []byte
	dirty bool
}

// Serve searches the roots of c and keeps the result current, answering
// queries on the Unix socket at sock until no query came for idle, a root
// is removed or moved, or an error occurs. It holds an exclusive lock on
// sock+".lock" while it runs, and returns nil at once when another daemon
// holds it. The socket is made with mode 0600 in a directory that must
// exist and should be the user's own (0700): whoever can connect learns
// the names of the files hidden, not their contents.
//
// The protocol: a client connects and writes one line, "sync"; the daemon
// reads the queued events, and answers with the JSON of a [Found] on one
// line, then closes the connection. A client that sends nothing within a
// second is dropped.
func Serve(c Classifier, roots []string, sock string, idle time.Duration) error {
	lock, err := os.OpenFile(sock+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil // another daemon serves these roots
		}
		return fmt.Errorf("lock %s: %w", sock+".lock", err)
	}
	ifd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("inotify_init1: %w", err)
	}
	defer unix.Close(ifd)
	d := &daemon{ifd: ifd, wds: map[int32]watched{}, byPath: map[string]int32{}}
	d.t = newTree(c, roots, Limits{})
	d.t.enter = d.watch
	d.search()

	lfd, err := listen(sock)
	if err != nil {
		return err
	}
	defer unix.Close(lfd)
	defer os.Remove(sock)
	last := time.Now()
	for d.gone == "" {
		fds := []unix.PollFd{{Fd: int32(lfd), Events: unix.POLLIN}, {Fd: int32(ifd), Events: unix.POLLIN}}
		wait := time.Until(last.Add(idle))
		if wait <= 0 {
			return nil
		}
		if _, err := unix.Poll(fds, int(wait.Milliseconds())+1); err != nil && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("poll: %w", err)
		}
		if fds[1].Revents != 0 {
			d.drain()
		}
		if fds[0].Revents&unix.POLLIN != 0 {
			d.answer(lfd)
			last = time.Now()
		}
	}
	return nil
}

// search searches every root anew, watching what it searches.
func (d *daemon) search() {
	for wd := range d.wds {
		unix.InotifyRmWatch(d.ifd, uint32(wd))
	}
	d.wds, d.byPath, d.watchOK, d.rescan = map[int32]watched{}, map[string]int32{}, true, false
	limits := d.t.limits
	d.t = newTree(d.t.c, d.t.roots, limits)
	d.t.enter = d.watch
	d.t.scanRoots()
}

// watch adds a watch on dir (tree.enter).
func (d *daemon) watch(dir string, roOnly bool) error {
	wd, err := unix.InotifyAddWatch(d.ifd, dir, watchMask)
	if err != nil {
		if errors.Is(err, unix.ENOSPC) {
			d.watchOK = false
			d.t.incomplete = "the inotify watch limit (fs.inotify.max_user_watches) is too low for the sandbox roots"
			return errStop
		}
		return nil // gone already, or unreadable: its removal comes as an event
	}
	d.wds[int32(wd)] = watched{dir, roOnly}
	d.byPath[dir] = int32(wd)
	return nil
}

// unwatch removes the watches of dir and of every directory below it.
func (d *daemon) unwatch(dir string) {
	for p, wd := range d.byPath {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			unix.InotifyRmWatch(d.ifd, uint32(wd))
			delete(d.byPath, p)
			delete(d.wds, wd)
		}
	}
}

// drain reads every queued event and applies it.
func (d *daemon) drain() {
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(d.ifd, buf)
		if err != nil || n <= 0 {
			return // EAGAIN: the queue is empty
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				if i := strings.IndexByte(string(raw), 0); i >= 0 {
					raw = raw[:i]
				}
				name = string(raw)
			}
			d.event(ev.Wd, ev.Mask, name)
			d.dirty = true
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

// event applies one inotify event.
func (d *daemon) event(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 {
		d.rescan = true
		return
	}
	w, ok := d.wds[wd]
	if mask&unix.IN_IGNORED != 0 {
		if ok && d.byPath[w.path] == wd {
			delete(d.byPath, w.path)
		}
		delete(d.wds, wd)
		return
	}
	if !ok || d.rescan {
		return
	}
	if mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 {
		for _, r := range d.t.roots {
			if r == w.path {
				d.gone = "the root " + r + " was removed or moved"
			}
		}
		return
	}
	if name == "" {
		return
	}
	p := w.path + "/" + name
	if w.path == "/" {
		p = "/" + name
	}
	if mask&(unix.IN_DELETE|unix.IN_MOVED_FROM) != 0 {
		d.t.forget(p)
		d.unwatch(p)
	}
	if mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 {
		// A name made again: what was there is gone.
		d.t.forget(p)
		d.unwatch(p)
		var st unix.Stat_t
		if err := unix.Lstat(p, &st); err != nil {
			return // gone already: its removal is queued
		}
		// An error leaves t.incomplete set (a limit), or the watch
		// limit marks the tree for a new search: the answer says so.
		d.t.entry(w.path, entry{name: name, typ: typeOf(st.Mode), ino: st.Ino}, w.roOnly)
	}
}

// answer accepts one client and answers its sync.
func (d *daemon) answer(lfd int) {
	cfd, _, err := unix.Accept4(lfd, unix.SOCK_CLOEXEC)
	if err != nil {
		return
	}
	defer unix.Close(cfd)
	tv := unix.Timeval{Sec: 1}
	unix.SetsockoptTimeval(cfd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	unix.SetsockoptTimeval(cfd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv)
	// A read or write with SO_RCVTIMEO or SO_SNDTIMEO set fails with
	// EINTR after a signal handler ran, SA_RESTART or not (signal(7)):
	// try again until the second is up, as Query does.
	deadline := time.Now().Add(time.Second)
	retry := func(err error) bool { return err == unix.EINTR && time.Now().Before(deadline) }
	buf := make([]byte, 16)
	n, err := unix.Read(cfd, buf)
	for retry(err) {
		n, err = unix.Read(cfd, buf)
	}
	if err != nil || n < 4 || string(buf[:4]) != "sync" {
		return
	}
	d.drain()
	if d.rescan || !d.watchOK {
		d.search()
		d.dirty = true
	}
	out := d.last
	if d.dirty || len(d.t.links) > 0 || out == nil || d.t.unsettled || !d.stampsHold() {
		b, err := json.Marshal(d.t.result())
		if err != nil {
			return
		}
		out = append(b, '\n')
		d.last, d.dirty = out, false
	}
	out = slices.Clone(out)
	for len(out) > 0 {
		n, err := unix.Write(cfd, out)
		if retry(err) {
			continue
		}
		if err != nil {
			return
		}
		out = out[n:]
	}
}

// stampsHold reports whether every hidden regular file, and every other
// name of one found in a skipped tree, is what the last answer saw: a
// stat(2) each.
func (d *daemon) stampsHold() bool {
	for _, s := range d.t.stamps {
		if !s.holds() {
			return false
		}
	}
	return true
}

// listen makes the listening Unix socket at sock (mode 0600), replacing a
// stale one (the caller holds the lock).
func listen(sock string) (int, error) {
	if len(sock) >= len(unix.RawSockaddrUnix{}.Path) {
		return -1, fmt.Errorf("socket path %s is too long", sock)
	}
	os.Remove(sock)
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	old := unix.Umask(0o177)
	err = unix.Bind(fd, &unix.SockaddrUnix{Name: sock})
	unix.Umask(old)
	if err == nil {
		err = unix.Listen(fd, 16)
	}
	if err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("listen on %s: %w", sock, err)
	}
	return fd, nil
}

// Query asks the daemon at sock for what it knows now (see Serve), within
// timeout. It fails when no daemon answers there (ENOENT, ECONNREFUSED:
// start one), or the answer is not one.
func Query(sock string, timeout time.Duration) (Found, error) {
	var f Found
	if len(sock) >= len(unix.RawSockaddrUnix{}.Path) {
		return f, fmt.Errorf("socket path %s is too long", sock)
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return f, err
	}
	defer unix.Close(fd)
	tv := unix.NsecToTimeval(timeout.Nanoseconds())
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_SNDTIMEO, &tv)
	if err := unix.Connect(fd, &unix.SockaddrUnix{Name: sock}); err != nil {
		return f, err
	}
	// A read or write with SO_RCVTIMEO or SO_SNDTIMEO set is not restarted
	// after a signal handler ran (signal(7)): the Go runtime's own
	// preemption signal (SIGURG) makes it fail with EINTR. Try again,
	// within the deadline.
	deadline := time.Now().Add(timeout)
	for {
		_, err := unix.Write(fd, []byte("sync\n"))
		if err == nil {
			break
		}
		if err != unix.EINTR || time.Now().After(deadline) {
			return f, err
		}
	}
	var out []byte
	buf := make([]byte, 32<<10)
	for {
		n, err := unix.Read(fd, buf)
		if n > 0 {
			out = append(out, buf[:n]...)
		}
		if err == unix.EINTR && !time.Now().After(deadline) {
			continue
		}
		if err != nil {
			return f, fmt.Errorf("reading the index daemon's answer: %w", err)
		}
		if n == 0 || len(out) > 0 && out[len(out)-1] == '\n' {
			break
		}
		if time.Now().After(deadline) || len(out) > 16<<20 {
			return f, errors.New("the index daemon's answer is too slow or too long")
		}
	}
	if err := json.Unmarshal(out, &f); err != nil {
		return f, fmt.Errorf("the index daemon's answer: %w", err)
	}
	return f, nil
}

// SocketFor returns the socket path of the daemon for key in dir (see
// Serve): dir/KEY.sock, or "" when that is too long for a Unix socket's
// address (108 bytes): there is then no daemon, and each call walks.
func SocketFor(dir, key string) string {
	p := filepath.Join(dir, key+".sock")
	if len(p) < len(unix.RawSockaddrUnix{}.Path) {
		return p
	}
	return ""
}
