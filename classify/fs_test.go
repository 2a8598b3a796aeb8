package classify

import (
	"fmt"
	"io/fs"
	"strings"
	"testing/fstest"
)

// makefs builds a file-system view from os.Root's test mini-language:
//
//	"dir/"           a directory
//	"dir/file"       a file (its parents are implied)
//	"link => target" a symbolic link to target, verbatim
//
// Names are relative to "/", as os.DirFS("/") names them.
func makefs(spec ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for _, s := range spec {
		if name, data, ok := strings.Cut(s, " := "); ok {
			m[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
			continue
		}
		if name, target, ok := strings.Cut(s, " => "); ok {
			m[name] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte(target)}
			continue
		}
		if dir, ok := strings.CutSuffix(s, "/"); ok {
			m[dir] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
			continue
		}
		m[s] = &fstest.MapFile{Data: []byte("x\n"), Mode: 0o644}
	}
	return m
}

// baseFS is the conformance corpus's base fixture, rooted at "/" for tests:
// /proj is the project, /shared the additional directory, /home HOME.
var baseFS = []string{
	"proj/README.md", "proj/.env", "proj/src/main.go", "proj/.git/config",
	"proj/.git/hooks/", "proj/docs/", "proj/tests/", "proj/agent_sandbox/",
	"proj/node_modules/lodash/", "shared/", "outside/secret.txt", "outside/deep/",
	"home/.ssh/id_rsa",
}

// trace lists a result's reasons and targets, for test failure messages.
func trace(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "decision %s (row %d): %s\n", r.Decision, r.Row, r.Reason)
	for i, t := range r.Targets {
		fmt.Fprintf(&b, "target %d: %s %s %q -> %s (inside %v, class %q, err %v)\n", i, t.Field, t.Access, t.Given, t.Res.Path, t.Inside, t.Class, t.Err)
	}
	for _, x := range r.Reasons {
		fmt.Fprintf(&b, "  target %d row %d %s: %s (%s) %s %s\n", x.Target, x.Row, x.Effect, x.Rule, x.Source, x.Path, x.Note)
	}
	if r.Shell != nil {
		fmt.Fprintf(&b, "shell: known %v (%s)\n", r.Shell.Known(), r.Shell.Why())
	}
	return b.String()
}
