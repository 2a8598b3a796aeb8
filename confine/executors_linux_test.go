package confine

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listen serves a Unix socket at p that greets every client with its own
// path, until the test ends.
func listen(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from " + p + "\n"))
			c.Close()
		}
	}()
}

// TestExecutors: the sockets that lead to programs outside the sandbox are
// found where the environment and the usual places name them, and a
// confined command cannot connect to them; a socket kept by a grant stays
// reachable inside a directory that gets a tmpfs.
func TestExecutors(t *testing.T) {
	needNamespaces(t)
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("needs python3 to connect to Unix sockets")
	}
	f := newFixture(t)
	rt := f.root + "/run/user/1000"
	socks := map[string]string{
		"bus":    rt + "/bus",
		"kept":   rt + "/keyring/ssh",
		"agent":  f.root + "/agents/ssh.sock",
		"docker": f.root + "/docker.sock",
		"tmux":   f.root + "/tmux/default",
	}
	for _, p := range socks {
		listen(t, p)
	}
	env := map[string]string{
		"XDG_RUNTIME_DIR": rt,
		"SSH_AUTH_SOCK":   socks["agent"],
		"DOCKER_HOST":     "unix://" + socks["docker"],
		"TMUX":            socks["tmux"] + ",123,0",
	}
	ex := FindExecutors(func(k string) string { return env[k] }, 1000, f.home)
	if !slices.Contains(ex.Tmpfs, rt) {
		t.Errorf("Tmpfs %v lacks the runtime directory %s", ex.Tmpfs, rt)
	}
	for _, k := range []string{"agent", "docker", "tmux"} {
		if !slices.Contains(ex.Hide, socks[k]) {
			t.Errorf("Hide %v lacks %s (%s)", ex.Hide, socks[k], k)
		}
	}
	if slices.Contains(ex.Hide, socks["bus"]) {
		t.Errorf("Hide %v holds %s, which the runtime directory's tmpfs covers", ex.Hide, socks["bus"])
	}
	rs := Ruleset{Write: append([]string{f.proj}, Devices()...), Hide: ex.Hide, Tmpfs: ex.Tmpfs, Keep: []string{socks["kept"]}}
	rs.Write = append(rs.Write, ex.Tmpfs...)
	rules, _ := rs.Normalize().MarshalText()
	const script = `
import socket, sys
for p in sys.argv[1:]:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(p)
        print("reached", s.recv(200).decode().strip())
    except OSError as e:
        print("refused", p)
`
	args := []string{"exec", string(rules), python, "-c", script}
	for _, k := range []string{"bus", "kept", "agent", "docker", "tmux"} {
		args = append(args, socks[k])
	}
	r := runLauncher(t, f.proj, nil, args...)
	for _, k := range []string{"bus", "agent", "docker", "tmux"} {
		if !strings.Contains(r.stdout, "refused "+socks[k]+"\n") {
			t.Errorf("%s (%s) was not refused: stdout %q, stderr %q", k, socks[k], r.stdout, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, "reached hello from "+socks["kept"]) {
		t.Errorf("the kept socket %s was not reached: stdout %q, stderr %q", socks["kept"], r.stdout, r.stderr)
	}
	// The runtime directory is the command's own, empty and writable.
	r = runLauncher(t, f.proj, nil, "exec", string(rules), "/bin/sh", "-c", "ls -A "+rt+"; echo x > "+rt+"/mine && cat "+rt+"/mine")
	if r.code != 0 || r.stdout != "keyring\nx\n" {
		t.Errorf("runtime directory: exit %d, stdout %q, stderr %q; want only keyring/ (the kept socket's way) and a file of its own", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(rt + "/mine"); err == nil {
		t.Error("the command's file reached the real runtime directory")
	}
}

func TestSocketPath(t *testing.T) {
	for _, tc := range []struct{ name, v, want string }{
		{"SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1", "/tmp/ssh-x/agent.1"},
		{"DOCKER_HOST", "unix:///var/run/docker.sock", "/var/run/docker.sock"},
		{"DOCKER_HOST", "tcp://127.0.0.1:2375", ""},
		{"DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus,guid=1", "/run/user/1000/bus"},
		{"DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/dbus-x;unix:path=/tmp/b", "/tmp/b"},
		{"DBUS_SESSION_BUS_ADDRESS", "unix:abstract=/tmp/dbus-x", ""},
		{"TMUX", "/tmp/tmux-1000/default,1234,0", "/tmp/tmux-1000/default"},
		{"GPG_AGENT_INFO", "/home/u/.gnupg/S.gpg-agent:0:1", "/home/u/.gnupg/S.gpg-agent"},
		{"KITTY_LISTEN_ON", "unix:/tmp/kitty", "/tmp/kitty"},
		{"KITTY_LISTEN_ON", "unix:@kitty", ""},
		{"WEZTERM_UNIX_SOCKET", "sock", "/run/user/1000/sock"},
		{"NVIM", "", ""},
	} {
		if got := SocketPath(tc.name, tc.v, "/run/user/1000"); got != tc.want {
			t.Errorf("SocketPath(%s, %q) = %q, want %q", tc.name, tc.v, got, tc.want)
		}
	}
}
