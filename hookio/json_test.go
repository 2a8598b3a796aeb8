package hookio

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestParseJSONErrors pins what parseJSON says about malformed input: the
// problem and, where it helps, where it is.
func TestParseJSONErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", `please`, "not JSON: invalid character 'p' at start of value at byte 0"},
		{"truncated", `{"a":`, "invalid JSON: unexpected end of input (truncated?)"},
		{"top-level array", `[1]`, "the top level must be a JSON object, got an array"},
		{"top-level null", `null`, "the top level must be a JSON object, got null"},
		{"second object", `{} {}`, "trailing data after the JSON object (an object)"},
		{"stray brace", `{}}`, "trailing data after the JSON object: invalid character '}' at start of value at byte 2"},
		{"duplicate in nested array", `{"a":[{"k":1,"k":2}]}`, `duplicate key "k" in a[0]`},
		{"case variants at the top", `{"Cwd":1,"cwd":2}`, `keys "Cwd" and "cwd" in the top-level object differ only in case`},
		{"case variants deep", `{"a":{"b":[0,{"Path":1,"path":2}]}}`, `keys "Path" and "path" in a.b[1] differ only in case`},
		{"escaped duplicate", `{"k":1,"\u006b":2}`, `duplicate key "k"`},
		{"long s folds to s", `{"s":1,"\u017f":2}`, `keys "s" and "ſ"`},
		{"lone high surrogate", `{"a":{"b":"x\ud800"}}`, `lone UTF-16 high surrogate escape \uD800 in a string at byte 12, in /a/b`},
		{"high surrogate then a letter", `{"a":"\ud800\u0041"}`, `lone UTF-16 high surrogate escape \uD800`},
		{"lone low surrogate", `{"a":"\udfff"}`, `lone UTF-16 low surrogate escape \uDFFF`},
		{"invalid UTF-8", "{\"a\":\"\xc3\x28\"}", "invalid UTF-8 at byte 6, in /a"},
		{"object too deep", `{"a":` + strings.Repeat(`{"a":`, maxDepth) + `1` + strings.Repeat(`}`, maxDepth+1), "nested deeper than 64 levels"},
		{"array too deep", `{"a":` + strings.Repeat(`[`, maxDepth) + strings.Repeat(`]`, maxDepth) + `}`, "nested deeper than 64 levels"},
		{"trailing comma", `{"a":1,}`, "invalid JSON: invalid character ',' at start of value"},
		{"name not a string", `{1:2}`, "invalid JSON: object member name must be a string at byte 1"},
	}
	for _, tt := range tests {
		_, err := parseJSON([]byte(tt.in))
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: parseJSON(%q) = %v, want ErrMalformed with %q", tt.name, tt.in, err, tt.want)
		}
	}
}

// TestParseJSONDepth: 64 levels of nesting, the top-level object counted,
// are accepted.
func TestParseJSONDepth(t *testing.T) {
	in := `{"a":` + strings.Repeat(`[`, maxDepth-1) + strings.Repeat(`]`, maxDepth-1) + `}`
	if _, err := parseJSON([]byte(in)); err != nil {
		t.Errorf("%d levels: %v", maxDepth, err)
	}
}

// TestParseJSONModel checks the tree: member order, string values with
// escapes decoded, kinds.
func TestParseJSONModel(t *testing.T) {
	v, err := parseJSON([]byte(`{"z":"a\u00e9\n\ud83d\ude00","a":[1,true,null,{}],"m":-0.5e3}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(v.keys, ",") != "z,a,m" {
		t.Errorf("keys %v", v.keys)
	}
	if s := v.get("z").str; s != "aé\n😀" {
		t.Errorf("z = %q", s)
	}
	var kinds []string
	for _, it := range v.get("a").items {
		kinds = append(kinds, it.describe())
	}
	if got := strings.Join(kinds, ","); got != "a number,a boolean,null,an object" {
		t.Errorf("a holds %s", got)
	}
	if v.get("m").kind != jNumber || v.get("Z") != nil {
		t.Errorf("m %v, Z %v", v.get("m"), v.get("Z"))
	}
}

// TestFoldKey: two keys fold alike exactly when strings.EqualFold says
// they are equal, which is how encoding/json matches field names.
func TestFoldKey(t *testing.T) {
	words := []string{
		"file_path", "FILE_PATH", "File_Path", "key", "\u212aey", "KEY", "s", "S", "\u017f",
		"σ", "Σ", "ς", "ǅ", "ǆ", "Ǆ", "straße", "STRASSE", "ß", "ẞ", "i", "İ", "ı", "", "é", "É", "x\u00ff", "xŸ",
	}
	for _, a := range words {
		for _, b := range words {
			if got, want := foldKey(a) == foldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("foldKey(%q) == foldKey(%q) is %v, EqualFold says %v", a, b, got, want)
			}
		}
	}
	if k := foldKey("tool_input"); k != "tool_input" {
		t.Errorf("a lower-case ASCII key folds to %q", k)
	}
}

// FuzzParseJSON: parseJSON never panics, refuses with ErrMalformed, and
// accepts only what encoding/json also reads as one valid JSON object with
// no two keys folding alike.
//
//	go test ./hookio -run '^$' -fuzz FuzzParseJSON -fuzztime 60s
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,{"b":null}],"c":"\u00e9\ud83d\ude00"}`, `{"a":1,"A":2}`, `{"a":"\ud800"}`, `{} {}`, `[]`, `{"a":` + strings.Repeat("[", 70),
		"{\"a\":\"\xff\"}", `{"k":1,"\u212a":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseJSON(data)
		if err != nil {
			if v != nil || !errors.Is(err, ErrMalformed) {
				t.Fatalf("value %v with error %v", v, err)
			}
			return
		}
		if !json.Valid(data) || !utf8.Valid(data) || v.kind != jObject {
			t.Fatalf("accepted %q", data)
		}
		var check func(v *jvalue)
		check = func(v *jvalue) {
			seen := map[string]bool{}
			for i, k := range v.keys {
				for s := range seen {
					if strings.EqualFold(s, k) {
						t.Fatalf("keys %q and %q accepted in %q", s, k, data)
					}
				}
				seen[k] = true
				check(v.vals[i])
			}
			for _, it := range v.items {
				check(it)
			}
		}
		check(v)
	})
}
