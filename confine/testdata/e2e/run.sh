#!/usr/bin/env bash
# run.sh: checks the confine package under the real Claude Code CLI, offline,
# with the claude-e2e harness (shared/claude-e2e/run.sh): a throwaway hook
# (../e2ehook) allows every call and rewrites each Bash command with
# confine.Rewrite to run confined, through the hook binary as the launcher.
# Each case file here runs under it; the behaviour cases run under a plain
# allow hook too, and their results must match. Prints one line per check
# and "N passed, N failed"; exits 1 if a check failed.
#
# Needs: the harness (SAFEZONE_SHARED, default: the repository's ../shared),
# Claude Code (CLAUDE_E2E_CLAUDE, default: the 2.1.330 install under
# ~/.cache/safezone-e2e), go, jq, python3, Landlock and user namespaces.
# Without them it says what is missing and exits 0.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
shared=${SAFEZONE_SHARED:-$repo/../shared}
harness=$shared/claude-e2e/run.sh
claude=${CLAUDE_E2E_CLAUDE:-$HOME/.cache/safezone-e2e/claude-2.1.330/node_modules/@anthropic-ai/claude-code/bin/claude.exe}
skip() { echo "skip: $*"; exit 0; }
[ -x "$harness" ] || skip "no claude-e2e harness at $harness"
[ -x "$claude" ] || skip "no Claude Code at $claude (set CLAUDE_E2E_CLAUDE)"
for t in go jq python3; do command -v "$t" >/dev/null || skip "needs $t"; done

# The runs' roots must lie outside the temporary directory, which the hook's
# ruleset makes writable: ../x from the project must be outside everything.
work=$(mktemp -d "${SAFEZONE_E2E_ROOT:-$HOME}/confine-e2e.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
hook=$work/e2ehook
(cd "$repo" && CGO_ENABLED=0 go build -o "$hook" ./confine/testdata/e2ehook) || exit 2
export CLAUDE_E2E_CLAUDE=$claude CLAUDE_E2E_ROOT=$work CLAUDE_E2E_ARGS="--permission-mode bypassPermissions"
export CLAUDE_E2E_PREFIX=${CLAUDE_E2E_PREFIX:-$work/prefix}

passed=0 failed=0
# check NAME CASE JQ [same]: runs CASE under the confining hook and checks
# the result with the jq filter JQ; with "same", runs it under a plain allow
# hook too and requires the same result seen by the model.
check() {
	local name=$1 case=$here/$2 filter=$3 same=${4:-} out allow ok=1
	out=$("$harness" "$hook" "$case") || ok=0
	if [ $ok = 1 ] && ! jq -e "$filter" >/dev/null <<<"$out"; then ok=0; fi
	if [ $ok = 1 ] && [ "$same" = same ]; then
		allow=$("$harness" "$shared/claude-e2e/hooks/allow.sh" "$case") || ok=0
		# Each run has its own root, claude-e2e-NNN: compare without it.
		local norm='.tool_results | tostring | gsub("claude-e2e-[0-9]+"; "claude-e2e-N")'
		if [ "$(jq -c "$norm" <<<"$out")" != "$(jq -c "$norm" <<<"$allow")" ]; then
			ok=0
			echo "  unconfined: $(jq -c .tool_results <<<"$allow")"
		fi
	fi
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
		echo "PASS $name"
	else
		failed=$((failed + 1))
		echo "FAIL $name"
		echo "  confined: $(jq -c '{tool_results, evidence, claude_exit, seconds, stderr_tail}' <<<"$out" 2>/dev/null || echo "$out")"
	fi
}

check "a script writing ../x does not create it" write-outside.json \
	'(.evidence.ran_if | not) and (.tool_result_seen_by_model | test("cannot create ../x: Permission denied"))'
check "a script reading ~/.ssh/id_rsa does not leak it; a file beside it reads" secret.json \
	'(.evidence.ran_if | not) and (.tool_result_seen_by_model | test("Permission denied")) and (.tool_result_seen_by_model | test("notes-readable"))'
check "a program writing inside runs; output and exit status reach the model" inside.json \
	'.evidence.ran_if and (.tool_result_seen_by_model | test("hello-inside")) and (.tool_result_seen_by_model | test("to-stderr")) and (.tool_result_seen_by_model | test("Exit code 3"))' same
check "cd in one call persists to the next" cd.json \
	'.evidence.ran_if and (.tool_result_seen_by_model | test("/proj/sub$"))' same
check "a function and an alias from ~/.bashrc work" bashrc.json \
	'.evidence.ran_if and (.tool_result_seen_by_model | test("ll-alias"))' same
check "quotes, unicode, a here-document and error messages arrive unchanged" bytes.json \
	'.evidence.ran_if' same
check "a program cannot write the project's .claude/settings.json" readonly.json \
	'(.evidence.ran_if | not) and (.tool_result_seen_by_model | test("Read-only file system")) and (.tool_result_seen_by_model | test("ok"))'
# Claude Code 2.1.330 does not kill a command at its timeout: it moves it to
# the background and waits for it before the session ends.
check "a command past the Bash tool's timeout goes to the background, as unconfined" timeout.json \
	'(.evidence.ran_if | not) and (.tool_result_seen_by_model | test("moved to the background"))'
if pgrep -f 'time.sleep\(12\)' >/dev/null; then
	failed=$((failed + 1))
	echo "FAIL the timed-out command is still running: $(pgrep -af 'time.sleep\(12\)')"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
