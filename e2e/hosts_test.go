//go:build e2e

package e2e

// safezone under the real Codex CLI, Gemini CLI (issue 22) and Copilot CLI
// (issue 30), each in its most permissive mode (codex exec
// --dangerously-bypass-approvals-and-sandbox, gemini --yolo -p, copilot
// --yolo -p), registered the way a newcomer does it: `safezone init --host
// codex`, then the command its last line names; `safezone init --host
// gemini`; `safezone init --host copilot` in a folder Copilot was never
// told to trust. No harness flag stands in for a trust
// step (no --dangerously-bypass-hook-trust, no codex exec --trust). The
// model is a fake API on 127.0.0.1 (fakehosts_test.go) that asks for one
// tool call; facts decide: the files on disk, what the host sent back to
// the model, and the command the host reports it ran.
//
// scripts/e2e-hosts installs the pinned CLIs (codex-version,
// gemini-version, copilot-version) and runs these tests; without them they
// skip.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// Environment variables naming the host binaries (default: the cached
// install of the pinned version, see scripts/e2e-hosts).
const (
	envCodex   = "SAFEZONE_E2E_CODEX"
	envGemini  = "SAFEZONE_E2E_GEMINI"
	envCopilot = "SAFEZONE_E2E_COPILOT"
)

// hostTimeout bounds one host run: an ask that nobody answers would hang
// gemini -p for ever.
const hostTimeout = 90 * time.Second

// hostBin returns the host's binary and the version it reports, or why the
// tests of that host skip. A binary named by the environment that does not
// run is an error.
func hostBin(host string) (bin, version, skip string, err error) {
	v, err := os.ReadFile(host + "-version")
	if err != nil {
		return "", "", "", err
	}
	pinned := strings.TrimSpace(string(v))
	name := map[string]string{"codex": envCodex, "gemini": envGemini, "copilot": envCopilot}[host]
	bin = os.Getenv(name)
	explicit := bin != ""
	if !explicit {
		bin = filepath.Join(cacheDir(), host+"-"+pinned, "node_modules", ".bin", host)
	}
	out, err := exec.Command(bin, "--version").Output()
	switch {
	case err != nil && explicit:
		return "", "", "", fmt.Errorf("%s=%s does not run: %v", name, bin, err)
	case err != nil:
		return "", "", fmt.Sprintf("%s %s not found at %s (%v); scripts/e2e-hosts installs it, or set %s", host, pinned, bin, err, name), nil
	}
	// "codex-cli 0.171.0"; "0.61.0"; "GitHub Copilot CLI 1.0.102.\nRun
	// 'copilot update' to check for updates."
	version, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	version = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(version, "codex-cli "), "GitHub Copilot CLI "), ".")
	if version != pinned && !explicit {
		return "", "", "", fmt.Errorf("%s reports %s, want the pinned %s", bin, version, pinned)
	}
	return bin, version, "", nil
}

// installCache is where scripts/e2e-hosts installs the host CLIs:
// $SAFEZONE_E2E_CACHE, else cacheDir().
func installCache() string {
	if d := os.Getenv("SAFEZONE_E2E_CACHE"); d != "" {
		return d
	}
	return cacheDir()
}

// hostCase is one scripted tool call under one host, in the host's most
// permissive mode unless mode says otherwise.
type hostCase struct {
	name  string
	needs []string          // programs the call runs: the case skips without one
	files map[string]string // path relative to ROOT -> content
	turn  func(w *world) hostTurn
	// mode is the host's mode: codex "bypass" (the default) or
	// "workspace" (-s workspace-write); gemini "yolo"; copilot "yolo" (the
	// default) or "default" (no allow flag).
	mode string
	// args are more host flags; env more K=V for the host.
	args func(w *world) []string
	env  []string
	// trust is how Gemini CLI is told to trust the folder: "env"
	// (GEMINI_CLI_TRUST_WORKSPACE=true, the default), "flag"
	// (--skip-trust, the documented headless switch) or "none".
	trust string
	// noTrust leaves out the step init's last line names (Codex): what a
	// newcomer who skips it gets.
	noTrust bool
	// projectOnly moves Copilot CLI's registration from the user's hooks
	// to the project's .github/hooks, where an older init put it.
	projectOnly bool
	check       func(r *hostRun)
}

