package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHookLinksNoCrypto: the safezone binary links none of the standard
// library's crypto packages. crypto/sha256 alone brings Go's FIPS 140
// module, whose packages' initialisation runs at every process start, and a
// hook call is a process start (issue 31): safezone hashes with
// puresha256. The network proxy (cmd/safezone-proxy), a binary of its own,
// is not concerned.
func TestHookLinksNoCrypto(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.Lines(string(out)) {
		pkg, imports, _ := strings.Cut(strings.TrimSpace(line), ": ")
		if strings.HasPrefix(pkg, "crypto/") || strings.HasPrefix(pkg, "golang.org/x/crypto") {
			continue // reported through its importer below
		}
		for imp := range strings.FieldsSeq(imports) {
			if imp == "crypto" || strings.HasPrefix(imp, "crypto/") || strings.HasPrefix(imp, "golang.org/x/crypto/") {
				t.Errorf("%s imports %s: the hook binary would initialise Go's crypto module at every call (use puresha256 for SHA-256)", pkg, imp)
			}
		}
	}
}
