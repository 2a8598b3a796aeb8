//go:build !linux

package confine

import (
	"crypto/rand"
	"encoding/hex"
)

// randomToken returns 16 random bytes in hex (crypto/rand, which never
// fails from Go 1.24 on).
func randomToken() (string, error) {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]), nil
}
