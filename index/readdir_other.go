//go:build !linux

package index

import (
	"io/fs"
	"os"
)

// readDir lists the directory d (os.ReadDir); inode numbers are not known
// here, so hard links are not looked for.
func readDir(d string) ([]entry, error) {
	ents, err := os.ReadDir(d)
	out := make([]entry, 0, len(ents))
	for _, e := range ents {
		x := entry{name: e.Name(), typ: typeOther}
		switch t := e.Type(); {
		case t.IsDir():
			x.typ = typeDir
		case t.IsRegular():
			x.typ = typeFile
		case t&fs.ModeSymlink != 0:
			x.typ = typeLink
		}
		out = append(out, x)
	}
	return out, err
}

// fileID is not known here.
func fileID(fs.FileInfo) (dev, ino, nlink uint64, ok bool) { return 0, 0, 0, false }
