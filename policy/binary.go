package policy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The compiled policy as bytes, for the hook's policy cache (package
// pipeline): a merged Policy written once and read back with no parsing,
// merging or reflection. The encoding is this package's own and changes
// with it; a reader accepts only what the same build wrote (the cache is
// keyed by the binary). Every field of Policy and of the types below it is
// written, in declaration order (TestPolicyBinaryCoversEveryField fails when
// a field is added here and not to the encoding).
//
// Layout: uvarints for counts, lengths, enums and non-negative numbers,
// zig-zag varints for signed ones, a byte for a bool; strings through a
// table (each distinct string once, then referred to by its index: file
// names repeat in every position).

// ErrBadEncoding is wrapped by the error of [DecodePolicy] for bytes that do
// not hold a policy.
var ErrBadEncoding = errors.New("not an encoded policy")

// binaryVersion changes when the layout does.
const binaryVersion = 4

// sentinels are the conditions an [Error]'s Err is tested for with
// errors.Is; an encoded error keeps which of them it matched, and its text.
var sentinels = []error{
	ErrEmpty, ErrUnknownKey, ErrBadValue, ErrBadGlob, ErrBadRule, ErrBadVersion, ErrYAML,
	ErrNotAPolicy, ErrDuplicate, ErrUnknownTool, ErrSkippedRule, ErrRemovesNothing,
}

// decodedErr is an Error's Err read back: its text, and the sentinels it
// matched when it was written.
type decodedErr struct {
	msg  string
	mask uint64
}

func (e *decodedErr) Error() string { return e.msg }

func (e *decodedErr) Is(target error) bool {
	for i, s := range sentinels {
		if target == s {
			return e.mask&(1<<i) != 0
		}
	}
	return false
}

// AppendBinary appends p's encoding to b (see [DecodePolicy]).
func (p *Policy) AppendBinary(b []byte) ([]byte, error) {
	e := &encoder{index: map[string]int{}}
	e.policy(p)
	b = binary.AppendUvarint(b, binaryVersion)
	b = binary.AppendUvarint(b, uint64(len(e.strs)))
	for _, s := range e.strs {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return append(b, e.buf...), nil
}

// DecodePolicy reads a policy written by [Policy.AppendBinary] of the same
// build. Bytes that are truncated, too long, or out of range anywhere are an
// error wrapping [ErrBadEncoding]; it never panics on any input.
func DecodePolicy(data []byte) (*Policy, error) {
	d := &decoder{data: data, all: string(data)}
	if v := d.uint(); v != binaryVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrBadEncoding, v, binaryVersion)
	}
	n := d.count()
	d.strs = make([]string, 0, n)
	for range n {
		l := d.count()
		if d.err != nil || l > len(d.data)-d.off {
			d.fail()
			break
		}
		d.strs = append(d.strs, d.all[d.off:d.off+l])
		d.off += l
	}
	p := d.policy()
	if d.err == nil && d.off != len(d.data) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return p, nil
}

type encoder struct {
	buf   []byte
	strs  []string
	index map[string]int
}

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }

func (e *encoder) bool(v bool) {
	if v {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

func (e *encoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = len(e.strs)
		e.index[s] = i
		e.strs = append(e.strs, s)
	}
	e.uint(uint64(i))
}

func (e *encoder) strs2(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) pos(p Pos) {
	e.str(p.File)
	e.int(int64(p.Line))
	e.int(int64(p.Col))
}

func encodeList[T any](e *encoder, xs []T, f func(*encoder, T)) {
	e.uint(uint64(len(xs)))
	for _, x := range xs {
		f(e, x)
	}
}

func encodeSetting[T any](e *encoder, s Setting[T], f func(*encoder, T)) {
	f(e, s.Value)
	e.pos(s.Pos)
}

func encDecision(e *encoder, d Decision) { e.uint(uint64(d)) }
func encBool(e *encoder, b bool)         { e.bool(b) }
func encStr(e *encoder, s string)        { e.str(s) }

func encDir(e *encoder, d Dir) {
	e.str(d.Path)
	e.str(d.Base)
	e.pos(d.Pos)
	e.bool(d.Host)
}

func encPattern(e *encoder, p Pattern) {
	e.str(p.Text)
	e.pos(p.Pos)
	e.uint(uint64(p.Anchor))
	e.str(p.Glob)
	e.bool(p.Resolve)
	e.str(p.Why)
}

func encRule(e *encoder, r Rule) {
	e.str(r.Text)
	e.pos(r.Pos)
	e.uint(uint64(r.Kind))
	e.str(r.Tool)
	e.bool(r.AnyAccess)
	e.uint(uint64(r.Access))
	encPattern(e, r.Path)
	e.str(r.Command)
	e.bool(r.Prefix)
}

func encStrSetting(e *encoder, s Setting[string]) { encodeSetting(e, s, encStr) }

func encError(e *encoder, x *Error) {
	e.pos(x.Pos)
	e.str(x.Field)
	msg, mask := "", uint64(0)
	if x.Err != nil {
		msg = x.Err.Error()
		for i, s := range sentinels {
			if errors.Is(x.Err, s) {
				mask |= 1 << i
			}
		}
	}
	e.bool(x.Err != nil)
	e.str(msg)
	e.uint(mask)
}

func (e *encoder) policy(p *Policy) {
	e.strs2(p.Sources)
	encodeSetting(e, p.Mode, func(e *encoder, m Mode) { e.uint(uint64(m)) })
	encodeSetting(e, p.AutoApprove, encBool)
	encodeSetting(e, p.SandboxEnabled, encBool)
	encodeSetting(e, p.OutsideRead, encDecision)
	encodeSetting(e, p.OutsideWrite, encDecision)
	encodeSetting(e, p.OnError, encDecision)
	encodeSetting(e, p.HostSettings, encBool)
	encodeSetting(e, p.SelfProtection, encBool)
	encodeList(e, p.AdditionalDirectories, encDir)
	encodeList(e, p.Protected, encPattern)
	encodeList(e, p.Warned, encPattern)
	encodeList(e, p.Safe, encPattern)
	encodeList(e, p.Deny, encRule)
	encodeList(e, p.Ask, encRule)
	encodeList(e, p.Allow, encRule)
	encodeList(e, p.Templates, encStrSetting)
	a := p.Audit
	encodeSetting(e, a.Path, encStr)
	encodeSetting(e, a.All, encBool)
	encodeSetting(e, a.MaxBytes, func(e *encoder, v int64) { e.int(v) })
	encodeSetting(e, a.Keep, func(e *encoder, v int) { e.int(int64(v)) })
	encodeSetting(e, a.Required, encBool)
	encodeSetting(e, a.Syslog, encBool)
	encodeSetting(e, a.DryRun, encBool)
	encodeList(e, p.ReadDirs, encDir)
	encodeSetting(e, p.Guards.LoseWork, encDecision)
	encodeSetting(e, p.Guards.InstallOutside, encDecision)
	c := p.Confine
	encodeSetting(e, c.Mode, func(e *encoder, m ConfineMode) { e.uint(uint64(m)) })
	encodeList(e, c.Write, encDir)
	encodeList(e, c.ProgramWritable, encPattern)
	encodeList(e, c.Sockets, encStrSetting)
	encodeList(e, c.Grants, func(e *encoder, g Grant) {
		e.pos(g.Pos)
		encRule(e, g.Command)
		encodeList(e, g.Read, encPattern)
		e.strs2(g.Sockets)
	})
	hs := p.HostSandbox
	encodeSetting(e, hs.Enabled, encBool)
	encodeSetting(e, hs.AllowUnsandboxed, encBool)
	encodeSetting(e, hs.NestedUserNS, encBool)
	for _, l := range [][]HostPath{hs.DenyRead, hs.AllowRead, hs.DenyWrite, hs.AllowWrite} {
		encodeList(e, l, encHostPath)
	}
	encodeSetting(e, hs.GitConfigWritable, encBool)
	encodeSetting(e, p.Network.Isolate, encBool)
	encodeList(e, p.Network.Allow, encStrSetting)
	encodeList(e, p.Network.Deny, encStrSetting)
	encodeList(e, p.Locked, encStrSetting)
	encodeList(e, p.Ignored, func(e *encoder, ig Ignored) {
		e.str(ig.Key)
		e.str(ig.Value)
		e.pos(ig.Pos)
		e.pos(ig.LockedAt)
	})
	encodeList(e, p.Untrusted, func(e *encoder, u Untrusted) {
		e.str(u.Key)
		e.str(u.Value)
		e.pos(u.Pos)
		e.str(u.Why)
	})
	e.strs2(p.Trusted)
	encodeList(e, p.Removed, func(e *encoder, r Removed) {
		e.str(r.Key)
		e.str(r.Value)
		e.pos(r.Pos)
		e.pos(r.By)
	})
	encodeList(e, p.Warnings, encError)
	encodeList(e, p.Errors, encError)
}

func encHostPath(e *encoder, h HostPath) {
	e.str(h.Text)
	e.pos(h.Pos)
	e.uint(uint64(h.Scope))
}

func decHostPath(d *decoder) HostPath {
	return HostPath{Text: d.str(), Pos: d.pos(), Scope: Scope(d.enum(len(scopeNames)))}
}

// decoder reads what encoder wrote. Its first problem sticks in err; after
// one, every read returns a zero value.
type decoder struct {
	data []byte
	all  string // data as one string: the table's strings share it
	off  int
	strs []string
	err  error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("%w: malformed at byte %d", ErrBadEncoding, d.off)
	}
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.data[d.off:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.off += n
	return v
}

// small reads an int that fits an int (a line, a column, audit.keep).
func (d *decoder) small() int {
	v := d.int()
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(v)
}

// count reads a length: at most one per remaining byte, so that a corrupt
// count cannot make the decoder allocate more than the input holds.
func (d *decoder) count() int {
	v := d.uint()
	if v > uint64(len(d.data)-d.off) {
		d.fail()
		return 0
	}
	return int(v)
}

// enum reads a value below n.
func (d *decoder) enum(n int) uint8 {
	v := d.uint()
	if v >= uint64(n) {
		d.fail()
		return 0
	}
	return uint8(v)
}

func (d *decoder) bool() bool {
	if d.err != nil {
		return false
	}
	if d.off >= len(d.data) || d.data[d.off] > 1 {
		d.fail()
		return false
	}
	d.off++
	return d.data[d.off-1] == 1
}

func (d *decoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.strs)) {
		d.fail()
		return ""
	}
	return d.strs[i]
}

