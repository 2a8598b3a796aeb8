package pipeline

// The policy cache: the hook's effective policy, compiled once and read
// back by later calls with one read, no YAML, no merging (issue 23). A
// cache file holds the encoded policy (policy.AppendBinary) and everything
// it was made from, checked on every call before the policy is used:
//
//   - the key: safezone's binary (its path and identity), the project
//     root, every layer's location (they follow from the environment), the
//     hook's flags and, with flags, the working directory;
//   - the identity (device, inode, size, mtime, ctime) of every file the
//     loading read, or that it was missing (so a new .safezone.yaml is
//     seen), and of the directory of Claude Code's managed-settings.d;
//   - for each file of the repository whose trust was asked, the name its
//     trust record goes by (its directory's symbolic links resolved) and
//     the record's identity or absence: trust applies exactly as without
//     the cache.
//
// Any difference, and any cache that cannot be trusted (not a regular
// file of this user's, writable by others, a bad checksum, truncated, of
// another layout or build), is a miss: the policy is loaded as without a
// cache and the file rewritten atomically. A file changed within
// cacheSettle of the loading is not cached (its timestamps could still
// hide a change made in the same clock tick, git's "racy clean" problem).
//
// The cache lives in the state directory's cache/, which self-protection
// keeps from the agent and confinement from confined commands, like the
// trust records beside it. It is used only on Linux and macOS, where the
// file identities are known; elsewhere every call loads the policy.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/safezonehq/safezone/policy"
)

// fileID identifies one version of a file: a write changes its ctime, a
// replacement its inode.
type fileID struct {
	Dev, Ino           uint64
	Size, Mtime, Ctime int64 // times in nanoseconds since 1970
}

// policyCacheMagic starts a cache file; its number changes with the
// layout of the file (the policy's own encoding has a version too).
const policyCacheMagic = "safezone policy cache 1\n"

// maxPolicyCache bounds the cache file read: a policy of 10,000 rules
// encodes in about a megabyte.
const maxPolicyCache = 16 << 20

// defaultCacheSettle is how old every file a policy was loaded from must be
// for the policy to be cached: longer than any file system's timestamp
// granularity the cache relies on (a jiffy on Linux, a second on HFS+).
const defaultCacheSettle = 2 * time.Second

// cacheDep is one file (or directory) a cached policy depends on, as it
// was: missing, or present with an identity.
type cacheDep struct {
	path   string
	exists bool
	id     fileID
}

// cacheTrust is a repository file whose trust was asked, and the name
// its trust record went by.
type cacheTrust struct{ path, key string }

// policyCacheKey is what a cached policy must have been made for: file is
// the cache file (named by a hash of the key without the binary's
// identity, so that a new build replaces the old one's file), header the
// whole key.
type policyCacheKey struct {
	file   string
	header []byte
}

