// Package classify decides one tool call: it turns the call's arguments into
// targets (for a shell command, through the analysis of classify/shell),
// resolves each as the kernel would, matches them against the policy's rules
// and path classes, and applies the decision table.
//
// [Decide] is a pure function of the call, the policy, the environment and a
// read-only file-system view; it never writes and never starts processes. It
// returns the decision and its diagnostics (every [Reason] that matched);
// rendering them (explain's text and JSON) is the caller's business.
package classify

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/policy/glob"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// Env is what Decide needs from the process environment.
type Env struct {
	// ProjectDir is $CLAUDE_PROJECT_DIR. When empty, the call's cwd is the
	// project root. The host moves cwd when the agent runs cd, so the
	// variable is what keeps the sandbox in place.
	ProjectDir string
	// Home is $HOME; when empty, paths starting with "~" are errors.
	Home string
	// Today is the local date, "2006-01-02", used in suggestions
	// ("write scratch files under agent_sandbox/2026-11-22/"). When it is
	// empty, Date gives it, called only when a reason needs the date (the
	// hook then reads the time zone, /etc/localtime, only for those).
	Today string
	Date  func() string
	// Session is where the host keeps the files of the agent's session
	// (see hookio.SessionFiles): read and written without a question.
	Session hookio.Session
	// Venv is true when a Python virtualenv is active ($VIRTUAL_ENV or
	// $CONDA_PREFIX set): pip installs into it.
	Venv bool
	// TmpDir is $TMPDIR ("" when unset): a shell command's $TMPDIR.
	TmpDir string
	// StateDir is safezone's state directory (trust records, watch lists;
	// policy.StateDir), which "safezone trust FILE" writes.
	StateDir string
	// Path is $PATH: a program name a shell command runs is judged as an
	// unknown program when $PATH finds it in a directory the agent may
	// write (decider.lookPath).
	Path string
	// Confinable is true when a shell command of this call can be run
	// inside the kernel sandbox built from the policy (the kernel supports
	// it, the host runs a rewritten command, in a shell that can run the
	// rewritten form); the policy's confine.mode says whether it is.
	Confinable bool
	// Unconfinable, when not empty, says why a shell command that would run
	// without a question cannot run confined here although the kernel
	// confines (there are files to hide and no user namespaces to hide
	// them in; the ruleset could not be built): such a command is asked
	// instead, with this reason. It is ignored where Confinable is true.
	Unconfinable string
	// KernelWrite are the directories and files, resolved, that a
	// confined command may write besides the writable sandbox roots: the
	// temporary directories, the devices, confine.write. A shell command
	// that runs confined may name them (… | tee /tmp/x) without a
	// question, as the kernel lets it write there anyway.
	KernelWrite []string
	// KernelReadable, when set, reports whether a confined command may
	// read the path p (resolved, outside the sandbox roots): the kernel
	// keeps the home directory private but for what programs need there,
	// and /home, /mnt, /media and /srv (README, "What the kernel
	// enforces"). A read outside that it refuses
	// is judged as named (sandbox.outside_read), not let through because
	// the command runs confined. Nil: every file outside is readable to a
	// confined command but the secrets.
	KernelReadable func(p string) bool
	// RunsUnasked, when set, is the host's own permission check for shell
	// commands (hookio.UnaskedRunner): whether the host runs a command
	// line without asking in permission mode mode when the hook leaves the
	// decision to it (Claude Code runs cat, ls and grep so in default
	// mode). Such a command is allowed, confined, instead (see
	// decider.confine). It is asked only of a line whose targets the
	// analysis knows and finds inside the sandbox roots, with the host's
	// own working directories in env (see decider.unaskedEnv).
	RunsUnasked func(mode hookio.PermissionMode, command string, env hookio.UnaskedEnv) bool
	// NoAsk, when set, says why no person can answer an ask in this
	// session (Gemini CLI's headless run): an ask is answered deny, the
	// reason saying that a person must approve.
	NoAsk string
	// OtherNames are, by the resolved path of an existing regular file
	// with more than one link (Resolution.Links), the other names of that
	// file that matter to the policy: the files the kernel hides (found
	// below the sandbox roots, or named by a deny rule's home or absolute
	// path) that are the same file, by device and inode. A target that resolves to a key is
	// judged at these names too (Target.Names): what a deny rule matches
	// at one name of a file it matches at every name, since each reads
	// the same contents. Nil leaves every target to its own names.
	OtherNames map[string][]string
	// OtherNamesErr, when not empty, says why the other names of the
	// files with several links could not be known (the search of the
	// sandbox roots did not finish): each target that resolves to such a
	// file is asked, with this reason, where it would have been allowed.
	OtherNamesErr string
}

