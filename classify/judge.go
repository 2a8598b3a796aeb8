package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/policy/glob"
)

// namesUnknownRule is the rule of the ask for a target whose other names
// could not be known (Target.NamesUnknown).
const namesUnknownRule = "a file with several names"

// judge applies the decision table to one target and returns every matching
// row, in the order of the table; the lowest row, among these and the call's
// own rules, decides.
func (d *decider) judge(i int, t *Target) []Reason {
	j := &judgement{d: d, i: i, t: t}
	j.rules(d.pol.Deny, RowDeny, policy.Deny, true)
	j.secretBelow()
	if t.NamesUnknown != "" {
		j.add(RowAsk, policy.Ask, namesUnknownRule, "", t.Res.Path,
			"it reaches "+t.Res.Path+", a file with other names (hard links), and safezone could not tell whether one of them is a file the policy hides: "+t.NamesUnknown)
	}
	if len(t.Globs) > 0 {
		// A pattern target only carries deny and ask rules, and for a
		// write the protected paths it names; its directory is judged as a
		// target of its own.
		t.Inside = true
		if t.Access == policy.Write {
			j.protectedPattern()
		}
		j.rules(d.pol.Ask, RowAsk, policy.Ask, true)
		j.add(RowRead, policy.Allow, "pattern", "", "", "checked against deny and ask rules only")
		return j.out
	}
	if t.Access == policy.Write {
		t.Class = j.classes()
	}
	session := j.session()
	if d.modes.Read.On && (t.Access == policy.Write || d.callWrites()) {
		j.add(RowReadMode, policy.Deny, "read mode", d.modes.Read.Source, "", "")
	}
	if session {
		t.Inside = true
	} else {
		j.outside()
	}
	j.rules(d.pol.Ask, RowAsk, policy.Ask, true)
	j.guardRemoveTop()
	j.rules(d.pol.Allow, RowAllow, policy.Allow, false)
	j.fallback()
	return j.out
}

// judgement collects the rows that match one target.
type judgement struct {
	d    *decider
	i    int // the target's index
	t    *Target
	out  []Reason
	safe bool // every view of a write target is in a safe path (whatever its class)
}

func (j *judgement) add(row Row, eff policy.Decision, rule, src, p, note string) *Reason {
	j.out = append(j.out, Reason{Row: row, Effect: eff, Rule: rule, Source: src, Target: j.i, Path: p, Note: note})
	return &j.out[len(j.out)-1]
}

// rules adds every path rule of a list that matches the target (widen: a
// Read rule also covers a write of the same path, for deny and ask lists).
func (j *judgement) rules(list []policy.Rule, row Row, eff policy.Decision, widen bool) {
	for k := range list {
		r := &list[k]
		if p, ok := j.d.ruleMatches(r, j.t, widen); ok {
			j.add(row, eff, r.Text, r.Pos.String(), p, "")
		}
	}
}

// classes adds the protected (row 3) and warned (a warning only) rows of a
// write target and returns its class.
func (j *judgement) classes() Class {
	d, t := j.d, j.t
	class := ClassNone
	for k := range d.pol.Protected {
		pt := &d.pol.Protected[k]
		if p, ok := d.anyView(pt, t); ok {
			class = ClassProtected
			j.add(RowProtected, policy.Deny, protectedRule(pt), pt.Pos.String(), p, "")
		}
	}
	if d.shell == nil {
		if p, ok := gitFile(t); ok {
			class = ClassProtected
			j.add(RowProtected, policy.Deny, gitFileRule, "built in", p,
				"git runs a repository's hooks and reads its configuration outside the sandbox, a nested repository's too")
		}
	}
	// A write to a directory reaches everything below it: a shell command's
	// target says so itself (Recursive: rm -r, mv of a directory); a file
	// tool's or an MCP tool's write of an existing directory (a move) does.
	if (t.Recursive && !t.Members) || (d.shell == nil && t.Res.Dir) {
		for k := range d.pol.Protected {
			pt := &d.pol.Protected[k]
			if p, ok := d.protectedBelow(pt, t); ok {
				class = ClassProtected
				j.add(RowProtected, policy.Deny, fmt.Sprintf("paths.protected %q", pt.Text), pt.Pos.String(), p,
					"a recursive write reaches "+p)
			}
		}
	}
	if dir, v, ok := d.repoDirWrite(t); ok && d.shell == nil {
		class = ClassProtected
		j.add(RowProtected, policy.Deny, "the git repository "+dir, "git's discovery", v,
			"with HEAD, objects and refs the directory is a repository itself: git run in it takes it before any .git above, and runs its hooks and configuration")
	}
	for k := range d.pol.Protected {
		pt := &d.pol.Protected[k]
		if p, ok := d.protectedHome(pt, t); ok {
			class = ClassProtected
			j.add(RowProtected, policy.Deny, fmt.Sprintf("paths.protected %q", pt.Text), pt.Pos.String(), p,
				"writing "+p+" decides where the protected files below it live")
		}
	}
	warned := false
	for k := range d.pol.Warned {
		pt := &d.pol.Warned[k]
		if p, ok := d.anyView(pt, t); ok {
			warned = true
			j.add(RowWrite, policy.Abstain, fmt.Sprintf("paths.warned %q", pt.Text), pt.Pos.String(), p, "").Warning = true
		}
	}
	j.safe = d.allViewsSafe(t)
	switch {
	case class == ClassProtected:
	case warned:
		class = ClassWarned
	case j.safe:
		class = ClassSafe
	}
	return class
}

