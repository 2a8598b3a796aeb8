package pipeline

// How the host runs a call, beyond what its hook input says. Codex CLI
// sends a permission_mode that only says whether its approval policy is
// "never", and nothing of its sandbox; Gemini CLI and Copilot CLI send no
// mode at all, and cannot show an ask in a headless run (copilot -p). Both start the hook as a child of
// their own process (through `sh -c`), so the hook reads that process's
// command line and the host's settings files. What it cannot see: a mode
// changed while the session runs (Codex's /approvals and /permissions,
// Gemini's Shift+Tab), which the command line and the files do not show.

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// hostRun is what the hook found out about how the host runs the call.
// The zero value is "nothing found": the input's permission_mode stands.
type hostRun struct {
	// mode is the permission mode the call runs under, in Claude Code's
	// terms (does a person look at a call before it runs), when modeFrom
	// says where it was found; with modeFrom "" the input's stands.
	mode     hookio.PermissionMode
	modeFrom string
	// noAsk says why no person can answer an ask in this session ("" when
	// one can): an ask is then answered deny, with that reason.
	noAsk string
	// sandbox names the host's own sandbox the command runs in, where user
	// namespaces are not available ("" when it runs in none).
	sandbox string
}

// maxAncestors bounds the walk up the process tree from the hook: the host
// starts it through `sh -c COMMAND`, and a wrapper or two (env, timeout,
// a recording script) may stand between.
const maxAncestors = 8

// proc is one ancestor of the hook's process, as /proc shows it.
type proc struct {
	pid  int
	argv []string
}

// hostRun finds out how the host runs call (see hostRun), for the hosts
// that need it: codex, gemini and copilot. project is the project root; call is
// nil for an input that could not be decoded (whether an ask can be shown
// still matters for on_error: ask).
func (s *System) hostRun(call *hookio.Call, host hookio.Host, project string) hostRun {
	switch host.Name() {
	case "codex":
		if call == nil {
			call = &hookio.Call{}
		}
		return s.codexRun(call, project)
	case "gemini":
		return s.geminiRun(project)
	case "copilot":
		return s.copilotRun()
	}
	return hostRun{}
}

