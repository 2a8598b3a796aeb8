package audit

// Severity is a record's syslog severity.
type Severity uint8

const (
	SevInfo    Severity = iota // allow, abstain
	SevNotice                  // ask
	SevWarning                 // deny
	SevErr                     // a deny because the call could not be judged
)
