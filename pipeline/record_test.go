package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestAuditConcurrentProcesses starts 64 hook processes at once, all
// appending to one audit log, and checks that every line is there exactly
// once, whole and valid JSON; then again with a max_bytes so small that the
// log rotates many times during the run, keeping every rotated file.
func TestAuditConcurrentProcesses(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no file lock on Windows (see package audit)")
	}
	bin, err := exec.LookPath("safezone") // installed by testscript.Main
	if err != nil {
		t.Skip("safezone is not on PATH:", err)
	}
	const procs = 64
	for _, tc := range []struct {
		name   string
		policy string
	}{
		{"one file", ""},
		{"rotating", "audit:\n  max_bytes: 2000\n  keep: 100\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			proj := filepath.Join(dir, "proj")
			os.MkdirAll(proj, 0o755)
			log := filepath.Join(dir, "logs", "audit.jsonl")
			os.MkdirAll(filepath.Dir(log), 0o755)
			pol := filepath.Join(dir, "policy.yaml")
			os.WriteFile(pol, []byte("version: 1\n"+tc.policy), 0o644)
			env := append(os.Environ(), "HOME="+dir+"/home", "CLAUDE_PROJECT_DIR="+proj,
				"SAFEZONE_MANAGED_POLICY="+dir+"/none.yaml", "XDG_CONFIG_HOME="+dir+"/xdg",
				"SAFEZONE_CLAUDE_MANAGED_SETTINGS="+dir+"/none.json")

			cmds := make([]*exec.Cmd, procs)
			outs := make([]bytes.Buffer, procs)
			for i := range cmds {
				// A write outside the project: denied, so logged.
				in := fmt.Sprintf(`{"session_id":"s%d","tool_use_id":"toolu_%d","tool_name":"Write","tool_input":{"file_path":"%s/outside/%d.txt","content":"x"},"cwd":"%s","permission_mode":"default"}`, i%4, i, dir, i, proj)
				c := exec.Command(bin, "--policy", pol, "--audit", log)
				c.Env, c.Stdin, c.Stdout, c.Stderr = env, strings.NewReader(in), &outs[i], &outs[i]
				cmds[i] = c
			}
			var start sync.WaitGroup
			start.Add(1)
			var wg sync.WaitGroup
			errs := make([]error, procs)
			for i, c := range cmds {
				wg.Go(func() {
					start.Wait()
					errs[i] = c.Run()
				})
			}
			start.Done() // all at once
			wg.Wait()
			for i, err := range errs {
				if err != nil || !strings.Contains(outs[i].String(), `"permissionDecision":"deny"`) {
					t.Errorf("process %d: %v: %s", i, err, outs[i].String())
				}
			}

			files, _ := filepath.Glob(log + "*")
			seen := map[string]int{}
			for _, f := range files {
				recs, err := audit.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range recs {
					seen[r.ToolUseID]++
					if r.Decision != "deny" || r.Rule != "sandbox.outside_write" || len(r.Targets) != 1 {
						t.Errorf("record %+v", r)
					}
				}
			}
			for i := range procs {
				if n := seen["toolu_"+strconv.Itoa(i)]; n != 1 {
					t.Errorf("toolu_%d logged %d times, want once", i, n)
				}
			}
			if len(seen) != procs {
				t.Errorf("%d distinct records, want %d", len(seen), procs)
			}
			t.Logf("%d processes, %d records in %d file(s)", procs, len(seen), len(files))
			if tc.policy != "" && len(files) < 5 {
				t.Errorf("only %d files: the log did not rotate during the run", len(files))
			}
		})
	}
}

// TestDryRunDeadline: a dry run prints nothing even when the decision
// runs out of time.
func TestDryRunDeadline(t *testing.T) {
	sys, dir := testSystem(t)
	release := make(chan struct{})
	defer close(release)
	sys.FS, sys.Deadline = slowFS{release}, 50*time.Millisecond
	in := pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/README.md"})
	r := runHook(t, sys, strings.NewReader(in), "--dry-run", "--audit", dir+"/audit.jsonl")
	if r.stdout != "" || r.code != 0 || !strings.Contains(r.stderr, "would deny: safezone: deny: no decision within 50ms") {
		t.Errorf("stdout %q exit %d stderr %q", r.stdout, r.code, r.stderr)
	}
	recs, err := audit.ReadFile(dir + "/audit.jsonl")
	if err != nil || len(recs) != 1 || recs[0].WouldDecide != "deny" || !strings.Contains(recs[0].Error, "no decision within") {
		t.Errorf("the deadline's deny is recorded: %+v %v", recs, err)
	}
}
