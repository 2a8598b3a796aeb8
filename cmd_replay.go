package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
	"github.com/safezonehq/safezone/transcript"
)

const replayUsage = `Usage:
    safezone replay [--json] [--top N] [--refusals AUDIT.jsonl] [flags] TRANSCRIPT.jsonl|DIR...

Runs every tool call of Claude Code session transcripts (the JSONL files
under ~/.claude/projects/; a DIR is searched for *.jsonl files) through the
policy exactly as the hook would have judged it, against the file system as
it is now, and prints a summary: calls per decision, per tool, per rule or
class, and the paths most often denied or asked.

Each call is judged with the cwd of its record and the session's permission
mode; the project root is the session's first cwd (where Claude Code was
started). The policy is looked up for that root as the hook does, with the
hook's flags on top (--policy FILE, -r, -y, --add-dir, ...). Nothing is
written to the audit log, and dry run does not apply.

Transcripts are read as streams, one line at a time; malformed lines and
records of unknown types are skipped and counted.

Options:
    --json      Print one JSON record per call (the audit record's fields,
                plus transcript and line) instead of the summary.
    --top N     Rows in the rule and path tables (default 10).
    --refusals AUDIT.jsonl
                An audit log the sessions ran with: what the kernel (Landlock)
                and the network proxy refused each call's confined command
                when it ran ("tool": "landlock" or "network" records, matched
                by tool_use_id) is counted and listed, and, with --json, is
                each call's "refused".
    -h, --help  Show this help.

Exit status: 0, 1 when a transcript could not be read, 2 for a usage error.
`

// replayProgressMin is the input size above which replay shows a progress
// bar (when stderr is a terminal): smaller inputs take well under a second.
const replayProgressMin = 64 << 20

func cmdReplay(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	fs := pipeline.NewFlagSet()
	build := pipeline.PolicyFlags(fs)
	jsonOut := fs.Bool("json", 0)
	top := fs.Int("top", 10)
	refusedLog := fs.String("refusals", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pipeline.ErrHelp) {
			fmt.Fprint(stdout, replayUsage)
			return 0
		}
		fmt.Fprintf(stderr, "safezone: replay: %v\n%s", err, replayUsage)
		return 2
	}
	opts, err := build()
	if err == nil && fs.NArg() == 0 {
		err = errors.New("no transcript given")
	}
	if err != nil {
		fmt.Fprintf(stderr, "safezone: replay: %v\n%s", err, replayUsage)
		return 2
	}
	for _, w := range opts.Warnings {
		fmt.Fprintln(stderr, "safezone: "+w)
	}
	var refused map[string][]audit.Record
	if *refusedLog != "" {
		if refused, err = readRefused(*refusedLog); err != nil {
			fmt.Fprintf(stderr, "safezone: replay: --refusals: %v\n", err)
			return 1
		}
	}
	files, total, errs := transcriptFiles(fs.Args())
	for _, err := range errs {
		fmt.Fprintf(stderr, "safezone: replay: %v\n", err)
	}

	var prog *progress
	if total >= replayProgressMin && isTerminal(stderr) {
		prog = newProgress(stderr, total, time.Now)
	}
	start := time.Now()
	t, readErrs, policyErrs := replay(files, opts, sys, *jsonOut, refused, stdout, prog)
	prog.done()
	elapsed := time.Since(start)
	for _, err := range readErrs {
		fmt.Fprintf(stderr, "safezone: replay: %v\n", err)
	}
	for _, e := range policyErrs {
		fmt.Fprintf(stderr, "safezone: replay: %s\n", e)
	}
	if *jsonOut {
		fmt.Fprintf(stderr, "safezone: replay: %s\n", t.headline(len(files)))
	} else {
		t.print(stdout, len(files), *top)
	}
	t.printMissing(stderr)
	if rate := float64(t.calls) / elapsed.Seconds(); t.calls >= 10000 {
		fmt.Fprintf(stderr, "safezone: replay: %d calls in %.1fs (%.0f calls/s; %.0f%% repeated a call already judged)\n",
			t.calls, elapsed.Seconds(), rate, 100*float64(t.repeats)/float64(t.calls))
	}
	if len(errs)+len(readErrs) > 0 {
		return 1
	}
	return 0
}

