package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestParseProcNetUnix: the path names of /proc/net/unix's bound sockets
// (proc(5)), without the abstract and unbound ones; a relative name is
// counted, a path with spaces kept whole, a line cut by a newline in a
// path counted as malformed.
func TestParseProcNetUnix(t *testing.T) {
	const table = `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 23456 /run/user/1000/bus
0000000000000000: 00000002 00000000 00010000 0001 01  1234 @/tmp/.X11-unix/X0
0000000000000000: 00000003 00000000 00000000 0001 03 34567
0000000000000000: 00000002 00000000 00010000 0001 01 45678 /home/u/.1password/agent.sock
0000000000000000: 00000003 00000000 00000000 0001 03 45679 /home/u/.1password/agent.sock
0000000000000000: 00000002 00000000 00000000 0002 01 56789 /run/systemd/journal/dev-log
0000000000000000: 00000002 00000000 00010000 0001 01 67890 /home/u/a dir/with  spaces.sock
0000000000000000: 00000002 00000000 00010000 0001 01 67891 relative.sock
0000000000000000: 00000002 00000000 00010000 0001 01 67892 /tmp/new
line.sock
0000000000000000: 00000002 00000000 00010000 0005 01 67893 /run//x/../y.sock
`
	b, err := ParseProcNetUnix(strings.NewReader(table))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/home/u/.1password/agent.sock", "/home/u/a dir/with  spaces.sock", "/run/systemd/journal/dev-log", "/run/user/1000/bus", "/run/y.sock", "/tmp/new"}
	if !slices.Equal(b.Paths, want) {
		t.Errorf("paths\n got %q\nwant %q", b.Paths, want)
	}
	if b.Relative != 1 || b.Malformed != 1 {
		t.Errorf("relative %d, malformed %d: want 1, 1", b.Relative, b.Malformed)
	}
	if _, err := ParseProcNetUnix(strings.NewReader("")); err != nil {
		t.Errorf("an empty table: %v", err)
	}
}

// TestBoundSockets: a socket this process binds is in the table of its
// network namespace.
func TestBoundSockets(t *testing.T) {
	if _, err := os.Stat(ProcNetUnix); err != nil {
		t.Skip("no", ProcNetUnix)
	}
	p := filepath.Join(t.TempDir(), "s.sock")
	listen(t, p)
	b, err := BoundSockets()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(b.Paths, p) {
		t.Errorf("%s is not among the %d bound sockets", p, len(b.Paths))
	}
}

// TestSSHAgents: the agents of $SSH_AUTH_SOCK and of every IdentityAgent
// in ~/.ssh/config and the files it includes, expanded as ssh expands
// them; none, host tokens and unset variables name none.
func TestSSHAgents(t *testing.T) {
	home := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(home+"/.ssh/config", `# the user's
Include conf.d/*.conf ~/.ssh/extra
Host work
	IdentityAgent "~/.1password/agent.sock"
Host none
	IdentityAgent none
Host env
  IdentityAgent SSH_AUTH_SOCK
Host tokens
  identityagent=%d/agents/%u-%i.sock
Host hosttoken
  IdentityAgent ~/agents/%h.sock
Host var
  IdentityAgent $OTHER_AGENT
Host bracevar
  IdentityAgent ${AGENT_DIR}/b.sock
Host unset
  IdentityAgent ${NOT_SET}/c.sock
Host percent
  IdentityAgent /run/a%%b.sock
`)
	write(home+"/.ssh/conf.d/one.conf", "Match host x\n  IdentityAgent ~/.gnupg/S.gpg-agent.ssh\nInclude nested\n")
	write(home+"/.ssh/nested", "IdentityAgent /nested/agent\nInclude config\n") // a loop: read once
	write(home+"/.ssh/extra", "Host *\n  IdentityAgent /extra/agent\n")
	env := map[string]string{"SSH_AUTH_SOCK": "/tmp/ssh-x/agent.1", "USER": "u", "OTHER_AGENT": "/var/other.sock", "AGENT_DIR": "/opt/agents"}
	got := SSHAgents(func(k string) string { return env[k] }, home)
	uid := strconv.Itoa(os.Getuid())
	want := []string{"/tmp/ssh-x/agent.1", home + "/.1password/agent.sock", home + "/agents/u-" + uid + ".sock",
		"/var/other.sock", "/opt/agents/b.sock", "/run/a%b.sock", home + "/.gnupg/S.gpg-agent.ssh", "/nested/agent", "/extra/agent"}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s missing from %q", w, got)
		}
	}
	for _, g := range got {
		if strings.Contains(g, "%h") || strings.Contains(g, "NOT_SET") || strings.Contains(g, "none") || strings.HasPrefix(g, "/c.sock") {
			t.Errorf("%s should name no agent", g)
		}
	}
	// Without the variable nor a configuration: nothing.
	if got := SSHAgents(func(string) string { return "" }, t.TempDir()); len(got) > 0 && !systemHasAgents() {
		t.Errorf("no configuration: %q", got)
	}
}

// systemHasAgents reports whether the machine's /etc/ssh/ssh_config,
// which the test does not control, names agents.
func systemHasAgents() bool {
	r := sshConfigReader{getenv: func(string) string { return "" }, seen: map[string]bool{}}
	r.read(SSHSystemConfig, filepath.Dir(SSHSystemConfig), 0)
	return len(r.agents) > 0
}

// TestSSHDestination: where ssh connects for a destination, by the first
// HostName and Port its configuration sets for it (Host patterns,
// negations, Include, Match blocks taken as matching nothing).
func TestSSHDestination(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(home+"/.ssh", 0o700)
	os.WriteFile(home+"/.ssh/config", []byte(`Host work-*  !work-skip
	HostName %h.corp.example
	Port 2222
Match host other exec "false"
	HostName matched.example
Host gh-alt
	Include extra.conf
Host *
	Port 22
	HostName ignored-for-set-ones
`), 0o600)
	os.WriteFile(home+"/.ssh/extra.conf", []byte("HostName=github.com\nPort 443\n"), 0o600)
	files := []string{home + "/.ssh/config"}
	for host, want := range map[string]string{
		"work-a":    "work-a.corp.example:2222",
		"work-skip": "ignored-for-set-ones:22",
		"gh-alt":    "github.com:443",
		"other":     "ignored-for-set-ones:22",
	} {
		h, p := SSHDestination(files, home, host)
		if got := h + ":" + strconv.Itoa(p); got != want {
			t.Errorf("%s: got %s, want %s", host, got, want)
		}
	}
	if h, p := SSHDestination([]string{home + "/none"}, home, "plain"); h != "plain" || p != 0 {
		t.Errorf("no configuration: %s %d", h, p)
	}
}
