package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/safezone":  "/usr/local/bin/safezone",
		"/opt/my tools/safezone":   "'/opt/my tools/safezone'",
		"/home/o'brien/bin/sz":     `'/home/o'\''brien/bin/sz'`,
		"/x/$(rm -rf ~)/safezone":  "'/x/$(rm -rf ~)/safezone'",
		"C:/Program Files/sz.exe":  "'C:/Program Files/sz.exe'",
		"/a/b-c_d.e+f@g:h%i,j=k/z": "/a/b-c_d.e+f@g:h%i,j=k/z",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestInitQuotedBinary registers a binary whose path needs quoting and
// checks that a second run finds the entry (no duplicate) and that the
// backup holds the old file.
func TestInitQuotedBinary(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Executable = "/opt/my tools/safezone"
	settings := filepath.Join(dir, "proj/.claude/settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	old := []byte(`{"permissions": {"deny": ["Read(.env)"]}}`)
	if err := os.WriteFile(settings, old, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		var stdout, stderr bytes.Buffer
		if code := cmdInit(nil, &stdout, &stderr, sys); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr.String())
		}
	}
	got, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), `"command": "'/opt/my tools/safezone'"`); n != 1 {
		t.Errorf("%d safezone entries after two runs:\n%s", n, got)
	}
	if !strings.Contains(string(got), `"Read(.env)"`) {
		t.Errorf("the permissions were lost:\n%s", got)
	}
	fi, err := os.Stat(settings)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after init: %v, %v; want 0600 kept", fi.Mode(), err)
	}
	bak, err := os.ReadFile(settings + ".bak-20261122-120000")
	if err != nil || !bytes.Equal(bak, old) {
		t.Errorf("backup: %q, %v; want the old file", bak, err)
	}
}

// TestGoRunBuild: safezone init refuses to register go run's temporary
// binary, which go deletes when it exits.
func TestGoRunBuild(t *testing.T) {
	for exe, want := range map[string]bool{
		"/tmp/go-build1234/b001/exe/safezone":     true,
		"/home/u/.cache/go-build/x/exe/safezone":  true,
		"/home/u/go/bin/safezone":                 false,
		"/usr/local/bin/safezone":                 false,
		"/home/u/src/go-build-tools/bin/safezone": false,
	} {
		if got := isGoRunBuild(exe); got != want {
			t.Errorf("isGoRunBuild(%q) = %v, want %v", exe, got, want)
		}
	}
}

// TestInitPolicyExamples: the policies init writes add nothing to the
// embedded default (so the project's needs no trust), and the examples in
// their comments, uncommented, are a valid policy over the default.
func TestInitPolicyExamples(t *testing.T) {
	for name, text := range map[string]string{"project": projectPolicy, "user": userPolicy} {
		l, err := policy.Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l.Scope = policy.ScopeProject
		if p := policy.Merge(pipeline.EmbeddedDefault(), l); len(p.Untrusted) != 0 || len(p.Removed) != 0 || p.Err() != nil {
			t.Errorf("%s: the file as written changes the default: %v %v %v", name, p.Untrusted, p.Removed, p.Err())
		}
		_, examples, ok := strings.Cut(text, "# Examples: remove the \"# \" in front of the lines you want.\n")
		if !ok {
			t.Fatalf("%s: no examples", name)
		}
		var lines []string
		for _, line := range strings.Split(strings.TrimSpace(examples), "\n") {
			rest, ok := strings.CutPrefix(line, "# ")
			if !ok {
				t.Fatalf("%s: example line %q is not commented", name, line)
			}
			lines = append(lines, rest)
		}
		l, err = policy.Parse(name+" examples", []byte("version: 1\n"+strings.Join(lines, "\n")+"\n"))
		if err != nil {
			t.Fatalf("%s examples: %v", name, err)
		}
		l.Scope = policy.ScopeFile
		if p := policy.Merge(pipeline.EmbeddedDefault(), l); p.Err() != nil || len(p.Removed) == 0 {
			t.Errorf("%s examples over the default: %v, removed %v", name, p.Err(), p.Removed)
		}
	}
}

// TestInitCopilot: init --host copilot registers at user level
// ($COPILOT_HOME/hooks, else ~/.copilot/hooks), which Copilot CLI runs in
// an untrusted folder too, says why, and names a project registration an
// older init left.
func TestInitCopilot(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Executable = "/opt/safezone"
	proj := filepath.Join(dir, "proj", ".github", "hooks", "safezone.json")
	if err := os.MkdirAll(filepath.Dir(proj), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proj, []byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"/opt/safezone --host copilot"}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := cmdInit([]string{"--host", "copilot"}, &stdout, &stderr, sys); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	user := filepath.Join(dir, "home", ".copilot", "hooks", "safezone.json")
	got, err := os.ReadFile(user)
	if err != nil || !strings.Contains(string(got), `"bash": "/opt/safezone --host copilot"`) || !strings.Contains(string(got), `"preToolUse"`) {
		t.Fatalf("%s: %s, %v", user, got, err)
	}
	for _, want := range []string{"~/.copilot/hooks/safezone.json: registered for every project of this user, since Copilot CLI drops a project's .github/hooks in prompt mode",
		".github/hooks/safezone.json registers safezone too", "then run copilot (or copilot -p) in " + filepath.Join(dir, "proj") + " (or any project): every tool call goes through safezone\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("init's output lacks %q:\n%s", want, out)
		}
	}
	// COPILOT_HOME moves the user's hooks.
	env := sys.Getenv
	sys.Getenv = func(k string) string {
		if k == "COPILOT_HOME" {
			return dir + "/cphome"
		}
		return env(k)
	}
	stdout.Reset()
	if code := cmdInit([]string{"--host", "copilot"}, &stdout, &stderr, sys); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "cphome", "hooks", "safezone.json")); err != nil {
		t.Errorf("COPILOT_HOME: %v\n%s", err, stdout.String())
	}
}
