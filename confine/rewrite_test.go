package confine

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// claudeStdinCheck is Claude Code 2.1.330's test for a command that takes
// its stdin from a file (then it does not append `< /dev/null`).
var claudeStdinCheck = regexp.MustCompile(`(?:^|[\s;&|])<[^<(]`)

func TestRewriteText(t *testing.T) {
	rs := Ruleset{Write: []string{"/p", "/it's"}, NoRead: []string{"/h/.ssh"}}
	for _, cmd := range []string{"echo hi", "cat <<'EOF'\nx\nEOF", "a < b", "", "printf '%s' \"$x\" `y`"} {
		got, err := rewrite(cmd, "/usr/local/bin/safe zone", rs)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(got, "<<") {
			t.Errorf("rewrite(%q) holds a here-document, which makes Claude Code leave stdin open:\n%s", cmd, got)
		}
		if claudeStdinCheck.MatchString(got) {
			t.Errorf("rewrite(%q) holds a stdin redirection that makes Claude Code leave stdin open:\n%s", cmd, got)
		}
		if !strings.Contains(got, "'/usr/local/bin/safe zone' "+Subcommand+" bash '") {
			t.Errorf("rewrite(%q) does not call the launcher quoted:\n%s", cmd, got)
		}
		if strings.Contains(got, "TMPDIR") || strings.Contains(got, "/tmp") {
			t.Errorf("rewrite(%q) passes the shell state through a path in a shared directory:\n%s", cmd, got)
		}
	}
}

func TestRewriteRefuses(t *testing.T) {
	rs := Ruleset{Write: []string{"/p"}}
	if _, err := Rewrite("echo a\x00b", "/bin/safezone", rs); !errors.Is(err, ErrCommand) {
		t.Errorf("a NUL byte: %v, want ErrCommand", err)
	}
	if _, err := Rewrite(strings.Repeat("x", 100<<10), "/bin/safezone", rs); !errors.Is(err, ErrCommand) {
		t.Errorf("a 100 KiB command: %v, want ErrCommand", err)
	}
	if _, err := Rewrite(strings.Repeat("x", 90<<10), "/bin/safezone", rs); err != nil {
		t.Errorf("a 90 KiB command: %v", err)
	}
	if _, err := Rewrite("true", "safezone", rs); err == nil {
		t.Error("a relative launcher path is accepted")
	}
	if _, err := Rewrite("true", "/bin/safezone", Ruleset{Write: []string{"p"}}); !errors.Is(err, ErrBadRuleset) {
		t.Errorf("a bad ruleset: %v, want ErrBadRuleset", err)
	}
}

// TestRewritePOSIXText checks the one simple command RewritePOSIX writes:
// the launcher and every argument single-quoted but "$0", the command
// carried as it is.
func TestRewritePOSIXText(t *testing.T) {
	rs := Ruleset{Write: []string{"/p", "/it's"}, NoRead: []string{"/h/.ssh"}}
	for _, cmd := range []string{"echo hi", "cat <<'EOF'\nx\nEOF", "a 'b' \"$c\" `d`", ""} {
		got, err := RewritePOSIX(cmd, "/usr/local/bin/safe zone", rs)
		if err != nil {
			t.Fatal(err)
		}
		want := "exec '/usr/local/bin/safe zone' " + Subcommand + ` exec '{"write":["/p","/it'\''s"],"noread":["/h/.ssh"]}' "$0" -c ` + shellQuote(cmd)
		if got != want {
			t.Errorf("RewritePOSIX(%q)\n got %s\nwant %s", cmd, got, want)
		}
	}
}

func TestRewritePOSIXRefuses(t *testing.T) {
	rs := Ruleset{Write: []string{"/p"}}
	if _, err := RewritePOSIX("echo a\x00b", "/bin/safezone", rs); !errors.Is(err, ErrCommand) {
		t.Errorf("a NUL byte: %v, want ErrCommand", err)
	}
	if _, err := RewritePOSIX(strings.Repeat("x", 125<<10), "/bin/safezone", rs); !errors.Is(err, ErrCommand) {
		t.Errorf("a 125 KiB command: %v, want ErrCommand", err)
	}
	if _, err := RewritePOSIX(strings.Repeat("'", 40<<10), "/bin/safezone", rs); !errors.Is(err, ErrCommand) {
		t.Errorf("40 KiB of quotes (160 KiB quoted): %v, want ErrCommand", err)
	}
	if _, err := RewritePOSIX(strings.Repeat("x", 120<<10), "/bin/safezone", rs); err != nil {
		t.Errorf("a 120 KiB command: %v", err)
	}
	if _, err := RewritePOSIX("true", "safezone", rs); err == nil {
		t.Error("a relative launcher path is accepted")
	}
	if _, err := RewritePOSIX("true", "/bin/safezone", Ruleset{Write: []string{"p"}}); !errors.Is(err, ErrBadRuleset) {
		t.Errorf("a bad ruleset: %v, want ErrBadRuleset", err)
	}
}

// geminiSubstitution is Gemini CLI 0.61.0's detectBashSubstitution (its
// bundle, "Command injection detected"): $( outside single quotes, <( or >(
// outside quotes, a backquote outside single quotes, a backslash escaping
// the next character (inside double quotes only $ ` " \ and newline).
func geminiSubstitution(cmd string) bool {
	single, double := false, false
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'' && !double:
			single = !single
			continue
		case c == '"' && !single:
			double = !double
			continue
		case single:
			continue
		case c == '\\' && i+1 < len(cmd):
			if !double || strings.IndexByte("$`\"\\\n", cmd[i+1]) >= 0 {
				i++
				continue
			}
		}
		next := byte(0)
		if i+1 < len(cmd) {
			next = cmd[i+1]
		}
		if c == '$' && next == '(' || !double && (c == '<' || c == '>') && next == '(' || c == '`' {
			return true
		}
	}
	return false
}

// TestRewriteBashText: the form for Gemini CLI holds nothing its command
// injection check refuses (the form for Claude Code does: a process
// substitution), and runs the launcher with no state.
func TestRewriteBashText(t *testing.T) {
	rs := Ruleset{Write: []string{"/p", "/it's"}, NoRead: []string{"/h/.ssh"}}
	for _, cmd := range []string{"echo hi", "echo $(date) `x` <(y)", "cat <<'EOF'\nx\nEOF", ""} {
		got, err := RewriteBash(cmd, "/usr/local/bin/safe zone", rs)
		if err != nil {
			t.Fatal(err)
		}
		if geminiSubstitution(got) {
			t.Errorf("RewriteBash(%q) holds what Gemini CLI refuses:\n%s", cmd, got)
		}
		if !strings.Contains(got, "'/usr/local/bin/safe zone' "+Subcommand+" bash '") || !strings.Contains(got, `' - "$BASH" "$0" '`) {
			t.Errorf("RewriteBash(%q) does not run the launcher without state:\n%s", cmd, got)
		}
	}
	if claude, _ := Rewrite("echo hi", "/bin/safezone", rs); !geminiSubstitution(claude) {
		t.Error("the check finds no process substitution in Rewrite's form: it checks nothing")
	}
}
