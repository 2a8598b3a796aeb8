package pipeline

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/classify/shell"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// Explanation is a classify.Result in the shape `safezone explain --json`
// prints: the decision, the reason, the roots, every target as
// given and resolved, and every rule, class or mode that matched.
type Explanation struct {
	Decision policy.Decision `json:"decision"`
	Row      int             `json:"row"`
	Reason   string          `json:"reason"`
	Warning  string          `json:"warning,omitempty"`
	Error    string          `json:"error,omitempty"`
	Tool     string          `json:"tool"`
	Kind     string          `json:"kind"`
	Mode     ExplainMode     `json:"mode"`
	Policy   []string        `json:"policy"`
	Roots    []classify.Root `json:"roots"`
	Targets  []ExplainTarget `json:"targets"`
	// Unknown is true when some target of a shell command could not be
	// known statically; UnknownWhy says why (the first reason).
	Unknown    bool   `json:"unknown"`
	UnknownWhy string `json:"unknown_why,omitempty"`
	// Commands are the simple commands of a shell command line (Bash),
	// after wrapper stripping, each with what it reads and writes.
	Commands []ExplainCommand `json:"commands,omitempty"`
	Matched  []ExplainMatch   `json:"matched"`
	// Confine says, for a shell command, whether it runs inside the kernel
	// sandbox and with which ruleset, or why not.
	Confine *ExplainConfine `json:"confine,omitempty"`
	Notes   []string        `json:"notes,omitempty"`
	// Ignored lists values that a managed lock kept out of the policy.
	Ignored []string `json:"ignored,omitempty"`
	// Untrusted lists what files that come with the repository would widen,
	// left out until the user trusts them; Trust is the command for each
	// such file.
	Untrusted []string `json:"untrusted,omitempty"`
	Trust     []string `json:"trust,omitempty"`
	// Removed lists the entries remove: sections took out of the policy.
	Removed []string `json:"removed,omitempty"`
}

// ExplainConfine is the kernel confinement of a shell command.
type ExplainConfine struct {
	Confined bool   `json:"confined"`
	Note     string `json:"note,omitempty"` // why it is confined, or why not
	// Unavailable says why no command can be confined here ("" when one
	// can).
	Unavailable string           `json:"unavailable,omitempty"`
	Ruleset     *confine.Ruleset `json:"ruleset,omitempty"`
	// ReadOnlyOff says why the read-only paths are guarded by the analysis
	// only.
	ReadOnlyOff string `json:"read_only_off,omitempty"`
	// HostSandbox says what holds if the command runs inside the host's
	// own sandbox (Claude Code's), where the launcher falls back to
	// Landlock alone.
	HostSandbox string `json:"host_sandbox,omitempty"`
	// Why says why each path of the ruleset is there (the deny rule or
	// pattern that hides it, what a hidden socket leads to); Granted are
	// the secrets a grant leaves readable, Kept the sockets left
	// reachable.
	Why     map[string]string `json:"why,omitempty"`
	Granted []string          `json:"granted,omitempty"`
	Kept    []string          `json:"kept,omitempty"`
	// GitWritable are what git reads as configuration or runs, read-only
	// to every other confined command, that this line may write (git
	// submodule update, git worktree remove), with why.
	GitWritable map[string]string `json:"git_writable,omitempty"`
	// GrantRefused says why the confine.grants the command matched do not
	// apply (classify.Result.GrantRefused).
	GrantRefused string `json:"grant_refused,omitempty"`
	// Network says what the command may connect to: "open" (the network
	// is not the kernel's to restrict here), or "proxy" with NetAllow and
	// NetDeny (the namespace's only way out is safezone-proxy), or "none"
	// (a namespace with no way out: the proxy is not installed); NetOff
	// says why there is no proxy, or why network.isolate is on and the
	// network open all the same.
	Network  string            `json:"network,omitempty"`
	NetAllow []string          `json:"net_allow,omitempty"`
	NetWhy   map[string]string `json:"net_why,omitempty"`
	NetDeny  []string          `json:"net_deny,omitempty"`
	NetOff   string            `json:"net_off,omitempty"`
	// Refusals says whether what the kernel refuses the command reaches
	// the audit log and the model, and why not (package refusals).
	Refusals string `json:"refusals,omitempty"`
	// Watched are the guarded paths that do not exist, which the command
	// could create and the kernel cannot stop: the hook watches them
	// (pipeline's watch list), and every later call in the project is
	// denied once one has appeared (a .git: once it holds what git would
	// run), until the user trusts it.
	Watched []string `json:"watched,omitempty"`
}