// maxRepoDirDepth bounds the directories above a write target that
// repoDirWrite looks at (refs/heads/NAME lies three below).
const maxRepoDirDepth = 4

// repoDirWrite returns a directory above a view of the write target t
// (up to maxRepoDirDepth levels) that is a git repository once t is
// written: it holds HEAD, and commondir or objects and refs (git 2.39
// setup.c is_git_directory), counting t as there. git run in such a
// directory takes it before any .git above (safe.bareRepository "all",
// git's default) and runs its hooks and configuration: a file tool could
// otherwise make src/ one, file by file, that the user's git in src
// obeys, where a .git is protected. Shell commands are left to the watch
// (a directory that is a repository itself is a nested repository to the
// search). It returns the directory and the view.
func (d *decider) repoDirWrite(t *Target) (string, string, bool) {
	for _, v := range t.views() {
		dir := v
		for range maxRepoDirDepth {
			dir = path.Dir(dir)
			if dir == "/" || dir == "." {
				break
			}
			has := func(name string) bool {
				p := dir + "/" + name
				if v == p || strings.HasPrefix(v, p+"/") {
					return true
				}
				_, err := d.fsys.Lstat(strings.TrimPrefix(p, "/"))
				return err == nil
			}
			if has("HEAD") && (has("commondir") || has("objects") && has("refs")) {
				return dir, v, true
			}
		}
	}
	return "", "", false
}

// protectedPattern adds row 3 when a write pattern target (find -name
// '*.pem' -delete, a glob) names protected paths (see glob.Cache.Names).
func (j *judgement) protectedPattern() {
	d, t := j.d, j.t
	for k := range d.pol.Protected {
		pt := &d.pol.Protected[k]
		names := false
		for _, tg := range t.Globs {
			if p, ok := d.patternNames(pt, tg); ok {
				j.add(RowProtected, policy.Deny, protectedRule(pt), pt.Pos.String(), p, "the pattern names protected files")
				names = true
				break
			}
		}
		if p, note, ok := d.patternReaches(pt, t); ok && !names {
			j.add(RowProtected, policy.Deny, protectedRule(pt), pt.Pos.String(), p, note)
		}
	}
}

// session adds row 4 for a file of the host's own session (every place
// the kernel reaches lies in a session directory): allowed to the file
// tools; a shell command's target counts as inside. In read mode only the
// plan files may be written. It reports whether the target is one.
func (j *judgement) session() bool {
	d, t := j.d, j.t
	dirs := d.session.readWrite
	switch {
	case t.Access == policy.Read:
		dirs = append(append(append([]string(nil), dirs...), d.session.plans...), d.session.readOnly...)
	case d.modes.Read.On:
		dirs = d.session.plans
	default:
		dirs = append(append([]string(nil), dirs...), d.session.plans...)
	}
	if len(dirs) == 0 {
		return false
	}
	for _, v := range t.placeViews() {
		if !slices.ContainsFunc(dirs, func(dir string) bool { return within(dir, v) }) {
			return false
		}
	}
	if d.shell == nil {
		j.add(RowSession, policy.Allow, "host session file", "", t.Res.Path, "the host's own files for this session: transcripts, tool results, task outputs, plans")
	}
	return true
}

// outside adds row 6 for a target outside every sandbox root, and sets
// t.Inside. A read that an allow rule names by an absolute or home path
// (Read(//home/me/other/**), Read(~/notes/**)) is no outside read: the
// rule decides.
func (j *judgement) outside() {
	d, t := j.d, j.t
	t.Inside = true
	if !d.modes.Sandbox.On {
		return
	}
	if t.Access == policy.Read && j.allowedOutside() {
		return
	}
	for _, v := range t.placeViews() {
		if d.inside(v, t.Access) {
			continue
		}
		if d.kernelLets(v, t) {
			d.kernelAgrees = true
			continue
		}
		t.Inside = false
		s, name := d.pol.OutsideRead, "sandbox.outside_read"
		if t.Access == policy.Write {
			s, name = d.pol.OutsideWrite, "sandbox.outside_write"
		}
		j.add(RowOutside, s.Value, name, s.Pos.String(), v, d.kernelRefuses(v, t))
		return
	}
}

// kernelLets reports whether a confined shell command may do what the
// target names outside the sandbox roots anyway, so that naming it asks
// nothing (README, "What the kernel enforces"): write in a directory of
// Env.KernelWrite (the temporary directories, the caches), or read while
// sandbox.outside_read is ask what Env.KernelReadable says a confined
// command reads (everything outside the home directory and /home, /mnt,
// /media, /srv, and what programs need in the home directory; the secrets
// the deny rules decide before this row). It holds only
// for a shell call that will run confined: one the mode auto-approves
// (bypassPermissions, -y, agi), or one the host runs without asking
// (Env.RunsUnasked). A call the host asks about is judged as named: the
// user who approves it runs it unconfined.
func (d *decider) kernelLets(p string, t *Target) bool {
	access := t.Access
	if d.shell == nil || !d.confinable() || !d.willRunUnasked() {
		return false
	}
	if access == policy.Read {
		return d.pol.OutsideRead.Value == policy.Ask && d.kernelReads(p, t)
	}
	for _, r := range d.roots {
		if r.ReadOnly && within(r.Resolved, p) {
			return false // sandbox.read_dirs: the kernel keeps them read-only
		}
	}
	for _, w := range d.env.KernelWrite {
		if within(w, p) {
			return true
		}
	}
	return false
}

