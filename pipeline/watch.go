package pipeline

// The watch list: self-protected files that did not exist when a command
// started confined.
//
// The kernel can keep an existing file read-only (a read-only bind mount in
// the command's mount namespace) but not stop a confined program from
// creating a missing one: Landlock grants by directory, and a bind mount
// needs a file to cover. A program could so create .safezone.local.yaml
// (mode: agi), .mcp.json or a .git with hooks, and change what every later
// call is judged by. So when the hook confines a command it records, per
// project, the self-protected paths that are missing and since when; every
// later hook call in that project fails closed while one of them has
// appeared since then (its inode changed after the command started: ctime),
// until the user has looked at it and run `safezone trust PATH` or deleted
// it. The list lives in the user's state directory, which no confined
// command may write.

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/gitconfig"
	"github.com/safezonehq/safezone/policy"
)

// watchList is one project's file in the state directory.
type watchList struct {
	Project string `json:"project"`
	// Paths maps an absolute path to when a command first started confined
	// while the path was missing.
	Paths map[string]time.Time `json:"paths"`
	// Trusted maps a path the user trusted to when: for trustWindow after
	// that, a change to it counts as appearing again (a program started
	// before it existed, still running, could rewrite it: its mount
	// namespace has no read-only copy of it).
	Trusted map[string]time.Time `json:"trusted,omitempty"`
	// TrustedCode maps a trusted repository (a watched ".git") to what it
	// held that git runs when the user trusted it (repoCode): within
	// trustWindow it counts as appearing again only when that changes,
	// since every git command changes the directory itself.
	TrustedCode map[string]string `json:"trusted_code,omitempty"`
	// Repos are the nested repositories (directories below the sandbox
	// roots that hold a .git) the search of the roots found at ReposAt.
	// One found later that was not there is watched like the project's
	// own .git, from ReposAt on (NoteRepos).
	Repos   []string  `json:"repos,omitempty"`
	ReposAt time.Time `json:"repos_at,omitzero"`
	// Modules are the submodule repositories (.git/modules/NAME) of the
	// project's repository and of Repos at ModulesAt: git submodule
	// update uses one that is there, with its hooks, before the
	// submodule's .git file exists. One found later that was not there is
	// watched like a nested repository.
	Modules   []string  `json:"modules,omitempty"`
	ModulesAt time.Time `json:"modules_at,omitzero"`
}

// TrustWindow is how long a trusted path stays watched for changes.
const TrustWindow = 24 * time.Hour

// maxWatchFile bounds the watch list read on every hook call.
const maxWatchFile = 1 << 20

// StateDir is safezone's directory under $XDG_STATE_HOME, else
// ~/.local/state; "" when neither is an absolute path.
func (s *System) StateDir() string { return policy.StateDir(s.Getenv) }

// WatchPath is the watch list of project (an absolute path): one file per
// project, named by a hash of its path with symlinks resolved (every
// spelling of the project shares one list).
func (s *System) WatchPath(project string) string {
	dir := s.StateDir()
	if dir == "" || project == "" {
		return ""
	}
	if r, err := classify.ResolveDir(s.FS, filepath.Clean(project)); err == nil {
		project = r.Path
	}
	// FNV-1a, not a cryptographic hash (crypto's package initialisation
	// would cost every hook call): two projects whose names collide share a
	// list, which only adds the other's absolute paths to it.
	h := fnv.New64a()
	h.Write([]byte(filepath.Clean(project)))
	return filepath.Join(dir, "watch", hex.EncodeToString(h.Sum(nil))+".json")
}

