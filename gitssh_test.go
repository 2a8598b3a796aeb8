package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/confine"
)

// TestGitOverSSH runs git push, fetch, pull, ls-remote and clone over ssh
// confined, for real, against an sshd started by the test on 127.0.0.1
// (issue 20, item 5): once through an ssh-agent whose socket lies where
// agents keep theirs ($TMPDIR/ssh-*/, a directory a confined command gets
// a tmpfs of its own over), once through a key file in ~/.ssh, once
// through an agent that only IdentityAgent in ~/.ssh/config names, at
// ~/.1password/agent.sock as 1Password's (issue 27, item 6: no variable
// names it). The default grants leave the agents' sockets reachable and
// ~/.ssh readable to those git commands only: `git push ... && python3
// x.py` gets no grant, and a confined python3 can neither read ~/.ssh nor
// reach either agent.
//
// ssh is pointed at the test's ~/.ssh/config by GIT_SSH_COMMAND in the
// environment the hook and the command run with (ssh finds ~ in the
// password database, not $HOME); in the command itself it would make the
// command unknown, without a grant.
//
// It needs sshd (Debian's openssh-server), ssh, ssh-keygen, ssh-agent and
// git, and skips without them. Run as root, sshd needs its privilege
// separation directory /run/sshd, which the test makes (mode 0755, as
// sshd's systemd unit does) when it is missing.
func TestGitOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an sshd (-short)")
	}
	if st := confine.Available(); !st.Confine() || st.ReadOnly != nil {
		t.Skip("the kernel cannot confine commands with a mount namespace here")
	}
	bin, err := exec.LookPath("safezone") // installed by testscript.Main
	if err != nil {
		t.Skip("safezone is not on PATH:", err)
	}
	if err := proxyBesideInstalled(); err != nil {
		t.Fatal(err)
	}
	sshd := lookSbin("sshd")
	for _, p := range []string{"ssh", "ssh-keygen", "ssh-agent", "ssh-add", "git", "python3"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("no %s: %v", p, err)
		}
	}
	if sshd == "" {
		t.Skip("no sshd (Debian's openssh-server)")
	}
	if os.Geteuid() == 0 {
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Skip("sshd as root needs /run/sshd:", err)
		}
	}

	d := workRoot(t)
	home, proj := filepath.Join(d, "home"), filepath.Join(d, "proj")
	srv := filepath.Join(d, "sshd")
	for _, p := range []string{home + "/.ssh", proj, srv, d + "/remote", d + "/agentkey"} {
		mustMkdir(t, p)
	}
	// Private keys must not be readable by others: ssh refuses them.
	must(t, os.Chmod(home+"/.ssh", 0o700))
	must(t, os.Chmod(d+"/agentkey", 0o700))
	runIn(t, d, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", srv+"/host_key")
	runIn(t, d, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "file key", "-f", home+"/.ssh/id_ed25519")
	runIn(t, d, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "agent key", "-f", d+"/agentkey/id")
	var keys []byte
	for _, p := range []string{home + "/.ssh/id_ed25519.pub", d + "/agentkey/id.pub"} {
		b, err := os.ReadFile(p)
		must(t, err)
		keys = append(keys, b...)
	}
	writeFile(t, srv+"/authorized_keys", string(keys))

	port := freePort(t)
	writeFile(t, srv+"/sshd_config", fmt.Sprintf(`ListenAddress 127.0.0.1
Port %d
HostKey %s/host_key
AuthorizedKeysFile %s/authorized_keys
PidFile none
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
`, port, srv, srv))
	startDaemon(t, sshd, "-D", "-e", "-f", srv+"/sshd_config")
	waitPort(t, port)

	user := currentUser(t)
	// The agent no variable names, where 1Password's listens. ssh finds ~
	// in the password database, not $HOME: the configuration names it by
	// its absolute path.
	onepass := filepath.Join(home, ".1password", "agent.sock")
	mustMkdir(t, filepath.Dir(onepass))
	// Three hosts, one per way of authenticating: the key file, and each
	// agent only (the key file not offered).
	writeFile(t, home+"/.ssh/config", fmt.Sprintf(`Host keyfile
	HostName 127.0.0.1
	Port %[1]d
	User %[2]s
	IdentityFile %[3]s/.ssh/id_ed25519
	IdentitiesOnly yes
	IdentityAgent none
	UserKnownHostsFile %[3]s/.ssh/known_hosts
	StrictHostKeyChecking accept-new
	BatchMode yes
Host agent
	HostName 127.0.0.1
	Port %[1]d
	User %[2]s
	IdentityFile none
	UserKnownHostsFile %[3]s/.ssh/known_hosts
	StrictHostKeyChecking accept-new
	BatchMode yes
Host onepass
	HostName 127.0.0.1
	Port %[1]d
	User %[2]s
	IdentityFile none
	IdentityAgent "%[4]s"
	UserKnownHostsFile %[3]s/.ssh/known_hosts
	StrictHostKeyChecking accept-new
	BatchMode yes
`, port, user, home, onepass))
	writeFile(t, home+"/.gitconfig", "[user]\n\tname = Test\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n")

	// The agent, with its socket where ssh-agent puts it: $TMPDIR/ssh-*/,
	// in a TMPDIR of the test's own (the hook looks there too), so that
	// the hooks other tests run at the same time do not find it in /tmp.
	tmp := t.TempDir()
	agentDir, err := os.MkdirTemp(tmp, "ssh-safezone-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(agentDir) })
	sock := filepath.Join(agentDir, "agent.sock")
	startDaemon(t, "ssh-agent", "-D", "-a", sock)
	waitSocket(t, sock)
	runIn(t, d, []string{"SSH_AUTH_SOCK=" + sock}, "ssh-add", "-q", d+"/agentkey/id")
	startDaemon(t, "ssh-agent", "-D", "-a", onepass)
	waitSocket(t, onepass)
	runIn(t, d, []string{"SSH_AUTH_SOCK=" + onepass}, "ssh-add", "-q", d+"/agentkey/id")

	// The remote: a bare repository with one commit.
	remote := d + "/remote/repo.git"
	runIn(t, d, nil, "git", "init", "-q", "--bare", "-b", "main", remote)
	seed := d + "/seed"
	runIn(t, d, []string{"HOME=" + home}, "git", "init", "-q", "-b", "main", seed)
	writeFile(t, seed+"/README", "seed\n")
	runIn(t, seed, []string{"HOME=" + home}, "git", "add", "README")
	runIn(t, seed, []string{"HOME=" + home}, "git", "commit", "-q", "-m", "seed")
	runIn(t, seed, []string{"HOME=" + home}, "git", "push", "-q", remote, "main")

	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home, "USER=" + user, "LANG=C", "TMPDIR=" + tmp,
		"CLAUDE_PROJECT_DIR=" + proj,
		"SAFEZONE_MANAGED_POLICY=" + d + "/etc/safezone/policy.yaml",
		"XDG_CONFIG_HOME=" + d + "/xdg",
		"SAFEZONE_CLAUDE_MANAGED_SETTINGS=" + d + "/etc/claude-code/managed-settings.json",
		"GIT_SSH_COMMAND=ssh -F " + home + "/.ssh/config",
	}
	agentEnv := append(slices.Clone(env), "SSH_AUTH_SOCK="+sock)
	// The work repository: a clone made unconfined, with both remotes.
	runIn(t, d, env, "git", "clone", "-q", "keyfile:"+remote, proj)
	runIn(t, proj, env, "git", "remote", "add", "viaagent", "agent:"+remote)
	runIn(t, proj, env, "git", "remote", "add", "viaonepass", "onepass:"+remote)

	// The test's own check: host "agent" needs the agent, host "keyfile"
	// the key file.
	ssh := func(env []string, host string) error {
		c := exec.Command("ssh", "-F", home+"/.ssh/config", host, "true")
		c.Env = env
		return c.Run()
	}
	if err := ssh(agentEnv, "agent"); err != nil {
		t.Fatalf("ssh through the agent, unconfined: %v", err)
	}
	if err := ssh(env, "agent"); err == nil {
		t.Fatal("ssh to host agent works without the agent: the test would prove nothing")
	}
	if err := ssh(env, "keyfile"); err != nil {
		t.Fatalf("ssh with the key file, unconfined: %v", err)
	}
	if err := ssh(env, "onepass"); err != nil {
		t.Fatalf("ssh through the IdentityAgent, unconfined: %v", err)
	}

	h := &hookRunner{t: t, bin: bin}
	remoteLog := func() string {
		return runIn(t, d, nil, "git", "--git-dir", remote, "log", "--format=%s", "main")
	}

	for _, tc := range []struct {
		name, remote string
		env          []string
	}{
		{"key file", "origin", env},
		{"agent", "viaagent", agentEnv},
		{"identity agent", "viaonepass", env},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.t = t
			msg := "commit via " + tc.name
			writeFile(t, proj+"/"+strings.ReplaceAll(tc.name, " ", "-")+".txt", msg+"\n")
			out := h.confined(proj, tc.env, 0, "git add -A && git commit -q -m '"+msg+"' && git push -q "+tc.remote+" HEAD:main")
			if !strings.Contains(remoteLog(), msg) {
				t.Fatalf("the push did not reach the remote: %s\n%s", remoteLog(), out)
			}
			ex := h.explain(proj, tc.env, "git push -q "+tc.remote+" HEAD:main")
			if !slices.Contains(ex.Granted, filepath.Join(home, ".ssh")) {
				t.Errorf("explain shows no grant of ~/.ssh: granted %v", ex.Granted)
			}
			if tc.name == "agent" && !slices.Contains(ex.Kept, sock) {
				t.Errorf("explain does not keep the agent's socket %s: kept %v", sock, ex.Kept)
			}
			if tc.name == "identity agent" && (!slices.Contains(ex.Kept, onepass) || slices.Contains(ex.Ruleset.Hide, onepass)) {
				t.Errorf("explain does not keep the IdentityAgent's socket %s: kept %v, hidden %v", onepass, ex.Kept, ex.Ruleset.Hide)
			}

			// Someone else pushes; fetch, pull and ls-remote see it.
			other := d + "/other-" + tc.remote
			runIn(t, d, env, "git", "clone", "-q", remote, other)
			writeFile(t, other+"/from-other.txt", tc.name+"\n")
			runIn(t, other, env, "git", "add", "-A")
			runIn(t, other, env, "git", "commit", "-q", "-m", "other "+tc.name)
			runIn(t, other, env, "git", "push", "-q", "origin", "main")
			h.confined(proj, tc.env, 0, "git fetch -q "+tc.remote)
			if got := runIn(t, proj, nil, "git", "log", "--format=%s", "-1", tc.remote+"/main"); !strings.Contains(got, "other "+tc.name) {
				t.Errorf("fetch did not bring the new commit: %q", got)
			}
			h.confined(proj, tc.env, 0, "git pull -q --ff-only "+tc.remote+" main")
			if _, err := os.Stat(proj + "/from-other.txt"); err != nil {
				t.Errorf("pull did not bring the file: %v", err)
			}
			if out := h.confined(proj, tc.env, 0, "git ls-remote "+tc.remote); !strings.Contains(out, "refs/heads/main") {
				t.Errorf("ls-remote: %q", out)
			}
			host := map[string]string{"key file": "keyfile", "agent": "agent", "identity agent": "onepass"}[tc.name]
			h.confined(proj, tc.env, 0, "git clone -q "+host+":"+remote+" cloned-"+tc.remote)
			if _, err := os.Stat(proj + "/cloned-" + tc.remote + "/from-other.txt"); err != nil {
				t.Errorf("clone: %v", err)
			}
		})
	}
	h.t = t

	// No grant for a line that also runs a program safezone cannot see
	// into: the push cannot use the key or the agent, and nothing is
	// pushed.
	writeFile(t, proj+"/x.py", `import os, socket, sys
failed = 0
for p in [os.path.expanduser("~/.ssh/id_ed25519"), os.path.expanduser("~/.ssh/config")]:
    try:
        open(p).read()
        print("read", p)
    except OSError as e:
        print("cannot read", p, e)
        failed += 1
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(os.environ["SSH_AUTH_SOCK"])
    print("reached the agent")
except OSError as e:
    print("cannot reach the agent:", e)
    failed += 1
sys.exit(0 if failed == 3 else 1)
`)
	runIn(t, proj, nil, "git", "add", "x.py")
	runIn(t, proj, env, "git", "commit", "-q", "-m", "not to be pushed")
	before := remoteLog()
	for _, e := range [][]string{env, agentEnv} {
		for _, remote := range []string{"origin", "viaagent", "viaonepass"} {
			line := "git push -q " + remote + " HEAD:main && python3 x.py"
			ex := h.explain(proj, e, line)
			if len(ex.Granted) > 0 || slices.Contains(ex.Kept, sock) || slices.Contains(ex.Kept, onepass) || !slices.Contains(ex.Ruleset.Hide, onepass) || !slices.Contains(ex.Ruleset.Hide, filepath.Join(home, ".ssh")) {
				t.Errorf("%s: granted %v, kept %v, hidden %v: want no grant", line, ex.Granted, ex.Kept, ex.Ruleset.Hide)
			}
			out := h.confined(proj, e, -1, line)
			if !strings.Contains(out, "Permission denied") {
				t.Errorf("%s: the push did not fail for want of the key or the agent:\n%s", line, out)
			}
		}
	}
	if after := remoteLog(); after != before {
		t.Errorf("a push without a grant reached the remote: %q", after)
	}
	// python3 alone, confined: no ~/.ssh, no agent.
	out := h.confined(proj, agentEnv, 0, "python3 x.py")
	for _, want := range []string{"cannot read " + home + "/.ssh/id_ed25519", "cannot read " + home + "/.ssh/config", "cannot reach the agent"} {
		if !strings.Contains(out, want) {
			t.Errorf("python3 x.py: %q missing from\n%s", want, out)
		}
	}
	// Unconfined, the same script reads them and reaches the agent (the
	// test's own check).
	if out := runIn(t, proj, agentEnv, "sh", "-c", "python3 x.py || true"); strings.Contains(out, "cannot") {
		t.Errorf("unconfined, x.py could not read or connect: %s", out)
	}
	// The IdentityAgent's socket, which no variable names: reachable
	// unconfined, not confined.
	onepassEnv := append(slices.Clone(env), "SSH_AUTH_SOCK="+onepass)
	if out := runIn(t, proj, onepassEnv, "sh", "-c", "python3 x.py || true"); !strings.Contains(out, "reached the agent") {
		t.Errorf("unconfined, x.py could not reach the IdentityAgent: %s", out)
	}
	if out := h.confined(proj, env, 0, "SSH_AUTH_SOCK="+onepass+" python3 x.py"); !strings.Contains(out, "cannot reach the agent") {
		t.Errorf("confined, x.py reached the IdentityAgent %s:\n%s", onepass, out)
	}

	// Issue 29, item 3: ssh, scp and rsync to a host. Their configuration
	// lies outside ~/.ssh (-F names it: ssh finds ~ in the password
	// database), the key file and known_hosts in it. Without a grant the
	// call is asked, the reason saying which grant to add.
	cfgDir := filepath.Join(d, "sshcfg")
	mustMkdir(t, cfgDir)
	cfgData, err := os.ReadFile(home + "/.ssh/config")
	must(t, err)
	cfg := filepath.Join(cfgDir, "config")
	writeFile(t, cfg, string(cfgData))
	writeFile(t, proj+"/payload.txt", "payload\n")
	mustMkdir(t, d+"/dropbox")
	sshLines := []string{
		"ssh -F " + cfg + " keyfile echo over-ssh",
		"scp -O -F " + cfg + " payload.txt keyfile:" + d + "/dropbox/scp.txt",
	}
	_, rsyncErr := exec.LookPath("rsync")
	if rsyncErr == nil {
		sshLines = append(sshLines, "rsync -e 'ssh -F "+cfg+"' payload.txt keyfile:"+d+"/dropbox/rsync.txt")
	}
	for _, line := range sshLines[:2] {
		dec, reason := h.decision(proj, env, line)
		name := strings.Fields(line)[0]
		if dec != "ask" || !strings.Contains(reason, `confine.grants: [{command: "`+name+`:*"`) {
			t.Errorf("%s without a grant: %s %q, want ask naming the grant", line, dec, reason)
		}
	}
	// With the grants in the user's policy, each runs confined and works.
	mustMkdir(t, d+"/xdg/safezone")
	writeFile(t, d+"/xdg/safezone/policy.yaml", `version: 1
confine:
  grants:
    - {command: "ssh:*", read: ["~/.ssh/**"], sockets: ["$SSH_AUTH_SOCK"]}
    - {command: "scp:*", read: ["~/.ssh/**"], sockets: ["$SSH_AUTH_SOCK"]}
`)
	if out := h.confined(proj, env, 0, sshLines[0]); !strings.Contains(out, "over-ssh") {
		t.Errorf("%s, granted: %q", sshLines[0], out)
	}
	h.confined(proj, env, 0, sshLines[1])
	if got := readFileT(t, d+"/dropbox/scp.txt"); got != "payload\n" {
		t.Errorf("scp, granted: the remote file holds %q", got)
	}
	// rsync -e runs a command the analysis does not know (README, "Bash
	// commands"): asked whatever the grants.
	if rsyncErr == nil {
		if dec, _ := h.decision(proj, env, sshLines[2]); dec != "ask" {
			t.Errorf("%s: %s, want ask", sshLines[2], dec)
		}
	}
	// The grant is ssh's alone: a script on the same line gets none.
	if dec, reason := h.decision(proj, env, sshLines[0]+"; python3 x.py"); dec != "ask" || !strings.Contains(reason, "grants do not apply") {
		t.Errorf("ssh with a script on the line: %s %q, want ask", dec, reason)
	}
}

