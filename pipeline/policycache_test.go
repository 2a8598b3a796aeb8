package pipeline

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
	"github.com/safezonehq/safezone/policy"
)

// cacheSettleForTest is the settle time of the cache tests: long enough for
// a timestamp to tick (a jiffy), short enough to wait out (settle).
const cacheSettleForTest = 30 * time.Millisecond

// settle waits until every file written so far is older than the settle
// time, so that the next call writes the cache.
func settle() { time.Sleep(cacheSettleForTest + 20*time.Millisecond) }

// cacheFiles lists the policy cache files under the system's state
// directory.
func cacheFiles(t *testing.T, sys *System) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(sys.StateDir(), "cache", "policy-*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// editCall returns a function that runs the hook on an Edit of path in
// acceptEdits mode and returns its decision and stdout.
func editCall(t *testing.T, sys *System, dir, path string) func() (string, string) {
	input, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": dir + "/proj", "permission_mode": "acceptEdits",
		"tool_input": map[string]any{"file_path": path, "old_string": "a", "new_string": "b"}})
	return func() (string, string) {
		t.Helper()
		r := runHook(t, sys, bytes.NewReader(input))
		return r.decision, r.stdout
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPolicyCacheFollowsLayers: a layer added, changed (to the same size)
// or removed is seen on the next call, cached or not, for each layer kind;
// so is a trust record written or revoked. Each step is judged from the
// cache once settled (the cache file must exist), and the answers are
// those of a call that reads the files.
func TestPolicyCacheFollowsLayers(t *testing.T) {
	sys, dir := testSystem(t)
	sys.cacheSettle = cacheSettleForTest
	write(t, dir+"/proj/src/main.go", "package main\n")
	call := editCall(t, sys, dir, dir+"/proj/src/main.go")
	// check runs the call before and after the cache settles, and with no
	// cache at all: each must answer want.
	check := func(step, want string) {
		t.Helper()
		if got, out := call(); got != want {
			t.Fatalf("%s: %s, want %s (first call after the change): %s", step, got, want, out)
		}
		settle()
		call() // writes the cache
		if len(cacheFiles(t, sys)) != 1 {
			t.Fatalf("%s: cache files %v, want one", step, cacheFiles(t, sys))
		}
		if got, out := call(); got != want {
			t.Fatalf("%s: %s, want %s (from the cache): %s", step, got, want, out)
		}
		nocache := *sys
		nocache.cacheSettle = 0
		if got, _ := runEdit(t, &nocache, dir); got != want {
			t.Fatalf("%s: %s without a cache, want %s", step, got, want)
		}
	}
	check("no layer file", "allow")
	layers := []struct{ name, path, deny, other string }{
		{"project", dir + "/proj/.safezone.yaml", "version: 1\npaths:\n  protected: [\"src/**\"]\n", "version: 1\npaths:\n  protected: [\"doc/**\"]\n"},
		{"local", dir + "/proj/.safezone.local.yaml", "version: 1\npaths:\n  protected: [\"src/**\"]\n", "version: 1\npaths:\n  protected: [\"doc/**\"]\n"},
		{"user", dir + "/xdg/safezone/policy.yaml", "version: 1\npaths:\n  protected: [\"src/**\"]\n", "version: 1\npaths:\n  protected: [\"doc/**\"]\n"},
		{"managed", dir + "/etc/safezone/policy.yaml", "version: 1\npaths:\n  protected: [\"src/**\"]\n", "version: 1\npaths:\n  protected: [\"doc/**\"]\n"},
		{"project settings", dir + "/proj/.claude/settings.json", `{"permissions":{"deny":["Edit(src/**)"]}}`, `{"permissions":{"deny":["Edit(doc/**)"]}}`},
		{"user settings", dir + "/home/.claude/settings.json", `{"permissions":{"deny":["Edit(src/**)"]}}`, `{"permissions":{"deny":["Edit(doc/**)"]}}`},
		{"managed settings", dir + "/etc/claude-code/managed-settings.json", `{"permissions":{"deny":["Edit(src/**)"]}}`, `{"permissions":{"deny":["Edit(doc/**)"]}}`},
		{"managed settings.d", dir + "/etc/claude-code/managed-settings.d/a.json", `{"permissions":{"deny":["Edit(src/**)"]}}`, `{"permissions":{"deny":["Edit(doc/**)"]}}`},
		// Files that register code the host runs: what they run is
		// self-protected (policy.HostCodeFiles).
		{"hook script", dir + "/proj/.claude/settings.local.json", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"bash src/main.go"}]}]}}`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"bash doc/main.go"}]}]}}`},
		{"MCP server", dir + "/proj/.mcp.json", `{"mcpServers":{"a":{"command":"node","args":["src/main.go"]}}}`, `{"mcpServers":{"a":{"command":"node","args":["doc/main.go"]}}}`},
		{"local MCP server", dir + "/home/.claude.json", `{"projects":{"` + dir + `/proj":{"mcpServers":{"a":{"command":"./src/main.go"}}}}}`, `{"projects":{"` + dir + `/proj":{"mcpServers":{"a":{"command":"./doc/main.go"}}}}}`},
		{"VS Code task", dir + "/proj/.vscode/tasks.json", `{"tasks":[{"type":"shell","command":"sh src/main.go"}]}`, `{"tasks":[{"type":"shell","command":"sh doc/main.go"}]}`},
		{"Copilot hook", dir + "/proj/.github/hooks/x.json", `{"hooks":{"preToolUse":[{"bash":"src/main.go"}]}}`, `{"hooks":{"preToolUse":[{"bash":"doc/main.go"}]}}`},
		{"Codex MCP server", dir + "/home/.codex/config.toml", "[mcp_servers.a]\ncommand = \"src/main.go\"\n", "[mcp_servers.a]\ncommand = \"doc/main.go\"\n"},
		{"Codex hook", dir + "/home/.codex/hooks.json", `{"hooks":{"PreToolUse":[{"hooks":[{"command":"src/main.go"}]}]}}`, `{"hooks":{"PreToolUse":[{"hooks":[{"command":"doc/main.go"}]}]}}`},
	}
	for _, l := range layers {
		if len(l.deny) != len(l.other) {
			t.Fatalf("%s: the change must keep the size", l.name)
		}
		write(t, l.path, l.deny)
		check(l.name+" added", "deny")
		write(t, l.path, l.other)
		check(l.name+" changed", "allow")
		write(t, l.path, l.deny)
		check(l.name+" changed back", "deny")
		if err := os.Remove(l.path); err != nil {
			t.Fatal(err)
		}
		check(l.name+" removed", "allow")
	}
}

