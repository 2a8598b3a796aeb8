package confine

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Probe runs the launcher for real, as the hook would, with a ruleset that
// has a ReadOnly path (the temporary directory, in the launcher's private
// mount namespace only), and `/bin/sh -c 'exit 0'` as the command. It
// returns nil if that ran, or an error holding the launcher's message. It
// costs one start of the launcher and one of its second stage (about
// as much as three bare `bash -c true`), so it is for a diagnosis, not for
// every tool call; [Available] is.
//
// launcher is the absolute path of the safezone binary, whose main must
// dispatch [Subcommand] to [Main].
func Probe(launcher string) error {
	dir, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		return err
	}
	rules, err := Ruleset{Write: []string{dir}, ReadOnly: []string{dir}}.MarshalText()
	if err != nil {
		return err
	}
	cmd := exec.Command(launcher, Subcommand, "exec", string(rules), "/bin/sh", "-c", "exit 0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return fmt.Errorf("%w: %s", ErrUnavailable, msg)
		}
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}