// ReadWatch reads the watch list at p; a missing file is an empty list.
func (s *System) ReadWatch(p string) (*watchList, error) {
	w := &watchList{Paths: map[string]time.Time{}}
	if p == "" {
		return w, nil
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return w, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxWatchFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxWatchFile {
		return nil, fmt.Errorf("%s is over %d bytes", p, maxWatchFile)
	}
	if err := json.Unmarshal(data, w); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if w.Paths == nil {
		w.Paths = map[string]time.Time{}
	}
	return w, nil
}

// watchError is the error of a watched path that appeared: not a failure
// of safezone, so its reason does not say "fails closed on errors".
type watchError struct{ msg string }

func (e *watchError) Error() string { return e.msg }

// WatchMargin is how far before a command's start a watched path's ctime
// may lie and still count as made after it: file systems stamp times at
// the clock tick, up to a few milliseconds behind time.Now.
const WatchMargin = 2 * time.Second

// CheckWatch returns an error naming each path of project's watch list that
// has appeared since a command started confined while it was missing.
func (s *System) CheckWatch(project string) error { return s.checkWatch(project, false) }

// checkWatch is CheckWatch; with placeholders, a watched path that is an
// empty file or an empty directory does not count as appeared: Claude
// Code's own sandbox (when on) makes one at each path it keeps read-only
// that does not exist (.mcp.json, .vscode, ...: the mount point of its
// stand-in) while a command of it runs, a background one included. Empty,
// it changes nothing any program reads as code or settings; filled later,
// it counts.
func (s *System) checkWatch(project string, placeholders bool) error {
	p := s.WatchPath(project)
	w, err := s.ReadWatch(p)
	if err != nil {
		return fmt.Errorf("the list of files confined commands could create is unreadable: %w; delete it to go on", err)
	}
	var appeared, repos []string
	code := map[string][]string{}
	for path, since := range w.Paths {
		if w.repo(path) {
			// A repository counts by what git would run from it: `git
			// init` or `git clone` by the agent is ordinary work. Not by
			// its change time: one made where no search looks
			// (node_modules) and moved here keeps its .git's.
			if items := RepoCode(s, w, path); len(items) > 0 {
				repos, code[path] = append(repos, path), items
			}
			continue
		}
		changed, ok := s.ChangedAt(path)
		if !ok || changed.Before(since.Add(-WatchMargin)) {
			continue
		}
		if !(placeholders && s.empty(path)) {
			appeared = append(appeared, path)
		}
	}
	now := s.Now()
	for path, at := range w.Trusted {
		if now.Sub(at) > TrustWindow {
			continue
		}
		if _, watched := w.Paths[path]; watched {
			continue
		}
		changed, ok := s.ChangedAt(path)
		switch {
		case w.repo(path):
			// By what it runs, as above: the time of the .git is not
			// that of what it holds.
			if items, fp := s.repoCode(w, path); len(items) > 0 && fp != w.TrustedCode[path] {
				repos, code[path] = append(repos, path), items
				w.Paths[path] = at
			}
		case !ok || !changed.After(at):
		default:
			appeared = append(appeared, path)
			w.Paths[path] = at
		}
	}
	if len(appeared) == 0 && len(repos) == 0 {
		return nil
	}
	sort.Strings(appeared)
	sort.Strings(repos)
	var msgs []string
	if len(appeared) > 0 {
		msgs = append(msgs, fmt.Sprintf("%s appeared after a command ran confined (%s): a program the agent ran may have made it, and it changes what safezone or the host allows",
			strings.Join(appeared, ", "), w.Paths[appeared[0]].Format(time.RFC3339)))
	}
	for _, r := range repos {
		items := code[r]
		if len(items) > 5 {
			items = append(items[:5:5], fmt.Sprintf("%d more", len(code[r])-5))
		}
		msgs = append(msgs, fmt.Sprintf("the git repository %s was made or changed after a command ran confined (%s) and holds what git would run outside the sandbox (%s): a program the agent ran may have put it there, and the user's git, or a git command they approve, would run it",
			r, w.Paths[r].Format(time.RFC3339), strings.Join(items, "; ")))
	}
	all := slices.Concat(appeared, repos)
	return &watchError{fmt.Sprintf("%s, so every call here is denied. Ask the user to look at it; if it is theirs, they run `safezone trust %s`, else they delete it",
		strings.Join(msgs, "; "), strings.Join(all, " "))}
}

// IsRepo reports whether the watched path is a repository's ".git": judged
// by what git would run from it (RepoCode), not by its appearing.
func IsRepo(path string) bool { return filepath.Base(path) == ".git" }

// IsRepoIn is IsRepo, or a submodule repository w lists (Modules): a
// path of w judged by what git would run from it.
func IsRepoIn(w *watchList, path string) bool { return w.repo(path) }

func (w *watchList) repo(path string) bool {
	return IsRepo(path) || slices.Contains(w.Modules, path)
}

// RepoCode lists what the repository whose ".git" is at path (absolute)
// holds that git would run (gitconfig.Code), read through s's file
// system; nothing for a path that is no repository's. A linked worktree's
// common directory is judged on its own where it is the .git of the
// project of w, or of a nested repository w lists (the user's, or
// watched itself).
//
// Where path does not exist and its directory is a repository itself
// (gitconfig.IsGitDir: HEAD, objects, refs), git run there takes that
// directory, before any .git above it: its items are listed, prefixed
// with what it is.
func RepoCode(s *System, w *watchList, path string) []string {
	items, _ := repoCodeFiles(s, w, path)
	return items
}

// repoCodeFiles is RepoCode, and the files the items come from
// (gitconfig.CodeFiles).
func repoCodeFiles(s *System, w *watchList, path string) (items, files []string) {
	if !w.repo(path) {
		return nil, nil
	}
	elsewhere := func(common string) bool {
		return common == filepath.Join(w.Project, ".git") || slices.ContainsFunc(w.Repos, func(r string) bool { return common == filepath.Join(r, ".git") })
	}
	if top, _, ok := strings.Cut(path, "/.git/modules/"); ok && !IsRepo(path) {
		// A submodule's repository: its work tree is in top's.
		return gitconfig.ModuleCodeFiles(s.FS, path, top)
	}
	dir := filepath.Dir(path)
	if _, err := s.FS.Lstat(strings.TrimPrefix(path, "/")); err == nil || !gitconfig.IsGitDir(s.FS, dir) {
		return gitconfig.CodeFiles(s.FS, path, elsewhere)
	}
	items, files = gitconfig.CodeFiles(s.FS, dir, elsewhere)
	for i, it := range items {
		items[i] = dir + " is a repository itself (HEAD, objects, refs; git run there takes it before any .git above): " + it
	}
	return items, files
}

// repoCode is the fingerprint of what the repository at path (a watched
// .git) holds that git runs: the items gitconfig.Code lists, and each
// file they come from with when it last changed (its inode's ctime,
// which no program can set back): a program rewritten in place, or a
// configuration value changed past what an item shows, changes it too.
func (s *System) repoCode(w *watchList, path string) (items []string, fingerprint string) {
	items, files := repoCodeFiles(s, w, path)
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it)
		b.WriteByte('\n')
	}
	for _, f := range files {
		b.WriteString(f)
		if c, ok := s.ChangedAt(f); ok {
			b.WriteString(" " + c.UTC().Format(time.RFC3339Nano))
		}
		b.WriteByte('\n')
	}
	return items, b.String()
}

