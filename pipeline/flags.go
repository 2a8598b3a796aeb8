package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// The command line shared by the hook and the Subcommands that judge calls
// as it does (explain, replay, test, policy): the flags that shape the
// policy and the host protocol.

// Options are the parsed command line.
type Options struct {
	args     []string // as given (a key of the policy cache)
	explain  bool
	json     bool
	policies []string
	flags    *policy.Layer // the flags as the highest policy layer; nil without any
	Host     hookio.Host
	Warnings []string
}

// ParseFlags parses the command line. It returns nil options for --version
// and errHelp for -h.
func ParseFlags(args []string, explain bool) (*Options, error) {
	fs := NewFlagSet()
	build := PolicyFlags(fs)
	jsonOut := fs.Bool("json", 0)
	ver := fs.Bool("version", 0)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *ver {
		return nil, nil
	}
	if fs.NArg() > 0 {
		return nil, unexpectedArgument(fs.Arg(0), explain)
	}
	if *jsonOut && !explain {
		return nil, errors.New("--json is only for `safezone explain`")
	}
	o, err := build()
	if err != nil {
		return nil, err
	}
	o.explain, o.json = explain, *jsonOut
	o.args = args
	return o, nil
}

// unexpectedArgument is the error for an argument the hook (or explain)
// does not take; one that looks like a misspelt subcommand says which.
func unexpectedArgument(arg string, explain bool) error {
	if !explain {
		if s := nearest(arg, Subcommands); s != "" {
			return fmt.Errorf("unexpected argument %q (did you mean `safezone %s`? the hook reads its input from stdin)", arg, s)
		}
	}
	return fmt.Errorf("unexpected argument %q (the hook reads its input from stdin)", arg)
}

// hostOfBadCommandLine is the host to answer when the command line cannot
// be parsed: the last --host value if it names a host, so that the deny is
// printed in that host's format (Copilot CLI, for one, ignores a non-zero
// exit); a --host value that names no host gets the answer every host reads
// as a deny ([hookio.EncodeUnknownHost], through auto); no --host at all
// means Claude Code.
func hostOfBadCommandLine(args []string) hookio.Host {
	name, given := "", false
	for i, a := range args {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--host="); ok {
			name, given = v, true
		} else if a == "--host" && i+1 < len(args) {
			name, given = args[i+1], true
		}
	}
	if !given {
		return hookio.Claude{}
	}
	if h, err := hookio.HostByName(name); err == nil {
		return h
	}
	return &hookio.Auto{}
}

// PolicyFlags declares the flags that shape the policy (--policy, modes,
// --add-dir, --host, --audit, --dry-run) on fs, for the hook and for the
// Subcommands that judge calls as it does. The returned function builds the
// options once fs is parsed.
func PolicyFlags(fs *FlagSet) func() (*Options, error) {
	policies := fs.Strings("policy")
	read := fs.Bool("read", 'r')
	write := fs.Bool("write", 'w')
	yes := fs.Bool("yes", 'y')
	noSandbox := fs.Bool("no-sandbox", 0)
	agi := fs.Bool("agi", 0)
	addDirs := fs.Strings("add-dir")
	hostName := fs.String("host", "claude")
	auditFile := fs.String("audit", "")
	dryRun := fs.Bool("dry-run", 0)
	return func() (*Options, error) {
		if *read && *write {
			return nil, errors.New("-r/--read can't be used with -w/--write")
		}
		if *read && *agi {
			return nil, errors.New("-r/--read can't be used with --agi")
		}
		for _, p := range *policies {
			if p == "" {
				return nil, errors.New("--policy needs a file name")
			}
		}
		host, err := hookio.HostByName(*hostName)
		if err != nil {
			return nil, err
		}
		o := &Options{policies: *policies, Host: host}
		l := &policy.Layer{Name: "flags"}
		flagPos := func(name string) policy.Pos { return policy.Pos{File: name} }
		switch {
		case *read:
			l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeRead, Pos: flagPos("-r/--read")}
			if *yes {
				o.Warnings = append(o.Warnings, "-y/--yes is ignored with -r/--read: read mode denies every write")
			}
		case *agi:
			l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeAGI, Pos: flagPos("--agi")}
		case *yes:
			l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeWrite, Pos: flagPos("-y/--yes")}
			l.AutoApprove = &policy.Setting[bool]{Value: true, Pos: flagPos("-y/--yes")}
		case *write:
			l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeWrite, Pos: flagPos("-w/--write")}
		}
		if *noSandbox {
			l.SandboxEnabled = &policy.Setting[bool]{Value: false, Pos: flagPos("--no-sandbox")}
		}
		for _, d := range *addDirs {
			if d == "" || strings.ContainsRune(d, 0) {
				return nil, errors.New("--add-dir needs a directory")
			}
			l.AdditionalDirectories = append(l.AdditionalDirectories, policy.Dir{Path: d, Pos: flagPos("--add-dir")})
		}
		if fs.Changed("audit") {
			a, err := auditFlag(*auditFile)
			if err != nil {
				return nil, err
			}
			l.Audit.Path = &policy.Setting[string]{Value: a, Pos: flagPos("--audit")}
		}
		if *dryRun {
			l.Audit.DryRun = &policy.Setting[bool]{Value: true, Pos: flagPos("--dry-run")}
		}
		if l.Mode != nil || l.AutoApprove != nil || l.SandboxEnabled != nil || len(l.AdditionalDirectories) > 0 || l.Audit != (policy.AuditLayer{}) {
			o.flags = l
		}
		return o, nil
	}
}