// ancestors returns the hook process's ancestors, nearest first, up to
// maxAncestors and not init (pid 1), read from /proc (proc(5): the fourth
// field of /proc/PID/stat is the parent's pid; /proc/PID/cmdline holds
// the NUL-separated arguments). Nothing where /proc cannot be read.
func (s *System) ancestors() []proc {
	var out []proc
	pid := s.pid
	for range maxAncestors {
		if pid <= 1 {
			break
		}
		b, err := fs.ReadFile(s.FS, "proc/"+strconv.Itoa(pid)+"/stat")
		if err != nil {
			break
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		fields := strings.Fields(string(b[i+1:]))
		if i < 0 || len(fields) < 2 {
			break
		}
		ppid, err := strconv.Atoi(fields[1])
		if err != nil || ppid <= 1 {
			break
		}
		cmdline, _ := fs.ReadFile(s.FS, "proc/"+strconv.Itoa(ppid)+"/cmdline")
		argv := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
		out = append(out, proc{pid: ppid, argv: argv})
		pid = ppid
	}
	return out
}

// isTerminal reports whether descriptor fd of process p is a terminal
// (its /proc/PID/fd link names /dev/pts/N, /dev/ttyN or /dev/tty).
func (s *System) isTerminal(p proc, fd int) bool {
	t, err := s.FS.ReadLink("proc/" + strconv.Itoa(p.pid) + "/fd/" + strconv.Itoa(fd))
	return err == nil && (strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty"))
}

// findHost returns the nearest ancestor that runs the program name, and
// that program's arguments: a native binary of that name (Codex's
// vendored codex), or node running a script of that name, or name.js
// (npm's bin link; Gemini CLI relaunches itself as a node child). Only
// shells and command wrappers (passThrough) may stand between it and the
// hook: a hook started by anything else (a test binary, a script run in a
// host's session) was not started by the host, and nothing is found.
func findHost(ancestors []proc, name string) (proc, []string, bool) {
	for _, p := range ancestors {
		if len(p.argv) == 0 {
			return proc{}, nil, false
		}
		base := path.Base(p.argv[0])
		if base == name {
			return p, p.argv[1:], true
		}
		if base == "node" || base == "nodejs" {
			for i, a := range p.argv[1:] {
				if strings.HasPrefix(a, "-") {
					continue // node's own options
				}
				if b := path.Base(a); b == name || b == name+".js" {
					return p, p.argv[i+2:], true
				}
				break
			}
		}
		if !passThrough[strings.TrimPrefix(base, "-")] {
			return proc{}, nil, false
		}
	}
	return proc{}, nil, false
}

// passThrough are the programs a host's hook command may run safezone
// through: the shells hosts run hook commands with (sh -c), and
// wrappers that exec their command.
var passThrough = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "busybox": true,
	"env": true, "timeout": true, "nice": true, "nohup": true, "stdbuf": true, "setsid": true, "time": true,
}

// Codex CLI (0.171.0, `codex --help`, `codex exec --help`, and the
// header `codex exec` prints: "approval: never", "sandbox: ...").

// codexValueFlags are the Codex options that take a value, by every
// spelling; the rest take none.
var codexValueFlags = map[string]bool{
	"-c": true, "--config": true, "--enable": true, "--disable": true, "--remote": true,
	"--remote-auth-token-env": true, "-i": true, "--image": true, "-m": true, "--model": true,
	"--local-provider": true, "-p": true, "--profile": true, "-s": true, "--sandbox": true,
	"-C": true, "--cd": true, "--add-dir": true, "--thread-source": true,
	"--cyber-access-program": true, "--output-schema": true, "--color": true,
	"-o": true, "--output-last-message": true, "-a": true, "--ask-for-approval": true,
}

// codexArgs is what a Codex command line says about approvals and the
// sandbox.
type codexArgs struct {
	sub          string            // the subcommand ("exec", "review", ...); "" for the TUI
	bypass       bool              // --dangerously-bypass-approvals-and-sandbox (--yolo)
	approveForMe bool              // --approve-for-me: the workspace-write sandbox
	trust        bool              // --trust
	ignoreUser   bool              // --ignore-user-config
	sandbox      string            // -s
	approval     string            // -a
	profile      string            // -p
	cd           string            // -C
	config       map[string]string // -c key=value, the value as written
}

// parseCodexArgs reads Codex's options (long ones also as --name=value,
// short ones also as -sVALUE) and its subcommand, the first word that is
// not an option. Options after the subcommand count as well (exec takes
// the same ones).
func parseCodexArgs(args []string) codexArgs {
	a := codexArgs{config: map[string]string{}}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			break
		}
		name, value, hasValue := arg, "", false
		switch {
		case strings.HasPrefix(arg, "--"):
			name, value, hasValue = strings.Cut(arg, "=")
		case strings.HasPrefix(arg, "-") && len(arg) > 2 && codexValueFlags[arg[:2]]:
			name, value, hasValue = arg[:2], strings.TrimPrefix(arg[2:], "="), true
		case !strings.HasPrefix(arg, "-"):
			if a.sub == "" {
				a.sub = arg
			}
			continue
		}
		if codexValueFlags[name] && !hasValue {
			if i+1 >= len(args) {
				break
			}
			i++
			value = args[i]
		}
		switch name {
		case "--dangerously-bypass-approvals-and-sandbox", "--yolo":
			a.bypass = true
		case "--approve-for-me":
			a.approveForMe = true
		case "--trust":
			a.trust = true
		case "--ignore-user-config":
			a.ignoreUser = true
		case "-s", "--sandbox":
			a.sandbox = value
		case "-a", "--ask-for-approval":
			a.approval = value
		case "-p", "--profile":
			a.profile = value
		case "-C", "--cd":
			a.cd = value
		case "-c", "--config":
			if k, v, ok := strings.Cut(value, "="); ok {
				a.config[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return a
}

// codexConfig is the part of a Codex config.toml the hook reads. An
// approval_policy that is not a string (a granular table) reads as
// "granular".
type codexConfig struct {
	SandboxMode    string                 `toml:"sandbox_mode"`
	ApprovalPolicy any                    `toml:"approval_policy"`
	Profile        string                 `toml:"profile"`
	Profiles       map[string]codexConfig `toml:"profiles"`
	Projects       map[string]struct {
		Trust string `toml:"trust_level"`
	} `toml:"projects"`
}

func (c codexConfig) approval() string {
	switch v := c.ApprovalPolicy.(type) {
	case nil:
		return ""
	case string:
		return v
	}
	return "granular"
}

// readCodexConfig reads one Codex config file; a missing, unreadable or
// malformed one is empty, whatever its valid part says (Codex itself
// refuses to start on a malformed one).
func (s *System) readCodexConfig(file string) codexConfig {
	var c codexConfig
	b, err := fs.ReadFile(s.FS, strings.TrimPrefix(file, "/"))
	if err != nil || toml.Unmarshal(b, &c) != nil {
		return codexConfig{}
	}
	return c
}

// setting is one value of a layered setting and the place it came from.
type setting struct{ value, from string }

// firstSet returns the first of ss with a value.
func firstSet(ss ...setting) setting {
	for _, s := range ss {
		if s.value != "" {
			return s
		}
	}
	return setting{}
}

// when returns v if cond holds, else "".
func when(cond bool, v string) string {
	if cond {
		return v
	}
	return ""
}

// tomlString reads a -c value: TOML (a quoted string), else the text as
// it is (Codex's own fallback).
func tomlString(v string) string {
	var x struct{ V string }
	if err := toml.Unmarshal([]byte("V = "+v), &x); err == nil {
		return x.V
	}
	return strings.Trim(v, `"'`)
}

// codexRun finds how Codex runs the call: its approval policy and sandbox,
// from the command line of the codex process the hook descends from and
// its config files (highest first: the command line's options and -c, the
// -p profile's $CODEX_HOME/NAME.config.toml, the project's
// .codex/config.toml once the project is trusted, $CODEX_HOME/config.toml
// and its [profiles.NAME]; then Codex's defaults: approval on-request,
// and the workspace-write sandbox in a trusted project, read-only
// elsewhere). `codex exec` and `codex review` never ask.
//
// The mode, in Claude Code's terms: under approval never and on-request
// (on-failure too) Codex runs every command without a person's look, in
// its sandbox when there is one (on-request asks only when the model
// requests to leave the sandbox): bypassPermissions. Under untrusted or
// a granular policy it asks: default. A permission_mode of
// bypassPermissions in the input is approval never at that moment.
func (s *System) codexRun(call *hookio.Call, project string) hostRun {
	_, args, ok := findHost(s.ancestors(), "codex")
	if !ok {
		return hostRun{}
	}
	a := parseCodexArgs(args)
	loc := policy.DefaultLocations(s.Getenv, project, s.Getenv("HOME"))
	var user codexConfig
	if !a.ignoreUser && loc.CodexHome != "" {
		user = s.readCodexConfig(filepath.Join(loc.CodexHome, "config.toml"))
	}
	trusted := a.trust
	for dir, pr := range user.Projects {
		if pr.Trust == "trusted" && (dir == project || strings.HasPrefix(project, strings.TrimSuffix(dir, "/")+"/")) {
			trusted = true
		}
	}
	var proj, prof codexConfig
	if trusted && project != "" {
		proj = s.readCodexConfig(filepath.Join(project, ".codex", "config.toml"))
	}
	profName := firstSet(setting{a.profile, ""}, setting{tomlString(a.config["profile"]), ""}, setting{proj.Profile, ""}, setting{user.Profile, ""}).value
	legacy := user.Profiles[profName]
	if profName != "" && loc.CodexHome != "" {
		prof = s.readCodexConfig(filepath.Join(loc.CodexHome, profName+".config.toml"))
	}
	cmd := "codex"
	if a.sub != "" {
		cmd += " " + a.sub
	}
	sandbox := firstSet(
		setting{when(a.bypass, "danger-full-access"), "--dangerously-bypass-approvals-and-sandbox"},
		setting{a.sandbox, "-s " + a.sandbox},
		setting{when(a.approveForMe, "workspace-write"), "--approve-for-me"},
		setting{tomlString(a.config["sandbox_mode"]), "-c sandbox_mode"},
		setting{prof.SandboxMode, profName + ".config.toml"},
		setting{proj.SandboxMode, ".codex/config.toml"},
		setting{legacy.SandboxMode, "[profiles." + profName + "] of config.toml"},
		setting{user.SandboxMode, "config.toml"},
	)
	if sandbox.value == "" {
		sandbox = setting{"read-only", "Codex's default in an untrusted project"}
		if trusted {
			sandbox = setting{"workspace-write", "Codex's default in a trusted project"}
		}
	}
	approval := firstSet(
		setting{when(a.bypass, "never"), "--dangerously-bypass-approvals-and-sandbox"},
		setting{when(a.sub == "exec" || a.sub == "e" || a.sub == "review", "never"), cmd + " never asks"},
		setting{a.approval, "-a " + a.approval},
		setting{tomlString(a.config["approval_policy"]), "-c approval_policy"},
		setting{prof.approval(), profName + ".config.toml"},
		setting{proj.approval(), ".codex/config.toml"},
		setting{legacy.approval(), "[profiles." + profName + "] of config.toml"},
		setting{user.approval(), "config.toml"},
		setting{"on-request", "Codex's default"},
	)
	if call.PermissionMode == hookio.PermBypass && approval.value != "never" {
		approval = setting{"never", "the input's permission_mode bypassPermissions"}
	}
	r := hostRun{mode: hookio.PermBypass}
	switch approval.value {
	case "never", "on-request", "on-failure":
	default:
		r.mode = hookio.PermDefault
	}
	r.modeFrom = cmd + ": approval " + approval.value + " (" + approval.from + "), sandbox " + sandbox.value + " (" + sandbox.from + ")"
	if sandbox.value != "danger-full-access" {
		r.sandbox = "Codex's " + sandbox.value + " sandbox (" + sandbox.from + ")"
	}
	return r
}

// Gemini CLI (0.61.0, its bundled gemini.js: parseArguments, loadCliConfig,
// isHeadlessMode).

// geminiValueFlags are the Gemini CLI options that take a value.
var geminiValueFlags = map[string]bool{
	"-m": true, "--model": true, "-p": true, "--prompt": true, "-i": true, "--prompt-interactive": true,
	"-w": true, "--worktree": true, "--approval-mode": true, "--policy": true, "--admin-policy": true,
	"--allowed-mcp-server-names": true, "--allowed-tools": true, "-e": true, "--extensions": true,
	"-r": true, "--resume": true, "--session-file": true, "--session-id": true, "--delete-session": true,
	"--include-directories": true, "-o": true, "--output-format": true, "--fake-responses": true,
	"--fake-responses-non-strict": true, "--record-responses": true,
}

// geminiArgs is what a Gemini CLI command line says about the approval
// mode and whether the run is interactive.
type geminiArgs struct {
	approval    string // --approval-mode, or "yolo" for -y/--yolo
	prompt      bool   // -p/--prompt
	interactive bool   // -i/--prompt-interactive, --acp, --experimental-acp
	query       bool   // a positional prompt
}

func parseGeminiArgs(args []string) geminiArgs {
	var a geminiArgs
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			a.query = a.query || i+1 < len(args)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			a.query = true
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		if geminiValueFlags[name] && !hasValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch name {
		case "-y", "--yolo":
			if value != "false" && a.approval == "" {
				a.approval = "yolo"
			}
		case "--approval-mode":
			a.approval = value
		case "-p", "--prompt":
			a.prompt = true
		case "-i", "--prompt-interactive", "--acp", "--experimental-acp":
			a.interactive = true
		}
	}
	return a
}

// geminiRun finds how Gemini CLI runs the call: its approval mode (the
// command line's --approval-mode or -y, else general.defaultApprovalMode
// of the project's .gemini/settings.json, then the user's, which may not
// set yolo; else default) and whether the run is headless, where an ask
// waits for an answer that never comes (Gemini's isHeadlessMode: CI=true
// or GITHUB_ACTIONS=true in its environment, which the hook inherits,
// stdin or stdout not a terminal, -p, or a positional prompt; -i, --acp
// and --experimental-acp are interactive).
//
// The mode, in Claude Code's terms: yolo bypassPermissions, auto_edit
// acceptEdits, plan plan, default default.
func (s *System) geminiRun(project string) hostRun {
	p, args, ok := findHost(s.ancestors(), "gemini")
	if !ok {
		return hostRun{}
	}
	a := parseGeminiArgs(args)
	approval := setting{a.approval, "its command line"}
	if approval.value == "" {
		for _, f := range []setting{{filepath.Join(project, ".gemini", "settings.json"), ".gemini/settings.json"},
			{filepath.Join(s.Getenv("HOME"), ".gemini", "settings.json"), "~/.gemini/settings.json"}} {
			if v := s.geminiDefaultApproval(f.value); v != "" && v != "yolo" {
				approval = setting{v, "general.defaultApprovalMode in " + f.from}
				break
			}
		}
	}
	if approval.value == "" {
		approval = setting{"default", "Gemini CLI's default"}
	}
	r := hostRun{modeFrom: "gemini: approval mode " + approval.value + " (" + approval.from + ")"}
	switch approval.value {
	case "yolo":
		r.mode = hookio.PermBypass
	case "auto_edit":
		r.mode = hookio.PermAcceptEdits
	case "plan":
		r.mode = hookio.PermPlan
	}
	ci := s.Getenv("GEMINI_CLI_INTEGRATION_TEST") != "true" && (s.Getenv("CI") == "true" || s.Getenv("GITHUB_ACTIONS") == "true")
	switch {
	case a.interactive:
	case ci:
		r.noAsk = "Gemini CLI in a headless run (CI=true)"
	case a.prompt:
		r.noAsk = "Gemini CLI in a headless run (gemini -p)"
	case a.query:
		r.noAsk = "Gemini CLI in a headless run (a prompt on its command line)"
	case !s.isTerminal(p, 0) || !s.isTerminal(p, 1):
		r.noAsk = "Gemini CLI in a headless run (its stdin or stdout is not a terminal)"
	}
	return r
}

// geminiDefaultApproval reads general.defaultApprovalMode from a Gemini
// settings file (JSON with comments); "" when it is missing or unreadable.
func (s *System) geminiDefaultApproval(file string) string {
	var st struct {
		General struct {
			DefaultApprovalMode string `json:"defaultApprovalMode"`
		} `json:"general"`
	}
	if !s.readJSONC(file, &st) {
		return ""
	}
	return st.General.DefaultApprovalMode
}

// readJSONC decodes the settings file at the absolute path file (JSON with
// comments and trailing commas, as Gemini CLI's and Copilot CLI's are)
// into v; false when it is missing, unreadable or not that.
func (s *System) readJSONC(file string, v any) bool {
	b, err := fs.ReadFile(s.FS, strings.TrimPrefix(file, "/"))
	if err != nil {
		return false
	}
	val, err := hujson.Parse(b)
	if err != nil {
		return false
	}
	val.Standardize()
	return json.Unmarshal(val.Pack(), v) == nil
}

// GitHub Copilot CLI (1.0.102: `copilot --help`, `copilot help
// permissions`, `copilot help environment`, `copilot help config`).

// copilotArgs is what a Copilot CLI command line says about approvals and
// whether a person can answer a prompt.
type copilotArgs struct {
	allowAll   string // --yolo or --allow-all: tools, paths and URLs
	allowTools bool   // --allow-all-tools
	prompt     bool   // -p/--prompt: prompt mode, nobody to ask
}

// parseCopilotArgs reads Copilot's options. Its parser (clap) takes an
// option's value from the next word only when that word does not start
// with "-", so every word that does is an option; a long option may carry
// its value after "=", a short one right after its letter (-pTEXT), and
// short options may be grouped (-sp TEXT). "--" ends the options.
func parseCopilotArgs(args []string) copilotArgs {
	var a copilotArgs
	for _, arg := range args {
		if arg == "--" {
			break
		}
		switch {
		case strings.HasPrefix(arg, "--"):
			name, _, _ := strings.Cut(arg, "=")
			switch name {
			case "--yolo", "--allow-all":
				a.allowAll = name
			case "--allow-all-tools":
				a.allowTools = true
			case "--prompt":
				a.prompt = true
			}
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			for _, c := range arg[1:] {
				if c == 'p' {
					a.prompt = true
				}
				if strings.ContainsRune("pirnC", c) {
					break // the rest of the word is the option's value
				}
			}
		}
	}
	return a
}

// copilotTruthy reports whether a COPILOT_ALLOW_ALL value allows all tools
// (`copilot help environment`: "true", "1", "yes", "on" or "y", any case,
// surrounding blanks ignored).
func copilotTruthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on", "y":
		return true
	}
	return false
}

