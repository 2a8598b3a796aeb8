// Package puresha256 computes SHA-256 (FIPS 180-4) without the standard
// library's crypto module.
//
// crypto/sha256 links Go's FIPS 140 module, whose packages (sha256, sha512,
// sha3, hmac, aes, gcm, drbg, the CPU feature checks) all run their
// initialisation at every start of the binary, whether the call hashes
// anything or not: a hook call is a process start, and most calls hash
// nothing (issue 31; measured in December 2026 on the CI VM, paired with
// the floor in one run: 0.02x to 0.11x of the floor's wall time and 0.04x
// to 0.10x of its CPU time off a call, about 12 page faults fewer: README,
// "Performance"). safezone hashes small inputs only:
// Codex's hook identities (a few hundred bytes of JSON) and the fast
// launcher's binary (about 50 KB, when its identity changed), where a
// portable implementation's speed does not matter.
//
// The digests are SHA-256's: TestSum256 checks them against crypto/sha256
// and the standard's examples. Not for secrets: the code makes no claim of
// running in constant time.
package puresha256

import (
	"encoding/binary"
	"math/bits"
)

// Size is the size of a SHA-256 digest in bytes.
const Size = 32

// initial is the first hash value, H(0) (FIPS 180-4 section 5.3.3).
var initial = [8]uint32{
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
}

// k holds the round constants K(0) to K(63) (FIPS 180-4 section 4.2.2).
var k = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// Sum256 returns the SHA-256 digest of data.
func Sum256(data []byte) [Size]byte {
	h := initial
	n := uint64(len(data))
	for len(data) >= 64 {
		block(&h, data[:64])
		data = data[64:]
	}
	// The padding (section 5.1.1): a 1 bit, zeros, and the message's
	// length in bits, big-endian, in one block or two.
	var tail [128]byte
	m := copy(tail[:], data)
	tail[m] = 0x80
	end := 64
	if m >= 56 {
		end = 128
	}
	binary.BigEndian.PutUint64(tail[end-8:end], n<<3)
	for b := 0; b < end; b += 64 {
		block(&h, tail[b:b+64])
	}
	var out [Size]byte
	for i, v := range h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// block processes one 64-byte block p into the hash value h (section
// 6.2.2).
func block(h *[8]uint32, p []byte) {
	var w [64]uint32
	for i := range 16 {
		w[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	for i := 16; i < 64; i++ {
		s0 := bits.RotateLeft32(w[i-15], -7) ^ bits.RotateLeft32(w[i-15], -18) ^ w[i-15]>>3
		s1 := bits.RotateLeft32(w[i-2], -17) ^ bits.RotateLeft32(w[i-2], -19) ^ w[i-2]>>10
		w[i] = w[i-16] + s0 + w[i-7] + s1
	}
	a, b, c, d, e, f, g, hh := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
	for i := range 64 {
		s1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
		ch := e&f ^ ^e&g
		t1 := hh + s1 + ch + k[i] + w[i]
		s0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
		maj := a&b ^ a&c ^ b&c
		t2 := s0 + maj
		hh, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
	}
	h[0] += a
	h[1] += b
	h[2] += c
	h[3] += d
	h[4] += e
	h[5] += f
	h[6] += g
	h[7] += hh
}
