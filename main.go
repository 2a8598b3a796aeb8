// Safezone is a PreToolUse hook that keeps AI coding agents inside the part of
// the disk their user meant them to touch.
//
// The host (Claude Code) runs it once per tool call with the call as JSON on
// stdin. Safezone finds every path the call reads or writes, resolves each as
// the kernel would (symlinks, new files, ".."), judges it against the policy
// (sandbox roots, path classes, deny/ask/allow rules, modes) and prints the
// decision: allow, ask, deny, or nothing (the host decides).
//
// Usage:
//
//	safezone [flags] < input.json          the hook
//	safezone explain [--json] [flags] < input.json
//	safezone replay [--json] [flags] TRANSCRIPT.jsonl|DIR...
//	safezone test [-v] [flags] CASES.yaml...
//	safezone version
//
// Every error (bad input, a bad flag, an unusable policy, a panic, a slow
// file system) still prints a well-formed decision: on_error, deny by default,
// with exit status 2 for a deny.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

func main() {
	// The launcher of a confined command (see confinement.go): before
	// anything else, and without the hook's set-up.
	if len(os.Args) > 1 && os.Args[1] == confine.Subcommand {
		os.Exit(confine.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	// The index daemon (index_daemon.go), likewise.
	if len(os.Args) > 1 && os.Args[1] == indexSubcommand {
		os.Exit(cmdIndex(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == buildLauncherSubcommand {
		os.Exit(cmdBuildLauncher(os.Args[2:], os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, osSystem()))
}

// run handles one invocation: it dispatches the subcommands and is the one
// exit path of the hook. For the hook (and explain) it always prints a
// decision, whatever fails, a panic included, and returns the exit status:
// 0, or 2 for a deny caused by an error. It never returns 1, which hosts
// read as "hook failed, run the tool".
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, sys *system) (code int) {
	// Until the flags are parsed, errors are printed for Claude Code.
	out := &emitter{stdout: stdout, stderr: stderr, host: hookio.Claude{}, home: sys.getenv("HOME")}
	defer func() {
		if v := recover(); v != nil {
			code = out.fail(policy.Deny, fmt.Errorf("internal error: %v", v))
		}
	}()
	if len(args) > 0 {
		switch args[0] {
		case "version":
			fmt.Fprintln(stdout, "safezone", version())
			return 0
		case "help":
			fmt.Fprint(stdout, usage)
			return 0
		case "explain":
			out.explain = true
			args = args[1:]
		case "validate":
			return cmdValidate(args[1:], stdout, stderr, sys)
		case "policy":
			return cmdPolicy(args[1:], stdout, stderr, sys)
		case "replay":
			return cmdReplay(args[1:], stdout, stderr, sys)
		case "test":
			return cmdTest(args[1:], stdout, stderr, sys)
		case "init":
			return cmdInit(args[1:], stdout, stderr, sys)
		case "doctor":
			return cmdDoctor(args[1:], stdout, stderr, sys)
		case "trust":
			return cmdTrust(args[1:], stdout, stderr, sys)
		}
	}
	return hook(args, stdin, out, sys)
}

// subcommands are the words run dispatches on, for suggestions when an
// argument is none of them.
var subcommands = []string{"explain", "validate", "policy", "replay", "test", "init", "version", "help"}
