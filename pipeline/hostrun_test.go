package pipeline

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// procTree builds a /proc with the hook (pid 100) and its ancestors, the
// nearest first, each given by its argv (pids 99, 98, ...; the last one's
// parent is init). tty lists the descriptors (0, 1) of the farthest
// ancestor that are a terminal; the others are pipes.
func procTree(fsys fstest.MapFS, tty []int, ancestors ...[]string) {
	pid := 100
	fsys["proc/100/stat"] = &fstest.MapFile{Data: []byte("100 (safe zone) (x) S 99 1 1 0")}
	fsys["proc/100/cmdline"] = &fstest.MapFile{Data: []byte("safezone\x00--host\x00codex\x00")}
	for i, argv := range ancestors {
		pid--
		ppid := pid - 1
		if i == len(ancestors)-1 {
			ppid = 1
		}
		p := "proc/" + strconv.Itoa(pid)
		fsys[p+"/stat"] = &fstest.MapFile{Data: []byte(strconv.Itoa(pid) + " (x) S " + strconv.Itoa(ppid) + " 1 1 0")}
		fsys[p+"/cmdline"] = &fstest.MapFile{Data: []byte(strings.Join(argv, "\x00") + "\x00")}
		for _, fd := range []int{0, 1} {
			target := "pipe:[1234]"
			if i == len(ancestors)-1 && len(tty) > 0 && (tty[0] == fd || len(tty) > 1) {
				target = "/dev/pts/3"
			}
			fsys[p+"/fd/"+strconv.Itoa(fd)] = &fstest.MapFile{Data: []byte(target), Mode: fs.ModeSymlink}
		}
	}
}

func TestAncestors(t *testing.T) {
	fsys := fstest.MapFS{}
	procTree(fsys, nil, []string{"/bin/sh", "-c", "safezone --host codex"}, []string{"/opt/codex", "exec", "hi"})
	s := &System{FS: fsys, pid: 100}
	got := s.ancestors()
	if len(got) != 2 || got[0].pid != 99 || got[0].argv[0] != "/bin/sh" || got[1].pid != 98 || strings.Join(got[1].argv, " ") != "/opt/codex exec hi" {
		t.Errorf("ancestors = %+v", got)
	}
	if s := (&System{FS: fstest.MapFS{}, pid: 100}); len(s.ancestors()) != 0 {
		t.Error("ancestors found without a /proc")
	}
}

func TestFindHost(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ancestors [][]string
		host      string
		found     bool
		args      string
	}{
		{"native binary, through sh -c", [][]string{{"/bin/sh", "-c", "safezone --host codex"}, {"/v/bin/codex", "exec", "--json", "hi"}}, "codex", true, "exec --json hi"},
		{"directly, the nearest", [][]string{{"/v/bin/codex", "exec"}, {"node", "/x/codex.js", "exec", "--json"}}, "codex", true, "exec"},
		{"node script, node options first", [][]string{{"sh", "-c", "x"}, {"/usr/bin/node", "--max-old-space-size=100", "/p/node_modules/.bin/gemini", "-y", "-p", "x"}}, "gemini", true, "-y -p x"},
		{"node script with .js", [][]string{{"node", "/p/dist/gemini.js", "--yolo"}}, "gemini", true, "--yolo"},
		{"through wrappers", [][]string{{"env", "X=1", "safezone"}, {"timeout", "5", "sh"}, {"-bash"}, {"codex"}}, "codex", true, ""},
		{"a test binary in between", [][]string{{"/tmp/go-build/safezone.test"}, {"codex", "exec"}}, "codex", false, ""},
		{"another host", [][]string{{"sh", "-c", "x"}, {"node", "/p/claude.js"}}, "codex", false, ""},
		{"node running something else", [][]string{{"node", "/p/server.js", "codex"}}, "codex", false, ""},
		{"an unreadable command line", [][]string{{}, {"codex"}}, "codex", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps []proc
			for i, argv := range tc.ancestors {
				ps = append(ps, proc{pid: 99 - i, argv: argv})
			}
			_, args, ok := findHost(ps, tc.host)
			if got := strings.Join(args, " "); ok != tc.found || got != tc.args {
				t.Errorf("findHost = %q, %v; want %q, %v", got, ok, tc.args, tc.found)
			}
		})
	}
}

func TestParseCodexArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want codexArgs
	}{
		{[]string{"exec", "--json", "--dangerously-bypass-approvals-and-sandbox", "do it"}, codexArgs{sub: "exec", bypass: true}},
		{[]string{"--yolo"}, codexArgs{bypass: true}},
		{[]string{"-s", "workspace-write", "exec", "-C", "/p", "hi"}, codexArgs{sub: "exec", sandbox: "workspace-write", cd: "/p"}},
		{[]string{"exec", "-sread-only", "--sandbox=danger-full-access"}, codexArgs{sub: "exec", sandbox: "danger-full-access"}},
		{[]string{"-m", "exec", "-a", "never", "fix it"}, codexArgs{sub: "fix it", approval: "never"}},
		{[]string{"-c", `sandbox_mode="danger-full-access"`, "--config=approval_policy=never", "-p", "fast", "exec"}, codexArgs{sub: "exec", profile: "fast",
			config: map[string]string{"sandbox_mode": `"danger-full-access"`, "approval_policy": "never"}}},
		{[]string{"exec", "--trust", "--ignore-user-config", "--approve-for-me", "--", "-s"}, codexArgs{sub: "exec", trust: true, ignoreUser: true, approveForMe: true}},
	} {
		got := parseCodexArgs(tc.args)
		if tc.want.config == nil {
			tc.want.config = map[string]string{}
		}
		if got.sub != tc.want.sub || got.bypass != tc.want.bypass || got.sandbox != tc.want.sandbox || got.approval != tc.want.approval ||
			got.profile != tc.want.profile || got.cd != tc.want.cd || got.trust != tc.want.trust || got.ignoreUser != tc.want.ignoreUser ||
			got.approveForMe != tc.want.approveForMe || len(got.config) != len(tc.want.config) {
			t.Errorf("parseCodexArgs(%q) = %+v, want %+v", tc.args, got, tc.want)
		}
		for k, v := range tc.want.config {
			if got.config[k] != v {
				t.Errorf("parseCodexArgs(%q): config %s = %q, want %q", tc.args, k, got.config[k], v)
			}
		}
	}
}