// hostRun is one host session and what came of it.
type hostRun struct {
	t       *testing.T
	host    string
	w       *world
	results []string // the tool outputs the host sent back to the model
	bodies  []string // every request the host sent to the model
	stdout  string   // the host's JSON event stream
	stderr  string
	exit    int
	timeout bool
	seconds float64
	inits   []string // what each safezone init printed
	doctor  string   // what safezone doctor printed, where the case ran it
	failed  bool
}

func (r *hostRun) errorf(format string, args ...any) {
	r.t.Helper()
	r.failed = true
	r.t.Errorf(format, args...)
}

// result returns tool output i ("" when there is none).
func (r *hostRun) result(i int) string {
	if i < len(r.results) {
		return r.results[i]
	}
	return ""
}

// wantResult checks that tool output i holds each piece.
func (r *hostRun) wantResult(i int, pieces ...string) {
	r.t.Helper()
	for _, p := range pieces {
		if !strings.Contains(r.result(i), p) {
			r.errorf("tool output %d lacks %q: %q", i, p, r.result(i))
		}
	}
}

// wantNoResult checks that no tool output holds piece.
func (r *hostRun) wantNoResult(piece string) {
	r.t.Helper()
	for i, res := range r.results {
		if strings.Contains(res, piece) {
			r.errorf("tool output %d holds %q: %q", i, piece, res)
		}
	}
}

// wantAbsent checks that ROOT/rel was not made.
func (r *hostRun) wantAbsent(rel string) {
	r.t.Helper()
	if r.w.exists(rel) {
		r.errorf("%s was written", rel)
	}
}

// wantFile checks that ROOT/rel holds text.
func (r *hostRun) wantFile(rel, text string) {
	r.t.Helper()
	if !r.w.contains(rel, text) {
		r.errorf("%s does not hold %q", rel, text)
	}
}

// wantConfined checks that the host ran the shell call through safezone's
// launcher (Codex reports the command it ran in its --json stream; Gemini
// CLI tells the model that a hook modified the command), and that the
// model was told it ran confined (Codex: safezone's additionalContext, a
// developer message in the next request; Gemini: the AfterTool hook's, in
// the tool output).
func (r *hostRun) wantConfined() {
	r.t.Helper()
	r.wantTold()
	switch r.host {
	case "codex":
		for _, c := range r.codexCommands() {
			if strings.Contains(c, "__confine exec ") {
				return
			}
		}
		r.errorf("Codex ran no confined command; it ran %q", r.codexCommands())
	case "gemini":
		r.wantResult(0, "were modified by a hook before execution")
	case "copilot":
		// Copilot puts the rewritten arguments (modifiedArgs) in place of
		// the model's in the history it sends back.
		for _, b := range r.bodies {
			if strings.Contains(b, "__confine bash ") {
				return
			}
		}
		r.errorf("Copilot ran no confined command: no request shows one")
	}
}

// wantTold checks that the model was told the command runs confined.
func (r *hostRun) wantTold() {
	r.t.Helper()
	const told = "safezone: this command runs confined by the kernel: it may write only in "
	switch r.host {
	case "codex":
		for _, b := range r.bodies {
			if strings.Contains(b, told) {
				return
			}
		}
		r.errorf("the model was not told that the command runs confined")
	case "gemini":
		r.wantResult(0, "<hook_context>"+told)
	case "copilot":
		for _, b := range r.bodies {
			if strings.Contains(b, "Additional context from preToolUse hook:\\n"+told) {
				return
			}
		}
		r.errorf("the model was not told that the command runs confined")
	}
}

// codexCommands are the commands Codex reports it ran (item.completed,
// command_execution).
func (r *hostRun) codexCommands() []string {
	var out []string
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "item.completed" && ev.Item.Type == "command_execution" {
			out = append(out, ev.Item.Command)
		}
	}
	return out
}

// The shared material of the cases.
const (
	hostSecret = "E2E-HOST-SECRET"
	envSecret  = "API_KEY=" + hostSecret + "\n"
)

func codexShell(cmd string) func(*world) hostTurn {
	return func(*world) hostTurn { return hostTurn{Tool: "exec_command", Args: map[string]any{"cmd": cmd}} }
}