func (d *decoder) strList() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *decoder) pos() Pos {
	return Pos{File: d.str(), Line: d.small(), Col: d.small()}
}

func decodeList[T any](d *decoder, f func(*decoder) T) []T {
	n := d.count()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = f(d)
	}
	return out
}

func decodeSetting[T any](d *decoder, f func(*decoder) T) Setting[T] {
	v := f(d)
	return Setting[T]{Value: v, Pos: d.pos()}
}

func decDecision(d *decoder) Decision          { return Decision(d.enum(len(decisionNames))) }
func decBool(d *decoder) bool                  { return d.bool() }
func decStr(d *decoder) string                 { return d.str() }
func decStrSetting(d *decoder) Setting[string] { return decodeSetting(d, decStr) }

func decDir(d *decoder) Dir {
	return Dir{Path: d.str(), Base: d.str(), Pos: d.pos(), Host: d.bool()}
}

func decPattern(d *decoder) Pattern {
	return Pattern{Text: d.str(), Pos: d.pos(), Anchor: Anchor(d.enum(int(Home) + 1)), Glob: d.str(), Resolve: d.bool(), Why: d.str()}
}

func decRule(d *decoder) Rule {
	return Rule{
		Text: d.str(), Pos: d.pos(), Kind: RuleKind(d.enum(int(RuleOpaque) + 1)), Tool: d.str(),
		AnyAccess: d.bool(), Access: Access(d.enum(int(Read) + 1)), Path: decPattern(d),
		Command: d.str(), Prefix: d.bool(),
	}
}

