package classify_test

import (
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

func ExampleDecide() {
	l, _ := policy.Parse("policy.yaml", []byte("version: 1\nsandbox:\n  outside_write: deny\n"))
	pol := policy.Merge(l)
	// A project with a symlink to a directory outside it.
	fsys := fstest.MapFS{
		"home/u/proj/README.md": {Data: []byte("hi")},
		"home/u/proj/out":       {Mode: fs.ModeSymlink, Data: []byte("/home/u/elsewhere")},
		"home/u/elsewhere":      {Mode: fs.ModeDir},
	}
	call, _ := hookio.DecodeClaude([]byte(`{"tool_name":"Write","cwd":"/home/u/proj",
		"permission_mode":"acceptEdits","tool_input":{"file_path":"out/new.txt","content":"x"}}`))
	r := classify.Decide(call, pol, classify.Env{ProjectDir: "/home/u/proj", Today: "2026-11-22"}, fsys)
	fmt.Println(r.Decision, r.Row)
	fmt.Println(r.Targets[0].Res.Path)
	fmt.Println(r.Reason)
	// Output:
	// deny 6
	// /home/u/elsewhere/new.txt
	// safezone: deny Write "out/new.txt" (resolved /home/u/elsewhere/new.txt): outside the sandbox (/home/u/proj); sandbox.outside_write is deny (policy.yaml:3); write inside the project instead (scratch files under agent_sandbox/2026-11-22/<topic>/), or ask the user to add the directory to sandbox.additional_directories
}
