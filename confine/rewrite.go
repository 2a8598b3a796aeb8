package confine

import (
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrCommand is wrapped by the errors [Rewrite] returns for a command it
// cannot pass on unchanged.
var ErrCommand = errors.New("command cannot be confined")

// Rewrite returns the Bash command that runs command, byte for byte, under
// the ruleset rs: the hook puts it in place of the Bash tool's command
// (Claude Code's updatedInput). launcher is the absolute path of the
// safezone binary (the running executable), whose main dispatches
// [Subcommand] to [Main].
//
// Claude Code (2.1.330) runs a Bash command as
//
//	/bin/bash -c 'source SNAPSHOT 2>/dev/null || true && ... && eval '<command>' < /dev/null && pwd -P >| /tmp/claude-ID-cwd'
//
// so the returned command is evaluated by that outer bash, after the user's
// shell snapshot (functions, aliases, options, PATH). It:
//
//  1. opens a pipe whose writer is a subshell printing the outer shell's
//     `shopt -p`, `set +o`, `declare -f` and `alias -p` (a process
//     substitution: a fork of the outer shell, since a pipe holds 64 KiB
//     and a snapshot's functions may be more, so the writer must run
//     beside the reader);
//  2. runs the launcher in bash mode (see [Main]) with the ruleset as JSON,
//     the pipe's descriptor and the command base64-encoded: the launcher
//     checks that it is a pipe, restricts itself and execs
//     "$BASH" -c SCRIPT "$0" COMMAND, where SCRIPT sources the state from
//     the pipe to its end, evals the command with the pipe closed, and
//     then opens the same pipe for writing (through /dev/fd) and writes a
//     NUL, its final $PWD and a NUL into it;
//  3. reads two NUL-terminated records from the pipe, each within a
//     second: an empty one, then the directory, and cd's to it, so that
//     the outer shell's own `pwd -P` records a cd made by the command.
//     Once the confined shell wrote them they are there at once, whatever
//     holds the pipe open (a background job of the command's that opened
//     /dev/fd/N for writing); when it wrote none (an `exit` in the
//     command) the pipe's end comes as the shell ends; what is left of
//     the state when the command did not run is no empty record;
//  4. ends with the command's exit status (128+N if a signal N killed it).
//
// The state never passes through a file: a file in a shared directory
// ($TMPDIR, /tmp) could be opened by a process left running by an earlier
// confined command, which could add a line that the next command's shell
// sources (issue 27). The pipes have no name; another process reaches
// them only through /proc/PID/fd of a process holding them, which needs
// ptrace access to it, and Landlock refuses that to a confined process
// towards any process outside its own domain (the outer shell, the
// launcher, a later command's shell: each confined command is a domain of
// its own). An unconfined process of the same user can still reach them,
// as it can reach everything of the user's.
//
// What the command keeps: its exact bytes, stdin, stdout, stderr, the
// exit status, the environment ($SHLVL included), the outer shell's
// options, functions and aliases, $0, the line numbers in its error
// messages, `set -e` not ending it (its eval stands where Claude Code's
// does, on the left of an && list), a cd for the next call, background
// jobs, and signals: the confined shell is the outer shell's child, started
// as the eval'd command's first process would be (in a process group of its
// own under the snapshot's `set -o monitor`), so a host that signals the
// shell's process tree reaches it and its children. What it does not keep:
// the outer shell's non-exported variables (the shell that runs it is a
// new one); $1... are empty; it sees one more variable, __safezone_cmd; an
// `exit` in it ends the confined shell, not the outer one (the outer shell
// then records its own directory, as before the command); an error inside
// a function of the snapshot names the line of /dev/fd/N that defined it,
// not the snapshot's; $PPID is the outer shell, not Claude Code;
// $BASH_EXECUTION_STRING is the launcher's script. Claude Code's own
// rewrites of the command (`>nul` on Windows, its watch of a long `sleep`)
// do not apply, since Claude Code sees only the wrapper. The outer shell
// must be bash 4.4 or later (mapfile -d); another shell does not run the
// command: dash and mksh print why and exit 126, zsh (which parses the
// whole text before running any of it) fails on its syntax and exits 1.
//
// The wrapper contains no here-document and no `<` that Claude Code's
// stdin check (which leaves out the `< /dev/null` when a command reads
// stdin from elsewhere) could take for one, so stdin is always /dev/null as
// for an ordinary command. The command text is carried base64-encoded,
// 4/3 of its size: together with the wrapper it must fit in one argument
// (128 KiB on Linux), so a command over about 95 KiB cannot be confined
// (Claude Code itself cannot run one over 128 KiB).
//
// Rewrite fails for a command holding a NUL byte (no shell can receive
// one), a launcher path that is not absolute, or an invalid rs.
func Rewrite(command, launcher string, rs Ruleset) (string, error) {
	return rewrite(command, launcher, rs)
}

// maxRewritten is the longest rewritten command accepted: Linux's
// MAX_ARG_STRLEN (32 pages of 4 KiB), the most one argument of execve(2)
// may hold, less room for the wrapper Claude Code adds around it.
const maxRewritten = 128<<10 - 4<<10

// rewrite is [Rewrite].
func rewrite(command, launcher string, rs Ruleset) (string, error) {
	rules, err := rewriteArgs(command, launcher, rs)
	if err != nil {
		return "", err
	}
	var s strings.Builder
	// A shell other than bash (zsh) cannot run the rest: refuse plainly.
	s.WriteString(`case ${BASH_VERSION-} in '') printf '%s\n' 'safezone: a confined command needs bash as the shell' >&2; exit 126;; esac` + "\n")
	s.WriteString(`__sz_s=126 __sz_a=` + "\n")
	s.WriteString(`{ ` + shellQuote(launcher) + " " + Subcommand + " bash " + shellQuote(string(rules)) +
		` "$__sz_i" "$BASH" "$0" ` + shellQuote(base64.StdEncoding.EncodeToString([]byte(command))) + "\n")
	s.WriteString(`__sz_s=$?` + "\n")
	s.WriteString(`IFS= \builtin read -r -d '' -t 1 -u "$__sz_i" __sz_a && \builtin test -z "$__sz_a" &&` + "\n")
	s.WriteString(`IFS= \builtin read -r -d '' -t 1 -u "$__sz_i" __sz_a && \builtin cd -- "$__sz_a" 2>/dev/null` + "\n")
	s.WriteString(`} {__sz_i}< <(\builtin shopt -p; \builtin set +o; \builtin declare -f; \builtin alias -p)` + "\n")
	s.WriteString(`__sz_r() { \builtin return "$1"; }; __sz_r "$__sz_s"`)
	if s.Len() > maxRewritten {
		return "", fmt.Errorf("%w: it is %d bytes long, and %d bytes once confined, over the %d a shell argument can hold", ErrCommand, len(command), s.Len(), maxRewritten)
	}
	return s.String(), nil
}

// RewriteBash returns the Bash command that runs command, byte for byte,
// under the ruleset rs, for a host that runs it with bash in a script of
// its own and keeps no shell state between calls (Gemini CLI 0.61.0:
// `bash -c '{ COMMAND }; __code=$?; pgrep ...; exit $__code;'`, no
// snapshot of the user's functions, no cd carried to the next call). It is
// [Rewrite]'s launcher line with no state ("-"): the launcher restricts
// itself and execs "$BASH" -c SCRIPT "$0" COMMAND, where SCRIPT evals the
// command as [Rewrite]'s does (its messages, line numbers, $SHLVL, exit
// status); the host's script around it goes on after it. It holds no
// process substitution, command substitution or backquote, which Gemini
// CLI refuses in a command ("Command injection detected", its
// detectBashSubstitution). The limits and errors are [Rewrite]'s.
func RewriteBash(command, launcher string, rs Ruleset) (string, error) {
	rules, err := rewriteArgs(command, launcher, rs)
	if err != nil {
		return "", err
	}
	s := `case ${BASH_VERSION-} in '') printf '%s\n' 'safezone: a confined command needs bash as the shell' >&2; exit 126;; esac` + "\n" +
		shellQuote(launcher) + " " + Subcommand + " bash " + shellQuote(string(rules)) + ` - "$BASH" "$0" ` +
		shellQuote(base64.StdEncoding.EncodeToString([]byte(command)))
	if len(s) > maxRewritten {
		return "", fmt.Errorf("%w: it is %d bytes long, and %d bytes once confined, over the %d a shell argument can hold", ErrCommand, len(command), len(s), maxRewritten)
	}
	return s, nil
}

// RewritePOSIX returns a command that runs command, byte for byte, under
// the ruleset rs, for a host whose shell the hook cannot name: Codex CLI
// (0.171.0) runs exec_command's command as `SHELL -c COMMAND`, SHELL being
// the user's default shell or any one the model names in the call's shell
// argument (/bin/bash, /bin/sh, zsh), and the hook input carries only the
// command. Every POSIX shell (sh, dash, bash, zsh, ksh) reads the returned
// command as the same one simple command,
//
//	exec LAUNCHER __confine exec RULESET "$0" -c COMMAND
//
// every word single-quoted but "$0", the name the shell was started by:
// the launcher (see [Main]'s exec mode) restricts itself and execs that
// shell again with -c and the command, so the command runs in the shell
// the host chose, with its $0, the environment, the working directory,
// stdin, stdout, stderr and every other descriptor, and its exit status
// (128+N in the shell's own convention, if a signal N killed it). What it
// does not keep: the outer shell's non-exported variables, functions,
// aliases and options (a login shell's profile ran in the outer shell; the
// confined one reads only what a non-interactive shell of its kind reads),
// and a $0 the launcher cannot start (a login shell's "-sh"): then it
// prints why and exits 126 without running the command. A cd in the
// command ends with it, as it does for Codex anyway (each call is a new
// shell in the call's workdir).
//
// The limits and errors are [Rewrite]'s (the command is carried as it is,
// not base64-encoded, so the limit is about 124 KiB).
func RewritePOSIX(command, launcher string, rs Ruleset) (string, error) {
	rules, err := rewriteArgs(command, launcher, rs)
	if err != nil {
		return "", err
	}
	s := "exec " + shellQuote(launcher) + " " + Subcommand + " exec " + shellQuote(string(rules)) + ` "$0" -c ` + shellQuote(command)
	if len(s) > maxRewritten {
		return "", fmt.Errorf("%w: it is %d bytes long, and %d bytes once confined, over the %d a shell argument can hold", ErrCommand, len(command), len(s), maxRewritten)
	}
	return s, nil
}

// rewriteArgs checks what every rewrite takes (a command no shell can
// receive holds a NUL byte; the launcher must be an absolute path; rs must
// be valid) and returns rs as JSON.
func rewriteArgs(command, launcher string, rs Ruleset) ([]byte, error) {
	if strings.IndexByte(command, 0) >= 0 {
		return nil, fmt.Errorf("%w: it holds a NUL byte", ErrCommand)
	}
	if !filepath.IsAbs(launcher) {
		return nil, fmt.Errorf("launcher %q is not an absolute path", launcher)
	}
	if err := rs.Validate(); err != nil {
		return nil, err
	}
	return rs.MarshalText()
}

// shellQuote quotes s as one single-quoted shell word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
