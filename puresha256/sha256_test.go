package puresha256

import (
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSum256 checks the digests against the standard's examples (FIPS
// 180-4's, as NIST's "Example Algorithms" give them) and against
// crypto/sha256 for every length up to five blocks, where the padding
// changes, and some longer inputs.
func TestSum256(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		strings.Repeat("a", 1000000):                               "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	} {
		if got := Sum256([]byte(in)); hex.EncodeToString(got[:]) != want {
			t.Errorf("Sum256(%.20q (%d bytes)) = %x, want %s", in, len(in), got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 70000)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	lengths := []int{1000, 4095, 4096, 54023, 70000}
	for n := range 5*64 + 1 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		if got, want := Sum256(buf[:n]), sha256.Sum256(buf[:n]); got != want {
			t.Errorf("Sum256 of %d bytes = %x, crypto/sha256 %x", n, got, want)
		}
	}
}

// FuzzSum256 compares the digest of any input with crypto/sha256's.
func FuzzSum256(f *testing.F) {
	f.Add([]byte("abc"))
	f.Add(make([]byte, 55))
	f.Add(make([]byte, 56))
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := Sum256(in), sha256.Sum256(in); got != want {
			t.Fatalf("Sum256(%x) = %x, crypto/sha256 %x", in, got, want)
		}
	})
}
