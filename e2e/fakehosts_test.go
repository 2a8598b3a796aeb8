//go:build e2e

package e2e

// The fake model APIs of Codex CLI, Gemini CLI and Copilot CLI, just
// enough for a scripted session offline (the findings of
// ../shared/hosts-e2e, measured with Codex 0.171.0, Gemini CLI 0.61.0 and
// Copilot CLI 1.0.102):
//
//   - Codex: POST .../responses (a custom model_provider with wire_api
//     "responses"), answered with server-sent events: response.created,
//     response.output_item.done carrying a function_call (exec_command) or
//     a custom_tool_call (apply_patch), or an assistant message, then
//     response.completed with a usage. Turn i answers a request that
//     carries i tool outputs (function_call_output, custom_tool_call_output).
//   - Gemini: POST /v1beta/models/MODEL:streamGenerateContent?alt=sse
//     (GOOGLE_GEMINI_BASE_URL), one "data:" chunk with a functionCall or a
//     text part; :generateContent the same chunk as JSON; :countTokens a
//     count. A request without tools (routing, next-speaker checks) gets
//     JSON text. Turn i answers a request that carries i functionResponse
//     parts.
//   - Copilot (BYOK: COPILOT_PROVIDER_BASE_URL, wire API "completions"):
//     POST .../chat/completions, answered, when the request asks for a
//     stream, with chat.completion.chunk events ending in "data: [DONE]":
//     one delta carrying a tool_calls entry (a function call, or a custom
//     tool call for apply_patch, which Copilot offers gpt-5 models), or
//     the final text. A request without tools gets a text. Turn i answers
//     a request that carries i "tool" messages.
//
// Every tool output the host sends back is kept, in order of first sight:
// what the model saw.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// hostTurn is one scripted answer of the model: a tool call (Tool with
// Args, or a Codex custom tool with Input), or the final text.
type hostTurn struct {
	Tool  string
	Args  map[string]any
	Input string // a Codex custom (freeform) tool's input: apply_patch's patch
}

// fakeHostAPI serves one session's scripted turns for host "codex" or
// "gemini".
type fakeHostAPI struct {
	host  string
	turns []hostTurn

	mu      sync.Mutex
	outputs []string // every tool output sent back, in order of first sight
	seen    map[string]bool
	bodies  []string // every request body
	srv     *http.Server
}

func newFakeHostAPI(host string, turns []hostTurn) *fakeHostAPI {
	return &fakeHostAPI{host: host, turns: turns, seen: map[string]bool{}}
}

// start listens on a free loopback port and returns the base URL.
func (a *fakeHostAPI) start() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	a.srv = &http.Server{Handler: a}
	go a.srv.Serve(ln)
	return "http://" + ln.Addr().String(), nil
}

func (a *fakeHostAPI) close() { a.srv.Close() }

// results returns the tool outputs the host sent back, in order.
func (a *fakeHostAPI) results() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.outputs...)
}

// requests returns every request body the host sent.
func (a *fakeHostAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.bodies...)
}

// saw records one tool output under its id, once.
func (a *fakeHostAPI) saw(id, output string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.seen[id] {
		a.seen[id] = true
		a.outputs = append(a.outputs, output)
	}
}

// turn returns turn n, or the final text past the script.
func (a *fakeHostAPI) turn(n int) hostTurn {
	if n < len(a.turns) {
		return a.turns[n]
	}
	return hostTurn{}
}