// empty reports whether path (not followed) is an empty regular file or
// an empty directory.
func (s *System) empty(path string) bool {
	name := strings.TrimPrefix(filepath.Clean(path), "/")
	fi, err := s.FS.Lstat(name)
	switch {
	case err != nil:
		return false
	case fi.Mode().IsRegular():
		return fi.Size() == 0
	case fi.IsDir():
		ents, err := fs.ReadDir(s.FS, name)
		return err == nil && len(ents) == 0
	}
	return false
}

// ChangedAt is when the inode at path (not followed) last changed, and
// whether it exists.
func (s *System) ChangedAt(path string) (time.Time, bool) {
	fi, err := s.FS.Lstat(strings.TrimPrefix(filepath.Clean(path), "/"))
	if err != nil {
		return time.Time{}, false
	}
	return inodeChanged(fi), true
}

// RecordWatch adds missing (absolute paths) to project's watch list, each
// with the time now unless it is already there (the earliest start counts:
// a program of an earlier command may still run).
func (s *System) RecordWatch(project string, missing []string) error {
	if len(missing) == 0 {
		return nil
	}
	p := s.WatchPath(project)
	if p == "" {
		return errors.New("no state directory: set HOME or XDG_STATE_HOME")
	}
	w, err := s.ReadWatch(p)
	if err != nil {
		return err
	}
	now := s.Now()
	added := false
	for _, m := range missing {
		if _, ok := w.Paths[m]; !ok {
			w.Paths[m] = now
			added = true
		}
	}
	if !added {
		return nil
	}
	w.Project = project
	return writeWatch(p, w)
}

// NoteRepos records repos, the nested repositories a search of project's
// sandbox roots found (absolute directories, index.Found.Repos), in its
// watch list, and returns the .git of each that it did not list before:
// from then on each is watched (Paths, since the previous note), and so
// judged by what git would run from it (checkWatch), like the project's
// own .git. The first note of a list only records them: a repository that
// was there before any command ran confined is the user's. With create
// false it notes nothing where no note was made yet (no command ran
// confined in the project since safezone noted repositories).
func (s *System) NoteRepos(project string, repos []string, create bool) ([]string, error) {
	p := s.WatchPath(project)
	if p == "" {
		return nil, errors.New("no state directory: set HOME or XDG_STATE_HOME")
	}
	w, err := s.ReadWatch(p)
	if err != nil {
		return nil, err
	}
	if w.ReposAt.IsZero() && !create {
		return nil, nil
	}
	now := s.Now()
	var added []string
	if !w.ReposAt.IsZero() {
		for _, r := range repos {
			if g := filepath.Join(r, ".git"); !slices.Contains(w.Repos, r) {
				if _, ok := w.Paths[g]; !ok {
					w.Paths[g] = w.ReposAt
				}
				added = append(added, g)
			}
		}
	}
	mods, err := s.gitModules(append([]string{project}, repos...))
	if err != nil {
		return nil, err
	}
	if !w.ModulesAt.IsZero() {
		for _, m := range mods {
			if !slices.Contains(w.Modules, m) {
				if _, ok := w.Paths[m]; !ok {
					w.Paths[m] = w.ModulesAt
				}
				added = append(added, m)
			}
		}
	}
	known := slices.Sorted(slices.Values(repos))
	if slices.Equal(known, w.Repos) && !w.ReposAt.IsZero() && slices.Equal(mods, w.Modules) && !w.ModulesAt.IsZero() {
		return nil, nil
	}
	// A repository removed and made again counts as new: it is no longer
	// listed once a search does not find it.
	w.Repos, w.ReposAt, w.Project = known, now, project
	w.Modules, w.ModulesAt = mods, now
	return added, writeWatch(p, w)
}

