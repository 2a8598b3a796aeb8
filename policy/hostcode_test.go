package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHostCodeFiles: the files the hosts' settings run are derived from
// every settings file the hosts read, each with the setting that runs it;
// programs by name, code in an argument and npx packages are not files.
func TestHostCodeFiles(t *testing.T) {
	dir := t.TempDir()
	root, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
	files := map[string]string{
		"proj/.claude/settings.json": `{
  "hooks": {
    "PostToolUse": [{"matcher": "Write", "hooks": [
      {"type": "command", "command": "bash scripts/format.sh"},
      {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/check.sh --strict"},
      {"type": "command", "command": "npx prettier --write ."},
      {"type": "command", "command": "cd \"$CLAUDE_PROJECT_DIR\" && uv run tools/lint.py 2>/dev/null || true"}
    ]}],
    "Stop": [{"hooks": [{"type": "command", "command": "python3 -c 'print(1)'; node ./notify.mjs"}, {"type": "command", "command": "node ."}, {"type": "command", "command": "$HOME/"}]}]
  },
  "statusLine": {"type": "command", "command": "~/bin/status.sh"}
}`,
		"proj/.claude/settings.local.json": `{"apiKeyHelper": "/opt/keys/helper.sh"}`,
		"proj/.mcp.json":                   `{"mcpServers": {"db": {"command": "python3", "args": ["-u", "mcp/server.py"]}, "gh": {"command": "npx", "args": ["-y", "@x/gh"]}}}`,
		"home/.claude.json":                `{"mcpServers": {"u": {"command": "/home/u/mcp"}}, "projects": {"` + root + `": {"mcpServers": {"l": {"command": "node", "args": ["srv/index.js"]}}}, "/other": {"mcpServers": {"o": {"command": "./other.sh"}}}}}`,
		"proj/.vscode/tasks.json": `{
  // comments are allowed here
  "version": "2.0.0",
  "tasks": [{"label": "dev", "type": "shell", "command": "./scripts/dev.sh", "runOptions": {"runOn": "folderOpen"}},
            {"label": "p", "type": "process", "command": "go", "args": ["run", "./cmd/gen/main.go"]}],
}`,
		"proj/.cursor/mcp.json":       `{"mcpServers": {"c": {"command": "./bin/cursor-mcp"}}}`,
		"proj/.gemini/settings.json":  `{"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"name": "g", "type": "command", "command": "sh .gemini/hook.sh"}]}]}}`,
		"home/.cursor/hooks.json":     `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "$HOME/hooks/cursor.sh"}]}}`,
		"proj/.codex/hooks.json":      `not json`,
		"proj/.codex/config.toml":     "notify = [\"python3\", \"tools/notify.py\"]\n[mcp_servers.docs]\ncommand = \"./bin/docs-mcp\"\n",
		"proj/.github/hooks/a.json":   `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./.github/hooks/pre.sh", "powershell": "x.ps1"}]}}`,
		"home/.copilot/hooks/b.json":  `{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "bash ~/copilot/start.sh"}]}}`,
		"home/.claude/settings.json":  `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "env FOO=1 deno run -A scripts/start.ts"}]}]}}`,
		"proj/scripts/format.sh":      "#!/bin/sh\n",
		"proj/.claude/hooks/check.sh": "#!/bin/sh\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	loc := Locations{ProjectRoot: root, Home: home}
	got := map[string]string{}
	for _, hc := range HostCodeFiles(loc) {
		got[hc.Path] = hc.Why
	}
	want := map[string]string{
		root + "/scripts/format.sh":      `hooks.PostToolUse command "bash scripts/format.sh" in ` + root + `/.claude/settings.json`,
		root + "/.claude/hooks/check.sh": `hooks.PostToolUse command`,
		root + "/tools/lint.py":          `uv run tools/lint.py`,
		root + "/notify.mjs":             `hooks.Stop command`,
		home + "/bin/status.sh":          `statusLine.command "~/bin/status.sh"`,
		"/opt/keys/helper.sh":            `apiKeyHelper "/opt/keys/helper.sh" in ` + root + `/.claude/settings.local.json`,
		root + "/mcp/server.py":          `mcpServers.db "python3 -u mcp/server.py" in ` + root + `/.mcp.json`,
		"/home/u/mcp":                    `mcpServers.u`,
		root + "/srv/index.js":           `projects[` + root + `].mcpServers.l "node srv/index.js" in ` + home + `/.claude.json`,
		root + "/scripts/dev.sh":         `tasks[0] "./scripts/dev.sh" in ` + root + `/.vscode/tasks.json`,
		root + "/cmd/gen/main.go":        `tasks[1]`,
		root + "/bin/cursor-mcp":         `mcpServers.c`,
		root + "/.gemini/hook.sh":        `hooks.BeforeTool command "sh .gemini/hook.sh"`,
		home + "/hooks/cursor.sh":        `hooks.beforeShellExecution command`,
		root + "/tools/notify.py":        `notify "python3 tools/notify.py" in ` + root + `/.codex/config.toml`,
		root + "/bin/docs-mcp":           `mcp_servers.docs "./bin/docs-mcp" in ` + root + `/.codex/config.toml`,
		root + "/.github/hooks/pre.sh":   `hooks.preToolUse bash "./.github/hooks/pre.sh" in ` + root + `/.github/hooks/a.json`,
		home + "/copilot/start.sh":       `hooks.sessionStart bash`,
		root + "/scripts/start.ts":       `hooks.SessionStart command "env FOO=1 deno run -A scripts/start.ts" in ` + home + `/.claude/settings.json`,
	}
	for p, w := range want {
		why, ok := got[p]
		if !ok {
			t.Errorf("%s not derived", p)
			continue
		}
		if !strings.Contains(why, w) {
			t.Errorf("%s: why %q, want it to hold %q", p, why, w)
		}
	}
	for p, why := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s derived (%s), not expected", p, why)
		}
	}
}

