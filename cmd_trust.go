package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/safezonehq/safezone/classify"
)

const trustUsage = `Usage:
    safezone trust              list the watched files of the project
    safezone trust PATH...      trust PATH as it is now: you made it, or checked it

When the hook runs a command confined, the kernel keeps safezone's policy
files, .claude/, .mcp.json and the other hosts' hook files read-only, but it
cannot stop the command from creating one that does not exist yet. The hook
therefore watches those files (in $XDG_STATE_HOME/safezone, else
~/.local/state/safezone), and while one of them has appeared since, every
call in the project is denied. Look at the file; if it is yours, trust it;
else delete it. A trusted file that changes again within 24 hours (a program
started before it existed may still run) is reported again.

Exit status: 0, or 1 when a PATH was not watched or the list is unreadable.
`

// cmdTrust is `safezone trust`: it lists the project's watched files, or
// removes PATHs (relative to the working directory) from every watch list.
func cmdTrust(args []string, stdout, stderr io.Writer, sys *system) int {
	var paths []string
	for _, a := range args {
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, trustUsage)
			return 0
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "safezone: trust: unknown flag %s\n%s", a, trustUsage)
			return 2
		}
		paths = append(paths, a)
	}
	if len(paths) == 0 {
		return trustList(stdout, stderr, sys)
	}
	wd, err := sys.getwd()
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	var want []string
	for _, p := range paths {
		want = append(want, watchedForm(sys, wd, p)...)
	}
	found, err := sys.trust(want)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	for _, f := range found {
		fmt.Fprintf(stdout, "trusted %s as it is now (a change in the next %v is reported again)\n", f, trustWindow)
	}
	code := 0
	for _, p := range paths {
		if !slices.ContainsFunc(watchedForm(sys, wd, p), func(w string) bool { return slices.Contains(found, w) }) {
			fmt.Fprintf(stderr, "safezone: trust: %s is not watched (see safezone trust)\n", p)
			code = 1
		}
	}
	return code
}

// watchedForm returns the forms p (relative to wd) may have in a watch
// list: absolute and clean, and with its directory's symlinks resolved (the
// hook records paths below resolved sandbox roots). The file itself is not
// followed: it may be a link planted to point elsewhere.
func watchedForm(sys *system, wd, p string) []string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(wd, p)
	}
	p = filepath.Clean(p)
	out := []string{p}
	if r, err := classify.Resolve(sys.fsys, filepath.Dir(p)); err == nil && r.Exists {
		if q := filepath.Join(r.Path, filepath.Base(p)); q != p {
			out = append(out, q)
		}
	}
	return out
}

// trustList prints the project's watched paths: the ones that appeared
// (and so deny every call) first.
func trustList(stdout, stderr io.Writer, sys *system) int {
	root := sys.projectRoot()
	w, err := sys.readWatch(sys.watchPath(root))
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	if len(w.Paths) == 0 {
		fmt.Fprintf(stdout, "no watched files for %s\n", root)
		return 0
	}
	var lines []string
	for p, since := range w.Paths {
		state := "missing"
		if changed, ok := sys.changedAt(p); ok {
			state = "present"
			if !changed.Before(since.Add(-watchMargin)) {
				state = "APPEARED (every call is denied until you trust or delete it)"
			}
		}
		lines = append(lines, fmt.Sprintf("%s  %s, watched since %s", p, state, since.Format("2006-01-02 15:04:05")))
	}
	sort.Strings(lines)
	fmt.Fprintf(stdout, "watched files for %s:\n  %s\n", root, strings.Join(lines, "\n  "))
	return 0
}
