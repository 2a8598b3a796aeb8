package glob

import "unicode/utf8"

// Meets reports whether some path matches both glob patterns a and b:
// unlike [Cache.Names], no literal character needs to line up. A
// malformed pattern, or one with more than MaxAlternatives brace
// alternatives, meets everything. A nil Cache compiles afresh each time.
func (c Cache) Meets(a, b string) bool { return meet(c, a, b, 0, false) }

// Match reports whether the path name matches the glob pattern, by the
// same automaton [Cache.Names] and [Cache.Meets] use (so "a*/**" matches
// "ab", as "a/**" matches "a"). A malformed pattern, or one with more than
// MaxAlternatives brace alternatives, matches everything. A nil Cache
// compiles afresh each time.
func (c Cache) Match(pattern, name string) bool {
	ns, ok := c.compiled(pattern, 0)
	if !ok {
		return true
	}
	for _, n := range ns {
		if n.match(name) {
			return true
		}
	}
	return false
}

// match runs the automaton on s.
func (n *nfa) match(s string) bool {
	on := make([]bool, len(n.edges))
	cur := append([]int(nil), n.closures[0]...)
	for _, st := range cur {
		on[st] = true
	}
	var next []int
	for len(s) > 0 && len(cur) > 0 {
		r, w := utf8.DecodeRuneInString(s)
		s = s[w:]
		clear(on)
		next = next[:0]
		for _, st := range cur {
			for i := range n.edges[st] {
				e := &n.edges[st][i]
				if !e.has(r) {
					continue
				}
				for _, t := range n.closures[e.to] {
					if !on[t] {
						on[t] = true
						next = append(next, t)
					}
				}
			}
		}
		cur, next = next, cur
	}
	if len(s) > 0 {
		return false
	}
	for _, st := range cur {
		if st == n.accept {
			return true
		}
	}
	return false
}