// kernelRefuses says why a confined command could not read p either, for
// a read outside that kernelLets does not let through only because the
// kernel keeps the home directory and the shared top-level directories
// private (Env.KernelReadable), or "".
func (d *decider) kernelRefuses(p string, t *Target) string {
	if t.Access != policy.Read || d.shell == nil || !d.confinable() || !d.willRunUnasked() || d.kernelReads(p, t) {
		return ""
	}
	return "a confined command cannot read it either: the kernel keeps your home directory private but for what programs need there (toolchains, their configuration and caches), and other people's files (/home, /mnt, /media, /srv) but the sandbox roots"
}

// kernelReads reports whether a confined command may read the target t
// at its view p (Env.KernelReadable; nil: everything). A directory that
// is only listed (ls DIR, not a read of every file below it) is: Landlock
// does not restrict listings.
func (d *decider) kernelReads(p string, t *Target) bool {
	if d.env.KernelReadable == nil || t.Res.Exists && t.Res.Dir && !t.Below {
		return true
	}
	return d.env.KernelReadable(p)
}

// willRunUnasked reports whether a shell call runs without a person's look
// if nothing else stops it: its mode auto-approves shell commands, or the
// host runs it without asking (Env.RunsUnasked), which it does only when
// every target lies inside its working directories (computed once).
func (d *decider) willRunUnasked() bool {
	if d.unasked == 0 {
		d.unasked = 2
		approved := !d.modes.Read.On && (d.modes.AGI || d.pol.AutoApprove.Value || d.call.PermissionMode == hookio.PermBypass)
		if approved || d.hostRunsUnasked() {
			d.unasked = 1
		}
	}
	return d.unasked == 1
}

// hostRunsUnasked reports whether the host would run this shell call
// without asking if the hook abstained: Env.RunsUnasked says so of the
// command line, the analysis knows every target and every program it runs,
// and each target lies inside the sandbox roots (the host refuses paths
// outside its working directories).
func (d *decider) hostRunsUnasked() bool {
	if d.env.RunsUnasked == nil || d.shell == nil || !d.shell.Known() || d.modes.Read.On {
		return false
	}
	for i := range d.targets {
		t := &d.targets[i]
		if t.Err != nil {
			return false
		}
		if len(t.Globs) > 0 {
			continue // a pattern: its directory is a target of its own
		}
		for _, v := range t.placeViews() {
			if !d.inside(v, t.Access) {
				return false
			}
		}
	}
	for i := range d.shell.Commands {
		if c := &d.shell.Commands[i]; c.Unknown != "" || c.Runs != "" {
			return false
		}
	}
	return d.env.RunsUnasked(d.call.PermissionMode, d.call.Command, d.unaskedEnv())
}

// unaskedEnv is what the host's own check needs besides the command line:
// the call's cwd, the host's working directories (d.hostRoots), and the
// file system as this decision sees it, links resolved as the kernel
// would (Resolve; a path it cannot resolve is inside no root).
func (d *decider) unaskedEnv() hookio.UnaskedEnv {
	return hookio.UnaskedEnv{
		Cwd:   d.call.Cwd,
		Roots: d.hostRoots,
		Resolve: func(p string) string {
			res, err := Resolve(d.fsys, p)
			if err != nil {
				return ""
			}
			return res.Path
		},
		Lstat: func(p string) (fs.FileInfo, error) {
			name := strings.TrimPrefix(path.Clean(p), "/")
			if name == "" {
				name = "."
			}
			return fs.Lstat(d.fsys, name)
		},
	}
}

// allowedOutside reports whether an allow rule anchored outside the project
// (an absolute or a home path) matches the target.
func (j *judgement) allowedOutside() bool {
	for k := range j.d.pol.Allow {
		r := &j.d.pol.Allow[k]
		if r.Kind != policy.RulePath || (r.Path.Anchor != policy.Absolute && r.Path.Anchor != policy.Home) {
			continue
		}
		if _, ok := j.d.ruleMatches(r, j.t, false); ok {
			return true
		}
	}
	return false
}

// fallback adds the last row that applies to the target: rows 9 to 11.
func (j *judgement) fallback() {
	d, t := j.d, j.t
	switch {
	case d.call.Kind.Builtin() && t.Access == policy.Read:
		j.add(RowRead, policy.Allow, "read inside the sandbox", "", "", "")
	case d.call.Kind.Builtin() && t.Access == policy.Write:
		switch {
		case j.safe:
			// Safe decides a write even in a warned path.
			j.add(RowWrite, policy.Allow, "safe path", d.safeSource(t), "", "")
		case d.modes.AutoApprove.On:
			j.add(RowWrite, policy.Allow, "auto-approve", d.modes.AutoApprove.Source, "", "")
		default:
			j.add(RowWrite, policy.Abstain, "not auto-approved", "", "", "the host asks as usual")
		}
	case d.shell != nil:
		eff, rule, note := d.shellFallback()
		j.add(RowOther, eff, rule, "", "", note)
	default:
		j.add(RowOther, policy.Abstain, d.otherRule(), "", "", "")
	}
}