// copilotRun finds how Copilot CLI runs the call, from the copilot process
// the hook descends from: its command line and its environment
// (/proc/PID/environ: the hook's own environment is filtered, and
// COPILOT_ALLOW_ALL is not in it), and for an interactive session
// defaultPermissionMode in $COPILOT_HOME/settings.json (~/.copilot).
//
// The mode, in Claude Code's terms: --yolo, --allow-all, --allow-all-tools
// or COPILOT_ALLOW_ALL run every tool without a person's look (Copilot's
// own check of paths outside the folder stays on under --allow-all-tools
// alone, but a hook's allow skips it): bypassPermissions; so does
// defaultPermissionMode "allow-all" outside prompt mode. Otherwise
// Copilot asks before a write or a command: default. In prompt mode (-p)
// nobody can answer an ask.
func (s *System) copilotRun() hostRun {
	p, args, ok := findHost(s.ancestors(), "copilot")
	if !ok {
		return hostRun{}
	}
	a := parseCopilotArgs(args)
	var from string
	switch {
	case a.allowAll != "":
		from = a.allowAll
	case a.allowTools:
		from = "--allow-all-tools"
	case copilotTruthy(s.procEnv(p, "COPILOT_ALLOW_ALL")):
		from = "COPILOT_ALLOW_ALL in its environment"
	case !a.prompt && s.copilotDefaultMode(s.procEnv(p, "COPILOT_HOME")) == "allow-all":
		from = "defaultPermissionMode allow-all in its settings.json"
	}
	r := hostRun{mode: hookio.PermDefault, modeFrom: "copilot: it asks before writes and commands"}
	if from != "" {
		r.mode, r.modeFrom = hookio.PermBypass, "copilot: every tool allowed without asking ("+from+")"
	}
	if a.prompt {
		r.noAsk = "Copilot CLI in prompt mode (copilot -p)"
	}
	return r
}

// procEnv returns the variable name of process p's environment
// (/proc/PID/environ, NUL-separated NAME=VALUE), "" when it is unset or
// cannot be read.
func (s *System) procEnv(p proc, name string) string {
	b, err := fs.ReadFile(s.FS, "proc/"+strconv.Itoa(p.pid)+"/environ")
	if err != nil {
		return ""
	}
	for _, kv := range strings.Split(string(b), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// copilotDefaultMode reads defaultPermissionMode from Copilot's user
// settings (home: $COPILOT_HOME, else ~/.copilot); "" when it is missing
// or unreadable.
func (s *System) copilotDefaultMode(home string) string {
	if home == "" {
		if h := s.Getenv("HOME"); h != "" {
			home = filepath.Join(h, ".copilot")
		}
	}
	if home == "" {
		return ""
	}
	var st struct {
		DefaultPermissionMode string `json:"defaultPermissionMode"`
	}
	if !s.readJSONC(filepath.Join(home, "settings.json"), &st) {
		return ""
	}
	return st.DefaultPermissionMode
}
