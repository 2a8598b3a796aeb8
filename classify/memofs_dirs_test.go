package classify

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// countFS counts the Lstat calls per name and the directories read.
type countFS struct {
	fstest.MapFS
	lstats map[string]int
	reads  map[string]int
}

func (c *countFS) Lstat(name string) (fs.FileInfo, error) {
	c.lstats[name]++
	return c.MapFS.Lstat(name)
}

func (c *countFS) ReadDir(name string) ([]fs.DirEntry, error) {
	c.reads[name]++
	return c.MapFS.ReadDir(name)
}

// lookupFS is a file system whose directories cannot be read: every name
// is looked up by itself (as before directory reads).
type lookupFS struct{ m fstest.MapFS }

func (l lookupFS) Open(name string) (fs.File, error)      { return l.m.Open(name) }
func (l lookupFS) Lstat(name string) (fs.FileInfo, error) { return l.m.Lstat(name) }
func (l lookupFS) ReadLink(name string) (string, error)   { return l.m.ReadLink(name) }
func (l lookupFS) ReadDir(string) ([]fs.DirEntry, error)  { return nil, fs.ErrPermission }

// selfProtected is the reference policy with the self-protection layer of
// a project /proj and a home /home, and an audit log.
func selfProtected(t *testing.T) *policy.Policy {
	loc := policy.Locations{ProjectRoot: "/proj", Home: "/home", User: "/home/.config/safezone/policy.yaml",
		Managed: "/etc/safezone/policy.yaml", ClaudeManaged: "/etc/claude-code/managed-settings.json",
		Executable: "/opt/bin/safezone", State: "/home/.local/state/safezone"}
	return policy.Merge(mustLayer(t, "ref.yaml", refPolicy), policy.SelfProtection(loc, nil))
}

// TestSelfProtectionReadsDirectories: the self-protected names of the
// project root and the home directory, most of them missing, are found
// by reading each directory once instead of looking up each name; every
// decision is the one the lookups give, whatever the names are (missing,
// files, symbolic links out of the project, directories, a spelling in
// another case), and a name the directory holds is still looked up.
func TestSelfProtectionReadsDirectories(t *testing.T) {
	pol := selfProtected(t)
	fixtures := map[string][]string{
		"nothing of safezone's": nil,
		"links out of the project": {"elsewhere/", "elsewhere/local.yaml", "elsewhere/claude/", "elsewhere/codex/",
			"proj/.safezone.local.yaml => /elsewhere/local.yaml", "proj/.claude => /elsewhere/claude", "proj/.codex => ../elsewhere/codex",
			"home/.gemini => /elsewhere", "home/.claude.json => /elsewhere/claude.json"},
		"files and directories": {"proj/.safezone.yaml", "proj/.claude/settings.json", "proj/hooks/", "proj/.github/hooks/a.json",
			"home/.codex/hooks.json", "home/.config/safezone/policy.yaml", "home/.local/state/safezone/trust/x.json"},
		"another case":    {"elsewhere/", "proj/.CLAUDE => /elsewhere", "proj/.Safezone.yaml", "proj/.CURSOR/"},
		"a dangling link": {"proj/hooks.json => /nowhere/hooks.json", "proj/.mcp.json => missing.json"},
	}
	targets := []string{
		"/proj/src/main.go", "/proj/.safezone.yaml", "/proj/.safezone.local.yaml", "/proj/.claude/settings.json",
		"/elsewhere/local.yaml", "/elsewhere/claude/settings.json", "/elsewhere/codex/x", "/elsewhere/claude.json",
		"/elsewhere/settings.json", "/nowhere/hooks.json", "/proj/missing.json", "/home/.codex/hooks.json",
		"/proj/.CLAUDE/settings.json", "/proj/docs/a.md",
	}
	for name, extra := range fixtures {
		t.Run(name, func(t *testing.T) {
			m := makefs(append(append([]string{}, baseFS...), extra...)...)
			for _, target := range targets {
				for _, tool := range []string{"Write", "Edit"} {
					in := `{"tool_name":"` + tool + `","cwd":"/proj","permission_mode":"bypassPermissions","tool_input":{"file_path":"` + target + `","content":"x","old_string":"a","new_string":"b"}}`
					call, err := hookio.DecodeClaude([]byte(in))
					if err != nil {
						t.Fatal(err)
					}
					env := Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}
					c := &countFS{MapFS: m, lstats: map[string]int{}, reads: map[string]int{}}
					got := Decide(call, pol, env, c)
					want := Decide(call, pol, env, lookupFS{m})
					if got.Decision != want.Decision || got.Row != want.Row || got.Reason != want.Reason {
						t.Errorf("%s %s: %s (row %d) %q reading directories, %s (row %d) %q looking names up",
							tool, target, got.Decision, got.Row, got.Reason, want.Decision, want.Row, want.Reason)
					}
					if c.reads["proj"] != 1 || c.reads["home"] != 1 {
						t.Errorf("%s %s: directories read %v, want proj and home once", tool, target, c.reads)
					}
					// A name the project holds is looked up; a missing
					// one is not (but a spelling in another case is),
					// unless the target's own path goes through it.
					for _, n := range []string{".mcp.json", ".cursor", ".safezone.yaml", ".claude", ".safezone.local.yaml"} {
						if target == "/proj/"+n || strings.HasPrefix(target, "/proj/"+n+"/") {
							continue
						}
						_, err := m.Lstat("proj/" + n)
						folded := false
						for k := range m {
							folded = folded || (strings.EqualFold(k, "proj/"+n) && k != "proj/"+n)
						}
						if looked := c.lstats["proj/"+n] > 0; looked != (err == nil || folded) {
							t.Errorf("%s %s: proj/%s looked up %d times (exists: %v)", tool, target, n, c.lstats["proj/"+n], err == nil)
						}
					}
				}
			}
		})
	}
}