// TestCommandFiles: the files one command line runs.
func TestCommandFiles(t *testing.T) {
	for line, want := range map[string][]string{
		"bash scripts/x.sh arg":             {"scripts/x.sh"},
		"./x.sh":                            {"./x.sh"},
		"node --inspect x.js":               {"x.js"},
		"python3.12 -u tools/a.py":          {"tools/a.py"},
		"python3 -m black .":                nil,
		"node -e 'require(1)'":              nil,
		"bun run build":                     nil,
		"bun run scripts/b.ts":              {"scripts/b.ts"},
		"bun scripts/b.ts":                  {"scripts/b.ts"},
		"npx tsx src/h.ts":                  {"src/h.ts"},
		"npx eslint .":                      nil,
		"go run ./cmd/x":                    {"./cmd/x"},
		"go build ./...":                    nil,
		"sh -c 'bin/a && bash b.sh'":        {"bin/a", "b.sh"},
		"X=1 exec /usr/local/bin/tool -v":   {"/usr/local/bin/tool"},
		"jq . < in/file.json > out/o.json":  nil,
		"echo hi # ./not-run.sh":            nil,
		"a.sh; b/c.sh | d/e.sh && f/g.sh &": {"b/c.sh", "d/e.sh", "f/g.sh"},
	} {
		var got []string
		for _, w := range shellCommands(line) {
			got = append(got, commandFiles(w, 0)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}

// TestSelfProtectionHostCode: the derived files are self-protected, each
// pattern naming its setting.
func TestSelfProtectionHostCode(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"bash scripts/format.sh"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	l := SelfProtection(Locations{ProjectRoot: root, Home: filepath.Join(dir, "home")}, nil)
	i := slices.IndexFunc(l.Protected, func(p Pattern) bool {
		return p.Glob == strings.TrimPrefix(root, "/")+"/scripts/format.sh" || p.Text == root+"/scripts/format.sh"
	})
	if i < 0 {
		t.Fatalf("scripts/format.sh not protected: %v", l.Protected)
	}
	if p := l.Protected[i]; !p.Resolve || !strings.Contains(p.Why, "hooks.PostToolUse") {
		t.Errorf("pattern %+v: want Resolve and a Why naming hooks.PostToolUse", p)
	}
}

// BenchmarkHostCodeFiles measures the derivation a policy loading adds
// (not a cached call): a project whose settings register three hooks and
// a status line, a .mcp.json of two servers, and a ~/.claude.json of
// about 500 KB (2,000 projects) or none.
func BenchmarkHostCodeFiles(b *testing.B) {
	for _, big := range []bool{false, true} {
		name := "no-claude-json"
		if big {
			name = "claude-json-500k"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			root, home := filepath.Join(dir, "proj"), filepath.Join(dir, "home")
			os.MkdirAll(filepath.Join(root, ".claude"), 0o755)
			os.MkdirAll(home, 0o755)
			os.WriteFile(filepath.Join(root, ".claude", "settings.json"), []byte(`{"hooks":{"PostToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"bash scripts/format.sh"},{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/lint.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"node tools/notify.js"}]}]},"statusLine":{"type":"command","command":"~/.claude/statusline.sh"}}`), 0o644)
			os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers":{"a":{"command":"python3","args":["mcp/a.py"]},"b":{"command":"npx","args":["-y","@x/b"]}}}`), 0o644)
			if big {
				var sb strings.Builder
				sb.WriteString(`{"numStartups":10,"projects":{`)
				for i := range 2000 {
					fmt.Fprintf(&sb, `"/home/u/p%d":{"allowedTools":[],"history":[{"display":"a prompt of some length, as Claude Code keeps them"}],"lastCost":1.5,"mcpServers":{}},`, i)
				}
				fmt.Fprintf(&sb, `%q:{"mcpServers":{"l":{"command":"node","args":["srv/index.js"]}}}}}`, root)
				os.WriteFile(filepath.Join(home, ".claude.json"), []byte(sb.String()), 0o644)
			}
			loc := Locations{ProjectRoot: root, Home: home}
			b.ReportAllocs()
			for b.Loop() {
				if len(HostCodeFiles(loc)) < 4 {
					b.Fatal("files not derived")
				}
			}
		})
	}
}