// Root is one sandbox root: the project root, an additional directory, or a
// directory that may only be read (sandbox.read_dirs).
type Root struct {
	Path     string `json:"path"`     // absolute and clean, as configured
	Resolved string `json:"resolved"` // symbolic links resolved
	Source   string `json:"source"`   // "CLAUDE_PROJECT_DIR", "cwd", "policy.yaml:12", "--add-dir"
	ReadOnly bool   `json:"read_only,omitempty"`
}

// Modes is the effective mode of one call, each part with where it came from.
type Modes struct {
	Read        Mode // read mode: every write is denied
	AutoApprove Mode // writes inside the sandbox are allowed
	Sandbox     Mode // targets outside every root are judged by outside_read/outside_write
	AGI         bool // mode agi: unknown shell targets are allowed too
}

// Mode is one part of [Modes]: whether it is on, and what turned it on or
// off ("-r/--read", "mode: read at policy.yaml:3", "host permission_mode
// plan"; "" when nothing did).
type Mode struct {
	On     bool
	Source string
}

// Row is a row of the decision table (README, "Decision"): the first row
// that matches a target decides it. The numbers are the table's and show in
// explain's output.
type Row uint8

// The rows of the decision table.
const (
	RowError     Row = 1  // unusable input or policy: on_error
	RowDeny      Row = 2  // a deny rule
	RowProtected Row = 3  // a write to a protected path
	RowSession   Row = 4  // a file of the host's own session (transcripts, task outputs, plans)
	RowReadMode  Row = 5  // read mode and the call writes
	RowOutside   Row = 6  // a target outside every root
	RowAsk       Row = 7  // an ask rule or a guard
	RowAllow     Row = 8  // an allow rule
	RowRead      Row = 9  // a built-in read tool, inside
	RowWrite     Row = 10 // a built-in write tool, inside: safe or auto-approved, else abstain
	RowOther     Row = 11 // MCP tools and tools safezone does not understand: abstain
)

// Reason is one matching row: a rule, a class, a mode or a fallback, for one
// target or for the call as a whole.
type Reason struct {
	Row    Row
	Effect policy.Decision
	// Rule names what matched: "Read(.env*)", `paths.protected ".git/**"`,
	// "sandbox.outside_write", "read mode".
	Rule string
	// Source says where it is defined: "policy.yaml:14", "-r/--read",
	// "host permission_mode plan".
	Source string
	Target int    // index into Result.Targets; -1 for the call itself
	Path   string // the path (view) that matched, if any
	Note   string // extra detail for the message
	// Warning marks a warned-path match: it adds a warning to whatever is
	// decided and never decides itself.
	Warning bool
	// Below marks the ask of a recursive read that reaches a file a deny
	// rule matches (judgement.secretBelow): Note says which, Rule names
	// the deny rule.
	Below bool
}

// Result is a decision with its diagnostics: the reason that decided, every
// reason that matched, and what they were matched against (the modes, the
// sandbox roots, the targets, the shell analysis).
type Result struct {
	Decision policy.Decision
	Row      Row    // the row that decided; RowError when the call could not be judged
	Reason   string // the message for the host (model or user), see reason.go
	Warning  string // set when a write target is in a warned path
	Modes    Modes
	Roots    []Root
	Targets  []Target
	// Reasons lists every row that matched, in target order, the deciding
	// one included.
	Reasons []Reason
	// Err is the first error that made the call unusable (row 1).
	Err error
	// Deciding is the reason that decided: its Rule and Source name the
	// rule, class or mode. Zero for row 1.
	Deciding Reason
	// Shell is the analysis of a Bash command (nil for other tools; a
	// PowerShell command is always unknown).
	Shell *shell.Analysis
	// Confine is true when the command must run inside the kernel sandbox
	// built from the policy (README, "What the kernel enforces"): it is
	// allowed, or asked about, in its confined form only. ConfineNote says
	// why it is confined, or why a command whose effects are unknown is not.
	Confine     bool
	ConfineNote string
	// Grants are the confine.grants that apply to a confined command: what
	// the tool it runs may reach although the kernel would hide it.
	Grants []policy.Grant
	// GrantRefused says why the grants a command of the call matched do
	// not apply (decider.grantRefused), or is empty.
	GrantRefused string

	// confinable: unknown effects may be allowed, confined (see
	// decider.confinable).
	confinable bool
	// anchors are the directories the policy's patterns were matched
	// relative to (see KernelSpec).
	anchors anchors
	// KernelAgreed is set when a target outside the roots was let through
	// because a confined command may reach it anyway (decider.kernelLets):
	// the decision then depends on the kernel confining the command.
	KernelAgreed bool
}

