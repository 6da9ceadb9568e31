package session

import (
	"context"
	"strings"
	"time"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
)

// ScanEvent is what a query's scan (RunScan) reports, in order: waiting
// for the index, each scan's start and rows, a filter's matches, then its
// end or failure. Query.Apply shows it.
type ScanEvent interface{ scanEvent() }

// Events of RunScan.
type (
	// ScanIndexing: the scan waits for the index (a dataset's files to
	// open): Done of Total bytes.
	ScanIndexing struct {
		Label       string
		Done, Total int64
	}
	// ScanReading: a scan starts reading Total bytes, as Label says
	// ("Sorting · reading 12 MB of column score").
	ScanReading struct {
		Label string
		Total int64
	}
	// ScanRows: a scan's rows so far; Part, for a filter, its matches so
	// far (a copy).
	ScanRows struct {
		Rows scan.Progress
		Part Order
	}
	// ScanFiltered: a filter's matches, all found (Skipped: rows ruled
	// out by row-group statistics, unread).
	ScanFiltered struct {
		Matches Order
		Skipped int64
	}
	// ScanDone: the scan ended; Order is the sorted result (nil: a filter
	// alone, whose matches came with ScanFiltered), Note what could not
	// be read or evaluated.
	ScanDone struct {
		Order Order
		Note  string
	}
	// ScanFailed: the scan stopped on an error (never a cancellation).
	ScanFailed struct{ Err error }
)

func (ScanIndexing) scanEvent() {}
func (ScanReading) scanEvent()  {}
func (ScanRows) scanEvent()     {}
func (ScanFiltered) scanEvent() {}
func (ScanDone) scanEvent()     {}
func (ScanFailed) scanEvent()   {}

// RunScan scans f for plan under ctx and reports to emit, at most every
// QueryReport but for the last rows: a filter first (its matches as
// found), then a sort (of the matches, when both). It blocks until the
// scan ends; a cancelled one ends without a report. The scan yields to
// the page (yield) every few milliseconds.
func RunScan(ctx context.Context, f *decode.File, plan Plan, yield func(), emit func(ScanEvent)) {
	fail := func(err error) {
		if !scan.Canceled(err) {
			emit(ScanFailed{err})
		}
	}
	label, last := IndexFirstLabel(f), time.Time{}
	if err := IndexFirst(ctx, f, plan.SortExpr != nil, func(done, total int64) {
		if done < total && time.Since(last) < QueryReport {
			return
		}
		last = time.Now()
		emit(ScanIndexing{Label: label, Done: done, Total: total})
	}); err != nil {
		fail(err)
		return
	}
	pace := NewPacer(ctx, yield)
	reading := func(verb string, needs []string) FileSource {
		label, total := ScanLabel(f, verb, needs)
		emit(ScanReading{Label: label, Total: total})
		return FileSource{File: f}
	}
	var matches *query.Matches
	var notes []string
	if plan.FilterExpr != nil {
		show := Throttled(func(p scan.Progress) { emit(ScanRows{Rows: p, Part: OrderOf(p.Matches.Perm)}) })
		var skipped int64 // the scan's count, read once it returns
		m, unread, err := scan.Filter(ctx, reading("Filtering", plan.FilterExpr.Needs()), plan.FilterExpr, scan.Options{
			Pace:     pace,
			Progress: func(p scan.Progress) { skipped = p.Skipped; show(p) },
		})
		if err != nil {
			fail(err)
			return
		}
		matches = &m
		notes = append(notes, UnreadNote(unread, m.Unevaluated, m.FirstError)...)
		emit(ScanFiltered{Matches: OrderOf(m.Perm), Skipped: skipped})
	}
	var o Order
	if plan.SortExpr != nil {
		perm, unread, err := scan.Sort(ctx, reading("Sorting", plan.SortExpr.Needs()), plan.SortExpr, scan.Options{
			Pace:     pace,
			Progress: Throttled(func(p scan.Progress) { emit(ScanRows{Rows: p}) }),
		})
		if err == nil && matches != nil {
			total, _ := f.Rows()
			o, err = SortedMatches(ctx, perm, matches.Perm, total, pace)
		} else if err == nil {
			o = OrderOf(perm)
		}
		if err != nil {
			fail(err)
			return
		}
		notes = append(notes, UnreadNote(unread, 0, "")...)
	}
	emit(ScanDone{Order: o, Note: strings.Join(notes, " ")})
}

// Apply shows a report of the query's scan: its progress line, a
// filter's matches as found, the result, or the failure (the rows in
// their order again). It reports whether the scan ended.
func (q *Query) Apply(e ScanEvent) (ended bool) {
	switch e := e.(type) {
	case ScanIndexing:
		if q.Progress == nil || q.Progress.Label == e.Label {
			q.Progress = &Progress{Label: e.Label, Done: e.Done, Total: e.Total}
		}
	case ScanReading:
		q.Progress = &Progress{Label: e.Label, Total: e.Total}
	case ScanRows:
		if e.Part != nil {
			q.Order, q.Found = e.Part, e.Part.Len()
		}
		q.Progress = RowsProgress(q.Progress, e.Rows)
	case ScanFiltered:
		q.Order, q.Found, q.Matches, q.Skipped = e.Matches, e.Matches.Len(), e.Matches.Len(), e.Skipped
	case ScanDone:
		if e.Order != nil {
			q.Order = e.Order
		}
		q.Job, q.Progress, q.Status = 0, nil, StatusDone
		q.Note = e.Note
		return true
	case ScanFailed:
		q.Job, q.Progress = 0, nil
		q.Err = &QueryError{What: "scan", Msg: e.Err.Error()}
		q.Status, q.Order, q.Matches = StatusError, nil, -1
		q.Gen++
		return true
	}
	return false
}