func geminiShell(cmd string) func(*world) hostTurn {
	return func(*world) hostTurn {
		return hostTurn{Tool: "run_shell_command", Args: map[string]any{"command": cmd}}
	}
}

func copilotShell(cmd string) func(*world) hostTurn {
	return func(*world) hostTurn {
		return hostTurn{Tool: "bash", Args: map[string]any{"command": cmd, "description": "run it"}}
	}
}

// hostCases are the cases of each host; shared ones are built by all.
func hostCases(host string) []hostCase {
	shell := map[string]func(string) func(*world) hostTurn{"codex": codexShell, "gemini": geminiShell, "copilot": copilotShell}[host]
	pyRead := func(w *world) string {
		return fmt.Sprintf(`python3 -c "print(open('%s').read())"`, w.path("home/.ssh/id_rsa"))
	}
	cases := []hostCase{
		{
			name:  "work-inside-runs",
			files: map[string]string{"proj/build.sh": "echo built > out.txt\n"},
			turn:  shell("sh build.sh"),
			check: func(r *hostRun) { r.wantConfined(); r.wantFile("proj/out.txt", "built") },
		},
		{
			name:  "script-writes-outside",
			files: map[string]string{"proj/build.sh": "echo pwned > ../outside-script.txt\n"},
			turn:  shell("sh build.sh"),
			check: func(r *hostRun) {
				r.wantConfined()
				r.wantAbsent("outside-script.txt")
				r.wantResult(0, "Permission denied")
			},
		},
		{
			name:  "script-reads-ssh",
			files: map[string]string{"proj/show.sh": "cat \"$HOME/.ssh/id_rsa\"\n", "home/.ssh/id_rsa": sshKey},
			turn:  shell("sh show.sh"),
			check: func(r *hostRun) {
				r.wantConfined()
				r.wantNoResult(keyMaterial)
				r.wantResult(0, "Permission denied")
			},
		},
		{
			name:  "inline-code-writes-outside",
			needs: []string{"python3"},
			turn:  shell(`python3 -c "open('../outside-py.txt','w').write('x')"`),
			check: func(r *hostRun) {
				r.wantConfined()
				r.wantAbsent("outside-py.txt")
				r.wantResult(0, "Permission denied")
			},
		},
		{
			name:  "inline-code-reads-ssh",
			needs: []string{"python3"},
			files: map[string]string{"home/.ssh/id_rsa": sshKey},
			turn:  func(w *world) hostTurn { return shell(pyRead(w))(w) },
			check: func(r *hostRun) {
				r.wantConfined()
				r.wantNoResult(keyMaterial)
				r.wantResult(0, "Permission denied")
			},
		},
		{
			name:  "shell-writes-outside",
			turn:  shell("echo pwned > ../outside-shell.txt"),
			check: func(r *hostRun) { r.wantAbsent("outside-shell.txt"); r.wantResult(0, "safezone: deny Bash write") },
		},
		{
			name:  "shell-reads-env",
			files: map[string]string{"proj/.env": envSecret},
			turn:  shell("cat .env"),
			check: func(r *hostRun) { r.wantNoResult(hostSecret); r.wantResult(0, "safezone: deny", "Read(.env*)") },
		},
	}
	switch host {
	case "codex":
		cases = append(cases,
			hostCase{
				name: "patch-writes-outside",
				turn: func(*world) hostTurn {
					return hostTurn{Tool: "apply_patch", Input: "*** Begin Patch\n*** Add File: ../outside-patch.txt\n+x\n*** End Patch\n"}
				},
				check: func(r *hostRun) { r.wantAbsent("outside-patch.txt"); r.wantResult(0, "safezone: deny Edit") },
			},
			hostCase{
				name: "workdir-outside",
				turn: func(w *world) hostTurn {
					return hostTurn{Tool: "exec_command", Args: map[string]any{"cmd": "echo x > outside-wd.txt", "workdir": w.root}}
				},
				check: func(r *hostRun) { r.wantAbsent("outside-wd.txt"); r.wantResult(0, "safezone: deny Bash write") },
			},
			hostCase{
				// The model names another shell: the confined form runs
				// in it.
				name:  "script-writes-outside-in-sh",
				files: map[string]string{"proj/build.sh": "echo pwned > ../outside-sh.txt\necho inside > in.txt\n"},
				turn: func(*world) hostTurn {
					return hostTurn{Tool: "exec_command", Args: map[string]any{"cmd": "sh build.sh", "shell": "/bin/sh"}}
				},
				check: func(r *hostRun) {
					r.wantConfined()
					r.wantAbsent("outside-sh.txt")
					r.wantFile("proj/in.txt", "inside")
				},
			},
			hostCase{
				// In Codex's own workspace-write sandbox no user namespace
				// can be made: safezone confines with Landlock alone. That
				// sandbox lets every read through (without safezone this
				// script prints the key), and Codex 0.171.0 reports no
				// command_execution item for a rewritten command in it: the
				// denied read is the evidence.
				name:  "work-inside-runs",
				mode:  "workspace",
				files: map[string]string{"proj/build.sh": "echo built > out.txt\ncat \"$HOME/.ssh/id_rsa\"\n", "home/.ssh/id_rsa": sshKey},
				turn:  shell("sh build.sh"),
				check: func(r *hostRun) {
					r.wantTold()
					r.wantFile("proj/out.txt", "built")
					r.wantNoResult(keyMaterial)
					r.wantResult(0, "id_rsa: Permission denied")
				},
			},
			hostCase{
				// The newcomer who skips the step init's last line names:
				// Codex skips the untrusted hook without a word.
				name:    "untrusted-hook-skipped",
				noTrust: true,
				turn:    shell("echo pwned > ../outside-untrusted.txt"),
				check: func(r *hostRun) {
					if !strings.Contains(r.inits[0], "run `safezone init --host codex --trust`") {
						r.errorf("init's last line does not say what to run: %q", r.inits[0])
					}
					if !r.w.exists("outside-untrusted.txt") {
						r.errorf("the write ran through safezone although its hook is not trusted: Codex changed; check the README's host table")
					}
				},
			},
		)
	case "gemini":
		cases = append(cases,
			hostCase{
				name: "file-tool-writes-outside",
				turn: func(w *world) hostTurn {
					return hostTurn{Tool: "write_file", Args: map[string]any{"file_path": w.path("outside-tool.txt"), "content": "x"}}
				},
				args:  func(w *world) []string { return []string{"--include-directories", w.root} },
				check: func(r *hostRun) { r.wantAbsent("outside-tool.txt"); r.wantResult(0, "safezone: deny Write") },
			},
			hostCase{
				name:  "file-tool-reads-pem",
				files: map[string]string{"proj/certs/app.pem": "-----BEGIN PRIVATE KEY-----\n" + hostSecret + "\n"},
				turn: func(*world) hostTurn {
					return hostTurn{Tool: "read_file", Args: map[string]any{"file_path": "certs/app.pem"}}
				},
				check: func(r *hostRun) { r.wantNoResult(hostSecret); r.wantResult(0, "safezone: deny") },
			},
			hostCase{
				// An ask in a headless run is answered deny at once, with
				// the reason; it used to hang gemini -p. (A guard asks in
				// every mode, yolo included.)
				name:  "ask-in-headless-run",
				files: map[string]string{"secret.txt": hostSecret},
				turn:  shell("git reset --hard"),
				check: func(r *hostRun) {
					r.wantNoResult(hostSecret)
					r.wantResult(0, "safezone: ask", "Gemini CLI in a headless run (gemini -p) cannot ask for that, so safezone denies it")
					if r.timeout {
						r.errorf("gemini -p hung on the ask")
					}
				},
			},
			hostCase{
				// A newcomer's headless run in a folder Gemini CLI does
				// not trust: Gemini itself refuses to start, and says why.
				name:  "untrusted-folder-refused",
				trust: "none",
				turn:  shell("echo pwned > ../outside-untrusted.txt"),
				check: func(r *hostRun) {
					r.wantAbsent("outside-untrusted.txt")
					if r.exit != 55 || !strings.Contains(r.stderr, "Gemini CLI is not running in a trusted directory") {
						r.errorf("gemini exit %d, stderr %q; want 55 and its message", r.exit, tail(r.stderr, 300))
					}
				},
			},
			hostCase{
				// --skip-trust (the documented headless switch) drops a
				// project's hooks; init's user-level registration holds.
				name:  "script-writes-outside-skip-trust",
				trust: "flag",
				files: map[string]string{"proj/build.sh": "echo pwned > ../outside-skip.txt\n"},
				turn:  shell("sh build.sh"),
				check: func(r *hostRun) { r.wantConfined(); r.wantAbsent("outside-skip.txt") },
			},
		)
	}
	if host == "copilot" {
		cases = append(cases, copilotCases()...)
	}
	return cases
}

