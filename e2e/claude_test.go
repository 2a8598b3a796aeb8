//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"
)

// outcome is what happened to the tool call under test.
type outcome uint8

const (
	ran         outcome = iota // the tool ran
	sfDeny                     // blocked: safezone denied, and its reason reached the model
	sfAsk                      // blocked: safezone asked (a denial in -p mode), and its reason reached the model
	hostBlocked                // blocked by Claude Code's own permission check; safezone abstained
	hookFailed                 // blocked because the hook failed and the entry says onFailure: block

	// Observed only, never expected.
	noResult    // the call did not run and the model got no tool_result for it
	notAnError  // the call did not run, yet its tool_result is not an error
	setupFailed // a set-up call before the one under test did not run
)

func (o outcome) String() string {
	return [...]string{
		ran:         "ran",
		sfDeny:      "blocked: safezone deny",
		sfAsk:       "blocked: safezone ask",
		hostBlocked: "blocked: host",
		hookFailed:  "blocked: hook failed",
		noResult:    "not run, no tool_result",
		notAnError:  "not run, tool_result not an error",
		setupFailed: "set-up call did not run",
	}[o]
}

// hookBuild says which safezone the case registers.
type hookBuild uint8

const (
	normalBuild       hookBuild = iota // go build, registered as hooks.json does
	brokenBuild                        // a hook that exits 1 at once, registered as hooks.json does
	brokenNoOnFailure                  // the broken hook, registered without "onFailure"
)

// modes are the permission modes every case runs in.
var modes = []string{"default", "acceptEdits", "bypassPermissions"}

// allTools is passed with --tools to cases that need Glob or Grep: the
// native builds offer neither unless --tools names them.
const allTools = "Bash,Read,Edit,Write,NotebookEdit,Glob,Grep"

// testCase is one scripted session. The last turn with a tool call is the
// call under test; earlier tool calls are set-up (Claude Code refuses an Edit
// or a NotebookEdit of a file not Read first, before any hook runs) and must
// run.
type testCase struct {
	name  string
	files map[string]string // path relative to ROOT -> content; the project is proj/
	links map[string]string // symlink path relative to ROOT -> target
	tools bool              // pass --tools naming Glob and Grep
	hook  hookBuild
	turns func(w *world) []turn
	// effect reports evidence, beyond the PostToolUse hooks, that the call
	// ran: a file it wrote, a secret it read reaching the model.
	effect func(w *world, result string) bool
	want   map[string]outcome // by permission mode
	// reason must appear in a safezone tool_result; it pins which rule
	// blocked the call.
	reason string
	// pending names the feature this case waits for on this branch, for the
	// table; it never changes what is expected.
	pending string
}

// every is the same outcome in every mode.
func every(o outcome) map[string]outcome {
	m := map[string]outcome{}
	for _, mode := range modes {
		m[mode] = o
	}
	return m
}

func write(path, content string) turn {
	return turn{Tool: "Write", Input: map[string]string{"file_path": path, "content": content}}
}

func read(path string) turn { return turn{Tool: "Read", Input: map[string]string{"file_path": path}} }

func bash(command string) turn {
	return turn{Tool: "Bash", Input: map[string]string{"command": command, "description": "run it"}}
}

const notebook = `{"cells":[{"cell_type":"code","id":"c1","metadata":{},"source":["print(1)"],"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":5}` + "\n"

