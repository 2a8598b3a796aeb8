package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// The hook engine: the bytes of one hook input in, a verdict out. The hook,
// `safezone explain`, `safezone replay` and `safezone test` all judge calls
// through it.

//go:generate sh -c "cd .. && go run ./scripts/gendefault"

// embeddedLayer is the embedded default for policy.LoadLayers: compiled at
// build time from policy.example.yaml (default_policy.go, kept equal to a
// fresh parse by TestEmbeddedDefaultGenerated), so that a call without a
// policy file never runs the YAML decoder.
func embeddedLayer() (*policy.Layer, error) { return EmbeddedDefault(), nil }

// System is everything run takes from the process: tests replace it.
type System struct {
	Getenv     func(string) string
	Executable string // safezone's own binary, symlinks resolved (self-protection)
	Getwd      func() (string, error)
	FS         fs.ReadLinkFS
	Now        func() time.Time
	// Start is when the process started (the start of main): the
	// deadline counts from it. Zero means when the hook starts.
	Start time.Time
	// Deadline is how long after start a call must be decided when
	// safezone finds no registration of its own (see deadlineFor).
	Deadline time.Duration
	// Exit ends the process with a status: the deadline's way out when
	// the work is stuck in a system call. Tests leave it nil.
	Exit func(code int)
	uid  int // the user's id, -1 where there is none
	// pid is this process's id: the host's own process is found among its
	// ancestors (hostrun.go). Tests leave it 0: no process is looked at.
	pid int
	// Confine says whether the kernel can confine commands, computed at
	// most once (confine.Available; tests replace it). Copies of a system
	// share it.
	Confine *OnceStatus
	// StartIndex starts the index daemon of a confined command's roots
	// (package index) in the background; nil starts none (tests, and
	// systems without one): each call then walks the roots.
	StartIndex func(spec []byte, sock string) error
	// StartBuild builds the fast launcher into a path in the background
	// (confine.BuildFast); nil builds none: the Go launcher runs.
	StartBuild func(dst string) error
	// StartRefusals starts the collector of the kernel's refusals
	// (package refusals) on a base directory and waits until it listens;
	// nil starts none (tests): the kernel's refusals are not reported.
	StartRefusals func(base string) error
	// UnixSockets lists the Unix sockets bound on the system, for the
	// hook to hide those that lead outside the sandbox; nil reads
	// /proc/net/unix (confine.BoundSockets).
	UnixSockets func() (confine.BoundList, error)
	// cacheSettle is how old the files of a policy must be for the hook to
	// cache it (see policycache.go); 0 caches nothing.
	cacheSettle time.Duration
}

// OnceStatus is a confine.Status computed on first use.
type OnceStatus struct {
	once   sync.Once
	Get    func() confine.Status
	status confine.Status
}

func OSSystem() *System {
	start := time.Now()
	exe, _ := os.Executable()
	// Linux's /proc/self/exe, which os.Executable reads, is already the
	// resolved path (the kernel's name of the file, with no symbolic link
	// on it): resolving it again cost an lstat per component every call.
	if runtime.GOOS != "linux" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
	}
	return &System{
		Executable: exe,
		Getenv:     os.Getenv,
		Getwd:      os.Getwd,
		FS:         os.DirFS("/").(fs.ReadLinkFS),
		Now:        time.Now,
		Start:      start,
		Deadline:   deadlineFor(registeredTimeout),
		Exit:       os.Exit,
		uid:        os.Getuid(),
		pid:        os.Getpid(),
		Confine:    &OnceStatus{Get: confine.Available},
		StartIndex: startIndex(exe),
		StartBuild: startBuild(exe),

		StartRefusals: startRefusals(exe),

		cacheSettle: defaultCacheSettle,
	}
}

// session is where the host that sent call keeps its session files.
func (s *System) session(call *hookio.Call, home string) hookio.Session {
	loc := policy.DefaultLocations(s.Getenv, "", home)
	return hookio.SessionFiles(call, hookio.SessionEnv{
		Home: home, ClaudeConfig: loc.ClaudeConfig, CodexHome: loc.CodexHome,
		TmpDir: s.Getenv("TMPDIR"), UID: s.uid,
	})
}

// ConfineStatus is confine.Available, computed once per process.
func (s *System) ConfineStatus() confine.Status {
	c := s.Confine
	if c == nil {
		return confine.Status{Landlock: fmt.Errorf("%w: not checked", confine.ErrUnavailable)}
	}
	c.once.Do(func() { c.status = c.Get() })
	return c.status
}