// copilotCases are Copilot CLI's own cases. Every case runs in a folder
// Copilot was never told to trust (no --trust-folder, no trustedFolders),
// where copilot -p drops a project's .github/hooks without a word: the
// user-level registration init writes holds there.
func copilotCases() []hostCase {
	return []hostCase{
		{
			name: "create-outside",
			turn: func(w *world) hostTurn {
				return hostTurn{Tool: "create", Args: map[string]any{"path": w.path("outside-create.txt"), "file_text": "x\n"}}
			},
			check: func(r *hostRun) { r.wantAbsent("outside-create.txt"); r.wantResult(0, "safezone: deny Write") },
		},
		{
			name:  "view-env",
			files: map[string]string{"proj/.env": envSecret},
			turn: func(w *world) hostTurn {
				return hostTurn{Tool: "view", Args: map[string]any{"path": w.path("proj/.env")}}
			},
			check: func(r *hostRun) { r.wantNoResult(hostSecret); r.wantResult(0, "safezone: deny", "Read(.env*)") },
		},
		{
			name:  "grep-ssh",
			files: map[string]string{"home/.ssh/id_rsa": sshKey},
			turn: func(w *world) hostTurn {
				return hostTurn{Tool: "grep", Args: map[string]any{"pattern": "PRIVATE", "paths": []string{".", w.path("home/.ssh")}}}
			},
			check: func(r *hostRun) { r.wantNoResult(keyMaterial); r.wantResult(0, "safezone: deny Grep") },
		},
		{
			// apply_patch is offered to gpt-5 models only, as a custom tool
			// whose toolArgs is the patch itself.
			name: "patch-writes-outside",
			env:  []string{"COPILOT_MODEL=gpt-5.4"},
			turn: func(*world) hostTurn {
				return hostTurn{Tool: "apply_patch", Input: "*** Begin Patch\n*** Add File: ../outside-patch.txt\n+x\n*** End Patch\n"}
			},
			check: func(r *hostRun) { r.wantAbsent("outside-patch.txt"); r.wantResult(0, "safezone: deny Edit") },
		},
		{
			// Copilot's default mode (no allow flag) runs read-only
			// commands without asking (testdata/hosts/copilot/unasked.md):
			// safezone runs them confined, as under Claude Code.
			name:  "read-only-default-mode",
			mode:  "default",
			files: map[string]string{"proj/notes.txt": "E2E-NOTES\n"},
			turn:  copilotShell("cat notes.txt"),
			check: func(r *hostRun) { r.wantConfined(); r.wantResult(0, "E2E-NOTES") },
		},
		{
			// The control: a project registration (an older init's) in a
			// folder Copilot never trusted is dropped by copilot -p without
			// a word, and the write happens; doctor says so and what to
			// run. If the write stops happening, Copilot changed: check
			// the README's host table.
			name:        "untrusted-project-hook-dropped",
			projectOnly: true,
			turn:        copilotShell("echo pwned > ../outside-untrusted.txt"),
			check: func(r *hostRun) {
				if !r.w.exists("outside-untrusted.txt") {
					r.errorf("the write ran through safezone although Copilot should drop the untrusted project's hooks: Copilot changed")
				}
				if !strings.Contains(r.doctor, "the folder is not trusted: `copilot -p` drops the project's .github/hooks without a word") {
					r.errorf("doctor does not report the dropped registration:\n%s", r.doctor)
				}
			},
		},
		{
			// An ask in prompt mode is answered deny at once, with the
			// reason (a guard asks in every mode, yolo included).
			name:  "ask-in-prompt-mode",
			files: map[string]string{"secret.txt": hostSecret},
			turn:  copilotShell("git reset --hard"),
			check: func(r *hostRun) {
				r.wantResult(0, "safezone: ask", "Copilot CLI in prompt mode (copilot -p) cannot ask for that, so safezone denies it")
			},
		},
	}
}

