package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/safezonehq/safezone/confine"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// cmdConfined runs one Bash call as Claude Code does in bypassPermissions:
// first the hook (safezone, with the embedded default policy unless the
// script gives it another) on the call {"command": COMMAND} made in DIR,
// whose answer must be allow with updatedInput (the confined form); then
// the rewritten command, with bash -c in DIR, in the script's environment,
// whose exit status must be N, or, for N "fail", anything but 0 and the
// launcher's own failure (confine.ExitCannotRun). The hook's answer is
// left in $WORK/hook.json (for grep); the command's stdout and stderr
// become the script's. The script's directory does not change.
//
//	confined N DIR COMMAND
func cmdConfined(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: confined N|fail DIR COMMAND")
	}
	want, dir, command := args[0], ts.MkAbs(args[1]), args[2]
	in, err := json.Marshal(map[string]any{
		"tool_name":       "Bash",
		"tool_input":      map[string]string{"command": command, "description": "real work"},
		"cwd":             dir,
		"permission_mode": "bypassPermissions",
	})
	ts.Check(err)
	inFile := filepath.Join(ts.Getenv("WORK"), ".hook-in.json")
	ts.Check(os.WriteFile(inFile, in, 0o644))
	ts.Check(ts.Exec("bash", "-c", `exec safezone <"$1"`, "bash", inFile))
	answer := ts.ReadFile("stdout")
	ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "hook.json"), []byte(answer), 0o644))
	if d, err := pipelinetest.Judge(answer); err != nil || d != "allow" {
		ts.Fatalf("the hook answered %s (%v), want allow: %s", d, err, answer)
	}
	var out struct {
		HSO struct {
			UpdatedInput struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	ts.Check(json.Unmarshal([]byte(answer), &out))
	cmd := out.HSO.UpdatedInput.Command
	if cmd == "" {
		ts.Fatalf("the hook allowed it unconfined (no updatedInput.command): %s", answer)
	}
	back := ts.MkAbs(".")
	ts.Check(ts.Chdir(dir))
	defer func() { ts.Check(ts.Chdir(back)) }()
	err = ts.Exec("bash", "-c", cmd)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	switch {
	case want == "fail":
		if got == 0 || got == confine.ExitCannotRun {
			ts.Fatalf("exit status %d, want a failure of the command itself", got)
		}
	case strconv.Itoa(got) != want:
		ts.Fatalf("exit status %d, want %s", got, want)
	}
}

// cmdModProxy makes DIR a Go module proxy of the file system
// (GOPROXY=file://DIR, "go help goproxy"): the module MODULE at VERSION,
// whose files are those of the directory SRC (go.mod among them), as the
// .info, .mod and .zip files the go command downloads (the zip's names
// prefixed MODULE@VERSION/, golang.org/ref/mod#zip-files). MODULE must be
// lower case (no case-encoding is done).
//
//	modproxy DIR MODULE VERSION SRC
func cmdModProxy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: modproxy DIR MODULE VERSION SRC")
	}
	mod, version, src := args[1], args[2], ts.MkAbs(args[3])
	at := filepath.Join(ts.MkAbs(args[0]), filepath.FromSlash(mod), "@v")
	ts.Check(os.MkdirAll(at, 0o755))
	ts.Check(os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644))
	ts.Check(os.WriteFile(filepath.Join(at, version+".info"), []byte(`{"Version":"`+version+`","Time":"2026-01-01T00:00:00Z"}`), 0o644))
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(at, version+".mod"), gomod, 0o644))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	ts.Check(filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		w, err := zw.Create(mod + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}))
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(filepath.Join(at, version+".zip"), buf.Bytes(), 0o644))
}

// outerGoCache returns the go command's build cache of the test's own
// environment ($GOCACHE, else the default, "go help cache"), which the
// scripts get as $OUTER_GOCACHE: a warm cache outside their home
// directory, so that a confined go test need not build the standard
// library again.
func outerGoCache() string {
	if c := os.Getenv("GOCACHE"); filepath.IsAbs(c) {
		return c
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go-build")
}

// outerRustup returns rustup's directory of the test's own environment
// ($RUSTUP_HOME, else ~/.rustup where it exists), or "": the scripts get it
// as $RUSTUP_HOME, so that rustup's cargo proxy finds its toolchains with
// the scripts' own home directory.
func outerRustup() string {
	if r := os.Getenv("RUSTUP_HOME"); filepath.IsAbs(r) {
		return r
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(home, ".rustup")); err == nil && fi.IsDir() {
		return filepath.Join(home, ".rustup")
	}
	return ""
}

// cmdSockServer listens on the Unix socket PATH (an abstract one for a
// PATH starting with @) until the script ends, answering every connection
// with "pong from NAME\n": a stand-in for a daemon running outside the
// sandbox (Docker, a D-Bus bus, an agent).
//
//	sockserver NAME PATH
func cmdSockServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sockserver NAME PATH")
	}
	name, p := args[0], args[1]
	if !strings.HasPrefix(p, "@") {
		p = ts.MkAbs(p)
		ts.Check(os.MkdirAll(filepath.Dir(p), 0o700))
	}
	l, err := net.Listen("unix", p)
	ts.Check(err)
	ts.Defer(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			fmt.Fprintf(c, "pong from %s\n", name)
			c.Close()
		}
	}()
}

// cmdTmuxServer starts a tmux server on the socket NAME (tmux -L NAME,
// in $TMUX_TMPDIR) with one detached session, killed when the script
// ends.
//
//	tmuxserver NAME
func cmdTmuxServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tmuxserver NAME")
	}
	ts.Check(ts.Exec("tmux", "-L", args[0], "new-session", "-d", "sleep 600"))
	ts.Defer(func() { _ = ts.Exec("tmux", "-L", args[0], "kill-server") })
}

// cmdFakeDockerd serves, on the Unix socket PATH until the script ends,
// the few calls of the Docker Engine API that `docker ps` and `docker
// version` make (docs.docker.com/reference/api/engine, version 1.41:
// _ping, version, containers/json), with no container: a stand-in for the
// Docker daemon.
//
//	fakedockerd PATH
func cmdFakeDockerd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fakedockerd PATH")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o700))
	l, err := net.Listen("unix", p)
	ts.Check(err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/_ping"):
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "OK")
		case strings.HasSuffix(r.URL.Path, "/version"):
			fmt.Fprint(w, `{"Version":"0.0.0-fake","ApiVersion":"1.41","MinAPIVersion":"1.12","Os":"linux","Arch":"amd64"}`)
		case strings.HasSuffix(r.URL.Path, "/containers/json"):
			fmt.Fprint(w, `[]`)
		default:
			http.NotFound(w, r)
		}
	})}
	go srv.Serve(l)
	ts.Defer(func() { srv.Close() })
}