func decError(d *decoder) *Error {
	x := &Error{Pos: d.pos(), Field: d.str()}
	hasErr, msg, mask := d.bool(), d.str(), d.uint()
	if mask >= 1<<len(sentinels) {
		d.fail()
	}
	if hasErr {
		x.Err = &decodedErr{msg: msg, mask: mask}
	}
	return x
}

func (d *decoder) policy() *Policy {
	p := &Policy{}
	p.Sources = d.strList()
	p.Mode = decodeSetting(d, func(d *decoder) Mode { return Mode(d.enum(len(modeNames))) })
	p.AutoApprove = decodeSetting(d, decBool)
	p.SandboxEnabled = decodeSetting(d, decBool)
	p.OutsideRead = decodeSetting(d, decDecision)
	p.OutsideWrite = decodeSetting(d, decDecision)
	p.OnError = decodeSetting(d, decDecision)
	p.HostSettings = decodeSetting(d, decBool)
	p.SelfProtection = decodeSetting(d, decBool)
	p.AdditionalDirectories = decodeList(d, decDir)
	p.Protected = decodeList(d, decPattern)
	p.Warned = decodeList(d, decPattern)
	p.Safe = decodeList(d, decPattern)
	p.Deny = decodeList(d, decRule)
	p.Ask = decodeList(d, decRule)
	p.Allow = decodeList(d, decRule)
	p.Templates = decodeList(d, decStrSetting)
	a := &p.Audit
	a.Path = decodeSetting(d, decStr)
	a.All = decodeSetting(d, decBool)
	a.MaxBytes = decodeSetting(d, func(d *decoder) int64 { return d.int() })
	a.Keep = decodeSetting(d, func(d *decoder) int { return d.small() })
	a.Required = decodeSetting(d, decBool)
	a.Syslog = decodeSetting(d, decBool)
	a.DryRun = decodeSetting(d, decBool)
	p.ReadDirs = decodeList(d, decDir)
	p.Guards.LoseWork = decodeSetting(d, decDecision)
	p.Guards.InstallOutside = decodeSetting(d, decDecision)
	c := &p.Confine
	c.Mode = decodeSetting(d, func(d *decoder) ConfineMode { return ConfineMode(d.enum(len(confineNames))) })
	c.Write = decodeList(d, decDir)
	c.ProgramWritable = decodeList(d, decPattern)
	c.Sockets = decodeList(d, decStrSetting)
	c.Grants = decodeList(d, func(d *decoder) Grant {
		return Grant{Pos: d.pos(), Command: decRule(d), Read: decodeList(d, decPattern), Sockets: d.strList()}
	})
	hs := &p.HostSandbox
	hs.Enabled = decodeSetting(d, decBool)
	hs.AllowUnsandboxed = decodeSetting(d, decBool)
	hs.NestedUserNS = decodeSetting(d, decBool)
	for _, l := range []*[]HostPath{&hs.DenyRead, &hs.AllowRead, &hs.DenyWrite, &hs.AllowWrite} {
		*l = decodeList(d, decHostPath)
	}
	hs.GitConfigWritable = decodeSetting(d, decBool)
	p.Network.Isolate = decodeSetting(d, decBool)
	p.Network.Allow = decodeList(d, decStrSetting)
	p.Network.Deny = decodeList(d, decStrSetting)
	p.Locked = decodeList(d, decStrSetting)
	p.Ignored = decodeList(d, func(d *decoder) Ignored {
		return Ignored{Key: d.str(), Value: d.str(), Pos: d.pos(), LockedAt: d.pos()}
	})
	p.Untrusted = decodeList(d, func(d *decoder) Untrusted {
		return Untrusted{Key: d.str(), Value: d.str(), Pos: d.pos(), Why: d.str()}
	})
	p.Trusted = d.strList()
	p.Removed = decodeList(d, func(d *decoder) Removed {
		return Removed{Key: d.str(), Value: d.str(), Pos: d.pos(), By: d.pos()}
	})
	p.Warnings = decodeList(d, decError)
	p.Errors = decodeList(d, decError)
	return p
}
