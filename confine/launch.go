package confine

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Subcommand is the hidden first argument that makes the safezone binary the
// launcher: `safezone __confine MODE ...` runs [Main] with the arguments
// after it.
const Subcommand = "__confine"

// ExitCannotRun is the exit status of a launcher that did not run the
// command: it could not apply the ruleset it was given, or could not start
// the program. It is the status POSIX shells give a command found but not
// executable.
const ExitCannotRun = 126

// ErrUnavailable is wrapped by the errors saying that this system cannot
// confine commands (see [Available]).
var ErrUnavailable = errors.New("confinement unavailable")

// Main is the launcher. args are the arguments after [Subcommand]; stderr
// gets the launcher's own messages, each on one line prefixed
// "safezone: confine: ". stdin and stdout are not read or written: the
// program gets the process's own descriptors 0, 1 and 2, and every other
// descriptor the launcher inherited.
//
// On success Main does not return: the process becomes the program, with
// the ruleset on the thread that called execve. For a ruleset with ReadOnly
// paths it instead waits for the program, which runs in a private mount
// namespace (see [Ruleset]), and returns its exit status; if a signal
// killed the program, the process dies of the same signal. Main returns
// [ExitCannotRun] when it cannot apply the ruleset or start the program:
// the program then has not run. It does no policy work: the ruleset is
// enforced as given.
//
// The modes:
//
//	bash RULESET STATEFD SHELL ARG0 COMMAND
//	exec RULESET PROGRAM [ARG...]
//
// RULESET is the JSON of [Ruleset.MarshalText]. bash is the form
// [Rewrite] writes: COMMAND is the command, base64-encoded (standard
// alphabet, padded), run by SHELL (bash, given as "$BASH") as
//
//	SHELL -c SCRIPT ARG0 COMMAND
//
// with SHLVL one lower (bash raises it again), where SCRIPT sources the
// caller's shell state from /dev/fd/STATEFD, evals COMMAND with STATEFD
// closed (no process the command starts holds it), and writes a NUL, the
// final $PWD and a NUL into the same pipe, opened for writing through
// /dev/fd/STATEFD (see [Rewrite]). STATEFD must be a pipe (a regular file
// or anything else with a name is refused: a name in a shared directory
// is one a process left by an earlier command could open too); "-" is no
// state, no final directory.
//
// exec runs PROGRAM (looked up in $PATH when it has no slash) with the
// arguments ARG..., argv[0] being PROGRAM.
//
// A third mode, ns, is the launcher's own second stage (see [Ruleset]'s
// ReadOnly).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == HelperMode {
		return netHelper()
	}
	l, err := parseLaunch(args)
	if err == nil {
		var code int
		code, err = l.run()
		if err == nil {
			return code
		}
	}
	fmt.Fprintf(stderr, "safezone: confine: %v; the command was not run\n", err)
	return ExitCannotRun
}

// launch is one parsed launcher invocation: what to execve, confined by rs.
type launch struct {
	rs   Ruleset
	path string   // the program to execve
	argv []string // its arguments, argv[0] included

	env []string // its environment; nil for the launcher's own

	stateFD int // bash mode: the pipe the shell state is read from, and the final directory written to; -1 for none

	// inNamespace is set for the second stage of the ReadOnly path: the
	// process already runs in its own user and mount namespaces.
	inNamespace bool
	// netFD is, in the second stage of a ruleset with Net, the socket the
	// listening sockets of the proxies are sent through; -1 otherwise.
	netFD int
	// netOff is set in the second stage of a ruleset whose Net has no
	// proxy: a network namespace with its loopback and nothing else.
	netOff bool
}

// errUsage says the launcher was called with arguments it does not know.
var errUsage = errors.New("usage: safezone " + Subcommand + " bash RULESET STATEFD SHELL ARG0 COMMAND | exec RULESET PROGRAM [ARG...]")