// runEdit is one call of editCall's Edit of src/main.go on sys.
func runEdit(t *testing.T, sys *System, dir string) (string, string) {
	return editCall(t, sys, dir, dir+"/proj/src/main.go")()
}

// TestPolicyCacheTrust: what a repository's file widens applies once
// trusted and stops when the trust is revoked, through the cache as
// without it.
func TestPolicyCacheTrust(t *testing.T) {
	sys, dir := testSystem(t)
	sys.cacheSettle = cacheSettleForTest
	call := editCall(t, sys, dir, dir+"/outside/notes.txt")
	check := func(step, want string) {
		t.Helper()
		for i := range 3 {
			if got, out := call(); got != want {
				t.Fatalf("%s (call %d): %s, want %s: %s", step, i, got, want, out)
			}
			if i == 0 {
				settle()
			}
		}
		if len(cacheFiles(t, sys)) != 1 {
			t.Fatalf("%s: cache files %v, want one", step, cacheFiles(t, sys))
		}
	}
	check("no project file", "deny")
	file := dir + "/proj/.safezone.yaml"
	content := "version: 1\nsandbox:\n  additional_directories: [\"../outside\"]\n"
	write(t, file, content)
	check("an untrusted widening", "deny")
	if err := sys.RecordTrust(file, []byte(content)); err != nil {
		t.Fatal(err)
	}
	check("trusted", "allow")
	if ok, err := sys.RevokeTrust(file); !ok || err != nil {
		t.Fatal(ok, err)
	}
	check("revoked", "deny")
	if err := sys.RecordTrust(file, []byte(content)); err != nil {
		t.Fatal(err)
	}
	check("trusted again", "allow")
	// The project reached through a symbolic link: its files' trust record
	// goes by the resolved directory, as without the cache.
	if err := os.Symlink(dir+"/proj", dir+"/link"); err != nil {
		t.Fatal(err)
	}
	linked := *sys
	linked.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "CLAUDE_PROJECT_DIR": dir + "/link"})
	// A second checkout holding the same file (a hard link: the same
	// identity) but never trusted.
	if err := os.MkdirAll(dir+"/proj2/src", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(file, dir+"/proj2/.safezone.yaml"); err != nil {
		t.Fatal(err)
	}
	settle()
	for range 3 {
		if got, out := editCall(t, &linked, dir, dir+"/outside/notes.txt")(); got != "allow" {
			t.Fatalf("through a link: %s: %s", got, out)
		}
		settle()
	}
	// The link now leads to the other checkout: every file the cache
	// depends on is as it was (the same policy file, the same missing
	// ones), but the trust record goes by another name.
	if err := os.Remove(dir + "/link"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/proj2", dir+"/link"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if got, out := editCall(t, &linked, dir, dir+"/outside/notes.txt")(); got != "deny" {
			t.Fatalf("through a link to an untrusted checkout: %s: %s", got, out)
		}
		settle()
	}
}