// transcriptFiles expands the arguments: files as given, directories to
// the *.jsonl files below them, in name order, subagents' transcripts
// (.../subagents/*.jsonl) after the sessions that started them. total is
// their size.
func transcriptFiles(args []string) (files []string, total int64, errs []error) {
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			files = append(files, a)
			total += st.Size()
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".jsonl") {
				if info, err := d.Info(); err == nil {
					files = append(files, p)
					total += info.Size()
				}
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	subagent := func(p string) int {
		if strings.Contains(filepath.ToSlash(p), "/subagents/") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(files, func(a, b string) int { return cmp.Compare(subagent(a), subagent(b)) })
	return files, total, errs
}

// replayBatchSize is how many calls travel together between the reader,
// the workers and the tally: enough to make the hand-offs cheap, few
// enough that the batches in flight stay a few megabytes.
const replayBatchSize = 256

// replayBatch is a run of consecutive calls, judged into results by a
// worker. Batches are recycled once counted.
type replayBatch struct {
	seq     int
	buf     []byte // each job's tokens, back to back
	jobs    []replayJob
	results []replayResult
}

// replayJob is one call. Its parts are spans of the batch's buf: the hook
// input, then the session's project directory, the tool_use block's name
// and id, the record's timestamp and session id (JSON string tokens).
type replayJob struct {
	file string
	line int
	// at holds the offsets: input at[0]:at[2], of which at[0]:at[1] is the
	// part that decides; project dir at[2]:at[3]; name at[3]:at[4]; id
	// at[4]:at[5]; timestamp at[5]:at[6]; session id at[6]:at[7].
	at [8]int
}

func (b *replayBatch) span(j *replayJob, from, to int) []byte {
	return b.buf[j.at[from]:j.at[to]:j.at[to]]
}

// replayResult is what the tally needs of one judged call, and its JSON
// record with --json.
type replayResult struct {
	decision     policy.Decision
	tool         string
	rule, source string
	path         string // the deciding target of a deny or an ask
	json         []byte
	policyErr    string
	repeat       bool // answered from the memo
	// missing is the project directory of the call when it does not exist
	// on this machine: the call is judged against the paths as they are
	// written (nothing resolves outside for lack of a directory).
	missing string
	// refused are the audit log's refusals of the call's command when it
	// ran (--refusals).
	refused []audit.Record
}

// replay judges every call of files through the hook's own path (judger):
// one goroutine reads the transcripts, one worker per CPU judges, and the
// calling goroutine counts the results and prints the --json records in
// transcript order. Each worker keeps each project root's policy and the
// verdicts of calls it has seen (replayMemo); the file system's answers are
// kept for the whole run (cacheFS). At most a few dozen batches are in
// flight, so memory stays bounded whatever the input's size.
func replay(files []string, opts *pipeline.Options, sys *pipeline.System, jsonOut bool, refused map[string][]audit.Record, stdout io.Writer, prog *progress) (t *tally, readErrs []error, policyErrs []string) {
	workers := max(1, runtime.GOMAXPROCS(0))
	jobs := make(chan *replayBatch, workers)
	results := make(chan *replayBatch, 2*workers)
	free := make(chan *replayBatch, 4*workers)
	shared := *sys
	shared.FS = newCacheFS(sys.FS)
	t = newTally()

	var read atomic.Int64 // bytes read so far, for the progress bar
	go func() {
		defer close(jobs)
		readErrs = readTranscripts(files, jobs, free, t, &read)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := &replayWorker{host: opts.Host.Name(), now: sys.Now(), json: jsonOut, refused: refused, memo: map[string]*memoEntry{}, dirs: map[string]bool{}}
			w.j = &pipeline.Judger{Opts: opts, Sys: &shared, Cache: map[string]pipeline.LoadedPolicy{}, Loaded: func(p *policy.Policy, _ string) { w.onError = p.OnError }}
			for b := range jobs {
				b.results = b.results[:0]
				for i := range b.jobs {
					b.results = append(b.results, w.judge(b, &b.jobs[i]))
				}
				results <- b
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var werr error // writing the --json records
	pending := map[int]*replayBatch{}
	next := 0
	for b := range results {
		pending[b.seq] = b
		for b := pending[next]; b != nil; b = pending[next] {
			delete(pending, next)
			next++
			for i := range b.results {
				r := &b.results[i]
				t.count(r)
				if r.policyErr != "" && !slices.Contains(policyErrs, r.policyErr) {
					policyErrs = append(policyErrs, r.policyErr)
				}
				if jsonOut && werr == nil {
					_, werr = stdout.Write(r.json)
				}
			}
			prog.update(read.Load(), t.calls)
			select {
			case free <- b:
			default:
			}
		}
	}
	if werr != nil {
		readErrs = append(readErrs, fmt.Errorf("writing records: %w", werr))
	}
	return t, readErrs, policyErrs
}

// readTranscripts reads files into batches of jobs, and their line counts
// and sessions into t (which the caller reads only once jobs is closed).
// It reuses batches from free when there are any.
func readTranscripts(files []string, jobs chan<- *replayBatch, free <-chan *replayBatch, t *tally, read *atomic.Int64) (errs []error) {
	seq := 0
	newBatch := func() *replayBatch {
		select {
		case b := <-free:
			b.buf, b.jobs = b.buf[:0], b.jobs[:0]
			return b
		default:
			return &replayBatch{buf: make([]byte, 0, 512<<10), jobs: make([]replayJob, 0, replayBatchSize)}
		}
	}
	b := newBatch()
	var before int64
	sessions := transcript.NewSessions()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := transcript.CheckFormat(f); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			f.Close()
			continue
		}
		r := transcript.NewSharedReader(f, sessions)
		if abs, err := filepath.Abs(name); err == nil {
			name = abs
		}
		path, _ := json.Marshal(name)
		for {
			u, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", name, err))
				break
			}
			if !t.sessions[string(u.SessionID)] {
				t.sessions[string(u.SessionID)] = true
			}
			j := replayJob{file: name, line: u.Line}
			j.at[0] = len(b.buf)
			var key int
			b.buf, key = hookInput(b.buf, u, path)
			j.at[1] = j.at[0] + key
			j.at[2] = len(b.buf)
			for i, part := range [][]byte{u.ProjectDir, u.Name, u.ID, u.Timestamp, u.SessionID} {
				b.buf = append(b.buf, part...)
				j.at[3+i] = len(b.buf)
			}
			b.jobs = append(b.jobs, j)
			if len(b.jobs) == replayBatchSize {
				read.Store(before + r.Stats().Bytes)
				b.seq = seq
				seq++
				jobs <- b
				b = newBatch()
			}
		}
		f.Close()
		t.add(r.Stats())
		before += r.Stats().Bytes
		read.Store(before)
	}
	if len(b.jobs) > 0 {
		b.seq = seq
		jobs <- b
	}
	return errs
}

