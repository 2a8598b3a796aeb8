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
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

//go:embed policy.example.yaml
var defaultPolicy []byte

// Version is set at build time with -ldflags "-X main.Version=v1.2.3";
// otherwise the module's build information is used.
var Version = ""

// deadline bounds one hook call from start to printed decision. The host's
// own timeout (10 s in hooks.json) would make it ignore the hook, which fails
// open; finishing well before it with a deny fails closed instead.
const deadline = 2 * time.Second

func main() {
	if brokenBuild {
		os.Exit(1)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, osSystem()))
}

// system is everything run takes from the process: tests replace it.
type system struct {
	getenv     func(string) string
	executable string // safezone's own binary, symlinks resolved (self-protection)
	getwd      func() (string, error)
	fsys       fs.ReadLinkFS
	now        func() time.Time
	deadline   time.Duration
}

func osSystem() *system {
	exe, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return &system{
		executable: exe,
		getenv:     os.Getenv,
		getwd:      os.Getwd,
		fsys:       os.DirFS("/").(fs.ReadLinkFS),
		now:        time.Now,
		deadline:   deadline,
	}
}

const usage = `Usage:
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
    safezone version

Options:
    --policy FILE      A policy file layered over the managed, user, project
                       and local policies; repeatable (later files win for
                       scalars, lists merge). With no policy file at all, the
                       built-in default (policy.example.yaml) applies.
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

// options are the parsed command line.
type options struct {
	explain  bool
	json     bool
	policies []string
	flags    *policy.Layer // the flags as the highest policy layer; nil without any
	host     hookio.Host
	warnings []string
}

// run handles one invocation. It always prints a decision (except for help
// and version) and returns the exit status: 0, or 2 for a deny caused by an
// error. It never returns 1, which hosts read as "hook failed, run the tool".
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, sys *system) (code int) {
	// Until the flags are parsed, errors are printed for Claude Code.
	out := &emitter{stdout: stdout, stderr: stderr, host: hookio.Claude{}}
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
		}
	}
	opts, err := parseFlags(args, out.explain)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		out.host = hostOfBadCommandLine(args)
		return out.fail(policy.Deny, fmt.Errorf("bad command line: %w; the hook command is `safezone [flags]` (see safezone --help)", err))
	}
	if opts == nil { // --version
		fmt.Fprintln(stdout, "safezone", version())
		return 0
	}
	out.json = opts.json
	out.host = opts.host
	for _, w := range opts.warnings {
		fmt.Fprintln(stderr, "safezone: "+w)
	}

	// The work runs under a deadline: reading stdin, loading the policy and
	// deciding may all block (a host that never closes stdin, a hung
	// network file system). The worker never prints; only this goroutine
	// does, once, after the audit record (see conclude).
	done := make(chan verdict, 1)
	k := newKnown(opts, sys)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- verdict{err: fmt.Errorf("internal error: %v", v), onError: policy.Decision(k.onError.Load())}
			}
		}()
		done <- decide(stdin, opts, sys, k)
	}()
	timer := time.NewTimer(sys.deadline)
	defer timer.Stop()
	select {
	case v := <-done:
		return conclude(v, k, out, timer.C, stderr, sys)
	case <-timer.C:
		v := verdict{err: fmt.Errorf("no decision within %v (slow file system or stdin never closed)", sys.deadline), onError: policy.Decision(k.onError.Load())}
		grace := time.NewTimer(auditGrace)
		defer grace.Stop()
		return conclude(v, k, out, grace.C, stderr, sys)
	}
}

// verdict is what the worker hands back: a result, or an error with the
// on_error decision that applies to it.
type verdict struct {
	res     *classify.Result
	err     error
	onError policy.Decision
	host    hookio.Host // the host that sent the input, when it differs from --host

	// call is the decoded call (nil when the input was unusable) and input
	// the raw input when it was (for the audit record).
	call  *hookio.Call
	input []byte
}

// decide reads the input, loads the policy and decides.
func decide(stdin io.Reader, opts *options, sys *system, k *known) verdict {
	data, err := hookio.ReadInput(stdin)
	j := &judger{opts: opts, sys: sys, loaded: k.policyLoaded}
	return j.decide(data, err, "")
}

// loadPolicy returns the effective policy: every layer found (see
// policy.LoadLayers), the embedded default when there is none, Claude
// Code's settings, self-protection, and the flags on top.
func loadPolicy(opts *options, projectRoot string, sys *system) (*policy.Policy, error) {
	loc := policy.DefaultLocations(sys.getenv, projectRoot, sys.getenv("HOME"))
	loc.Files = opts.policies
	loc.Executable = sys.executable
	layers, err := policy.LoadLayers(loc, blankComments(defaultPolicy), opts.flags)
	if err != nil {
		return nil, err
	}
	return policy.Merge(layers...), nil
}

// blankComments empties every line of data that holds only a YAML comment,
// keeping the newline so positions stay right. yaml.v3 spends half its time
// on the embedded default's comments; the file has no block scalars, where a
// "#" line would be content (TestEmbeddedDefaultBlanked checks the result is
// the same policy).
func blankComments(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '#' {
			if line[len(line)-1] == '\n' {
				out = append(out, '\n')
			}
			continue
		}
		out = append(out, line...)
	}
	return out
}

// parseFlags parses the command line. It returns nil options for --version
// and pflag.ErrHelp for -h.
func parseFlags(args []string, explain bool) (*options, error) {
	fs := pflag.NewFlagSet("safezone", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	build := policyFlags(fs)
	jsonOut := fs.Bool("json", false, "")
	ver := fs.Bool("version", false, "")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *ver {
		return nil, nil
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (the hook reads its input from stdin)", fs.Arg(0))
	}
	if *jsonOut && !explain {
		return nil, errors.New("--json is only for `safezone explain`")
	}
	o, err := build()
	if err != nil {
		return nil, err
	}
	o.explain, o.json = explain, *jsonOut
	return o, nil
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

// policyFlags declares the flags that shape the policy (--policy, modes,
// --add-dir, --host, --audit, --dry-run) on fs, for the hook and for the
// subcommands that judge calls as it does. The returned function builds the
// options once fs is parsed.
func policyFlags(fs *pflag.FlagSet) func() (*options, error) {
	policies := fs.StringArray("policy", nil, "")
	read := fs.BoolP("read", "r", false, "")
	write := fs.BoolP("write", "w", false, "")
	yes := fs.BoolP("yes", "y", false, "")
	noSandbox := fs.Bool("no-sandbox", false, "")
	agi := fs.Bool("agi", false, "")
	addDirs := fs.StringArray("add-dir", nil, "")
	hostName := fs.String("host", "claude", "")
	auditFile := fs.String("audit", "", "")
	dryRun := fs.Bool("dry-run", false, "")
	return func() (*options, error) {
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
		o := &options{policies: *policies, host: host}
		l := &policy.Layer{Name: "flags"}
		flagPos := func(name string) policy.Pos { return policy.Pos{File: name} }
		switch {
		case *read:
			l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeRead, Pos: flagPos("-r/--read")}
			if *yes {
				o.warnings = append(o.warnings, "-y/--yes is ignored with -r/--read: read mode denies every write")
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

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
		if v != "" {
			return v
		}
	}
	return "(devel)"
}
