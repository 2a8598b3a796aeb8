package policy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/safezonehq/safezone/policy/yamldoc"
)

// RemovableKeys are the list keys a layer's remove: section may name
// (README, "Layers"). Scalars are not removed: a layer sets them.
var RemovableKeys = []string{
	"sandbox.additional_directories", "sandbox.read_dirs",
	"paths.protected", "paths.warned", "paths.safe", "paths.templates",
	"rules.deny", "rules.ask", "rules.allow", "confine.write",
}

// Removal is one entry of a layer's remove: section: the entry of a list
// key, spelled exactly as a lower layer wrote it, that the layer takes out
// of the policy.
type Removal struct {
	Key   string // one of RemovableKeys
	Value string // the entry as written: "Read(~/.npmrc)", "~/.cache"
	Pos   Pos
	Index int // its index in the file's list
}

// Field is the removal's field path for errors: remove.rules.deny[0].
func (r Removal) Field() string { return fmt.Sprintf("remove.%s[%d]", r.Key, r.Index) }

// Removed is an entry of a lower layer that a remove: section took out.
type Removed struct {
	Key   string
	Value string
	Pos   Pos // where the entry was set
	By    Pos // the removal
}

func (r Removed) String() string {
	return fmt.Sprintf("%s: %s (%s) removed by %s", r.Key, r.Value, r.Pos, r.By)
}

// rawRemove is the remove: mapping: a list of entries per removable key,
// keys spelled as in locked: and RemovableKeys.
type rawRemove struct {
	AdditionalDirectories []yamldoc.Node
	ReadDirs              []yamldoc.Node
	Protected             []yamldoc.Node
	Warned                []yamldoc.Node
	Safe                  []yamldoc.Node
	Templates             []yamldoc.Node
	Deny                  []yamldoc.Node
	Ask                   []yamldoc.Node
	Allow                 []yamldoc.Node
	ConfineWrite          []yamldoc.Node
}

