//go:build e2e

package e2e

// The fake Anthropic Messages API. It is just enough of the API for Claude
// Code to run a scripted session offline:
//
//   - POST /v1/messages, streaming (SSE) and non-streaming. Requests that
//     carry tools are the agent loop and get the next scripted turn; a
//     tool_use is streamed as content_block_start plus several
//     input_json_delta events, as the real API does. Requests without tools
//     (title generation, Bash prefix checks) get the text "ok".
//   - POST /v1/messages/count_tokens gets a token count.
//   - HEAD / (Claude Code's connectivity probe) and anything else get 200 {}.
//
// It listens on 127.0.0.1 only and keeps every request body, so the test can
// read the tool_result blocks Claude Code sent back to the "model".

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// turn is one scripted answer of the model: tool calls, or text when Tool is
// empty. Before runs once, when the API is about to send this turn (that is,
// after every earlier tool call finished), to change the world between calls.
type turn struct {
	Tool   string
	Input  any // marshalled as the tool_use input
	Text   string
	Before func() error
}

// fakeAPI serves one session's scripted turns.
type fakeAPI struct {
	turns []turn

	mu       sync.Mutex
	bodies   [][]byte // every POST /v1/messages body, in order
	ran      map[int]bool
	beforeEr error
	srv      *http.Server
}

func newFakeAPI(turns []turn) *fakeAPI {
	return &fakeAPI{turns: turns, ran: map[int]bool{}}
}

// start listens on a free loopback port and returns the base URL.
func (a *fakeAPI) start() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	a.srv = &http.Server{Handler: a}
	go a.srv.Serve(ln)
	return "http://" + ln.Addr().String(), nil
}

func (a *fakeAPI) close() { a.srv.Close() }

// toolUseID is the id of the tool_use sent in turn i.
func toolUseID(i int) string { return fmt.Sprintf("toolu_e2e_%02d", i) }

func (a *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	w.Header().Set("request-id", "req_e2e")
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		a.mu.Lock()
		a.bodies = append(a.bodies, body)
		a.mu.Unlock()
		a.messages(w, body)
	case r.URL.Path == "/v1/messages/count_tokens":
		io.WriteString(w, `{"input_tokens":10}`)
	default:
		io.WriteString(w, `{}`)
	}
}

// request is the part of a Messages API request the fake reads.
type request struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

// contentBlock is one block of a message; content may be a string or blocks.
type contentBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func blocksOf(content json.RawMessage) []contentBlock {
	var bs []contentBlock
	if json.Unmarshal(content, &bs) != nil {
		return nil // plain string content
	}
	return bs
}

// next picks the turn to answer: turn i once i tool results exist.
func (a *fakeAPI) next(req *request) (turn, int) {
	n := 0
	for _, m := range req.Messages {
		for _, b := range blocksOf(m.Content) {
			if b.Type == "tool_result" {
				n++
			}
		}
	}
	if n >= len(a.turns) {
		return turn{Text: "done"}, n
	}
	return a.turns[n], n
}

func (a *fakeAPI) messages(w http.ResponseWriter, body []byte) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`)
		return
	}
	var t turn
	i := -1
	if len(req.Tools) == 0 {
		t = turn{Text: "ok"} // a side request, not the agent loop
	} else {
		t, i = a.next(&req)
	}
	if t.Before != nil {
		a.mu.Lock()
		if !a.ran[i] {
			a.ran[i] = true
			if err := t.Before(); err != nil && a.beforeEr == nil {
				a.beforeEr = err
			}
		}
		a.mu.Unlock()
	}

	var block map[string]any
	stop := "end_turn"
	if t.Tool != "" {
		input, err := json.Marshal(t.Input)
		if err != nil {
			input = []byte("{}")
		}
		block = map[string]any{"type": "tool_use", "id": toolUseID(i), "name": t.Tool, "input": json.RawMessage(input)}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": t.Text}
	}
	id := fmt.Sprintf("msg_e2e_%d", i+1)
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !req.Stream {
		json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant",
			"model": req.Model, "content": []any{block}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	event := func(name string, data map[string]any) {
		data["type"] = name
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	event("message_start", map[string]any{"message": map[string]any{"id": id, "type": "message",
		"role": "assistant", "model": req.Model, "content": []any{}, "stop_reason": nil,
		"stop_sequence": nil, "usage": usage}})
	if block["type"] == "tool_use" {
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}})
		// The real API streams the input as JSON fragments; so does the fake,
		// in small pieces, to exercise Claude Code's reassembly.
		js := string(block["input"].(json.RawMessage))
		for len(js) > 0 {
			k := min(len(js), 16)
			event("content_block_delta", map[string]any{"index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": js[:k]}})
			js = js[k:]
		}
	} else {
		event("content_block_start", map[string]any{"index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		event("content_block_delta", map[string]any{"index": 0, "delta": map[string]any{"type": "text_delta", "text": block["text"]}})
	}
	event("content_block_stop", map[string]any{"index": 0})
	event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	event("message_stop", map[string]any{})
}

// toolResult is what Claude Code sent back to the model for one tool_use.
type toolResult struct {
	IsError bool
	Text    string
}

// toolResults returns the tool_result blocks of every request, by tool_use id.
func (a *fakeAPI) toolResults() map[string]toolResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[string]toolResult{}
	for _, body := range a.bodies {
		var req request
		if json.Unmarshal(body, &req) != nil {
			continue
		}
		for _, m := range req.Messages {
			for _, b := range blocksOf(m.Content) {
				if b.Type == "tool_result" {
					out[b.ToolUseID] = toolResult{IsError: b.IsError, Text: resultText(b.Content)}
				}
			}
		}
	}
	return out
}

// resultText flattens a tool_result's content (a string or text blocks).
func resultText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(content, &parts)
	for _, p := range parts {
		if p.Type == "text" {
			s += p.Text
		} else {
			s += "[" + p.Type + "]"
		}
	}
	return s
}

// stats returns the number of POST /v1/messages requests served and the
// error of the first Before that failed.
func (a *fakeAPI) stats() (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.bodies), a.beforeEr
}
