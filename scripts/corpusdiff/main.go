// Command corpusdiff runs every case of the shared conformance corpus with two
// safezone binaries, in the same fixture, and reports each case whose stdout,
// stderr or exit status differs. It shows that a change meant to preserve
// behaviour (a refactoring, a faster build) prints the same answer,
// byte for byte, for every case.
//
// Usage:
//
//	go run ./scripts/corpusdiff [-corpus DIR] [-run REGEXP] [-stderr] OLD NEW
//
// The fixture and environment are the corpus runner's (see
// ../shared/conformance/README.md, "Fixture and environment"): a fresh
// ROOT per case, the case's setup, policy.yaml with $ROOT filled in, the hook
// run as `BINARY --policy ROOT/policy.yaml [args...]` in ROOT/proj with
// HOME, CLAUDE_PROJECT_DIR, PWD and XDG_CONFIG_HOME set. Both binaries run in
// the same ROOT, one after the other. In what is printed, ROOT reads $ROOT.
//
// The last line is "N identical, M differ"; the exit status is 1 when a case
// differs, 2 when the corpus cannot be run.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

type testCase struct {
	ID        string          `json:"id"`
	Setup     string          `json:"setup"`
	Args      []string        `json:"args"`
	Input     json.RawMessage `json:"input"`
	InputB64  []byte          `json:"input_b64"` // encoding/json decodes base64 into []byte
	InputFile string          `json:"input_file"`
}

// procPID matches what /proc/self resolves to, which differs per process.
var procPID = regexp.MustCompile(`/proc/[0-9]+/`)

type outcome struct {
	stdout, stderr []byte
	exit           int
}

func main() {
	corpus := flag.String("corpus", "../shared/conformance", "the corpus directory (cases.jsonl, policy.yaml)")
	run := flag.String("run", "", "only cases whose id matches this regular expression")
	withStderr := flag.Bool("stderr", true, "compare stderr too")
	flag.Parse()
	if flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: corpusdiff [-corpus DIR] [-run REGEXP] OLD NEW")
		os.Exit(2)
	}
	bins := [2]string{}
	for i, b := range flag.Args() {
		abs, err := filepath.Abs(b)
		if err != nil {
			fail(err)
		}
		bins[i] = abs
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fail(err)
	}
	policy, err := os.ReadFile(filepath.Join(*corpus, "policy.yaml"))
	if err != nil {
		fail(err)
	}
	cases, err := load(filepath.Join(*corpus, "cases.jsonl"))
	if err != nil {
		fail(err)
	}
	same, differ := 0, 0
	for _, c := range cases {
		if !re.MatchString(c.ID) {
			continue
		}
		outs, root, err := runBoth(c, bins, policy)
		if err != nil {
			fmt.Printf("ERROR %s: %v\n", c.ID, err)
			differ++
			continue
		}
		a, b := outs[0], outs[1]
		for _, o := range []*outcome{&a, &b} {
			// /proc/self resolves to the process's own pid.
			o.stdout, o.stderr = procPID.ReplaceAll(o.stdout, []byte("/proc/PID/")), procPID.ReplaceAll(o.stderr, []byte("/proc/PID/"))
		}
		if bytes.Equal(a.stdout, b.stdout) && a.exit == b.exit && (!*withStderr || bytes.Equal(a.stderr, b.stderr)) {
			same++
			continue
		}
		differ++
		show := func(b []byte) string { return strings.ReplaceAll(string(b), root, "$ROOT") }
		fmt.Printf("DIFF %s: exit %d vs %d\n", c.ID, a.exit, b.exit)
		if !bytes.Equal(a.stdout, b.stdout) {
			fmt.Printf("  old stdout: %s\n  new stdout: %s\n", show(a.stdout), show(b.stdout))
		}
		if *withStderr && !bytes.Equal(a.stderr, b.stderr) {
			fmt.Printf("  old stderr: %s\n  new stderr: %s\n", show(a.stderr), show(b.stderr))
		}
	}
	fmt.Printf("%d identical, %d differ\n", same, differ)
	if differ > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "corpusdiff:", err)
	os.Exit(2)
}

func load(file string) ([]testCase, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var c testCase
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// stdin returns the case's input with $ROOT filled in, or the file to read it
// from.
func (c *testCase) stdin(root string) ([]byte, string, error) {
	subst := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("$ROOT"), []byte(root)) }
	switch {
	case c.InputFile != "":
		return nil, strings.ReplaceAll(c.InputFile, "$ROOT", root), nil
	case c.InputB64 != nil:
		return subst(c.InputB64), "", nil
	}
	in := bytes.TrimSpace(c.Input)
	if len(in) > 0 && in[0] == '"' {
		var s string
		if err := json.Unmarshal(in, &s); err != nil {
			return nil, "", err
		}
		return subst([]byte(s)), "", nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, in); err != nil {
		return nil, "", err
	}
	return subst(buf.Bytes()), "", nil
}

func runBoth(c testCase, bins [2]string, policy []byte) ([2]outcome, string, error) {
	var outs [2]outcome
	tmp, err := os.MkdirTemp("", "szdiff-")
	if err != nil {
		return outs, "", err
	}
	defer func() {
		exec.Command("chmod", "-R", "u+rwx", tmp).Run()
		os.RemoveAll(tmp)
	}()
	root, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		return outs, "", err
	}
	home, proj := root+"/home", root+"/proj"
	if c.Setup != "" {
		cmd := exec.Command("bash", "-c", c.Setup)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "ROOT="+root, "HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			return outs, root, fmt.Errorf("setup: %v: %s", err, out)
		}
	}
	policyPath := root + "/policy.yaml"
	if err := os.WriteFile(policyPath, bytes.ReplaceAll(policy, []byte("$ROOT"), []byte(root)), 0o644); err != nil {
		return outs, root, err
	}
	args := []string{"--policy", policyPath}
	for _, a := range c.Args {
		args = append(args, strings.ReplaceAll(a, "$ROOT", root))
	}
	in, inFile, err := c.stdin(root)
	if err != nil {
		return outs, root, err
	}
	for i, bin := range bins {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_PROJECT_DIR="+proj, "PWD="+proj, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
		if inFile != "" {
			f, err := os.Open(inFile)
			if err != nil {
				cancel()
				return outs, root, err
			}
			cmd.Stdin = f
			defer f.Close()
		} else {
			cmd.Stdin = bytes.NewReader(in)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		cancel()
		outs[i] = outcome{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exit: cmd.ProcessState.ExitCode()}
	}
	return outs, root, nil
}
