package classify

import (
	"io/fs"
	"os"
	"testing"

	"github.com/safezonehq/safezone/classify/shell/shelltest"
	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/policy"
)

// unknownMakers are commands whose targets safezone cannot know, one of
// each kind. FuzzShell puts one of them in a
// random command line; the line must then never be allowed outside agi.
var unknownMakers = []string{
	"rm $X", "cat \"$X\"", "rm ${X:-y}", "rm $(ls)", "rm `ls`", "rm $((1+1))", "cat <(ls)",
	"eval rm x", "python3 -c 'print(1)'", "node -e 1", "perl -e 1", "ruby -e 1",
	"bash -s < x", "sh <<EOF\nrm x\nEOF", "find . -exec frobnicate {} +", "xargs rm",
	"echo x > $OUT", "source $F", "cd $D && rm x", "rm ~root/x", "$CMD x", "sudo -s",
	"pwsh -c x", "bash -c \"$S\"", "env -S 'rm x'", "watch rm x",
}

// FuzzShell checks that a command line that holds an unknown-maker, or that
// the analysis calls unknown, is never allowed outside agi mode, even with
// -y, host bypassPermissions and an allow rule Bash(*) that covers
// everything (FuzzAnalyze in classify/shell checks that the analysis never
// panics). Run longer with:
//
//	go test ./classify -run '^$' -fuzz FuzzShell -fuzztime 60s
func FuzzShell(f *testing.F) {
	for _, c := range shelltest.Cases {
		for _, in := range c.In {
			f.Add(in, uint8(len(in)), uint8(0))
		}
	}
	for i, m := range unknownMakers {
		f.Add(m, uint8(i), uint8(i))
	}
	dir := fuzzTree(f)
	pol := policy.Merge(mustLayer(f, "p.yaml", `version: 1
auto_approve: true
rules:
  allow: ["Bash(*)", "Bash", "Read(**)", "Edit(**)"]
`))
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	env := Env{ProjectDir: dir + "/proj", Home: dir + "/outside", Today: "2026-11-22"}
	seps := []string{"\n", "; ", " && ", " || ", " | ", " & "}
	f.Fuzz(func(t *testing.T, cmd string, makerN, sepN uint8) {
		if len(cmd) > 4096 {
			return
		}
		maker := unknownMakers[int(makerN)%len(unknownMakers)]
		// The maker comes first, so nothing in cmd can turn it into data
		// (a comment, a quoted string, a here-document body).
		lines := []string{cmd, maker + seps[int(sepN)%len(seps)] + cmd}
		for i, line := range lines {
			for _, mode := range []hookio.PermissionMode{hookio.PermBypass, hookio.PermDefault} {
				call := &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: line, Cwd: dir + "/proj", Writes: true, PermissionMode: mode}
				r := Decide(call, pol, env, fsys)
				if i == 1 && (r.Shell == nil || r.Shell.Known()) && r.Decision != policy.Deny {
					t.Fatalf("%q holds the unknown-maker %q but its analysis is known\n%s", line, maker, trace(r))
				}
				if r.Decision == policy.Allow && (i == 1 || !r.Shell.Known()) {
					t.Fatalf("allowed %q, whose targets safezone cannot know, outside agi\n%s", line, trace(r))
				}
			}
		}
	})
}

// typicalShell is a typical 200-character Bash command of a coding agent:
// a cd, a build, tests piped through tail, a redirection and a grep.
const typicalShell = `cd src && go build ./... 2>&1 | head -20 && go test -count=1 -run 'TestShell|TestDecide' ./classify/ > ../agent_sandbox/test.log 2>&1; grep -n "FAIL" ../agent_sandbox/test.log | tail -5`

// BenchmarkShell measures the whole decision on a typical 200-character
// command (analysis, resolution of every target, the rules of the example
// policy); BenchmarkAnalyze in classify/shell the analysis alone. Target:
// under 50 µs.
func BenchmarkShell(b *testing.B) {
	dir := fuzzTree(b)
	env := Env{ProjectDir: dir + "/proj", Home: dir + "/outside", Today: "2026-11-22"}
	if n := len(typicalShell); n < 180 || n > 220 {
		b.Fatalf("typicalShell is %d characters", n)
	}
	l, err := policy.Parse("policy.example.yaml", mustRead(b, "../policy.example.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	pol := policy.Merge(l)
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	call := &hookio.Call{Tool: "Bash", Kind: hookio.KindShell, Command: typicalShell, Cwd: dir + "/proj", Writes: true}
	b.Run("Decide", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Decide(call, pol, env, fsys)
		}
	})
}
