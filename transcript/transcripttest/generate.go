// Package transcripttest generates Claude Code session transcripts shaped
// like real ones (the records of the Claude Code 2.1.330 transcript in
// ../shared/samples/claude-code/transcripts): user prompts carrying the
// permission mode, assistant records with one tool_use each (parallel calls
// as consecutive records), user records with the tool results, and the
// bookkeeping records (queue-operation, tools-used, atis-latch,
// last-prompt, cost-state). The output depends only on the Options, so a
// generated fixture can be checked in and regenerated.
package transcripttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// Options shape a transcript.
type Options struct {
	// Project is the directory the session runs in (every record's cwd,
	// and the root relative paths are under).
	Project string
	// Home is the home directory paths outside the project are under.
	Home string
	// Calls is how many tool calls to write; Bytes, when larger than what
	// the calls take, pads the transcript with more turns until it
	// reaches that size (whichever comes last ends it).
	Calls int
	Bytes int64
	// Seed makes the output reproducible.
	Seed uint64
	// Malformed writes a truncated record every so many lines (0: never),
	// like a session cut off while writing.
	Malformed int
}

// Stats says what Generate wrote.
type Stats struct {
	Calls, Lines, Malformed int
	Bytes                   int64
}

// tool inputs by what they aim at, weighted by how often agents make them.
var kinds = []struct {
	weight int
	tool   string
	input  func(g *gen) map[string]any
}{
	{30, "Read", func(g *gen) map[string]any { return map[string]any{"file_path": g.inside()} }},
	{6, "Read", func(g *gen) map[string]any {
		return map[string]any{"file_path": g.pick(".env", ".env.local", "certs/server.pem")}
	}},
	{4, "Read", func(g *gen) map[string]any { return map[string]any{"file_path": g.outside()} }},
	{10, "Edit", func(g *gen) map[string]any {
		return map[string]any{"file_path": g.project + "/" + g.srcFile(), "old_string": g.words(6), "new_string": g.words(8), "replace_all": false}
	}},
	{6, "Write", func(g *gen) map[string]any {
		return map[string]any{"file_path": g.project + "/agent_sandbox/2026-11-22/" + g.pick("notes", "scratch", "plan") + "/" + g.pick("a.md", "b.txt"), "content": g.words(40)}
	}},
	{3, "Write", func(g *gen) map[string]any {
		return map[string]any{"file_path": "../outside-" + g.pick("a", "b", "c") + ".txt", "content": g.words(10)}
	}},
	{2, "Write", func(g *gen) map[string]any {
		return map[string]any{"file_path": g.project + "/.git/config", "content": "[core]\n"}
	}},
	{2, "MultiEdit", func(g *gen) map[string]any {
		return map[string]any{"file_path": g.project + "/docs/guide.md", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}
	}},
	{8, "Glob", func(g *gen) map[string]any {
		return map[string]any{"pattern": g.pick("**/*.go", "src/**/*.ts", "../**/*.pem", "docs/*.md")}
	}},
	{8, "Grep", func(g *gen) map[string]any {
		in := map[string]any{"pattern": g.words(1), "output_mode": "files_with_matches"}
		if g.r.IntN(2) == 0 {
			in["path"] = g.project + "/src"
			in["glob"] = "*.go"
		}
		return in
	}},
	{15, "Bash", func(g *gen) map[string]any {
		return map[string]any{"command": g.pick("go test ./...", "ls -la", "git status", "cat ../secret", "npm run build"), "description": g.words(4)}
	}},
	{2, "LS", func(g *gen) map[string]any { return map[string]any{"path": g.project + "/src"} }},
	{2, "mcp__github__get_issue", func(g *gen) map[string]any { return map[string]any{"owner": "o", "repo": "r", "issue_number": 7} }},
	{2, "WebFetch", func(g *gen) map[string]any {
		return map[string]any{"url": "https://example.com/", "prompt": g.words(5)}
	}},
}

