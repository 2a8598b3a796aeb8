package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

const trustUsage = `Usage:
    safezone trust                    list the project's policy and settings
                                      files, what each widens, and the watched files
    safezone trust FILE...            trust FILE as it is now: you made it, or checked it
    safezone trust --revoke FILE...   forget that you trusted FILE

A policy or settings file in the project directory (.safezone.yaml,
.safezone.local.yaml, .claude/settings.json, .claude/settings.local.json)
comes with the repository, or could: what it tightens applies at once, what
it widens (allow rules, more directories, a looser mode, ...; README,
"Layers") only once you trust its content. safezone trust FILE prints what
the file widens and records its content as it is now, in $XDG_STATE_HOME/
safezone (else ~/.local/state/safezone), where neither the agent nor a
confined command can write; a change to the file needs trust again.

When the hook runs a command confined, the kernel keeps safezone's policy
files, .claude/, .mcp.json and the other hosts' hook files read-only, but it
cannot stop the command from creating one that does not exist yet. The hook
therefore watches those files, and while one of them has appeared since,
every call in the project is denied. Likewise the .git of a project that is
no git repository: a repository made there counts once it holds what git
would run (a hook, configuration that runs a program), listed in the
reason. Look at the file; if it is yours, trust it; else delete it. A trusted file that changes again within 24 hours (a
program started before it existed may still run) is reported again.

Exit status: 0, or 1 when a FILE is neither watched nor a policy or
settings file of a project, cannot be loaded, or a list is unreadable.
`

// cmdTrust is `safezone trust`: it lists the project's layers and watched
// files, or trusts FILEs (relative to the working directory): it removes
// them from every watch list and records the content of the policy and
// settings files among them.
func cmdTrust(args []string, stdout, stderr io.Writer, sys *pipeline.System) int {
	var paths []string
	revoke := false
	for _, a := range args {
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, trustUsage)
			return 0
		case a == "--revoke":
			revoke = true
			continue
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "safezone: trust: unknown flag %s\n%s", a, trustUsage)
			return 2
		}
		paths = append(paths, a)
	}
	if len(paths) == 0 {
		if revoke {
			fmt.Fprintf(stderr, "safezone: trust: --revoke needs a FILE\n%s", trustUsage)
			return 2
		}
		return trustList(stdout, stderr, sys)
	}
	wd, err := sys.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	if revoke {
		return trustRevoke(paths, wd, stdout, stderr, sys)
	}
	var want []string
	for _, p := range paths {
		want = append(want, watchedForm(sys, wd, p)...)
	}
	found, err := sys.Trust(want)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	for _, f := range found {
		fmt.Fprintf(stdout, "trusted %s as it is now (a change in the next %v is reported again)\n", f, pipeline.TrustWindow)
	}
	code := 0
	for _, p := range paths {
		abs := absPath(wd, p)
		watched := slices.ContainsFunc(watchedForm(sys, wd, p), func(w string) bool { return slices.Contains(found, w) })
		root, ok := layerRoot(abs)
		switch {
		case ok:
			if trustLayer(abs, root, stdout, stderr, sys) != nil {
				code = 1
			}
		case !watched:
			fmt.Fprintf(stderr, "safezone: trust: %s is not watched, nor a policy or settings file of a project (see safezone trust)\n", p)
			code = 1
		}
	}
	return code
}

// absPath is p, relative to wd, made absolute and clean.
func absPath(wd, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(wd, p)
	}
	return filepath.Clean(p)
}

// layerRoot returns the project root of a file whose name makes it a layer
// that comes with the repository (policy.Scope.FromRepository):
// ROOT/.safezone.yaml, ROOT/.safezone.local.yaml,
// ROOT/.claude/settings.json, ROOT/.claude/settings.local.json.
func layerRoot(abs string) (string, bool) {
	dir, base := filepath.Split(abs)
	dir = filepath.Clean(dir)
	switch {
	case base == policy.ProjectFile || base == policy.LocalFile:
		return dir, true
	case (base == "settings.json" || base == "settings.local.json") && filepath.Base(dir) == ".claude":
		return filepath.Dir(dir), true
	}
	return "", false
}

// trustLayer trusts the layer file abs of the project at root: it loads
// the project's layers with the file's content as read now, prints what
// that content widens and records it. A file that widens nothing is not
// recorded: it applies whole already.
func trustLayer(abs, root string, stdout, stderr io.Writer, sys *pipeline.System) error {
	data, err := policy.ReadCapped(abs)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return err
	}
	held, err := widening(sys, root, abs, data)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %s cannot be trusted: the policy does not load with it: %v\n", abs, err)
		return err
	}
	if len(held) == 0 {
		fmt.Fprintf(stdout, "%s widens nothing: all of it applies already; nothing recorded\n", abs)
		return nil
	}
	if err := sys.RecordTrust(abs, data); err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return err
	}
	fmt.Fprintf(stdout, "trusted the content of %s as it is now; what it widens applies:\n", abs)
	for _, u := range held {
		fmt.Fprintf(stdout, "  %s\n", untrustedLine(u))
	}
	fmt.Fprintf(stdout, "a change to it needs safezone trust again; safezone trust --revoke %s forgets it\n", abs)
	return nil
}

