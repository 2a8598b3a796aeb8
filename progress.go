package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws a one-line progress bar on a terminal:
//
//	safezone replay [=========>          ]  45%   90/200 MB  41234 calls
//
// redrawn at most every progressEvery, and erased when done. A nil
// *progress draws nothing.
type progress struct {
	w     io.Writer
	total int64 // bytes
	now   func() time.Time
	last  time.Time
	drawn bool
}

const progressEvery = 200 * time.Millisecond

func newProgress(w io.Writer, total int64, now func() time.Time) *progress {
	return &progress{w: w, total: max(total, 1), now: now}
}

// update redraws the bar for read bytes and calls, unless it was drawn
// less than progressEvery ago.
func (p *progress) update(read int64, calls int) {
	if p == nil {
		return
	}
	t := p.now()
	if p.drawn && t.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.drawn = t, true
	fmt.Fprint(p.w, p.line(read, calls))
}

func (p *progress) line(read int64, calls int) string {
	const width = 30
	frac := min(float64(read)/float64(p.total), 1)
	n := int(frac * width)
	bar := strings.Repeat("=", n)
	if n < width {
		bar += ">" + strings.Repeat(" ", width-n-1)
	}
	return fmt.Sprintf("\rsafezone replay [%s] %3.0f%% %6.0f/%.0f MB %8d calls\x1b[K", bar, 100*frac, float64(read)/1e6, float64(p.total)/1e6, calls)
}

// done erases the bar.
func (p *progress) done() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
