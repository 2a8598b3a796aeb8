package policy

import (
	"fmt"

	"github.com/safezonehq/safezone/netrule"
	"github.com/safezonehq/safezone/policy/yamldoc"
)

// Network is the effective network: mapping, what a confined command may
// connect to (README, "Network"). With Isolate on, a confined command gets
// a network namespace of its own and reaches out only through safezone's
// proxy, which lets through the hosts of Allow (and the package
// registries the user's tools use, which the hook adds) that no Deny entry
// names. Entries are in package netrule's syntax.
type Network struct {
	Isolate Setting[bool]
	Allow   []Setting[string]
	Deny    []Setting[string]
}

// NetworkLayer is the network: mapping of one file; Claude Code's
// sandbox.network.allowedDomains and deniedDomains and its
// WebFetch(domain:...) allow rules land here too.
type NetworkLayer struct {
	Isolate     *Setting[bool]
	Allow, Deny []Setting[string]
}

type rawNetwork struct {
	Isolate     yamldoc.Node
	Allow, Deny []yamldoc.Node
}

const networkKeys = "isolate, allow, deny"

// network validates the network: mapping.
func (p *parser) network(n *rawNetwork) {
	if n.Isolate.Kind != 0 {
		p.l.Network.Isolate = p.boolean(&n.Isolate, "network.isolate")
	}
	p.l.Network.Allow = p.hosts(n.Allow, "network.allow")
	p.l.Network.Deny = p.hosts(n.Deny, "network.deny")
}

// hosts validates a list of network entries (netrule.Parse).
func (p *parser) hosts(ns []yamldoc.Node, key string) []Setting[string] {
	var out []Setting[string]
	for i := range ns {
		n := &ns[i]
		field := fmt.Sprintf("%s[%d]", key, i)
		v, ok := p.str(n, field)
		if !ok {
			continue
		}
		if _, err := netrule.Parse(v); err != nil {
			p.fail(n, field, fmt.Errorf("%w: %v", ErrBadValue, err))
			continue
		}
		out = append(out, Setting[string]{Value: v, Pos: p.pos(n)})
	}
	return out
}

// mergeNetwork merges the network: mapping of layer l into p.
func mergeNetwork(open opener, p *Policy, l *Layer) {
	scalar(open, "network.isolate", &p.Network.Isolate, l.Network.Isolate)
	for _, list := range []struct {
		key string
		src []Setting[string]
		dst *[]Setting[string]
	}{{"network.allow", l.Network.Allow, &p.Network.Allow}, {"network.deny", l.Network.Deny, &p.Network.Deny}} {
		for _, s := range list.src {
			if open(list.key, func() string { return s.Value }, s.Pos) {
				*list.dst = append(*list.dst, s)
			}
		}
	}
}

// Values returns the values of ss.
func Values(ss []Setting[string]) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Value
	}
	return out
}