// ExplainMode is the effective mode and where each part came from.
type ExplainMode struct {
	PermissionMode string `json:"permission_mode"`
	// PermissionFrom says where the hook found the permission mode when
	// the input does not carry the real one (Codex, Gemini CLI).
	PermissionFrom string `json:"permission_from,omitempty"`
	Read           bool   `json:"read"`
	ReadSource     string `json:"read_source,omitempty"`
	AutoApprove    bool   `json:"auto_approve"`
	AutoSource     string `json:"auto_source,omitempty"`
	Sandbox        bool   `json:"sandbox"`
	SandboxSource  string `json:"sandbox_source"`
}

// ExplainTarget is one target as explain shows it.
type ExplainTarget struct {
	Field    string         `json:"field"`
	Given    string         `json:"given"`
	Access   policy.Access  `json:"access"`
	Abs      string         `json:"abs,omitempty"`
	Resolved string         `json:"resolved,omitempty"`
	Location string         `json:"location,omitempty"` // the link's own location, when it differs
	Lexical  string         `json:"lexical,omitempty"`  // resolution after applying ".." first, when it differs
	Exists   bool           `json:"exists"`
	Ancestor string         `json:"ancestor,omitempty"` // deepest existing directory of a new path
	Hops     []classify.Hop `json:"hops,omitempty"`
	Globs    []string       `json:"globs,omitempty"`
	Inside   bool           `json:"inside"`
	// Links is the resolved file's link count when above 1 (hard links),
	// Names its other names judged with it (hidden files of the same
	// inode), NamesUnknown why they could not be known.
	Links        uint64   `json:"links,omitempty"`
	Names        []string `json:"names,omitempty"`
	NamesUnknown string   `json:"names_unknown,omitempty"`
	Class        string   `json:"class"`
	Decision     string   `json:"decision,omitempty"`
	Error        string   `json:"error,omitempty"`
}

// ExplainCommand is one simple command of a shell command line.
type ExplainCommand struct {
	// Argv is the command after wrapper stripping, static words made
	// literal and the others shown as written ("$X").
	Argv []string `json:"argv"`
	// Cwd is the directory the command runs in, "" when unknown (cd to a
	// variable). CwdAlso lists the other directories it may run in, when
	// an earlier cd may have failed ("cd x; rm f").
	Cwd     string               `json:"cwd"`
	CwdAlso []string             `json:"cwd_also,omitempty"`
	Targets []ExplainShellTarget `json:"targets"`
	// Unknown says why some target of the command cannot be known
	// statically; "" when every target is known.
	Unknown  string `json:"unknown"`
	ReadOnly bool   `json:"read_only"`
	// Runs names the program or script whose own file accesses safezone
	// cannot see (shell.Command.Runs); omitted for commands in the tables.
	Runs string `json:"runs,omitempty"`
}

// ExplainShellTarget is one path a shell command reads or writes, before
// resolution (the resolution is in Explanation.Targets).
type ExplainShellTarget struct {
	Given  string        `json:"given"`
	Path   string        `json:"path"` // absolute, joined to the command's directory
	Access policy.Access `json:"access"`
	// Glob: expanded against the file system and checked as a pattern.
	Glob bool `json:"glob,omitempty"`
	// Pattern: names files by pattern only (find DIR -name N).
	Pattern bool `json:"pattern,omitempty"`
	// Recursive: the write reaches everything below the path (rm -r).
	Recursive bool `json:"recursive,omitempty"`
}

// ExplainMatch is one matching rule, class, mode or fallback row.
type ExplainMatch struct {
	Row     int             `json:"row"`
	Effect  policy.Decision `json:"effect"`
	Rule    string          `json:"rule"`
	Source  string          `json:"source"`
	Target  int             `json:"target"` // index into targets; -1 for the call
	Path    string          `json:"path,omitempty"`
	Note    string          `json:"note,omitempty"`
	Warning bool            `json:"warning,omitempty"`
}