// judgeCall applies the table to a call without targets.
func (d *decider) judgeCall() []Reason {
	var out []Reason
	if d.modes.Read.On && d.callWrites() {
		out = append(out, Reason{Row: RowReadMode, Effect: policy.Deny, Rule: "read mode", Source: d.modes.Read.Source, Target: -1})
	}
	if d.shell != nil {
		eff, rule, note := d.shellFallback()
		return append(out, Reason{Row: RowOther, Effect: eff, Rule: rule, Target: -1, Note: note})
	}
	out = append(out, Reason{Row: RowOther, Effect: policy.Abstain, Rule: d.otherRule(), Target: -1})
	return out
}

func (d *decider) otherRule() string {
	switch d.call.Kind {
	case hookio.KindMCP:
		return "MCP tool: never allowed by safezone"
	case hookio.KindShell:
		return "shell command: no targets known"
	case hookio.KindPowerShell:
		return "PowerShell command: safezone cannot parse it"
	}
	return "tool safezone does not judge"
}

// ruleMatches reports whether a path rule applies to target t, and the
// view that matched. Read(...) rules apply to reads and, in deny and ask
// lists (widen), to writes of the same path: you may not overwrite what
// you may not read.
func (d *decider) ruleMatches(r *policy.Rule, t *Target, widen bool) (string, bool) {
	if r.Kind != policy.RulePath {
		return "", false
	}
	if !r.AnyAccess && !r.NamesTool(d.call.Tool) && !(widen && namesAlias(r, d.call.ToolAliases)) {
		return "", false
	}
	if r.Access != t.Access && !(widen && r.Access == policy.Read) {
		return "", false
	}
	if len(t.Globs) > 0 {
		for _, tg := range t.Globs {
			if p, ok := d.patternNames(&r.Path, tg); ok {
				return p, true
			}
		}
		p, _, ok := d.patternReaches(&r.Path, t)
		return p, ok
	}
	return d.anyView(&r.Path, t)
}

// patternReaches reports whether the pattern target t selects an existing
// path that p matches (or that lies below a match), for a pattern whose
// literal directory is a place ("/proj/.git" for ".git/**"; not one that
// matches names at any depth, which patternNames judges): where a glob of
// t can meet p at all (glob.Cache.Meets), the paths at and below that
// place are looked at, bounded by maxGlobDirs directories; past the bound
// the place counts as reached. It returns the path, and a note for the
// reason. So "find . -name config -delete" reaches .git/config, and
// "find . -name '*.tmp' -delete" nothing in .git/ unless a .tmp file is
// there.
func (d *decider) patternReaches(p *policy.Pattern, t *Target) (string, string, bool) {
	if p.Anchor == policy.AnyDepth {
		return "", "", false
	}
	prefix, _ := glob.LiteralPrefix(p.Glob)
	if prefix == "" || prefix == "/" {
		return "", "", false
	}
	meets := false
	for _, pg := range patternGlobs(p, &d.anchors) {
		for _, tg := range t.Globs {
			meets = meets || d.globs.Meets(fold(tg), fold(pg.glob))
		}
	}
	if !meets {
		return "", "", false
	}
	for _, place := range d.placesOf(p, prefix) {
		if d.exceptsBelow(t, place) {
			// "-not -path './node_modules/*'": nothing below is selected.
			if matchPattern(p, place, &d.anchors) && d.selects(t, place) {
				return place, "the pattern selects " + place, true
			}
			continue
		}
		left := maxGlobDirs
		found := ""
		err := fs.WalkDir(budgetFS{d.fsys, &left}, strings.TrimPrefix(place, "/"), func(name string, _ fs.DirEntry, err error) error {
			if err != nil {
				// A directory find could not read either is left out;
				// the place missing is nothing; past the budget, stop.
				if errors.Is(err, errTooManyDirs) || name == strings.TrimPrefix(place, "/") {
					return err
				}
				return nil
			}
			if abs := "/" + name; matchPattern(p, abs, &d.anchors) && d.selects(t, abs) {
				found = abs
				return fs.SkipAll
			}
			return nil
		})
		switch {
		case found != "":
			return found, "the pattern selects " + found, true
		case errors.Is(err, errTooManyDirs):
			return place, fmt.Sprintf("the pattern may select files below %s (more than %d directories to look at)", place, maxGlobDirs), true
		}
	}
	return "", "", false
}

// exceptsBelow reports whether every glob of t excepts everything below
// dir: an exception A/**, A/*/** or A/**/* whose A matches dir (what
// "-not -path './node_modules/*'" and "-path ./node_modules -prune -o"
// become).
func (d *decider) exceptsBelow(t *Target, dir string) bool {
	dir = fold(dir)
	for i := range t.Globs {
		if i >= len(t.Excepts) || !slices.ContainsFunc(t.Excepts[i], func(e string) bool {
			for _, below := range []string{"/**", "/*/**", "/**/*"} {
				if a, ok := strings.CutSuffix(fold(e), below); ok && d.globs.Match(a, dir) {
					return true
				}
			}
			return false
		}) {
			return false
		}
	}
	return len(t.Globs) > 0
}

