package ui

import (
	"context"
	"strings"
	"time"

	"github.com/tensorview/tensorview/app/session"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Sort and filter over the whole file, in the page: the query bar's filter
// and the column headers' sort are compiled (queryplan.go), then scanned
// (package scan over fileSource) in a goroutine whose pacer yields to the
// event loop every few milliseconds, so the page stays responsive. A new
// sort or filter cancels the one under way. A filter's matches show as
// they are found; a sort shows when done; both: the matches in file order
// as found, then sorted. The rows table shows the result through a
// rowOrder. Each level has its own query: the file's (Viewer.query, in the
// address) and each nested record batch's (nestedLevel.query, not in the
// address); a level's scan goes on while a level below it is shown, and
// is cancelled when the level is closed.

// Actions of the query bar and the column headers.
const (
	actionQuery       action[string]  = "tv/query"        // the query bar's filter (Enter; "" clears it)
	actionSortCol     action[sortAsk] = "tv/sort-col"     // a column header's sort
	actionQueryCancel signal          = "tv/query-cancel" // the query's progress bar's Cancel
	actionQueryClear  signal          = "tv/query-clear"  // the query's result line's Clear
)

// sortAsk is a click on a column header's sort (Fn "") or a statistic
// chosen in a tensor column's header (Fn: "mean", …; Clear: none).
type sortAsk struct {
	Col   int
	Fn    string
	Clear bool
}

const (
	queryRunning   session.ScanStatus = "running"
	queryDone      session.ScanStatus = "done"
	queryError     session.ScanStatus = "error"
	queryCancelled session.ScanStatus = "cancelled"
)

// resetQuery forgets the levels and query of the file shown before and
// makes f level 0, described by its columns.
func (v *Viewer) resetQuery(f *decode.File) {
	v.closeColStats()
	v.levels.Reset(f)
}

// onQuery applies the query bar's filter to the level shown, keeping the
// sort.
func (v *Viewer) onQuery(ctx app.Context, text string) {
	if v.file() == nil {
		return
	}
	q := v.shownQuery()
	q.Input = text
	v.applyQuery(ctx, q.Plan.Sort, text, false)
	ctx.Update()
}

// onSortCol applies a column header's sort to the level shown, keeping the
// filter.
func (v *Viewer) onSortCol(ctx app.Context, a sortAsk) {
	if v.file() == nil {
		return
	}
	q := v.shownQuery()
	if a.Col < 0 || a.Col >= len(q.Cols) {
		return
	}
	key := ""
	if !a.Clear {
		key = session.NextSort(q.Plan, q.Cols, a.Col, a.Fn)
	}
	v.applyQuery(ctx, key, q.Plan.Filter, false)
	ctx.Update()
}

// onQueryCancel stops the query under way of the level shown: all its rows
// show again, in their order, and the address forgets the file's query.
func (v *Viewer) onQueryCancel(ctx app.Context) { v.dropQuery(ctx, queryCancelled) }

// onQueryClear drops the sort and filter of the level shown, and the
// query bar's text: all its rows show again, in their order.
func (v *Viewer) onQueryClear(ctx app.Context) {
	if v.file() != nil {
		v.shownQuery().Input = ""
	}
	v.dropQuery(ctx, "")
}

// dropQuery stops the query of the level shown and shows all its rows in
// their order, with status; the address forgets the file's query.
func (v *Viewer) dropQuery(ctx app.Context, status session.ScanStatus) {
	if v.file() == nil {
		return
	}
	q := v.shownQuery()
	q.Stop()
	q.Plan, q.Order, q.Matches, q.Status = session.Plan{SortCol: -1}, nil, -1, status
	q.Err, q.Note = nil, ""
	q.Gen++
	v.levels.Shown().Start = 0
	if v.levels.Depth() == 0 {
		v.do(ctx, viewstate.SetQuery{})
	}
	ctx.Update()
}

// applyQuery compiles sortText and filterText against the columns of the
// level shown and runs them: a text that does not compile shows its error
// and changes nothing else. The file's query goes in the address (a
// nested batch's does not); a link's (link) is in the view state already,
// with its first row.
func (v *Viewer) applyQuery(ctx app.Context, sortText, filterText string, link bool) {
	f, q := v.shown(), v.shownQuery()
	plan, qerr := session.PlanQuery(q.Cols, sortText, filterText)
	if qerr != nil {
		q.Err, q.Status = qerr, queryError
		return
	}
	q.Stop()
	q.Err, q.Note = nil, ""
	q.Plan, q.Order, q.Matches, q.Found, q.Skipped = plan, nil, -1, 0, 0
	q.Gen++
	q.Run++
	if !link {
		v.levels.Shown().Start = 0
		if v.levels.Depth() == 0 {
			v.do(ctx, viewstate.SetQuery{Sort: plan.Sort, Filter: plan.Filter})
		}
	}
	if plan.None() {
		q.Status = ""
		return
	}
	if plan.FilterExpr != nil {
		q.Order = session.RowList{} // the matches come in as found
	}
	q.Status = queryRunning
	qctx, cancel := context.WithCancel(context.Background())
	q.Cancel = cancel
	v.runQuery(ctx, qctx, q, f, plan)
}

// runQuery scans f for plan in a goroutine, and shows its progress, a
// filter's matches as found and the result in q, the state of the level
// showing f, while it is that level's latest scan (q.run) and the level is
// open.
func (v *Viewer) runQuery(ctx app.Context, qctx context.Context, q *session.Query, f *decode.File, plan session.Plan) {
	run := q.Run
	current := func() bool { return q.Run == run && queryOf(&v.levels, f) == q }
	ctx.Async(func() {
		fail := func(err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if !current() || scan.Canceled(err) {
					return
				}
				q.Cancel, q.Progress = nil, nil
				q.Err = &session.QueryError{What: "scan", Msg: err.Error()}
				q.Status, q.Order, q.Matches = queryError, nil, -1
				q.Gen++
			})
		}
		// Waiting for the index (a dataset's files to open) shows as
		// the scan's progress, with Cancel.
		label, last := session.IndexFirstLabel(f), time.Time{}
		if err := session.IndexFirst(qctx, f, plan.SortExpr != nil, func(done, total int64) {
			if done < total && time.Since(last) < session.QueryReport {
				return
			}
			last = time.Now()
			ctx.Dispatch(func(ctx app.Context) {
				if current() && (q.Progress == nil || q.Progress.Label == label) {
					q.Progress = &session.Progress{Label: label, Done: done, Total: total}
				}
			})
		}); err != nil {
			fail(err)
			return
		}
		pace := session.NewPacer(qctx, session.YieldToPage)
		var matches *query.Matches
		var notes []string
		if plan.FilterExpr != nil {
			show := session.Throttled(func(p scan.Progress) {
				part := session.OrderOf(p.Matches.Perm) // a copy: the scan appends past it
				ctx.Dispatch(func(ctx app.Context) {
					if current() {
						q.Order, q.Found = part, part.Len()
						q.Progress = session.RowsProgress(q.Progress, p)
					}
				})
			})
			var skipped int64 // the scan's count, read once it returns
			m, unread, err := scan.Filter(qctx, v.scanSource(ctx, q, f, "Filtering", plan.FilterExpr.Needs(), current), plan.FilterExpr, scan.Options{
				Pace:     pace,
				Progress: func(p scan.Progress) { skipped = p.Skipped; show(p) },
			})
			if err != nil {
				fail(err)
				return
			}
			matches = &m
			notes = append(notes, session.UnreadNote(unread, m.Unevaluated, m.FirstError)...)
			o := session.OrderOf(m.Perm)
			ctx.Dispatch(func(ctx app.Context) {
				if current() {
					q.Order, q.Found, q.Matches, q.Skipped = o, o.Len(), o.Len(), skipped
				}
			})
		}
		var o session.Order
		if plan.SortExpr != nil {
			perm, unread, err := scan.Sort(qctx, v.scanSource(ctx, q, f, "Sorting", plan.SortExpr.Needs(), current), plan.SortExpr, scan.Options{
				Pace: pace,
				Progress: session.Throttled(func(p scan.Progress) {
					ctx.Dispatch(func(ctx app.Context) {
						if current() {
							q.Progress = session.RowsProgress(q.Progress, p)
						}
					})
				}),
			})
			if err == nil && matches != nil {
				total, _ := f.Rows()
				o, err = session.SortedMatches(qctx, perm, matches.Perm, total, pace)
			} else if err == nil {
				o = session.OrderOf(perm)
			}
			if err != nil {
				fail(err)
				return
			}
			notes = append(notes, session.UnreadNote(unread, 0, "")...)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if !current() {
				return
			}
			if o != nil {
				q.Order = o
			}
			if v.levels.At(0).Start > 0 && v.levels.Depth() == 0 && q == v.levels.At(0).Query {
				q.Gen++ // a link's first row, in the result now known
			}
			q.Cancel, q.Progress, q.Status = nil, nil, queryDone
			q.Note = strings.Join(notes, " ")
		})
	})
}

// scanSource is f as a scan's source, whose reads of the columns named
// needs show in the query's progress line ("Sorting · reading 12 MB of
// column score") in q, verb saying what the scan does.
func (v *Viewer) scanSource(ctx app.Context, q *session.Query, f *decode.File, verb string, needs []string, current func() bool) session.FileSource {
	label, total := session.ScanLabel(f, verb, needs)
	ctx.Dispatch(func(ctx app.Context) {
		if current() {
			q.Progress = &session.Progress{Label: label, Total: total}
		}
	})
	return session.FileSource{File: f}
}

// count is the row count of a level of rows rows (estimated unless
// exact) under q: its filter's matches once q has one.
func countOf(q *session.Query, rows int64, exact bool) rowCount {
	return rowCount{Rows: rows, Exact: exact, Query: q.Status, Filter: q.Plan.FilterExpr != nil, Found: q.Found, Matches: q.Matches}
}

// queryOf is the sort and filter of the level that shows f, nil when none
// does.
func queryOf(l *session.Levels, f *decode.File) *session.Query {
	if lv := l.Of(f); lv != nil {
		return lv.Query
	}
	return nil
}
