package pipeline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with data (mode perm): it writes a temporary
// file beside it, syncs it and renames it over path, so a crash leaves the
// old file or the new one, never half of one. (go-internal's renameio is
// deprecated and cannot set the mode; google/renameio does not build on
// Windows.)
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op after the rename
	if err := f.Chmod(perm); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
