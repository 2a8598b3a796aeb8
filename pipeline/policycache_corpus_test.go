package pipeline

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
)

// confineTemp is the temporary file a confined command's rewrite names.
var confineTemp = regexp.MustCompile(`safezone-[0-9a-f]{32}`)

// corpusCase is what TestPolicyCacheCorpus takes of a conformance case
// (../shared/conformance/README.md).
type corpusCase struct {
	ID       string          `json:"id"`
	Setup    string          `json:"setup"`
	Args     []string        `json:"args"`
	Input    json.RawMessage `json:"input"`
	InputB64 string          `json:"input_b64"`
}

// TestPolicyCacheCorpus: on every case of the conformance corpus, the hook
// prints the same answer (stdout, stderr and exit status) with no cache,
// when it writes the cache and when it reads it back. The corpus is run as
// its runner runs it, in process.
func TestPolicyCacheCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole conformance corpus, three times: not with -short")
	}
	dir := "../../shared/conformance"
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Skipf("no conformance corpus (../shared/ is absent): %v", err)
	}
	defer f.Close()
	refPolicy, err := os.ReadFile(filepath.Join(dir, "policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, c := range cases {
		if c.Input == nil && c.InputB64 == "" {
			continue // input_file: a large stdin, nothing the cache changes
		}
		if runCorpusCase(t, c, refPolicy) {
			hits++
		}
	}
	t.Logf("the cache was read back in %d cases of %d", hits, len(cases))
	// Most cases load a policy (the others are errors before it or of it).
	if hits < len(cases)*3/4 {
		t.Errorf("the cache was read back in %d cases of %d", hits, len(cases))
	}
}

// runCorpusCase runs one case three times and reports whether the third
// run found the cache the second wrote.
func runCorpusCase(t *testing.T, c corpusCase, refPolicy []byte) bool {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, proj := root+"/home", root+"/proj"
	if c.Setup != "" {
		cmd := exec.Command("bash", "-c", c.Setup)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "ROOT="+root, "HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: setup: %v: %s", c.ID, err, out)
		}
	}
	subst := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("$ROOT"), []byte(root)) }
	if err := os.WriteFile(root+"/policy.yaml", subst(refPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdin []byte
	switch {
	case c.InputB64 != "":
		if stdin, err = base64.StdEncoding.DecodeString(c.InputB64); err != nil {
			t.Fatal(err)
		}
	case bytes.HasPrefix(bytes.TrimSpace(c.Input), []byte("{")):
		var buf bytes.Buffer
		if err := json.Compact(&buf, c.Input); err != nil {
			t.Fatal(err)
		}
		stdin = buf.Bytes()
	default:
		var s string
		if err := json.Unmarshal(c.Input, &s); err != nil {
			t.Fatal(err)
		}
		stdin = []byte(s)
	}
	stdin = subst(stdin)
	args := []string{"--policy", root + "/policy.yaml"}
	for _, a := range c.Args {
		args = append(args, strings.ReplaceAll(a, "$ROOT", root))
	}
	sys := OSSystem()
	sys.StartIndex, sys.StartBuild = nil, nil
	sys.Start, sys.Exit = time.Time{}, nil
	// The sockets bound on the machine come and go between the runs
	// compared (other tests' servers): none is listed.
	sys.UnixSockets = func() (confine.BoundList, error) { return confine.BoundList{}, nil }
	env := map[string]string{"HOME": home, "CLAUDE_PROJECT_DIR": proj, "PWD": proj,
		"XDG_CONFIG_HOME": home + "/.config", "XDG_STATE_HOME": home + "/.local/state"}
	sys.Getenv = func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
	sys.Getwd = func() (string, error) { return proj, nil }
	day := time.Now()
	sys.Now = func() time.Time { return day }
	var outs [3]runResult
	for i, settle := range []time.Duration{0, time.Nanosecond, time.Nanosecond} {
		s := *sys
		s.cacheSettle = settle
		outs[i] = runHook(t, &s, bytes.NewReader(stdin), args...)
	}
	for i := range outs {
		// A confined command's rewrite names a fresh temporary file.
		outs[i].stdout = confineTemp.ReplaceAllString(outs[i].stdout, "safezone-TEMP")
	}
	for i := 1; i < 3; i++ {
		if outs[i] != outs[0] {
			t.Errorf("%s: run %d (%s) differs from the run without a cache:\n%.600s\n%.600s", c.ID, i, []string{"", "writing the cache", "from the cache"}[i], fmt.Sprintf("%+v", outs[0]), fmt.Sprintf("%+v", outs[i]))
		}
	}
	files, _ := filepath.Glob(home + "/.local/state/safezone/cache/policy-*")
	return len(files) == 1
}
