package hookio

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestPatchTargets(t *testing.T) {
	type tg = PatchTarget
	tests := []struct {
		name string
		in   []string // spellings that must all give want
		want []tg
	}{
		{
			name: "every operation",
			in: []string{
				"*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch",
				"*** Begin Patch\r\n*** Add File: path/add.py\r\n+abc\r\n+def\r\n*** Delete File: path/delete.py\r\n*** Update File: path/update.py\r\n*** Move to: path/update2.py\r\n@@ def f():\r\n-    pass\r\n+    return 123\r\n*** End Patch\r\n",
			},
			want: []tg{{"Add File", "path/add.py", 2}, {"Delete File", "path/delete.py", 5}, {"Update File", "path/update.py", 6}, {"Move to", "path/update2.py", 7}},
		},
		{
			name: "move out of the sandbox",
			in:   []string{"*** Begin Patch\n*** Update File: src/a.go\n*** Move to: ../../outside/a.go\n@@\n-x\n+y\n*** End Patch\n"},
			want: []tg{{"Update File", "src/a.go", 2}, {"Move to", "../../outside/a.go", 3}},
		},
		{
			name: "absolute paths are kept as written",
			in:   []string{"*** Begin Patch\n*** Add File: /etc/cron.d/x\n+* * * * * root true\n*** Delete File: /home/u/.ssh/authorized_keys\n*** End Patch"},
			want: []tg{{"Add File", "/etc/cron.d/x", 2}, {"Delete File", "/home/u/.ssh/authorized_keys", 4}},
		},
		{
			name: "the heredoc form Codex accepts",
			in: []string{
				"<<'EOF'\n*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch\nEOF\n",
				"apply_patch <<\"EOF\"\n*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch\nEOF",
			},
			want: []tg{{"Add File", "x.txt", 3}},
		},
		{
			name: "headers with padding: Codex trims the line",
			in:   []string{"*** Begin Patch\n   *** Add File: x.txt   \n+x\n*** End Patch", "*** Begin Patch\n\t*** Add File: x.txt\u00a0\n+x\n*** End Patch"},
			want: []tg{{"Add File", "x.txt", 2}},
		},
		{
			name: "two blanks after the colon: Codex keeps one in the name, both spellings judged",
			in:   []string{"*** Begin Patch\n*** Add File:  x.txt\n+x\n*** End Patch"},
			want: []tg{{"Add File", " x.txt", 2}, {"Add File", "x.txt", 2}},
		},
		{
			name: "move to: Codex reads the untrimmed line, blanks and all",
			in:   []string{"*** Begin Patch\n*** Update File: a\n*** Move to: b  \n@@\n-x\n+y\n*** End Patch"},
			want: []tg{{"Update File", "a", 2}, {"Move to", "b", 3}, {"Move to", "b  ", 3}},
		},
		{
			name: "markers in any ASCII case",
			in:   []string{"*** begin patch\n*** ADD FILE: x.txt\n+x\n*** end patch"},
			want: []tg{{"Add File", "x.txt", 2}},
		},
		{
			name: "a header quoted in a context line is a target too",
			in:   []string{"*** Begin Patch\n*** Update File: README.md\n@@\n *** Add File: /etc/shadow\n+new\n*** End Patch"},
			want: []tg{{"Update File", "README.md", 2}, {"Add File", "/etc/shadow", 4}},
		},
		{
			name: "added lines are content, not headers",
			in:   []string{"*** Begin Patch\n*** Add File: docs/format.md\n+*** Add File: /etc/passwd\n+*** Move to: /tmp/x\n*** End Patch"},
			want: []tg{{"Add File", "docs/format.md", 2}},
		},
		{
			name: "no colon blank: not a header Codex accepts, judged anyway",
			in:   []string{"*** Begin Patch\n*** Add File:x.txt\n+x\n*** End Patch"},
			want: []tg{{"Add File", "x.txt", 2}},
		},
		{
			name: "empty path is returned for the caller to refuse",
			in:   []string{"*** Begin Patch\n*** Delete File: \n*** End Patch", "*** Begin Patch\n*** Delete File:\n*** End Patch"},
			want: []tg{{"Delete File", "", 2}},
		},
		{
			name: "no operations",
			in:   []string{"*** Begin Patch\n*** End Patch", "", "not a patch at all", "*** End of File"},
			want: nil,
		},
		{
			name: "a lone carriage return does not split a line, as in Rust",
			in:   []string{"*** Begin Patch\n*** Add File: a\r*** Add File: b\n+x\n*** End Patch"},
			want: []tg{{"Add File", "a\r*** Add File: b", 2}},
		},
	}
	for _, tt := range tests {
		for i, in := range tt.in {
			t.Run(fmt.Sprintf("%s/%d", tt.name, i), func(t *testing.T) {
				got, err := PatchTargets(in)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("PatchTargets(%q)\n got %+v\nwant %+v", in, got, tt.want)
				}
			})
		}
	}
}

func TestPatchTargetsLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := 0; i <= maxPatchTargets; i++ {
		fmt.Fprintf(&b, "*** Delete File: f%d\n", i)
	}
	b.WriteString("*** End Patch\n")
	if _, err := PatchTargets(b.String()); !errors.Is(err, ErrValue) {
		t.Fatalf("err = %v, want ErrValue", err)
	}
}

func TestShellPatch(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: x\n+x\n*** End Patch\n"
	for _, tt := range []struct {
		cmd       string
		patch, cd bool
	}{
		{"apply_patch <<'EOF'\n" + patch + "EOF", true, false},
		{"bash -lc 'applypatch <<'\"'\"'EOF'\"'\"'\n" + patch + "EOF\n'", true, false},
		{"cd sub && apply_patch <<'EOF'\n" + patch + "EOF", true, true},
		{"pushd sub; apply_patch <<'EOF'\n" + patch + "EOF", true, true},
		{"cat <<'EOF'\n" + patch + "EOF", false, false},
		{"apply_patch --help", false, false},
		{"abcd x && apply_patch <<'EOF'\n" + patch + "EOF", true, false},
		{"make cd-rom", false, false},
	} {
		if got := looksLikeShellPatch(tt.cmd); got != tt.patch {
			t.Errorf("looksLikeShellPatch(%q) = %v", tt.cmd, got)
		}
		if got := changesDir(tt.cmd); got != tt.cd {
			t.Errorf("changesDir(%q) = %v", tt.cmd, got)
		}
	}
}

// FuzzPatchTargets checks the over-approximation: every line that Codex's
// parser could read as a header (its trimmed form starts with a marker)
// yields a target with that line's path.
//
//	go test ./hookio -run '^$' -fuzz FuzzPatchTargets -fuzztime 60s
func FuzzPatchTargets(f *testing.F) {
	f.Add("*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n*** Move to: c\n@@\n-x\n+y\n*** Delete File: d\n*** End Patch")
	f.Add("*** Update File: a\n*** Move to:  b \r\n")
	f.Fuzz(func(t *testing.T, patch string) {
		got, err := PatchTargets(patch)
		if err != nil {
			return
		}
		have := make(map[string]bool)
		for _, g := range got {
			have[fmt.Sprint(g.Line, "\x00", g.Path)] = true
		}
		for n, line := range strings.Split(patch, "\n") {
			line = strings.TrimSuffix(line, "\r")
			trimmed := strings.TrimSpace(line)
			for _, op := range patchOps {
				if p, ok := strings.CutPrefix(trimmed, "*** "+op+": "); ok && !have[fmt.Sprint(n+1, "\x00", p)] {
					t.Fatalf("line %d %q: path %q missing from %+v", n+1, line, p, got)
				}
			}
			if p, ok := strings.CutPrefix(line, "*** Move to: "); ok && !have[fmt.Sprint(n+1, "\x00", p)] {
				t.Fatalf("line %d %q: move path %q missing from %+v", n+1, line, p, got)
			}
		}
	})
}
