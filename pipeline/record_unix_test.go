//go:build unix

package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestAuditHung: an audit log that never accepts the write (a FIFO without
// a reader, like a hung file system) costs at most the deadline; the
// decision stands unless audit.required is true, which denies.
func TestAuditHung(t *testing.T) {
	sys, dir := testSystem(t)
	sys.Deadline = 100 * time.Millisecond
	fifo := filepath.Join(dir, "audit.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	defer func() {
		// Release the writers still blocked in open.
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			time.Sleep(10 * time.Millisecond)
			f.Close()
		}
	}()
	required := filepath.Join(dir, "required.yaml")
	os.WriteFile(required, []byte("version: 1\naudit:\n  required: true\n"), 0o644)
	in := pipelinetest.Input("Write", dir+"/proj", map[string]any{"file_path": dir + "/outside/x", "content": "x"})

	start := time.Now()
	r := runHook(t, sys, strings.NewReader(in), "--audit", fifo)
	if r.decision != "deny" || r.code != 0 || !strings.Contains(r.stdout, "sandbox.outside_write") {
		t.Errorf("not required: the decision stands: %s %d %s", r.decision, r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "not written in time") || !strings.Contains(r.stderr, "the decision stands") {
		t.Errorf("stderr: %q", r.stderr)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v with a 100ms deadline", d)
	}

	in = pipelinetest.Input("Read", dir+"/proj", map[string]any{"file_path": dir + "/proj/README.md"})
	r = runHook(t, sys, strings.NewReader(in), "--audit", fifo, "--policy", required)
	if r.decision != "deny" || r.code != 2 || !strings.Contains(r.stdout, "not written in time") || !strings.Contains(r.stdout, "audit.required is true") {
		t.Errorf("required: %s %d %s", r.decision, r.code, r.stdout)
	}
}

// TestAuditSyslog: audit.syslog sends each record to the local syslog
// daemon; without one, the failure is reported and the decision stands.
func TestAuditSyslog(t *testing.T) {
	sys, dir := testSystem(t)
	pol := filepath.Join(dir, "syslog.yaml")
	os.WriteFile(pol, []byte("version: 1\naudit:\n  syslog: true\n"), 0o644)
	in := pipelinetest.Input("Write", dir+"/proj", map[string]any{"file_path": dir + "/outside/x", "content": "x"})
	r := runHook(t, sys, strings.NewReader(in), "--policy", pol)
	if r.decision != "deny" || r.code != 0 {
		t.Fatalf("%s %d %s", r.decision, r.code, r.stdout)
	}
	daemon := false
	for _, p := range []string{"/dev/log", "/var/run/syslog", "/var/run/log"} {
		if st, err := os.Stat(p); err == nil && st.Mode()&os.ModeSocket != 0 {
			daemon = true
		}
	}
	switch {
	case daemon && r.stderr != "":
		t.Errorf("a syslog daemon listens, yet: %s", r.stderr)
	case !daemon && !(strings.Contains(r.stderr, "safezone: audit: syslog: ") && strings.Contains(r.stderr, "the decision stands")):
		t.Errorf("no syslog daemon: the failure is reported: %q", r.stderr)
	}
	t.Logf("syslog daemon: %v; stderr: %q", daemon, r.stderr)
}