// ProjectRoot is the project root of a subcommand run by hand:
// $CLAUDE_PROJECT_DIR, else the working directory.
func (s *System) ProjectRoot() string {
	if root := s.Getenv("CLAUDE_PROJECT_DIR"); root != "" {
		return root
	}
	root, _ := s.Getwd()
	return root
}

// Verdict is what the worker hands back: a result, or an error with the
// on_error decision that applies to it.
type Verdict struct {
	Res *classify.Result
	pol *policy.Policy // the policy res was decided under
	// conf is how the command runs confined (res.Confine); confineOff
	// says why a shell command cannot be confined here ("" when it can,
	// or for other tools).
	conf       *confinement
	confineOff string
	Err        error
	OnError    policy.Decision
	host       hookio.Host // the host that sent the input, when it differs from --host

	// call is the decoded call (nil when the input was unusable) and input
	// the raw input when it was (for the audit record).
	call  *hookio.Call
	input []byte
	// home is $HOME, to shorten paths in messages.
	home string

	// after is set for a host event after the tool ran (Gemini CLI's
	// AfterTool): nothing is decided or recorded; afterContext is what
	// the model is told ("" for nothing).
	after        bool
	afterContext string
	// refused is what the model is told of what the kernel refused the
	// session's earlier confined commands ("" for nothing).
	refused string
}

// Judger turns the bytes of one hook input into a verdict: the one path by
// which the hook, `safezone replay` and `safezone test` judge calls. The
// hook judges one input per process; replay and test judge many and load
// each project root's policy once (cache).
type Judger struct {
	Opts *Options
	Sys  *System
	// Cache keeps the loaded policy per project root; nil loads it for
	// every input.
	Cache map[string]LoadedPolicy
	// Loaded, when set, is told the policy as soon as it is loaded, before
	// deciding (the hook's deadline path needs on_error and the audit
	// settings even when deciding hangs).
	Loaded func(p *policy.Policy, root string)
	// live is set for the hook itself, whose confined commands run: only
	// then does confining a command change the disk (the directories the
	// kernel keeps read-only, the caches, the watch list; see watch.go).
	// explain, replay and test judge without side effects.
	live bool
	// reads, when set, reads the policy and settings files and remembers
	// them (the hook looks for its own registration in them).
	reads *FileCache
	// late, when set, reports whether the call's deadline has passed (its
	// answer is printed): the work left writes no policy cache.
	late func() bool
	// registered is the timeout of the hook's own registration found in
	// the settings files read with reads (see ownTimeout), once the policy
	// is loaded; 0 when none was found.
	registered time.Duration
	// outsideHost judges a shell call as if it ran outside the host's own
	// sandbox (HostSandboxSettings: the ruleset the sandbox must then
	// hold).
	outsideHost bool
}

// ErrUnusablePolicy is wrapped by the error of a verdict whose policy could
// not be loaded.
var ErrUnusablePolicy = errors.New("unusable policy")

type LoadedPolicy struct {
	pol *policy.Policy
	err error
}

