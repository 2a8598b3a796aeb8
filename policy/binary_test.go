package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// normalized returns a deep copy of p in which every Error's Err is what
// decoding makes of it (its text and the sentinels it matches), so that
// reflect.DeepEqual compares a policy with its round trip.
func normalized(t testing.TB, p *Policy) *Policy {
	b, err := p.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	q, err := DecodePolicy(b)
	if err != nil {
		t.Fatal(err)
	}
	// What the round trip must keep of an error: compared separately.
	for i, w := range p.Warnings {
		checkSameError(t, w, q.Warnings[i])
	}
	for i, w := range p.Errors {
		checkSameError(t, w, q.Errors[i])
	}
	return q
}

func checkSameError(t testing.TB, a, b *Error) {
	t.Helper()
	if a.Error() != b.Error() || (a.Err == nil) != (b.Err == nil) {
		t.Errorf("error %q read back as %q", a.Error(), b.Error())
	}
	for _, s := range sentinels {
		if errors.Is(a, s) != errors.Is(b, s) {
			t.Errorf("error %q: errors.Is(%v) = %v, read back %v", a.Error(), s, errors.Is(a, s), errors.Is(b, s))
		}
	}
}

// withoutErrs clears the Err of every Error (compared by checkSameError).
func withoutErrs(p *Policy) *Policy {
	c := *p
	clear := func(es []*Error) []*Error {
		var out []*Error
		for _, e := range es {
			x := *e
			x.Err = nil
			out = append(out, &x)
		}
		return out
	}
	c.Warnings, c.Errors = clear(p.Warnings), clear(p.Errors)
	return &c
}

// fill sets every field below v to a value other than its zero value: each
// string and number distinct, slices of two, enums 1, errors wrapping a
// sentinel. It fails on an unexported field, which the encoding could not
// see either.
func fill(t *testing.T, v reflect.Value, n *int, path string) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint8:
		v.SetUint(1) // every enum has a value 1
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(t, s.Index(i), n, fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), n, path)
		v.Set(p)
	case reflect.Interface:
		if v.Type() != reflect.TypeFor[error]() {
			t.Fatalf("%s: an interface the encoding does not know: %v", path, v.Type())
		}
		v.Set(reflect.ValueOf(fmt.Errorf("%w: e%d", ErrSkippedRule, *n)))
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				t.Fatalf("%s.%s: an unexported field the encoding cannot see", path, f.Name)
			}
			fill(t, v.Field(i), n, path+"."+f.Name)
		}
	default:
		t.Fatalf("%s: a %v the encoding does not know", path, v.Kind())
	}
}

// TestPolicyBinaryCoversEveryField: a Policy whose every field is set reads
// back equal. A field added to Policy (or below it) and not to the encoding
// fails here.
func TestPolicyBinaryCoversEveryField(t *testing.T) {
	var p Policy
	n := 0
	fill(t, reflect.ValueOf(&p).Elem(), &n, "Policy")
	q := normalized(t, &p)
	if !reflect.DeepEqual(withoutErrs(&p), withoutErrs(q)) {
		t.Errorf("round trip changed the policy:\n%+v\n%+v", withoutErrs(&p), withoutErrs(q))
	}
}

// TestPolicyBinaryRealPolicies: every layer kind merged (with what the
// repository's files widen held back, self-protection and removals), and
// each valid fixture, read back equal.
func TestPolicyBinaryRealPolicies(t *testing.T) {
	example, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policies := map[string]*Policy{}
	layers, err := LoadLayers(allLayers(t), EmbeddedParser(example), nil)
	if err != nil {
		t.Fatal(err)
	}
	policies["all layers"] = Merge(layers...)
	files, _ := filepath.Glob("testdata/valid/*.yaml")
	for _, f := range files {
		l, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		base, err := Parse(EmbeddedName, example)
		if err != nil {
			t.Fatal(err)
		}
		policies[f] = Merge(base, l)
	}
	for name, p := range policies {
		t.Run(name, func(t *testing.T) {
			if len(p.Deny) == 0 || len(p.Protected) == 0 {
				t.Fatal("a policy without rules proves little")
			}
			q := normalized(t, p)
			if !reflect.DeepEqual(withoutErrs(p), withoutErrs(q)) {
				t.Errorf("round trip changed the policy")
			}
		})
	}
}

// TestDecodePolicyRefusesDamage: every truncation of an encoding, the
// encoding with a byte more, and a flipped byte in the version are errors.
func TestDecodePolicyRefusesDamage(t *testing.T) {
	example, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(EmbeddedName, example)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Merge(l).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodePolicy(b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		if _, err := DecodePolicy(b[:i]); !errors.Is(err, ErrBadEncoding) {
			t.Fatalf("truncated at %d of %d: err = %v", i, len(b), err)
		}
	}
	if _, err := DecodePolicy(append(b[:len(b):len(b)], 0)); !errors.Is(err, ErrBadEncoding) {
		t.Errorf("a byte more: err = %v", err)
	}
	other := append([]byte{}, b...)
	other[0]++
	if _, err := DecodePolicy(other); !errors.Is(err, ErrBadEncoding) {
		t.Errorf("another version: err = %v", err)
	}
}

// FuzzDecodePolicy: DecodePolicy never panics, and what it accepts reads
// back equal once written again.
//
//	go test -fuzz=FuzzDecodePolicy -fuzztime=60s ./policy
func FuzzDecodePolicy(f *testing.F) {
	example, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	l, err := Parse(EmbeddedName, example)
	if err != nil {
		f.Fatal(err)
	}
	b, _ := Merge(l).AppendBinary(nil)
	f.Add(b)
	b, _ = Defaults().AppendBinary(nil)
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePolicy(data)
		if err != nil {
			if p != nil {
				t.Fatal("a policy with an error")
			}
			return
		}
		q := normalized(t, p)
		if !reflect.DeepEqual(withoutErrs(p), withoutErrs(q)) {
			t.Fatal("a decoded policy changed when written again")
		}
	})
}

func BenchmarkDecodePolicy(b *testing.B) {
	example, err := os.ReadFile("../policy.example.yaml")
	if err != nil {
		b.Fatal(err)
	}
	l, err := Parse(EmbeddedName, example)
	if err != nil {
		b.Fatal(err)
	}
	data, _ := Merge(l).AppendBinary(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := DecodePolicy(data); err != nil {
			b.Fatal(err)
		}
	}
}