// TestSelfProtectionKnownNamesNotRead: where the view already holds
// answers for the self-protected names of a directory (the hook's policy
// cache check asks about most of them through the decision's view), the
// directory is read only while listDirMin or more of the names are still
// unknown; each decision is still the one the lookups give, whatever the
// names are, and each name is asked once.
func TestSelfProtectionKnownNamesNotRead(t *testing.T) {
	pol := selfProtected(t)
	fixtures := map[string][]string{
		"nothing of safezone's": nil,
		"links out of the project": {"elsewhere/", "elsewhere/local.yaml", "elsewhere/claude/", "elsewhere/codex/",
			"proj/.safezone.local.yaml => /elsewhere/local.yaml", "proj/.claude => /elsewhere/claude", "proj/.codex => ../elsewhere/codex",
			"home/.gemini => /elsewhere", "home/.claude.json => /elsewhere/claude.json", "proj/hooks => /elsewhere"},
		"files and directories": {"proj/.safezone.yaml", "proj/.claude/settings.json", "proj/hooks/", "proj/.github/hooks/a.json",
			"home/.codex/hooks.json", "home/.config/safezone/policy.yaml", "home/.local/state/safezone/trust/x.json"},
		"a dangling link": {"proj/hooks.json => /nowhere/hooks.json", "proj/.mcp.json => missing.json", "home/.cursor => /nowhere"},
	}
	// The names the policy cache asks about: the files and directories the
	// policy is loaded from (see pipeline's policycache.go), as the hook's
	// check does before the decision; and a few only.
	cacheNames := []string{"home/.claude", "home/.claude.json", "home/.codex", "home/.config", "home/.copilot", "home/.cursor",
		"home/.gemini", "proj/.claude", "proj/.codex", "proj/.cursor", "proj/.gemini", "proj/.github", "proj/.mcp.json",
		"proj/.safezone.local.yaml", "proj/.safezone.yaml", "proj/.vscode", "etc/safezone", "etc/claude-code"}
	few := []string{"proj/.claude", "proj/.safezone.yaml", "home/.claude"}
	targets := []string{
		"/proj/src/main.go", "/proj/.safezone.yaml", "/proj/.safezone.local.yaml", "/proj/.claude/settings.json",
		"/elsewhere/local.yaml", "/elsewhere/claude/settings.json", "/elsewhere/codex/x", "/elsewhere/claude.json",
		"/elsewhere/settings.json", "/nowhere/hooks.json", "/proj/missing.json", "/home/.codex/hooks.json",
		"/elsewhere/hooks.json", "/nowhere/x", "/proj/hooks/x.json", "/proj/docs/a.md",
	}
	for name, extra := range fixtures {
		for _, asked := range [][]string{cacheNames, few} {
			m := makefs(append(append([]string{}, baseFS...), extra...)...)
			for _, target := range targets {
				in := `{"tool_name":"Write","cwd":"/proj","permission_mode":"bypassPermissions","tool_input":{"file_path":"` + target + `","content":"x"}}`
				call, err := hookio.DecodeClaude([]byte(in))
				if err != nil {
					t.Fatal(err)
				}
				env := Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}
				c := &countFS{MapFS: m, lstats: map[string]int{}, reads: map[string]int{}}
				view := MemoFS(c)
				for _, n := range asked {
					_, _ = view.Lstat(n)
				}
				got := Decide(call, pol, env, view)
				want := Decide(call, pol, env, lookupFS{m})
				if got.Decision != want.Decision || got.Row != want.Row || got.Reason != want.Reason {
					t.Errorf("%s, %d names known, %s: %s (row %d) %q, %s (row %d) %q looking names up",
						name, len(asked), target, got.Decision, got.Row, got.Reason, want.Decision, want.Row, want.Reason)
				}
				for q, n := range c.lstats {
					if n > 1 {
						t.Errorf("%s, %d names known, %s: %s asked %d times", name, len(asked), target, q, n)
					}
				}
				// With the cache's names known, one name of the home
				// directory and three of the project are left: looked up,
				// not read; with a few, the project (a dozen names) is
				// read.
				if len(asked) == len(cacheNames) && (c.reads["proj"] != 0 || c.reads["home"] != 0) {
					t.Errorf("%s, the cache's names known, %s: directories read %v, want none", name, target, c.reads)
				}
				if len(asked) < len(cacheNames) && c.reads["proj"] != 1 {
					t.Errorf("%s, %d names known, %s: directories read %v, want proj once", name, len(asked), target, c.reads)
				}
			}
		}
	}
}

// TestAbsentFromLeavesDoubtToLstat: a directory too large to read, one
// that cannot be read, and names that are not plain ASCII are left to
// Lstat.
func TestAbsentFromLeavesDoubtToLstat(t *testing.T) {
	m := makefs("big/a", "small/a", "small/caf\u00e9")
	m["big"] = &fstest.MapFile{Mode: fs.ModeDir | 0o755, Data: make([]byte, listDirMaxSize+1)}
	memo := newMemoFS(m)
	memo.absentFrom("big", []string{"x"})
	memo.absentFrom("small", []string{"y", "café", "a"})
	memo.absentFrom("nosuch", []string{"z"})
	for name, known := range map[string]bool{"big/x": false, "small/y": true, "small/café": false, "small/a": false, "nosuch/z": false} {
		if _, ok := memo.lstat[name]; ok != known {
			t.Errorf("%s: answered by the directory read: %v, want %v", name, ok, known)
		}
	}
	if _, err := memo.Lstat("small/y"); !notExist(err) {
		t.Errorf("small/y: %v, want does not exist", err)
	}
}