// TestCodexRun: the mode and sandbox Codex runs a call in, from its
// command line and config files, whatever the input's permission_mode
// says (codex exec sends bypassPermissions in every sandbox).
func TestCodexRun(t *testing.T) {
	const proj = "/w/proj"
	trusted := "[projects.\"/w/proj\"]\ntrust_level = \"trusted\"\n"
	for _, tc := range []struct {
		name     string
		argv     []string
		files    map[string]string // under /, without the leading slash
		sent     string            // the input's permission_mode
		mode     hookio.PermissionMode
		from     string // a piece of modeFrom
		sandbox  string // a piece of sandbox; "" for none
		notFound bool
	}{
		{name: "exec, bypass", argv: []string{"codex", "exec", "--dangerously-bypass-approvals-and-sandbox", "x"}, sent: "bypassPermissions",
			mode: hookio.PermBypass, from: "codex exec: approval never (--dangerously-bypass-approvals-and-sandbox), sandbox danger-full-access"},
		{name: "exec, workspace-write", argv: []string{"codex", "exec", "-s", "workspace-write", "x"}, sent: "bypassPermissions",
			mode: hookio.PermBypass, from: "sandbox workspace-write (-s workspace-write)", sandbox: "Codex's workspace-write sandbox (-s workspace-write)"},
		{name: "exec in a trusted project, no flags", argv: []string{"codex", "exec", "--trust", "x"}, sent: "bypassPermissions",
			mode: hookio.PermBypass, sandbox: "workspace-write sandbox (Codex's default in a trusted project)"},
		{name: "exec, trusted by config.toml", argv: []string{"codex", "exec", "x"}, files: map[string]string{"h/.codex/config.toml": trusted},
			mode: hookio.PermBypass, sandbox: "workspace-write sandbox (Codex's default in a trusted project)"},
		{name: "exec, untrusted", argv: []string{"codex", "exec", "x"}, sent: "bypassPermissions",
			mode: hookio.PermBypass, sandbox: "read-only sandbox (Codex's default in an untrusted project)"},
		{name: "TUI, on-request by default", argv: []string{"codex"}, files: map[string]string{"h/.codex/config.toml": trusted}, sent: "default",
			mode: hookio.PermBypass, from: "codex: approval on-request (Codex's default)", sandbox: "workspace-write"},
		{name: "TUI, untrusted approval in config.toml", argv: []string{"codex"}, files: map[string]string{"h/.codex/config.toml": "approval_policy = \"untrusted\"\n" + trusted}, sent: "default",
			mode: hookio.PermDefault, from: "approval untrusted (config.toml)", sandbox: "workspace-write"},
		{name: "TUI, granular approval", argv: []string{"codex"}, files: map[string]string{"h/.codex/config.toml": "[approval_policy.granular]\nsandbox_approval = true\n"}, sent: "default",
			mode: hookio.PermDefault, from: "approval granular", sandbox: "read-only"},
		{name: "untrusted in config, but the input says never", argv: []string{"codex"}, files: map[string]string{"h/.codex/config.toml": "approval_policy = \"untrusted\"\n"}, sent: "bypassPermissions",
			mode: hookio.PermBypass, from: "approval never (the input's permission_mode bypassPermissions)", sandbox: "read-only"},
		{name: "danger-full-access from config.toml", argv: []string{"codex", "-a", "never"}, files: map[string]string{"h/.codex/config.toml": "sandbox_mode = \"danger-full-access\"\n"},
			mode: hookio.PermBypass, from: "sandbox danger-full-access (config.toml)"},
		{name: "-c beats config.toml", argv: []string{"codex", "exec", "-c", `sandbox_mode="danger-full-access"`}, files: map[string]string{"h/.codex/config.toml": "sandbox_mode = \"read-only\"\n"},
			mode: hookio.PermBypass, from: "sandbox danger-full-access (-c sandbox_mode)"},
		{name: "a profile file", argv: []string{"codex", "exec", "-p", "free"}, files: map[string]string{"h/.codex/free.config.toml": "sandbox_mode = \"danger-full-access\"\n", "h/.codex/config.toml": "sandbox_mode = \"read-only\"\n"},
			mode: hookio.PermBypass, from: "sandbox danger-full-access (free.config.toml)"},
		{name: "a legacy profile table", argv: []string{"codex"}, files: map[string]string{"h/.codex/config.toml": "profile = \"ro\"\n[profiles.ro]\nsandbox_mode = \"read-only\"\napproval_policy = \"untrusted\"\n"},
			mode: hookio.PermDefault, sandbox: "read-only sandbox ([profiles.ro] of config.toml)"},
		{name: "the project's config once trusted", argv: []string{"codex", "exec"}, files: map[string]string{"h/.codex/config.toml": trusted, "w/proj/.codex/config.toml": "sandbox_mode = \"danger-full-access\"\n"},
			mode: hookio.PermBypass, from: "sandbox danger-full-access (.codex/config.toml)"},
		{name: "the project's config, untrusted: ignored", argv: []string{"codex", "exec"}, files: map[string]string{"w/proj/.codex/config.toml": "sandbox_mode = \"danger-full-access\"\n"},
			mode: hookio.PermBypass, sandbox: "read-only"},
		{name: "--ignore-user-config", argv: []string{"codex", "exec", "--ignore-user-config"}, files: map[string]string{"h/.codex/config.toml": "sandbox_mode = \"danger-full-access\"\n"},
			mode: hookio.PermBypass, sandbox: "read-only"},
		{name: "a malformed config.toml reads as empty", argv: []string{"codex", "exec", "--trust"}, files: map[string]string{"h/.codex/config.toml": "sandbox_mode = [\n"},
			mode: hookio.PermBypass, sandbox: "workspace-write"},
		{name: "a config.toml malformed after a valid setting reads as empty", argv: []string{"codex", "exec", "--trust"},
			files: map[string]string{"h/.codex/config.toml": "sandbox_mode = \"danger-full-access\"\nmodel = \n"},
			mode:  hookio.PermBypass, sandbox: "workspace-write"},
		{name: "no codex process", argv: []string{"/usr/bin/python3", "x.py"}, notFound: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			procTree(fsys, nil, []string{"/bin/sh", "-c", "safezone --host codex"}, tc.argv)
			s := &System{FS: fsys, pid: 100, Getenv: pipelinetest.Isolated("/x", map[string]string{"HOME": "/h"})}
			call := &hookio.Call{PermissionMode: hookio.ParsePermissionMode(tc.sent)}
			got := s.hostRun(call, hookio.Codex{}, proj)
			if tc.notFound {
				if got != (hostRun{}) {
					t.Errorf("found %+v", got)
				}
				return
			}
			if got.mode != tc.mode || !strings.Contains(got.modeFrom, tc.from) || got.noAsk != "" {
				t.Errorf("mode %v from %q noAsk %q; want %v from ...%q...", got.mode, got.modeFrom, got.noAsk, tc.mode, tc.from)
			}
			if (tc.sandbox == "") != (got.sandbox == "") || !strings.Contains(got.sandbox, tc.sandbox) {
				t.Errorf("sandbox %q, want ...%q...", got.sandbox, tc.sandbox)
			}
		})
	}
}

