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
	"github.com/safezonehq/safezone/pipeline"
	// Populates the heap a call is about to use in one system call, at
	// start-up, instead of a page fault per page (see its doc).
	_ "github.com/safezonehq/safezone/prefault"
)

func main() {
	// The launcher of a confined command (confine.Main; the command that
	// starts it is written by pipeline/confinement.go): before anything
	// else, and without the hook's set-up.
	if len(os.Args) > 1 && os.Args[1] == confine.Subcommand {
		os.Exit(confine.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	// The index daemon and the fast launcher's build
	// (pipeline/index_daemon.go), likewise.
	if len(os.Args) > 1 && os.Args[1] == pipeline.IndexSubcommand {
		os.Exit(pipeline.IndexMain(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == pipeline.RefusalsSubcommand {
		os.Exit(pipeline.RefusalsMain(os.Args[2:], os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == pipeline.BuildLauncherSubcommand {
		os.Exit(pipeline.BuildLauncherMain(os.Args[2:], os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, pipeline.OSSystem()))
}

// run handles one invocation: it dispatches the subcommands, and hands
// the hook (and explain) to pipeline.Run, which always prints a decision
// and never returns 1 (which hosts read as "hook failed, run the tool"). A
// subcommand's panic is reported on stderr with exit status 2.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, sys *pipeline.System) (code int) {
	if len(args) == 0 {
		return pipeline.Run(args, false, stdin, stdout, stderr, sys)
	}
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "safezone %s: internal error: %v\n", args[0], v)
			code = 2
		}
	}()
	switch args[0] {
	case "version":
		fmt.Fprintln(stdout, "safezone", pipeline.BuildVersion())
		return 0
	case "help":
		fmt.Fprint(stdout, pipeline.Usage)
		return 0
	case "explain":
		return pipeline.Run(args[1:], true, stdin, stdout, stderr, sys)
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
	return pipeline.Run(args, false, stdin, stdout, stderr, sys)
}
