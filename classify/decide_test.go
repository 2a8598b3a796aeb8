package classify

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// refPolicy is the conformance corpus's reference policy, rooted at "/".
const refPolicy = `version: 1
mode: write
auto_approve: false
sandbox:
  enabled: true
  additional_directories: ["/shared"]
  outside_read: ask
  outside_write: ask
paths:
  protected: [".git/**", "node_modules/**", ".env*", "*.key", "*.pem", "package-lock.json", "yarn.lock", ".claude/settings*.json"]
  warned: ["src/**"]
  safe: ["docs/**", "agent_sandbox/**", "tests/**"]
rules:
  deny: ["Read(.env*)", "Read(*.env)", "Write(/etc/**)", "Bash(rm -rf *)"]
on_error: deny
`

type decideCase struct {
	name  string
	fs    []string       // added to baseFS
	tool  string         // tool_name
	input map[string]any // tool_input
	cwd   string         // default /proj
	perm  string         // permission_mode (omitted when empty)
	extra string         // a second policy layer (YAML)
	// embedded uses the embedded default policy (policy.example.yaml,
	// parsed as policy.EmbeddedName) instead of refPolicy.
	embedded bool
	flags    *policy.Layer // the flag layer
	env      *Env          // default: ProjectDir /proj, Home /home
	want     policy.Decision
	row      Row      // the deciding row, when non-zero
	has      []string // substrings the reason must contain
	warn     bool     // a warning is expected
}

func mustLayer(t testing.TB, name, yaml string) *policy.Layer {
	t.Helper()
	l, err := policy.Parse(name, []byte(yaml))
	if err != nil {
		t.Fatalf("policy %s: %v", name, err)
	}
	return l
}

func runDecide(t testing.TB, c decideCase) *Result {
	t.Helper()
	in := map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": c.input}
	in["cwd"] = c.cwd
	if c.cwd == "" {
		in["cwd"] = "/proj"
	}
	if c.perm != "" {
		in["permission_mode"] = c.perm
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	call, err := hookio.DecodeClaude(data)
	if err != nil {
		t.Fatalf("DecodeClaude: %v", err)
	}
	layers := []*policy.Layer{mustLayer(t, "ref.yaml", refPolicy)}
	if c.embedded {
		layers = []*policy.Layer{mustLayer(t, policy.EmbeddedName, string(mustRead(t, "../policy.example.yaml")))}
	}
	if c.extra != "" {
		layers = append(layers, mustLayer(t, "extra.yaml", c.extra))
	}
	if c.flags != nil {
		layers = append(layers, c.flags)
	}
	env := Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}
	if c.env != nil {
		env = *c.env
	}
	fsys := makefs(append(append([]string{}, baseFS...), c.fs...)...)
	return Decide(call, policy.Merge(layers...), env, fsys)
}

func flag(f func(l *policy.Layer)) *policy.Layer {
	l := &policy.Layer{Name: "flags"}
	f(l)
	return l
}

var (
	readFlag = flag(func(l *policy.Layer) {
		l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeRead, Pos: policy.Pos{File: "-r/--read"}}
	})
	yesFlag = flag(func(l *policy.Layer) {
		l.AutoApprove = &policy.Setting[bool]{Value: true, Pos: policy.Pos{File: "-y/--yes"}}
	})
	agiFlag = flag(func(l *policy.Layer) {
		l.Mode = &policy.Setting[policy.Mode]{Value: policy.ModeAGI, Pos: policy.Pos{File: "--agi"}}
	})
	noSandboxFlag = flag(func(l *policy.Layer) {
		l.SandboxEnabled = &policy.Setting[bool]{Value: false, Pos: policy.Pos{File: "--no-sandbox"}}
	})
)

func write(p string) map[string]any { return map[string]any{"file_path": p, "content": "x\n"} }
func read(p string) map[string]any  { return map[string]any{"file_path": p} }