// Generate writes a transcript to w.
func Generate(w io.Writer, o Options) (Stats, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{r: rand.New(rand.NewPCG(o.Seed, o.Seed^0x5afe20e)), project: o.Project, home: o.Home, w: bw, o: o,
		session: fmt.Sprintf("%08x-7611-4349-929b-%012x", o.Seed, o.Seed*7919), t: time.Date(2026, 11, 22, 10, 48, 9, 0, time.UTC)}
	total := 0
	for _, k := range kinds {
		total += k.weight
	}
	mode := "default"
	for g.st.Calls < o.Calls || g.st.Bytes < o.Bytes {
		// A prompt, in a mode that changes now and then.
		if g.r.IntN(4) == 0 {
			mode = g.pick("default", "acceptEdits", "acceptEdits", "plan", "bypassPermissions")
		}
		g.line(map[string]any{"type": "queue-operation", "operation": "enqueue", "timestamp": g.now(), "sessionId": g.session, "content": g.words(5)})
		g.line(g.base("user", map[string]any{"message": map[string]any{"role": "user", "content": g.words(12)}, "permissionMode": mode, "promptSource": "sdk"}))
		for turn := 1 + g.r.IntN(6); turn > 0; turn-- {
			parallel := 1
			if g.r.IntN(5) == 0 {
				parallel = 2 + g.r.IntN(2)
			}
			var ids []string
			for p := 0; p < parallel; p++ {
				n := g.r.IntN(total)
				k := kinds[0]
				for _, c := range kinds {
					if n < c.weight {
						k = c
						break
					}
					n -= c.weight
				}
				id := fmt.Sprintf("toolu_gen_%06d_%d", g.st.Calls, p)
				ids = append(ids, id)
				block := map[string]any{"id": id, "input": k.input(g), "name": k.tool, "type": "tool_use"}
				g.line(g.base("assistant", map[string]any{"message": map[string]any{
					"content": []any{block}, "id": fmt.Sprintf("msg_gen_%d", g.st.Lines), "model": "claude-opus-5-5", "role": "assistant",
					"stop_reason": "tool_use", "type": "message", "usage": map[string]any{"input_tokens": 10 + g.r.IntN(9000), "output_tokens": 5 + g.r.IntN(400)},
				}, "requestId": "req_gen", "effort": "medium"}))
				g.st.Calls++
			}
			g.line(map[string]any{"type": "tools-used", "tools": []string{"Read"}, "sessionId": g.session})
			for _, id := range ids {
				g.line(g.base("user", map[string]any{"message": map[string]any{"role": "user", "content": []any{
					map[string]any{"tool_use_id": id, "type": "tool_result", "content": g.result()},
				}}, "permissionDecision": map[string]any{"decision": "accept", "source": "config", "reasonType": "mode"}}))
			}
		}
		g.line(g.base("assistant", map[string]any{"message": map[string]any{"content": []any{map[string]any{"type": "text", "text": g.words(30)}},
			"role": "assistant", "stop_reason": "end_turn", "type": "message"}}))
		g.line(map[string]any{"type": "last-prompt", "lastPrompt": g.words(3), "sessionId": g.session})
		g.line(map[string]any{"type": "atis-latch", "atis": "", "sessionId": g.session})
	}
	g.line(map[string]any{"type": "cost-state", "sessionId": g.session, "totalCostUSD": 0.00084, "totalDuration": 806})
	if g.err == nil {
		g.err = bw.Flush()
	}
	return g.st, g.err
}

type gen struct {
	r                      *rand.Rand
	project, home, session string
	w                      *bufio.Writer
	o                      Options
	t                      time.Time
	st                     Stats
	err                    error
}

func (g *gen) now() string {
	g.t = g.t.Add(time.Duration(20+g.r.IntN(900)) * time.Millisecond)
	return g.t.Format("2006-01-02T15:04:05.000Z")
}

// base is the envelope Claude Code puts around user and assistant records.
func (g *gen) base(typ string, fields map[string]any) map[string]any {
	m := map[string]any{
		"parentUuid": fmt.Sprintf("%08x-ecd2-450f-b2d5-%012x", g.st.Lines, g.r.Uint64()>>16), "isSidechain": false, "type": typ,
		"uuid": fmt.Sprintf("%08x-ddc7-4c6f-b0c5-%012x", g.st.Lines, g.r.Uint64()>>16), "timestamp": g.now(), "userType": "external",
		"entrypoint": "sdk-cli", "cwd": g.project, "sessionId": g.session, "version": "2.1.330", "gitBranch": "HEAD",
	}
	for k, v := range fields {
		m[k] = v
	}
	return m
}

func (g *gen) line(rec map[string]any) {
	if g.err != nil {
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		g.err = err
		return
	}
	if g.o.Malformed > 0 && (g.st.Lines+1)%g.o.Malformed == 0 {
		b = b[:len(b)/2]
		g.st.Malformed++
	}
	b = append(b, '\n')
	n, err := g.w.Write(b)
	g.st.Bytes += int64(n)
	g.st.Lines++
	g.err = err
}

func (g *gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *gen) inside() string {
	return g.project + "/" + g.pick("README.md", "go.mod", "docs/guide.md", "tests/a_test.go", "notes.md") // abs
}

func (g *gen) srcFile() string {
	return "src/" + g.pick("main.go", "app.ts", "util/strings.go", "handler.go")
}

func (g *gen) outside() string {
	return g.pick(g.home+"/.ssh/id_ed25519", "/etc/passwd", "../other-project/README.md", g.home+"/.aws/credentials")
}

var vocabulary = strings.Fields(`the a safezone policy file read write path tool call sandbox project agent
	decision rule deny allow ask test build func return error value string config session hook
	transcript replay audit log line record user model result content input output`)

func (g *gen) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocabulary[g.r.IntN(len(vocabulary))])
	}
	return b.String()
}

// result is a tool result: mostly short, sometimes a whole file.
func (g *gen) result() string {
	lines := 2 + g.r.IntN(20)
	if g.r.IntN(10) == 0 {
		lines = 100 + g.r.IntN(400)
	}
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "%d\t%s\n", i, g.words(1+g.r.IntN(10)))
	}
	return b.String()
}