// selects reports whether the pattern target t selects the absolute path
// abs: one of its globs matches it and none of that glob's exceptions.
func (d *decider) selects(t *Target, abs string) bool {
	abs = fold(abs)
	for i, g := range t.Globs {
		if !d.globs.Match(fold(g), abs) {
			continue
		}
		excepted := false
		if i < len(t.Excepts) {
			for _, e := range t.Excepts[i] {
				excepted = excepted || d.globs.Match(fold(e), abs)
			}
		}
		if !excepted {
			return true
		}
	}
	return false
}

// patternNames reports whether the target glob tg names paths that pattern
// p matches (glob.Cache.Names), and tg if so.
func (d *decider) patternNames(p *policy.Pattern, tg string) (string, bool) {
	for _, pg := range patternGlobs(p, &d.anchors) {
		if d.globs.Names(fold(tg), fold(pg.glob), pg.neutral) {
			return tg, true
		}
	}
	return "", false
}

func (d *decider) anyView(p *policy.Pattern, t *Target) (string, bool) {
	for _, v := range t.views() {
		if matchPattern(p, v, &d.anchors) {
			return v, true
		}
	}
	if p.Resolve && t.Access == policy.Write {
		for _, g := range d.resolvedPattern(p) {
			for _, v := range t.views() {
				if matchPrefixes(g, fold(v), true) {
					return v, true
				}
			}
		}
	}
	return "", false
}

// placesOf returns the absolute paths a pattern's literal part rel names:
// rel itself for an absolute pattern, rel under each spelling of the
// project root or the home directory for an anchored one, none for a
// pattern that matches at any depth.
func (d *decider) placesOf(p *policy.Pattern, rel string) []string {
	var bases []string
	switch p.Anchor {
	case policy.Absolute:
		return []string{rel}
	case policy.ProjectRoot:
		bases = d.anchors.project
	case policy.Home:
		bases = d.anchors.home
	}
	out := make([]string, 0, len(bases))
	for _, b := range bases {
		out = append(out, path.Join(b, rel))
	}
	return out
}

// resolvedPattern returns a Resolve pattern as it reads where the literal
// path it starts with leads, when that differs from the path itself (a
// symlinked file or directory), for every spelling of its anchor: absolute
// globs, folded, the resolved path escaped and the pattern's rest after it
// (~/.claude/plugins/** with ~/.claude a link to /dot/claude is
// /dot/claude/plugins/**). It is computed once per decision, on the
// memoised file-system view; a path that cannot be resolved adds nothing
// (the pattern still matches the path as written).
func (d *decider) resolvedPattern(p *policy.Pattern) []string {
	if d.resolving == nil {
		d.prepareResolve()
	}
	e, ok := d.resolving[p]
	if !ok {
		// Not one of the policy's protected patterns: its places alone.
		prefix, rest := glob.LiteralPrefix(p.Glob)
		e = &resolveEntry{rest: rest}
		d.eachPlace(p, prefix, func(c string) { e.places = append(e.places, c) })
		d.resolving[p] = e
	}
	if e.done {
		return e.out
	}
	for k, c := range e.places {
		if e.bases != nil && d.missingBelow(c, e.bases[k]) {
			continue // Resolve would find c itself
		}
		// res.Path is clean: when it is c, c is clean too.
		if res, err := Resolve(d.fsys, c); err == nil && res.Path != c && res.Path != path.Clean(c) {
			g := glob.Escape(res.Path)
			if e.rest != "" {
				g = strings.TrimSuffix(g, "/") + "/" + e.rest
			}
			e.out = append(e.out, fold(g))
		}
	}
	e.done = true
	return e.out
}

// missingBelow reports whether Resolve would find the place c (clean and
// absolute) to be itself because its first component below c[:n], the
// anchor's spelling, is missing: that spelling is a directory an earlier
// resolution reached through no link (memoFS.dirs; "/" when n is 0), and
// the view knows the component missing (memoFS.knownMissing: a directory
// read or an lstat found it so). The walk would start there
// (walk.skipKnown: no deeper directory of c can be known), find the
// component missing, and apply the rest lexically.
func (d *decider) missingBelow(c string, n int) bool {
	m, ok := d.fsys.(*memoFS)
	if !ok || len(c) <= n+1 || c[n] != '/' {
		return false
	}
	if n > 0 {
		if _, known := m.dirs[c[:n]]; !known {
			return false
		}
	}
	end := len(c)
	if j := strings.IndexByte(c[n+1:], '/'); j >= 0 {
		end = n + 1 + j
	}
	return m.knownMissing(c[:end])
}

// resolveEntry is a Resolve pattern's part of resolvedPattern: the places
// its literal part names (eachPlace), the rest of the pattern after it, and
// once done, the result.
type resolveEntry struct {
	places []string
	// bases, for a pattern under an anchor, is the length of the anchor's
	// spelling each place starts with (0 for "/"); nil for the others.
	bases []int
	rest  string
	out   []string
	done  bool
}

