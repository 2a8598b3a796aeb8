package classify

import "io/fs"

// memoFS remembers every Lstat and ReadLink answer for the length of one
// decision: the project root, the home directory and every target share
// their leading directories, which would otherwise be inspected again for
// each. It also gives the decision one consistent view of each name.
type memoFS struct {
	fs.ReadLinkFS
	lstat map[string]lstatResult
	link  map[string]linkResult
}

type lstatResult struct {
	fi  fs.FileInfo
	err error
}

type linkResult struct {
	target string
	err    error
}

func newMemoFS(fsys fs.ReadLinkFS) *memoFS {
	return &memoFS{ReadLinkFS: fsys, lstat: make(map[string]lstatResult, 16), link: map[string]linkResult{}}
}

func (m *memoFS) Lstat(name string) (fs.FileInfo, error) {
	if r, ok := m.lstat[name]; ok {
		return r.fi, r.err
	}
	fi, err := m.ReadLinkFS.Lstat(name)
	m.lstat[name] = lstatResult{fi, err}
	return fi, err
}

func (m *memoFS) ReadLink(name string) (string, error) {
	if r, ok := m.link[name]; ok {
		return r.target, r.err
	}
	t, err := m.ReadLinkFS.ReadLink(name)
	m.link[name] = linkResult{t, err}
	return t, err
}
