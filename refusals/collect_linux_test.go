package refusals

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	os.WriteFile(filepath.Join(d.Launch(), "100"), append([]byte("/usr/bin/safezone\n"), call...), 0o600)
	os.WriteFile(filepath.Join(d.Launch(), "200"), append([]byte("/usr/bin/other\n"), call...), 0o600)
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
	feed(typeLandlockDomain, `audit(1.0:1): domain=a status=allocated mode=enforcing pid=100 uid=0 exe="/usr/bin/safezone" comm="safezone"`)
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