// Decide judges data, the hook input as the host sends it on stdin; inErr
// is an error reading it. The project root is projectDir, else
// $CLAUDE_PROJECT_DIR, else the call's cwd, else the working directory, as
// in the hook. The policy is that root's (see loadPolicy); an unusable one
// denies, an unusable input gets the policy's on_error.
func (j *Judger) Decide(data []byte, inErr error, projectDir string) Verdict {
	// A host whose registration another host also runs names the sender
	// (VS Code runs Claude Code's .claude/settings.json hooks).
	host := j.Opts.Host
	if d, ok := host.(hookio.Delegator); ok && inErr == nil {
		host = d.HostFor(data)
	}
	var call *hookio.Call
	if inErr == nil {
		call, inErr = host.Decode(data)
	}
	if call != nil && call.Event == "AfterTool" {
		return Verdict{call: call, host: host, input: data, after: true, afterContext: afterToolContext(call, j.Sys.Getenv("HOME")), refused: j.takeRefusals(call, host)}
	}
	if projectDir == "" {
		projectDir = j.Sys.Getenv("CLAUDE_PROJECT_DIR")
	}
	// Codex sets no project variable and moves cwd with a command's
	// workdir: its sandbox is anchored at the hook's working directory.
	if a, ok := host.(hookio.ProjectAnchor); ok && projectDir == "" && a.ProjectIsWorkingDir() {
		projectDir, _ = j.Sys.Getwd()
	}
	env := classify.Env{
		ProjectDir: projectDir,
		Home:       j.Sys.Getenv("HOME"),
		Date:       func() string { return j.Sys.Now().Format("2006-01-02") },
	}
	root := env.ProjectDir
	if root == "" && call != nil {
		root = call.Cwd
	}
	if root == "" {
		root, _ = j.Sys.Getwd()
	}
	// How the host runs the call, where its input does not say: for a
	// live call, or explain, whose host process is this one's ancestor.
	var hr hostRun
	if j.Cache == nil {
		hr = j.Sys.hostRun(call, host, root)
	}
	// One view of the disk for the policy cache's check, the watch check,
	// what a confined command may write and each decision, which look at
	// the same directories (the project's, the home directory's): each
	// name is inspected once. A policy loaded instead of read from the
	// cache is written to it once the view is no longer used (the write
	// may make directories). Confining a command makes directories, so
	// its own look, and the decision that follows it, go to the disk
	// again.
	view := *j.Sys
	view.FS = classify.MemoFS(j.Sys.FS)
	defer classify.CloseMemoFS(view.FS)
	pol, save, err := j.policy(root, &view)
	if save != nil {
		defer save()
	}
	if err != nil {
		return Verdict{Err: fmt.Errorf("%w: %w", ErrUnusablePolicy, err), OnError: policy.Deny, input: data, host: host}
	}
	if j.Loaded != nil {
		j.Loaded(pol, root) // the hook's deadline follows the registration found
	}
	if j.Cache == nil { // a live call, not a replay
		if err := view.checkWatch(root, pol.HostSandbox.Enabled.Value); err != nil {
			return Verdict{Err: err, OnError: policy.Deny, input: data, host: host}
		}
	}
	if inErr != nil {
		err, onErr := fmt.Errorf("unusable hook input: %w", inErr), pol.OnError.Value
		if onErr == policy.Ask && hr.noAsk != "" {
			err, onErr = fmt.Errorf("%w; on_error is ask (%s), and %s cannot ask, so this is a deny", err, pol.OnError.Pos, hr.noAsk), policy.Deny
		}
		return Verdict{Err: err, OnError: onErr, input: data, host: host}
	}
	if hr.modeFrom != "" {
		call.PermissionMode, call.PermissionFrom = hr.mode, hr.modeFrom
	}
	env.NoAsk = hr.noAsk
	env.Session = j.Sys.session(call, env.Home)
	env.Venv = j.Sys.Getenv("VIRTUAL_ENV") != "" || j.Sys.Getenv("CONDA_PREFIX") != ""
	env.TmpDir = j.Sys.Getenv("TMPDIR")
	env.StateDir = j.Sys.StateDir()
	env.Path = j.Sys.Getenv("PATH")
	v := Verdict{pol: pol, call: call, host: host, home: env.Home, refused: j.takeRefusals(call, host)}
	var why string
	if j.Opts.explain {
		env.Confinable, why = j.Sys.confinable(call, host)
	} else {
		// Decided as if the kernel confined; asked only when its answer
		// could matter (confineMatters), else the decision is the same.
		env.Confinable, why = j.Sys.confinableHere(call, host)
	}
	if env.Confinable {
		env.KernelWrite = j.kernelWrite(pol, root, view.FS)
		env.KernelReadable = j.kernelReadable()
		env.RunsUnasked = classify.UnaskedBy(host)
	}
	v.Res = classify.Decide(call, pol, env, view.FS)
	if env.Confinable && !j.Opts.explain && confineMatters(v.Res, pol) {
		if ok, kwhy := j.Sys.kernelConfines(); !ok {
			env.Confinable, why = false, kwhy
			v.Res = classify.Decide(call, pol, env, view.FS)
		}
	}
	if !v.Res.Confine && v.Res.Decision != policy.Deny {
		// What runs unconfined (a file tool, a shell command the kernel
		// does not confine) reads a hidden file through any of its names:
		// a target with several links is judged at the hidden names of
		// the same file too.
		if names, looked, err := j.otherNames(v.Res, pol); looked {
			env.OtherNames = names
			if err != nil {
				env.OtherNamesErr = err.Error()
			}
			v.Res = classify.Decide(call, pol, env, view.FS)
		}
	}
	if v.Res.Confine {
		maySandbox := claudeSandboxed(pol, call)
		if j.outsideHost {
			maySandbox = ""
		}
		conf, err := j.confinementFor(v.Res, call, host, hr.sandbox, maySandbox, pol, data, root)
		if err != nil {
			// The command cannot be confined: where it would have run
			// without a question, it is asked instead.
			env.Confinable, why = false, "the command cannot be confined: "+err.Error()
			env.Unconfinable = why
			v.Res = classify.Decide(call, pol, env, j.Sys.FS)
		}
		v.conf = conf
	}
	if j.live && v.Res.Shell != nil && !v.Res.Confine && v.Res.Decision != policy.Deny {
		// A shell command that runs outside the sandbox may run git (a
		// commit the user approves): in a repository an earlier confined
		// command made below the project, with a hook it planted.
		if err := j.newRepos(v.Res, pol, root, &view); err != nil {
			return Verdict{Err: err, OnError: policy.Deny, input: data, host: host}
		}
	}
	v.confineOff = why
	return v
}

