package hookio

import (
	"path/filepath"
	"strconv"
	"strings"
)

// SessionEnv is what [SessionFiles] needs from the environment: absolute
// directories, "" when unknown.
type SessionEnv struct {
	Home         string
	ClaudeConfig string // $CLAUDE_CONFIG_DIR, else ~/.claude
	CodexHome    string // $CODEX_HOME, else ~/.codex
	TmpDir       string // $TMPDIR
	UID          int    // the user's id; -1 when there is none (Windows)
}

// Session lists where a host keeps the files of the agent's own session,
// which the agent reads and writes as part of its work: transcripts, tool
// results too large for the conversation, its memory, task outputs of
// background commands, plans. Paths are absolute and clean, not resolved.
type Session struct {
	// ReadWrite may be read and written.
	ReadWrite []string
	// Plans may be written even in read mode: Claude Code's plan mode saves
	// its plan there with Write.
	Plans []string
	// ReadOnly may be read, not written (the installed plugins' code that
	// skills and hooks run).
	ReadOnly []string
}

// SessionFiles returns the session locations of the host that sent c
// (verified on Claude Code 2.1.330 and in public transcripts of 1.0.x to
// 2.1.x):
//   - Claude Code: the transcript's directory, ~/.claude/projects/<project>/
//     (each session's transcript, its tool-results/, the project's memory/),
//     but only when it lies there; $CLAUDE_CONFIG_DIR moves ~/.claude. Task
//     outputs and the agent's scratch files: /tmp/claude-<uid>/ (also under
//     $TMPDIR), and /tmp/claude/ of versions before 2.1. Plans:
//     ~/.claude/plans/. Read only: ~/.claude/plugins/.
//   - Codex: the transcript's directory under $CODEX_HOME/sessions/.
//   - Gemini CLI: the transcript's directory under ~/.gemini/tmp/ (the
//     project's chats, logs and checkpoints).
//
// Other hosts: none. The host's settings, hooks and plugin registries are
// not session files: they stay protected.
func SessionFiles(c *Call, env SessionEnv) Session {
	var s Session
	// transcriptDir adds the directory of the transcript below under: its
	// first element below under (the project's directory), or with own
	// the transcript's own directory.
	transcriptDir := func(under string, own bool) {
		if c.TranscriptPath == "" || under == "" || !filepath.IsAbs(c.TranscriptPath) {
			return
		}
		dir := filepath.Dir(filepath.Clean(c.TranscriptPath))
		rel, err := filepath.Rel(under, dir)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			return
		}
		if !own {
			first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
			dir = filepath.Join(under, first)
		}
		s.ReadWrite = append(s.ReadWrite, dir)
	}
	switch c.Host {
	case "claude":
		if env.ClaudeConfig != "" {
			transcriptDir(filepath.Join(env.ClaudeConfig, "projects"), false)
			s.Plans = append(s.Plans, filepath.Join(env.ClaudeConfig, "plans"))
			s.ReadOnly = append(s.ReadOnly, filepath.Join(env.ClaudeConfig, "plugins"))
		}
		if env.UID >= 0 {
			user := "claude-" + strconv.Itoa(env.UID)
			s.ReadWrite = append(s.ReadWrite, "/tmp/"+user)
			if env.TmpDir != "" && filepath.IsAbs(env.TmpDir) && filepath.Clean(env.TmpDir) != "/tmp" {
				s.ReadWrite = append(s.ReadWrite, filepath.Join(env.TmpDir, user))
			}
		}
		s.ReadWrite = append(s.ReadWrite, "/tmp/claude")
	case "codex":
		if env.CodexHome != "" {
			transcriptDir(filepath.Join(env.CodexHome, "sessions"), true)
		}
	case "gemini":
		if env.Home != "" {
			transcriptDir(filepath.Join(env.Home, ".gemini", "tmp"), false)
		}
	}
	return s
}
