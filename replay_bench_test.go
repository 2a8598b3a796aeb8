package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/safezonehq/safezone/transcript/transcripttest"
)

// BenchmarkReplay replays a generated transcript of 5,000 calls (some
// 16 MB) in a project that exists; it reports calls per second and MB/s.
// scripts/replaybench measures the whole binary on 200 MB.
func BenchmarkReplay(b *testing.B) {
	sys, dir := testSystem(b)
	for _, d := range []string{"proj/docs", "proj/src/util", "proj/.git", "home/.ssh"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	path := filepath.Join(dir, "t.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	st, err := transcripttest.Generate(f, transcripttest.Options{Project: dir + "/proj", Home: dir + "/home", Calls: 5000, Seed: 1})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Bytes)
	b.ReportAllocs()
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := cmdReplay([]string{path}, &out, &errb, sys); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
	}
	b.ReportMetric(float64(st.Calls*b.N)/b.Elapsed().Seconds(), "calls/s")
}