// replayWorker judges calls with its own judger (and policy cache) and
// memo.
type replayWorker struct {
	j       *pipeline.Judger
	host    string
	now     time.Time
	json    bool
	refused map[string][]audit.Record // --refusals, by tool_use_id
	onError policy.Setting[policy.Decision]
	memo    map[string]*memoEntry
	// memoBytes is what memo holds, roughly.
	memoBytes int
	// dirs remembers which project directories exist.
	dirs map[string]bool
}

// memoEntry is the verdict of a call, minus what is particular to the call
// (its ids and time).
type memoEntry struct {
	res replayResult
	rec audit.Record
}

// Memo bounds, per worker: inputs longer than replayMemoInput (file
// contents, mostly, which rarely repeat) are not remembered, and the memo
// starts over once it holds replayMemoBytes, so it follows what the
// transcripts are doing now.
const (
	replayMemoInput = 2 << 10
	replayMemoBytes = 4 << 20
)

// judge decides one call. A call whose deciding part (cwd, permission
// mode, tool name and input; not the session or tool_use ids) and project
// root equal an earlier one's gets its verdict again: classify.Decide is a
// function of exactly those, the policy (one per root) and the file system
// (cacheFS: one view for the whole replay).
func (w *replayWorker) judge(b *replayBatch, job *replayJob) replayResult {
	key := b.span(job, 0, 1)
	dir := b.span(job, 2, 3)
	missing := ""
	if d := transcript.Str(dir); d != "" && !w.exists(d) {
		missing = d
	}
	var mkey string
	if len(key) <= replayMemoInput {
		mkey = string(dir) + string(key)
		if e, ok := w.memo[mkey]; ok {
			r := e.res
			r.repeat, r.missing = true, missing
			return w.result(b, job, r, e.rec)
		}
	}
	v := w.j.Decide(b.span(job, 0, 2), nil, transcript.Str(dir))
	rec := pipeline.Record(v, &pipeline.AuditSettings{Host: w.host, OnError: w.onError}, w.now)
	d, _ := pipeline.Outcome(v)
	r := replayResult{decision: d, tool: rec.Tool, rule: rec.Rule, source: rec.Source, missing: missing}
	if errors.Is(v.Err, pipeline.ErrUnusablePolicy) {
		r.policyErr = v.Err.Error()
	}
	if (d == policy.Deny || d == policy.Ask) && v.Res != nil && len(v.Res.Targets) > 0 {
		i := v.Res.Deciding.Target
		if i < 0 || i >= len(v.Res.Targets) {
			i = 0
		}
		tg := &v.Res.Targets[i]
		r.path = cmp.Or(tg.Res.Path, tg.Abs, tg.Given)
	}
	if mkey != "" {
		if w.memoBytes >= replayMemoBytes {
			clear(w.memo)
			w.memoBytes = 0
		}
		w.memo[mkey] = &memoEntry{res: r, rec: rec}
		w.memoBytes += 2*len(mkey) + len(rec.Reason) + 512*(1+len(rec.Targets))
	}
	return w.result(b, job, r, rec)
}

