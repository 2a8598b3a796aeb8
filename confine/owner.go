package confine

import "io/fs"

// Owner returns the user ID owning fi's file; false where the system does
// not say.
func Owner(fi fs.FileInfo) (int, bool) { return fileOwner(fi) }
