package confine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		rs   Ruleset
		ok   bool
	}{
		{"empty", Ruleset{}, true},
		{"absolute clean paths", Ruleset{Write: []string{"/", "/tmp"}, NoRead: []string{"/home/u/.ssh"}, ReadOnly: []string{"/p/.git/config"}}, true},
		{"relative write path", Ruleset{Write: []string{"proj"}}, false},
		{"trailing slash", Ruleset{NoRead: []string{"/home/u/.ssh/"}}, false},
		{"dot dot", Ruleset{ReadOnly: []string{"/p/../etc"}}, false},
		{"double slash", Ruleset{Write: []string{"//tmp"}}, false},
		{"NUL byte", Ruleset{Write: []string{"/tmp/a\x00b"}}, false},
		{"empty path", Ruleset{Write: []string{""}}, false},
		{"report", Ruleset{Report: &Report{Dir: "/s/refusals/launch", Call: `{"session_id":"s"}`}}, true},
		{"relative report directory", Ruleset{Report: &Report{Dir: "s/launch"}}, false},
		{"NUL in report's call", Ruleset{Report: &Report{Dir: "/s", Call: "a\x00"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rs.Validate()
			if (err == nil) != tc.ok {
				t.Fatalf("Validate() = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrBadRuleset) {
				t.Errorf("error %v does not wrap ErrBadRuleset", err)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	rs := Ruleset{
		Write:    []string{"/p", "/tmp", "/p/sub", "/p", "/p-other"},
		NoRead:   []string{"/h/.ssh/id_rsa", "/h/.ssh", "/h/.aws", "/h/.sshx"},
		ReadOnly: []string{"/p/.git/hooks", "/p/.git", "/elsewhere/x", "/p-other/.claude", "/tmp/a/b"},
	}
	got := rs.Normalize()
	want := Ruleset{
		Write:    []string{"/p", "/p-other", "/tmp"},
		NoRead:   []string{"/h/.aws", "/h/.ssh", "/h/.sshx"},
		ReadOnly: []string{"/p-other/.claude", "/p/.git", "/tmp/a/b"},
	}
	if !slices.Equal(got.Write, want.Write) || !slices.Equal(got.NoRead, want.NoRead) || !slices.Equal(got.ReadOnly, want.ReadOnly) {
		t.Errorf("Normalize() =\n%+v\nwant\n%+v", got, want)
	}
	if got.NeedsNamespace() != true || (Ruleset{Write: []string{"/p"}}).NeedsNamespace() {
		t.Error("NeedsNamespace is not len(ReadOnly) > 0")
	}
}

// TestNormalizeRead: of the NoRead and Read paths, Normalize keeps those
// whose nearest holder (Write paths count as Read) is of the other kind.
func TestNormalizeRead(t *testing.T) {
	rs := Ruleset{
		Write:  []string{"/h/proj", "/h/.cache", "/tmp"},
		NoRead: []string{"/h", "/h/.cargo/credentials.toml", "/h/Documents", "/h/proj/.env", "/h/.ssh", "/h/go"},
		Read:   []string{"/h/.cargo", "/h/.cargo/bin", "/h/.gitconfig", "/h/.cache/x", "/h/proj", "/etc", "/h/go", "/h/.config/git"},
	}
	got := rs.Normalize()
	wantNoRead := []string{"/h", "/h/.cargo/credentials.toml", "/h/proj/.env"} // /h/go: NoRead wins, and /h holds it
	wantRead := []string{"/h/.cargo", "/h/.config/git", "/h/.gitconfig"}
	if !slices.Equal(got.NoRead, wantNoRead) || !slices.Equal(got.Read, wantRead) {
		t.Errorf("Normalize() NoRead %q Read %q, want %q %q", got.NoRead, got.Read, wantNoRead, wantRead)
	}
	// Without a namespace the same NoRead and Read hold, and a file read
	// as a copy is not read at all.
	rs.Replace = map[string]string{"/h/.cargo/config.toml": "/state/clean"}
	wn, _ := rs.WithoutNamespace()
	wantNoRead = []string{"/h", "/h/.cargo/config.toml", "/h/.cargo/credentials.toml", "/h/proj/.env"}
	if !slices.Equal(wn.NoRead, wantNoRead) || !slices.Equal(wn.Read, wantRead) || wn.Replace != nil {
		t.Errorf("WithoutNamespace() NoRead %q Read %q Replace %v, want %q %q none", wn.NoRead, wn.Read, wn.Replace, wantNoRead, wantRead)
	}
}

func TestParseRuleset(t *testing.T) {
	rs := Ruleset{Write: []string{"/p", "/dev/null"}, NoRead: []string{"/h/it's <secret>"}, ReadOnly: []string{"/p/.git/config"}}
	text, err := rs.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	// The rewrite passes the JSON in single quotes on one line: it must
	// hold neither a newline nor a '<' that Claude Code's stdin check would see.
	if strings.ContainsAny(string(text), "\n<") {
		t.Errorf("MarshalText() = %s holds a newline or a '<'", text)
	}
	got, err := ParseRuleset(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Write, rs.Write) || !slices.Equal(got.NoRead, rs.NoRead) || !slices.Equal(got.ReadOnly, rs.ReadOnly) {
		t.Errorf("round trip: got %+v, want %+v", got, rs)
	}
	for _, bad := range []string{
		``,
		`{`,
		`{"write":["/p"],"exec":["/bin"]}`,
		`{"write":["p"]}`,
		`{"write":["/p"]} {}`,
		`{"write":"/p"}`,
	} {
		if _, err := ParseRuleset(bad); !errors.Is(err, ErrBadRuleset) {
			t.Errorf("ParseRuleset(%q) = %v, want an ErrBadRuleset", bad, err)
		}
	}
}

func TestOutermostSiblingPrefix(t *testing.T) {
	// "/a-b" sorts between "/a" and "/a/b" but is not beneath "/a".
	got := outermost([]string{"/a/b", "/a-b", "/a", "/a.b/c", "/a.b"})
	want := []string{"/a", "/a-b", "/a.b"}
	if !slices.Equal(got, want) {
		t.Errorf("outermost() = %q, want %q", got, want)
	}
}

// Report goes through every form of a ruleset the launcher may get, and
// its call (JSON inside the JSON) holds neither a newline nor a '<'.
func TestReportKept(t *testing.T) {
	r := &Report{Dir: "/s/launch", Call: "{\"cwd\":\"/p/<x>\"}\n"}
	rs := Ruleset{Write: []string{"/p"}, Hide: []string{"/p/.env"}, Report: r}
	if rs.Normalize().Report != r {
		t.Error("Normalize drops Report")
	}
	if out, _ := rs.WithoutNamespace(); out.Report != r {
		t.Error("WithoutNamespace drops Report")
	}
	text, err := rs.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(string(text), "\n<") {
		t.Errorf("MarshalText() = %s holds a newline or a '<'", text)
	}
	got, err := ParseRuleset(string(text))
	if err != nil || got.Report == nil || *got.Report != *r {
		t.Errorf("round trip: %+v, %v", got.Report, err)
	}
}