// ExplanationOf is the ExplanationOf of a verdict's result: res decided call
// under pol.
func ExplanationOf(v Verdict) Explanation {
	e := explainResult(v.Res, v.call, v.pol)
	if v.Res.Shell != nil && v.call != nil && v.call.Kind == hookio.KindShell {
		c := &ExplainConfine{Confined: v.Res.Confine, Note: v.Res.ConfineNote, Unavailable: v.confineOff, GrantRefused: v.Res.GrantRefused}
		if v.conf != nil {
			c.Ruleset, c.ReadOnlyOff, c.HostSandbox = &v.conf.Ruleset, v.conf.ReadOnlyOff, v.conf.HostFallback
			c.Why, c.Granted, c.Kept = v.conf.Why, v.conf.Granted, v.conf.Kept
			c.GitWritable = v.conf.GitWritable
			c.Refusals = v.conf.Refusals
			c.Watched = v.conf.Missing
			c.Network, c.NetOff = "open", v.conf.NetOff
			if n := v.conf.Ruleset.Net; n != nil && n.Proxy == "" {
				c.Network = "none"
			} else if n != nil {
				c.Network, c.NetAllow, c.NetWhy = "proxy", v.conf.NetAllow, v.conf.NetWhy
				c.NetDeny = policy.Values(v.pol.Network.Deny)
			}
		}
		e.Confine = c
	}
	return e
}

// explainResult is the explanation of res, which decided call under pol.
func explainResult(res *classify.Result, call *hookio.Call, pol *policy.Policy) Explanation {
	e := Explanation{
		Decision: res.Decision, Row: int(res.Row), Reason: res.Reason, Warning: res.Warning,
		Roots: res.Roots, Targets: []ExplainTarget{}, Matched: []ExplainMatch{},
	}
	if call != nil {
		e.Tool, e.Kind = call.Tool, call.Kind.String()
		e.Mode.PermissionMode = call.PermissionMode.String()
		e.Mode.PermissionFrom = call.PermissionFrom
	}
	if pol != nil {
		e.Policy = pol.Sources
		for _, ig := range pol.Ignored {
			e.Ignored = append(e.Ignored, ig.String())
		}
		e.Untrusted, e.Trust = UntrustedText(pol)
		for _, r := range pol.Removed {
			e.Removed = append(e.Removed, r.String())
		}
	}
	if res.Err != nil {
		e.Error = res.Err.Error()
	}
	if sh := res.Shell; sh != nil {
		e.Unknown, e.UnknownWhy = !sh.Known(), sh.Why()
		for _, c := range sh.Commands {
			e.Commands = append(e.Commands, explainCommand(c))
		}
	}
	m := res.Modes
	e.Mode.Read, e.Mode.ReadSource = m.Read.On, m.Read.Source
	e.Mode.AutoApprove, e.Mode.AutoSource = m.AutoApprove.On, m.AutoApprove.Source
	e.Mode.Sandbox, e.Mode.SandboxSource = m.Sandbox.On, m.Sandbox.Source
	for i := range res.Targets {
		e.Targets = append(e.Targets, explainTarget(res, i))
	}
	for _, x := range res.Reasons {
		e.Matched = append(e.Matched, ExplainMatch{
			Row: int(x.Row), Effect: x.Effect, Rule: x.Rule, Source: x.Source,
			Target: x.Target, Path: x.Path, Note: x.Note, Warning: x.Warning,
		})
	}
	return e
}

func explainCommand(c shell.Command) ExplainCommand {
	ec := ExplainCommand{Argv: c.Argv, Targets: []ExplainShellTarget{}, Unknown: c.Unknown, ReadOnly: c.ReadOnly, Runs: c.Runs}
	if ec.Argv == nil {
		ec.Argv = []string{}
	}
	if len(c.Cwd) > 0 {
		ec.Cwd, ec.CwdAlso = c.Cwd[0], c.Cwd[1:]
	}
	for _, t := range c.Targets {
		access := policy.Write
		if t.Access == shell.Read {
			access = policy.Read
		}
		ec.Targets = append(ec.Targets, ExplainShellTarget{
			Given: t.Given, Path: t.Path, Access: access,
			Glob: t.Glob, Pattern: t.Pattern, Recursive: t.Recursive,
		})
	}
	return ec
}

