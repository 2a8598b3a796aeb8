package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/safezonehq/safezone/audit"
	"github.com/safezonehq/safezone/refusals"
)

// TestKernelRefusalsReported runs, through the hook in bypassPermissions
// with an audit log, a project script that reads a personal file of the
// home directory and writes outside the project: the kernel (Landlock)
// refuses both, its audit records reach the audit log attributed to the
// call (its session and tool_use_id), and the session's next call tells
// the model. It needs what the collector needs (CAP_AUDIT_READ, Landlock
// ABI 7): without them it skips, and with CI=true it fails. Where the
// kernel's audit is off it turns it on for the test and back off after
// (CAP_AUDIT_CONTROL).
func TestKernelRefusalsReported(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	skip := t.Skip
	if os.Getenv("CI") == "true" {
		skip = t.Fatal
	}
	if err := refusals.Listen(); err != nil {
		skip("the kernel's refusals cannot be read here: ", err)
	}
	if abi, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION); e != 0 || abi < 7 {
		skip("Landlock ABI 7 (Linux 6.15) logs the refusals of an exec'd program; here: ", abi, e)
	}
	if on, err := refusals.AuditEnabled(); err != nil {
		skip("cannot tell whether the kernel's audit is on: ", err)
	} else if !on {
		if err := setAudit(true); err != nil {
			skip("the kernel's audit is off and cannot be turned on for the test: ", err)
		}
		t.Cleanup(func() { setAudit(false) })
	}
	bin := confinedBuild(t)
	root := attackFixture(t)
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(home, "Documents"), 0o755)
	private := filepath.Join(home, "Documents", "private.txt")
	os.WriteFile(private, []byte("PERSONAL-S3CRET\n"), 0o644)
	outside := filepath.Join(root, "outside")
	// It also tries to register a launcher of its own choosing, which the
	// collector would trust: the registrations' directory is read-only.
	forged := filepath.Join(root, "state", "safezone", "refusals", "launch", "1")
	script := "cat " + private + "\ncat " + filepath.Join(home, ".ssh/id_rsa") + " .env\necho x > " + filepath.Join(outside, "new.txt") +
		"\necho forged > " + forged + "\necho done\n"
	os.WriteFile(filepath.Join(proj, "probe.sh"), []byte(script), 0o755)
	logPath := filepath.Join(root, "audit.jsonl")
	os.MkdirAll(filepath.Join(root, "xdg/safezone"), 0o700)
	if err := os.WriteFile(filepath.Join(root, "xdg/safezone/policy.yaml"), []byte("version: 1\naudit:\n  path: "+logPath+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(root, "state", "safezone", "refusals")
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(base, "collector.lock")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				unix.Kill(pid, unix.SIGKILL)
			}
		}
	})
	session := "sess-" + strconv.Itoa(os.Getpid())
	d, ctx, out := sessionCall(t, bin, root, session, "tool-1", "sh probe.sh")
	if d != "allow" {
		t.Fatalf("the probe: %s", d)
	}
	// ~/.ssh/id_rsa and .env are hidden by stand-ins (mode 000): the
	// permission check refuses them before Landlock, so no record names
	// them (README: not Landlock's refusals are not reported).
	if strings.Contains(out, "S3CRET") || !strings.Contains(out, "done") {
		t.Fatalf("the probe printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("the probe wrote outside")
	}
	if _, err := os.Stat(forged); err == nil {
		t.Fatal("the probe wrote a registration")
	}
	t.Logf("first call's context: %.200s", ctx)
	var recs []audit.Record
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		recs = kernelRecords(t, logPath)
		if len(recs) >= 2 {
			break
		}
	}
	var read, write bool
	for _, r := range recs {
		t.Logf("audit: %s %s %s: %s", r.ToolUseID, r.Rule, r.Targets[0].Given, r.Reason)
		if r.SessionID != session || r.ToolUseID != "tool-1" || r.Decision != "deny" || !r.Confined {
			t.Errorf("a record not attributed to the call: %+v", r)
		}
		switch {
		case r.Targets[0].Given == private && strings.Contains(r.Rule, "fs.read_file"):
			read = true
		case r.Targets[0].Given == outside && strings.Contains(r.Rule, "fs.make_reg"):
			write = true
		}
	}
	if !read || !write {
		filepath.Walk(base, func(p string, fi os.FileInfo, err error) error {
			b, _ := os.ReadFile(p)
			t.Logf("%s: %.300s", p, b)
			return nil
		})
		t.Fatalf("the audit log lacks the kernel's refusals (read %v, write %v): %+v", read, write, recs)
	}
	_, ctx, _ = sessionCall(t, bin, root, session, "tool-2", "ls")
	if !strings.Contains(ctx, "the kernel refused your previous confined command") || !strings.Contains(ctx, `reading the path it tried to open "`+private+`"`) || !strings.Contains(ctx, `creating a file in the path it tried to open "`+outside+`"`) {
		t.Errorf("the next call does not tell the model: %q", ctx)
	}
	_, ctx, _ = sessionCall(t, bin, root, session, "tool-3", "ls")
	if strings.Contains(ctx, "the kernel refused") {
		t.Errorf("told twice: %q", ctx)
	}
	// explain says they are reported.
	ex := exec.Command(bin, "explain")
	ex.Dir, ex.Stdin = proj, strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"`+proj+`","permission_mode":"bypassPermissions","tool_input":{"command":"sh probe.sh"}}`)
	ex.Env = []string{"HOME=" + home, "CLAUDE_PROJECT_DIR=" + proj, "PATH=" + os.Getenv("PATH"), "SHELL=/bin/bash",
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state"), "TMPDIR=/tmp"}
	if eout, err := ex.Output(); err != nil || !strings.Contains(string(eout), "refusals reported: what the kernel (Landlock) refuses it reaches the audit log") {
		t.Errorf("explain: %v\n%s", err, eout)
	}
	// replay --refusals lists them with the call they belong to.
	tr := filepath.Join(root, "session.jsonl")
	line, _ := json.Marshal(map[string]any{"type": "assistant", "cwd": proj, "sessionId": session, "timestamp": "2026-12-07T10:00:00.000Z",
		"permissionMode": "bypassPermissions", "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "tool-1", "name": "Bash", "input": map[string]any{"command": "sh probe.sh"}}}}})
	os.WriteFile(tr, append(line, '\n'), 0o600)
	rp := exec.Command(bin, "replay", "--refusals", logPath, tr)
	rp.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state")}
	rout, err := rp.CombinedOutput()
	if err != nil || !strings.Contains(string(rout), "refused when they ran (--refusals: 1 call)") || !strings.Contains(string(rout), "landlock fs.read_file "+private) {
		t.Errorf("replay --refusals: %v\n%s", err, rout)
	}
	rp = exec.Command(bin, "replay", "--json", "--refusals", logPath, tr)
	rp.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"), "XDG_STATE_HOME=" + filepath.Join(root, "state")}
	if rout, err = rp.Output(); err != nil || !strings.Contains(string(rout), `"refused":[`) {
		t.Errorf("replay --json --refusals: %v\n%s", err, rout)
	}
	// The fast launcher (built in the background since the first call)
	// registers and logs the same way.
	var fast []string
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && len(fast) == 0; time.Sleep(200 * time.Millisecond) {
		fast, _ = filepath.Glob(filepath.Join(root, "state/safezone/launcher/*/safezone-launch"))
	}
	if len(fast) == 0 {
		t.Fatal("the fast launcher was not built")
	}
	if d, _, out := sessionCall(t, bin, root, session, "tool-4", "sh probe.sh"); d != "allow" || strings.Contains(out, "PERSONAL-S3CRET") {
		t.Fatalf("the probe, second run: %s %q", d, out)
	}
	n := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && n < 2; time.Sleep(100 * time.Millisecond) {
		n = 0
		for _, r := range kernelRecords(t, logPath) {
			if r.ToolUseID == "tool-4" {
				n++
			}
		}
	}
	if n < 2 {
		b, _ := os.ReadFile(logPath)
		t.Errorf("under the fast launcher, %d refusals recorded:\n%s", n, b)
	}
}

// kernelRecords reads the kernel's refusals from the audit log at p.
func kernelRecords(t *testing.T, p string) []audit.Record {
	all, err := audit.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []audit.Record
	for _, r := range all {
		if r.Tool == "landlock" {
			out = append(out, r)
		}
	}
	return out
}

// sessionCall is hookCall with a session and tool_use_id, returning the
// model's additionalContext too. An allow without a rewritten command runs
// nothing (output ""), and the hook must exit 0.
func sessionCall(t *testing.T, bin, root, session, id, cmd string) (decision, context, output string) {
	t.Helper()
	r := bashCall(t, bin, root, filepath.Join(root, "proj"), session, id, cmd)
	if r.Code != 0 {
		t.Fatalf("hook: exit status %d (%s %s)", r.Code, r.Decision, r.Reason)
	}
	return r.Decision, r.Context, r.Output
}

// setAudit turns the kernel's audit on or off (AUDIT_SET, the
// audit_status mask AUDIT_STATUS_ENABLED), as auditctl -e does.
func setAudit(on bool) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_AUDIT)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	msg := make([]byte, unix.NLMSG_HDRLEN+44)
	binary.NativeEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.NativeEndian.PutUint16(msg[4:], 1001) // AUDIT_SET
	binary.NativeEndian.PutUint16(msg[6:], unix.NLM_F_REQUEST|unix.NLM_F_ACK)
	binary.NativeEndian.PutUint32(msg[unix.NLMSG_HDRLEN:], 1) // mask: AUDIT_STATUS_ENABLED
	if on {
		binary.NativeEndian.PutUint32(msg[unix.NLMSG_HDRLEN+4:], 1)
	}
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return err
	}
	if n >= unix.NLMSG_HDRLEN+4 && binary.NativeEndian.Uint16(buf[4:]) == unix.NLMSG_ERROR {
		if e := int32(binary.NativeEndian.Uint32(buf[unix.NLMSG_HDRLEN:])); e != 0 {
			return unix.Errno(-e)
		}
	}
	return nil
}