// TestPolicyCacheIgnoresDamage: a cache file that holds another policy is
// obeyed (the test can tell the cache from the files); the same file
// truncated, with a byte changed, writable by others, of another owner,
// behind a symbolic link, or made for another key is ignored, never
// obeyed, and rewritten.
func TestPolicyCacheIgnoresDamage(t *testing.T) {
	sys, dir := testSystem(t)
	sys.cacheSettle = cacheSettleForTest
	write(t, dir+"/proj/src/main.go", "package main\n")
	settle()
	if got, _ := runEdit(t, sys, dir); got != "allow" {
		t.Fatalf("got %s, want allow", got)
	}
	files := cacheFiles(t, sys)
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	cache := files[0]
	good, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	// forged is the cache as it is but holding a policy that protects
	// src/: what a hit on it answers tells the cache from the files.
	forged := forgeCache(t, good, func(p *policy.Policy) {
		pat, err := policy.CompilePattern("src/**", policy.Pos{File: "forged"})
		if err != nil {
			t.Fatal(err)
		}
		p.Protected = append(p.Protected, pat)
	})
	place := func(data []byte, perm os.FileMode) {
		t.Helper()
		os.Remove(cache)
		if err := os.WriteFile(cache, data, perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(cache, perm); err != nil {
			t.Fatal(err)
		}
	}
	place(forged, 0o600)
	if got, _ := runEdit(t, sys, dir); got != "deny" {
		t.Fatalf("a sound cache file is not read: %s, want deny", got)
	}
	otherKey := append([]byte{}, forged...)
	i := bytes.Index(otherKey, []byte(dir+"/proj"))
	otherKey[i+len(dir)+1] = 'q' // ".../qroj": another project's key
	otherKey = forgeCache(t, otherKey, func(*policy.Policy) {})
	damaged := map[string]func(){
		"truncated":         func() { place(forged[:len(forged)-1], 0o600) },
		"a byte changed":    func() { f := append([]byte{}, forged...); f[len(f)-3] ^= 0xff; place(f, 0o600) },
		"empty":             func() { place(nil, 0o600) },
		"writable by group": func() { place(forged, 0o620) },
		"writable by all":   func() { place(forged, 0o606) },
		"another key":       func() { place(otherKey, 0o600) },
		"a symbolic link": func() {
			place(forged, 0o600)
			os.Rename(cache, cache+".real")
			os.Symlink(cache+".real", cache)
		},
		"another layout": func() {
			f := append([]byte{}, forged...)
			copy(f, "safezone policy cache 0")
			place(f, 0o600)
		},
	}
	if os.Getuid() == 0 {
		damaged["another owner"] = func() { place(forged, 0o600); os.Lchown(cache, 1, 1) }
	}
	for name, damage := range damaged {
		damage()
		if got, out := runEdit(t, sys, dir); got != "allow" {
			t.Errorf("%s: %s, want allow (the cache obeyed): %s", name, got, out)
		}
		if b, err := os.ReadFile(cache); err != nil || !bytes.Equal(b, good) {
			t.Errorf("%s: the cache file was not rewritten (err %v)", name, err)
		}
		os.Remove(cache + ".real")
	}
}

// forgeCache returns a cache file's data with its policy changed by edit
// and its checksum made right.
func forgeCache(t *testing.T, data []byte, edit func(*policy.Policy)) []byte {
	t.Helper()
	body := data[len(policyCacheMagic)+8:]
	r := cacheReader{b: body}
	r.bytes()
	for n := r.uint(); n > 0; n-- {
		r.bytes()
		if r.byte() == 1 {
			r.id()
		}
	}
	for n := r.uint(); n > 0; n-- {
		r.bytes()
		r.bytes()
	}
	r.int()
	if r.bad {
		t.Fatal("cannot read the cache file")
	}
	pol, err := policy.DecodePolicy(r.b)
	if err != nil {
		t.Fatal(err)
	}
	edit(pol)
	out := append([]byte{}, body[:len(body)-len(r.b)]...)
	if out, err = pol.AppendBinary(out); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write(out)
	return append(binary.LittleEndian.AppendUint64([]byte(policyCacheMagic), h.Sum64()), out...)
}

// TestPolicyCacheKeysFlagsAndEnvironment: another flag, or another
// location of a layer, is another cache entry.
func TestPolicyCacheKeysFlagsAndEnvironment(t *testing.T) {
	sys, dir := testSystem(t)
	sys.cacheSettle = cacheSettleForTest
	write(t, dir+"/proj/src/main.go", "package main\n")
	write(t, dir+"/ro.yaml", "version: 1\nmode: read\n")
	settle()
	input, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Edit", "cwd": dir + "/proj", "permission_mode": "acceptEdits",
		"tool_input": map[string]any{"file_path": dir + "/proj/src/main.go", "old_string": "a", "new_string": "b"}})
	for i := range 2 {
		for _, c := range []struct {
			args []string
			want string
		}{{nil, "allow"}, {[]string{"-r"}, "deny"}, {[]string{"--policy", dir + "/ro.yaml"}, "deny"}, {nil, "allow"}} {
			if r := runHook(t, sys, bytes.NewReader(input), c.args...); r.decision != c.want {
				t.Errorf("round %d, args %q: %s, want %s", i, c.args, r.decision, c.want)
			}
		}
	}
	if n := len(cacheFiles(t, sys)); n != 3 {
		t.Errorf("%d cache files, want 3 (one per command line)", n)
	}
	other := *sys
	other.Getenv = func(k string) string {
		if k == "SAFEZONE_MANAGED_POLICY" {
			return dir + "/ro.yaml"
		}
		return sys.Getenv(k)
	}
	for range 2 {
		if r := runHook(t, &other, bytes.NewReader(input)); r.decision != "deny" {
			t.Errorf("another managed policy: %s, want deny", r.decision)
		}
	}
	if got, _ := runEdit(t, sys, dir); got != "allow" {
		t.Errorf("back to the first: %s, want allow", got)
	}
}