// Bounds of gitModules: git submodule names nest (a/b), and submodules
// have their own (modules/x/modules/y).
const (
	maxModules     = 1024
	maxModuleDepth = 8
)

// gitModules returns, sorted, the submodule repositories git keeps in
// the .git directory of each of dirs (work trees): DIR/.git/modules/NAME,
// NAME possibly several levels (a directory without a config or HEAD is
// one level of a name), and their own modules below them. Each is a path
// IsRepoIn accepts once listed. Past maxModules, or maxModuleDepth levels, it is an
// error: one left out would not be judged.
func (s *System) gitModules(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		if fi, err := s.FS.Lstat(strings.TrimPrefix(filepath.Join(d, ".git"), "/")); err == nil && fi.IsDir() {
			if err := s.moduleDirs(filepath.Join(d, ".git", "modules"), 0, &out); err != nil {
				return nil, err
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func (s *System) moduleDirs(dir string, depth int, out *[]string) error {
	if depth > maxModuleDepth {
		return fmt.Errorf("%s: submodule repositories nested deeper than %d levels", dir, maxModuleDepth)
	}
	ents, err := fs.ReadDir(s.FS, strings.TrimPrefix(dir, "/"))
	if err != nil {
		return nil // none, or unreadable to git too
	}
	for _, e := range ents {
		if len(*out) >= maxModules {
			return fmt.Errorf("over %d submodule repositories in %s", maxModules, dir)
		}
		p := filepath.Join(dir, e.Name())
		has := func(n string) bool { _, err := s.FS.Lstat(strings.TrimPrefix(p+"/"+n, "/")); return err == nil }
		if e.IsDir() && !has("config") && !has("HEAD") {
			// A level of a name.
			if err := s.moduleDirs(p, depth+1, out); err != nil {
				return err
			}
			continue
		}
		*out = append(*out, p)
		if e.IsDir() {
			if err := s.moduleDirs(p+"/modules", depth+1, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeWatch replaces the watch list at p atomically.
func writeWatch(p string, w *watchList) error {
	data, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return WriteAtomic(p, append(data, '\n'), 0o600)
}

// Trust removes paths (absolute, clean) from every watch list and returns
// the ones it found.
func (s *System) Trust(paths []string) ([]string, error) {
	dir := s.StateDir()
	if dir == "" {
		return nil, errors.New("no state directory: set HOME or XDG_STATE_HOME")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "watch", "*.json"))
	var found []string
	for _, f := range files {
		w, err := s.ReadWatch(f)
		if err != nil {
			return found, err
		}
		changed := false
		now := s.Now()
		for p, at := range w.Trusted {
			if now.Sub(at) > TrustWindow {
				delete(w.Trusted, p)
				delete(w.TrustedCode, p)
				changed = true
			}
		}
		for _, p := range paths {
			_, watched := w.Paths[p]
			_, trusted := w.Trusted[p]
			if !watched && !trusted {
				continue
			}
			delete(w.Paths, p)
			if w.Trusted == nil {
				w.Trusted = map[string]time.Time{}
			}
			// Trusted as it is now: a later change appears again.
			w.Trusted[p] = now
			if c, ok := s.ChangedAt(p); ok && c.After(now) {
				w.Trusted[p] = c
			}
			if w.repo(p) {
				if w.TrustedCode == nil {
					w.TrustedCode = map[string]string{}
				}
				_, w.TrustedCode[p] = s.repoCode(w, p)
			}
			changed = true
			if !slices.Contains(found, p) {
				found = append(found, p)
			}
		}
		if !changed {
			continue
		}
		if len(w.Paths) == 0 && len(w.Trusted) == 0 {
			err = os.Remove(f)
		} else {
			err = writeWatch(f, w)
		}
		if err != nil {
			return found, err
		}
	}
	return found, nil
}