// remove validates the remove: mapping: each entry a non-empty string,
// listed once. Whether it names an entry of a lower layer is [Merge]'s to
// say, which knows the lower layers.
func (p *parser) remove(r *rawRemove) {
	for _, k := range []struct {
		key string
		ns  []yamldoc.Node
	}{
		{"sandbox.additional_directories", r.AdditionalDirectories}, {"sandbox.read_dirs", r.ReadDirs},
		{"paths.protected", r.Protected}, {"paths.warned", r.Warned}, {"paths.safe", r.Safe},
		{"paths.templates", r.Templates}, {"rules.deny", r.Deny}, {"rules.ask", r.Ask},
		{"rules.allow", r.Allow}, {"confine.write", r.ConfineWrite},
	} {
		seen := map[string]bool{}
		for i := range k.ns {
			n := &k.ns[i]
			field := fmt.Sprintf("remove.%s[%d]", k.key, i)
			v, ok := p.str(n, field)
			if !ok {
				continue
			}
			if v == "" {
				p.fail(n, field, fmt.Errorf("%w: empty entry", ErrBadValue))
				continue
			}
			if seen[v] {
				p.warn(n, field, fmt.Errorf("%w: %q is listed twice", ErrDuplicate, v))
				continue
			}
			seen[v] = true
			p.l.Remove = append(p.l.Remove, Removal{Key: k.key, Value: v, Pos: p.pos(n), Index: i})
		}
	}
	// In the file's order, for errors in the order of its lines.
	slices.SortStableFunc(p.l.Remove, func(a, b Removal) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
}

// The entry functions give how an entry of a list key is written, which a
// removal names (a directory as written, a pattern's or a rule's text, a
// template's name), and where.
func dirEntry(d Dir) (string, Pos)                  { return d.Path, d.Pos }
func patternEntry(p Pattern) (string, Pos)          { return p.Text, p.Pos }
func ruleEntry(r Rule) (string, Pos)                { return r.Text, r.Pos }
func templateEntry(t Setting[string]) (string, Pos) { return t.Value, t.Pos }
func grantEntry(g Grant) (string, Pos)              { return g.Command.Text, g.Pos }

// drop removes from list every entry written as value and returns what it
// removed.
func drop[T any](list []T, entry func(T) (string, Pos), r Removal) ([]T, []Removed) {
	var out []Removed
	kept := list[:0:0]
	for _, x := range list {
		text, pos := entry(x)
		if text == r.Value {
			out = append(out, Removed{Key: r.Key, Value: r.Value, Pos: pos, By: r.Pos})
			continue
		}
		kept = append(kept, x)
	}
	return kept, out
}

// applyRemoval takes r's entry out of p and returns what it took out.
func (p *Policy) applyRemoval(r Removal) []Removed {
	var out []Removed
	switch r.Key {
	case "sandbox.additional_directories":
		p.AdditionalDirectories, out = drop(p.AdditionalDirectories, dirEntry, r)
	case "sandbox.read_dirs":
		p.ReadDirs, out = drop(p.ReadDirs, dirEntry, r)
	case "paths.protected":
		p.Protected, out = drop(p.Protected, patternEntry, r)
	case "paths.warned":
		p.Warned, out = drop(p.Warned, patternEntry, r)
	case "paths.safe":
		p.Safe, out = drop(p.Safe, patternEntry, r)
	case "paths.templates":
		p.Templates, out = drop(p.Templates, templateEntry, r)
	case "rules.deny":
		p.Deny, out = drop(p.Deny, ruleEntry, r)
	case "rules.ask":
		p.Ask, out = drop(p.Ask, ruleEntry, r)
	case "rules.allow":
		p.Allow, out = drop(p.Allow, ruleEntry, r)
	case "confine.write":
		p.Confine.Write, out = drop(p.Confine.Write, dirEntry, r)
	}
	return out
}

// listEntries calls f with the key and text of every entry of l's list
// keys, the entries a higher layer's removal may name.
func (l *Layer) listEntries(f func(key, text string)) {
	for _, d := range l.AdditionalDirectories {
		f("sandbox.additional_directories", d.Path)
	}
	for _, d := range l.ReadDirs {
		f("sandbox.read_dirs", d.Path)
	}
	for _, c := range []struct {
		key string
		ps  []Pattern
	}{{"paths.protected", l.Protected}, {"paths.warned", l.Warned}, {"paths.safe", l.Safe}} {
		for _, x := range c.ps {
			f(c.key, x.Text)
		}
	}
	for _, t := range l.Templates {
		f("paths.templates", t.Value)
	}
	for _, c := range []struct {
		key string
		rs  []Rule
	}{{"rules.deny", l.Deny}, {"rules.ask", l.Ask}, {"rules.allow", l.Allow}} {
		for _, x := range c.rs {
			f(c.key, x.Text)
		}
	}
	for _, d := range l.Confine.Write {
		f("confine.write", d.Path)
	}
}

// written is every entry the layers merged so far listed: what a removal
// may name.
type written struct {
	has   map[[2]string]bool  // key and text
	byKey map[string][]string // the texts of each key, for suggestions
}

func newWritten() *written {
	return &written{has: map[[2]string]bool{}, byKey: map[string][]string{}}
}

func (w *written) add(key, text string) {
	if !w.has[[2]string{key, text}] {
		w.has[[2]string{key, text}] = true
		w.byKey[key] = append(w.byKey[key], text)
	}
}

// check returns the error of a removal that names no entry of a lower
// layer, with the nearest entry as a suggestion; nil when it names one.
func (w *written) check(r Removal) *Error {
	if w.has[[2]string{r.Key, r.Value}] {
		return nil
	}
	msg := fmt.Sprintf("%q is not an entry of %s in a lower layer (the embedded default, managed, user, project, local, earlier --policy files)", r.Value, r.Key)
	if s := Suggest(r.Value, w.byKey[r.Key], max(2, len(r.Value)/4)); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	if strings.TrimSpace(r.Value) != r.Value {
		msg += "; entries are matched exactly, spaces included"
	}
	return &Error{Pos: r.Pos, Field: r.Field(), Err: fmt.Errorf("%w: %s", ErrRemovesNothing, msg)}
}