// hostRow is one line of the result table.
type hostRow struct {
	host, mode, name, outcome string
	seconds                   float64
}

var hostRows struct {
	sync.Mutex
	rows []hostRow
}

func TestCodex(t *testing.T)   { testHost(t, "codex") }
func TestGemini(t *testing.T)  { testHost(t, "gemini") }
func TestCopilot(t *testing.T) { testHost(t, "copilot") }

// testHost runs every case of host and prints the table.
func testHost(t *testing.T, host string) {
	bin, version, skip, err := hostBin(host)
	if err != nil {
		t.Fatal(err)
	}
	if skip != "" {
		t.Skip(skip)
	}
	if env.safezone == "" {
		t.Fatal("safezone was not built")
	}
	roots, err := runRoots()
	if err != nil {
		t.Fatal(err)
	}
	start := len(hostRows.rows)
	for _, c := range hostCases(host) {
		mode := c.mode
		if mode == "" {
			mode = map[string]string{"codex": "bypass", "gemini": "yolo", "copilot": "yolo"}[host]
		}
		t.Run(mode+"/"+c.name, func(t *testing.T) {
			for _, p := range c.needs {
				if _, err := exec.LookPath(p); err != nil {
					t.Skipf("needs %s", p)
				}
			}
			r := runHost(t, host, bin, mode, roots, c)
			c.check(r)
			outcome := "ok"
			if r.failed {
				outcome = "FAIL"
				r.explain()
			}
			hostRows.Lock()
			hostRows.rows = append(hostRows.rows, hostRow{host + " " + version, mode, c.name, outcome, r.seconds})
			hostRows.Unlock()
		})
	}
	hostRows.Lock()
	defer hostRows.Unlock()
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "host\tmode\tcase\tresult\tseconds")
	total := 0.0
	for _, row := range hostRows.rows[start:] {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\n", row.host, row.mode, row.name, row.outcome, row.seconds)
		total += row.seconds
	}
	tw.Flush()
	fmt.Printf("\n%s%d cases, %.0f s in the host\n", b.String(), len(hostRows.rows)-start, total)
}

