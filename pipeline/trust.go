package pipeline

// Trust records: the layers that come with a repository (.safezone.yaml,
// .safezone.local.yaml, .claude/settings.json, .claude/settings.local.json)
// widen the policy only once the user has trusted their content
// (policy.Restrict; README, "Layers"). `safezone trust FILE` records the
// file's content, as it is, in safezone's state directory, outside the
// repository and out of reach of the agent (self-protection) and of
// confined commands (read-only, see confinement.go's stateInside); the hook
// compares the file with it byte for byte. A changed file is untrusted
// again.
//
// The record keeps the content itself rather than a digest of it: a byte
// comparison is exact, and needs no cryptographic hash, whose package
// initialisation would cost every hook call (see watch.go). The files are
// small (a policy or a settings file, at most policy.MaxFileSize).

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/safezonehq/safezone/classify"
	"github.com/safezonehq/safezone/policy"
)

// trustRecord is one trusted file: its path (its directory's symbolic links
// resolved, see trustKey) and its content when the user trusted it.
type trustRecord struct {
	Path    string    `json:"path"`
	Trusted time.Time `json:"trusted"`
	Content []byte    `json:"content"`
}

// maxTrustRecord bounds a record read on a hook call: the content (at most
// policy.MaxFileSize) in base64, and the rest.
const maxTrustRecord = policy.MaxFileSize*4/3 + 4096

// TrustKey is the path a trust record names for the file at path: absolute,
// clean, its directory's symbolic links resolved (every spelling of the
// project shares one record) and the file itself not followed (a link is
// judged by the content read through it).
func (s *System) TrustKey(path string) string {
	path = filepath.Clean(path)
	if r, err := classify.Resolve(s.FS, filepath.Dir(path)); err == nil && r.Exists {
		return filepath.Join(r.Path, filepath.Base(path))
	}
	return path
}

// trustFile is the record file of key: one per trusted path, named by an
// FNV-1a hash of it (two paths that collide share a file, and the record
// names its path, so one only replaces the other's trust).
func (s *System) trustFile(key string) string {
	dir := s.StateDir()
	if dir == "" {
		return ""
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return filepath.Join(dir, "trust", hex.EncodeToString(h.Sum(nil))+".json")
}

// ReadTrust reads the record of key; nil when there is none (or it names
// another path).
func (s *System) ReadTrust(key string) (*trustRecord, error) {
	p := s.trustFile(key)
	if p == "" {
		return nil, nil
	}
	rec, _, err := readTrustFile(p, key)
	return rec, err
}

// readTrustFile reads the record of key in the file p; nil when there is
// none (or it names another path). It also returns the identity of the
// file read, taken before reading it (zero when there is none).
func readTrustFile(p, key string) (*trustRecord, fileID, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fileID{}, nil
	}
	if err != nil {
		return nil, fileID{}, err
	}
	defer f.Close()
	var id fileID
	if fi, err := f.Stat(); err == nil {
		id, _ = infoID(fi)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTrustRecord+1))
	if err != nil {
		return nil, id, err
	}
	if len(data) > maxTrustRecord {
		return nil, id, fmt.Errorf("%s is over %d bytes", p, maxTrustRecord)
	}
	var rec trustRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, id, fmt.Errorf("%s: %w", p, err)
	}
	if rec.Path != key {
		return nil, id, nil
	}
	return &rec, id, nil
}

// Trusted is policy.Locations.Trusted: whether the user trusted the file
// at path with exactly this content. A record that cannot be read trusts
// nothing: the file's widening stays out.
func (s *System) Trusted(path string, content []byte) bool {
	rec, err := s.ReadTrust(s.TrustKey(path))
	return err == nil && rec != nil && bytes.Equal(rec.Content, content)
}

// RecordTrust records content as the trusted content of the file at path.
func (s *System) RecordTrust(path string, content []byte) error {
	key := s.TrustKey(path)
	p := s.trustFile(key)
	if p == "" {
		return errors.New("no state directory: set HOME or XDG_STATE_HOME")
	}
	data, err := json.MarshalIndent(trustRecord{Path: key, Trusted: s.Now(), Content: content}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return WriteAtomic(p, append(data, '\n'), 0o600)
}

// RevokeTrust deletes the record of the file at path; false when there was
// none.
func (s *System) RevokeTrust(path string) (bool, error) {
	key := s.TrustKey(path)
	rec, err := s.ReadTrust(key)
	if err != nil || rec == nil {
		return false, err
	}
	return true, os.Remove(s.trustFile(key))
}
