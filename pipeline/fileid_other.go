//go:build !linux && !darwin

package pipeline

import (
	"errors"
	"io/fs"

	"github.com/safezonehq/safezone/policy"
)

// errNoFileID: this system gives no file identity the policy cache can
// trust, so there is no cache (every call loads the policy).
var errNoFileID = errors.New("no file identity on this system")

func statID(string) (fileID, error) { return fileID{}, errNoFileID }

func readWithID(path string) ([]byte, fileID, bool, error) {
	data, err := policy.ReadCapped(path)
	return data, fileID{}, false, err
}

func readCacheFile(fs.ReadLinkFS, string, int, int64, int64) ([]byte, bool) { return nil, false }

func infoID(fs.FileInfo) (fileID, bool) { return fileID{}, false }

// linkCount is not known here (no file is confined here either).
func linkCount(fs.FileInfo) (dev, ino, nlink uint64, ok bool) { return 0, 0, 0, false }
