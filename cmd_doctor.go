package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/refusals"
)

const doctorUsage = `Usage:
    safezone doctor [--host NAME]

Checks the set-up for the project (CLAUDE_PROJECT_DIR, else the working
directory), one line each, OK or what to do:
  - where the hook is registered (Claude Code's settings, its plugin, the
    other hosts' hook files), with "onFailure": "block", and whether the
    host will run it (Codex: the hook and the project trusted, hooks on;
    Gemini CLI: a project's hooks need a trusted folder and are dropped
    with --skip-trust; Copilot CLI: copilot -p drops a project's hooks in
    an untrusted folder, disableAllHooks turns them all off);
  - whether the safezone on PATH is this binary;
  - which policy files load, and from where; what the project's files
    would widen but do not until you trust them (safezone trust FILE);
  - whether the kernel can confine commands here (Landlock, user
    namespaces, a run of the launcher), and so which guarantees hold;
  - whether what the kernel refuses a confined command can be reported
    (Landlock ABI 7, CAP_AUDIT_READ, the kernel's audit enabled);
  - a sample decision: a write outside the project.

Exit status: 0 when every line is OK, 1 when one says what to do.
`

// doctor collects the lines of `safezone doctor`.
type doctor struct {
	w     io.Writer
	fixes int
}

func (d *doctor) ok(format string, args ...any) {
	fmt.Fprintf(d.w, "ok    "+format+"\n", args...)
}

func (d *doctor) fix(format string, args ...any) {
	d.fixes++
	fmt.Fprintf(d.w, "FIX   "+format+"\n", args...)
}

func (d *doctor) info(format string, args ...any) {
	fmt.Fprintf(d.w, "      "+format+"\n", args...)
}

func cmdDoctor(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprint(stdout, doctorUsage)
			return 0
		}
	}
	opts, err := pipeline.ParseFlags(args, false)
	if err != nil || opts == nil {
		if err == nil {
			err = fmt.Errorf("--version is not a doctor flag")
		}
		fmt.Fprintf(stderr, "safezone: doctor: %v\n%s", err, doctorUsage)
		return 2
	}
	d := &doctor{w: stdout}
	root := sys.ProjectRoot()
	home := sys.Getenv("HOME")
	d.registration(root, home, sys)
	d.binary(sys)
	pol := d.policy(opts, root, sys)
	d.confinement(sys, opts.Host)
	d.refusals(sys)
	d.network(sys, pol)
	if pol != nil {
		d.hostSandbox(pol, opts, root, sys)
		d.pathEntries(pol, root, sys)
		d.sample(opts, root, sys)
	}
	if d.fixes > 0 {
		fmt.Fprintf(stdout, "%d thing%s to fix\n", d.fixes, plural(d.fixes))
		return 1
	}
	fmt.Fprintln(stdout, "everything is in order")
	return 0
}

// registration finds where safezone is registered as a PreToolUse hook.
func (d *doctor) registration(root, home string, sys *pipeline.System) {
	loc := policy.DefaultLocations(sys.Getenv, root, home)
	found := false
	for _, f := range policy.ClaudeSettingsFiles(loc) {
		for _, cmd := range safezoneHooks(f.Path) {
			found = true
			d.ok("registered in %s (Claude Code, %s): %s", f.Path, f.Source.Scope, cmd)
		}
		for _, p := range hookRegistrations(f.Path) {
			d.fix("%s", p)
		}
	}
	if dir := loc.ClaudeConfig; dir != "" && pluginInstalled(dir) {
		if found {
			d.fix("the safezone Claude Code plugin is installed and safezone is registered in a settings file too: every tool call runs the hook twice; remove one (claude plugin uninstall safezone, or the settings entry)")
		}
		found = true
		d.ok("the safezone Claude Code plugin is installed (%s)", filepath.Join(dir, "plugins"))
	}
	if d.hostRegistrations(root, home, sys) {
		found = true
	}
	if !found {
		d.fix("safezone is not registered as a hook for this project: run `safezone init` here (or `safezone init --user`), or install the Claude Code plugin (README, \"Register it\")")
	}
}

// safezoneHooks returns the commands of the PreToolUse hooks of a Claude
// Code settings file that run safezone.
func safezoneHooks(path string) []string {
	var out []string
	for _, h := range safezoneEntries(path) {
		out = append(out, h.command)
	}
	return out
}