// exists reports, once per directory, whether a project directory exists
// on this machine.
func (w *replayWorker) exists(dir string) bool {
	ok, seen := w.dirs[dir]
	if !seen {
		_, err := w.j.Sys.FS.Lstat(strings.TrimPrefix(dir, "/"))
		ok = err == nil
		w.dirs[dir] = ok
	}
	return ok
}

// result completes a verdict with what is particular to the call.
func (w *replayWorker) result(b *replayBatch, job *replayJob, r replayResult, rec audit.Record) replayResult {
	if rec.Tool == "" {
		// An input the decoder refused: name the call anyway.
		rec.Tool = transcript.Str(b.span(job, 3, 4))
		r.tool = rec.Tool
	}
	if w.refused != nil {
		r.refused = w.refused[transcript.Str(b.span(job, 4, 5))]
	}
	if !w.json {
		return r
	}
	rec.ToolUseID = transcript.Str(b.span(job, 4, 5))
	rec.SessionID = transcript.Str(b.span(job, 6, 7))
	if t, err := time.Parse(time.RFC3339, transcript.Str(b.span(job, 5, 6))); err == nil {
		rec.Time = t.UTC().Format(audit.TimeFormat)
	}
	out, err := pipeline.MarshalRecord(replayRecord{Record: rec, Transcript: job.file, Line: job.line, Refused: r.refused})
	if err != nil {
		out = fmt.Appendf(nil, "{\"error\":%q}\n", err.Error())
	}
	r.json = out
	return r
}

// hookInput appends the PreToolUse hook input Claude Code would have sent
// for u, and returns the length of its part that decides: everything but
// the session, transcript and tool_use ids, which come last. The string
// fields are JSON tokens already, so they are copied as they are.
func hookInput(b []byte, u *transcript.ToolUse, transcriptPath []byte) ([]byte, int) {
	tok := func(t []byte, def string) []byte {
		if t == nil {
			return []byte(def)
		}
		return t
	}
	start := len(b)
	b = append(b, `{"cwd":`...)
	b = append(b, tok(u.Cwd, `""`)...)
	b = append(b, `,"permission_mode":`...)
	b = append(b, tok(u.PermissionMode, `"default"`)...)
	b = append(b, `,"hook_event_name":"PreToolUse","tool_name":`...)
	b = append(b, u.Name...)
	b = append(b, `,"tool_input":`...)
	b = append(b, u.Input...)
	key := len(b) - start
	b = append(b, `,"session_id":`...)
	b = append(b, tok(u.SessionID, `""`)...)
	b = append(b, `,"transcript_path":`...)
	b = append(b, transcriptPath...)
	b = append(b, `,"tool_use_id":`...)
	b = append(b, u.ID...)
	return append(b, '}'), key
}

// replayRecord is one line of `safezone replay --json`.
type replayRecord struct {
	audit.Record
	Transcript string `json:"transcript"`
	Line       int    `json:"line"`
	// Refused are the audit log's refusals of the call's command when it
	// ran (--refusals).
	Refused []audit.Record `json:"refused,omitempty"`
}

// readRefused reads the refusals of confined commands from the audit log
// at path (the kernel's, "tool": "landlock", and the network proxy's,
// "tool": "network"), by tool_use_id.
func readRefused(path string) (map[string][]audit.Record, error) {
	recs, err := audit.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string][]audit.Record{}
	for _, r := range recs {
		if (r.Tool == "landlock" || r.Tool == "network") && r.Decision == "deny" && r.ToolUseID != "" {
			out[r.ToolUseID] = append(out[r.ToolUseID], r)
		}
	}
	return out, nil
}

