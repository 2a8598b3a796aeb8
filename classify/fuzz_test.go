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

// fuzzTree builds a real project on disk with every symlink form, for the
// invariant below: /proj and /shared are roots, /outside is not.
func fuzzTree(t testing.TB) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj/src/deep", "proj/docs", "proj/agent_sandbox", "proj/.git", "shared/sub", "outside/deep", "proj-evil"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/README.md", "proj/.env", "outside/secret.txt", "shared/sub/a.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"proj/out":        dir + "/outside",
		"proj/rel":        "../outside/secret.txt",
		"proj/dang":       dir + "/outside/new.txt",
		"proj/dangin":     "src/new.txt",
		"proj/deeplink":   dir + "/outside/deep",
		"proj/c1":         "c2",
		"proj/c2":         "out",
		"proj/in":         "src/deep",
		"proj/up":         "in/../..",
		"proj/docs/ext":   "../../outside",
		"proj/loop":       "loop",
		"proj/root":       "/",
		"shared/ext":      dir + "/outside",
		"proj/to_shared":  dir + "/shared",
		"proj/src/parent": "../..",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, l)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// kernelPlace is the oracle: where a write to p (absolute, uncleaned)
// lands, computed with the standard library's filepath.EvalSymlinks on the
// deepest existing prefix, an implementation independent of Resolve. It
// returns the link location too when the last component is a symlink, and ok
// false when it cannot tell (a dangling link past the deepest prefix, a
// loop): the invariant is then not checked.
func kernelPlace(p string) (places []string, ok bool) {
	comps := strings.Split(p, "/")
	for i := len(comps); i > 0; i-- {
		prefix := strings.Join(comps[:i], "/")
		if prefix == "" {
			prefix = "/"
		}
		real, err := filepath.EvalSymlinks(prefix)
		if err != nil {
			continue
		}
		// The rest does not exist; a symlink among it (dangling) or a ".."
		// after a non-directory makes the oracle unsure.
		rest := comps[i:]
		cur := real
		for _, c := range rest {
			if c == "" || c == "." {
				continue
			}
			if c == ".." {
				return nil, false
			}
			next := filepath.Join(cur, c)
			if fi, err := os.Lstat(next); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, false
			}
			cur = next
		}
		places = append(places, cur)
		// The link location: the parent resolved, the last name kept.
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			parent, err := filepath.EvalSymlinks(filepath.Dir(p))
			if err != nil {
				return nil, false
			}
			places = append(places, filepath.Join(parent, filepath.Base(p)))
		}
		return places, true
	}
	return nil, false
}

// FuzzDecide states the core invariant: no input makes safezone allow a
// write whose target, as the kernel resolves it, is outside the sandbox
// roots (with the sandbox on). Run longer with:
//
//	go test ./classify -run '^$' -fuzz FuzzDecide -fuzztime 60s
func FuzzDecide(f *testing.F) {
	dir := fuzzTree(f)
	seeds := []string{
		"proj/notes.txt", "proj/out/x", "proj/rel", "proj/dang", "proj/dangin",
		"proj/deeplink/../x", "proj/c1/y", "proj/in/../../outside/z", "proj/up/x",
		"proj/docs/ext/a.md", "proj/loop/x", "proj/root/tmp/x", "shared/ext/x",
		"proj/to_shared/x", "proj/src/parent/outside/x", "proj-evil/x", "proj/../proj-evil/x",
		"proj/./src//x", "proj/missing/../../outside/x", "~/x", "../outside/x", "proj/agent_sandbox/2026/x",
	}
	tools := []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__fs__write_file"}
	modes := []string{"default", "acceptEdits", "bypassPermissions", "plan", "auto"}
	for i, s := range seeds {
		f.Add(s, uint8(i), uint8(i*7))
	}
	pol := policy.Merge(mustLayer(f, "p.yaml", `version: 1
sandbox:
  additional_directories: ["`+dir+`/shared"]
  outside_write: ask
paths:
  safe: ["docs/**", "agent_sandbox/**"]
rules:
  allow: ["Write(/**)", "Edit(**)"]
`))
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	env := Env{ProjectDir: dir + "/proj", Home: dir + "/outside", Today: "2026-11-22"}
	roots := []string{dir + "/proj", dir + "/shared"}
	f.Fuzz(func(t *testing.T, rel string, toolN, modeN uint8) {
		if strings.ContainsRune(rel, 0) || rel == "" {
			return
		}
		p := rel
		if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
			p = dir + "/" + rel
		}
		tool := tools[int(toolN)%len(tools)]
		field := "file_path"
		switch tool {
		case "NotebookEdit":
			field = "notebook_path"
		case "mcp__fs__write_file":
			field = "path"
		}
		in, _ := json.Marshal(map[string]any{
			"tool_name": tool, "cwd": dir + "/proj",
			"permission_mode": modes[int(modeN)%len(modes)],
			"tool_input":      map[string]any{field: p},
		})
		call, err := hookio.DecodeClaude(in)
		if err != nil {
			return // refused input is never allowed
		}
		r := Decide(call, pol, env, fsys)
		if r.Decision != policy.Allow {
			return
		}
		abs := p
		if strings.HasPrefix(abs, "~") {
			abs = env.Home + strings.TrimPrefix(abs, "~")
		}
		places, ok := kernelPlace(abs)
		if !ok {
			return
		}
		for _, pl := range places {
			inside := false
			for _, root := range roots {
				inside = inside || within(root, pl)
			}
			if !inside {
				t.Fatalf("allowed %s %q, which the kernel resolves to %s, outside %v\n%s", tool, p, pl, roots, trace(r))
			}
		}
	})
}