func explainTarget(res *classify.Result, i int) ExplainTarget {
	t := &res.Targets[i]
	et := ExplainTarget{
		Field: t.Field, Given: t.Given, Access: t.Access, Abs: t.Abs,
		Resolved: t.Res.Path, Exists: t.Res.Exists, Ancestor: t.Res.Ancestor,
		Hops: t.Res.Hops, Globs: t.Globs, Inside: t.Inside, Class: t.Class.String(),
	}
	if t.Res.Location != t.Res.Path {
		et.Location = t.Res.Location
	}
	if t.Lex != nil {
		et.Lexical = t.Lex.Path
	}
	if t.Res.Links > 1 {
		et.Links, et.Names, et.NamesUnknown = t.Res.Links, t.Names, t.NamesUnknown
	}
	if t.Err != nil {
		et.Error = t.Err.Error()
	} else {
		et.Decision = res.TargetDecision(i).String()
	}
	return et
}

// Text renders the explanation as the human-readable trace of
// `safezone explain`: the mode, the roots, each shell command, each target
// with the rows that matched it, the rows of the call, and the decision.
func (e Explanation) Text() string {
	w := &trace{}
	e.writeHeader(w)
	for i, c := range e.Commands {
		writeCommand(w, i, c)
	}
	if e.UnknownWhy != "" && len(e.Commands) == 0 {
		w.p("unknown    %s", e.UnknownWhy)
	}
	if len(e.Targets) == 0 {
		w.p("targets    none")
	}
	for i, t := range e.Targets {
		e.writeTarget(w, i, t)
	}
	e.writeFooter(w)
	return w.String()
}

// trace is the text being rendered, a line at a time.
type trace struct{ strings.Builder }

func (w *trace) p(format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }

func (e Explanation) writeHeader(w *trace) {
	w.p("tool       %s (%s)", e.Tool, e.Kind)
	w.p("policy     %s", strings.Join(e.Policy, " + "))
	mode := "write"
	if e.Mode.Read {
		mode = "read (" + e.Mode.ReadSource + ")"
	}
	if e.Mode.PermissionFrom != "" {
		w.p("mode       %s; host permission_mode %s, from %s", mode, e.Mode.PermissionMode, e.Mode.PermissionFrom)
	} else {
		w.p("mode       %s; host permission_mode %s", mode, e.Mode.PermissionMode)
	}
	if e.Mode.AutoApprove {
		w.p("approve    writes inside the sandbox are auto-approved (%s)", e.Mode.AutoSource)
	} else {
		w.p("approve    writes inside the sandbox are not auto-approved")
	}
	if e.Mode.Sandbox {
		w.p("sandbox    on (%s)", e.Mode.SandboxSource)
	} else {
		w.p("sandbox    off (%s)", e.Mode.SandboxSource)
	}
	for i, r := range e.Roots {
		label := "roots"
		if i > 0 {
			label = ""
		}
		line := fmt.Sprintf("%-10s %s", label, r.Path)
		if r.Resolved != r.Path {
			line += " -> " + r.Resolved
		}
		if r.ReadOnly {
			line += " (read only)"
		}
		w.p("%s  [%s]", line, r.Source)
	}
}

func writeCommand(w *trace, i int, c ExplainCommand) {
	w.p("command %d  %s", i+1, shellQuoteArgv(c.Argv))
	switch {
	case c.Cwd == "":
		w.p("  cwd      unknown (an earlier cd to a directory safezone cannot know)")
	case len(c.CwdAlso) > 0:
		w.p("  cwd      %s (or %s: an earlier cd may have failed)", c.Cwd, strings.Join(c.CwdAlso, ", "))
	default:
		w.p("  cwd      %s", c.Cwd)
	}
	for _, t := range c.Targets {
		what := t.Access.String()
		if t.Recursive {
			what += " recursively"
		}
		line := fmt.Sprintf("  %-8s %q -> %s", what, t.Given, t.Path)
		switch {
		case t.Pattern:
			line += " (a pattern)"
		case t.Glob:
			line += " (a glob, expanded)"
		}
		w.p("%s", line)
	}
	if len(c.Targets) == 0 && c.Unknown == "" {
		w.p("  targets  none")
	}
	if c.Unknown != "" {
		w.p("  unknown  %s", c.Unknown)
	}
	if c.Runs != "" {
		w.p("  runs     %s: what it reads and writes itself is not known (judged like a command with no targets)", c.Runs)
	}
}

