package classify

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// BenchmarkRules10k measures a policy of 10,000 rules (4,000 deny
// Read(...), 3,000 ask Bash(...), 3,000 allow Edit(...), each a distinct
// pattern): Load parses and validates it from YAML and merges it with
// the example policy; Decide judges one Write against every rule (an
// Edit(...) allow near the end of the list matches); Shell one Bash
// command against them. Target: a decision under 1 ms.
func BenchmarkRules10k(b *testing.B) {
	var y strings.Builder
	y.WriteString("version: 1\nrules:\n  deny:\n")
	for i := range 4000 {
		fmt.Fprintf(&y, "    - Read(secrets/d%d/**)\n", i)
	}
	y.WriteString("  ask:\n")
	for i := range 3000 {
		fmt.Fprintf(&y, "    - Bash(tool%d *)\n", i)
	}
	y.WriteString("  allow:\n")
	for i := range 3000 {
		fmt.Fprintf(&y, "    - Edit(src/pkg%d/**)\n", i)
	}
	data := []byte(y.String())
	example, err := policy.Parse("policy.example.yaml", mustRead(b, "../policy.example.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	load := func() *policy.Policy {
		l, err := policy.Parse("rules.yaml", data)
		if err != nil {
			b.Fatal(err)
		}
		return policy.Merge(example, l)
	}
	pol := load()
	if n := len(pol.Deny) + len(pol.Ask) + len(pol.Allow); n < 10000 {
		b.Fatalf("%d rules", n)
	}
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			load()
		}
	})
	dir := fuzzTree(b)
	env := Env{ProjectDir: dir + "/proj", Home: dir + "/outside", Today: "2026-11-22"}
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	write, err := hookio.DecodeClaude([]byte(`{"tool_name":"Write","cwd":"` + dir + `/proj","tool_input":{"file_path":"` + dir + `/proj/src/pkg2999/new.go","content":"x"}}`))
	if err != nil {
		b.Fatal(err)
	}
	if r := Decide(write, pol, env, fsys); r.Decision != policy.Allow {
		b.Fatalf("the Write is %s: %s", r.Decision, r.Reason)
	}
	b.Run("Decide", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Decide(write, pol, env, fsys)
		}
	})
	shell := &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: "tool2999 --check src && cat README.md", Cwd: dir + "/proj", Writes: true}
	if r := Decide(shell, pol, env, fsys); r.Decision != policy.Ask {
		b.Fatalf("the Bash command is %s: %s", r.Decision, r.Reason)
	}
	b.Run("Shell", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Decide(shell, pol, env, fsys)
		}
	})
}