// cacheKey returns the cache key of loading the policy at loc with opts;
// false when there can be no cache (no state directory, no identity of
// the binary).
func (s *System) cacheKey(loc policy.Locations, opts *Options) (policyCacheKey, bool) {
	if loc.State == "" || s.Executable == "" || s.cacheSettle <= 0 {
		return policyCacheKey{}, false
	}
	var b []byte
	str := func(v string) {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	for _, v := range []string{loc.ProjectRoot, loc.Home, loc.Managed, loc.User, loc.ClaudeManaged, loc.ClaudeConfig, loc.CodexHome, loc.State, loc.Executable} {
		str(v)
	}
	b = binary.AppendUvarint(b, uint64(len(opts.args)))
	for _, a := range opts.args {
		str(a)
	}
	if len(opts.args) > 0 {
		wd, err := s.Getwd()
		if err != nil {
			return policyCacheKey{}, false
		}
		str(wd) // --policy and --audit are relative to it
	}
	h := fnv.New64a()
	h.Write(b)
	file := filepath.Join(loc.State, "cache", "policy-"+strconv.FormatUint(h.Sum64(), 16))
	exe, err := s.fileID(s.Executable)
	if err != nil {
		return policyCacheKey{}, false
	}
	b = appendID(b, exe)
	return policyCacheKey{file: file, header: b}, true
}

func appendID(b []byte, id fileID) []byte {
	b = binary.AppendUvarint(b, id.Dev)
	b = binary.AppendUvarint(b, id.Ino)
	b = binary.AppendVarint(b, id.Size)
	b = binary.AppendVarint(b, id.Mtime)
	return binary.AppendVarint(b, id.Ctime)
}

// cachedPolicy is LoadPolicy for a live hook call, through the cache. It
// also returns the timeout of the hook's own registration in the settings
// files read (see ownTimeout; 0 for none), which a cached policy keeps.
// The cache is checked through view, a copy of j.Sys whose FS is the
// call's MemoFS view: the decision asks again about many of the names the
// check looks at (the self-protected places of the project, the home
// directory and /etc, safezone's binary), and finds the answers there
// (see System.fileID). When the cache is not used the policy is loaded as
// without a cache, and save, when not nil, writes it to the cache: the
// caller calls it once done with the view (writing may make directories,
// which the view must not span), unless the call's deadline has passed by
// then.
func (j *Judger) cachedPolicy(root string, view *System) (pol *policy.Policy, timeout time.Duration, save func(), err error) {
	s := j.Sys
	loc := PolicyLocations(j.Opts, root, s, nil)
	key, keyed := view.cacheKey(loc, j.Opts)
	if keyed {
		if pol, timeout, ok := view.readPolicyCache(key); ok {
			return pol, timeout, nil, nil
		}
	}
	reads := j.reads
	if reads == nil {
		reads = NewFileCache()
	}
	rec := &cacheRecorder{sys: view}
	loc.ReadFile = reads.read
	loc.Trusted = rec.trusted
	pol, err = MergeLayers(loc, j.Opts)
	timeout, _ = ownTimeout(reads, s.Executable)
	if err == nil && keyed {
		e := rec.entry(loc, reads)
		save = func() {
			if j.late == nil || !j.late() {
				s.writePolicyCache(key, e, timeout, pol)
			}
		}
	}
	return pol, timeout, save, err
}

// cacheRecorder asks for trust as System.Trusted does, and remembers what
// the answer depended on.
type cacheRecorder struct {
	sys   *System
	trust []cacheTrust
	deps  []cacheDep
	bad   bool // a record could not be read: nothing to cache
}

func (r *cacheRecorder) trusted(path string, content []byte) bool {
	key := r.sys.TrustKey(path)
	file := r.sys.trustFile(key)
	if file == "" {
		r.bad = true
		return false
	}
	rec, id, err := readTrustFile(file, key)
	r.trust = append(r.trust, cacheTrust{path: path, key: key})
	r.deps = append(r.deps, cacheDep{path: file, exists: id != (fileID{}), id: id})
	if err != nil {
		r.bad = true
	}
	return err == nil && rec != nil && bytes.Equal(rec.Content, content)
}

// cacheEntry is what a loading depended on; ok is false when something
// cannot be keyed (a file read with an error other than its absence, one
// whose identity is unknown).
type cacheEntry struct {
	deps  []cacheDep
	trust []cacheTrust
	ok    bool
}

// entry collects what the loading with loc read through reads.
func (r *cacheRecorder) entry(loc policy.Locations, reads *FileCache) cacheEntry {
	e := cacheEntry{deps: r.deps, trust: r.trust, ok: !r.bad}
	for path, f := range reads.Files {
		switch {
		case f.err == nil && f.idOK:
			e.deps = append(e.deps, cacheDep{path: path, exists: true, id: f.id})
		case errors.Is(f.err, fs.ErrNotExist):
			e.deps = append(e.deps, cacheDep{path: path})
		default:
			e.ok = false
		}
	}
	// Claude Code's managed-settings.d is listed when the settings are
	// read: a file added there changes the directory.
	if _, read := reads.Files[loc.ClaudeManaged]; read && loc.ClaudeManaged != "" {
		dir := filepath.Join(filepath.Dir(loc.ClaudeManaged), "managed-settings.d")
		id, err := statID(dir)
		switch {
		case err == nil:
			e.deps = append(e.deps, cacheDep{path: dir, exists: true, id: id})
		case errors.Is(err, fs.ErrNotExist):
			e.deps = append(e.deps, cacheDep{path: dir})
		default:
			e.ok = false
		}
	}
	// The files of the directories policy.HostCodeFiles lists: one added
	// changes the directory.
	for _, dir := range policy.HostCodeDirs(loc) {
		id, err := statID(dir)
		switch {
		case err == nil:
			e.deps = append(e.deps, cacheDep{path: dir, exists: true, id: id})
		case errors.Is(err, fs.ErrNotExist):
			e.deps = append(e.deps, cacheDep{path: dir})
		default:
			e.ok = false
		}
	}
	e.deps = missingDirs(e.deps)
	slices.SortFunc(e.deps, func(a, b cacheDep) int { return strings.Compare(a.path, b.path) })
	return e
}

// missingDirs returns deps with each missing file whose directory is
// missing too recorded as its highest missing directory instead, once:
// the call's check then makes one stat for every file below it (Cursor's,
// Codex's, Gemini's and VS Code's files, in the home directory and the
// project, are two or three to a directory, most directories missing), and
// a directory that appears, which a new file there needs, is a change
// (the cache is not used; the loading records what it finds then). A
// directory that cannot be looked at, or exists, leaves its files as
// they are.
func missingDirs(deps []cacheDep) []cacheDep {
	out := make([]cacheDep, 0, len(deps))
	seen := make(map[string]bool, len(deps))
	missing := map[string]bool{} // directories asked about: missing or not
	for _, d := range deps {
		if !d.exists {
			for {
				dir := filepath.Dir(d.path)
				if dir == d.path || dir == "/" || !filepath.IsAbs(dir) {
					break
				}
				gone, asked := missing[dir]
				if !asked {
					_, err := statID(dir)
					gone = errors.Is(err, fs.ErrNotExist)
					missing[dir] = gone
				}
				if !gone {
					break
				}
				d.path = dir
			}
		}
		if !seen[d.path] {
			seen[d.path] = true
			out = append(out, d)
		}
	}
	return out
}

// settled reports whether every file of e is older than the settle time.
func (s *System) settled(e cacheEntry) bool {
	limit := time.Now().Add(-s.cacheSettle).UnixNano()
	for _, d := range e.deps {
		if d.exists && (d.id.Mtime > limit || d.id.Ctime > limit) {
			return false
		}
	}
	return true
}

// writePolicyCache writes pol, loaded as e says, to key's file, atomically;
// nothing when e cannot be keyed or has not settled. A failure only costs
// the next call a loading.
func (s *System) writePolicyCache(key policyCacheKey, e cacheEntry, timeout time.Duration, pol *policy.Policy) {
	if !e.ok || !s.settled(e) {
		return
	}
	body := binary.AppendUvarint(nil, uint64(len(key.header)))
	body = append(body, key.header...)
	body = binary.AppendUvarint(body, uint64(len(e.deps)))
	for _, d := range e.deps {
		body = binary.AppendUvarint(body, uint64(len(d.path)))
		body = append(body, d.path...)
		if d.exists {
			body = append(body, 1)
			body = appendID(body, d.id)
		} else {
			body = append(body, 0)
		}
	}
	body = binary.AppendUvarint(body, uint64(len(e.trust)))
	for _, t := range e.trust {
		body = binary.AppendUvarint(body, uint64(len(t.path)))
		body = append(body, t.path...)
		body = binary.AppendUvarint(body, uint64(len(t.key)))
		body = append(body, t.key...)
	}
	body = binary.AppendVarint(body, int64(timeout))
	body, err := pol.AppendBinary(body)
	if err != nil {
		return
	}
	h := fnv.New64a()
	h.Write(body)
	out := append([]byte(policyCacheMagic), binary.LittleEndian.AppendUint64(nil, h.Sum64())...)
	out = append(out, body...)
	if err := os.MkdirAll(filepath.Dir(key.file), 0o700); err != nil {
		return
	}
	_ = WriteAtomic(key.file, out, 0o600)
}

// readPolicyCache returns the policy cached for key, and the registration
// timeout cached with it, when the cache file can be trusted and every
// file the policy was loaded from is as it was.
func (s *System) readPolicyCache(key policyCacheKey) (*policy.Policy, time.Duration, bool) {
	data, ok := readCacheFile(s.FS, key.file, s.uid, int64(len(policyCacheMagic))+8, maxPolicyCache)
	if !ok || string(data[:len(policyCacheMagic)]) != policyCacheMagic {
		return nil, 0, false
	}
	data = data[len(policyCacheMagic):]
	sum, body := binary.LittleEndian.Uint64(data), data[8:]
	h := fnv.New64a()
	h.Write(body)
	if h.Sum64() != sum {
		return nil, 0, false
	}
	r := cacheReader{b: body}
	if !bytes.Equal(r.bytes(), key.header) {
		return nil, 0, false
	}
	for n := r.uint(); n > 0 && !r.bad; n-- {
		path := string(r.bytes())
		exists := r.byte() == 1
		var id fileID
		if exists {
			id = r.id()
		}
		if r.bad || !s.unchanged(path, exists, id) {
			return nil, 0, false
		}
	}
	for n := r.uint(); n > 0 && !r.bad; n-- {
		path, key := string(r.bytes()), string(r.bytes())
		if r.bad || s.TrustKey(path) != key {
			return nil, 0, false
		}
	}
	timeout := time.Duration(r.int())
	if r.bad {
		return nil, 0, false
	}
	pol, err := policy.DecodePolicy(r.b)
	if err != nil {
		return nil, 0, false
	}
	return pol, timeout, true
}

// unchanged reports whether the file at path is as a cache recorded it:
// missing, or present with identity id, symbolic links followed.
func (s *System) unchanged(path string, exists bool, id fileID) bool {
	now, err := s.fileID(path)
	if !exists {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err == nil && now == id
}

// fileID is statID asked first of s.FS, the file system the call decides
// on, by lstat: the hook's check of its policy cache and the decision
// look at many of the same names (the self-protected places: .claude,
// .codex, .safezone.yaml, ... of the project and the home directory,
// /etc/safezone), and through the call's MemoFS view each is asked once.
// Only lstat's answers can be shared (the decision resolves links
// itself), and they are stat's, save for a symbolic link: a name lstat
// finds missing (ENOENT) is missing for stat too (both resolve the same
// directories; the last component is missing), and lstat of a file that
// is no link describes the same file stat does. A link (stat answers for
// its target, or that it dangles), any other error of lstat (stat gives
// it its own way), a file whose identity the answer does not hold, and a
// path that is not absolute and clean (no name of the view) are asked of
// stat(2) itself, as before.
func (s *System) fileID(path string) (fileID, error) {
	name, ok := strings.CutPrefix(path, "/")
	if !ok || s.FS == nil || !fs.ValidPath(name) || name == "." {
		return statID(path)
	}
	fi, err := s.FS.Lstat(name)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return fileID{}, err
	case err != nil || fi.Mode()&fs.ModeSymlink != 0:
		return statID(path)
	}
	if id, ok := infoID(fi); ok {
		return id, nil
	}
	return statID(path)
}

// cacheReader reads a cache file's fields; bad turns true, for good, at the
// first one that is not there.
type cacheReader struct {
	b   []byte
	bad bool
}

func (r *cacheReader) fail() { r.bad, r.b = true, nil }

func (r *cacheReader) uint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *cacheReader) bytes() []byte {
	n := r.uint()
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *cacheReader) id() fileID {
	return fileID{Dev: r.uint(), Ino: r.uint(), Size: r.int(), Mtime: r.int(), Ctime: r.int()}
}