// pluginInstalled reports whether Claude Code's plugin registry lists the
// safezone plugin.
func pluginInstalled(claudeDir string) bool {
	b, err := os.ReadFile(filepath.Join(claudeDir, "plugins", "installed_plugins.json"))
	return err == nil && strings.Contains(string(b), `"safezone@`)
}

// binary compares the safezone on PATH with this binary.
func (d *doctor) binary(sys *pipeline.System) {
	p, err := exec.LookPath("safezone")
	if err != nil {
		d.fix("no safezone on PATH: hooks registered as \"safezone\" (hooks.json) and the plugin's launcher cannot find it; install it with " + pipeline.InstallLine + " (or go install . ./cmd/safezone-proxy in a clone)")
		return
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = p
	}
	if sys.Executable != "" && real != sys.Executable {
		d.fix("the safezone on PATH (%s) is not this one (%s): the hook runs the one its registration names; reinstall, or run `safezone init` with the one you mean", real, sys.Executable)
		return
	}
	d.ok("safezone on PATH is this binary (%s), version %s", real, pipeline.BuildVersion())
}

// policy loads the effective policy and lists where it comes from.
func (d *doctor) policy(opts *pipeline.Options, root string, sys *pipeline.System) *policy.Policy {
	pol, err := pipeline.LoadPolicy(opts, root, sys, nil)
	if err != nil {
		d.fix("the policy cannot be used, so every call is denied: %v; `safezone validate` lists every problem", err)
		return nil
	}
	d.ok("policy: %s", strings.Join(pol.Sources, " + "))
	for _, f := range pol.Trusted {
		d.info("%s: trusted by you, all of it applies", f)
	}
	held := heldByFile(pol)
	var files []string
	for _, u := range pol.Untrusted {
		if !slices.Contains(files, u.Pos.File) {
			files = append(files, u.Pos.File)
		}
	}
	for _, f := range files {
		d.info("%s comes with the repository and is not trusted: what it tightens applies, what it widens is ignored:", f)
		for _, u := range held[f] {
			d.info("  %s", untrustedLine(u))
		}
		d.info("  if you wrote it or checked it, run `safezone trust %s`", f)
	}
	for _, r := range pol.Removed {
		d.info("removed: %s", r)
	}
	for _, w := range pol.Warnings {
		d.info("warning: %v", w)
	}
	return pol
}

// refusals says whether what the kernel refuses a confined command reaches
// the audit log and the model (package refusals), and why not.
func (d *doctor) refusals(sys *pipeline.System) {
	st := sys.ConfineStatus()
	if !st.Confine() {
		return
	}
	if st.LandlockABI < 7 {
		d.info("what the kernel refuses a confined command is not reported: Landlock ABI %d logs nothing of an exec'd program (ABI 7, Linux 6.15, does); the model sees only the programs' own \"Permission denied\"", st.LandlockABI)
		return
	}
	if err := refusals.Available(); err != nil {
		d.info("what the kernel refuses a confined command is not reported here: %v; the model sees only the programs' own \"Permission denied\" (and the proxy's refusals, which are reported)", err)
		return
	}
	d.ok("what the kernel (Landlock) refuses a confined command reaches the audit log with its call, and the model at its next call (a collector, safezone __refusals, reads the kernel's audit records)")
}

// confinement says whether the kernel can confine commands here, and what
// holds where it cannot.
func (d *doctor) confinement(sys *pipeline.System, host hookio.Host) {
	st := sys.ConfineStatus()
	if !st.Confine() {
		d.info("kernel confinement is off here: %v", st.Landlock)
		d.info("so a program whose own accesses safezone cannot see (npm test, make, python3 -c) is judged by what it names only: inline code asks; scripts and build tools run as they are where the mode allows (README, \"What the kernel enforces\")")
		return
	}
	if sh := sys.Getenv("SHELL"); hookio.ShellOf(host) == hookio.ShellUser && sh != "" && filepath.Base(sh) != "bash" {
		d.info("kernel confinement works (Landlock ABI %d), but the Bash tool runs %s: a confined command needs bash, so commands are judged as without it", st.LandlockABI, sh)
		return
	}
	if err := confine.Probe(sys.Executable); err != nil {
		d.fix("Landlock ABI %d is here, but the launcher failed: %v; commands are judged as without confinement until this is fixed", st.LandlockABI, err)
		return
	}
	d.ok("kernel confinement works (Landlock ABI %d): every Bash command that runs without a question runs confined (writes only in the sandbox, the temp directories and the caches; the secrets the deny rules name outside the project unreadable)", st.LandlockABI)
	if st.ReadOnly != nil {
		d.info("but user namespaces are not available (%v): the secrets inside the project (.env, *.pem) cannot be hidden, so a command that would run without a question in a project holding one is asked instead; .claude/, .git/config, .git/hooks and safezone's files inside the project are guarded by the analysis only; the sockets of programs outside (ssh-agent, Docker, D-Bus) stay reachable", st.ReadOnly)
	} else {
		d.ok("user namespaces work: confined commands cannot read or write the project's secrets (.env, *.pem, *.key: hidden), cannot change .claude/, .git/config, .git/hooks, the protected paths and safezone's files, and cannot reach ssh-agent, Docker, D-Bus, tmux and the like")
		d.launcher(sys)
	}
}

