//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// claudeTimeout bounds one claude process. A case takes about a second; a
// hung session must fail the case, not the whole suite.
const claudeTimeout = 60 * time.Second

// world is the temporary directory tree of one run:
//
//	ROOT/proj   the project: claude's working directory and CLAUDE_PROJECT_DIR
//	ROOT/home   HOME
//	ROOT/state  what the recorder hooks saved
//
// Everything else under ROOT is "outside".
type world struct {
	root, proj, home, state string
}

// path returns ROOT/rel.
func (w *world) path(rel string) string { return filepath.Join(w.root, rel) }

func (w *world) exists(rel string) bool {
	_, err := os.Lstat(w.path(rel))
	return err == nil
}

func (w *world) contains(rel, text string) bool {
	b, err := os.ReadFile(w.path(rel))
	return err == nil && strings.Contains(string(b), text)
}

func newWorld(files, links map[string]string) (*world, error) {
	return newWorldIn("", files, links)
}

// newWorldIn is newWorld with ROOT made in dir (the temporary directory
// when dir is "").
func newWorldIn(dir string, files, links map[string]string) (*world, error) {
	tmp, err := os.MkdirTemp(dir, "safezone-e2e-")
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		return nil, err
	}
	w := &world{root: root, proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home"), state: filepath.Join(root, "state")}
	for _, d := range []string{filepath.Join(w.proj, ".claude"), w.home, w.state} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for rel, content := range files {
		p := w.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	for rel, target := range links {
		p := w.path(rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.Symlink(target, p); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// trustPolicy trusts the project's .safezone.yaml, when the case wrote one,
// as its user would (safezone trust, in the world's HOME): what it widens
// (an additional directory, confine.mode off, mode agi) applies only then
// (README, "Layers"). A policy that does not load (a case about a broken
// policy) is left as it is.
func (w *world) trustPolicy() error {
	f := filepath.Join(w.proj, ".safezone.yaml")
	if _, err := os.Stat(f); err != nil {
		return nil
	}
	_, err := command(w.proj, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "TMPDIR=" + os.TempDir()}, env.safezone, "trust", f)
	if err != nil && strings.Contains(err.Error(), "the policy does not load") {
		return nil
	}
	return err
}

// recorder is a hook that saves its stdin in the state directory and prints
// nothing, so it never changes a decision.
func recorder(state, prefix string) map[string]any {
	return map[string]any{"type": "command",
		"command": fmt.Sprintf(`cat > "$(mktemp %s/%s.XXXXXX)"`, shellQuote(state), prefix)}
}

// writeSettings writes proj/.claude/settings.json: the safezone registration
// from hooks.json, plus recorders for PreToolUse (the hook's stdin, for
// diagnostics), PostToolUse and PostToolUseFailure (the evidence that a call
// ran). The recorders are matcher groups of their own, so the safezone entry
// is exactly the one hooks.json has.
func (w *world) writeSettings(reg map[string]any) error {
	return w.writeSettingsTo(filepath.Join(w.proj, ".claude", "settings.json"), reg)
}

// writeSettingsTo writes the settings writeSettings writes to file (the
// fake HOME's ~/.claude/settings.json, say), making its directory.
func (w *world) writeSettingsTo(file string, reg map[string]any) error {
	hooks := maps.Clone(reg)
	add := func(event, prefix string) {
		g := map[string]any{"matcher": "*", "hooks": []any{recorder(w.state, prefix)}}
		groups, _ := hooks[event].([]any)
		hooks[event] = append(append([]any(nil), groups...), g)
	}
	add("PreToolUse", "pre")
	add("PostToolUse", "post")
	add("PostToolUseFailure", "postfail")
	b, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// records returns the JSON the recorder hooks saved under prefix, by
// tool_use_id.
func (w *world) records(prefix string) map[string][]byte {
	files, _ := filepath.Glob(filepath.Join(w.state, prefix+".??????"))
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var h struct {
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(b, &h) == nil && h.ToolUseID != "" {
			out[h.ToolUseID] = bytes.TrimSpace(b)
		}
	}
	return out
}

// session is the outcome of one claude -p run.
type session struct {
	exitCode   int
	timedOut   bool
	result     string // "result" of --output-format json, or raw stdout
	stderr     string
	requests   int
	toolResult map[string]toolResult // by tool_use id
	pre, post  map[string][]byte     // recorder output by tool_use id
	postFail   map[string][]byte
	beforeErr  error
	seconds    float64
}

// cleanEnv is the environment of w's claude, without the API's variables:
// nothing of the caller's own Claude Code session (settings, credentials,
// CLAUDE_PROJECT_DIR) or state directory (XDG_*) leaks in.
func cleanEnv(w *world) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "SHELL=/bin/bash",
		"TMPDIR=" + os.TempDir(), "USER=" + os.Getenv("USER"),
	}
}

// runClaude runs claude -p in w.proj against api, in the given permission
// mode, with extra flags and extra environment variables (NAME=value).
func runClaude(claude string, w *world, api *fakeAPI, mode string, extra []string, extraEnv ...string) (*session, error) {
	base, err := api.start()
	if err != nil {
		return nil, err
	}
	defer api.close()
	args := append([]string{"-p", "do it", "--output-format", "json", "--permission-mode", mode}, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = w.proj
	cmd.Env = append(cleanEnv(w),
		"ANTHROPIC_BASE_URL="+base, "ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
	)
	if os.Geteuid() == 0 {
		// bypassPermissions refuses to start as root outside a sandbox.
		cmd.Env = append(cmd.Env, "IS_SANDBOX=1")
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	start := time.Now()
	runErr := cmd.Run()
	s := &session{seconds: time.Since(start).Seconds(), stderr: stderr.String(), timedOut: ctx.Err() != nil}
	if cmd.ProcessState != nil {
		s.exitCode = cmd.ProcessState.ExitCode()
	} else if runErr != nil {
		return nil, runErr
	}
	var out struct {
		Result string `json:"result"`
	}
	if json.Unmarshal(stdout.Bytes(), &out) == nil {
		s.result = out.Result
	} else {
		s.result = strings.TrimSpace(stdout.String())
	}
	s.requests, s.beforeErr = api.stats()
	s.toolResult = api.toolResults()
	s.pre, s.post, s.postFail = w.records("pre"), w.records("post"), w.records("postfail")
	return s, nil
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
