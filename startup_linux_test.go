package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxInitAllocs bounds the allocations of each of safezone's packages'
// initialisation (GODEBUG=inittrace=1): a call pays for its package-level
// work whether it needs it or not, so tables only some calls read are
// built on first use (sync.OnceValue; issue 31). In December 2026 the
// largest were pipeline's 28 and classify/shell's 28 (the lazy tables'
// own sync.OnceValue closures); before issue 31 hookio's were 538,
// policy's 127, classify/shell's 105.
const maxInitAllocs = 40

// TestStartupTables runs the built hook on a file tool's call (a Read)
// with the Go runtime's init trace and fails for a safezone package whose
// initialisation allocates more than maxInitAllocs: a table built at
// start-up that a file tool's call never reads.
func TestStartupTables(t *testing.T) {
	root := t.TempDir()
	bin, err := buildBinary(root)
	if err != nil {
		t.Fatal(err)
	}
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	for _, d := range []string{proj, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := `{"session_id":"s","cwd":"` + proj + `","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + proj + `/a.txt"},"tool_use_id":"t"}`
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "HOME="+home, "CLAUDE_PROJECT_DIR="+proj, "XDG_STATE_HOME=", "XDG_CONFIG_HOME=")
	cmd.Stdin = strings.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hook: %v\n%s", err, stderr.String())
	}
	if !bytes.Contains(out, []byte(`"allow"`)) {
		t.Fatalf("hook did not allow the Read: %s", out)
	}
	seen := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, A allocs (runtime/proc.go)
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[10] != "allocs" {
			continue
		}
		pkg := f[1]
		if pkg != "main" && !strings.HasPrefix(pkg, "github.com/safezonehq/safezone/") {
			continue
		}
		seen++
		allocs, err := strconv.Atoi(f[9])
		if err != nil {
			t.Fatalf("bad init trace line %q", sc.Text())
		}
		if allocs > maxInitAllocs {
			t.Errorf("%s allocates %d times at start-up (at most %d): build its tables on first use (sync.OnceValue), as a file tool's call does not read them", pkg, allocs, maxInitAllocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of safezone's packages on stderr:\n%s", stderr.String())
	}
}
