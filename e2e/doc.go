// Package e2e runs safezone under the real Claude Code CLI.
//
// The tests are behind the e2e build tag, so `go test ./...` does not run
// them. scripts/e2e installs the pinned Claude Code (see claude-code-version)
// into a cache directory outside the repository and runs them:
//
//	scripts/e2e                     # every case, in every permission mode
//	scripts/e2e -run 'Claude/read-env'
//
// Each case sets up a temporary project, registers a freshly built safezone
// in its .claude/settings.json exactly as hooks.json does, scripts the
// model's tool calls through a fake Messages API on 127.0.0.1, runs
// `claude -p` in one permission mode, and checks facts: whether the tool
// call ran (a PostToolUse hook fired, a file was written, a secret reached
// the model) and which tool_result the model received. See README.md.
//
// This file holds no code: it keeps the package buildable without the tag.
package e2e