func (a *fakeHostAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	a.mu.Lock()
	a.bodies = append(a.bodies, string(body))
	a.mu.Unlock()
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	switch {
	case r.Method == http.MethodPost && a.host == "codex" && strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/responses"):
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, a.codex(req))
	case r.Method == http.MethodPost && a.host == "gemini" && strings.Contains(r.URL.Path, "/models/"):
		a.gemini(w, r.URL.Path, req)
	case r.Method == http.MethodPost && a.host == "copilot" && strings.HasSuffix(strings.TrimSuffix(r.URL.Path, "/"), "/chat/completions"):
		a.copilot(w, req)
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"models":[]}`)
	}
}

// codex answers one Responses API request.
func (a *fakeHostAPI) codex(req map[string]any) string {
	if req["tools"] == nil {
		return codexSSE(codexMessage("ok"))
	}
	n := 0
	items, _ := req["input"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		if t := m["type"]; t == "function_call_output" || t == "custom_tool_call_output" {
			n++
			out, ok := m["output"].(string)
			if !ok {
				b, _ := json.Marshal(m["output"])
				out = string(b)
			}
			a.saw(fmt.Sprint(m["call_id"]), out)
		}
	}
	t := a.turn(n)
	id := fmt.Sprintf("call_%d", n)
	switch {
	case t.Tool == "":
		return codexSSE(codexMessage("done"))
	case t.Input != "":
		return codexSSE(map[string]any{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": id, "name": t.Tool, "input": t.Input})
	}
	args, _ := json.Marshal(t.Args)
	return codexSSE(map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "name": t.Tool, "arguments": string(args)})
}

func codexMessage(text string) map[string]any {
	return map[string]any{"type": "message", "role": "assistant", "id": "msg_1",
		"content": []any{map[string]any{"type": "output_text", "text": text}}}
}

// codexSSE is the event stream of a response holding item.
func codexSSE(item map[string]any) string {
	events := []map[string]any{
		{"type": "response.created", "response": map[string]any{"id": "resp_1"}},
		{"type": "response.output_item.done", "item": item},
		{"type": "response.completed", "response": map[string]any{"id": "resp_1", "usage": map[string]any{
			"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}},
	}
	var b strings.Builder
	for _, e := range events {
		data, _ := json.Marshal(e)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", e["type"], data)
	}
	return b.String()
}

// gemini answers one Gemini API request.
func (a *fakeHostAPI) gemini(w http.ResponseWriter, path string, req map[string]any) {
	if strings.Contains(path, ":countTokens") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
		return
	}
	stream := strings.Contains(path, ":streamGenerateContent")
	if req["tools"] == nil {
		cfg, _ := req["generationConfig"].(map[string]any)
		text := "ok"
		if cfg != nil && (cfg["responseMimeType"] == "application/json" || cfg["responseJsonSchema"] != nil || cfg["responseSchema"] != nil) {
			text = `{"reasoning": "scripted", "next_speaker": "user", "model_choice": "flash"}`
		}
		geminiReply(w, map[string]any{"text": text}, stream)
		return
	}
	n := 0
	contents, _ := req["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			if fr, ok := pm["functionResponse"].(map[string]any); ok {
				n++
				var out bytes.Buffer
				enc := json.NewEncoder(&out)
				enc.SetEscapeHTML(false) // as sent: "<hook_context>" stays readable
				enc.Encode(fr["response"])
				id, _ := fr["id"].(string)
				if id == "" {
					id = fmt.Sprintf("%v#%d", fr["name"], n)
				}
				a.saw(id, strings.TrimSuffix(out.String(), "\n"))
			}
		}
	}
	t := a.turn(n)
	if t.Tool == "" {
		geminiReply(w, map[string]any{"text": "done"}, stream)
		return
	}
	geminiReply(w, map[string]any{"functionCall": map[string]any{"name": t.Tool, "args": t.Args}}, stream)
}

// geminiReply writes one candidate holding part, as an event stream or as
// JSON.
func geminiReply(w http.ResponseWriter, part map[string]any, stream bool) {
	chunk, _ := json.Marshal(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-flash",
	})
	if stream {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\r\n\r\n", chunk)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(chunk)
}

// copilot answers one chat completions request.
func (a *fakeHostAPI) copilot(w http.ResponseWriter, req map[string]any) {
	stream, _ := req["stream"].(bool)
	if req["tools"] == nil {
		chatReply(w, map[string]any{"content": "ok"}, "stop", stream)
		return
	}
	n := 0
	msgs, _ := req["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] != "tool" {
			continue
		}
		n++
		var out string
		switch c := mm["content"].(type) {
		case string:
			out = c
		case []any: // content parts
			for _, p := range c {
				pm, _ := p.(map[string]any)
				t, _ := pm["text"].(string)
				out += t
			}
		default:
			b, _ := json.Marshal(c)
			out = string(b)
		}
		a.saw(fmt.Sprint(mm["tool_call_id"]), out)
	}
	t := a.turn(n)
	id := fmt.Sprintf("call_%d", n)
	switch {
	case t.Tool == "":
		chatReply(w, map[string]any{"content": "done"}, "stop", stream)
	case t.Input != "":
		chatReply(w, map[string]any{"content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "custom",
			"custom": map[string]any{"name": t.Tool, "input": t.Input}}}}, "tool_calls", stream)
	default:
		args, _ := json.Marshal(t.Args)
		chatReply(w, map[string]any{"content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": id, "type": "function",
			"function": map[string]any{"name": t.Tool, "arguments": string(args)}}}}, "tool_calls", stream)
	}
}

// chatReply writes one assistant message, as chat.completion.chunk events
// or as one chat.completion.
func chatReply(w http.ResponseWriter, msg map[string]any, finish string, stream bool) {
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	msg["role"] = "assistant"
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4.1",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		w.Write(b)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4.1"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, c := range []map[string]any{
		base(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": msg, "finish_reason": nil}}}),
		base(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}}),
		base(map[string]any{"choices": []any{}, "usage": usage}),
	} {
		b, _ := json.Marshal(c)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	io.WriteString(w, "data: [DONE]\n\n")
}
