package hookio

// Output conventions. Every byte safezone prints is decided here.
//
//   - stdout carries exactly one JSON object or nothing. Nothing means abstain:
//     the host's own permission rules decide. No other text ever goes to
//     stdout, so the host can never see a half-written or doubled answer.
//   - allow, ask and deny print Claude Code's PreToolUse decision object
//     (hooks reference, "PreToolUse decision control"):
//     {"hookSpecificOutput":{"hookEventName":"PreToolUse",
//     "permissionDecision":"deny","permissionDecisionReason":"..."}}.
//     The reason is read by the model (deny) or shown to the user (ask).
//   - A warning (a warned path class) adds hookSpecificOutput.additionalContext
//     for the model and a top-level systemMessage for the user. With abstain it
//     prints the object without permissionDecision.
//   - Reasons are lower case without a final period, and say what was blocked
//     (tool, path as given and as resolved), which rule or class decided and
//     where it is defined, and what to do instead.
//   - stderr gets human-readable lines prefixed "safezone: ": the reason of an
//     error decision and usage errors. The host shows stderr to the model only
//     when the exit status is 2.
//   - Exit status: 0 for every decision, 2 for a deny caused by an error
//     (unusable input, flags or policy: exit 2 blocks even if the host lost
//     stdout). Never 1: the host treats exit 1 as "hook failed, run the tool".

import (
	"bytes"
	"encoding/json"

	"github.com/safezonehq/safezone/policy"
)

// Output is one decision as the host will see it.
type Output struct {
	Decision policy.Decision
	Reason   string // permissionDecisionReason; may be empty for allow
	Warning  string // optional: additionalContext for the model, systemMessage for the user
	// Error marks a decision forced by an error (unusable input, flags or
	// policy: on_error); hosts may need another exit status for it.
	Error bool
	// UpdatedInput, when set, is the tool's whole input as the tool must
	// run it (a Bash command rewritten to run confined): Claude Code's
	// hookSpecificOutput.updatedInput, printed even with abstain.
	UpdatedInput json.RawMessage
	// Context is for the model only: hookSpecificOutput.additionalContext
	// (after Warning's).
	Context string
	// Event is the host event the output answers when it is not the one
	// before a tool runs: Gemini CLI's "AfterTool", which only carries
	// Context (see [Gemini]).
	Event string
}

// Decision values under short names for the host adapters.
const (
	policyDeny    = policy.Deny
	policyAsk     = policy.Ask
	policyAllow   = policy.Allow
	policyAbstain = policy.Abstain
)

// EncodeClaude returns the bytes to print for o in Claude Code's format,
// ending in a newline, or nil for an abstain without a warning. A Decision
// outside the four known values encodes as deny. The object's shape is
// fixed, so it is written directly and only its strings go through
// encoding/json (a reflective encode of the whole struct costs a cold
// process some 80 µs).
func EncodeClaude(o Output) []byte { return encodeClaude(o, o.Warning) }

// encodeClaude is EncodeClaude with the top-level systemMessage (for the
// user) given: "" for none.
func encodeClaude(o Output, sysMsg string) []byte {
	var decision, reason string
	switch o.Decision {
	case policy.Abstain:
		if o.Warning == "" && o.UpdatedInput == nil && o.Context == "" && sysMsg == "" {
			return nil
		}
	case policy.Allow, policy.Ask:
		decision, reason = o.Decision.String(), o.Reason
	default:
		decision, reason = policy.Deny.String(), o.Reason
		if reason == "" {
			reason = "denied by safezone"
		}
	}
	b := make([]byte, 0, 128+len(reason)+len(o.Warning)+len(sysMsg)+len(o.UpdatedInput)+len(o.Context))
	b = append(b, `{"hookSpecificOutput":{"hookEventName":"PreToolUse"`...)
	if decision != "" {
		b = append(b, `,"permissionDecision":`...)
		b = appendJSONString(b, decision)
		if reason != "" {
			b = append(b, `,"permissionDecisionReason":`...)
			b = appendJSONString(b, reason)
		}
	}
	if o.UpdatedInput != nil {
		b = append(b, `,"updatedInput":`...)
		b = append(b, o.UpdatedInput...)
	}
	if context := joinNonEmpty(o.Warning, o.Context); context != "" {
		b = append(b, `,"additionalContext":`...)
		b = appendJSONString(b, context)
	}
	b = append(b, '}')
	if sysMsg != "" {
		b = append(b, `,"systemMessage":`...)
		b = appendJSONString(b, sysMsg)
	}
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string, escaped by encoding/json but
// without HTML escaping ("<topic>" stays readable).
func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		// A string always encodes; never print a broken object.
		return append(b, `"safezone: internal error encoding a message"`...)
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