// runHost sets up a root for c, registers safezone as a newcomer does,
// and runs the host once.
func runHost(t *testing.T, host, bin, mode, roots string, c hostCase) *hostRun {
	t.Helper()
	w, err := newWorldIn(roots, c.files, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &hostRun{t: t, host: host, w: w}
	t.Cleanup(func() {
		if os.Getenv(envKeep) == "1" || r.failed {
			t.Logf("root kept: %s", w.root)
			return
		}
		os.RemoveAll(w.root)
	})
	os.RemoveAll(filepath.Join(w.proj, ".claude"))
	for rel := range c.files {
		if strings.HasSuffix(rel, ".sh") {
			os.Chmod(w.path(rel), 0o755)
		}
	}
	api := newFakeHostAPI(host, []hostTurn{c.turn(w)})
	base, err := api.start()
	if err != nil {
		t.Fatal(err)
	}
	defer api.close()

	hostEnv := []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "LANG=C.UTF-8", "NO_COLOR=1", "TMPDIR=" + os.TempDir()}
	var args []string
	switch host {
	case "codex":
		codexHome := filepath.Join(w.home, ".codex")
		config := fmt.Sprintf("model = \"gpt-5.5\"\nmodel_provider = \"fake\"\n\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"FAKE_API_KEY\"\n", base)
		if err := writeFile(filepath.Join(codexHome, "config.toml"), config); err != nil {
			t.Fatal(err)
		}
		hostEnv = append(hostEnv, "CODEX_HOME="+codexHome, "FAKE_API_KEY=dummy")
		args = []string{"exec", "--json", "--skip-git-repo-check", "-C", w.proj}
		switch mode {
		case "bypass":
			args = append(args, "--dangerously-bypass-approvals-and-sandbox")
		case "workspace":
			args = append(args, "-s", "workspace-write")
		}
	case "gemini":
		settings := `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},"general":{"enableAutoUpdate":false,"enableAutoUpdateNotification":false}}`
		if err := writeFile(filepath.Join(w.home, ".gemini", "settings.json"), settings); err != nil {
			t.Fatal(err)
		}
		hostEnv = append(hostEnv, "GEMINI_API_KEY=dummy", "GOOGLE_GEMINI_BASE_URL="+base)
		args = []string{"-m", "gemini-2.5-flash", "-o", "stream-json", "--yolo"}
		switch c.trust {
		case "flag":
			args = append(args, "--skip-trust")
		case "none":
		default:
			hostEnv = append(hostEnv, "GEMINI_CLI_TRUST_WORKSPACE=true")
		}
	case "copilot":
		// BYOK offline (COPILOT_OFFLINE: no GitHub login, no other network
		// use); the single executable unpacks its package (235 MB) into
		// COPILOT_CACHE_HOME once, kept beside the install.
		hostEnv = append(hostEnv, "COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL="+base+"/v1", "COPILOT_PROVIDER_TYPE=openai",
			"COPILOT_PROVIDER_API_KEY=dummy", "COPILOT_MODEL=gpt-4.1", "COPILOT_AUTO_UPDATE=false",
			"COPILOT_CACHE_HOME="+filepath.Join(installCache(), "copilot-cache"))
		args = []string{"--output-format", "json", "--no-auto-update", "--no-ask-user"}
		if mode == "yolo" {
			args = append(args, "--yolo")
		}
	}
	// Registration as a newcomer does it: init, then what its last line
	// says to run, if anything.
	r.inits = append(r.inits, r.safezone(hostEnv, "init", "--host", host))
	if cmd := nextCommand(r.inits[0]); cmd != nil && !c.noTrust {
		r.inits = append(r.inits, r.safezone(hostEnv, cmd[1:]...))
	}
	if c.projectOnly {
		proj := filepath.Join(w.proj, ".github", "hooks", "safezone.json")
		if err := os.MkdirAll(filepath.Dir(proj), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(w.home, ".copilot", "hooks", "safezone.json"), proj); err != nil {
			t.Fatal(err)
		}
		r.doctor = r.safezoneStatus(hostEnv, "doctor")
	}
	if c.args != nil {
		args = append(args, c.args(w)...)
	}
	if host == "gemini" || host == "copilot" {
		args = append(args, "-p", "do it")
	} else {
		args = append(args, "do it")
	}

	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = w.proj
	cmd.Env = append(hostEnv, c.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err = cmd.Run()
	r.seconds = time.Since(t0).Seconds()
	r.stdout, r.stderr = stdout.String(), stderr.String()
	r.timeout = ctx.Err() != nil
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && !r.timeout {
		t.Fatal(err)
	}
	r.exit = cmd.ProcessState.ExitCode()
	r.results = api.results()
	r.bodies = api.requests()
	return r
}

// safezone runs the build under test in proj with env and returns what it
// printed; a failure fails the test.
func (r *hostRun) safezone(hostEnv []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command(env.safezone, args...)
	cmd.Dir = r.w.proj
	cmd.Env = hostEnv
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("safezone %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// safezoneStatus runs the build under test in proj with env and returns
// what it printed, whatever its exit status.
func (r *hostRun) safezoneStatus(hostEnv []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command(env.safezone, args...)
	cmd.Dir = r.w.proj
	cmd.Env = hostEnv
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// nextCommand returns the command init's last line says to run (the first
// `safezone ...` in backquotes), or nil.
func nextCommand(initOut string) []string {
	lines := strings.Split(strings.TrimSpace(initOut), "\n")
	m := regexp.MustCompile("`(safezone [^`]+)`").FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		return nil
	}
	return strings.Fields(m[1])
}

// explain logs what a failed case needs to be understood.
func (r *hostRun) explain() {
	r.t.Helper()
	r.t.Logf("exit %d (timed out: %v) after %.1fs", r.exit, r.timeout, r.seconds)
	for i, in := range r.inits {
		r.t.Logf("safezone init #%d:\n%s", i+1, in)
	}
	for i, res := range r.results {
		r.t.Logf("tool output %d: %.800s", i, res)
	}
	if r.host == "codex" {
		r.t.Logf("commands Codex ran: %q", r.codexCommands())
	}
	r.t.Logf("host stdout (tail): %s", tail(r.stdout, 1500))
	r.t.Logf("host stderr (tail): %s", tail(r.stderr, 1500))
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}