// TestGeminiRun: Gemini CLI's approval mode and whether it can ask, from
// its command line, its terminal, its environment and its settings.
func TestGeminiRun(t *testing.T) {
	const proj = "/w/proj"
	gemini := func(args ...string) []string {
		return append([]string{"/usr/bin/node", "--max-old-space-size=12052", "/n/node_modules/.bin/gemini"}, args...)
	}
	for _, tc := range []struct {
		name  string
		argv  []string
		tty   []int
		env   map[string]string
		files map[string]string
		mode  hookio.PermissionMode
		from  string
		noAsk string // a piece of noAsk; "" for none
	}{
		{name: "headless yolo", argv: gemini("-m", "m", "-o", "stream-json", "--yolo", "-p", "do it"),
			mode: hookio.PermBypass, from: "approval mode yolo (its command line)", noAsk: "(gemini -p)"},
		{name: "interactive yolo", argv: gemini("-y"), tty: []int{0, 1}, mode: hookio.PermBypass},
		{name: "interactive, auto_edit", argv: gemini("--approval-mode", "auto_edit"), tty: []int{0, 1}, mode: hookio.PermAcceptEdits},
		{name: "--approval-mode=plan", argv: gemini("--approval-mode=plan"), tty: []int{0, 1}, mode: hookio.PermPlan},
		{name: "default", argv: gemini(), tty: []int{0, 1}, mode: hookio.PermDefault, from: "approval mode default (Gemini CLI's default)"},
		{name: "stdout piped", argv: gemini("-y"), tty: []int{0}, mode: hookio.PermBypass, noAsk: "not a terminal"},
		{name: "a positional prompt", argv: gemini("-m", "x", "fix the bug"), tty: []int{0, 1}, noAsk: "a prompt on its command line"},
		{name: "-i is interactive", argv: gemini("-i", "start here"), mode: hookio.PermDefault},
		{name: "CI", argv: gemini("-y"), tty: []int{0, 1}, env: map[string]string{"CI": "true"}, mode: hookio.PermBypass, noAsk: "(CI=true)"},
		{name: "CI in Gemini's own tests", argv: gemini("-y"), tty: []int{0, 1}, env: map[string]string{"CI": "true", "GEMINI_CLI_INTEGRATION_TEST": "true"}, mode: hookio.PermBypass},
		{name: "the project's default mode", argv: gemini(), tty: []int{0, 1}, mode: hookio.PermAcceptEdits,
			files: map[string]string{"w/proj/.gemini/settings.json": "// comment\n{\"general\": {\"defaultApprovalMode\": \"auto_edit\",},}", "h/.gemini/settings.json": `{"general":{"defaultApprovalMode":"plan"}}`},
			from:  "general.defaultApprovalMode in .gemini/settings.json"},
		{name: "the user's default mode", argv: gemini(), tty: []int{0, 1}, mode: hookio.PermPlan, files: map[string]string{"h/.gemini/settings.json": `{"general":{"defaultApprovalMode":"plan"}}`}},
		{name: "a yolo default does not count", argv: gemini(), tty: []int{0, 1}, mode: hookio.PermDefault, files: map[string]string{"h/.gemini/settings.json": `{"general":{"defaultApprovalMode":"yolo"}}`}},
		{name: "the command line beats settings", argv: gemini("--yolo"), tty: []int{0, 1}, mode: hookio.PermBypass, files: map[string]string{"h/.gemini/settings.json": `{"general":{"defaultApprovalMode":"plan"}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			procTree(fsys, tc.tty, []string{"/bin/sh", "-c", "safezone --host gemini"}, tc.argv)
			vars := map[string]string{"HOME": "/h"}
			for k, v := range tc.env {
				vars[k] = v
			}
			s := &System{FS: fsys, pid: 100, Getenv: pipelinetest.Isolated("/x", vars)}
			got := s.hostRun(&hookio.Call{}, hookio.Gemini{}, proj)
			if got.mode != tc.mode || !strings.Contains(got.modeFrom, tc.from) || got.modeFrom == "" || got.sandbox != "" {
				t.Errorf("mode %v from %q sandbox %q; want %v from ...%q...", got.mode, got.modeFrom, got.sandbox, tc.mode, tc.from)
			}
			if (tc.noAsk == "") != (got.noAsk == "") || !strings.Contains(got.noAsk, tc.noAsk) {
				t.Errorf("noAsk %q, want ...%q...", got.noAsk, tc.noAsk)
			}
		})
	}
}

// TestCopilotRun: Copilot CLI's mode and whether it can ask, from the
// copilot process's command line, its environment and its settings.
func TestCopilotRun(t *testing.T) {
	copilot := func(args ...string) []string {
		return append([]string{"/n/node_modules/@github/copilot-linux-x64/copilot"}, args...)
	}
	for _, tc := range []struct {
		name  string
		argv  []string
		env   string // the copilot process's environ
		files map[string]string
		mode  hookio.PermissionMode
		from  string
		noAsk bool
	}{
		{name: "prompt mode, yolo", argv: copilot("--output-format", "json", "--yolo", "-p", "do it"), mode: hookio.PermBypass, from: "(--yolo)", noAsk: true},
		{name: "--allow-all", argv: copilot("--allow-all", "--prompt=x"), mode: hookio.PermBypass, from: "(--allow-all)", noAsk: true},
		{name: "--allow-all-tools", argv: copilot("-p", "x", "--allow-all-tools"), mode: hookio.PermBypass, from: "(--allow-all-tools)", noAsk: true},
		{name: "--allow-all-paths alone asks", argv: copilot("--allow-all-paths", "-p", "x"), mode: hookio.PermDefault, from: "it asks", noAsk: true},
		{name: "grouped short options", argv: copilot("-sp", "x"), mode: hookio.PermDefault, noAsk: true},
		{name: "a prompt glued to -p", argv: copilot("-pdo-it"), mode: hookio.PermDefault, noAsk: true},
		{name: "a prompt that names a flag", argv: copilot("--prompt=--yolo"), mode: hookio.PermDefault, noAsk: true},
		{name: "interactive", argv: copilot(), mode: hookio.PermDefault},
		{name: "interactive, -i", argv: copilot("-i", "start", "--allow-all-tools"), mode: hookio.PermBypass},
		{name: "after --", argv: copilot("-i", "x", "--", "--yolo"), mode: hookio.PermDefault},
		{name: "COPILOT_ALLOW_ALL", argv: copilot("-p", "x"), env: "HOME=/h\x00COPILOT_ALLOW_ALL= Yes \x00", mode: hookio.PermBypass, from: "COPILOT_ALLOW_ALL", noAsk: true},
		{name: "COPILOT_ALLOW_ALL off", argv: copilot("-p", "x"), env: "COPILOT_ALLOW_ALL=0\x00", mode: hookio.PermDefault, noAsk: true},
		{name: "defaultPermissionMode", argv: copilot(), files: map[string]string{"h/.copilot/settings.json": `{"defaultPermissionMode": "allow-all",}`},
			mode: hookio.PermBypass, from: "defaultPermissionMode"},
		{name: "defaultPermissionMode, COPILOT_HOME", argv: copilot(), env: "COPILOT_HOME=/c\x00", files: map[string]string{"c/settings.json": `{"defaultPermissionMode": "allow-all"}`},
			mode: hookio.PermBypass, from: "defaultPermissionMode"},
		{name: "defaultPermissionMode not in prompt mode", argv: copilot("-p", "x"), files: map[string]string{"h/.copilot/settings.json": `{"defaultPermissionMode": "allow-all"}`},
			mode: hookio.PermDefault, noAsk: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, content := range tc.files {
				fsys[name] = &fstest.MapFile{Data: []byte(content)}
			}
			procTree(fsys, nil, []string{"bash", "-c", "safezone --host copilot"}, tc.argv)
			fsys["proc/98/environ"] = &fstest.MapFile{Data: []byte(tc.env)}
			s := &System{FS: fsys, pid: 100, Getenv: pipelinetest.Isolated("/x", map[string]string{"HOME": "/h"})}
			got := s.hostRun(&hookio.Call{}, hookio.Copilot{}, "/w/proj")
			if got.mode != tc.mode || !strings.Contains(got.modeFrom, tc.from) || got.modeFrom == "" || got.sandbox != "" {
				t.Errorf("mode %v from %q sandbox %q; want %v from ...%q...", got.mode, got.modeFrom, got.sandbox, tc.mode, tc.from)
			}
			if tc.noAsk != (got.noAsk == "Copilot CLI in prompt mode (copilot -p)") {
				t.Errorf("noAsk %q, want it: %v", got.noAsk, tc.noAsk)
			}
		})
	}
	// Not started by copilot: nothing found, the input's mode stands.
	fsys := fstest.MapFS{}
	procTree(fsys, nil, []string{"bash", "-c", "x"}, []string{"/usr/bin/node", "/p/claude.js"})
	if got := (&System{FS: fsys, pid: 100, Getenv: pipelinetest.Isolated("/x", nil)}).hostRun(&hookio.Call{}, hookio.Copilot{}, "/w"); got != (hostRun{}) {
		t.Errorf("found %+v without a copilot process", got)
	}
}

// procOverlay is the file system with a /proc of the test's own: the hook
// finds its host's process in it, and everything else on disk.
type procOverlay struct {
	real fs.ReadLinkFS
	proc fstest.MapFS
}

func (o procOverlay) pick(name string) fs.ReadLinkFS {
	if strings.HasPrefix(name, "proc/") {
		return o.proc
	}
	return o.real
}
func (o procOverlay) Open(name string) (fs.File, error)      { return o.pick(name).Open(name) }
func (o procOverlay) Lstat(name string) (fs.FileInfo, error) { return o.pick(name).Lstat(name) }
func (o procOverlay) ReadLink(name string) (string, error)   { return o.pick(name).ReadLink(name) }

// TestHostRunDecides: the hook, started by a host's process, judges with
// what that process runs: under codex exec -s workspace-write an opaque
// command runs confined in the form any shell runs, without read-only
// paths (no user namespace in Codex's sandbox); under gemini --yolo -p an
// ask is a deny, an on_error ask too.
func TestHostRunDecides(t *testing.T) {
	sys, dir := testSystemAt(t, rootOutsideTmp(t))
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "SHELL": "/usr/bin/zsh"})
	sys.Getwd = func() (string, error) { return dir + "/proj", nil }
	sys.Confine = &OnceStatus{Get: func() confine.Status { return confine.Status{LandlockABI: 6} }}
	// on_error: ask in the user's policy: a project's would be held back
	// until trusted (it widens).
	for name, content := range map[string]string{"proj/build.sh": "echo x > out.txt\n", "xdg/safezone/policy.yaml": "version: 1\non_error: ask\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	host := func(argv ...string) fs.ReadLinkFS {
		p := fstest.MapFS{}
		procTree(p, nil, []string{"/bin/sh", "-c", "safezone"}, argv)
		return procOverlay{real: sys.FS, proc: p}
	}
	sys.pid = 100

	codex := *sys
	codex.FS = host("/opt/codex/bin/codex", "exec", "-s", "workspace-write", "build it")
	in := `{"session_id":"s","turn_id":"t","cwd":"` + dir + `/proj","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"sh build.sh"},"tool_use_id":"c"}`
	r := runHook(t, &codex, strings.NewReader(in), "--host", "codex")
	out := answerOf(t, r)
	if out.HSO.Decision != "allow" || !strings.HasPrefix(out.HSO.Updated.Command, "exec '") || !strings.HasSuffix(out.HSO.Updated.Command, `"$0" -c 'sh build.sh'`) ||
		strings.Contains(out.HSO.Updated.Command, "readonly") ||
		!strings.Contains(out.HSO.Reason, "host permission_mode bypassPermissions (codex exec: approval never (codex exec never asks), sandbox workspace-write (-s workspace-write))") {
		t.Errorf("codex exec -s workspace-write: %s", r.stdout)
	}

	gemini := *sys
	gemini.FS = host("/usr/bin/node", "/n/node_modules/.bin/gemini", "--yolo", "-p", "do it")
	in = `{"session_id":"s","transcript_path":"/t","cwd":"` + dir + `/proj","hook_event_name":"BeforeTool","timestamp":"x","tool_name":"read_file","tool_input":{"file_path":"../outside/x"}}`
	stdout, code := runGemini(&gemini, in)
	if !strings.HasPrefix(stdout, `{"decision":"deny"`) || code != 0 || !strings.Contains(stdout, "Gemini CLI in a headless run (gemini -p) cannot ask for that") {
		t.Errorf("an ask in gemini -p: exit %d: %s", code, stdout)
	}
	stdout, code = runGemini(&gemini, "{not json")
	if !strings.HasPrefix(stdout, `{"decision":"deny"`) || code != 2 || !strings.Contains(stdout, "on_error is ask") {
		t.Errorf("on_error ask in gemini -p: exit %d: %s", code, stdout)
	}
	// The benign neighbour: an interactive run asks.
	gemini.FS = host("/usr/bin/node", "/n/node_modules/.bin/gemini", "-i", "start")
	if stdout, _ = runGemini(&gemini, "{not json"); !strings.HasPrefix(stdout, `{"decision":"ask"`) {
		t.Errorf("on_error ask in an interactive run: %s", stdout)
	}
}

// runGemini runs the hook with --host gemini on stdin and returns what it
// printed and its exit status.
func runGemini(sys *System, stdin string) (string, int) {
	var out, errb bytes.Buffer
	code := Run([]string{"--host", "gemini"}, false, strings.NewReader(stdin), &out, &errb, sys)
	return out.String(), code
}