// newRepos notes the nested repositories below res's sandbox roots (a
// search: the index daemon's answer, or a walk) in project's watch list,
// where a command ran confined before (NoteRepos), and returns checkWatch's
// error when one of them that is new holds what git would run. A search
// that does not finish notes nothing.
func (j *Judger) newRepos(res *classify.Result, pol *policy.Policy, project string, view *System) error {
	w, err := view.ReadWatch(view.WatchPath(project))
	if err != nil || w.ReposAt.IsZero() {
		return nil // no confined command noted any; an unreadable list is checkWatch's
	}
	found, err := j.search(res, pol, map[string]string{})
	if err != nil {
		return nil
	}
	added, err := view.NoteRepos(project, found.Repos, false)
	if err != nil {
		return fmt.Errorf("the repositories a confined command could have made cannot be watched: %w", err)
	}
	if len(added) == 0 {
		return nil
	}
	return view.checkWatch(project, pol.HostSandbox.Enabled.Value)
}

// policy returns root's effective policy: for a live hook call through the
// policy cache (policycache.go), checked through view, for replay and test
// from Cache when there is one. save, when not nil, writes the policy to
// the cache: the caller calls it once done with view (cachedPolicy).
func (j *Judger) policy(root string, view *System) (pol *policy.Policy, save func(), err error) {
	if j.Cache == nil && j.live {
		pol, timeout, save, err := j.cachedPolicy(root, view)
		j.registered = timeout
		return pol, save, err
	}
	if j.Cache == nil {
		pol, err := LoadPolicy(j.Opts, root, j.Sys, j.reads)
		if j.reads != nil {
			j.registered, _ = ownTimeout(j.reads, j.Sys.Executable)
		}
		return pol, nil, err
	}
	l, ok := j.Cache[root]
	if !ok {
		l.pol, l.err = LoadPolicy(j.Opts, root, j.Sys, j.reads)
		j.Cache[root] = l
	}
	return l.pol, nil, l.err
}

// LoadPolicy returns the effective policy: the embedded default, every
// layer found (see policy.LoadLayers; what the repository's files widen
// only where the user trusted them, see trust.go), Claude Code's settings,
// self-protection, and the flags on top. reads, when not nil, reads the
// files (and remembers them).
func LoadPolicy(opts *Options, projectRoot string, sys *System, reads *FileCache) (*policy.Policy, error) {
	return MergeLayers(PolicyLocations(opts, projectRoot, sys, reads), opts)
}

// PolicyLocations are the layers' locations for projectRoot, as the hook
// reads them.
func PolicyLocations(opts *Options, projectRoot string, sys *System, reads *FileCache) policy.Locations {
	loc := policy.DefaultLocations(sys.Getenv, projectRoot, sys.Getenv("HOME"))
	loc.Files = opts.policies
	loc.Executable = sys.Executable
	loc.Trusted = sys.Trusted
	if reads != nil {
		loc.ReadFile = reads.read
	}
	return loc
}

// MergeLayers loads the layers at loc and merges them.
func MergeLayers(loc policy.Locations, opts *Options) (*policy.Policy, error) {
	layers, err := policy.LoadLayers(loc, embeddedLayer, opts.flags)
	if err != nil {
		return nil, err
	}
	return policy.Merge(layers...), nil
}
