package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCargoFetchConfined: with the network isolated (the default, issue
// 29), `cargo fetch` downloads a dependency confined, through the proxy,
// from a registry the policy allows, and gets nothing from one it does
// not. crates.io is not reachable from the machines this runs on, so the
// registry is a sparse one (cargo's HTTP index protocol, RFC 2789) that
// the test serves on 127.0.0.1, named in network.allow; crates.io's own
// hosts are on the default allowlist (netrule's tests). An allowed
// localhost address is reached on the command's own loopback, where the
// daemon forwards it (README, "The network"); a registry elsewhere is
// reached through HTTPS_PROXY.
func TestCargoFetchConfined(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs confined commands")
	}
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Skip("no cargo:", err)
	}
	bin := confinedBuildWithProxy(t)
	crate := crateFile(t, "sztestdep", "0.1.0")
	sum := sha256.Sum256(crate)
	var mux http.ServeMux
	srv := httptest.NewServer(&mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("/index/config.json", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"dl": "%s/dl/{crate}/{version}/download"}`, srv.URL)
	})
	mux.HandleFunc("/index/sz/te/sztestdep", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"name":"sztestdep","vers":"0.1.0","deps":[],"cksum":"%s","features":{},"yanked":false}`+"\n", hex.EncodeToString(sum[:]))
	})
	var downloads atomic.Int32
	mux.HandleFunc("/dl/sztestdep/0.1.0/download", func(w http.ResponseWriter, r *http.Request) {
		downloads.Add(1)
		w.Write(crate)
	})

	d := workRoot(t)
	home, proj := filepath.Join(d, "home"), filepath.Join(d, "proj")
	for _, p := range []string{home, proj + "/src", proj + "/.cargo", d + "/xdg/safezone"} {
		mustMkdir(t, p)
	}
	writeFile(t, proj+"/Cargo.toml", "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nsztestdep = { version = \"0.1\", registry = \"local\" }\n")
	writeFile(t, proj+"/src/main.rs", "fn main() {}\n")
	writeFile(t, proj+"/.cargo/config.toml", "[registries.local]\nindex = \"sparse+"+srv.URL+"/index/\"\n")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CLAUDE_PROJECT_DIR=" + proj, "SHELL=/bin/bash", "TMPDIR=/tmp",
		"CARGO_NET_RETRY=0", // a refusal is final: no retries with their back-off
		"CARGO_HOME=" + filepath.Join(home, ".cargo"), "XDG_CONFIG_HOME=" + filepath.Join(d, "xdg"), "XDG_STATE_HOME=" + filepath.Join(d, "state")}
	for _, k := range []string{"RUSTUP_HOME"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := os.LookupEnv("RUSTUP_HOME"); !ok {
		if h, err := os.UserHomeDir(); err == nil {
			env = append(env, "RUSTUP_HOME="+filepath.Join(h, ".rustup"))
		}
	}
	t.Cleanup(func() { stopDaemons(filepath.Join(d, "state")) })
	h := &hookRunner{t: t, bin: bin}

	// Through the proxy (no_proxy emptied: the launcher names 127.0.0.1
	// there, so that a localhost service the policy names is reached on
	// the command's own loopback), as cargo reaches crates.io. Not
	// allowed: the proxy's refusal, nothing downloaded.
	const viaProxy = "NO_PROXY= no_proxy= cargo fetch"
	out := h.confined(proj, env, -1, viaProxy)
	if downloads.Load() != 0 || !strings.Contains(out, "403") {
		t.Fatalf("cargo fetch from a registry the policy does not name: %d downloads; output %s", downloads.Load(), out)
	}
	// Directly: the command's own loopback has nothing listening there.
	out = h.confined(proj, env, -1, "cargo fetch")
	if downloads.Load() != 0 || !strings.Contains(out, "Could not connect") {
		t.Fatalf("cargo fetch, not through the proxy: %d downloads; output %s", downloads.Load(), out)
	}
	// Named in network.allow: fetched through the proxy.
	writeFile(t, d+"/xdg/safezone/policy.yaml", fmt.Sprintf("version: 1\nnetwork:\n  allow: [%q]\n", strings.TrimPrefix(srv.URL, "http://")))
	out = h.confined(proj, env, 0, viaProxy)
	if downloads.Load() != 1 {
		t.Fatalf("cargo fetch from an allowed registry: %d downloads; output %s", downloads.Load(), out)
	}
	if ex := h.explain(proj, env, "cargo fetch"); ex.Ruleset.Net == nil {
		t.Errorf("cargo fetch ran with the network open: want the namespace of its own (the default)")
	}
}

// crateFile returns a .crate (a gzipped tar of NAME-VERSION/) holding a
// library with nothing in it.
func crateFile(t *testing.T, name, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct{ path, body string }{
		{"Cargo.toml", fmt.Sprintf("[package]\nname = %q\nversion = %q\nedition = \"2021\"\n", name, version)},
		{"src/lib.rs", "pub fn hello() {}\n"},
	} {
		p := name + "-" + version + "/" + f.path
		must(t, tw.WriteHeader(&tar.Header{Name: p, Mode: 0o644, Size: int64(len(f.body)), Typeflag: tar.TypeReg}))
		_, err := tw.Write([]byte(f.body))
		must(t, err)
	}
	must(t, tw.Close())
	must(t, gz.Close())
	return buf.Bytes()
}
