package pipeline

// Codex CLI's hook trust: Codex runs a hook from a hooks.json only once the
// user trusted it, and skips an untrusted one without a word. The trust is
// hooks.state."<KEY>".trusted_hash = "<HASH>" in $CODEX_HOME/config.toml
// (codex-rs/hooks/src/engine/discovery.rs, 0.171.0), where
//
//   - KEY is "<hooks.json path>:<event>:<group index>:<handler index>",
//     the event in snake case (pre_tool_use);
//   - HASH is "sha256:" and the hex SHA-256 of the compact JSON, keys
//     sorted, of {"event_name": EVENT, "matcher": MATCHER, "hooks":
//     [HANDLER]}, HANDLER being {"type": "command", "command", "timeout"
//     (600 when absent, at least 1), "async" (false when absent),
//     "statusMessage" (only when set)}, and "matcher" left out when unset
//     (command_hook_hash, config's version_for_toml). Checked against the
//     currentHash that `codex app-server` lists (hooks/list) for the
//     registration `safezone init --host codex` writes.
//
// A project's own .codex folder, its hooks.json included, is read only once
// the project is trusted: [projects."<dir>"] trust_level = "trusted" in the
// same file.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// CodexHook is one handler of a Codex hooks.json that runs safezone, with
// the trust Codex requires of it.
type CodexHook struct {
	key     string // hooks.state key
	hash    string // the hash Codex computes of the handler
	Command string
}

