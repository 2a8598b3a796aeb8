package hookio

import (
	"bytes"
	"fmt"

	"github.com/tailscale/hujson"
)

// AddSandboxPaths merges entries into sandbox.filesystem.KEY (denyRead,
// denyWrite, ...) of a Claude Code settings file (settings reference, "Sandbox settings";
// Claude Code 2.1.330): the objects and the list are created when
// missing, entries already listed are not repeated, and every other key,
// comment and entry is kept. existing may be empty (a new file). It
// returns existing itself when nothing changes. A file that is not a JSON
// object, or a sandbox, filesystem or denyRead of another kind, is an
// error that names it; the file is then not to be overwritten.
func AddSandboxPaths(existing []byte, key string, entries []string) ([]byte, error) {
	root := eobj()
	if len(bytes.TrimSpace(existing)) > 0 {
		var err error
		if root, err = parseEdit(bytes.TrimPrefix(existing, []byte("\xef\xbb\xbf"))); err != nil {
			return nil, fmt.Errorf("existing file is not valid JSON: %w; fix it or move it aside, safezone does not overwrite it", err)
		}
		if asObject(&root) == nil {
			return nil, fmt.Errorf("existing file holds %s, not a JSON object; fix it or move it aside, safezone does not overwrite it", describeEdit(&root))
		}
	}
	sandbox, err := objectAt(asObject(&root), "sandbox", "sandbox")
	if err != nil {
		return nil, err
	}
	fsys, err := objectAt(sandbox, "filesystem", "sandbox.filesystem")
	if err != nil {
		return nil, err
	}
	list, err := arrayAt(fsys, key, "sandbox.filesystem."+key)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{}
	for i := range list.Elements {
		if lit, ok := list.Elements[i].Value.(hujson.Literal); ok && lit.Kind() == '"' {
			s := unquote(lit)
			have[s] = true
		}
	}
	changed := false
	for _, e := range entries {
		if !have[e] {
			have[e] = true
			list.Elements = append(list.Elements, hujson.ArrayElement(estr(e)))
			changed = true
		}
	}
	if !changed && len(bytes.TrimSpace(existing)) > 0 {
		return existing, nil
	}
	return encodeEdit(&root), nil
}
