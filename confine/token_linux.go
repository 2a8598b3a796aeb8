//go:build linux

package confine

import (
	"encoding/hex"
	"fmt"

	"golang.org/x/sys/unix"
)

// randomToken returns 16 random bytes from the kernel (getrandom(2), which
// blocks only until the pool is first initialised), in hex. crypto/rand
// reads the same source; calling it directly keeps crypto's packages, and
// their initialisation, out of every hook call. The error is getrandom's
// (ENOSYS before Linux 3.17, which has no Landlock either).
func randomToken() (string, error) {
	var b [16]byte
	for n := 0; n < len(b); {
		m, err := unix.Getrandom(b[n:], 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("random bytes for the state file: getrandom: %w", err)
		}
		n += m
	}
	return hex.EncodeToString(b[:]), nil
}