func TestDecide(t *testing.T) {
	tests := []decideCase{
		// Row 8: built-in reads inside.
		{name: "read inside", tool: "Read", input: read("/proj/README.md"), want: policy.Allow, row: RowRead},
		{name: "read in the additional directory", tool: "Read", input: read("/shared/data.txt"), want: policy.Allow, row: RowRead},
		{name: "read of a directory inside", tool: "Read", input: read("/proj/src"), want: policy.Allow},
		{name: "relative read against cwd", tool: "Read", input: read("src/../README.md"), want: policy.Allow},
		{name: "relative read from a subdirectory cwd", tool: "Read", input: read("../README.md"), cwd: "/proj/src", want: policy.Allow},
		{name: "LS inside", tool: "LS", input: map[string]any{"path": "/proj/src"}, want: policy.Allow},
		{name: "dollar sign is literal", tool: "Read", input: read("/proj/$HOME/x"), want: policy.Allow},

		// Row 9: built-in writes inside.
		{name: "write inside, default mode", tool: "Write", input: write("/proj/notes.txt"), want: policy.Abstain, row: RowWrite},
		{name: "write inside, acceptEdits", tool: "Write", input: write("/proj/notes.txt"), perm: "acceptEdits", want: policy.Allow, row: RowWrite, has: []string{"host permission_mode acceptEdits"}},
		{name: "write inside, bypassPermissions", tool: "Write", input: write("/proj/notes.txt"), perm: "bypassPermissions", want: policy.Allow},
		{name: "write inside, auto mode is not auto-approve", tool: "Write", input: write("/proj/notes.txt"), perm: "auto", want: policy.Abstain},
		{name: "unknown permission mode is default", tool: "Write", input: write("/proj/notes.txt"), perm: "bypass", want: policy.Abstain},
		{name: "write inside with -y", tool: "Write", input: write("/proj/notes.txt"), flags: yesFlag, want: policy.Allow},
		{name: "write inside with auto_approve", tool: "Write", input: write("/proj/notes.txt"), extra: "version: 1\nauto_approve: true\n", want: policy.Allow},
		{name: "Edit inside", tool: "Edit", input: map[string]any{"file_path": "/proj/README.md", "old_string": "a", "new_string": "b"}, perm: "acceptEdits", want: policy.Allow},
		{name: "MultiEdit inside", tool: "MultiEdit", input: map[string]any{"file_path": "/proj/README.md", "edits": []any{}}, perm: "acceptEdits", want: policy.Allow},
		{name: "NotebookEdit inside", tool: "NotebookEdit", input: map[string]any{"notebook_path": "/proj/a.ipynb", "new_source": "x"}, perm: "acceptEdits", want: policy.Allow},
		{name: "safe class in default mode", tool: "Write", input: write("/proj/docs/guide.md"), want: policy.Allow, row: RowWrite, has: []string{`paths.safe "docs/**"`}},
		{name: "safe class, new dated folder", tool: "Write", input: write("/proj/agent_sandbox/2026-11-22/x/a.md"), want: policy.Allow},
		{name: "safe prefix sibling is not safe", tool: "Write", input: write("/proj/docs2/x.md"), want: policy.Abstain},
		{name: "warned class adds a warning", tool: "Write", input: write("/proj/src/new.go"), perm: "acceptEdits", want: policy.Allow, warn: true},
		{name: "warned class, default mode", tool: "Write", input: write("/proj/src/new.go"), want: policy.Abstain, warn: true},

		// Row 2: deny rules.
		{name: "read of .env", tool: "Read", input: read("/proj/.env"), want: policy.Deny, row: RowDeny, has: []string{"Read(.env*)", "ref.yaml:", `"/proj/.env"`}},
		{name: "read of .env in bypass mode", tool: "Read", input: read("/proj/.env"), perm: "bypassPermissions", want: policy.Deny},
		{name: "read of .env in agi mode", tool: "Read", input: read("/proj/.env"), flags: agiFlag, want: policy.Deny},
		{name: "read of .env without sandbox", tool: "Read", input: read("/proj/.env"), flags: noSandboxFlag, want: policy.Deny},
		{name: "read of nested .env", tool: "Read", input: read("/proj/apps/api/.env.production"), want: policy.Deny},
		{name: "read of *.env at depth", tool: "Read", input: read("/proj/config/prod.env"), want: policy.Deny},
		{name: "read of .env through traversal", tool: "Read", input: read("/proj/src/../.env"), want: policy.Deny},
		{name: "relative read of .env", tool: "Read", input: read(".env"), want: policy.Deny},
		{name: "read through a symlink to .env", fs: []string{"proj/notes.txt => .env"}, tool: "Read", input: read("/proj/notes.txt"), want: policy.Deny, has: []string{"resolved /proj/.env"}},
		{name: "read of a link named .env.local", fs: []string{"proj/.env.local => README.md"}, tool: "Read", input: read("/proj/.env.local"), want: policy.Deny},
		{name: "read of a chain ending at .env", fs: []string{"proj/l3 => .env", "proj/l2 => l3", "proj/l1 => l2"}, tool: "Read", input: read("/proj/l1"), want: policy.Deny},
		{name: "dangling link to .env.production", fs: []string{"proj/cfg => .env.production"}, tool: "Read", input: read("/proj/cfg"), want: policy.Deny},
		{name: "Read deny also denies writes", tool: "Write", input: write("/proj/x/.env.new"), extra: "version: 1\npaths:\n  protected: []\n", perm: "bypassPermissions", want: policy.Deny},
		{name: "write to /etc", tool: "Write", input: write("/etc/passwd"), want: policy.Deny, row: RowDeny},
		{name: "write to /etc in bypass", tool: "Write", input: write("/etc/hosts"), perm: "bypassPermissions", want: policy.Deny},
		{name: "write to /etc with agi", tool: "Write", input: write("/etc/hosts"), flags: agiFlag, want: policy.Deny},
		{name: "Edit is a write", tool: "Edit", input: map[string]any{"file_path": "/etc/hosts", "old_string": "a", "new_string": "b"}, want: policy.Deny},
		{name: "NotebookEdit is a write", tool: "NotebookEdit", input: map[string]any{"notebook_path": "/etc/x.ipynb"}, want: policy.Deny},
		{name: "new directory under /etc", tool: "Write", input: write("/etc/new-dir/x.conf"), want: policy.Deny},
		{name: "double slashes to /etc", tool: "Write", input: write("//etc//passwd"), want: policy.Deny},
		{name: "traversal from the project to /etc", tool: "Write", input: write("/proj/../../../../etc/cron.d/job"), want: policy.Deny},
		{name: "symlinked file to /etc", fs: []string{"proj/pw => /etc/passwd"}, tool: "Write", input: write("/proj/pw"), perm: "acceptEdits", want: policy.Deny},
		{name: "symlinked directory to /etc", fs: []string{"proj/etc_link => /etc"}, tool: "Write", input: write("/proj/etc_link/cron.d/job"), perm: "acceptEdits", want: policy.Deny},
		{name: "dangling link into /etc", fs: []string{"proj/newconf => /etc/new.conf"}, tool: "Write", input: write("/proj/newconf"), perm: "acceptEdits", want: policy.Deny},
		{name: "/etcetera is not /etc", tool: "Write", input: write("/etcetera/x"), perm: "acceptEdits", want: policy.Ask, row: RowOutside},
		{name: "Write(/etc) does not cover reads", tool: "Read", input: read("/etc/hostname"), want: policy.Ask},
		{name: "deny rule naming a tool", tool: "WebFetch", input: map[string]any{"url": "https://x"}, extra: "version: 1\nrules:\n  deny: [WebFetch]\n", want: policy.Deny, row: RowDeny},
		{name: "deny rule with an MCP glob", tool: "mcp__evil__run", input: map[string]any{"x": 1}, extra: "version: 1\nrules:\n  deny: [\"mcp__evil__*\"]\n", want: policy.Deny},
		{name: "unevaluable deny specifier fails closed", tool: "WebFetch", input: map[string]any{"url": "https://x"}, extra: "version: 1\nrules:\n  deny: [\"WebFetch(domain:x.com)\"]\n", want: policy.Deny},
		{name: "unevaluable allow specifier never allows", tool: "WebFetch", input: map[string]any{"url": "https://x"}, extra: "version: 1\nrules:\n  allow: [\"WebFetch(domain:x.com)\"]\n", want: policy.Abstain},
		{name: "Edit rule covers Write", tool: "Write", input: write("/proj/README.md"), perm: "acceptEdits", extra: "version: 1\nrules:\n  deny: [\"Edit(README.md)\"]\n", want: policy.Deny},
		{name: "home-anchored deny before outside_read", tool: "Read", input: read("~/.ssh/id_rsa"), extra: "version: 1\nrules:\n  deny: [\"Read(~/.ssh/**)\"]\n", want: policy.Deny},
		{name: "anchored deny rule", fs: []string{"proj/secrets/a.txt"}, tool: "Read", input: read("/proj/secrets/a.txt"), extra: "version: 1\nrules:\n  deny: [\"Read(secrets/*.txt)\"]\n", want: policy.Deny},
		{name: "tool-specific path rule only for that tool", tool: "Read", input: read("/proj/README.md"), extra: "version: 1\nrules:\n  deny: [\"Grep(README.md)\"]\n", want: policy.Allow},
		{name: "deny beats on_error ask", tool: "Read", input: read("/proj/.env"), extra: "version: 1\non_error: ask\n", want: policy.Deny},

		// Row 3: protected.
		{name: "protected .git", tool: "Write", input: write("/proj/.git/config"), perm: "acceptEdits", want: policy.Deny, row: RowProtected, has: []string{`paths.protected ".git/**"`, "ask the user"}},
		{name: "protected in bypass", tool: "Write", input: write("/proj/.git/hooks/pre-commit"), perm: "bypassPermissions", want: policy.Deny},
		// Any repository's .git, for the file tools, whatever the policy.
		{name: "a nested repository's hook", tool: "Write", input: write("/proj/vendor/lib/.git/hooks/pre-commit"), perm: "bypassPermissions", want: policy.Deny, row: RowProtected, has: []string{`self-protection "**/.git/**" (the file tools)`, "outside the sandbox"}},
		{name: "a nested repository's config, any case", tool: "Edit", input: map[string]any{"file_path": "/proj/sub/.GIT/config", "old_string": "a", "new_string": "b"}, perm: "bypassPermissions", want: policy.Deny},
		{name: "a .git file naming another repository", tool: "Write", input: write("/proj/sub/.git"), perm: "bypassPermissions", want: policy.Deny},
		{name: "a .git reached through a symlink", fs: []string{"proj/vendor/lib/.git/hooks/", "proj/h => vendor/lib/.git/hooks"}, tool: "Write", input: write("/proj/h/pre-push"), perm: "bypassPermissions", want: policy.Deny, has: []string{"/proj/vendor/lib/.git/hooks/pre-push"}},
		{name: "the project's .git, the policy's protection removed", tool: "Write", input: write("/proj/.git/hooks/pre-commit"), extra: "version: 1\nremove:\n  paths.protected: [\".git/**\"]\n", perm: "bypassPermissions", want: policy.Deny},
		{name: ".gitignore, .github, x.git are no .git", tool: "Write", input: write("/proj/x.git/.github/.gitignore"), perm: "bypassPermissions", want: policy.Allow},
		{name: "protected with -y", tool: "Write", input: write("/proj/package-lock.json"), flags: yesFlag, want: policy.Deny},
		{name: "protected base name at depth", tool: "Write", input: write("/proj/web/package-lock.json"), perm: "acceptEdits", want: policy.Deny},
		{name: "protected *.pem deep", tool: "Write", input: write("/proj/a/b/ca.pem"), perm: "bypassPermissions", want: policy.Deny},
		{name: "protected wins over safe", tool: "Write", input: write("/proj/docs/.env.local"), want: policy.Deny},
		{name: "protected wins over warned", tool: "Write", input: write("/proj/src/.env"), perm: "acceptEdits", want: policy.Deny},
		{name: "traversal out of safe into .git", tool: "Write", input: write("/proj/docs/../.git/config"), perm: "acceptEdits", want: policy.Deny},
		{name: "parent symlinked into .git", fs: []string{"proj/hooks_dir => .git/hooks"}, tool: "Write", input: write("/proj/hooks_dir/pre-commit"), perm: "acceptEdits", want: policy.Deny},
		{name: "link location is protected", fs: []string{"proj/.env.local => README.md"}, tool: "Write", input: write("/proj/.env.local"), perm: "acceptEdits", want: policy.Deny},
		{name: "protected restricts writes, not reads", tool: "Read", input: read("/proj/.git/config"), want: policy.Allow},
		{name: "protected before an ask rule", tool: "Write", input: write("/proj/.git/config"), extra: "version: 1\nrules:\n  ask: [\"Edit(.git/**)\"]\n", want: policy.Deny},
		{name: "protected before an allow rule", tool: "Write", input: write("/proj/.git/config"), extra: "version: 1\nrules:\n  allow: [\"Edit(.git/**)\"]\n", want: policy.Deny},
		{name: "protected from a later layer", tool: "Write", input: write("/proj/README.md"), perm: "acceptEdits", extra: "version: 1\npaths:\n  protected: [README.md]\n", want: policy.Deny},

		// Row 4: read mode.
		{name: "plan mode denies writes", tool: "Write", input: write("/proj/notes.txt"), perm: "plan", want: policy.Deny, row: RowReadMode, has: []string{"read mode (host permission_mode plan)"}},
		{name: "plan mode denies safe writes", tool: "Write", input: write("/proj/docs/x.md"), perm: "plan", want: policy.Deny},
		{name: "plan mode allows reads", tool: "Read", input: read("/proj/README.md"), perm: "plan", want: policy.Allow},
		{name: "-r denies writes", tool: "Write", input: write("/proj/notes.txt"), flags: readFlag, want: policy.Deny, has: []string{"-r/--read"}},
		{name: "read mode denies writes outside too", tool: "Write", input: write("/outside/x"), flags: readFlag, want: policy.Deny, row: RowReadMode},
		{name: "read mode denies Bash", tool: "Bash", input: map[string]any{"command": "touch x"}, perm: "plan", want: policy.Deny},
		{name: "read mode denies an MCP write", tool: "mcp__fs__write_file", input: map[string]any{"path": "/proj/x"}, perm: "plan", want: policy.Deny},
		{name: "read mode leaves a tool without targets", tool: "WebFetch", input: map[string]any{"url": "u"}, perm: "plan", want: policy.Abstain},
		{name: "policy read mode", tool: "Edit", input: map[string]any{"file_path": "/proj/README.md"}, extra: "version: 1\nmode: read\n", want: policy.Deny, has: []string{"extra.yaml:2"}},

		// Row 5: outside.
		{name: "read outside", tool: "Read", input: read("/outside/secret.txt"), want: policy.Ask, row: RowOutside, has: []string{"outside the sandbox (/proj, /shared)", "sandbox.outside_read"}},
		{name: "outside read in bypass", tool: "Read", input: read("/etc/hostname"), perm: "bypassPermissions", want: policy.Ask},
		{name: "write outside", tool: "Write", input: write("/outside/x"), perm: "acceptEdits", want: policy.Ask, has: []string{"agent_sandbox/2026-11-22/"}},
		{name: "relative write outside", tool: "Write", input: write("../outside/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "write outside with -y", tool: "Write", input: write("/outside/x"), flags: yesFlag, want: policy.Ask},
		{name: "outside_write deny", tool: "Write", input: write("/outside/x"), perm: "acceptEdits", extra: "version: 1\nsandbox:\n  outside_write: deny\n", want: policy.Deny, row: RowOutside},
		{name: "agi has no sandbox", tool: "Write", input: write("/outside/x"), flags: agiFlag, want: policy.Allow},
		{name: "--no-sandbox write outside abstains", tool: "Write", input: write("/outside/x"), flags: noSandboxFlag, want: policy.Abstain},
		{name: "tilde is HOME", tool: "Read", input: read("~/.ssh/id_rsa"), want: policy.Ask, has: []string{"resolved /home/.ssh/id_rsa"}},
		{name: "tilde alone", tool: "Read", input: read("~"), want: policy.Ask},
		{name: "cwd moved outside does not move the sandbox", tool: "Write", input: write("/outside/x"), cwd: "/", perm: "acceptEdits", want: policy.Ask},
		{name: "relative read with cwd outside", tool: "Read", input: read("secret.txt"), cwd: "/outside", want: policy.Ask},
		{name: "relative write with cwd in shared", tool: "Write", input: write("x.txt"), cwd: "/shared", perm: "acceptEdits", want: policy.Allow},
		{name: "project dir unset: cwd is the root", tool: "Write", input: write("/proj/x"), perm: "acceptEdits", env: &Env{Home: "/home"}, want: policy.Allow},

		// Symlinks and traversal against the sandbox.
		{name: "file symlink to outside, read", fs: []string{"proj/leak.txt => /outside/secret.txt"}, tool: "Read", input: read("/proj/leak.txt"), want: policy.Ask},
		{name: "file symlink to outside, write", fs: []string{"proj/leak.txt => /outside/secret.txt"}, tool: "Write", input: write("/proj/leak.txt"), perm: "acceptEdits", want: policy.Ask},
		{name: "directory symlink to outside", fs: []string{"proj/outlink => /outside"}, tool: "Read", input: read("/proj/outlink/secret.txt"), want: policy.Ask},
		{name: "new file under a symlinked directory", fs: []string{"proj/outlink => /outside"}, tool: "Write", input: write("/proj/outlink/new.txt"), perm: "acceptEdits", want: policy.Ask, has: []string{"resolved /outside/new.txt"}},
		{name: "dangling link to outside", fs: []string{"proj/dang => /outside/not_yet.txt"}, tool: "Write", input: write("/proj/dang"), perm: "acceptEdits", want: policy.Ask},
		{name: "relative link target", fs: []string{"proj/rel => ../outside/secret.txt"}, tool: "Read", input: read("/proj/rel"), want: policy.Ask},
		{name: "chain out", fs: []string{"proj/c3 => /outside", "proj/c2 => c3", "proj/c1 => c2"}, tool: "Write", input: write("/proj/c1/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "chain in", fs: []string{"proj/i2 => src", "proj/i1 => i2"}, tool: "Write", input: write("/proj/i1/x.go"), perm: "acceptEdits", want: policy.Allow, warn: true},
		{name: "absolute link inside", fs: []string{"proj/abs_in => /proj/src"}, tool: "Write", input: write("/proj/abs_in/x.go"), perm: "acceptEdits", want: policy.Allow, warn: true},
		{name: "link into the additional directory", fs: []string{"proj/to_shared => /shared"}, tool: "Write", input: write("/proj/to_shared/x"), perm: "acceptEdits", want: policy.Allow},
		{name: "link in the additional directory pointing out", fs: []string{"shared/ext => /outside"}, tool: "Write", input: write("/shared/ext/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "link to root", fs: []string{"proj/rootlink => /"}, tool: "Read", input: read("/proj/rootlink/etc/passwd"), want: policy.Ask},
		{name: "dotdot after symlink is physical", fs: []string{"proj/deeplink => /outside/deep"}, tool: "Read", input: read("/proj/deeplink/../secret.txt"), want: policy.Ask},
		{name: "dotdot applied first leaves the sandbox", fs: []string{"proj/a/b/", "proj/inlink => a/b"}, tool: "Write", input: write("/proj/inlink/../../../outside/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "write to a link inside pointing inside", fs: []string{"proj/notes.md => README.md"}, tool: "Write", input: write("/proj/notes.md"), perm: "acceptEdits", want: policy.Allow},
		{name: "safe dir is a symlink out", fs: []string{"proj/docs/ext => /outside"}, tool: "Write", input: write("/proj/docs/ext/x.md"), want: policy.Ask},
		{name: "project root reached through a link", fs: []string{"realproj/", "link => realproj"}, tool: "Write", input: write("/realproj/notes.txt"), perm: "acceptEdits", env: &Env{ProjectDir: "/link", Home: "/home"}, cwd: "/link", want: policy.Allow},
		{name: "traversal to the additional directory", tool: "Write", input: write("/proj/../shared/x"), perm: "acceptEdits", want: policy.Allow},
		{name: "prefix sibling /proj-evil", fs: []string{"proj-evil/"}, tool: "Write", input: write("/proj-evil/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "prefix sibling /proj.bak", tool: "Write", input: write("/proj.bak/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "prefix without separator", tool: "Write", input: write("/projx"), perm: "acceptEdits", want: policy.Ask},
		{name: "prefix sibling of the additional directory", tool: "Read", input: read("/sharedx/f"), want: policy.Ask},
		{name: "parent of the project", tool: "Write", input: write("/x"), perm: "acceptEdits", want: policy.Ask},
		{name: "traversal into a prefix sibling", tool: "Write", input: write("/proj/../proj-evil/x"), perm: "acceptEdits", want: policy.Ask},

		// Glob and Grep.
		{name: "Glob inside", tool: "Glob", input: map[string]any{"pattern": "**/*.go", "path": "/proj"}, want: policy.Allow},
		{name: "Glob without path uses cwd", tool: "Glob", input: map[string]any{"pattern": "*.md"}, want: policy.Allow},
		{name: "Glob pattern with dotdot", tool: "Glob", input: map[string]any{"pattern": "../outside/**"}, want: policy.Ask},
		{name: "Glob absolute pattern", tool: "Glob", input: map[string]any{"pattern": "/etc/*"}, want: policy.Ask},
		{name: "Glob home pattern", tool: "Glob", input: map[string]any{"pattern": "~/.ssh/*"}, want: policy.Ask},
		{name: "Glob dotdot after a wildcard", tool: "Glob", input: map[string]any{"pattern": "*/../../outside/*"}, want: policy.Ask},
		{name: "Glob brace alternatives inside", tool: "Glob", input: map[string]any{"pattern": "{src,docs}/*.md"}, want: policy.Allow},
		{name: "Glob brace alternative outside", tool: "Glob", input: map[string]any{"pattern": "{src,../outside}/*"}, want: policy.Ask},
		{name: "Glob path symlinked out", fs: []string{"proj/outlink => /outside"}, tool: "Glob", input: map[string]any{"pattern": "*", "path": "/proj/outlink"}, want: policy.Ask},
		{name: "Glob of the parent", tool: "Glob", input: map[string]any{"pattern": "*", "path": "/"}, want: policy.Ask},
		{name: "Grep without path searches cwd", tool: "Grep", input: map[string]any{"pattern": "main"}, want: policy.Allow},
		{name: "Grep outside", tool: "Grep", input: map[string]any{"pattern": "x", "path": "/outside"}, want: policy.Ask},
		{name: "Grep path names .env", tool: "Grep", input: map[string]any{"pattern": "KEY", "path": "/proj/.env"}, want: policy.Deny},
		{name: "Grep glob names .env files", tool: "Grep", input: map[string]any{"pattern": "KEY", "glob": ".env*"}, want: policy.Deny, has: []string{"Read(.env*)"}},
		{name: "Grep glob .e* names .env files", tool: "Grep", input: map[string]any{"pattern": "KEY", "glob": ".e*"}, want: policy.Deny},
		{name: "Grep glob *.go", tool: "Grep", input: map[string]any{"pattern": "x", "glob": "*.go"}, want: policy.Allow},
		{name: "Grep exclusion glob", tool: "Grep", input: map[string]any{"pattern": "x", "glob": "!.env*"}, want: policy.Allow},
		{name: "Grep directory-wide inside (a hook cannot filter results)", tool: "Grep", input: map[string]any{"pattern": "API_KEY", "path": "/proj"}, want: policy.Allow},

		// Rows 6 and 7: ask and allow rules.
		{name: "ask rule before a read inside", tool: "Read", input: read("/proj/README.md"), extra: "version: 1\nrules:\n  ask: [\"Read(README.md)\"]\n", want: policy.Ask, row: RowAsk},
		{name: "ask rule in bypass", tool: "Write", input: write("/proj/src/a.go"), perm: "bypassPermissions", extra: "version: 1\nrules:\n  ask: [\"Edit(src/**)\"]\n", want: policy.Ask, warn: true},
		{name: "ask rule naming a tool", tool: "WebFetch", input: map[string]any{"url": "u"}, extra: "version: 1\nrules:\n  ask: [WebFetch]\n", want: policy.Ask},
		{name: "allow rule for a write", tool: "Write", input: write("/proj/README.md"), extra: "version: 1\nrules:\n  allow: [\"Edit(README.md)\"]\n", want: policy.Allow, row: RowAllow},
		{name: "allow rule for a new directory", tool: "Write", input: write("/proj/notes/a.txt"), extra: "version: 1\nrules:\n  allow: [\"Write(notes/**)\"]\n", want: policy.Allow},
		{name: "allow rule never reaches outside", tool: "Write", input: write("/outside/x"), extra: "version: 1\nrules:\n  allow: [\"Write(/outside/**)\"]\n", want: policy.Ask},
		{name: "allow rule naming an MCP tool", tool: "mcp__gh__list_issues", input: map[string]any{"repo": "x"}, extra: "version: 1\nrules:\n  allow: [\"mcp__gh__*\"]\n", want: policy.Allow},
		{name: "Read allow does not allow writes", tool: "Write", input: write("/proj/README.md"), extra: "version: 1\nrules:\n  allow: [\"Read(README.md)\"]\n", want: policy.Abstain},

		// Row 10: MCP and other tools.
		{name: "MCP read outside", tool: "mcp__filesystem__read_file", input: map[string]any{"path": "/outside/secret.txt"}, want: policy.Ask},
		{name: "MCP read inside is never allowed", tool: "mcp__filesystem__read_file", input: map[string]any{"path": "/proj/README.md"}, want: policy.Abstain, row: RowOther},
		{name: "MCP write inside in bypass", tool: "mcp__filesystem__write_file", input: map[string]any{"path": "/proj/n.txt"}, perm: "bypassPermissions", want: policy.Abstain},
		{name: "MCP write to /etc", tool: "mcp__filesystem__write_file", fs: []string{"etc/"}, input: map[string]any{"path": "/etc/cron.d/x"}, want: policy.Deny},
		{name: "MCP JSON pointer below a top directory that does not exist is no path", tool: "mcp__k8s__get_resource", input: map[string]any{"path": "/spec/replicas"}, want: policy.Abstain},
		{name: "MCP JSON Patch pointers are no paths", tool: "mcp__k8s__patch_resource", input: map[string]any{"patch": []any{map[string]any{"op": "replace", "path": "/home/x", "value": 3}}}, want: policy.Abstain},
		{name: "MCP file: URI of a secret", tool: "mcp__fs__read_resource", input: map[string]any{"uri": "file:///home/.ssh/id_rsa"}, embedded: true, want: policy.Deny},
		{name: "MCP file: URI inside", tool: "mcp__fs__read_resource", input: map[string]any{"uri": "file:///proj/README.md"}, want: policy.Abstain},
		{name: "MCP https URI is no path", tool: "mcp__web__fetch", input: map[string]any{"url": "https://example.com/etc/passwd"}, want: policy.Abstain},
		{name: "MCP output outside is a write", tool: "mcp__pdf__get_report", input: map[string]any{"output": "../outside/r.pdf"}, embedded: true, want: policy.Deny},
		{name: "MCP output inside", tool: "mcp__pdf__get_report", input: map[string]any{"outputPath": "agent_sandbox/r.pdf"}, want: policy.Abstain},
		{name: "MCP absolute path by its shape under any key", tool: "mcp__x__summarize", input: map[string]any{"doc": map[string]any{"ref": "/outside/secret.txt"}}, want: policy.Ask},
		{name: "MCP home path by its shape", tool: "mcp__x__summarize", input: map[string]any{"ref": "~/.ssh/id_rsa"}, embedded: true, want: policy.Deny},
		{name: "MCP route by its shape is no path", tool: "mcp__http__request", input: map[string]any{"endpoint": "/api/v1/users", "method": "GET"}, want: policy.Abstain},
		{name: "MCP move destination outside", tool: "mcp__filesystem__move_file", input: map[string]any{"source": "/proj/README.md", "destination": "/outside/R"}, want: policy.Ask},
		{name: "MCP edit of a protected file", tool: "mcp__filesystem__edit_file", input: map[string]any{"path": "/proj/.git/config"}, want: policy.Deny},
		{name: "MCP paths array element outside", tool: "mcp__filesystem__read_multiple_files", input: map[string]any{"paths": []any{"/proj/README.md", "/outside/secret.txt"}}, want: policy.Ask},
		{name: "MCP nested path field", tool: "mcp__x__read", input: map[string]any{"opts": map[string]any{"file_path": "/outside/secret.txt"}}, want: policy.Ask},
		{name: "MCP without path fields", tool: "mcp__github__create_issue", input: map[string]any{"title": "x"}, perm: "bypassPermissions", want: policy.Abstain},
		{name: "MCP read deny by Read rule", tool: "mcp__fs__read_file", input: map[string]any{"path": "/proj/.env"}, want: policy.Deny},
		{name: "WebFetch has no targets", tool: "WebFetch", input: map[string]any{"url": "u"}, want: policy.Abstain},
		{name: "unknown tool with a file_path", tool: "FileDelete", input: map[string]any{"file_path": "/proj/README.md"}, perm: "acceptEdits", want: policy.Abstain},
		{name: "Bash without rules abstains", tool: "Bash", input: map[string]any{"command": "make"}, want: policy.Abstain},
		{name: "Bash deny rule", tool: "Bash", input: map[string]any{"command": "rm -rf build"}, want: policy.Deny},

		// Row 1: errors during judging.
		{name: "symlink loop", fs: []string{"proj/loop1 => loop2", "proj/loop2 => loop1"}, tool: "Read", input: read("/proj/loop1"), want: policy.Deny, row: RowError, has: []string{"symbolic links", "on_error is deny"}},
		{name: "loop with on_error ask", fs: []string{"proj/loop1 => loop2", "proj/loop2 => loop1"}, tool: "Read", input: read("/proj/loop1"), extra: "version: 1\non_error: ask\n", want: policy.Ask, row: RowError},
		{name: "path over PATH_MAX", tool: "Write", input: write("/proj/" + strings.Repeat("a/", 2100) + "x"), want: policy.Deny, row: RowError},
		{name: "component over NAME_MAX", tool: "Write", input: write("/proj/" + strings.Repeat("x", 256)), want: policy.Deny, row: RowError},
		{name: "tilde without HOME", tool: "Read", input: read("~/x"), env: &Env{ProjectDir: "/proj"}, want: policy.Deny, row: RowError},
		{name: "relative project dir", tool: "Read", input: read("/proj/README.md"), env: &Env{ProjectDir: "proj"}, want: policy.Deny, row: RowError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runDecide(t, tt)
			if r.Decision != tt.want {
				t.Fatalf("decision = %s (row %d), want %s\nreason: %s\n%s", r.Decision, r.Row, tt.want, r.Reason, trace(r))
			}
			if tt.row != 0 && r.Row != tt.row {
				t.Errorf("row = %d, want %d\nreason: %s", r.Row, tt.row, r.Reason)
			}
			for _, s := range tt.has {
				if !strings.Contains(r.Reason, s) {
					t.Errorf("reason lacks %q:\n%s", s, r.Reason)
				}
			}
			if (r.Warning != "") != tt.warn {
				t.Errorf("warning = %q, want warning: %v", r.Warning, tt.warn)
			}
			if r.Decision != policy.Abstain && r.Reason == "" {
				t.Error("empty reason")
			}
		})
	}
}

// TestDenyReasonNamesEverything checks the full deny text for the model.
func TestDenyReasonNamesEverything(t *testing.T) {
	r := runDecide(t, decideCase{
		fs: []string{"proj/outlink => /outside"}, tool: "Write",
		input: write("/proj/outlink/new.txt"), perm: "acceptEdits",
		extra: "version: 1\nsandbox:\n  outside_write: deny\n",
	})
	want := `safezone: deny Write "/proj/outlink/new.txt" (resolved /outside/new.txt): outside the sandbox (/proj, /shared); sandbox.outside_write is deny (extra.yaml:3); write inside the project instead (scratch files under agent_sandbox/2026-11-22/<topic>/), or ask the user to add the directory to sandbox.additional_directories`
	if r.Reason != want {
		t.Errorf("reason:\n%s\nwant:\n%s", r.Reason, want)
	}
}

// TestReasonsList: every matching rule is reported, not only the first,
// with the target as resolved.
func TestReasonsList(t *testing.T) {
	r := runDecide(t, decideCase{tool: "Read", input: read("/proj/.env")})
	if len(r.Targets) != 1 || r.Targets[0].Res.Path != "/proj/.env" || !r.Targets[0].Inside {
		t.Errorf("targets = %+v", r.Targets)
	}
	var rules []string
	for _, m := range r.Reasons {
		rules = append(rules, m.Rule)
	}
	for _, want := range []string{"Read(.env*)", "read inside the sandbox"} {
		if !slices.Contains(rules, want) {
			t.Errorf("reasons %q lack %q", rules, want)
		}
	}
	if len(r.Roots) != 2 || r.Roots[0].Path != "/proj" || r.Roots[1].Path != "/shared" {
		t.Errorf("roots = %+v", r.Roots)
	}
	if r.Row != RowDeny || r.TargetDecision(0) != policy.Deny {
		t.Errorf("row %d, target decision %v; want row 2, deny", r.Row, r.TargetDecision(0))
	}
}

// TestSelfProtectionFollowsSymlinks: a self-protected path that is a
// symlink (a dotfile manager's ~/.config/safezone) also protects the file
// it resolves to.
func TestSelfProtectionFollowsSymlinks(t *testing.T) {
	fsys := makefs(append(append([]string{}, baseFS...),
		"home/dotfiles/safezone/policy.yaml", "home/.config => dotfiles", "proj/.safezone.yaml => /home/dotfiles/proj.yaml")...)
	loc := policy.Locations{ProjectRoot: "/proj", Home: "/home", User: "/home/.config/safezone/policy.yaml"}
	pol := policy.Merge(mustLayer(t, "ref.yaml", refPolicy), policy.SelfProtection(loc, nil))
	for _, p := range []string{"/home/dotfiles/safezone/policy.yaml", "/home/dotfiles/proj.yaml", "/home/.config/safezone/policy.yaml", "/proj/.safezone.yaml"} {
		in := `{"tool_name":"Write","cwd":"/proj","permission_mode":"bypassPermissions","tool_input":{"file_path":"` + p + `","content":"x"}}`
		call, err := hookio.DecodeClaude([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		r := Decide(call, pol, Env{ProjectDir: "/proj", Home: "/home"}, fsys)
		if r.Decision != policy.Deny || r.Row != RowProtected {
			t.Errorf("write %s: %s (row %d): %s", p, r.Decision, r.Row, r.Reason)
		}
	}
}

// TestSelfProtectionFollowsSymlinkedDirectories: a self-protected pattern
// whose literal directory is a symlink (~/.claude, .codex, .github kept in
// a dotfiles directory) protects what its rest matches below the
// directory the link leads to, written there directly; the neighbours it
// does not match, there or beside it, are written as usual.
func TestSelfProtectionFollowsSymlinkedDirectories(t *testing.T) {
	fsys := makefs(append(append([]string{}, baseFS...),
		"home/.claude => /dot/claude", "dot/claude/plugins/p/", "dot/claude/settings.json",
		"proj/.codex => /dot/codex", "dot/codex/config.toml", "dot/codex-old/",
		"proj/.github => ../dot/gh", "dot/gh/hooks/", "dot/gh/workflows/")...)
	loc := policy.Locations{ProjectRoot: "/proj", Home: "/home"}
	pol := policy.Merge(mustLayer(t, "ref.yaml", refPolicy), mustLayer(t, "dot.yaml", "version: 1\nsandbox:\n  additional_directories: [\"/dot\"]\n"),
		policy.SelfProtection(loc, nil))
	for p, protected := range map[string]bool{
		"/dot/claude/plugins/p/hook.sh": true,  // ~/.claude/plugins/**
		"/dot/claude/settings.json":     true,  // ~/.claude/settings.json
		"/dot/codex/config.toml":        true,  // ./.codex/**
		"/dot/codex/new/x.toml":         true,  // ./.codex/**, a new directory
		"/dot/gh/hooks/pre.json":        true,  // ./.github/hooks/*.json
		"/dot/claude/notes.md":          false, // no pattern below ~/.claude names it
		"/dot/codex-old/config.toml":    false, // beside the link's target
		"/dot/gh/hooks/README.md":       false, // not *.json
		"/dot/gh/workflows/ci.json":     false, // not in hooks/
	} {
		in := `{"tool_name":"Write","cwd":"/proj","permission_mode":"bypassPermissions","tool_input":{"file_path":"` + p + `","content":"x"}}`
		call, err := hookio.DecodeClaude([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		r := Decide(call, pol, Env{ProjectDir: "/proj", Home: "/home"}, fsys)
		switch {
		case protected && (r.Decision != policy.Deny || r.Row != RowProtected):
			t.Errorf("write %s: %s (row %d), want deny (row 3): %s", p, r.Decision, r.Row, r.Reason)
		case !protected && r.Decision != policy.Allow:
			t.Errorf("write %s: %s (row %d), want allow: %s", p, r.Decision, r.Row, r.Reason)
		}
	}
}

// TestNoAsk: where no person can answer an ask (Env.NoAsk, a headless
// Gemini CLI run), an ask is answered deny, its reason kept and the reason
// for the deny added; deny and allow are left as they are.
func TestNoAsk(t *testing.T) {
	env := &Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22", NoAsk: "Gemini CLI in a headless run (gemini -p)"}
	r := runDecide(t, decideCase{fs: []string{"outside/secret"}, tool: "Read", input: read("/outside/secret"), env: env})
	if r.Decision != policy.Deny || !strings.HasPrefix(r.Reason, `safezone: ask Read "/outside/secret"`) ||
		!strings.Contains(r.Reason, "a person must approve this call, and Gemini CLI in a headless run (gemini -p) cannot ask for that, so safezone denies it") {
		t.Errorf("a read outside: %s %q", r.Decision, r.Reason)
	}
	// The benign neighbours: a deny and an allow are the same with or without NoAsk.
	for _, c := range []decideCase{
		{tool: "Read", input: read("/proj/.env")},
		{tool: "Write", input: write("/proj/docs/a.md")},
		{fs: []string{"shared/notes"}, tool: "Read", input: read("/shared/notes")},
	} {
		plain := runDecide(t, c)
		c.env = env
		got := runDecide(t, c)
		if got.Decision != plain.Decision || got.Reason != plain.Reason || got.Decision == policy.Ask {
			t.Errorf("%s %v: %s %q with NoAsk, %s %q without", c.tool, c.input, got.Decision, got.Reason, plain.Decision, plain.Reason)
		}
	}
}

// TestPermissionFrom: a permission mode the hook found outside the input
// (hookio.Call.PermissionFrom) is named in the reason.
func TestPermissionFrom(t *testing.T) {
	call, err := hookio.DecodeClaude([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo hi > notes.txt"},"cwd":"/proj"}`))
	if err != nil {
		t.Fatal(err)
	}
	call.PermissionMode, call.PermissionFrom = hookio.PermBypass, "codex exec: approval never (codex exec never asks), sandbox workspace-write (-s workspace-write)"
	r := Decide(call, policy.Merge(mustLayer(t, "ref.yaml", refPolicy)), Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}, makefs(baseFS...))
	if r.Decision != policy.Allow || !strings.Contains(r.Reason, "auto-approve (host permission_mode bypassPermissions (codex exec: approval never") {
		t.Errorf("%s %q", r.Decision, r.Reason)
	}
}

// TestCopilotMCPAliases: Copilot CLI's MCP tool <server>-<tool> is reached
// by deny and ask rules naming any mcp__server__tool its name splits
// into, never by an allow rule (an alias may be another tool's name).
func TestCopilotMCPAliases(t *testing.T) {
	for _, tc := range []struct {
		rules string
		input map[string]any
		want  policy.Decision
	}{
		{`deny: ["mcp__evil-corp__run"]`, map[string]any{"x": 1}, policy.Deny},
		{`deny: ["mcp__evil__corp-run"]`, map[string]any{"x": 1}, policy.Deny},
		{`ask: ["mcp__evil-corp__*"]`, map[string]any{"x": 1}, policy.Ask},
		{`deny: ["mcp__evil-corp"]`, map[string]any{"x": 1}, policy.Deny},
		{`deny: ["mcp__evil-corp__run(/proj/src/**)"]`, map[string]any{"path": "/proj/src/a.go"}, policy.Deny},
		{`deny: ["mcp__other__run"]`, map[string]any{"x": 1}, policy.Abstain},
		{`allow: ["mcp__evil-corp__run"]`, map[string]any{"x": 1}, policy.Abstain},
	} {
		data, _ := json.Marshal(map[string]any{"sessionId": "s", "timestamp": 1, "cwd": "/proj", "toolName": "evil-corp-run", "toolArgs": tc.input})
		call, err := hookio.DecodeGitHubHooks(data)
		if err != nil {
			t.Fatal(err)
		}
		layers := []*policy.Layer{mustLayer(t, "ref.yaml", refPolicy), mustLayer(t, "extra.yaml", "version: 1\nrules:\n  "+tc.rules+"\n")}
		r := Decide(call, policy.Merge(layers...), Env{ProjectDir: "/proj", Home: "/home", Today: "2026-11-22"}, makefs(baseFS...))
		if r.Decision != tc.want {
			t.Errorf("%s: %v (%s), want %v", tc.rules, r.Decision, r.Reason, tc.want)
		}
	}
}
