package pipeline

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/safezonehq/safezone/policy"
)

// The hook's own registration: how long the host lets it run, read from
// the Claude Code settings that loading the policy read anyway.

// FileCache reads policy and settings files for policy.Locations.ReadFile
// and remembers each answer, so that the hook can look at the settings
// again without another system call. One hook call uses one.
type FileCache struct {
	Files map[string]CachedFile
}

type CachedFile struct {
	Data []byte
	err  error
	// id is the file's identity when it was read, if idOK (the policy
	// cache's key).
	id   fileID
	idOK bool
}

func NewFileCache() *FileCache { return &FileCache{Files: map[string]CachedFile{}} }

// read is policy.ReadCapped, remembered with the file's identity.
func (c *FileCache) read(path string) ([]byte, error) {
	if f, ok := c.Files[path]; ok {
		return f.Data, f.err
	}
	data, id, idOK, err := readWithID(path)
	c.Files[path] = CachedFile{Data: data, err: err, id: id, idOK: idOK}
	return data, err
}

// ownTimeout is the timeout of the hook registration that (most likely)
// started this process, the binary exe: the smallest timeout among the
// PreToolUse command hooks that run safezone in the files already read
// (policy.HookTimeouts finds them in the files named as Claude Code's
// settings files are, see claudeSettingsName, and in nothing else; Claude Code runs every matching hook, each under its own
// timeout, and safezone cannot tell which one it is). It reports false when
// no read file registers one: settings not read (host_settings: false),
// another host, or the plugin (whose hooks/hooks.json is not a settings
// file; it registers 10 s).
func ownTimeout(reads *FileCache, exe string) (time.Duration, bool) {
	ours := RunsSafezone(exe)
	var best time.Duration
	for path, f := range reads.Files {
		if f.err != nil || !claudeSettingsName(path) {
			continue
		}
		for _, t := range policy.HookTimeouts(f.Data, ours) {
			if best == 0 || t < best {
				best = t
			}
		}
	}
	return best, best > 0
}

// claudeSettingsName reports whether path is named as a Claude Code
// settings file is (settings.json, settings.local.json,
// managed-settings.json, managed-settings.d/*.json): the loading also
// reads the other hosts' files, for what they run (policy.HostCodeFiles),
// and Codex's hooks.json has Claude Code's form.
func claudeSettingsName(path string) bool {
	switch filepath.Base(path) {
	case "settings.json", "settings.local.json", "managed-settings.json":
		return true
	}
	return filepath.Base(filepath.Dir(path)) == "managed-settings.d"
}

// RunsSafezone returns whether a hook command runs this binary, judged by
// its first word alone, without looking at the file system: that word is
// exe, or a program of exe's name (or "safezone") found on PATH or by a
// path. A wrong guess only moves the deadline between the registrations'
// timeouts.
func RunsSafezone(exe string) func(command string) bool {
	return func(command string) bool {
		words := strings.Fields(command)
		if len(words) == 0 {
			return false
		}
		prog := strings.Trim(words[0], `"'`)
		base := filepath.Base(prog)
		return prog == exe || base == "safezone" || (exe != "" && base == filepath.Base(exe))
	}
}
