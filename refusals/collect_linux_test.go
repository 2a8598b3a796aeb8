package refusals

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/safezonehq/safezone/audit"
)

// The collector attributes a domain's refusals to the call its launcher
// registered, and to nothing when the registration names another
// executable (a process ID reused) or there is none; it bounds what one
// command writes, and the inbox gives each refusal to the next call once.
func TestCollectorMapsRecords(t *testing.T) {
	d := Dirs{Base: t.TempDir()}
	os.MkdirAll(d.Launch(), 0o700)
	logPath := filepath.Join(d.Base, "audit.jsonl")
	call, _ := json.Marshal(Call{Audit: &AuditFile{Path: logPath}, Host: "claude", SessionID: "s1", ToolUseID: "t1", Cwd: "/p"})
	// The launcher is this process (its start time as the launchers
	// write it); 200 names another executable.
	self := strconv.Itoa(os.Getpid())
	start, err := procStart(self)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(d.Launch(), self), append([]byte("/usr/bin/safezone\n"+start+"\n"), call...), 0o600)
	os.WriteFile(filepath.Join(d.Launch(), "200"), append([]byte("/usr/bin/other\n"+start+"\n"), call...), 0o600)
	c := &collector{d: d, domains: map[string]*domain{}, events: map[uint64]*event{}}
	now := time.Now()
	feed := func(typ uint16, body string) {
		r, ok := parseRecord(typ, body)
		if !ok {
			t.Fatalf("unparsed: %s", body)
		}
		c.add(r, now)
	}
	// Ours: the access comes before the domain's allocation, as the kernel sends them.
	feed(typeLandlockAccess, `audit(1.0:1): domain=a blockers=fs.read_file path="/home/u/Documents/x" dev="vda" ino=1`)
	feed(typeLandlockDomain, `audit(1.0:1): domain=a status=allocated mode=enforcing pid=`+self+` uid=0 exe="/usr/bin/safezone" comm="safezone"`)
	feed(typeSyscall, `audit(1.0:1): arch=c000003e syscall=257 success=no exit=-13 ppid=99 pid=101 comm="cat" exe="/usr/bin/cat"`)
	feed(typeEOE, `audit(1.0:1): `)
	// Another executable under a registered ID, and an unregistered ID.
	feed(typeLandlockAccess, `audit(1.0:2): domain=b blockers=fs.read_file path="/etc/b" dev="vda" ino=1`)
	feed(typeLandlockDomain, `audit(1.0:2): domain=b status=allocated mode=enforcing pid=200 uid=0 exe="/usr/bin/safezone" comm="x"`)
	feed(typeEOE, `audit(1.0:2): `)
	feed(typeLandlockAccess, `audit(1.0:3): domain=c blockers=fs.read_file path="/etc/c" dev="vda" ino=1`)
	feed(typeLandlockDomain, `audit(1.0:3): domain=c status=allocated mode=enforcing pid=300 uid=0 exe="/usr/bin/safezone" comm="x"`)
	feed(typeEOE, `audit(1.0:3): `)
	// A loop of refusals in domain a, without EOE records (flushed by age).
	for range maxPerDomain + 4 {
		feed(typeLandlockAccess, `audit(1.0:9): domain=a blockers=fs.make_reg path="/etc" dev="vda" ino=2`)
	}
	c.flushOlder(now)
	feed(typeLandlockDomain, `audit(2.0:10): domain=a status=deallocated denials=261`)

	recs, err := audit.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != maxPerDomain+1 {
		t.Fatalf("%d records, want %d", len(recs), maxPerDomain+1)
	}
	first, last := recs[0], recs[len(recs)-1]
	if first.ToolUseID != "t1" || first.SessionID != "s1" || first.Tool != "landlock" || first.Targets[0].Given != "/home/u/Documents/x" ||
		!strings.Contains(first.Reason, "reading /home/u/Documents/x to cat (pid 101)") {
		t.Errorf("first record: %+v", first)
	}
	if !strings.Contains(last.Reason, "and 5 more refusals") {
		t.Errorf("last record: %+v", last)
	}
	for _, r := range recs {
		if g := r.Targets[0].Given; g == "/etc/b" || g == "/etc/c" {
			t.Errorf("attributed a refusal of another sandbox: %+v", r)
		}
	}
	es := Take(d, "s1")
	if len(es) != maxPerDomain {
		t.Errorf("%d inbox entries, want %d", len(es), maxPerDomain)
	}
	if es[0].Program != "cat" || es[0].Target != "/home/u/Documents/x" || es[0].ToolUseID != "t1" {
		t.Errorf("inbox entry %+v", es[0])
	}
	if again := Take(d, "s1"); len(again) != 0 {
		t.Errorf("taken twice: %d", len(again))
	}
}