// hostSandbox says whether Claude Code's own sandbox is on and what each
// layer holds there: inside it no user namespace can be made, so a
// confined command gets Landlock alone, and a secret in the project stays
// hidden only where the sandbox's denyRead names it (issue 28).
func (d *doctor) hostSandbox(pol *policy.Policy, opts *pipeline.Options, root string, sys *pipeline.System) {
	hs := pol.HostSandbox
	if !hs.Enabled.Value {
		return
	}
	d.info("Claude Code's own sandbox is on (sandbox.enabled, %s): Bash commands run inside its bubblewrap (the disk read-only but the project and its temporary directory, its network allowlist)", hs.Enabled.Pos)
	if hs.NestedUserNS.Value {
		d.ok("sandbox.allowNestedUserNamespaces (%s): a confined command keeps its own mount namespace inside it (secrets hidden, read-only paths kept by the kernel)", hs.NestedUserNS.Pos)
		return
	}
	d.info("inside it no user namespace can be made: a confined command gets Landlock alone with Claude Code's sandbox (writes only where both allow; the secrets outside the project unreadable; no Unix sockets when one leading outside cannot be hidden); the project's secrets and read-only paths hold only where its settings name them")
	read, missingRead, _, missingWrite, err := pipeline.HostSandboxSettings(opts, sys, root)
	switch {
	case err != nil:
		d.info("what Claude Code's sandbox must hold for safezone here cannot be listed: %v", err)
	case len(missingRead)+len(missingWrite) > 0:
		var lacks []string
		if len(missingRead) > 0 {
			lacks = append(lacks, "hide "+strings.Join(missingRead, ", ")+" (sandbox.filesystem.denyRead)")
		}
		if len(missingWrite) > 0 {
			lacks = append(lacks, "keep "+strings.Join(missingWrite, ", ")+" read-only (sandbox.filesystem.denyWrite)")
		}
		d.fix("Claude Code's sandbox does not %s, and Landlock cannot there: a command that would run confined here is asked instead; `safezone init --host-sandbox` adds them", strings.Join(lacks, ", nor "))
	case len(read) > 0:
		d.ok("Claude Code's sandbox hides %s (sandbox.filesystem.denyRead) and keeps the project's read-only paths read-only: confined commands inside it hold as outside, less what the README's row says", strings.Join(read, ", "))
	}
}

// network says what a confined command may connect to: with
// network.isolate on, whether a network namespace can be made and the
// proxy runs.
func (d *doctor) network(sys *pipeline.System, pol *policy.Policy) {
	st := sys.ConfineStatus()
	if pol == nil || !st.Confine() {
		return
	}
	if !pol.Network.Isolate.Value {
		d.info("the network is open to confined commands (network.isolate is off, %s): a confined script reaches any host, services on localhost and 169.254.169.254; set network: {isolate: true} to give each one a network of its own with safezone's proxy as its only way out (README, \"Network\")", pol.Network.Isolate.Pos)
		return
	}
	if st.ReadOnly != nil {
		d.fix("network.isolate is on, but a network namespace takes a user namespace, which is not available (%v): the network stays open to confined commands", st.ReadOnly)
		return
	}
	p, err := sys.NetworkProxy()
	if err != nil {
		d.fix("network.isolate is on, but %v: until it is installed, confined commands run with no network at all (a line on their standard error says so)", err)
		return
	}
	d.ok("network.isolate is on: each confined command has a network of its own and reaches out only through %s (the package registries your tools use, network.allow, less network.deny); localhost services, link-local and private addresses are closed unless named", p)
}