// readFileT returns the contents of p.
func readFileT(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	must(t, err)
	return string(b)
}

// decision runs the hook on command in dir with env and returns its
// decision and reason.
func (h *hookRunner) decision(dir string, env []string, command string) (string, string) {
	h.t.Helper()
	in, err := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]string{"command": command},
		"cwd": dir, "permission_mode": "bypassPermissions"})
	must(h.t, err)
	c := exec.Command(h.bin)
	c.Env, c.Stdin, c.Dir = env, bytes.NewReader(in), dir
	answer, err := c.Output()
	if err != nil {
		h.t.Fatalf("%s: the hook: %v: %s", command, err, answer)
	}
	var out struct {
		HSO struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	must(h.t, json.Unmarshal(answer, &out))
	return out.HSO.Decision, out.HSO.Reason
}

// hookRunner runs the hook (the safezone binary bin) on Bash calls made in
// bypassPermissions, and their confined forms.
type hookRunner struct {
	t   *testing.T
	bin string
}

// confined runs the hook on command in dir with env, requires allow with
// updatedInput, runs the rewritten command with bash -c there and returns
// its combined output. Its exit status must be want, or, for want -1,
// a failure of the command itself (not 0, not the launcher's
// confine.ExitCannotRun).
func (h *hookRunner) confined(dir string, env []string, want int, command string) string {
	h.t.Helper()
	in, err := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]string{"command": command},
		"cwd": dir, "permission_mode": "bypassPermissions"})
	must(h.t, err)
	c := exec.Command(h.bin)
	c.Env, c.Stdin, c.Dir = env, bytes.NewReader(in), dir
	answer, err := c.Output()
	if err != nil {
		h.t.Fatalf("%s: the hook: %v: %s", command, err, answer)
	}
	var out struct {
		HSO struct {
			Decision     string `json:"permissionDecision"`
			UpdatedInput struct {
				Command string `json:"command"`
			} `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	must(h.t, json.Unmarshal(answer, &out))
	if out.HSO.Decision != "allow" || out.HSO.UpdatedInput.Command == "" {
		h.t.Fatalf("%s: the hook answered %s, want allow with updatedInput: %s", command, out.HSO.Decision, answer)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := exec.CommandContext(ctx, "bash", "-c", out.HSO.UpdatedInput.Command)
	r.Env, r.Dir = env, dir
	got, err := r.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatalf("%s: %v", command, err)
	}
	if (want >= 0 && code != want) || (want < 0 && (code == 0 || code == confine.ExitCannotRun)) {
		h.t.Fatalf("%s: exit status %d, want %d:\n%s", command, code, want, got)
	}
	return string(got)
}

// explained is the confinement `safezone explain --json` shows.
type explained struct {
	Ruleset confine.Ruleset
	Granted []string
	Kept    []string
	Why     map[string]string
}

// explain returns `safezone explain --json`'s confinement of command.
func (h *hookRunner) explain(dir string, env []string, command string) explained {
	h.t.Helper()
	in, err := json.Marshal(map[string]any{"tool_name": "Bash", "tool_input": map[string]string{"command": command},
		"cwd": dir, "permission_mode": "bypassPermissions"})
	must(h.t, err)
	c := exec.Command(h.bin, "explain", "--json")
	c.Env, c.Stdin, c.Dir = env, bytes.NewReader(in), dir
	answer, err := c.Output()
	if err != nil {
		h.t.Fatalf("%s: explain: %v: %s", command, err, answer)
	}
	var ex struct {
		Confine *struct {
			Confined bool              `json:"confined"`
			Ruleset  string            `json:"ruleset"` // confine.Ruleset's MarshalText
			Why      map[string]string `json:"why"`
			Granted  []string          `json:"granted"`
			Kept     []string          `json:"kept"`
		} `json:"confine"`
	}
	must(h.t, json.Unmarshal(answer, &ex))
	if ex.Confine == nil || !ex.Confine.Confined {
		h.t.Fatalf("%s: explain shows no confinement: %s", command, answer)
	}
	rs, err := confine.ParseRuleset(ex.Confine.Ruleset)
	must(h.t, err)
	return explained{Ruleset: rs, Granted: ex.Confine.Granted, Kept: ex.Confine.Kept, Why: ex.Confine.Why}
}

// lookSbin finds a daemon in $PATH or the sbin directories, which a
// user's $PATH may lack; "" if there is none.
func lookSbin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range []string{"/usr/sbin", "/sbin", "/usr/local/sbin"} {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() {
			return filepath.Join(d, name)
		}
	}
	return ""
}

// startDaemon starts a program that stays in the foreground, killed (by
// its process) when the test ends.
func startDaemon(t *testing.T, name string, args ...string) {
	t.Helper()
	var stderr bytes.Buffer
	c := exec.Command(name, args...)
	c.Stderr = &stderr
	must(t, c.Start())
	t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
		if t.Failed() {
			t.Logf("%s: %s", name, stderr.String())
		}
	})
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitPort waits until something accepts connections on 127.0.0.1:port.
func waitPort(t *testing.T, port int) {
	t.Helper()
	waitDial(t, "tcp", "127.0.0.1:"+strconv.Itoa(port))
}

// waitSocket waits until something accepts connections on the Unix socket
// p.
func waitSocket(t *testing.T, p string) {
	t.Helper()
	waitDial(t, "unix", p)
}

func waitDial(t *testing.T, network, addr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial(network, addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s %s: %v", network, addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// currentUser is the name of the user the test runs as.
func currentUser(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("id", "-un").Output()
	must(t, err)
	return strings.TrimSpace(string(out))
}

// runIn runs name with args in dir, with the test's environment plus env
// (or env alone when it sets PATH), and returns its combined output; a
// failure ends the test.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	c := exec.Command(name, args...)
	c.Dir = dir
	c.Env = append(os.Environ(), env...)
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "PATH=") }) {
		c.Env = env
	}
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t testing.TB, p string) {
	t.Helper()
	must(t, os.MkdirAll(p, 0o755))
}
