//go:build linux || darwin

package classify

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// TestOtherNames: a target that resolves to a file with several links is
// judged at the other names Env.OtherNames gives for it (a deny rule
// matching one denies it, the reason naming the name); a file with one
// link is not, whatever the map says; OtherNamesErr asks what would have
// been allowed.
func TestOtherNames(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := dir + "/proj"
	os.MkdirAll(proj+"/lib", 0o755)
	os.WriteFile(proj+"/.env.local", []byte("S"), 0o600)
	os.WriteFile(proj+"/lib/one", []byte("x"), 0o600)
	if err := os.Link(proj+"/.env.local", proj+"/lib/x"); err != nil {
		t.Fatal(err)
	}
	pol := policy.Merge(mustLayer(t, "p.yaml", "version: 1\nrules:\n  deny: [\"Read(.env*)\"]\n"))
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	decide := func(p string, env Env) *Result {
		env.ProjectDir, env.Home = proj, dir
		in, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Read", "cwd": proj, "tool_input": map[string]any{"file_path": p}})
		call, err := hookio.DecodeClaude(in)
		if err != nil {
			t.Fatal(err)
		}
		return Decide(call, pol, env, fsys)
	}
	if r := decide(proj+"/lib/x", Env{}); r.Decision == policy.Deny || r.Targets[0].Res.Links != 2 {
		t.Errorf("without other names: %s, links %d: %s", r.Decision, r.Targets[0].Res.Links, r.Reason)
	}
	names := map[string][]string{proj + "/lib/x": {proj + "/.env.local"}, proj + "/lib/one": {proj + "/.env.local"}}
	if r := decide(proj+"/lib/x", Env{OtherNames: names}); r.Decision != policy.Deny ||
		!strings.Contains(r.Reason, "the same file as "+proj+"/.env.local: a hard link of it, 2 names in all") {
		t.Errorf("another name of .env.local: %s: %s", r.Decision, r.Reason)
	}
	if r := decide(proj+"/lib/one", Env{OtherNames: names}); r.Decision == policy.Deny {
		t.Errorf("a file of one link: %s: %s", r.Decision, r.Reason)
	}
	if r := decide(proj+"/lib/x", Env{OtherNames: map[string][]string{}, OtherNamesErr: "the search took too long"}); r.Decision != policy.Ask ||
		!strings.Contains(r.Reason, "the search took too long") {
		t.Errorf("names unknown: %s: %s", r.Decision, r.Reason)
	}
	if r := decide(proj+"/lib/one", Env{OtherNames: map[string][]string{}, OtherNamesErr: "the search took too long"}); r.Decision == policy.Ask {
		t.Errorf("names unknown, one link: %s: %s", r.Decision, r.Reason)
	}
}
