package classify

import (
	"io/fs"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// countingFS counts the Lstat and ReadLink questions asked of a view (one
// system call each on os.DirFS).
type countingFS struct {
	fs.ReadLinkFS
	asked map[string]int // "lstat NAME", "readlink NAME"
}

func (c *countingFS) Lstat(name string) (fs.FileInfo, error) {
	c.asked["lstat "+name]++
	return c.ReadLinkFS.Lstat(name)
}

func (c *countingFS) ReadLink(name string) (string, error) {
	c.asked["readlink "+name]++
	return c.ReadLinkFS.ReadLink(name)
}

// TestDecideLooksOnce checks that Decide asks the file system about each
// name at most once, also when it decides the same call twice on one
// MemoFS view (as the hook does when the kernel cannot confine a shell
// command, after the watch check has looked at the project): a Write (the
// self-protected places are resolved), a Read, a Bash command, each through
// symbolic links.
func TestDecideLooksOnce(t *testing.T) {
	l, err := policy.Parse("policy.example.yaml", mustRead(t, "../policy.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	loc := policy.Locations{ProjectRoot: "/proj", Home: "/home", Managed: "/etc/safezone/policy.yaml",
		User: "/home/.config/safezone/policy.yaml", ClaudeManaged: "/etc/claude-code/managed-settings.json"}
	pol := policy.Merge(l, policy.SelfProtection(loc, nil))
	env := Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}
	spec := append([]string{"proj/in => src", "proj/out => /outside", "home/.claude => /outside/claude", "outside/claude/"}, baseFS...)
	decode := func(in string) *hookio.Call {
		call, err := hookio.DecodeClaude([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		return call
	}
	tests := []struct {
		name string
		call *hookio.Call
	}{
		{"write", decode(`{"tool_name":"Write","cwd":"/proj","permission_mode":"acceptEdits","tool_input":{"file_path":"in/../src/new.go","content":"x"}}`)},
		{"read", decode(`{"tool_name":"Read","cwd":"/proj","tool_input":{"file_path":"/proj/in/main.go"}}`)},
		{"bash", &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: typicalShell, Cwd: "/proj", Writes: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingFS{ReadLinkFS: makefs(spec...), asked: map[string]int{}}
			view := MemoFS(c)
			first := Decide(tt.call, pol, env, view)
			second := Decide(tt.call, pol, env, view)
			if first.Decision != second.Decision || first.Reason != second.Reason {
				t.Fatalf("decided %s, then %s on the same view", first.Decision, second.Decision)
			}
			for q, n := range c.asked {
				if n > 1 {
					t.Errorf("%s asked %d times", q, n)
				}
			}
			if len(c.asked) == 0 {
				t.Fatal("nothing asked")
			}
			t.Logf("%s: %d questions", first.Decision, len(c.asked))
		})
	}
}
