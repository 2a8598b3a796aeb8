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
	"encoding/json"
	"io"

	"safezone/policy"
)

// Output is one decision as the host will see it.
type Output struct {
	Decision policy.Decision
	Reason   string // permissionDecisionReason; may be empty for allow
	Warning  string // optional: additionalContext for the model, systemMessage for the user
}

type claudeSpecific struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

type claudeOutput struct {
	HookSpecificOutput claudeSpecific `json:"hookSpecificOutput"`
	SystemMessage      string         `json:"systemMessage,omitempty"`
}

// EncodeClaude returns the bytes to print for o in Claude Code's format,
// ending in a newline, or nil for an abstain without a warning. A Decision
// outside the four known values encodes as deny.
func EncodeClaude(o Output) []byte {
	spec := claudeSpecific{HookEventName: "PreToolUse", AdditionalContext: o.Warning}
	switch o.Decision {
	case policy.Abstain:
		if o.Warning == "" {
			return nil
		}
	case policy.Allow, policy.Ask:
		spec.PermissionDecision = o.Decision.String()
		spec.PermissionDecisionReason = o.Reason
	default:
		spec.PermissionDecision = policy.Deny.String()
		spec.PermissionDecisionReason = o.Reason
		if spec.PermissionDecisionReason == "" {
			spec.PermissionDecisionReason = "denied by safezone"
		}
	}
	b, err := marshal(claudeOutput{HookSpecificOutput: spec, SystemMessage: o.Warning})
	if err != nil {
		// Cannot happen for these string-only structs; still never print
		// something that is not a decision.
		return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"safezone: internal error encoding the decision"}}` + "\n")
	}
	return b
}

// marshal encodes v without HTML escaping ("<" stays "<" in reasons) and
// with a trailing newline.
func marshal(v any) ([]byte, error) {
	var buf jsonBuffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.b, nil
}

type jsonBuffer struct{ b []byte }

func (j *jsonBuffer) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }

// WriteClaude writes EncodeClaude(o) to w.
func WriteClaude(w io.Writer, o Output) error {
	b := EncodeClaude(o)
	if b == nil {
		return nil
	}
	_, err := w.Write(b)
	return err
}