// prepareResolve lists the places of every Resolve pattern of the policy's
// protected paths (d.resolving), all in one string, and reads the
// directories that hold many of the names on their paths (readResolveDirs).
func (d *decider) prepareResolve() {
	n := 0
	for i := range d.pol.Protected {
		if d.pol.Protected[i].Resolve {
			n++
		}
	}
	pats := make([]*policy.Pattern, 0, n)
	for i := range d.pol.Protected {
		if d.pol.Protected[i].Resolve {
			pats = append(pats, &d.pol.Protected[i])
		}
	}
	entries := make([]resolveEntry, n)
	d.resolving = make(map[*policy.Pattern]*resolveEntry, n)
	// The places under an anchor (base + "/" + prefix, as eachPlace makes
	// them) are written into one buffer and sliced from it once it is
	// complete, in one slice of places; the others (placesOf) are kept as
	// made.
	var buf strings.Builder
	buf.Grow(n * 64)
	type span struct{ entry, start, end, base int }
	spans := make([]span, 0, 2*n)
	for i, p := range pats {
		e := &entries[i]
		d.resolving[p] = e
		prefix, rest := glob.LiteralPrefix(p.Glob)
		e.rest = rest
		bases := d.anchorBases(p)
		if bases == nil || !cleanRel(prefix) {
			e.places = d.placesOf(p, prefix)
			continue
		}
		for _, b := range bases {
			start := buf.Len()
			if b != "/" {
				buf.WriteString(b)
			}
			base := buf.Len() - start
			buf.WriteByte('/')
			buf.WriteString(prefix)
			spans = append(spans, span{i, start, buf.Len(), base})
		}
	}
	all, places, baseLens := buf.String(), make([]string, len(spans)), make([]int, len(spans))
	for k, sp := range spans {
		places[k], baseLens[k] = all[sp.start:sp.end], sp.base
	}
	// Each entry's spans are consecutive.
	for first := 0; first < len(spans); {
		end := first + 1
		for end < len(spans) && spans[end].entry == spans[first].entry {
			end++
		}
		e := &entries[spans[first].entry]
		e.places, e.bases = places[first:end:end], baseLens[first:end:end]
		first = end
	}
	d.readResolveDirs(pats, entries)
}

// readResolveDirs prepares the resolution of the Resolve patterns pats (the
// self-protection layer's: a dozen names in the project root, as many in
// the home directory, most of them missing), whose places are in entries:
// a directory that holds listDirMin or more of the names on their paths,
// of which the view does not know listDirMin or more yet, is read once
// instead of looked up name by name (memoFS.absentFromAtLeast), which
// answers for the missing ones.
func (d *decider) readResolveDirs(pats []*policy.Pattern, entries []resolveEntry) {
	m, ok := d.fsys.(*memoFS)
	if !ok {
		return
	}
	// The names of each directory (as given), as lists in one slice.
	type dirName struct {
		name string
		next int // the directory's previous name, or -1
	}
	type dirNames struct{ last, n int }
	names := make([]dirName, 0, 64)
	dirs := make(map[string]dirNames, 16)
	add := func(dir, base string) {
		dn, ok := dirs[dir]
		if !ok {
			dn.last = -1
		}
		for k := dn.last; k >= 0; k = names[k].next {
			if names[k].name == base {
				return
			}
		}
		names = append(names, dirName{base, dn.last})
		dirs[dir] = dirNames{len(names) - 1, dn.n + 1}
	}
	// climb adds each component of c (absolute and clean) to the names of
	// its directory, from the last up to the one in top ("/" for all).
	climb := func(c, top string) {
		for c != top && c != "/" {
			i := strings.LastIndexByte(c, '/')
			dir := c[:i]
			if i == 0 {
				dir = "/"
			}
			add(dir, c[i+1:])
			c = dir
		}
	}
	var climbed []string // the anchor spellings whose own components are added
	for i, p := range pats {
		if entries[i].bases == nil {
			for _, c := range entries[i].places {
				if c = path.Clean(c); path.IsAbs(c) {
					climb(c, "/")
				}
			}
			continue
		}
		// Each place is a base (clean and absolute) and prefix below it:
		// the components above the base are the same for every pattern
		// of that anchor, added once per base.
		for k, b := range d.anchorBases(p) {
			climb(entries[i].places[k], b)
			if !slices.Contains(climbed, b) {
				climbed = append(climbed, b)
				climb(b, "/")
			}
		}
	}
	for dir, dn := range dirs {
		if dn.n < listDirMin {
			continue
		}
		if r, err := Resolve(d.fsys, dir); err == nil && r.Exists && r.Dir {
			ns := make([]string, 0, dn.n)
			for k := dn.last; k >= 0; k = names[k].next {
				ns = append(ns, names[k].name)
			}
			m.absentFromAtLeast(strings.TrimPrefix(r.Path, "/"), ns, listDirMin)
		}
	}
}