type decider struct {
	call  *hookio.Call
	pol   *policy.Policy
	env   Env
	fsys  fs.ReadLinkFS
	modes Modes
	roots []Root
	// hostRoots are the host's own working directories, resolved: the
	// project root and the additionalDirectories of Claude Code's
	// settings (policy.Dir.Host), not safezone's other roots.
	hostRoots []string
	anchors   anchors
	globs     glob.Cache
	// resolving holds resolvedPattern's places and results for each
	// Resolve pattern; nil until the first is needed.
	resolving map[*policy.Pattern]*resolveEntry
	// gitignore caches the directory names of the project's .gitignore
	// (see ignored); nil until read.
	gitignore []string
	// shell is the analysis of a shell call; nil for other tools.
	shell *shell.Analysis
	// decided, when set, is the call-level reason that decided the call
	// after the table (see decider.override).
	decided *Reason
	// kernelAgrees is set when a shell target outside the roots was let
	// through because a confined command may reach it anyway
	// (decider.kernelLets).
	kernelAgrees bool
	// unasked caches willRunUnasked: 0 not computed, 1 yes, 2 no.
	unasked uint8
	// targets are the call's targets (Result.Targets), once known.
	targets []Target
	// session holds the host's session directories, resolved.
	session sessionDirs
}

// sessionDirs are the host's session directories (Env.Session), each as
// given and as resolved.
type sessionDirs struct {
	readWrite, plans, readOnly []string
}

// Decide judges one call against a policy (see the decision table in the
// README). It returns the decision and every reason. It
// never fails: problems with the call (unresolvable paths, symlink loops,
// paths over PATH_MAX, "~" without HOME) decide by row 1, on_error; a deny
// rule that matches another target still wins over on_error: ask.
//
// Decide only reads fsys, and asks it each Lstat and ReadLink question
// once: through a [MemoFS] view, the one it is given if it is one (with
// the answers that view already holds), else one of its own.
func Decide(c *hookio.Call, p *policy.Policy, env Env, fsys fs.ReadLinkFS) *Result {
	fsys = MemoFS(fsys)
	defer fsys.(*memoFS).closeDirs()
	d := &decider{call: c, pol: p, env: env, fsys: fsys, globs: glob.Cache{}}
	r := &Result{}
	d.modes = modesOf(p, c)
	r.Modes = d.modes
	r.confinable = d.confinable()
	if err := d.setRoots(); err != nil {
		r.Roots = d.roots
		return d.fail(r, err)
	}
	r.Roots = d.roots
	r.anchors = d.anchors
	r.Targets = targets(c, env.Home, fsys)
	switch c.Kind {
	case hookio.KindShell:
		sa := shell.Analyze(c.Command, shell.Env{Cwd: c.Cwd, Home: env.Home, ProjectDir: env.ProjectDir, TmpDir: env.TmpDir, StateDir: env.StateDir, ReadFile: d.readSourced, LookPath: d.lookPath})
		switch st := shellTargets(&sa, fsys); {
		case len(st) == 0:
		case len(r.Targets) == 0:
			r.Targets = st
		default:
			r.Targets = append(r.Targets, st...)
		}
		d.shell, r.Shell = &sa, &sa
	case hookio.KindPowerShell:
		d.shell = &shell.Analysis{Unknown: "safezone cannot parse PowerShell"}
		r.Shell = d.shell
	}

	for i := range r.Targets {
		d.otherNames(&r.Targets[i])
	}
	d.targets = r.Targets
	var outcomes []policy.Decision
	// Rules that name the call itself (a tool name, a command), and the
	// guards.
	callReasons := append(d.callRules(), d.guardRules()...)
	r.Reasons = append(r.Reasons, callReasons...)
	for _, cr := range callReasons {
		if cr.Row == RowDeny {
			outcomes = append(outcomes, policy.Deny)
		}
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		if t.Err != nil {
			if r.Err == nil {
				r.Err = fmt.Errorf("%s %q: %w", t.Field, t.Given, t.Err)
			}
			continue
		}
		rs := d.judge(i, t)
		r.Reasons = append(r.Reasons, rs...)
		outcomes = append(outcomes, r.deciding(append(rs, callReasons...)).Effect)
	}
	if len(r.Targets) == 0 {
		rs := d.judgeCall()
		r.Reasons = append(r.Reasons, rs...)
		outcomes = append(outcomes, r.deciding(append(rs, callReasons...)).Effect)
	}
	if r.Err != nil {
		outcomes = append(outcomes, p.OnError.Value)
	}
	r.Decision = policy.Strictest(outcomes...)
	r.KernelAgreed = d.kernelAgrees
	d.confine(r)
	d.grants(r)
	d.sshWithoutGrant(r)
	d.explainDecision(r)
	d.noAsk(r)
	return r
}