var cases = []testCase{
	{
		name:   "write-outside-relative",
		turns:  func(w *world) []turn { return []turn{write("../outside.txt", "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside.txt") },
		want:   every(sfDeny),
		reason: "outside the sandbox",
	},
	{
		name:   "write-outside-absolute",
		turns:  func(w *world) []turn { return []turn{write(w.path("outside-abs.txt"), "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside-abs.txt") },
		want:   every(sfDeny),
		reason: "outside the sandbox",
	},
	{
		name:   "write-through-symlinked-dir",
		files:  map[string]string{"outside-dir/.keep": ""},
		links:  map[string]string{"proj/link": "../outside-dir"},
		turns:  func(w *world) []turn { return []turn{write("link/escaped.txt", "via symlink\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside-dir/escaped.txt") },
		want:   every(sfDeny),
		// The path as given is proj/link/escaped.txt: only resolving the
		// symlink puts outside-dir in the reason.
		reason: "outside-dir/escaped.txt",
	},
	{
		name:   "read-env",
		files:  map[string]string{"proj/.env": "API_TOKEN=s3cr3t-from-env\n"},
		turns:  func(w *world) []turn { return []turn{read(".env")} },
		effect: func(_ *world, result string) bool { return strings.Contains(result, "s3cr3t-from-env") },
		want:   every(sfDeny),
		reason: "Read(.env*)",
	},
	{
		name:  "edit-protected",
		files: map[string]string{"proj/package-lock.json": "{\n  \"lockfileVersion\": 3\n}\n"},
		turns: func(w *world) []turn {
			p := w.path("proj/package-lock.json")
			return []turn{read(p), {Tool: "Edit", Input: map[string]string{
				"file_path": p, "old_string": `"lockfileVersion": 3`, "new_string": `"lockfileVersion": 1`}}}
		},
		effect: func(w *world, _ string) bool { return w.contains("proj/package-lock.json", `"lockfileVersion": 1`) },
		want:   every(sfDeny),
		reason: "protected by",
	},
	{
		name:   "write-inside",
		turns:  func(w *world) []turn { return []turn{write("notes/new.txt", "hello\n")} },
		effect: func(w *world, _ string) bool { return w.contains("proj/notes/new.txt", "hello") },
		// safezone abstains in default mode, so Claude Code's own prompt
		// decides, and -p has nobody to say yes.
		want: map[string]outcome{"default": hostBlocked, "acceptEdits": ran, "bypassPermissions": ran},
	},
	{
		name:   "write-inside-safe-path",
		turns:  func(w *world) []turn { return []turn{write("agent_sandbox/scratch.txt", "scratch\n")} },
		effect: func(w *world, _ string) bool { return w.contains("proj/agent_sandbox/scratch.txt", "scratch") },
		// paths.safe: safezone allows, which skips Claude Code's prompt.
		want: every(ran),
	},
	{
		// Without safezone, bypassPermissions lets this Write replace the
		// hook registration itself.
		name:   "write-claude-settings",
		turns:  func(w *world) []turn { return []turn{write(".claude/settings.json", "{\"hooks\": {}}\n")} },
		effect: func(w *world, _ string) bool { return !w.contains("proj/.claude/settings.json", "PreToolUse") },
		want:   every(sfDeny),
		reason: "protected by",
	},
	{
		// A read outside the project, not of a secret: the kernel lets a
		// confined command read it anyway, so in bypass mode it runs,
		// confined, without a question (README, "What the kernel
		// enforces"). In the other modes Claude Code would ask about cat
		// outside its working directories, so the command would not run
		// confined: the kernel's agreement does not apply and safezone
		// asks, as it asks about the Read tool (sandbox.outside_read).
		name:    "bash-cat-outside",
		files:   map[string]string{"secret": "TOPSECRET-outside\n"},
		turns:   func(w *world) []turn { return []turn{bash("cat ../secret")} },
		effect:  func(_ *world, result string) bool { return strings.Contains(result, "TOPSECRET-outside") },
		want:    map[string]outcome{"default": sfAsk, "acceptEdits": sfAsk, "bypassPermissions": ran},
		reason:  "outside the sandbox",
		pending: "shell analysis",
	},
	{
		name:    "bash-write-home",
		turns:   func(w *world) []turn { return []turn{bash("echo x > ~/.bashrc")} },
		effect:  func(w *world, _ string) bool { return w.exists("home/.bashrc") },
		want:    every(sfDeny),
		reason:  "outside the sandbox",
		pending: "shell analysis",
	},
	{
		name:    "bash-cd-dotdot",
		turns:   func(w *world) []turn { return []turn{bash("cd .. && echo pwned > escaped-by-cd.txt")} },
		effect:  func(w *world, _ string) bool { return w.exists("escaped-by-cd.txt") },
		want:    every(sfDeny),
		reason:  "outside the sandbox",
		pending: "shell analysis",
	},
	{
		name:  "glob-outside",
		files: map[string]string{"proj/a.go": "package a\n", "other/b.go": "package b\n"},
		tools: true,
		turns: func(w *world) []turn {
			return []turn{{Tool: "Glob", Input: map[string]string{"pattern": "**/*.go", "path": w.path("other")}}}
		},
		effect: func(_ *world, result string) bool { return strings.Contains(result, "b.go") },
		want:   every(sfAsk),
		reason: "outside the sandbox",
	},
	{
		name:  "grep-outside",
		files: map[string]string{"proj/a.go": "package a\n", "other/b.go": "package b // NEEDLE-in-other\n"},
		tools: true,
		turns: func(w *world) []turn {
			return []turn{{Tool: "Grep", Input: map[string]string{"pattern": "NEEDLE", "path": "../other", "output_mode": "content"}}}
		},
		effect: func(_ *world, result string) bool { return strings.Contains(result, "NEEDLE-in-other") },
		want:   every(sfAsk),
		reason: "outside the sandbox",
	},
	{
		// Claude Code refuses a NotebookEdit of a notebook not Read first,
		// before any hook runs, and a headless session cannot approve
		// safezone's ask for the outside Read. So the project's policy first
		// adds ../ext to the sandbox (the Read runs), and is removed before
		// the edit: the user narrowed the sandbox again.
		name: "notebook-edit-outside",
		files: map[string]string{
			"ext/nb.ipynb":        notebook,
			"proj/.safezone.yaml": "version: 1\nsandbox:\n  additional_directories: [\"../ext\"]\n",
		},
		turns: func(w *world) []turn {
			p := w.path("ext/nb.ipynb")
			return []turn{read(p), {
				Tool:   "NotebookEdit",
				Input:  map[string]string{"notebook_path": p, "cell_id": "c1", "new_source": "print(2)", "edit_mode": "replace"},
				Before: func() error { return os.Remove(w.path("proj/.safezone.yaml")) },
			}}
		},
		effect: func(w *world, _ string) bool { return w.contains("ext/nb.ipynb", "print(2)") },
		want:   every(sfDeny),
		reason: "outside the sandbox",
	},
	{
		name:   "broken-policy",
		files:  map[string]string{"proj/.safezone.yaml": "version: 1\noutside_wirte: deny\n"},
		turns:  func(w *world) []turn { return []turn{write("notes/new.txt", "hello\n")} },
		effect: func(w *world, _ string) bool { return w.exists("proj/notes/new.txt") },
		want:   every(sfDeny),
		reason: "unusable policy",
	},
	{
		name:   "broken-build",
		hook:   brokenBuild,
		turns:  func(w *world) []turn { return []turn{write("../outside.txt", "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside.txt") },
		want:   every(hookFailed),
	},
	{
		// The control for broken-build: without onFailure, Claude Code
		// ignores a failed hook; its own checks still stop the write in
		// default and acceptEdits, and nothing does in bypassPermissions.
		name:   "broken-build-no-onFailure",
		hook:   brokenNoOnFailure,
		turns:  func(w *world) []turn { return []turn{write("../outside.txt", "pwned\n")} },
		effect: func(w *world, _ string) bool { return w.exists("outside.txt") },
		want:   map[string]outcome{"default": hostBlocked, "acceptEdits": hostBlocked, "bypassPermissions": ran},
	},
}

// row is one line of the result table.
type row struct {
	caseName, mode string
	want, got      outcome
	problem        string // empty when the run went as expected
	pending        string
	seconds        float64
}

func TestClaudeCode(t *testing.T) {
	if env.skip != "" {
		fmt.Println("SKIPPED: e2e:", env.skip)
		t.Skip(env.skip)
	}
	start := time.Now()
	var mu sync.Mutex
	var rows []row
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			for _, mode := range modes {
				want, ok := c.want[mode]
				if !ok {
					t.Fatalf("%s: no expectation for mode %s", c.name, mode)
				}
				t.Run(c.name+"/"+mode, func(t *testing.T) {
					t.Parallel()
					r := row{caseName: c.name, mode: mode, want: want, got: noResult, problem: "set-up failed", pending: c.pending}
					defer func() {
						mu.Lock()
						rows = append(rows, r)
						mu.Unlock()
					}()
					runCase(t, &c, mode, &r)
				})
			}
		}
	})
	printTable(rows, time.Since(start))
}

// runCase runs c in mode, checks the outcome, and fills in r.
func runCase(t *testing.T, c *testCase, mode string, r *row) {
	want := r.want
	// Not under the temporary directory, where a confined command may
	// write: a write to ../x from the project must have somewhere to fail.
	base, err := runRoots()
	if err != nil {
		t.Fatal(err)
	}
	w, err := newWorldIn(base, c.files, c.links)
	if err == nil {
		err = w.trustPolicy()
	}
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv(envKeep) == "1" {
		t.Logf("kept in %s", w.root)
	} else {
		t.Cleanup(func() { os.RemoveAll(w.root) })
	}
	bin, onFailure := env.safezone, true
	switch c.hook {
	case brokenBuild:
		bin = env.broken
	case brokenNoOnFailure:
		bin, onFailure = env.broken, false
	}
	reg, err := registration(env.hooksJSON, bin, onFailure)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.writeSettings(reg); err != nil {
		t.Fatal(err)
	}
	turns := c.turns(w)
	probe := len(turns) - 1
	var extra []string
	if c.tools {
		extra = []string{"--tools", allTools}
	}
	s, err := runClaude(env.claude, w, newFakeAPI(turns), mode, extra)
	if err != nil {
		t.Fatal(err)
	}

	got := observe(c, w, s, probe)
	r.got, r.seconds = got, s.seconds
	id := toolUseID(probe)
	tr, hasResult := s.toolResult[id]
	problem := ""
	switch {
	case s.timedOut:
		problem = fmt.Sprintf("claude did not finish within %v", claudeTimeout)
	case s.beforeErr != nil:
		problem = fmt.Sprintf("changing the project between calls: %v", s.beforeErr)
	case s.pre[id] != nil && hookMode(s.pre[id]) != mode:
		problem = fmt.Sprintf("the hook saw permission_mode %q, not %q", hookMode(s.pre[id]), mode)
	case got != want:
		problem = fmt.Sprintf("expected %s, observed %s", want, got)
	case (want == sfDeny || want == sfAsk) && c.reason != "" && !strings.Contains(tr.Text, c.reason):
		problem = fmt.Sprintf("safezone's reason does not say %q", c.reason)
	}
	r.problem = problem
	t.Logf("%s: tool_result (is_error=%v): %s", got, tr.IsError, tr.Text)
	if problem != "" {
		if c.pending != "" {
			problem += " (waiting on " + c.pending + ")"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n", problem)
		fmt.Fprintf(&b, "  hook stdin:  %s\n", orNone(string(s.pre[id])))
		if hasResult {
			fmt.Fprintf(&b, "  tool_result: (is_error=%v) %s\n", tr.IsError, tr.Text)
		} else {
			fmt.Fprintf(&b, "  tool_result: (none)\n")
		}
		fmt.Fprintf(&b, "  PostToolUse fired: %v, PostToolUseFailure fired: %v\n", s.post[id] != nil, s.postFail[id] != nil)
		fmt.Fprintf(&b, "  claude: exit %d, %d API requests, %.1fs, result %q\n", s.exitCode, s.requests, s.seconds, tail(s.result, 300))
		fmt.Fprintf(&b, "  claude stderr (tail): %s\n", orNone(tail(s.stderr, 1500)))
		if os.Getenv(envKeep) == "1" {
			fmt.Fprintf(&b, "  project: %s (kept)", w.root)
		} else {
			fmt.Fprintf(&b, "  project: %s (removed; set %s=1 to keep it)", w.root, envKeep)
		}
		t.Error(b.String())
	}
}

// observe decides from facts what happened to the call in turn probe.
func observe(c *testCase, w *world, s *session, probe int) outcome {
	for i := range probe {
		if id := toolUseID(i); s.post[id] == nil {
			return setupFailed
		}
	}
	id := toolUseID(probe)
	tr, hasResult := s.toolResult[id]
	if s.post[id] != nil || s.postFail[id] != nil || c.effect(w, tr.Text) {
		return ran
	}
	switch {
	case !hasResult:
		return noResult
	case !tr.IsError:
		return notAnError
	case strings.Contains(tr.Text, "safezone: deny"):
		return sfDeny
	case strings.Contains(tr.Text, "safezone: ask"):
		return sfAsk
	case isHookFailure(tr.Text):
		return hookFailed
	}
	return hostBlocked
}

// hookMode returns the permission_mode of a PreToolUse hook input.
func hookMode(stdin []byte) string {
	var in struct {
		PermissionMode string `json:"permission_mode"`
	}
	json.Unmarshal(stdin, &in)
	return in.PermissionMode
}

// isHookFailure recognises the tool_result Claude Code sends when a hook with
// onFailure: block failed.
func isHookFailure(text string) bool {
	return strings.Contains(text, `blocking because onFailure is "block"`)
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

// printTable prints one line per case and mode, in the order of cases.
func printTable(rows []row, total time.Duration) {
	index := func(r row) int {
		i := slices.IndexFunc(cases, func(c testCase) bool { return c.name == r.caseName })
		return i*len(modes) + slices.Index(modes, r.mode)
	}
	slices.SortFunc(rows, func(a, b row) int { return index(a) - index(b) })
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "CASE\tMODE\tEXPECTED\tOBSERVED\t\tSECONDS\n")
	failed := 0
	for _, r := range rows {
		verdict := "ok"
		if r.problem != "" {
			failed++
			verdict = "FAIL"
			if r.got == r.want {
				verdict += ": " + r.problem
			}
			if r.pending != "" {
				verdict += " (waiting on " + r.pending + ")"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.1f\n", r.caseName, r.mode, r.want, r.got, verdict, r.seconds)
	}
	tw.Flush()
	fmt.Printf("e2e: Claude Code %s (pinned %s), %d runs, %d failed, %.1fs\n",
		env.claudeVersion, env.pinned, len(rows), failed, total.Seconds())
}
