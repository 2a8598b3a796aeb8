//go:build !linux

package confine

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestUnavailableElsewhere(t *testing.T) {
	s := Available()
	if s.Confine() || !errors.Is(s.Landlock, ErrUnavailable) || !errors.Is(s.ReadOnly, ErrUnavailable) {
		t.Fatalf("Available() = %+v, want both errors wrapping ErrUnavailable", s)
	}
	var stderr bytes.Buffer
	code := Main([]string{"exec", `{"write":["/tmp"]}`, "/bin/sh", "-c", "true"}, nil, nil, &stderr)
	if code != ExitCannotRun || !strings.Contains(stderr.String(), "the command was not run") {
		t.Errorf("Main = %d, %q; want %d and a message", code, stderr.String(), ExitCannotRun)
	}
}