// noAsk turns an ask into a deny where no person can answer it
// (Env.NoAsk), keeping its reason and saying why.
func (d *decider) noAsk(r *Result) {
	if r.Decision != policy.Ask || d.env.NoAsk == "" {
		return
	}
	r.Decision = policy.Deny
	r.Confine = false
	r.Reason = hookio.AskAsDenyReason(r.Reason, d.env.NoAsk)
}

// fail decides a call that cannot be judged at all (row 1).
func (d *decider) fail(r *Result, err error) *Result {
	r.Err = err
	r.Decision = d.pol.OnError.Value
	d.explainDecision(r)
	return r
}

// deciding returns the reason that decides one target (or the call): the
// one with the lowest row, except that a shell command with a target
// safezone cannot know is never allowed outside agi mode: an allow from a
// rule, a class or a mode gives way to the unknown row's ask.
func (r *Result) deciding(rs []Reason) Reason {
	f := first(rs)
	if f.Effect != policy.Allow || r.Shell == nil || r.Shell.Known() || r.Modes.AGI || r.confinable {
		return f
	}
	for _, x := range rs {
		if x.Row == RowOther && x.Effect == policy.Ask {
			return x
		}
	}
	return Reason{Row: RowOther, Effect: policy.Ask, Rule: "targets safezone cannot know", Target: -1, Note: r.Shell.Why()}
}

// TargetDecision returns the decision for target i alone: its own lowest
// matching row together with the call's rules.
func (r *Result) TargetDecision(i int) policy.Decision {
	var rs []Reason
	for _, x := range r.Reasons {
		if x.Target == i || x.Target == -1 {
			rs = append(rs, x)
		}
	}
	return r.deciding(rs).Effect
}

// first returns the reason with the lowest row.
func first(rs []Reason) Reason {
	best := Reason{Row: RowOther + 1, Effect: policy.Deny}
	for _, r := range rs {
		if !r.Warning && r.Row < best.Row {
			best = r
		}
	}
	return best
}

