package confine

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hideFixture adds to newFixture's tree:
//
//	proj/.env              "API_KEY=s3cr3t-env"
//	proj/services/api/.env.local "DB=s3cr3t-local"
//	proj/certs/            a hidden directory, holding server.pem "s3cr3t-pem"
//	proj/.env.example      "API_KEY="
//	home/.npmrc            "registry=https://r.example/\n//r.example/:_authToken=TOKEN"
//	home/npmrc.clean       "registry=https://r.example/"
//	shm/leftover           a file in the directory the command gets a tmpfs over
func hideFixture(t *testing.T) (*fixture, Ruleset) {
	t.Helper()
	f := newFixture(t)
	for _, d := range []string{"proj/services/api", "proj/certs", "shm"} {
		if err := os.MkdirAll(filepath.Join(f.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{
		"proj/.env": "API_KEY=s3cr3t-env", "proj/services/api/.env.local": "DB=s3cr3t-local", "proj/certs/server.pem": "s3cr3t-pem",
		"proj/.env.example": "API_KEY=", "home/.npmrc": "registry=https://r.example/\n//r.example/:_authToken=TOKEN\n",
		"home/npmrc.clean": "registry=https://r.example/\n", "shm/leftover": "old",
	} {
		if err := os.WriteFile(filepath.Join(f.root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs := f.rules(true)
	rs.Hide = []string{f.proj + "/.env", f.proj + "/services/api/.env.local", f.proj + "/certs", f.home + "/.ssh"}
	rs.Replace = map[string]string{f.home + "/.npmrc": f.home + "/npmrc.clean"}
	rs.Tmpfs = []string{f.root + "/shm"}
	rs.Write = append(rs.Write, f.root+"/shm")
	rs.NoRead = nil
	return f, rs.Normalize()
}

// TestHide: the files a Read deny rule matches inside the writable project
// can be neither read, written, removed, renamed nor linked by a confined
// command, and the directories above them cannot be renamed away; their
// neighbours work as before, and a file the command creates is its own.
func TestHide(t *testing.T) {
	needNamespaces(t)
	testHide(t, nil)
}

// TestHideUnprivileged runs TestHide's checks as an unprivileged user, for
// whom a hidden file reads as "Permission denied" rather than as empty.
func TestHideUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("runs as root, switching to an unprivileged user (the tests already run unprivileged: see TestHide)")
	}
	needNamespaces(t)
	testHide(t, &syscall.Credential{Uid: 65534, Gid: 65534})
}

func testHide(t *testing.T, cred *syscall.Credential) {
	for _, tc := range []struct {
		name   string
		script string
		ok     bool   // the script exits 0
		stdout string // with ok, exactly
		check  func(f *fixture) error
	}{
		{name: "read .env", script: "cat .env"},
		{name: "read .env with python", script: `python3 -c "print(open('.env').read())"`},
		{name: "read a nested .env.local", script: "cat services/api/.env.local"},
		{name: "read a key in a hidden directory", script: "cat certs/server.pem"},
		{name: "list a hidden directory", script: "ls certs"},
		{name: "glob over the project", script: "cat * .* */*/.* */* 2>/dev/null"},
		{name: "find and read every file", script: "find . -type f -exec cat {} + 2>/dev/null"},
		{name: "overwrite .env", script: "echo x > .env",
			check: func(f *fixture) error { return content(f.proj+"/.env", "API_KEY=s3cr3t-env") }},
		{name: "remove .env", script: "rm -f .env",
			check: func(f *fixture) error { return content(f.proj+"/.env", "API_KEY=s3cr3t-env") }},
		{name: "rename .env", script: "mv .env e2",
			check: func(f *fixture) error { return absent(f.proj + "/e2") }},
		{name: "hard-link .env", script: "ln .env e2",
			check: func(f *fixture) error { return absent(f.proj + "/e2") }},
		{name: "rename the directory above a hidden file", script: "mv services s2",
			check: func(f *fixture) error { return absent(f.proj + "/s2") }},
		{name: "copy the hidden directory", script: "cp -r certs c2; cat c2/*"},
		{name: "read ~/.ssh, hidden outside the writable paths", script: "cat ../home/.ssh/id_rsa"},
		{name: "a template beside it stays readable", script: "cat .env.example", ok: true, stdout: "API_KEY="},
		{name: "a file made by the command is its own", script: "echo mine > .env.new && cat .env.new", ok: true, stdout: "mine\n"},
		{name: "other files stay writable", script: "echo y > file && cat file", ok: true, stdout: "y\n"},
		{name: "npm's config reads without its token", script: "cat ../home/.npmrc", ok: true, stdout: "registry=https://r.example/\n"},
		{name: "the replaced file is read-only", script: "echo x >> ../home/.npmrc",
			check: func(f *fixture) error { return content(f.home+"/npmrc.clean", "registry=https://r.example/\n") }},
		{name: "a private tmpfs is empty and writable", script: "ls ../shm; echo z > ../shm/new && cat ../shm/new", ok: true, stdout: "z\n"},
		{name: "what the command wrote in its tmpfs stays there", script: "echo z > ../shm/new",
			check: func(f *fixture) error {
				if err := absent(f.root + "/shm/new"); err != nil {
					return err
				}
				return content(f.root+"/shm/leftover", "old")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, rs := hideFixture(t)
			if cred != nil {
				chownTree(t, f.root, int(cred.Uid), int(cred.Gid))
			}
			rules, _ := rs.MarshalText()
			r := runLauncher(t, f.proj, cred, "exec", string(rules), "/bin/sh", "-c", tc.script)
			if out := r.stdout + r.stderr; strings.Contains(out, "s3cr3t") || strings.Contains(out, "SECRET") || strings.Contains(out, "_authToken") {
				t.Fatalf("a secret leaked: stdout %q, stderr %q", r.stdout, r.stderr)
			}
			if tc.name == "list a hidden directory" && strings.Contains(r.stdout, "server.pem") {
				t.Fatalf("the hidden directory was listed: %q", r.stdout)
			}
			if tc.ok && (r.code != 0 || r.stdout != tc.stdout) {
				t.Fatalf("exit %d, stdout %q, want 0 and %q; stderr: %s", r.code, r.stdout, tc.stdout, r.stderr)
			}
			if strings.Contains(r.stderr, "safezone: confine:") {
				t.Fatalf("the launcher failed: %s", r.stderr)
			}
			if tc.check != nil {
				if err := tc.check(f); err != nil {
					t.Error(err)
				}
			}
			if (tc.name == "read .env" || tc.name == "read ~/.ssh, hidden outside the writable paths") && !strings.Contains(r.stderr, "Permission denied") {
				t.Errorf("stderr %q: want Permission denied (root included: it has no capabilities in the namespace)", r.stderr)
			}
		})
	}
}

// TestHideMissingSkipped: a Hide, ReadOnly or Replace path that does not
// exist is skipped, and the command runs.
func TestHideMissingSkipped(t *testing.T) {
	needNamespaces(t)
	f := newFixture(t)
	rs := f.rules(true)
	rs.Hide = []string{f.proj + "/.env"}
	rs.Replace = map[string]string{f.home + "/.npmrc": f.home + "/notes"}
	rules, _ := rs.Normalize().MarshalText()
	r := runLauncher(t, f.proj, nil, "exec", string(rules), "/bin/sh", "-c", "echo ok")
	if r.code != 0 || r.stdout != "ok\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestHideUnreachableSkipped: a Hide path in a directory the launcher
// cannot enter (another user's, mode 0700: a socket /proc/net/unix lists)
// is skipped, not fatal; the command cannot reach it either. As root
// only (it needs a directory of another user).
func TestHideUnreachableSkipped(t *testing.T) {
	needNamespaces(t)
	if os.Geteuid() != 0 {
		t.Skip("runs as root: makes a directory of another user")
	}
	f := newFixture(t)
	private := f.root + "/other"
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(private+"/agent.sock", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{private + "/agent.sock", private} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	rs := f.rules(true)
	rs.Hide = []string{private + "/agent.sock"}
	rules, _ := rs.Normalize().MarshalText()
	r := runLauncher(t, f.proj, nil, "exec", string(rules), "/bin/sh", "-c", "cat "+private+"/agent.sock; echo ok")
	if r.code != 0 || r.stdout != "ok\n" || !strings.Contains(r.stderr, "Permission denied") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the command run and the path unreachable to it", r.code, r.stdout, r.stderr)
	}
}

// TestOverlay: a directory overlaid for the command (npx's cache) can be
// added to, changed and emptied by it, and is as it was afterwards.
func TestOverlay(t *testing.T) {
	needNamespaces(t)
	testOverlay(t, nil)
}

// TestOverlayUnprivileged is TestOverlay as an unprivileged user: the Go
// launcher's second stage needs CAP_DAC_OVERRIDE in its namespace for
// overlayfs to make its work directory (it failed with "fsconfig create:
// permission denied" for every user but root, whenever a code cache
// existed).
func TestOverlayUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("runs as root, switching to an unprivileged user (the tests already run unprivileged: see TestOverlay)")
	}
	needNamespaces(t)
	testOverlay(t, &syscall.Credential{Uid: 65534, Gid: 65534})
}

func testOverlay(t *testing.T, cred *syscall.Credential) {
	f := newFixture(t)
	cache := f.home + "/.npm/_npx"
	if err := os.MkdirAll(cache+"/pkg", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cache+"/pkg/index.js", []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := f.rules(true)
	rs.Write = append(rs.Write, f.home+"/.npm")
	rs.Overlay = []string{cache}
	rules, _ := rs.Normalize().MarshalText()
	if cred != nil {
		chownTree(t, f.root, int(cred.Uid), int(cred.Gid))
	}
	r := runLauncher(t, f.proj, cred, "exec", string(rules), "/bin/sh", "-c",
		"cat "+cache+"/pkg/index.js && mkdir "+cache+"/new && echo n > "+cache+"/new/f && echo changed > "+cache+"/pkg/index.js && rm -r "+cache+"/pkg && ls "+cache)
	if r.code != 0 || r.stdout != "oldnew\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the old file read, then only new/ left", r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, cache+"/pkg/index.js"); got != "old" {
		t.Errorf("the cache's file holds %q afterwards, want old", got)
	}
	if exists(cache + "/new") {
		t.Error("what the command added reached the real cache")
	}
}

// TestOverlayOfWritePath: a code cache that is itself a Write path
// (~/go/pkg/mod in confine.write) gets its private layer too: a file the
// tool left read-only, made writable (chmod is no write Landlock governs)
// and changed, and a file added, are the command's own.
func TestOverlayOfWritePath(t *testing.T) {
	needNamespaces(t)
	f := newFixture(t)
	cache := f.home + "/go/pkg/mod"
	mod := cache + "/example.com/lib@v1.0.0"
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mod+"/lib.go", []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(mod, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(mod, 0o755)
	rs := f.rules(true)
	rs.Write = append(rs.Write, cache)
	rs.Overlay = []string{cache}
	rules, _ := rs.Normalize().MarshalText()
	r := runLauncher(t, f.proj, nil, "exec", string(rules), "/bin/sh", "-c",
		"chmod -R u+w "+mod+" && echo evil > "+mod+"/lib.go && cat "+mod+"/lib.go && mkdir "+cache+"/new")
	if r.code != 0 || r.stdout != "evil\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the change made in the command's layer", r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, mod+"/lib.go"); got != "old" {
		t.Errorf("the module's file holds %q afterwards, want old", got)
	}
	if fi, err := os.Stat(mod); err != nil || fi.Mode().Perm() != 0o555 {
		t.Errorf("the module's directory: %v, %v; want mode 0555 as it was", fi.Mode(), err)
	}
	if exists(cache + "/new") {
		t.Error("what the command added reached the real cache")
	}
}

// TestOddPaths: paths that JSON escapes (quotes, backslashes, a newline, a
// tab, non-ASCII letters, an emoji) reach the launcher intact: the file
// named so is hidden, its neighbour is not.
func TestOddPaths(t *testing.T) {
	needNamespaces(t)
	f := newFixture(t)
	odd := f.proj + "/we\"ird \\ d\tir\nnämé 🔑"
	if err := os.MkdirAll(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(odd+"/.env", []byte("ODD-S3CRET"), 0o644)
	os.WriteFile(odd+"/plain", []byte("plain"), 0o644)
	rs := f.rules(false)
	rs.Hide = []string{odd + "/.env"}
	rules, _ := rs.Normalize().MarshalText()
	r := runLauncher(t, odd, nil, "exec", string(rules), "/bin/sh", "-c", "cat .env; cat plain")
	if strings.Contains(r.stdout, "ODD-S3CRET") || r.stdout != "plain" || !strings.Contains(r.stderr, "Permission denied") {
		t.Fatalf("stdout %q, stderr %q; want the neighbour only", r.stdout, r.stderr)
	}
}