func (e Explanation) writeTarget(w *trace, i int, t ExplainTarget) {
	w.p("target %d   %s %s %q", i+1, t.Field, t.Access, t.Given)
	if t.Error != "" {
		w.p("  error    %s", t.Error)
		return
	}
	if len(t.Globs) > 0 {
		w.p("  selects  %s (checked against deny and ask rules)", strings.Join(t.Globs, ", "))
	} else {
		writeResolution(w, t)
	}
	for _, m := range e.Matched {
		if m.Target != i {
			continue
		}
		line := fmt.Sprintf("  row %-2d   %s: %s", m.Row, m.Effect, m.Rule)
		if m.Warning {
			line = fmt.Sprintf("  warning  %s", m.Rule)
		}
		w.p("%s", withSourceAndNote(line, m))
	}
	if t.Decision != "" {
		w.p("  => %s", t.Decision)
	}
}

func writeResolution(w *trace, t ExplainTarget) {
	w.p("  lexical  %s", t.Abs)
	for _, h := range t.Hops {
		w.p("  link     %s -> %s", h.Link, h.Target)
	}
	if t.Location != "" {
		w.p("  location %s (the link itself)", t.Location)
	}
	res := t.Resolved
	if !t.Exists {
		res += " (does not exist; deepest existing ancestor " + t.Ancestor + ")"
	}
	w.p("  resolved %s", res)
	if t.Lexical != "" {
		w.p("  also     %s (\"..\" applied before symlinks, as Node's path.resolve does)", t.Lexical)
	}
	in := "yes"
	if !t.Inside {
		in = "no"
	}
	if t.Links > 1 {
		// A call that runs confined is not looked up: the kernel hides
		// every name (the ruleset's hide lines).
		names := ""
		switch {
		case t.NamesUnknown != "":
			names = "; the hidden ones not known: " + t.NamesUnknown
		case len(t.Names) > 0:
			names = "; judged as " + strings.Join(t.Names, ", ") + " too (the same file)"
		}
		w.p("  links    %d names (hard links)%s", t.Links, names)
	}
	w.p("  inside   %s", in)
	if t.Class != "" {
		w.p("  class    %s", t.Class)
	}
}

func withSourceAndNote(line string, m ExplainMatch) string {
	if m.Source != "" {
		line += " (" + m.Source + ")"
	}
	if m.Note != "" {
		line += "; " + m.Note
	}
	return line
}