func parseLaunch(args []string) (*launch, error) {
	if len(args) < 2 {
		return nil, errUsage
	}
	rs, err := ParseRuleset(args[1])
	if err != nil {
		return nil, err
	}
	l := &launch{rs: rs, stateFD: -1, netFD: -1}
	switch args[0] {
	case "bash":
		if len(args) != 6 {
			return nil, errUsage
		}
		stateArg, shell, arg0 := args[2], args[3], args[4]
		cmd, err := base64.StdEncoding.DecodeString(args[5])
		if err != nil {
			return nil, fmt.Errorf("the command is not base64: %w", err)
		}
		if stateArg != "-" {
			if l.stateFD, err = pipeArg("STATEFD", stateArg); err != nil {
				return nil, err
			}
		}
		if !strings.HasPrefix(shell, "/") {
			return nil, fmt.Errorf("SHELL %q is not an absolute path", shell)
		}
		l.path = shell
		l.argv = []string{shell, "-c", bashScript(l.stateFD, string(cmd)), arg0, string(cmd)}
		l.env = shellLevelDown(os.Environ())
	case "exec":
		if len(args) < 3 {
			return nil, errUsage
		}
		path := args[2]
		if !strings.Contains(path, "/") {
			if path, err = exec.LookPath(path); err != nil {
				return nil, err
			}
		}
		l.path = path
		l.argv = append([]string{args[2]}, args[3:]...)
	case "ns":
		// The second stage: ns RULESET NETFD PATH ARGV0 [ARG...]. NETFD is
		// the socket the proxy's listening sockets go to, "-" for none,
		// "off" for a network namespace without a proxy.
		if len(args) < 5 {
			return nil, errUsage
		}
		l.netFD = -1
		if args[2] == "off" {
			l.netOff = true
		} else if args[2] != "-" {
			if l.netFD, err = strconv.Atoi(args[2]); err != nil || l.netFD < 3 {
				return nil, fmt.Errorf("NETFD %q is not a descriptor number above 2", args[2])
			}
		}
		if (l.netFD >= 0 || l.netOff) != (rs.Net != nil) || l.netOff != (rs.Net != nil && rs.Net.Proxy == "") {
			return nil, errors.New("NETFD does not match the ruleset's net")
		}
		l.path, l.argv, l.inNamespace = args[3], args[4:], true
	default:
		return nil, errUsage
	}
	return l, nil
}

// bashScript is the -c script of the bash mode for command. The command is
// $1; it is evaluated by eval, as Claude Code's own `eval '<command>'`,
// so that its error messages read the same: the eval stands on the left of
// an && list (where `set -e` does not end the shell) and on line 1+K of the
// script, K being the number of newlines in the command, as in Claude Code's
// script, where the command's own newlines come before the end of the eval.
//
// With a state descriptor, the script first sources the caller's options,
// functions and aliases from stateFD, runs the command with it closed (a
// background job it starts does not hold the pipe), and after it writes a
// NUL, $PWD and a NUL into the same pipe, opened for writing, then exits
// with the command's status. The builtins are called as \builtin (eval as \eval, since
// `builtin eval` would end the shell on `set -e`): the state may define
// aliases and functions of any name.
//
// The command sees one variable of the launcher's, __safezone_cmd, holding
// its own text, and no positional parameters.
func bashScript(stateFD int, command string) string {
	run := `__safezone_cmd=$1; \builtin shift;` + strings.Repeat("\n", strings.Count(command, "\n")) +
		` \eval "$__safezone_cmd"`
	if stateFD < 0 {
		return run + ` && :`
	}
	fd := strconv.Itoa(stateFD)
	return `\builtin . /dev/fd/` + fd + ` 2>/dev/null; ` + run + ` ` + fd + `<&- && :` +
		`; \builtin set -- "$?"; \builtin printf '\0%s\0' "${PWD-}" 2>/dev/null >/dev/fd/` + fd + `; \builtin exit "$1"`
}

// pipeArg parses the descriptor number s, the argument name, and checks
// that it is open on a pipe.
func pipeArg(name, s string) (int, error) {
	fd, err := strconv.Atoi(s)
	if err != nil || fd < 3 {
		return -1, fmt.Errorf("%s %q is not a descriptor number above 2", name, s)
	}
	if err := checkPipe(fd); err != nil {
		return -1, fmt.Errorf("%s %d: %w", name, fd, err)
	}
	return fd, nil
}

// shellLevelDown returns env with SHLVL one lower, so that the confined
// bash, which raises it on start, shows the outer shell's level, as the
// command would have seen it there. A SHLVL that is not a positive number
// is left as it is.
func shellLevelDown(env []string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i] = kv
		if v, ok := strings.CutPrefix(kv, "SHLVL="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				out[i] = "SHLVL=" + strconv.Itoa(n-1)
			}
		}
	}
	return out
}