// A registration binds the call to the process that wrote it, not to its
// process ID: the kernel's record of a domain whose creator has the ID of
// a registration gets no call when the process now at that ID started at
// another time (the ID reused: a confined command forks until it gets the
// ID of another session's old registration, then makes a domain there),
// when the creator has ended, or when the registration has no start time.
// The "victim" launcher writes its own start time (sh, from
// /proc/$$/stat, then exec: the time stays), as the launchers do; as
// root the ID is then really reused (ns_last_pid) by the "attacker".
func TestCollectorRefusesReusedPID(t *testing.T) {
	d := Dirs{Base: t.TempDir()}
	os.MkdirAll(d.Launch(), 0o700)
	logPath := filepath.Join(d.Base, "audit.jsonl")
	call, _ := json.Marshal(Call{Audit: &AuditFile{Path: logPath}, Host: "claude", SessionID: "victim-sess", ToolUseID: "victim-tool"})
	const exe = "/usr/bin/safezone-launch"
	// launcher starts a process that registers itself as the launchers do
	// and waits; it returns its ID.
	launcher := func() (*exec.Cmd, string) {
		ready := filepath.Join(d.Base, "ready")
		os.Remove(ready)
		cmd := exec.Command("sh", "-c", `f="$1/$$"; printf '%s\n' "$2" > "$f.new"; cut -d' ' -f22 /proc/$$/stat >> "$f.new"; printf '%s' "$3" >> "$f.new"; mv "$f.new" "$f"; : > "$4"; exec sleep 60`,
			"sh", d.Launch(), exe, string(call), ready)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		for i := 0; ; i++ {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if i > 500 {
				t.Fatal("the launcher did not register")
			}
			time.Sleep(10 * time.Millisecond)
		}
		return cmd, strconv.Itoa(cmd.Process.Pid)
	}
	c := &collector{d: d, domains: map[string]*domain{}, events: map[uint64]*event{}}
	serial := 0
	// refuse feeds the records of one refusal in a new domain made by pid.
	refuse := func(pid, path string) {
		serial++
		dom, n := "d"+strconv.Itoa(serial), strconv.Itoa(serial)
		for _, tb := range []struct {
			typ  uint16
			body string
		}{
			{typeLandlockAccess, `audit(1.0:` + n + `): domain=` + dom + ` blockers=fs.read_file path="` + path + `" dev="vda" ino=1`},
			{typeLandlockDomain, `audit(1.0:` + n + `): domain=` + dom + ` status=allocated mode=enforcing pid=` + pid + ` uid=0 exe="` + exe + `" comm="x"`},
			{typeEOE, `audit(1.0:` + n + `): `},
		} {
			r, ok := parseRecord(tb.typ, tb.body)
			if !ok {
				t.Fatalf("unparsed: %s", tb.body)
			}
			c.add(r, time.Now())
		}
	}
	recorded := func() []string {
		recs, err := audit.ReadFile(logPath)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.Targets[0].Given)
		}
		return out
	}

	// The launcher alive: its refusal is its call's.
	live, livePID := launcher()
	refuse(livePID, "/victim/own")
	if got := recorded(); len(got) != 1 || got[0] != "/victim/own" {
		t.Fatalf("the live launcher's refusal: recorded %q", got)
	}

	// The registration without a start time (as written before): nothing.
	reg := filepath.Join(d.Launch(), livePID)
	data, _ := os.ReadFile(reg)
	exeLine, rest, _ := strings.Cut(string(data), "\n")
	_, callText, _ := strings.Cut(rest, "\n")
	os.WriteFile(reg, []byte(exeLine+"\n"+callText), 0o600)
	refuse(livePID, "/forged/no-start")

	// The launcher ended, its registration left: nothing.
	live.Process.Kill()
	live.Wait()
	os.WriteFile(reg, data, 0o600)
	refuse(livePID, "/forged/gone")

	// Another process at the ID (its start time differs): nothing.
	victim, victimPID := launcher()
	victim.Process.Kill()
	victim.Wait()
	time.Sleep(30 * time.Millisecond) // a later clock tick
	reused := false
	if os.Geteuid() == 0 {
		want, _ := strconv.Atoi(victimPID)
		for range 50 {
			if os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(want-1)), 0) != nil {
				break
			}
			attacker := exec.Command("sleep", "60")
			if err := attacker.Start(); err != nil {
				t.Fatal(err)
			}
			if attacker.Process.Pid == want {
				t.Cleanup(func() { attacker.Process.Kill(); attacker.Wait() })
				reused = true
				break
			}
			attacker.Process.Kill()
			attacker.Wait()
		}
	}
	if !reused {
		t.Log("the ID was not reused (not root, or another process took it): the registration's process is gone")
	}
	refuse(victimPID, "/forged/reused")

	if got := recorded(); len(got) != 1 {
		t.Errorf("recorded %q, want only /victim/own", got)
	}
	for _, e := range Take(d, "victim-sess") {
		if strings.HasPrefix(e.Target, "/forged") {
			t.Errorf("the victim's inbox got %+v", e)
		}
	}
	if !reused && os.Geteuid() == 0 {
		t.Error("as root, the process ID was not reused")
	}
}
