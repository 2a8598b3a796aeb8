package refusals

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// The audit record types the collector reads (include/uapi/linux/audit.h).
const (
	typeSyscall        = 1300 // AUDIT_SYSCALL
	typeEOE            = 1320 // AUDIT_EOE: the end of a multi-record event
	typeLandlockAccess = 1423 // AUDIT_LANDLOCK_ACCESS
	typeLandlockDomain = 1424 // AUDIT_LANDLOCK_DOMAIN
)

// kernelRecord is one audit record: its type, the event's serial number
// and time (the "audit(SECONDS.MILLIS:SERIAL): " prefix, which the records
// of one event share) and its key=value fields.
type kernelRecord struct {
	Type   uint16
	Serial uint64
	Time   time.Time
	Fields map[string]string
}

// untrusted are the fields the kernel writes with audit_log_untrustedstring:
// quoted, or hex-encoded (unquoted) when they hold a space, a quote or a
// control character.
var untrusted = map[string]bool{"path": true, "exe": true, "comm": true, "ocomm": true, "name": true}

// parseRecord parses the text of an audit record of type typ; ok is false
// when it does not start with the audit(...) prefix.
func parseRecord(typ uint16, body string) (r kernelRecord, ok bool) {
	body = strings.TrimRight(body, "\x00\n")
	if !strings.HasPrefix(body, "audit(") {
		return r, false
	}
	end := strings.Index(body, "): ")
	if end < 0 {
		if !strings.HasSuffix(body, "):") {
			return r, false
		}
		end = len(body) - 2
	}
	stamp := body[len("audit("):end]
	colon := strings.IndexByte(stamp, ':')
	if colon < 0 {
		return r, false
	}
	serial, err := strconv.ParseUint(stamp[colon+1:], 10, 64)
	if err != nil {
		return r, false
	}
	secs, frac, _ := strings.Cut(stamp[:colon], ".")
	s, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return r, false
	}
	ms, _ := strconv.ParseInt(frac, 10, 64)
	r = kernelRecord{Type: typ, Serial: serial, Time: time.Unix(s, ms*int64(time.Millisecond)).UTC(), Fields: map[string]string{}}
	rest := ""
	if end+3 <= len(body) {
		rest = body[end+3:]
	}
	for rest != "" {
		rest = strings.TrimLeft(rest, " ")
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 {
			break
		}
		key := rest[:eq]
		rest = rest[eq+1:]
		var val string
		if strings.HasPrefix(rest, `"`) {
			q := strings.IndexByte(rest[1:], '"')
			if q < 0 {
				val, rest = rest[1:], ""
			} else {
				val, rest = rest[1:q+1], rest[q+2:]
			}
		} else {
			sp := strings.IndexByte(rest, ' ')
			if sp < 0 {
				sp = len(rest)
			}
			val, rest = rest[:sp], rest[sp:]
			if untrusted[key] && len(val)%2 == 0 {
				if b, err := hex.DecodeString(val); err == nil {
					val = string(b)
				}
			}
		}
		r.Fields[key] = val
	}
	return r, true
}

// target is what a Landlock access record says was refused, beyond the
// access itself: the path, a port, or the other process.
func target(f map[string]string) string {
	switch {
	case f["path"] != "":
		return f["path"]
	case f["dport"] != "":
		return f["dport"]
	case f["sport"] != "":
		return f["sport"]
	case f["ocomm"] != "":
		return f["ocomm"] + " (pid " + f["opid"] + ")"
	}
	return ""
}