// tally counts replayed calls.
type tally struct {
	calls      int
	decisions  [4]int // by policy.Decision
	tools      map[string]*[4]int
	rules      map[[2]string]int // rule, source
	paths      map[[2]string]int // decision, path (deny and ask)
	pathRule   map[[2]string]string
	transcript transcript.Stats
	sessions   map[string]bool
	repeats    int // calls answered from a worker's memo
	// unlisted counts denied or asked calls whose path came after the
	// first tallyMaxPaths distinct ones.
	unlisted int
	// missing counts, per project directory that does not exist on this
	// machine, its calls.
	missing map[string]int
	// refusedCalls counts the calls whose command had refusals
	// (--refusals), refused the refusals by rule and target.
	refusedCalls int
	refused      map[[2]string]int
}

// tallyMaxPaths bounds the distinct paths the tally keeps.
const tallyMaxPaths = 1 << 17

func newTally() *tally {
	return &tally{tools: map[string]*[4]int{}, rules: map[[2]string]int{}, paths: map[[2]string]int{}, pathRule: map[[2]string]string{}, sessions: map[string]bool{}, missing: map[string]int{}, refused: map[[2]string]int{}}
}

func (t *tally) add(s transcript.Stats) {
	t.transcript.Lines += s.Lines
	t.transcript.Bytes += s.Bytes
	t.transcript.Records += s.Records
	t.transcript.Malformed += s.Malformed
	t.transcript.TooLong += s.TooLong
	t.transcript.BadToolUses += s.BadToolUses
}

func (t *tally) count(r *replayResult) {
	if r.missing != "" {
		t.missing[r.missing]++
	}
	d := r.decision
	if int(d) >= len(t.decisions) {
		d = policy.Deny
	}
	t.calls++
	t.decisions[d]++
	if r.repeat {
		t.repeats++
	}
	if len(r.refused) > 0 {
		t.refusedCalls++
		for _, f := range r.refused {
			k := [2]string{f.Rule, ""}
			if len(f.Targets) > 0 {
				k[1] = f.Targets[0].Given
			}
			if _, ok := t.refused[k]; ok || len(t.refused) < tallyMaxPaths {
				t.refused[k]++
			}
		}
	}
	byTool := t.tools[r.tool]
	if byTool == nil {
		byTool = new([4]int)
		t.tools[r.tool] = byTool
	}
	byTool[d]++
	t.rules[[2]string{r.rule, r.source}]++
	if r.path != "" {
		k := [2]string{d.String(), r.path}
		if _, ok := t.paths[k]; !ok && len(t.paths) >= tallyMaxPaths {
			t.unlisted++
			return
		}
		t.paths[k]++
		t.pathRule[k] = r.rule
	}
}

var decisionOrder = []policy.Decision{policy.Deny, policy.Ask, policy.Allow, policy.Abstain}

func (t *tally) headline(files int) string {
	s := t.transcript
	h := fmt.Sprintf("%d tool call%s from %d transcript%s (%d session%s, %d lines; skipped: %d malformed, %d too long",
		t.calls, plural(t.calls), files, plural(files), len(t.sessions), plural(len(t.sessions)), s.Lines, s.Malformed, s.TooLong)
	if s.BadToolUses > 0 {
		h += fmt.Sprintf(", %d tool_use blocks without id, name or input", s.BadToolUses)
	}
	return h + ")"
}

// printMissing says, once per project, that the project's directory does
// not exist here.
func (t *tally) printMissing(w io.Writer) {
	dirs := make([]string, 0, len(t.missing))
	for d := range t.missing {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		fmt.Fprintf(w, "safezone: replay: the project directory %s does not exist on this machine: its %d call%s were judged against the paths as written (no symlink followed, nothing there to find); replay where the session ran for the exact decisions\n", d, t.missing[d], plural(t.missing[d]))
	}
}