// setRoots resolves the project root and the additional directories.
func (d *decider) setRoots() error {
	proj, src := d.env.ProjectDir, "CLAUDE_PROJECT_DIR"
	if proj == "" {
		proj, src = d.call.Cwd, "cwd (CLAUDE_PROJECT_DIR is not set)"
	}
	if !strings.HasPrefix(proj, "/") {
		return fmt.Errorf("project root %q (%s) is not an absolute path", proj, src)
	}
	if err := d.addRoot(proj, src); err != nil {
		return err
	}
	projectRoot := d.roots[0]
	d.hostRoots = []string{projectRoot.Resolved}
	d.anchors.project = uniq(projectRoot.Path, projectRoot.Resolved)
	for _, t := range d.pol.Templates {
		d.anchors.templates = append(d.anchors.templates, fold(t.Value))
	}
	for _, r := range d.call.Roots {
		if err := d.addRoot(r, "the host's workspace roots"); err != nil {
			return err
		}
	}
	for _, dir := range d.pol.AdditionalDirectories {
		p, err := expandHome(dir.Path, d.env.Home)
		if err != nil {
			return fmt.Errorf("sandbox.additional_directories %q (%s): %w", dir.Path, dir.Pos, err)
		}
		if !strings.HasPrefix(p, "/") {
			base := dir.Base
			if base == "" {
				base = projectRoot.Path
			}
			p = base + "/" + p
		}
		if err := d.addRoot(p, dir.Pos.String()); err != nil {
			return err
		}
		if dir.Host {
			d.hostRoots = append(d.hostRoots, d.roots[len(d.roots)-1].Resolved)
		}
	}
	for _, dir := range d.pol.ReadDirs {
		p := policy.ExpandDir(dir, d.env.Home, projectRoot.Path)
		if p == "" {
			return fmt.Errorf("sandbox.read_dirs %q (%s): %w", dir.Path, dir.Pos, ErrNoHome)
		}
		if err := d.addRoot(p, dir.Pos.String()); err != nil {
			return err
		}
		d.roots[len(d.roots)-1].ReadOnly = true
	}
	d.session = sessionDirs{
		readWrite: d.resolveAll(d.env.Session.ReadWrite),
		plans:     d.resolveAll(d.env.Session.Plans),
		readOnly:  d.resolveAll(d.env.Session.ReadOnly),
	}
	if d.env.Home != "" && strings.HasPrefix(d.env.Home, "/") {
		home := path.Clean(d.env.Home)
		d.anchors.home = []string{home}
		if d.needsHome() {
			if res, err := ResolveDir(d.fsys, home); err == nil {
				d.anchors.home = uniq(home, res.Path)
			}
		}
	}
	return nil
}

func (d *decider) addRoot(p, src string) error {
	res, err := ResolveDir(d.fsys, p)
	if err != nil {
		return fmt.Errorf("sandbox root %s (%s): %w", p, src, err)
	}
	d.roots = append(d.roots, Root{Path: path.Clean(p), Resolved: res.Path, Source: src})
	return nil
}

// needsHome reports whether some pattern is anchored at the home directory,
// so that its resolution is worth a few Lstat calls.
func (d *decider) needsHome() bool {
	for _, list := range [][]policy.Pattern{d.pol.Protected, d.pol.Warned, d.pol.Safe} {
		for i := range list {
			if list[i].Anchor == policy.Home {
				return true
			}
		}
	}
	for _, list := range [][]policy.Rule{d.pol.Deny, d.pol.Ask, d.pol.Allow} {
		for i := range list {
			if list[i].Kind == policy.RulePath && list[i].Path.Anchor == policy.Home {
				return true
			}
		}
	}
	return false
}

func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// resolveAll returns each directory as given and, when it differs, as
// resolved; a directory that cannot be resolved is left out.
func (d *decider) resolveAll(dirs []string) []string {
	var out []string
	for _, dir := range dirs {
		if res, err := Resolve(d.fsys, dir); err == nil {
			out = append(out, uniq(path.Clean(dir), res.Path)...)
		}
	}
	return out
}

// inside reports whether p is within some root (resolved) that may be
// accessed as access: a read-only root takes reads only.
func (d *decider) inside(p string, access policy.Access) bool {
	for _, r := range d.roots {
		if within(r.Resolved, p) && (!r.ReadOnly || access == policy.Read) {
			return true
		}
	}
	return false
}

// namesAlias reports whether r names one of a tool's aliases
// (hookio.Call.ToolAliases): only deny and ask rules go by them, since an
// alias may be another tool's name.
func namesAlias(r *policy.Rule, aliases []string) bool {
	for _, a := range aliases {
		if r.NamesTool(a) {
			return true
		}
	}
	return false
}