// CodexHooks returns the PreToolUse handlers of a Codex hooks.json that run
// safezone (ours). file is the hooks.json's absolute path, as Codex names
// it in the key ($CODEX_HOME/hooks.json, <project>/.codex/hooks.json); data
// is its content. A file that is not Codex's JSON shape is an error.
func CodexHooks(file string, data []byte, ours func(string) bool) ([]CodexHook, error) {
	var f struct {
		Hooks map[string][]struct {
			Matcher *string                      `json:"matcher"`
			Hooks   []map[string]json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []CodexHook
	for gi, g := range f.Hooks["PreToolUse"] {
		for hi, h := range g.Hooks {
			var handler struct {
				Type          string  `json:"type"`
				Command       string  `json:"command"`
				Timeout       *uint64 `json:"timeout"`
				TimeoutSec    *uint64 `json:"timeoutSec"`
				Async         bool    `json:"async"`
				StatusMessage *string `json:"statusMessage"`
			}
			raw, _ := json.Marshal(h)
			if err := json.Unmarshal(raw, &handler); err != nil || handler.Type != "command" || !ours(handler.Command) {
				continue
			}
			timeout := uint64(600)
			if handler.Timeout != nil {
				timeout = *handler.Timeout
			} else if handler.TimeoutSec != nil {
				timeout = *handler.TimeoutSec
			}
			norm := map[string]any{"type": "command", "command": handler.Command, "timeout": max(timeout, 1), "async": handler.Async}
			if handler.StatusMessage != nil {
				norm["statusMessage"] = *handler.StatusMessage
			}
			identity := map[string]any{"event_name": "pre_tool_use", "hooks": []any{norm}}
			if g.Matcher != nil {
				identity["matcher"] = *g.Matcher
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf) // map keys sorted, compact
			enc.SetEscapeHTML(false)
			if err := enc.Encode(identity); err != nil {
				return nil, err
			}
			sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
			out = append(out, CodexHook{
				key:     fmt.Sprintf("%s:pre_tool_use:%d:%d", file, gi, hi),
				hash:    "sha256:" + hex.EncodeToString(sum[:]),
				Command: handler.Command,
			})
		}
	}
	return out, nil
}

// CodexConfigState is what Codex's config.toml says about hooks and
// projects.
type CodexConfigState struct {
	Features map[string]any `toml:"features"`
	Hooks    struct {
		State map[string]struct {
			TrustedHash string `toml:"trusted_hash"`
			Enabled     *bool  `toml:"enabled"`
		} `toml:"state"`
	} `toml:"hooks"`
	Projects map[string]struct {
		TrustLevel string `toml:"trust_level"`
	} `toml:"projects"`
}

// ParseCodexState reads a config.toml's hook and project state (TOML 1.1);
// an empty file is an empty state, and one that is not valid TOML an error
// with an empty state.
func ParseCodexState(data []byte) (CodexConfigState, error) {
	var st CodexConfigState
	if err := toml.Unmarshal(data, &st); err != nil {
		return CodexConfigState{}, err
	}
	return st, nil
}

// Trusted reports whether a hook is trusted as it is now, and why not.
func (st CodexConfigState) Trusted(h CodexHook) (bool, string) {
	s, ok := st.Hooks.State[h.key]
	switch {
	case ok && s.Enabled != nil && !*s.Enabled:
		return false, "it is disabled (hooks.state enabled = false)"
	case !ok || s.TrustedHash == "":
		return false, "it is not trusted, and Codex skips an untrusted hook without a word"
	case s.TrustedHash != h.hash:
		return false, "it changed since it was trusted (a new command or timeout), and Codex skips it without a word"
	}
	return true, ""
}

// ProjectTrusted reports whether config.toml trusts the project dir (or a
// directory above it).
func (st CodexConfigState) ProjectTrusted(dir string) bool {
	for d, p := range st.Projects {
		d = strings.TrimSuffix(d, "/")
		if p.TrustLevel == "trusted" && (dir == d || strings.HasPrefix(dir, d+"/")) {
			return true
		}
	}
	return false
}

// errCodexConfigShape is wrapped by withCodexTrust's error for a config.toml
// whose hook state it cannot extend by appending a table.
var errCodexConfigShape = errors.New("config.toml holds hooks.state in a form safezone does not edit")

// WithCodexTrust returns config (a config.toml's content, nil when the file
// does not exist) with hook h trusted: its [hooks.state."KEY"] table's
// trusted_hash set, the table appended when missing. Everything else is
// kept byte for byte. It refuses a config that is not valid TOML, and one
// whose hook state is not in tables of their own (the result is parsed
// again and must say that h is trusted).
func WithCodexTrust(config []byte, h CodexHook) ([]byte, error) {
	st, err := ParseCodexState(config)
	if err != nil {
		return nil, fmt.Errorf("config.toml is not valid TOML: %w", err)
	}
	if ok, _ := st.Trusted(h); ok {
		return config, nil
	}
	if inlineHookState(config) {
		return nil, errCodexConfigShape
	}
	header := "[hooks.state." + tomlQuote(h.key) + "]"
	line := "trusted_hash = " + tomlQuote(h.hash)
	lines := strings.SplitAfter(string(config), "\n")
	var out strings.Builder
	found, done := false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case done:
		case t == header:
			found = true
			out.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				out.WriteString("\n")
			}
			// Replace the table's trusted_hash, or add one.
			j := i + 1
			for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "["); j++ {
				if k, _, ok := strings.Cut(strings.TrimSpace(lines[j]), "="); ok && strings.TrimSpace(k) == "trusted_hash" {
					lines[j] = line + "\n"
					done = true
				}
			}
			if !done {
				out.WriteString(line + "\n")
				done = true
			}
			continue
		}
		out.WriteString(l)
	}
	s := out.String()
	if !found {
		if s != "" && !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if s != "" {
			s += "\n"
		}
		s += "# Written by safezone init --host codex --trust: Codex runs a hook only once trusted.\n" + header + "\n" + line + "\n"
	}
	next, err := ParseCodexState([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCodexConfigShape, err)
	}
	if ok, _ := next.Trusted(h); !ok {
		return nil, errCodexConfigShape
	}
	return []byte(s), nil
}

// inlineHookState reports whether config defines hooks, or hooks.state, by
// a key (an inline table, a dotted key) rather than by [hooks.state."KEY"]
// tables: a table appended after it would be invalid TOML, which Codex
// refuses to start with. The scan is by lines; a table header or key it
// misreads only makes it refuse.
func inlineHookState(config []byte) bool {
	header := ""
	for _, l := range strings.Split(string(config), "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "[") {
			header = strings.Join(strings.Fields(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t")), "")
			if header == "hooks.state" {
				return true
			}
			continue
		}
		key, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		key = strings.Join(strings.Fields(key), "")
		switch {
		case header == "" && (key == "hooks" || strings.HasPrefix(key, "hooks.")):
			return true
		case header == "hooks" && (key == "state" || strings.HasPrefix(key, "state.")):
			return true
		}
	}
	return false
}

// tomlQuote quotes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
