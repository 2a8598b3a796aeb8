package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

type call struct {
	line                     int
	session, cwd, mode, root string
	id, name, input          string
}

func readAll(t testing.TB, r *Reader) []call {
	t.Helper()
	var out []call
	for {
		u, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, call{u.Line, Str(u.SessionID), Str(u.Cwd), Str(u.PermissionMode), Str(u.ProjectDir), Str(u.ID), Str(u.Name), string(u.Input)})
	}
}

// TestRealTranscript reads the Claude Code 2.1.330 transcript in ../shared:
// six tool calls (two of them parallel, in separate records), the mode from
// the user records, the cwd from each record; no line is malformed.
func TestRealTranscript(t *testing.T) {
	f, err := os.Open("../../shared/samples/claude-code/transcripts/session-acceptEdits.jsonl")
	if err != nil {
		t.Skip("../shared/samples is absent: the real transcript is not checked")
	}
	defer f.Close()
	r := NewReader(f)
	got := readAll(t, r)
	want := []call{
		{6, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_00_0", "Read", `{"file_path":"/home/dev/work/proj/README.md"}`},
		{10, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_01_0", "Read", `{"file_path":"/home/dev/work/proj/.env"}`},
		{13, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_02_0", "Bash", `{"command":"ls -la && cat ../secret","description":"look around"}`},
		{14, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_02_1", "Write", `{"file_path":"/home/dev/work/proj/notes.md","content":"notes\n"}`},
		{21, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_03_0", "Edit", `{"replace_all":false,"file_path":"/home/dev/work/proj/README.md","old_string":"hello","new_string":"hello world"}`},
		{23, "", "/home/dev/work/proj", "acceptEdits", "/home/dev/work/proj", "toolu_fake_04_0", "Write", `{"file_path":"../outside.txt","content":"x\n"}`},
	}
	for i := range got {
		got[i].session = "" // one session throughout; checked below
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
	st := r.Stats()
	if st.Lines != 27 || st.Records != 27 || st.Malformed != 0 || st.ToolUses != 6 {
		t.Errorf("stats %+v", st)
	}
}

func TestReader(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"queue-operation","sessionId":"s1","content":"x"}`,
		`{"type":"user","sessionId":"s1","cwd":"/p","permissionMode":"plan","message":{"content":[{"type":"tool_use","id":"t0","name":"Read","input":{}}]}}`,
		``,
		`{"type":"assistant","sessionId":"s1","cwd":"/p/sub","message":{"content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a\"b"}},{"type":"tool_use","id":"t2","name":"Glob","input":{"pattern":"**"}}]}}`,
		`{"type":"assistant", "sessionId": "s1"`,
		`not json`,
		`{"type":"brand-new-type","sessionId":"s1","permissionMode":"acceptEdits","payload":[1,2.5e3,true,null,{"a":[]}]}`,
		`{"message":{"content":[{"type":"tool_use","id":"t3","name":"Write","input":{"file_path":"x"}}]},"type":"assistant","sessionId":"s1","cwd":"/p"}` + "\r",
		`{"type":"assistant","sessionId":"s2","cwd":"/q","message":{"content":[{"type":"tool_use","id":"t4","name":"Bash"},{"type":"tool_use","id":7,"name":"Bash","input":{}}]}}`,
		`{"type":"assistant","cwd":"/r","message":{"content":[{"type":"tool_use","id":"t5","name":"LS","input":{"path":"."}}]}}`,
		`[]`,
		`{"type":"assistant"} {}`,
	}, "\n")
	r := NewReader(strings.NewReader(in))
	got := readAll(t, r)
	want := []call{
		{4, "s1", "/p/sub", "plan", "/p", "t1", "Read", `{"file_path":"a\"b"}`},
		{4, "s1", "/p/sub", "plan", "/p", "t2", "Glob", `{"pattern":"**"}`},
		{8, "s1", "/p", "acceptEdits", "/p", "t3", "Write", `{"file_path":"x"}`},
		{10, "", "/r", "", "/r", "t5", "LS", `{"path":"."}`},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got\n%v\nwant\n%v", got, want)
	}
	st := r.Stats()
	want2 := Stats{Lines: 12, Bytes: int64(len(in)), Records: 7, Malformed: 4, ToolUses: 4, BadToolUses: 2}
	if st != want2 {
		t.Errorf("stats %+v, want %+v", st, want2)
	}
}

// TestLongLines: a line over the limit is skipped without being held; the
// lines around it are read; a last line without a newline counts.
func TestLongLines(t *testing.T) {
	tool := `{"type":"assistant","cwd":"/p","message":{"content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"f"}}]}}`
	long := `{"type":"user","x":"` + strings.Repeat("y", 5000) + `"}`
	in := tool + "\n" + long + "\n" + tool + "\n" + long + "\n" + tool
	r := NewReader(nil)
	r.r, r.max = bufio.NewReaderSize(strings.NewReader(in), 64), 1000
	got := readAll(t, r)
	if len(got) != 3 || got[2].line != 5 {
		t.Errorf("calls %v", got)
	}
	if st := r.Stats(); st.TooLong != 2 || st.Lines != 5 || st.Malformed != 0 {
		t.Errorf("stats %+v", st)
	}
	// The same with a limit the long lines fit: they are read across
	// several buffers.
	r = NewReader(nil)
	r.r, r.max = bufio.NewReaderSize(strings.NewReader(in), 64), 10000
	if got := readAll(t, r); len(got) != 3 {
		t.Errorf("calls %v", got)
	}
	if st := r.Stats(); st.TooLong != 0 || st.Records != 5 {
		t.Errorf("stats %+v", st)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestReadError(t *testing.T) {
	if _, err := NewReader(errReader{}).Next(); err == nil || err == io.EOF {
		t.Errorf("a read error is returned: %v", err)
	}
}

func TestStr(t *testing.T) {
	for tok, want := range map[string]string{`"a"`: "a", `"a\"b\u00e9"`: "a\"bé", `""`: "", ``: "", `"\x"`: ""} {
		if got := Str([]byte(tok)); got != want {
			t.Errorf("Str(%s) = %q, want %q", tok, got, want)
		}
	}
}

// reference reads a record the slow way, with encoding/json, for
// FuzzRecord. Keys are matched exactly (a map, not a struct).
func reference(line []byte) (record, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil {
		return record{}, false
	}
	str := func(raw json.RawMessage) []byte {
		if len(raw) > 0 && raw[0] == '"' {
			return raw
		}
		return nil
	}
	rec := record{typ: str(top["type"]), sessionID: str(top["sessionId"]), cwd: str(top["cwd"]), mode: str(top["permissionMode"]), timestamp: str(top["timestamp"])}
	var msg map[string]json.RawMessage
	if json.Unmarshal(top["message"], &msg) == nil {
		var blocks []json.RawMessage
		if c := msg["content"]; len(c) > 0 && c[0] == '[' && json.Unmarshal(c, &blocks) == nil {
			for _, b := range blocks {
				var m map[string]json.RawMessage
				if len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &m) == nil && string(m["type"]) == `"tool_use"` {
					u := use{id: str(m["id"]), name: str(m["name"])}
					if in, ok := m["input"]; ok {
						u.input = in
					}
					rec.uses = append(rec.uses, u)
				}
			}
		}
	}
	return rec, true
}

// FuzzRecord checks the scanner against encoding/json: it accepts exactly
// the lines json.Valid accepts (objects only; nesting past maxDepth is
// refused) and finds the same fields.
//
//	go test ./transcript -run '^$' -fuzz FuzzRecord -fuzztime 60s
func FuzzRecord(f *testing.F) {
	for _, s := range []string{
		`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"x"}}]}}`,
		`{"type":"user","permissionMode":"plan","message":{"role":"user","content":"hi"}}`,
		`{"a":[1,-0.5e+3,true,false,null,"\u00e9\n"],"type":7,"message":[]}`,
		`{"message":{"content":[{"type":"tool_use","input":[1,{"x":"y"}],"input":"z"},{"type":"text"}]},"type":"assistant"}`,
		`{"x":01}`, `{"x":1.}`, `{"x":"\q"}`, "{\"x\":\"\t\"}", `{"x":tru}`, `{} x`, `{"a" 1}`, `{,}`, `{"a":1,}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var rec record
		err := rec.parse(line)
		trimmed := bytes.TrimLeft(line, " \t\r\n")
		valid := json.Valid(line) && len(trimmed) > 0 && trimmed[0] == '{'
		if (err == nil) != valid && !errors.Is(err, errTooDeep) {
			t.Fatalf("scanner error %v, json.Valid %v: %q", err, valid, line)
		}
		if err != nil || bytes.IndexByte(line, '\\') >= 0 {
			return // keys with escapes are matched as written (see the package doc)
		}
		want, _ := reference(line)
		got := fmt.Sprintf("%q", [][]byte{rec.typ, rec.sessionID, rec.cwd, rec.mode, rec.timestamp})
		if exp := fmt.Sprintf("%q", [][]byte{want.typ, want.sessionID, want.cwd, want.mode, want.timestamp}); got != exp {
			t.Fatalf("fields %s, want %s: %q", got, exp, line)
		}
		if len(rec.uses) != len(want.uses) {
			t.Fatalf("%d tool uses, want %d: %q", len(rec.uses), len(want.uses), line)
		}
		for i := range rec.uses {
			if fmt.Sprintf("%q", rec.uses[i]) != fmt.Sprintf("%q", want.uses[i]) {
				t.Fatalf("use %d: %q, want %q: %q", i, rec.uses[i], want.uses[i], line)
			}
		}
	})
}

func TestCheckFormat(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"claude", `{"type":"user","sessionId":"s","cwd":"/p","message":{"content":"hi"}}` + "\n", ""},
		{"empty", "", ""},
		{"codex", `{"timestamp":"2026-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x","cwd":"/p"}}` + "\n", "Codex session log"},
		{"gemini session", `{"sessionId":"x","projectHash":"h","messages":[{"type":"user","content":"hi"}]}`, "Gemini CLI session"},
		{"gemini chat", "{\n  \"projectHash\": \"h\",\n  \"messages\": []\n}", "Gemini CLI session"},
		{"gemini log", `[{"sessionId":"x","type":"user","message":"hi"}]`, "JSON array"},
	} {
		f := strings.NewReader(tt.data)
		err := CheckFormat(f)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
		if pos, _ := f.Seek(0, io.SeekCurrent); pos != 0 {
			t.Errorf("%s: not rewound (at %d)", tt.name, pos)
		}
	}
}

// TestSessionsInherit: a record without cwd takes its session's last one;
// a subagent's transcript read after its session's takes the session's
// mode; an approved ExitPlanMode leaves plan mode, a refused one does not.
func TestSessionsInherit(t *testing.T) {
	main := strings.Join([]string{
		`{"type":"user","sessionId":"s","cwd":"/p","permissionMode":"plan","message":{"content":"go"}}`,
		`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a"}}]}}`,
		`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"content":[{"type":"tool_use","id":"t2","name":"ExitPlanMode","input":{}}]}}`,
		`{"type":"user","sessionId":"s","cwd":"/p","message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"no"}]}}`,
		`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"content":[{"type":"tool_use","id":"t3","name":"Write","input":{"file_path":"b","content":""}}]}}`,
		`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"content":[{"type":"tool_use","id":"t4","name":"ExitPlanMode","input":{}}]}}`,
		`{"type":"user","sessionId":"s","cwd":"/p/sub","message":{"content":[{"type":"tool_result","tool_use_id":"t4","content":"ok"}]}}`,
		`{"type":"assistant","sessionId":"s","message":{"content":[{"type":"tool_use","id":"t5","name":"Write","input":{"file_path":"c","content":""}}]}}`,
	}, "\n")
	sub := `{"type":"assistant","sessionId":"s","isSidechain":true,"cwd":"/p","message":{"content":[{"type":"tool_use","id":"t6","name":"Write","input":{"file_path":"d","content":""}}]}}`
	sessions := NewSessions()
	got := map[string]string{}
	for _, data := range []string{main, sub} {
		r := NewSharedReader(strings.NewReader(data), sessions)
		for {
			u, err := r.Next()
			if err != nil {
				break
			}
			got[Str(u.ID)] = Str(u.PermissionMode) + " " + Str(u.Cwd)
		}
	}
	want := map[string]string{"t1": "plan /p", "t2": "plan /p", "t3": "plan /p", "t4": "plan /p", "t5": "default /p/sub", "t6": "default /p"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
}
