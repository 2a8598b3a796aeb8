//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Environment variables the suite reads.
const (
	envClaude = "SAFEZONE_E2E_CLAUDE" // the claude binary; default: the cached install of the pinned version
	envKeep   = "SAFEZONE_E2E_KEEP"   // "1": keep every temp project and print where
)

// setup is what TestMain prepares once for every case.
type setup struct {
	claude        string // the Claude Code binary
	claudeVersion string // as it reports itself
	pinned        string // the version in claude-code-version
	safezone      string // a normal build of the module under test
	broken        string // a hook that exits 1 at once, like a crashed safezone
	hooksJSON     []byte // the repository's hooks.json
	skip          string // why the suite cannot run, when it cannot
}

var env setup

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "safezone-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	if err := prepare(&env, tmp); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.RemoveAll(tmp)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// prepare finds Claude Code and builds the two safezone binaries into dir.
// A Claude Code missing from the default place is not an error: it sets
// s.skip, and every Claude Code test skips with that message. One named by
// SAFEZONE_E2E_CLAUDE that does not run is an error.
func prepare(s *setup, dir string) error {
	v, err := os.ReadFile("claude-code-version")
	if err != nil {
		return err
	}
	s.pinned = strings.TrimSpace(string(v))
	s.claude = os.Getenv(envClaude)
	explicit := s.claude != ""
	if !explicit {
		s.claude = filepath.Join(cacheDir(), "claude-"+s.pinned, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe")
	}
	out, err := exec.Command(s.claude, "--version").Output()
	switch {
	case err != nil && explicit:
		return fmt.Errorf("%s=%s does not run: %v", envClaude, s.claude, err)
	case err != nil:
		// The Claude Code tests skip; the other hosts' (hosts_test.go)
		// still need the build.
		s.skip = fmt.Sprintf("Claude Code %s not found at %s (%v); scripts/e2e installs it, or set %s", s.pinned, s.claude, err, envClaude)
	default:
		s.claudeVersion = strings.TrimSuffix(strings.TrimSpace(string(out)), " (Claude Code)")
	}

	if err := checkLoopback(); err != nil {
		return err
	}

	modDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return fmt.Errorf("finding the module root: %w", err)
	}
	root := strings.TrimSpace(string(modDir))
	if s.hooksJSON, err = os.ReadFile(filepath.Join(root, "hooks.json")); err != nil {
		return err
	}
	s.safezone, s.broken = filepath.Join(dir, "safezone"), filepath.Join(dir, "safezone-broken")
	cmd := exec.Command("go", "build", "-o", s.safezone, ".")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, stderr.Bytes())
	}
	// The network proxy beside it, as the README installs it, for the
	// cases with network.isolate.
	cmd = exec.Command("go", "build", "-o", filepath.Join(dir, "safezone-proxy"), "./cmd/safezone-proxy")
	cmd.Dir, cmd.Stderr = root, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/safezone-proxy: %v\n%s", err, stderr.Bytes())
	}
	// The broken hook stands for a safezone that crashes before it can
	// print anything (a bad build, a missing library): it exits 1, which
	// Claude Code reads as "hook failed".
	return os.WriteFile(s.broken, []byte("#!/bin/sh\nexit 1\n"), 0o755)
}

// checkLoopback makes sure the fake API can be reached on 127.0.0.1, so a
// machine without a working loopback fails at once with a clear message
// instead of every claude process retrying until its timeout.
func checkLoopback() error {
	api := newFakeAPI(nil)
	base, err := api.start()
	if err != nil {
		return fmt.Errorf("cannot serve the fake Messages API on 127.0.0.1: %w", err)
	}
	defer api.close()
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Head(base + "/")
	if err != nil {
		return fmt.Errorf("cannot reach the fake Messages API on 127.0.0.1 (is the loopback interface up?): %w", err)
	}
	resp.Body.Close()
	return nil
}

// cacheDir is where scripts/e2e installs Claude Code.
func cacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "safezone-e2e")
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "safezone-e2e")
}

// registration returns the "hooks" object of hooks.json with the command
// replaced by bin; without onFailure when keepOnFailure is false. It fails
// unless hooks.json holds exactly one command hook named "safezone", so a
// change of hooks.json cannot leave the suite testing something else.
func registration(hooksJSON []byte, bin string, keepOnFailure bool) (map[string]any, error) {
	var plugin struct {
		Hooks map[string][]struct {
			Matcher string           `json:"matcher"`
			Hooks   []map[string]any `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(hooksJSON, &plugin); err != nil {
		return nil, fmt.Errorf("hooks.json: %w", err)
	}
	found := 0
	out := map[string]any{}
	for event, groups := range plugin.Hooks {
		var gs []any
		for _, g := range groups {
			var hs []any
			for _, h := range g.Hooks {
				if h["type"] == "command" && h["command"] == "safezone" {
					found++
					h["command"] = shellQuote(bin)
					if !keepOnFailure {
						delete(h, "onFailure")
					}
				}
				hs = append(hs, h)
			}
			gs = append(gs, map[string]any{"matcher": g.Matcher, "hooks": hs})
		}
		out[event] = gs
	}
	if found != 1 {
		return nil, errors.New(`hooks.json: want exactly one {"type":"command","command":"safezone"} hook`)
	}
	return out, nil
}

// shellQuote quotes s for the shell Claude Code runs hook commands with,
// when it has to.
func shellQuote(s string) string {
	if strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