func (e Explanation) writeConfine(w *trace) {
	c := e.Confine
	if c == nil {
		return
	}
	switch {
	case c.Confined && c.Ruleset != nil:
		w.p("confine    yes, %s: the kernel enforces", c.Note)
		w.p("  write    %s", strings.Join(c.Ruleset.Write, ", "))
		list := func(label string, ps []string) {
			for _, p := range ps {
				if why := c.Why[p]; why != "" {
					w.p("  %-8s %s: %s", label, p, why)
				} else {
					w.p("  %-8s %s", label, p)
				}
			}
		}
		list("hide", c.Ruleset.Hide)
		list("noread", c.Ruleset.NoRead)
		list("readable", c.Ruleset.Read)
		list("readonly", c.Ruleset.ReadOnly)
		list("tmpfs", c.Ruleset.Tmpfs)
		list("keep", c.Ruleset.Keep)
		list("overlay", c.Ruleset.Overlay)
		for _, k := range slices.Sorted(maps.Keys(c.Ruleset.Replace)) {
			w.p("  replace  %s: %s", k, c.Why[k])
		}
		list("granted", c.Granted)
		if c.GrantRefused != "" {
			w.p("  no grant %s", c.GrantRefused)
		}
		for _, k := range c.Kept {
			if why, ok := strings.CutPrefix(c.Why[k], "reachable: "); ok {
				w.p("  reach    %s: left reachable by %s", k, why)
			} else {
				w.p("  reach    %s: a socket confine.sockets or a grant leaves reachable", k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(c.GitWritable)) {
			w.p("  writable %s: left to this line: %s", k, c.GitWritable[k])
		}
		if c.ReadOnlyOff != "" {
			w.p("  readonly guarded by the analysis only: %s", c.ReadOnlyOff)
		}
		if c.HostSandbox != "" {
			w.p("  host     %s", c.HostSandbox)
		}
		switch {
		case c.Network == "proxy":
			w.p("  network  a namespace of its own: out only through safezone's proxy (HTTP 127.0.0.1:%d, SOCKS5 127.0.0.1:%d); localhost services, link-local and private addresses only where named", confine.NetHTTPPort, confine.NetSOCKSPort)
			for _, h := range c.NetAllow {
				w.p("  allow    %s: %s", h, c.NetWhy[h])
			}
			for _, h := range c.NetDeny {
				w.p("  deny     %s: network.deny", h)
			}
		case c.Network == "none":
			w.p("  network  none: a namespace of its own with no way out: %s", c.NetOff)
		case c.NetOff != "":
			w.p("  network  open: %s", c.NetOff)
		default:
			w.p("  network  open (network.isolate is off: every host, localhost services and 169.254.169.254 are reachable)")
		}
		if c.Refusals != "" {
			w.p("  refusals %s", c.Refusals)
		}
		w.p("  later    a process it leaves running is not ended with the call and keeps this view: the noread paths stay unreadable once made; a secret made later in the project, or a socket made later outside, is not hidden from it (README, \"What the kernel enforces\")")
		w.p("  later    nor can it be: a mask bound into its namespace once the secret appears does not take back a file it opened when it appeared, and ending it with the call ends the servers started with &; it can swap a symlink in between a Write or Edit's check and the host's write")
		for _, p := range c.Watched {
			if IsRepo(p) {
				w.p("  watch    %s: a repository it could make there with a hook or configuration that runs a program denies every later call here, until the user runs safezone trust %s", p, p)
			} else {
				w.p("  watch    %s: missing; if it appears, every later call here is denied until the user runs safezone trust %s", p, p)
			}
		}
		w.p("  later    a repository it creates (git init, git clone) keeps what it writes there, and its configuration and hooks are read-only from the next call on; once a new one holds what git would run (a hook, configuration that runs a program), every call is denied until the user trusts it, but the user's own git run before that runs it")
	case c.Note != "":
		w.p("confine    no: %s", c.Note)
	case c.Unavailable != "":
		w.p("confine    no: %s", c.Unavailable)
	default:
		w.p("confine    no: nothing in it needs it (every program is in the command table)")
	}
}

func (e Explanation) writeFooter(w *trace) {
	e.writeConfine(w)
	for _, m := range e.Matched {
		if m.Target == -1 {
			w.p("%s", withSourceAndNote(fmt.Sprintf("call       row %d %s: %s", m.Row, m.Effect, m.Rule), m))
		}
	}
	for _, n := range e.Notes {
		w.p("note       %s", n)
	}
	for _, n := range e.Ignored {
		w.p("ignored    %s", n)
	}
	for _, n := range e.Removed {
		w.p("removed    %s", n)
	}
	for _, n := range e.Untrusted {
		w.p("untrusted  %s", n)
	}
	for _, n := range e.Trust {
		w.p("trust      %s", n)
	}
	if e.Error != "" {
		w.p("error      %s", e.Error)
	}
	w.p("decision   %s (row %d)", e.Decision, e.Row)
	if e.Reason != "" {
		w.p("reason     %s", e.Reason)
	}
	if e.Warning != "" {
		w.p("warning    %s", e.Warning)
	}
}

// UntrustedText lists what the repository's files would widen, each entry
// with its file and line, and for each such file the command that trusts
// it.
func UntrustedText(pol *policy.Policy) (entries, commands []string) {
	var files []string
	for _, u := range pol.Untrusted {
		entries = append(entries, u.String())
		if !slices.Contains(files, u.Pos.File) {
			files = append(files, u.Pos.File)
		}
	}
	for _, f := range files {
		commands = append(commands, fmt.Sprintf("%s widens the policy and is not trusted: check it, then run `safezone trust %s` to apply it", f, f))
	}
	return entries, commands
}

// shellQuoteArgv joins argv for display, quoting words that need it.
func shellQuoteArgv(argv []string) string {
	ws := make([]string, len(argv))
	for i, w := range argv {
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\|&;<>()*?[]#~=%{}") && !strings.HasPrefix(w, "$") {
			ws[i] = strconv.Quote(w)
		} else {
			ws[i] = w
		}
	}
	return strings.Join(ws, " ")
}