// auditFlag checks --audit FILE and makes it absolute (relative to the
// working directory, like --policy).
func auditFlag(path string) (string, error) {
	switch {
	case path == "" || strings.ContainsRune(path, 0):
		return "", errors.New("--audit needs a file name")
	case path == "~" || strings.HasPrefix(path, "~/"):
		return path, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("--audit %s: %w", path, err)
	}
	return abs, nil
}

const Usage = `Usage:
    safezone [flags] < input.json               run as the PreToolUse hook
    safezone explain [--json] [flags] < input.json
                                                show how a call is decided
    safezone validate [FILE...]                 check policy and settings files
    safezone policy [--json] [flags]            show the effective policy
    safezone replay [--json] [flags] TRANSCRIPT.jsonl|DIR...
                                                judge the tool calls of Claude
                                                Code transcripts
    safezone test [-v] [flags] CASES.yaml...    check the policy against cases
    safezone init [--user] [--host NAME] [--dry-run]
                                                write .safezone.yaml and register
                                                the hook
    safezone doctor                             check the set-up
    safezone trust [--revoke] [FILE...]         trust what the project's policy and
                                                settings files widen, or files a
                                                confined command could make; list them
    safezone version

Options:
    --policy FILE      A policy file layered over the managed, user, project
                       and local policies; repeatable (later files win for
                       scalars, lists merge). Every layer adds to the
                       built-in default (policy.example.yaml).
    -r, --read         Read mode: deny every write.
    -w, --write        Write mode (the default): writes inside the sandbox
                       go to the host's prompt.
    -y, --yes          Write mode, and approve writes inside the sandbox.
    --no-sandbox       Do not judge where targets resolve (rules still apply).
    --agi              -y and --no-sandbox; deny rules and protected paths
                       still apply.
    --add-dir DIR      Add a sandbox directory (relative to the project root);
                       repeatable.
    --host NAME        The agent host whose protocol to speak: claude (the
                       default), codex, gemini, copilot, cursor, vscode, or
                       auto (tell it from the input's shape).
    --audit FILE       Append one JSON line per decision to FILE (audit.path).
    --dry-run          Decide and log as usual, but print nothing, so the host
                       decides (audit.dry_run).
    --json             With explain: print one JSON object.
    -h, --help         Show this help.
    --version          Print the version.

Example:
    safezone explain < examples/write-outside.json
    echo '{"tool_name":"Read","tool_input":{"file_path":".env"},"cwd":"'$PWD'"}' | safezone

The hook prints one JSON decision (or nothing, to let the host decide) and
exits 0, or 2 when it denies because something was unusable.
`

// Version is set at build time with -ldflags "-X github.com/safezonehq/safezone/pipeline.Version=v1.2.3";
// otherwise the module's build information is used.
var Version = ""

// BuildVersion is the version --version and `safezone version` print: the
// release's (-ldflags "-X github.com/safezonehq/safezone/pipeline.Version=v1.2.3", as .goreleaser.yaml
// stamps it), the module's (go install github.com/safezonehq/safezone@v1.2.3,
// or the pseudo-version Go derives from the checkout), else the VCS
// revision and whether the tree had uncommitted changes, from the build
// information (debug.ReadBuildInfo); never a bare "(devel)".
func BuildVersion() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel (no build information)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel (built without version control information: go run, a test, or -buildvcs=false)"
	}
	return fmt.Sprintf("devel %s%s (%s)", rev[:min(12, len(rev))], dirty, at)
}

// Subcommands are the words run dispatches on, for suggestions when an
// argument is none of them.
var Subcommands = []string{"explain", "validate", "policy", "replay", "test", "init", "version", "help"}