// launcher says which launcher runs confined commands: the fast one
// (confine/fast/launch.c, built here by the system's C compiler; doctor
// builds it when it is missing) or the Go launcher, and why.
func (d *doctor) launcher(sys *pipeline.System) {
	if p := sys.FastLauncher(false); p != "" {
		d.ok("confined commands start through the fast launcher (%s): one small process, about 1 ms per command, besides the second bash a confined command starts (README, \"Performance\")", p)
		return
	}
	sd := sys.StateDir()
	if sd == "" {
		d.info("confined commands start through safezone's Go launcher (two starts of safezone, a few ms per command): there is no state directory ($XDG_STATE_HOME or ~/.local/state) to build the fast launcher in")
		return
	}
	p := filepath.Join(sd, "launcher", confine.FastKey(), "safezone-launch")
	err := confine.BuildFast(p)
	switch {
	case err == nil:
		d.ok("built the fast launcher (%s): confined commands start through it, one small process, about 1 ms per command, besides the second bash a confined command starts", p)
	case errors.Is(err, confine.ErrNoCompiler):
		d.info("confined commands start through safezone's Go launcher (two starts of safezone, a few ms per command): the fast launcher is built from C and there is %v; install one (apt install gcc) and run safezone doctor again", err)
	default:
		d.fix("the fast launcher could not be built (%v): confined commands start through safezone's Go launcher (a few ms per command), which confines the same", err)
	}
}

// pathEntries checks the PATH the hook and its plugin launcher search for
// safezone (hooks/safezone-hook takes the first one among PATH's absolute
// entries): an entry before the one that holds safezone where a confined
// command may write (the project, a temporary directory, a
// confine.write cache) could get a safezone of the agent's, which would run,
// unconfined, as the hook at every later tool call. The paths compared are
// those PATH names and those the policy resolves to, symlinks resolved.
func (d *doctor) pathEntries(pol *policy.Policy, root string, sys *pipeline.System) {
	home := sys.Getenv("HOME")
	resolve := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return filepath.Clean(p)
	}
	writable := []string{resolve(root), "/tmp", "/var/tmp", "/dev/shm"}
	if t := sys.Getenv("TMPDIR"); filepath.IsAbs(t) {
		writable = append(writable, resolve(t))
	}
	for _, w := range pol.Confine.Write {
		p := w.Path
		if rest, ok := strings.CutPrefix(p, "~"); ok && home != "" && (rest == "" || rest[0] == '/') {
			p = home + rest
		} else if !filepath.IsAbs(p) && w.Base != "" {
			p = filepath.Join(w.Base, p)
		}
		if filepath.IsAbs(p) {
			writable = append(writable, resolve(p))
		}
	}
	var bad []string
	for _, e := range filepath.SplitList(sys.Getenv("PATH")) {
		if !filepath.IsAbs(e) {
			continue // never searched (the plugin's launcher skips them)
		}
		if fi, err := os.Stat(filepath.Join(e, "safezone")); err == nil && !fi.IsDir() {
			// The one the launcher runs: the binary itself is kept read-only
			// (self-protection), and the entries after it are searched later.
			break
		}
		r := resolve(e)
		for _, w := range writable {
			if r == w || strings.HasPrefix(r, w+"/") {
				bad = append(bad, e)
				break
			}
		}
	}
	if len(bad) > 0 {
		d.fix("PATH lists %s, where a confined command may write, before the directory holding safezone: a safezone put there by the agent would run, unconfined, as the hook at every tool call; put safezone's directory first in PATH, or register it by its absolute path (safezone init)", strings.Join(bad, ", "))
		return
	}
	d.ok("no PATH entry a confined command may write comes before safezone's")
}

// sample judges a write outside the project, as the hook would.
func (d *doctor) sample(opts *pipeline.Options, root string, sys *pipeline.System) {
	target := filepath.Join(filepath.Dir(root), "safezone-doctor-outside.txt")
	in, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": root, "permission_mode": "bypassPermissions",
		"tool_input": map[string]any{"file_path": target, "content": "x"},
	})
	j := &pipeline.Judger{Opts: opts, Sys: sys}
	v := j.Decide(in, nil, root)
	dec, reason := pipeline.Outcome(v)
	if dec == policy.Deny || dec == policy.Ask {
		d.ok("sample: a Write to %s in bypassPermissions is %s (%s)", target, dec, v.Res.Deciding.Rule)
		return
	}
	d.fix("sample: a Write to %s in bypassPermissions is %s: %s; check sandbox.enabled and the mode (safezone policy)", target, dec, reason)
}