// allViewsSafe reports whether every view of t is in a safe path.
func (d *decider) allViewsSafe(t *Target) bool {
	if len(d.pol.Safe) == 0 {
		return false
	}
	for _, v := range t.views() {
		ok := false
		for j := range d.pol.Safe {
			if matchPattern(&d.pol.Safe[j], v, &d.anchors) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func (d *decider) safeSource(t *Target) string {
	for j := range d.pol.Safe {
		if matchPattern(&d.pol.Safe[j], t.Res.Path, &d.anchors) {
			return fmt.Sprintf("paths.safe %q (%s)", d.pol.Safe[j].Text, d.pol.Safe[j].Pos)
		}
	}
	return "paths.safe"
}

// protectedBelow reports whether a recursive write of t reaches a protected
// path that exists: for patterns anchored at a place (".git/**", an
// absolute path), the literal part of the pattern below t. Patterns that
// match names anywhere (".env*") would need a walk of the tree and are not
// checked here.
func (d *decider) protectedBelow(p *policy.Pattern, t *Target) (string, bool) {
	if p.Anchor == policy.AnyDepth {
		return "", false
	}
	prefix, rest := glob.LiteralPrefix(p.Glob)
	cands := d.placesOf(p, prefix)
	creates := d.mayCreate(t)
	for _, v := range t.placeViews() {
		for _, c := range cands {
			switch {
			case c == v && rest != "" && rest != "**":
				// The target is the pattern's directory: protected when
				// something in it matches ("mv .claude x" with
				// ".claude/settings*.json"), or when the write may put
				// such a file there (cp -rT src/.claude .claude).
				if m := d.someMatch(c, rest); m != "" {
					return m, true
				}
				if creates {
					return c, true
				}
			case c != v && within(v, c):
				if _, err := d.fsys.Lstat(strings.TrimPrefix(c, "/")); err == nil || creates {
					return c, true
				}
			}
		}
	}
	return "", false
}

// removers are the programs whose recursive writes only remove files.
var removers = []string{"rm", "rmdir", "unlink", "shred", "find"}

// mayCreate reports whether a recursive write may create files below its
// directory (a copy, a move, an extraction: cp -r src/. ., where a
// protected file that does not exist yet would be made), not only remove
// them (rm -r, find -delete).
func (d *decider) mayCreate(t *Target) bool {
	if d.shell == nil || t.Cmd < 0 || t.Cmd >= len(d.shell.Commands) {
		return true
	}
	argv := d.shell.Commands[t.Cmd].Argv
	return len(argv) == 0 || !slices.Contains(removers, path.Base(argv[0]))
}

// protectedHome reports whether t writes the directory that holds a
// protected pattern's files (".claude" for ".claude/settings*.json") while
// it is missing or a symbolic link: making it, or replacing it by a link,
// decides where those files live (ln -s /tmp/x .claude, then Claude Code
// reads /tmp/x/settings.json as the project's settings). A real existing
// directory is left to protectedBelow.
func (d *decider) protectedHome(p *policy.Pattern, t *Target) (string, bool) {
	if p.Anchor == policy.AnyDepth {
		return "", false
	}
	prefix, rest := glob.LiteralPrefix(p.Glob)
	if prefix == "" || rest == "" || rest == "**" {
		return "", false
	}
	for _, v := range t.placeViews() {
		if !d.isPlace(p, prefix, v) {
			continue
		}
		fi, err := d.fsys.Lstat(strings.TrimPrefix(v, "/"))
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return v, true
		}
	}
	return "", false
}

// isPlace reports whether v is one of placesOf(p, rel), without building
// them when rel is a clean relative path (as a pattern's literal part
// is).
func (d *decider) isPlace(p *policy.Pattern, rel, v string) bool {
	bases := d.anchorBases(p)
	if bases == nil || !cleanRel(rel) {
		return slices.Contains(d.placesOf(p, rel), v)
	}
	for _, b := range bases {
		// v == path.Join(b, rel): b is clean and absolute, rel clean and
		// relative.
		if b == "/" {
			b = ""
		}
		if len(v) == len(b)+1+len(rel) && v[:len(b)] == b && v[len(b)] == '/' && v[len(b)+1:] == rel {
			return true
		}
	}
	return false
}

// eachPlace calls f with each of placesOf(p, rel), building each with one
// concatenation when rel is a clean relative path.
func (d *decider) eachPlace(p *policy.Pattern, rel string, f func(string)) {
	bases := d.anchorBases(p)
	if bases == nil || !cleanRel(rel) {
		for _, c := range d.placesOf(p, rel) {
			f(c)
		}
		return
	}
	for _, b := range bases {
		if b == "/" {
			b = ""
		}
		f(b + "/" + rel) // path.Join(b, rel)
	}
}

// anchorBases returns the spellings of the directory a pattern anchored at
// the project root or the home directory is relative to; nil for other
// anchors.
func (d *decider) anchorBases(p *policy.Pattern) []string {
	switch p.Anchor {
	case policy.ProjectRoot:
		return d.anchors.project
	case policy.Home:
		return d.anchors.home
	}
	return nil
}

// cleanRel reports whether rel is a relative path that path.Join(b, rel)
// appends to a clean absolute b unchanged: not empty, no "." or ".."
// element, no repeated or trailing slash.
func cleanRel(rel string) bool {
	return rel != "" && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") && !strings.HasPrefix(rel, "/") && path.Clean(rel) == rel
}

// someMatch returns an existing path below dir that the glob rest matches,
// or "": a bounded look (maxGlobDirs directories).
func (d *decider) someMatch(dir, rest string) string {
	left := maxGlobDirs
	full := glob.Escape(strings.TrimPrefix(dir, "/")) + "/" + rest
	if dir == "/" {
		full = rest
	}
	found := ""
	_ = doublestar.GlobWalk(budgetFS{d.fsys, &left}, full, func(p string, _ fs.DirEntry) error {
		found = "/" + p
		return fs.SkipAll
	})
	return found
}

// gitFileRule names gitFile's row in reasons.
const gitFileRule = `self-protection "**/.git/**" (the file tools)`

// gitFile reports whether a view of the write target t lies in a
// directory named .git or is one (a ".git" file names the repository git
// uses there, gitrepository-layout(5)), and which view: a file tool (Write,
// Edit, an MCP tool) may not write there, in any repository below the
// project or outside it, whatever the policy, since git runs what it finds
// there (hooks, core.hooksPath, core.fsmonitor) outside the sandbox. The
// name is compared without case: git refuses ".GIT" in a tree only on
// case-insensitive file systems, where it is the same directory. Shell
// commands are left to the policy (.git/** for the project's own), the
// kernel (a confined command's repositories' configuration and hooks are
// read-only) and rm (removing a nested repository whole is ordinary work).
func gitFile(t *Target) (string, bool) {
	for _, v := range t.views() {
		for c := range strings.SplitSeq(v, "/") {
			if strings.EqualFold(c, ".git") {
				return v, true
			}
		}
	}
	return "", false
}

// protectedRule names a protected pattern in reasons: "self-protection" for
// safezone's own, else "paths.protected".
func protectedRule(pt *policy.Pattern) string {
	if pt.Pos.File == policy.SelfProtectionSource && pt.Why != "" {
		return fmt.Sprintf("self-protection %q (a host runs it unconfined: %s)", pt.Text, pt.Why)
	}
	if pt.Pos.File == policy.SelfProtectionSource {
		return fmt.Sprintf("self-protection %q", pt.Text)
	}
	return fmt.Sprintf("paths.protected %q", pt.Text)
}

// maxBelowDirs bounds the directories secretBelow reads for one target.
const maxBelowDirs = 256

// secretBelow adds an ask when t is a read that reaches every file below a
// directory (grep -r, rg, git grep, diff -r, find . -exec cat {} +) and a
// file there matches a deny rule for reads, unless the command will run
// confined and the directory lies inside the sandbox roots, where the
// kernel hides such files (README, "What the kernel enforces"): where no
// kernel stands behind the analysis, a recursive search that the host may
// run without asking would print the secret, and outside the roots the
// kernel does not look for a name pattern's matches.
// The directories below are read breadth first, at most maxBelowDirs of
// them, not following symbolic links (grep -r, rg and git grep do not;
// grep -R makes the command unknown) and skipping confine.program_writable
// trees (.git, node_modules: the kernel leaves them too); past the bound
// the directory counts as holding one. It is an ask, not a deny: what the
// search prints of the file is not known.
func (j *judgement) secretBelow() {
	d, t := j.d, j.t
	if t.Access != policy.Read || !t.Below || !t.Res.Dir {
		return
	}
	// The kernel hides what a deny rule matches inside the sandbox roots
	// only: a name pattern's matches elsewhere (~/other/.env) are not
	// searched for.
	if d.confinable() && d.willRunUnasked() && d.inside(t.Res.Path, policy.Read) {
		return
	}
	var rules []*policy.Rule
	for k := range d.pol.Deny {
		r := &d.pol.Deny[k]
		if r.Kind == policy.RulePath && r.Access == policy.Read && (r.AnyAccess || r.NamesTool(d.call.Tool) || namesAlias(r, d.call.ToolAliases)) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return
	}
	queue := []string{t.Res.Path}
	for read := 0; len(queue) > 0; read++ {
		dir := queue[0]
		queue = queue[1:]
		if read == maxBelowDirs {
			j.add(RowAsk, policy.Ask, "a recursive read", "", dir,
				fmt.Sprintf("it reads every file below %s, more than %d directories, which safezone does not look through for files a deny rule matches, and it would run unconfined (no kernel hides them)", t.Res.Path, maxBelowDirs)).Below = true
			return
		}
		entries, err := fs.ReadDir(d.fsys, strings.TrimPrefix(dir, "/"))
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := path.Join(dir, e.Name())
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() {
				if !d.programWritable(p) {
					queue = append(queue, p)
				}
				continue
			}
			for _, r := range rules {
				if matchPattern(&r.Path, p, &d.anchors) {
					j.add(RowAsk, policy.Ask, r.Text, r.Pos.String(), p,
						"it reads every file below "+t.Res.Path+", "+p+" among them, which deny rule "+r.Text+" matches, and it would run unconfined (no kernel hides it)").Below = true
					return
				}
			}
		}
	}
}

// programWritable reports whether the directory p lies in a
// confine.program_writable tree.
func (d *decider) programWritable(p string) bool {
	for k := range d.pol.Confine.ProgramWritable {
		if matchPattern(&d.pol.Confine.ProgramWritable[k], p, &d.anchors) {
			return true
		}
	}
	return false
}
