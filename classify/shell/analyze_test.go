package shell

import (
	"path"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/safezonehq/safezone/classify/shell/shelltest"
	"github.com/safezonehq/safezone/policy/glob"
)

var testEnv = Env{Cwd: shelltest.Cwd, Home: shelltest.Home, ProjectDir: shelltest.Cwd, TmpDir: shelltest.TmpDir, ReadFile: shelltest.ReadFile}

// targetsOf returns "r /path" and "w /path" for every target (paths
// cleaned; "p" marks a pattern target, "g" a glob, "R" a recursive write,
// "C" a program's working directory; a pattern's exceptions follow, each
// after " !", then a glob's shell options when they are not bash's
// defaults), sorted and deduplicated: the notation of
// shelltest.Case.Want.
func targetsOf(a Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		for _, t := range c.Targets {
			kind := "r"
			if t.Access == Write {
				kind = "w"
			}
			p := t.Path
			if !t.Glob && !t.Pattern {
				p = path.Clean(p)
			}
			switch {
			case t.Pattern:
				kind += "p"
			case t.Glob:
				kind += "g"
			}
			if t.Recursive {
				kind += "R"
			}
			if t.Cwd {
				kind += "C"
			}
			for _, e := range t.Except {
				p += " !" + e
			}
			out = append(out, kind+" "+p+globOptsText(t.GlobOpts))
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// globOptsText writes a glob's option sets as shelltest.Case notes them:
// "" for bash's defaults alone, else " {dotglob,ignore=x}|{}" (each set's
// options that are not the default, the sets sorted).
func globOptsText(ws []glob.ShellOptions) string {
	if len(ws) == 0 || len(ws) == 1 && ws[0] == (glob.ShellOptions{}) {
		return ""
	}
	var sets []string
	for _, o := range ws {
		var on []string
		for _, f := range []struct {
			name string
			on   bool
		}{{"dotglob", o.DotGlob}, {"extglob", o.ExtGlob}, {"failglob", o.FailGlob}, {"globstar", o.GlobStar},
			{"keepdots", o.KeepDots}, {"nocaseglob", o.NoCaseGlob}, {"noglob", o.NoGlob}, {"nullglob", o.NullGlob}} {
			if f.on {
				on = append(on, f.name)
			}
		}
		if o.Ignore != "" {
			on = append(on, "ignore="+o.Ignore)
		}
		sets = append(sets, "{"+strings.Join(on, ",")+"}")
	}
	sort.Strings(sets)
	return " " + strings.Join(slices.Compact(sets), "|")
}

func TestAnalyze(t *testing.T) {
	for _, tt := range shelltest.Cases {
		for _, in := range tt.In {
			a := Analyze(in, testEnv)
			got := targetsOf(a)
			if tt.Unknown {
				if a.Known() {
					t.Errorf("%s: %q: known, want unknown; targets %q", tt.Name, in, got)
				}
				continue
			}
			if !a.Known() {
				t.Errorf("%s: %q: unknown (%s), want %q", tt.Name, in, a.Why(), tt.Want)
				continue
			}
			want := append([]string(nil), tt.Want...)
			sort.Strings(want)
			if tt.Name == "brace expansion" {
				want = []string{"w /p/a", "w /p/b"}
				if strings.Contains(in, "x{") {
					want = []string{"w /p/xay", "w /p/xby"}
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: %q:\n got %q\nwant %q", tt.Name, in, got, want)
			}
		}
	}
}

// TestMaxCommand: the table's over-long command is one byte over the limit.
func TestMaxCommand(t *testing.T) {
	if MaxCommand != 64<<10 {
		t.Errorf("MaxCommand is %d; the case \"parse errors and limits\" in shelltest assumes 64 KiB", MaxCommand)
	}
}

// TestWrapperAndGitTables: the wrappers are sorted (wrapperOf searches
// them) and each has a test case; a git subcommand is in one group only
// (gitSubcommand takes the first).
func TestWrapperAndGitTables(t *testing.T) {
	if !sort.SliceIsSorted(wrappers, func(i, j int) bool { return wrappers[i].name < wrappers[j].name }) {
		t.Error("wrappers must be sorted by name (wrapperOf uses a binary search)")
	}
	tested := map[string]bool{}
	for _, tt := range shelltest.Cases {
		for _, in := range tt.In {
			for _, w := range strings.Fields(in) {
				tested[w] = true
			}
		}
	}
	for i := range wrappers {
		name := wrappers[i].name
		if wrapperOf(name) != &wrappers[i] {
			t.Errorf("wrapperOf(%q) does not find its entry", name)
		}
		if !tested[name] {
			t.Errorf("wrapper %q has no test case", name)
		}
	}
	seen := map[string]bool{}
	for _, g := range gitSubcommands {
		for _, n := range g.names {
			if seen[n] {
				t.Errorf("git %s is in two groups of gitSubcommands", n)
			}
			seen[n] = true
		}
	}
}

// TestTableCoverage: every command in the table has a test case, and each
// family's table is sorted (spec searches it) and names a command once.
func TestTableCoverage(t *testing.T) {
	tested := map[string]bool{}
	for _, tt := range shelltest.Cases {
		for _, in := range tt.In {
			for _, c := range Analyze(in, testEnv).Commands {
				if len(c.Argv) > 0 {
					tested[c.Argv[0]] = true
				}
			}
			for _, w := range strings.Fields(in) {
				tested[strings.Trim(w, "'\"\\$")] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, table := range commands {
		for i := range table {
			name := table[i].name
			if !tested[name] {
				t.Errorf("table entry %q has no test case", name)
			}
			if seen[name] {
				t.Errorf("%q is in two tables", name)
			}
			seen[name] = true
			if table[i].role == roleCustom && table[i].custom == nil {
				t.Errorf("%q has role custom but no handler", name)
			}
		}
		if !sort.SliceIsSorted(table, func(i, j int) bool { return table[i].name < table[j].name }) {
			t.Errorf("the table holding %q must be sorted by name (spec uses a binary search)", table[0].name)
		}
	}
}

// TestRuns: a command that runs a program or script outside the tables
// says so (Command.Runs); one in the tables does not.
func TestRuns(t *testing.T) {
	for in, want := range map[string]string{
		"make":                         "make",
		"npm test":                     "npm",
		"./build.sh --fast":            "./build.sh",
		"go test ./...":                "go",
		"sudo -u x make all":           "make",
		"sh s.sh":                      "sh s.sh",
		"python3 x.py":                 "python3 x.py",
		"python3 -m pytest":            "python3 -m pytest",
		"perl -pi x.pl a":              "perl x.pl",
		"./s.sh":                       "./s.sh",
		"cd ../o && go test":           "go",
		"npx eslint .":                 "npx",
		"npx rm x":                     "",
		"ls | xargs make":              "make,make",
		"make -C ../o":                 "make",
		"git --git-dir=/x commit -m y": "git hooks of /x",
		"git --git-dir=/x status":      "",
		"python3 --version":            "",
		"f() { make; }; f":             "make",
		"cat a":                        "",
		"rm -rf x":                     "",
		"bash -c 'rm x'":               "",
		"git status":                   "",
		"echo hi":                      "",
		// A known name run from a file the agent may have written is not
		// the known program.
		"./ls":                     "./ls",
		"bin/cat x":                "bin/cat",
		"/tmp/p/git status":        "/tmp/p/git",
		"/usr/bin/cat a":           "",
		"sh -c ./rm":               "./rm",
		"ls2":                      "/p/bin/ls2 (found by $PATH)",
		"echo x; cd ..; ls2":       "/p/bin/ls2 (found by $PATH)",
		"echo":                     "",
		"safezone trust .mcp.json": "",
		// git writing the work tree from its objects.
		"git checkout main":        "git checkout: files from the repository's objects",
		"git reset --hard":         "git reset: files from the repository's objects",
		"git reset HEAD~1":         "",
		"git stash list":           "",
		"git stash pop":            "git stash: files from the repository's objects",
		"git restore --staged a":   "",
		"git restore a":            "git restore: files from the repository's objects",
		"git clean -n":             "",
		"git apply --check p.diff": "",
		"git pull":                 "",
	} {
		env := testEnv
		env.LookPath = func(name string) string {
			if name == "ls2" {
				return "/p/bin/ls2"
			}
			return ""
		}
		a := Analyze(in, env)
		var got []string
		for _, c := range a.Commands {
			if c.Runs != "" {
				got = append(got, c.Runs)
			}
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%q: runs %q, want %q", in, got, want)
		}
	}
}

// TestUnknownKeepsTargets: a command unknown for one reason still lists
// the targets the analysis found, so that deny rules apply to them.
func TestUnknownKeepsTargets(t *testing.T) {
	for in, want := range map[string]string{
		"find . -exec sh -c 'cat {} > ../out' \\;": "w /out",
		"sed 'e ls' out2":                          "r /p/out2",
		"cp .env /tmp/x; eval x":                   "r /p/.env",
	} {
		a := Analyze(in, testEnv)
		if a.Known() {
			t.Errorf("%q: known, want unknown", in)
		}
		if got := targetsOf(a); !slices.Contains(got, want) {
			t.Errorf("%q: targets %q, want among them %q", in, got, want)
		}
	}
}

// TestReadOnly: a line is read-only when every command in it is; a file a
// wrapper writes (time -o, nohup.out, flock's lock) makes its command
// write, whatever the command wrapped.
func TestReadOnly(t *testing.T) {
	for in, want := range map[string]bool{
		"grep x f":               true,
		"\\time -o out grep x f": false,
		"nohup grep x f":         false,
		"flock l0 cat f":         false,
		"sudo -l":                true,
		"git status":             true,
		"f() { cat x; }; f":      true,
		"bash -c 'cat x > y'":    false,
	} {
		got := true
		for _, c := range Analyze(in, testEnv).Commands {
			got = got && c.ReadOnly
		}
		if got != want {
			t.Errorf("%q: read-only %v, want %v", in, got, want)
		}
	}
}

// TestCommandsOf: a command run by another (find -exec, xargs, bash -c, a
// function's body) is a command of its own, with its argv as written, so
// that Bash(...) rules match it.
func TestCommandsOf(t *testing.T) {
	for in, want := range map[string][]string{
		"find . -exec rm -rf {} +":      {"rm -rf {}", "find . -exec rm -rf {} +"},
		"ls | xargs -0 rm -f":           {"ls", "rm -f (stdin)", "xargs -0 rm -f"},
		"f() { rm -rf x; }; f":          {"f", "rm -rf x"},
		"sudo -u root rm -rf x":         {"rm -rf x"},
		"npx eslint .":                  {"npx eslint ."},
		"git bisect run make test":      {"make test", "git bisect run make test"},
		"bash -c 'rm -rf x' && {cat,y}": {"rm -rf x", "bash -c rm -rf x", "cat y"},
	} {
		var got []string
		for _, c := range Analyze(in, testEnv).Commands {
			got = append(got, strings.Join(c.Argv, " "))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: commands %q, want %q", in, got, want)
		}
	}
}

// FuzzAnalyze checks that the walk over any parse tree never panics (the
// parser itself may: Analyze recovers that as unknown). Run longer with:
//
//	go test ./classify/shell -run '^$' -fuzz FuzzAnalyze -fuzztime 60s
func FuzzAnalyze(f *testing.F) {
	for _, c := range shelltest.Cases {
		for _, in := range c.In {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if len(cmd) > 4096 {
			return
		}
		walk(t, cmd, testEnv)
	})
}

// walk runs the analysis without Analyze's recover and fails on a panic
// that did not start in the mvdan.cc/sh parser.
func walk(t *testing.T, cmd string, env Env) {
	defer func() {
		if v := recover(); v != nil {
			stack := string(debug.Stack())
			// The frames after the runtime's panic frame show where it began.
			_, after, _ := strings.Cut(stack, "panic(")
			if i := strings.Index(after, "\n"); i >= 0 {
				after = after[i+1:]
			}
			origin, _, _ := strings.Cut(after, "\n")
			if i := strings.Index(after, "github.com/safezonehq/safezone/classify/shell."); i >= 0 && (!strings.Contains(origin, "mvdan.cc/sh") || i < strings.Index(after, "mvdan.cc/sh")) {
				t.Fatalf("the shell walk panicked on %q: %v\n%s", cmd, v, stack)
			}
		}
	}()
	analyze(cmd, env)
}

// typicalCommand is a typical 200-character Bash command of a coding agent:
// a cd, a build, tests piped through tail, a redirection and a grep.
const typicalCommand = `cd src && go build ./... 2>&1 | head -20 && go test -count=1 -run 'TestShell|TestDecide' ./classify/ > ../agent_sandbox/test.log 2>&1; grep -n "FAIL" ../agent_sandbox/test.log | tail -5`

// BenchmarkAnalyze measures the analysis (parse and walk) of a typical
// 200-character command. Target: under 50 µs.
func BenchmarkAnalyze(b *testing.B) {
	env := Env{Cwd: "/work/proj", Home: "/home/u", ProjectDir: "/work/proj"}
	if n := len(typicalCommand); n < 180 || n > 220 {
		b.Fatalf("typicalCommand is %d characters", n)
	}
	if a := Analyze(typicalCommand, env); !a.Known() || len(a.Commands) != 6 {
		b.Fatalf("typicalCommand: known %v, %d commands", a.Known(), len(a.Commands))
	}
	b.ReportAllocs()
	for b.Loop() {
		Analyze(typicalCommand, env)
	}
}

// TestHiddenCode: code bash runs that the words do not show makes the line
// unknown: a static value holding an array subscript with a command
// substitution (bash may evaluate it), mapfile -C, history files, curl's
// %output{}, and a variable that names code (PATH, BASH_ENV…) set by any
// builtin (printf -v, read, mapfile, a loop, a nameref, let); other uses
// of brackets and ordinary variables do not.
func TestHiddenCode(t *testing.T) {
	for in, known := range map[string]bool{
		"test -v 'a[$(./cat)]'":             false,
		"[[ -v 'a[$(./cat)]' ]]":            false,
		"declare -i x='a[$(./cat)]'":        false,
		"printf -v 'a[`./cat`]' 1":          false,
		"x='a[$(./cat)]'; ((x))":            false,
		"mapfile -c 1 -C ./cat x < a.txt":   false,
		"history -r ~/.ssh/id_rsa":          false,
		"HISTFILE=x; history":               false,
		"history":                           true,
		"jq '.[] | .x' a.json":              true,
		"echo '$(date)'":                    true,
		"grep -E '[a-z]+' a":                true,
		"curl -w '%output{/h/x}' https://x": false,
		"curl file://evil.example/x":        false,
	} {
		a := Analyze(in, testEnv)
		if got := a.Known(); got != known {
			t.Errorf("%q: known %v, want %v", in, got, known)
		}
	}
}

// TestUntrusted: a command whose program is not the one the table knows by
// its name (a path outside the system's bin directories, also after a
// wrapper; a name $PATH finds where the agent may write) is Untrusted;
// the table's programs, by name or by their system path, are not.
func TestUntrusted(t *testing.T) {
	env := testEnv
	env.LookPath = func(name string) string {
		if name == "ls2" {
			return "/p/bin/ls2"
		}
		return ""
	}
	for in, want := range map[string]bool{
		"git submodule update":          false,
		"/usr/bin/git submodule update": false,
		"rm -rf x":                      false,
		"./git submodule update":        true,
		"bin/rm -rf x":                  true,
		"env ./rm x":                    true,
		"ls2 -l":                        true,
	} {
		if got := Analyze(in, env).Commands[0].Untrusted; got != want {
			t.Errorf("%q: Untrusted %v, want %v", in, got, want)
		}
	}
}