func TestKernelPlaceOracle(t *testing.T) {
	dir := fuzzTree(t)
	got, ok := kernelPlace(dir + "/proj/out/new.txt")
	if !ok || len(got) != 1 || got[0] != dir+"/outside/new.txt" {
		t.Errorf("kernelPlace(out/new.txt) = %v, %v", got, ok)
	}
	got, ok = kernelPlace(dir + "/proj/rel")
	if !ok || len(got) != 2 || got[0] != dir+"/outside/secret.txt" || got[1] != dir+"/proj/rel" {
		t.Errorf("kernelPlace(rel) = %v, %v", got, ok)
	}
	if _, ok := kernelPlace(dir + "/proj/dang"); ok {
		t.Error("kernelPlace is sure about a dangling link")
	}
}

// BenchmarkDecide measures one decision under the example policy (the
// embedded default) plus self-protection, on a real file system, input
// already decoded (see hookio's BenchmarkDecodeClaude). Target: under 50 µs.
func BenchmarkDecide(b *testing.B) {
	l, err := policy.Parse("policy.example.yaml", mustRead(b, "../policy.example.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	dir := fuzzTree(b)
	loc := policy.Locations{ProjectRoot: dir + "/proj", Home: dir + "/outside", Managed: "/etc/safezone/policy.yaml",
		User: dir + "/outside/.config/safezone/policy.yaml", ClaudeManaged: "/etc/claude-code/managed-settings.json"}
	pol := policy.Merge(l, policy.SelfProtection(loc, nil))
	fsys := os.DirFS("/").(fs.ReadLinkFS)
	env := Env{ProjectDir: dir + "/proj", Home: dir + "/outside", Today: "2026-11-22"}
	inputs := map[string]string{
		"Write":   `{"tool_name":"Write","cwd":"` + dir + `/proj","permission_mode":"acceptEdits","tool_input":{"file_path":"` + dir + `/proj/src/deep/new.go","content":"x"}}`,
		"Read":    `{"tool_name":"Read","cwd":"` + dir + `/proj","tool_input":{"file_path":"` + dir + `/proj/README.md"}}`,
		"Symlink": `{"tool_name":"Write","cwd":"` + dir + `/proj","tool_input":{"file_path":"` + dir + `/proj/c1/deep/x.txt","content":"x"}}`,
		"Grep":    `{"tool_name":"Grep","cwd":"` + dir + `/proj","tool_input":{"pattern":"k","glob":".e*"}}`,
	}
	for name, in := range inputs {
		call, err := hookio.DecodeClaude([]byte(in))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Decide(call, pol, env, fsys)
			}
		})
	}
}

func mustRead(tb testing.TB, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
