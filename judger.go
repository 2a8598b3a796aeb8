package main

import (
	"errors"
	"fmt"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// judger turns the bytes of one hook input into a verdict: the one path by
// which the hook, `safezone replay` and `safezone test` judge calls. The
// hook judges one input per process; replay and test judge many and load
// each project root's policy once (cache).
type judger struct {
	opts *options
	sys  *system
	// cache keeps the loaded policy per project root; nil loads it for
	// every input.
	cache map[string]loadedPolicy
	// loaded, when set, is told the policy as soon as it is loaded, before
	// deciding (the hook's deadline path needs on_error and the audit
	// settings even when deciding hangs).
	loaded func(p *policy.Policy, root string)
}

// errUnusablePolicy is wrapped by the error of a verdict whose policy could
// not be loaded.
var errUnusablePolicy = errors.New("unusable policy")

type loadedPolicy struct {
	pol *policy.Policy
	err error
}

// decide judges data, the hook input as the host sends it on stdin; inErr
// is an error reading it. The project root is projectDir, else
// $CLAUDE_PROJECT_DIR, else the call's cwd, else the working directory, as
// in the hook. The policy is that root's (see loadPolicy); an unusable one
// denies, an unusable input gets the policy's on_error.
func (j *judger) decide(data []byte, inErr error, projectDir string) verdict {
	// A host whose registration another host also runs names the sender
	// (VS Code runs Claude Code's .claude/settings.json hooks).
	host := j.opts.host
	if d, ok := host.(hookio.Delegator); ok && inErr == nil {
		host = d.HostFor(data)
	}
	var call *hookio.Call
	if inErr == nil {
		call, inErr = host.Decode(data)
	}
	if projectDir == "" {
		projectDir = j.sys.getenv("CLAUDE_PROJECT_DIR")
	}
	// Codex sets no project variable and moves cwd with a command's
	// workdir: its sandbox is anchored at the hook's working directory.
	if a, ok := host.(hookio.ProjectAnchor); ok && projectDir == "" && a.ProjectIsWorkingDir() {
		projectDir, _ = j.sys.getwd()
	}
	env := classify.Env{
		ProjectDir: projectDir,
		Home:       j.sys.getenv("HOME"),
		Today:      j.sys.now().Format("2006-01-02"),
	}
	root := env.ProjectDir
	if root == "" && call != nil {
		root = call.Cwd
	}
	if root == "" {
		root, _ = j.sys.getwd()
	}
	pol, err := j.policy(root)
	if err != nil {
		return verdict{err: fmt.Errorf("%w: %w", errUnusablePolicy, err), onError: policy.Deny, input: data, host: host}
	}
	if j.loaded != nil {
		j.loaded(pol, root)
	}
	if inErr != nil {
		return verdict{err: fmt.Errorf("unusable hook input: %w", inErr), onError: pol.OnError.Value, input: data, host: host}
	}
	return verdict{res: classify.Decide(call, pol, env, j.sys.fsys), call: call, host: host}
}

// policy returns root's effective policy, from the cache when there is one.
func (j *judger) policy(root string) (*policy.Policy, error) {
	if j.cache == nil {
		return loadPolicy(j.opts, root, j.sys)
	}
	l, ok := j.cache[root]
	if !ok {
		l.pol, l.err = loadPolicy(j.opts, root, j.sys)
		j.cache[root] = l
	}
	return l.pol, l.err
}
