package session

import (
	"context"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
)

// Stats is the column statistics panel: closed unless Open; the
// statistics of X (column Col of the level shown, or a statistic of its
// tensors) as its scan stands.
type Stats struct {
	Open     bool
	Col      int
	X        query.Operand
	Class    query.ValueClass
	Status   ScanStatus // StatusRunning, StatusDone, StatusCancelled or StatusError
	Progress *Progress
	Sum      *query.Summary
	Unread   scan.Unread
	Err      string // why the scan failed
	QuickErr string // why the quick filter asked for does not apply
	Job      JobID  // the scan under way (0: none)
}

// StatsEvent is what a statistics scan (RunStats) reports, in order: its
// start, its rows, then its end. Stats.Apply shows it.
type StatsEvent interface{ statsEvent() }

// Events of RunStats.
type (
	// StatsReading: the scan starts reading Total bytes, as Label says.
	StatsReading struct {
		Label string
		Total int64
	}
	// StatsRows: the scan's rows so far.
	StatsRows struct{ Rows scan.Progress }
	// StatsDone: the scan ended with Sum (nil when Err, its failure;
	// never a cancellation), Unread what it could not read.
	StatsDone struct {
		Sum    *query.Summary
		Unread scan.Unread
		Err    error
	}
)

func (StatsReading) statsEvent() {}
func (StatsRows) statsEvent()    {}
func (StatsDone) statsEvent()    {}

// ElementSlice is how many rows element statistics read between two
// yields to the page: each row is a whole tensor (an image is tens of
// thousands of elements).
const ElementSlice = 16

// RunStats computes st over f under ctx (after the index, when f's row
// count is an estimate), reporting to emit at most every QueryReport but
// for the last rows, and yielding to the page every few milliseconds. It
// blocks until the scan ends; a cancelled one ends without a report.
func RunStats(ctx context.Context, f *decode.File, st *query.Stats, yield func(), emit func(StatsEvent)) {
	done := func(sum *query.Summary, unread scan.Unread, err error) {
		if !scan.Canceled(err) {
			emit(StatsDone{Sum: sum, Unread: unread, Err: err})
		}
	}
	if err := IndexFirst(ctx, f, false, nil); err != nil {
		done(nil, scan.Unread{}, err)
		return
	}
	label, bytes := ScanLabel(f, "Computing statistics", st.Needs())
	emit(StatsReading{Label: label, Total: bytes})
	opt := scan.Options{
		Pace:     NewPacer(ctx, yield),
		Progress: Throttled(func(p scan.Progress) { emit(StatsRows{p}) }),
	}
	if st.OfElements() {
		opt.Slice = ElementSlice
	}
	sum, unread, err := scan.Stats(ctx, FileSource{File: f}, st, opt)
	if err != nil {
		done(nil, unread, err)
		return
	}
	done(&sum, unread, nil)
}

// Apply shows a report of the panel's scan; it reports whether the scan
// ended.
func (s *Stats) Apply(e StatsEvent) (ended bool) {
	switch e := e.(type) {
	case StatsReading:
		s.Progress = &Progress{Label: e.Label, Total: e.Total}
	case StatsRows:
		s.Progress = RowsProgress(s.Progress, e.Rows)
	case StatsDone:
		s.Progress = nil
		s.Sum, s.Unread, s.Status = e.Sum, e.Unread, StatusDone
		if e.Err != nil {
			s.Status, s.Err = StatusError, e.Err.Error()
		}
		return true
	}
	return false
}
