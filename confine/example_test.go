package confine_test

import (
	"fmt"
	"os"

	"github.com/safezonehq/safezone/confine"
)

// A hook confining a Bash command: it checks that this system can, builds
// the ruleset from its policy, and answers with the rewritten command (in
// Claude Code's updatedInput). The safezone binary's main dispatches
// confine.Subcommand to confine.Main.
func ExampleRewrite() {
	s := confine.Available()
	if !s.Confine() {
		fmt.Println("not confined:", s.Landlock)
		return
	}
	rs := confine.Ruleset{
		Write:    append([]string{"/home/u/proj", "/tmp"}, confine.Devices()...),
		NoRead:   []string{"/home/u/.ssh", "/home/u/.aws"},
		ReadOnly: []string{"/home/u/proj/.git/hooks", "/home/u/proj/.claude"},
	}.Normalize()
	if s.ReadOnly != nil {
		// Guarded by the analysis alone: say so, and ask the kernel for
		// nothing it cannot do.
		fmt.Println("read-only paths not enforced:", s.ReadOnly)
		rs.ReadOnly = nil
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	command, err := confine.Rewrite("npm test", self, rs)
	if err != nil {
		return // a command that cannot be confined: decide without confining
	}
	fmt.Println(len(command) > 0)
}
