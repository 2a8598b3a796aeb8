package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
)

// ReadFile reads and checks every record of the audit log file at path:
// each line one strict Record (no unknown field, one JSON object), its
// time RFC 3339 in UTC, the last line whole. The error names the file and
// line of the first record that is not.
func ReadFile(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, fmt.Errorf("%s: the last line is not whole", path)
	}
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var r Record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil || dec.More() {
			return nil, fmt.Errorf("%s:%d: not one strict record (%v): %q", path, n, err, sc.Text())
		}
		t, err := time.Parse(time.RFC3339, r.Time)
		if err != nil || t.Location() != time.UTC || !strings.HasSuffix(r.Time, "Z") {
			return nil, fmt.Errorf("%s:%d: time %q is not RFC 3339 UTC", path, n, r.Time)
		}
		switch r.Decision {
		case "allow", "ask", "deny", "abstain":
		default:
			return nil, fmt.Errorf("%s:%d: decision %q", path, n, r.Decision)
		}
		if r.Host == "" || r.Reason == "" || r.Targets == nil {
			return nil, fmt.Errorf("%s:%d: host, reason or targets missing: %q", path, n, sc.Text())
		}
		out = append(out, r)
	}
	return out, sc.Err()
}