// widening loads the layers of the project at root, the file abs read as
// data and not trusted, the others as the hook finds them, and returns what
// abs would widen.
func widening(sys *pipeline.System, root, abs string, data []byte) ([]policy.Untrusted, error) {
	opts, err := pipeline.ParseFlags(nil, false)
	if err != nil {
		return nil, err
	}
	reads := pipeline.NewFileCache()
	reads.Files[abs] = pipeline.CachedFile{Data: data}
	loc := pipeline.PolicyLocations(opts, root, sys, reads)
	loc.Trusted = func(path string, content []byte) bool {
		return filepath.Clean(path) != abs && sys.Trusted(path, content)
	}
	pol, err := pipeline.MergeLayers(loc, opts)
	if err != nil {
		return nil, err
	}
	var out []policy.Untrusted
	for _, u := range pol.Untrusted {
		if u.Pos.File == abs {
			out = append(out, u)
		}
	}
	return out, nil
}

// untrustedLine shows an entry held back until its file is trusted,
// without the file's name: "sandbox.read_dirs: ../lib (line 4): adds ...".
func untrustedLine(u policy.Untrusted) string {
	return fmt.Sprintf("%s: %s (line %d): %s", u.Key, u.Value, u.Pos.Line, u.Why)
}

// trustRevoke forgets the trust of each path.
func trustRevoke(paths []string, wd string, stdout, stderr io.Writer, sys *pipeline.System) int {
	code := 0
	for _, p := range paths {
		abs := absPath(wd, p)
		ok, err := sys.RevokeTrust(abs)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
			code = 1
		case !ok:
			fmt.Fprintf(stderr, "safezone: trust: %s is not trusted\n", abs)
			code = 1
		default:
			fmt.Fprintf(stdout, "%s is no longer trusted: what it widens is ignored\n", abs)
		}
	}
	return code
}

// watchedForm returns the forms p (relative to wd) may have in a watch
// list: absolute and clean, and with its directory's symlinks resolved (the
// hook records paths below resolved sandbox roots). The file itself is not
// followed: it may be a link planted to point elsewhere.
func watchedForm(sys *pipeline.System, wd, p string) []string {
	p = absPath(wd, p)
	out := []string{p}
	if r, err := classify.Resolve(sys.FS, filepath.Dir(p)); err == nil && r.Exists {
		if q := filepath.Join(r.Path, filepath.Base(p)); q != p {
			out = append(out, q)
		}
	}
	return out
}

// trustList prints the project's layer files with their trust, then its
// watched paths: the ones that appeared (and so deny every call) first.
func trustList(stdout, stderr io.Writer, sys *pipeline.System) int {
	root := sys.ProjectRoot()
	code := layerList(stdout, stderr, root, sys)
	w, err := sys.ReadWatch(sys.WatchPath(root))
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: %v\n", err)
		return 1
	}
	if len(w.Paths) == 0 {
		fmt.Fprintf(stdout, "no watched files for %s\n", root)
		return code
	}
	var lines []string
	for p, since := range w.Paths {
		state := "missing"
		if changed, ok := sys.ChangedAt(p); ok {
			state = "present"
			switch items := pipeline.RepoCode(sys, w, p); {
			case pipeline.IsRepoIn(w, p) && len(items) == 0:
				state = "present: a git repository holding nothing git would run (no hook, no configuration that runs a program)"
			case pipeline.IsRepoIn(w, p):
				state = "APPEARED, a git repository holding what git would run: " + strings.Join(items, "; ") + " (every call is denied until you trust or delete it)"
			case changed.Before(since.Add(-pipeline.WatchMargin)):
			default:
				state = "APPEARED (every call is denied until you trust or delete it)"
			}
		}
		lines = append(lines, fmt.Sprintf("%s  %s, watched since %s", p, state, since.Format("2006-01-02 15:04:05")))
	}
	sort.Strings(lines)
	fmt.Fprintf(stdout, "watched files for %s:\n  %s\n", root, strings.Join(lines, "\n  "))
	return code
}

// layerList prints each policy or settings file of the project at root
// that comes with the repository and exists: trusted, only tightening, or
// what it widens that is ignored (and whether it changed since it was
// trusted).
func layerList(stdout, stderr io.Writer, root string, sys *pipeline.System) int {
	opts, err := pipeline.ParseFlags(nil, false)
	if err != nil {
		return 1
	}
	pol, err := pipeline.LoadPolicy(opts, root, sys, nil)
	if err != nil {
		fmt.Fprintf(stderr, "safezone: trust: the policy does not load: %v\n", err)
		return 1
	}
	held := heldByFile(pol)
	listed := false
	for _, rel := range []string{policy.ProjectFile, policy.LocalFile, ".claude/settings.json", ".claude/settings.local.json"} {
		f := filepath.Join(root, rel)
		if _, err := os.Lstat(f); err != nil {
			continue
		}
		if !listed {
			fmt.Fprintf(stdout, "policy and settings files of %s:\n", root)
			listed = true
		}
		switch us := held[f]; {
		case slices.Contains(pol.Trusted, f):
			fmt.Fprintf(stdout, "  %s  trusted: all of it applies\n", f)
		case len(us) == 0:
			fmt.Fprintf(stdout, "  %s  widens nothing: all of it applies\n", f)
		default:
			state := "not trusted"
			if rec, err := sys.ReadTrust(sys.TrustKey(f)); err == nil && rec != nil {
				state = "changed since you trusted it on " + rec.Trusted.Format("2006-01-02 15:04")
			}
			fmt.Fprintf(stdout, "  %s  %s; ignored until you run safezone trust %s:\n", f, state, f)
			for _, u := range us {
				fmt.Fprintf(stdout, "      %s\n", untrustedLine(u))
			}
		}
	}
	return 0
}

// heldByFile groups a policy's untrusted entries by file.
func heldByFile(pol *policy.Policy) map[string][]policy.Untrusted {
	out := map[string][]policy.Untrusted{}
	for _, u := range pol.Untrusted {
		out[u.Pos.File] = append(out[u.Pos.File], u)
	}
	return out
}
