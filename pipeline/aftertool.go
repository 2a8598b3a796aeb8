package pipeline

import (
	"strings"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/hookio"
)

// modelContext is what the model is told of a confined command: where it
// may write, what it cannot read or change, and not to work around it.
func (c *confinement) modelContext(home string) string {
	return "safezone: this command " + strings.TrimPrefix(c.describe(home), "it ") +
		"; an access beyond that fails with \"Permission denied\", \"Read-only file system\" or \"Device or resource busy\": do not work around it, ask the user if the command needs more"
}

// afterToolContext is what the model is told after a shell command ran
// (Gemini CLI's AfterTool, whose BeforeTool has no additionalContext): for
// a command safezone rewrote to run confined, modelContext of the ruleset
// the command carries; "" for any other call.
func afterToolContext(call *hookio.Call, home string) string {
	if call.Kind != hookio.KindShell {
		return ""
	}
	rs, ok := confinedRuleset(call.Command)
	if !ok {
		return ""
	}
	return (&confinement{Ruleset: rs}).modelContext(home)
}

// confinedRuleset returns the ruleset of a command in confine.Rewrite's or
// confine.RewritePOSIX's form: the single-quoted word (a ' inside written
// '\”) after the launcher's "__confine bash " or "__confine exec ".
func confinedRuleset(command string) (confine.Ruleset, bool) {
	for _, mode := range []string{"bash", "exec"} {
		marker := " " + confine.Subcommand + " " + mode + " '"
		i := strings.Index(command, marker)
		if i < 0 {
			continue
		}
		var word strings.Builder
		rest := command[i+len(marker):]
		for {
			j := strings.IndexByte(rest, '\'')
			if j < 0 {
				return confine.Ruleset{}, false
			}
			word.WriteString(rest[:j])
			if !strings.HasPrefix(rest[j:], `'\''`) {
				break
			}
			word.WriteByte('\'')
			rest = rest[j+4:]
		}
		rs, err := confine.ParseRuleset(word.String())
		return rs, err == nil
	}
	return confine.Ruleset{}, false
}
