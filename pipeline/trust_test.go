package pipeline

import (
	"os"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/pipeline/pipelinetest"
)

// TestTrustRecord: a trust record holds one path and its content; the same
// bytes are trusted, a changed file, another file with the same bytes, or a
// record that cannot be read are not; every spelling of the directory shares
// the record; the record is the user's alone (0600, in the state
// directory); revoking deletes it.
func TestTrustRecord(t *testing.T) {
	sys, dir := testSystem(t)
	proj := dir + "/proj"
	f := proj + "/.safezone.yaml"
	content := []byte("version: 1\nmode: agi\n")
	if sys.Trusted(f, content) {
		t.Fatal("trusted without a record")
	}
	if err := sys.RecordTrust(f, content); err != nil {
		t.Fatal(err)
	}
	rec := sys.trustFile(sys.TrustKey(f))
	if fi, err := os.Stat(rec); err != nil || fi.Mode().Perm() != 0o600 || !strings.HasPrefix(rec, dir+"/home/.local/state/safezone/trust/") {
		t.Fatalf("record %s: %v %v", rec, fi, err)
	}
	if !sys.Trusted(f, content) {
		t.Error("the recorded content is not trusted")
	}
	if sys.Trusted(f, []byte("version: 1\nmode: agi\n\n")) {
		t.Error("a changed file is trusted")
	}
	if sys.Trusted(proj+"/.safezone.local.yaml", content) || sys.Trusted(dir+"/other/.safezone.yaml", content) {
		t.Error("another file with the same content is trusted")
	}
	if err := os.Symlink(proj, dir+"/link"); err != nil {
		t.Fatal(err)
	}
	if !sys.Trusted(dir+"/link/.safezone.yaml", content) || !sys.Trusted(proj+"/./src/../.safezone.yaml", content) {
		t.Error("another spelling of the same directory is not trusted")
	}
	if err := os.WriteFile(rec, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if sys.Trusted(f, content) {
		t.Error("a corrupt record trusts")
	}
	if err := sys.RecordTrust(f, content); err != nil {
		t.Fatal(err)
	}
	if ok, err := sys.RevokeTrust(dir + "/link/.safezone.yaml"); !ok || err != nil {
		t.Fatalf("revoke: %v %v", ok, err)
	}
	if _, err := os.Stat(rec); !os.IsNotExist(err) || sys.Trusted(f, content) {
		t.Errorf("after revoke: %v", err)
	}
	if ok, err := sys.RevokeTrust(f); ok || err != nil {
		t.Errorf("revoke of what is not trusted: %v %v", ok, err)
	}
}

// TestTrustedLayerInHook: a project file's widening applies in the hook
// only with a record of exactly its content; a file that only tightens
// costs no record lookup.
func TestTrustedLayerInHook(t *testing.T) {
	sys, dir := testSystem(t)
	proj := dir + "/proj"
	f := proj + "/.safezone.yaml"
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := pipelinetest.Input("Write", proj, map[string]any{"file_path": dir + "/outside/x", "content": "x"})
	write("version: 1\nsandbox:\n  additional_directories: [../outside]\n")
	if r := runHook(t, sys, strings.NewReader(outside)); r.decision != "deny" {
		t.Fatalf("untrusted: %+v", r)
	}
	data, _ := os.ReadFile(f)
	if err := sys.RecordTrust(f, data); err != nil {
		t.Fatal(err)
	}
	if r := runHook(t, sys, strings.NewReader(outside)); r.decision != "abstain" {
		t.Fatalf("trusted: %+v", r)
	}
	write("version: 1\nsandbox:\n  additional_directories: [../outside, /]\n")
	if r := runHook(t, sys, strings.NewReader(outside)); r.decision != "deny" {
		t.Fatalf("changed after trust: %+v", r)
	}

	// Nothing to widen: no record is looked up.
	write("version: 1\npaths:\n  protected: [\"*.sql\"]\n")
	asked := false
	s := *sys
	loc := PolicyLocations(&Options{}, proj, &s, nil)
	loc.Trusted = func(string, []byte) bool { asked = true; return false }
	if _, err := MergeLayers(loc, &Options{}); err != nil || asked {
		t.Errorf("a file that only tightens: asked %v, %v", asked, err)
	}
}
