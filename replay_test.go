package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
	"github.com/safezonehq/safezone/transcript/transcripttest"
)

// replayGolden replays files and compares the summary with golden (or
// rewrites it with -update).
func replayGolden(t *testing.T, golden string, files ...string) {
	t.Helper()
	sys, dir := testSystem(t)
	sys.Getenv = pipelinetest.Isolated(dir, map[string]string{"HOME": dir + "/home", "SHELL": "/bin/bash"})
	// As on a Linux machine whose kernel confines commands (Landlock and
	// user namespaces), whatever this one can: the summary is the same
	// everywhere.
	sys.Confine = &pipeline.OnceStatus{Get: func() confine.Status { return confine.Status{LandlockABI: 7} }}
	var out, errb bytes.Buffer
	if code := cmdReplay(files, &out, &errb, sys); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update writes it)", err, t.Name())
	}
	if out.String() != string(want) {
		t.Errorf("summary of %v:\n%s\nwant (%s):\n%s", files, out.String(), golden, want)
	}
}

// TestReplayRealTranscript replays the Claude Code 2.1.330 transcript in
// ../shared: six calls, of which the .env read and the write outside the
// project are denied.
func TestReplayRealTranscript(t *testing.T) {
	const f = "../shared/samples/claude-code/transcripts/session-acceptEdits.jsonl"
	if _, err := os.Stat(f); err != nil {
		t.Skip("../shared/samples is absent: the real transcript is not replayed")
	}
	replayGolden(t, "testdata/replay/session-acceptEdits.summary", f)
}

// generatedOptions are the options testdata/replay/generated.jsonl was
// written with:
//
//	go run ./scripts/gentranscript -calls 60 -seed 1 -malformed 97 -o testdata/replay/generated.jsonl
var generatedOptions = transcripttest.Options{Project: "/home/dev/work/proj", Home: "/home/dev/work/home", Calls: 60, Seed: 1, Malformed: 97}

// TestReplayFixture replays the generated fixture, and checks that it is
// still what the generator writes, so that it can be regenerated.
func TestReplayFixture(t *testing.T) {
	const f = "testdata/replay/generated.jsonl"
	var buf bytes.Buffer
	if _, err := transcripttest.Generate(&buf, generatedOptions); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, buf.Bytes()) {
		t.Errorf("%s is not what the generator writes; regenerate it (see generatedOptions)", f)
	}
	replayGolden(t, "testdata/replay/generated.summary", f)
}