// callRules returns the rules that match the call itself, whatever its
// targets: a bare tool name or tool glob ("WebFetch", "mcp__evil__*"), a
// specifier safezone cannot evaluate (deny and ask only), and a command
// pattern for shell tools.
func (d *decider) callRules() []Reason {
	var out []Reason
	lists := []struct {
		rules []policy.Rule
		row   Row
		eff   policy.Decision
		name  string
	}{
		{d.pol.Deny, RowDeny, policy.Deny, "deny"},
		{d.pol.Ask, RowAsk, policy.Ask, "ask"},
		{d.pol.Allow, RowAllow, policy.Allow, "allow"},
	}
	for _, l := range lists {
		for i := range l.rules {
			r := &l.rules[i]
			if !r.NamesTool(d.call.Tool) && (l.eff == policy.Allow || !namesAlias(r, d.call.ToolAliases)) {
				continue
			}
			match := false
			note := ""
			switch r.Kind {
			case policy.RuleTool:
				match = true
			case policy.RuleOpaque:
				match = l.eff != policy.Allow
				note = "safezone cannot evaluate this rule's specifier, so it applies to every call of the tool"
			case policy.RuleCommand:
				match = d.shellRuleMatches(r, l.eff == policy.Allow)
			}
			if match && l.eff == policy.Allow && d.shell != nil && !d.shell.Known() && !d.modes.AGI && !d.confinable() {
				// Outside agi, a command with an unknown target is never
				// allowed, whatever an allow rule says, unless it runs
				// confined.
				match = false
			}
			if match {
				out = append(out, Reason{Row: l.row, Effect: l.eff, Rule: r.Text, Source: r.Pos.String(), Target: -1, Note: note})
			}
		}
	}
	return out
}

// maxSourced bounds a file a shell command sources that the analysis reads
// to judge its commands ("source ./env.sh").
const maxSourced = 64 << 10

// lookPath is shell.Env.LookPath: it walks $PATH (Env.Path) as bash
// does and returns the file that name would run when the first directory
// holding it is one the agent may write: a relative entry (joined to the
// call's cwd), or one inside a sandbox root, a temporary directory
// (Env.TmpDir, /tmp, /var/tmp) or confine.write. It looks at no directory
// when no entry is such (the usual $PATH), and returns "" for a name found
// first elsewhere or nowhere.
func (d *decider) lookPath(name string) string {
	entries := filepath.SplitList(d.env.Path)
	writable := func(e string) bool {
		if !path.IsAbs(e) {
			return true
		}
		dirs := []string{"/tmp", "/var/tmp", d.env.TmpDir}
		for _, r := range d.roots {
			dirs = append(dirs, r.Path, r.Resolved)
		}
		project := ""
		if len(d.roots) > 0 {
			project = d.roots[0].Resolved
		}
		for _, w := range d.pol.Confine.Write {
			dirs = append(dirs, policy.ExpandDir(w, d.env.Home, project))
		}
		for _, w := range dirs {
			if w != "" && within(path.Clean(w), path.Clean(e)) {
				return true
			}
		}
		return false
	}
	last := -1
	for i, e := range entries {
		if writable(e) {
			last = i
		}
	}
	for _, e := range entries[:last+1] {
		dir := e
		if !path.IsAbs(dir) {
			dir = path.Join(d.call.Cwd, dir)
		}
		p := path.Join(dir, name)
		fi, err := fs.Stat(d.fsys, strings.TrimPrefix(p, "/"))
		if err != nil || fi.IsDir() {
			continue
		}
		if writable(e) {
			return p
		}
		return ""
	}
	return ""
}

// readSourced reads the file at p (absolute) for shell.Env.ReadFile through
// the decider's file system: a regular file of at most maxSourced bytes,
// else an error (the source command is then unknown).
func (d *decider) readSourced(p string) ([]byte, error) {
	if !path.IsAbs(p) {
		return nil, fmt.Errorf("%s is not an absolute path", p)
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	fi, err := fs.Stat(d.fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	if fi.Size() > maxSourced {
		return nil, fmt.Errorf("%s is over %d bytes", p, maxSourced)
	}
	f, err := d.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSourced+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSourced {
		return nil, fmt.Errorf("%s is over %d bytes", p, maxSourced)
	}
	return b, nil
}

// otherNames sets t.Names from Env.OtherNames when t resolves (in either
// reading) to an existing regular file with more than one link.
func (d *decider) otherNames(t *Target) {
	for _, res := range []*Resolution{&t.Res, t.Lex} {
		if res == nil || !res.Exists || res.Links < 2 {
			continue
		}
		t.Names = append(t.Names, d.env.OtherNames[res.Path]...)
		if d.env.OtherNamesErr != "" {
			t.NamesUnknown = d.env.OtherNamesErr
		}
	}
}