func (t *tally) print(w io.Writer, files, top int) {
	fmt.Fprintf(w, "replayed %s\n\n", t.headline(files))
	fmt.Fprintf(w, "%-10s %8s %6s\n", "decision", "calls", "%")
	for _, d := range decisionOrder {
		pct := 0.0
		if t.calls > 0 {
			pct = 100 * float64(t.decisions[d]) / float64(t.calls)
		}
		fmt.Fprintf(w, "%-10s %8d %6.1f\n", d, t.decisions[d], pct)
	}

	tools := make([]string, 0, len(t.tools))
	width := len("tool")
	for k := range t.tools {
		tools = append(tools, k)
		width = max(width, len(k))
	}
	slices.SortFunc(tools, func(a, b string) int {
		return cmp.Or(cmp.Compare(sum(t.tools[b]), sum(t.tools[a])), cmp.Compare(a, b))
	})
	fmt.Fprintf(w, "\n%-*s %8s %8s %8s %8s %8s\n", width, "tool", "calls", "deny", "ask", "allow", "abstain")
	for _, k := range tools {
		c := t.tools[k]
		fmt.Fprintf(w, "%-*s %8d %8d %8d %8d %8d\n", width, k, sum(c), c[policy.Deny], c[policy.Ask], c[policy.Allow], c[policy.Abstain])
	}

	rules := sortedCounts(t.rules)
	fmt.Fprintf(w, "\n%8s  %s\n", "calls", "decided by (rule, class or mode, and where it is set)")
	for i, k := range rules {
		if i == top {
			fmt.Fprintf(w, "%8s  %d more\n", "...", len(rules)-top)
			break
		}
		src := k[1]
		if src == "" {
			src = "built in"
		}
		fmt.Fprintf(w, "%8d  %s (%s)\n", t.rules[k], k[0], src)
	}

	if t.refusedCalls > 0 {
		refused := sortedCounts(t.refused)
		fmt.Fprintf(w, "\n%8s  refused when they ran (--refusals: %d call%s), by rule and target\n", "times", t.refusedCalls, plural(t.refusedCalls))
		for i, k := range refused {
			if i == top {
				fmt.Fprintf(w, "%8s  %d more\n", "...", len(refused)-top)
				break
			}
			fmt.Fprintf(w, "%8d  %s %s\n", t.refused[k], k[0], k[1])
		}
	}

	paths := sortedCounts(t.paths)
	if len(paths) == 0 {
		fmt.Fprintln(w, "\nno path was denied or asked")
		return
	}
	fmt.Fprintf(w, "\n%8s  %-8s%s\n", "calls", "", "top paths denied or asked")
	for i, k := range paths {
		if i == top {
			fmt.Fprintf(w, "%8s  %d more\n", "...", len(paths)-top)
			break
		}
		fmt.Fprintf(w, "%8d  %-6s  %s (%s)\n", t.paths[k], k[0], k[1], t.pathRule[k])
	}
	if t.unlisted > 0 {
		fmt.Fprintf(w, "%8d  calls on paths past the first %d distinct ones, not listed\n", t.unlisted, tallyMaxPaths)
	}
}

func sum(c *[4]int) int { return c[0] + c[1] + c[2] + c[3] }

// sortedCounts returns the keys of m, highest count first, then by key.
func sortedCounts(m map[[2]string]int) [][2]string {
	keys := make([][2]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
	})
	return keys
}

// cacheFS remembers every Lstat and ReadLink answer for a whole replay,
// for all workers: transcripts name the same few thousand paths again and
// again, and replay judges them against the file system as it is when it
// starts. At most cacheFSMax answers of each kind are kept.
type cacheFS struct {
	fs.ReadLinkFS
	lstat, link sync.Map // name -> cachedLstat, cachedLink
	n           atomic.Int64
}

// cacheFSMax bounds the answers kept (a few hundred bytes each).
const cacheFSMax = 1 << 20

type cachedLstat struct {
	fi  fs.FileInfo
	err error
}

type cachedLink struct {
	target string
	err    error
}

func newCacheFS(fsys fs.ReadLinkFS) *cacheFS { return &cacheFS{ReadLinkFS: fsys} }

func (c *cacheFS) Lstat(name string) (fs.FileInfo, error) {
	if r, ok := c.lstat.Load(name); ok {
		r := r.(cachedLstat)
		return r.fi, r.err
	}
	fi, err := c.ReadLinkFS.Lstat(name)
	if c.n.Add(1) <= cacheFSMax {
		c.lstat.Store(name, cachedLstat{fi, err})
	}
	return fi, err
}

func (c *cacheFS) ReadLink(name string) (string, error) {
	if r, ok := c.link.Load(name); ok {
		r := r.(cachedLink)
		return r.target, r.err
	}
	t, err := c.ReadLinkFS.ReadLink(name)
	if c.n.Add(1) <= cacheFSMax {
		c.link.Store(name, cachedLink{t, err})
	}
	return t, err
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