// TestReplayMatchesHook: every call replay judges gets the decision and
// the reason the hook gives the same input. The transcript is generated in
// a real project; the hook inputs are rebuilt from it with encoding/json,
// independently of replay's scanner; repeated calls exercise the memo.
func TestReplayMatchesHook(t *testing.T) {
	sys, dir := testSystem(t)
	// One look at the machine's Unix sockets for replay and the hook: the
	// reason counts them, and other tests bind and close theirs meanwhile.
	list, err := confine.BoundSockets()
	sys.UnixSockets = func() (confine.BoundList, error) { return list, err }
	// The code caches a used home has: the live hook makes the missing
	// ones at its first confined call (and then lists them among what a
	// command reads in the home), which replay, judging without side
	// effects, does not.
	for _, d := range []string{"proj/docs", "proj/src/util", "proj/.git", "proj/agent_sandbox", "home/.ssh",
		"home/.cargo/registry", "home/.cargo/git", "home/.gradle/caches", "home/.m2/repository", "home/.npm", "home/go/pkg/mod"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(dir+"/proj/README.md", []byte("hi\n"), 0o644)
	os.Symlink(dir+"/outside", dir+"/proj/docs/out")
	os.WriteFile(dir+"/proj/.safezone.yaml", []byte("version: 1\npaths:\n  protected: [\".git/**\"]\n  safe: [\"agent_sandbox/**\"]\nrules:\n  deny: [\"Read(.env*)\", \"Read(*.pem)\"]\n  ask: [\"Grep\"]\n"), 0o644)
	path := filepath.Join(dir, "t.jsonl")
	var buf bytes.Buffer
	if _, err := transcripttest.Generate(&buf, transcripttest.Options{Project: dir + "/proj", Home: dir + "/home", Calls: 400, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, buf.Bytes(), 0o644)

	var out, errb bytes.Buffer
	if code := cmdReplay([]string{"--json", path}, &out, &errb, sys); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var recs []replayRecord
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r replayRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}

	// The hook inputs, read the slow way.
	var inputs []string
	mode := ""
	for line := range strings.SplitSeq(buf.String(), "\n") {
		var rec struct {
			Type           string `json:"type"`
			SessionID      string `json:"sessionId"`
			Cwd            string `json:"cwd"`
			PermissionMode string `json:"permissionMode"`
			Message        struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		if rec.PermissionMode != "" {
			mode = rec.PermissionMode
		}
		var blocks []struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if rec.Type != "assistant" || json.Unmarshal(rec.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_use" {
				in, _ := json.Marshal(map[string]any{"session_id": rec.SessionID, "cwd": rec.Cwd, "permission_mode": mode,
					"hook_event_name": "PreToolUse", "tool_name": b.Name, "tool_input": b.Input, "tool_use_id": b.ID})
				inputs = append(inputs, string(in))
			}
		}
	}
	if len(recs) != len(inputs) || len(recs) < 400 {
		t.Fatalf("%d records, %d tool calls in the transcript", len(recs), len(inputs))
	}
	decisions := map[string]int{}
	for i, in := range inputs {
		r := runHook(t, sys, strings.NewReader(in))
		rec := recs[i]
		decisions[rec.Decision]++
		var o struct {
			H struct {
				Reason string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		json.Unmarshal([]byte(r.stdout), &o) // abstain prints no reason
		want := o.H.Reason
		if rec.Decision != r.decision || (r.decision != "abstain" && rec.Reason != want) {
			t.Errorf("call %d (%s, line %d): replay %s %q\nhook %s %q\ninput %s", i, rec.ToolUseID, rec.Line, rec.Decision, rec.Reason, r.decision, want, in)
		}
	}
	t.Logf("%d calls: %v", len(recs), decisions)
	if len(decisions) < 4 {
		t.Errorf("the transcript should reach every decision: %v", decisions)
	}
}

// TestReplayBoundedMemory replays a 100 MB transcript and checks that the
// heap stays far below its size: replay streams.
func TestReplayBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and replays 100 MB")
	}
	sys, dir := testSystem(t)
	path := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := transcripttest.Generate(f, transcripttest.Options{Project: dir + "/proj", Home: dir + "/home", Bytes: 100 << 20, Seed: 3, Malformed: 1000})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var out, errb bytes.Buffer
	start := time.Now()
	code := cmdReplay([]string{path}, &out, &errb, sys)
	elapsed := time.Since(start)
	close(stop)
	<-sampled
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := fmt.Sprintf(" from 1 transcript (1 session, %d lines; skipped: %d malformed, 0 too long)\n", st.Lines, st.Malformed)
	if head, _, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(head, "replayed ") || !strings.HasSuffix(head+"\n", want) {
		t.Errorf("summary %q, want ...%q", head, want)
	}
	t.Logf("%d MB, %d calls in %v (%.0f calls/s); peak heap in use %d MB", st.Bytes>>20, st.Calls, elapsed, float64(st.Calls)/elapsed.Seconds(), peak.Load()>>20)
	if peak.Load() > 64<<20 {
		t.Errorf("peak heap %d MB while replaying %d MB: replay must stream", peak.Load()>>20, st.Bytes>>20)
	}
}

// TestProgress draws, throttles and erases the progress bar.
func TestProgress(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	p := newProgress(&b, 200e6, func() time.Time { return now })
	p.update(90e6, 41234)
	p.update(95e6, 42000) // within progressEvery: not drawn
	now = now.Add(time.Second)
	p.update(200e6, 90000)
	p.done()
	want := "\rsafezone replay [=============>                ]  45%     90/200 MB    41234 calls\x1b[K" +
		"\rsafezone replay [==============================] 100%    200/200 MB    90000 calls\x1b[K" + "\r\x1b[K"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	var nilp *progress
	nilp.update(1, 1) // a nil progress draws nothing
	nilp.done()
	if isTerminal(&b) {
		t.Error("a buffer is not a terminal")
	}
}