// TestPolicyCacheMissingDirs: missing files below a missing directory are
// recorded as the highest missing directory, once; a missing file in a
// directory that exists, and the files that exist, as they are. And a
// cache so recorded is not used once the directory appears, empty.
func TestPolicyCacheMissingDirs(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/there/kept.json", "{}")
	id, err := statID(dir + "/there/kept.json")
	if err != nil {
		t.Fatal(err)
	}
	got := missingDirs([]cacheDep{
		{path: dir + "/gone/deeper/a.json"}, {path: dir + "/gone/b.json"}, {path: dir + "/there/c.json"},
		{path: dir + "/there/kept.json", exists: true, id: id}, {path: dir + "/gone"},
	})
	want := []cacheDep{{path: dir + "/gone"}, {path: dir + "/there/c.json"}, {path: dir + "/there/kept.json", exists: true, id: id}}
	if len(got) != len(want) {
		t.Fatalf("missingDirs = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("missingDirs[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}

	// Through the hook: the home's .cursor is missing, so the cache holds
	// it, not its two files; an empty .cursor made later is a change.
	sys, root := testSystem(t)
	sys.cacheSettle = cacheSettleForTest
	write(t, root+"/proj/src/main.go", "package main\n")
	call := editCall(t, sys, root, root+"/proj/src/main.go")
	call()
	settle()
	call() // writes the cache
	files := cacheFiles(t, sys)
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(root+"/home/.cursor\x00")) || bytes.Contains(data, []byte(root+"/home/.cursor/")) {
		t.Fatalf("the cache does not record %s/home/.cursor alone, in place of its files", root)
	}
	before, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(root+"/home/.cursor", 0o755); err != nil {
		t.Fatal(err)
	}
	settle()
	call() // reads the files again, and rewrites the cache
	after, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().After(before.ModTime()) {
		t.Error("the cache was used after the missing directory it recorded appeared")
	}
}
