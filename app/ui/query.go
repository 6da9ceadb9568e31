package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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

// scanStatus is how a scan of the file stands (a query's, as data-query
// says, or column statistics', as data-stats says): "" none, running,
// done, error (for a query: the text does not compile, and the rows shown
// stay as they were), cancelled.
type scanStatus string

const (
	queryRunning   scanStatus = "running"
	queryDone      scanStatus = "done"
	queryError     scanStatus = "error"
	queryCancelled scanStatus = "cancelled"
)

// queryState is the sort and filter of a level's rows: the file's, or a
// nested record batch's.
type queryState struct {
	cols     []query.Column // the file's columns as a query names them
	heads    []colSort      // what each column's header offers to sort by
	plan     queryPlan      // the sort and filter applied
	input    string         // the query bar's text
	err      *queryErr      // why the last text given does not compile
	status   scanStatus
	order    rowOrder // the rows shown, in order (nil: all, in file order)
	gen      int      // counts the results shown anew (the grid goes back to Start)
	matches  int64    // a filter's matches once done, else -1
	found    int64    // a filter's matches so far
	skipped  int64    // rows a filter ruled out by row-group statistics, unread
	note     string   // rows that could not be read or evaluated
	progress *progress
	cancel   context.CancelFunc
	run      int // counts the scans started: a stale one's reports are dropped
}

// colSort is what a column's header offers to sort by: its values (Plain)
// or statistics of its tensors.
type colSort struct {
	Plain bool
	Stats []string
}

// newQueryState is the query state of a level showing f: no sort, no
// filter, and what each of f's columns' headers offers to sort by.
func newQueryState(f *decode.File) queryState {
	cols := queryColumns(f)
	heads := make([]colSort, len(cols))
	for i, c := range cols {
		switch {
		case c.Tensor || c.Image:
			heads[i].Stats = sortStats(c)
		default:
			heads[i].Plain = sortable(c)
		}
	}
	return queryState{cols: cols, heads: heads, plan: queryPlan{sortCol: -1}, matches: -1}
}

// resetQuery forgets the query of the file shown before and describes f's
// columns.
func (v *Viewer) resetQuery(f *decode.File) {
	v.query.stop()
	v.closeColStats()
	run, gen := v.query.run, v.query.gen
	v.query = newQueryState(f)
	v.query.run, v.query.gen = run, gen+1
}

// stop cancels the scan under way, if any.
func (q *queryState) stop() {
	if q.cancel != nil {
		q.cancel()
	}
	q.cancel, q.progress = nil, nil
}

// onQuery applies the query bar's filter to the level shown, keeping the
// sort.
func (v *Viewer) onQuery(ctx app.Context, text string) {
	if v.opened.file == nil {
		return
	}
	q := v.shownQuery()
	q.input = text
	v.applyQuery(ctx, q.plan.Sort, text, false)
	ctx.Update()
}

// onSortCol applies a column header's sort to the level shown, keeping the
// filter.
func (v *Viewer) onSortCol(ctx app.Context, a sortAsk) {
	if v.opened.file == nil {
		return
	}
	q := v.shownQuery()
	if a.Col < 0 || a.Col >= len(q.cols) {
		return
	}
	key := ""
	if !a.Clear {
		key = nextSort(q.plan, q.cols, a.Col, a.Fn)
	}
	v.applyQuery(ctx, key, q.plan.Filter, false)
	ctx.Update()
}

// onQueryCancel stops the query under way of the level shown: all its rows
// show again, in their order, and the address forgets the file's query.
func (v *Viewer) onQueryCancel(ctx app.Context) { v.dropQuery(ctx, queryCancelled) }

// onQueryClear drops the sort and filter of the level shown, and the
// query bar's text: all its rows show again, in their order.
func (v *Viewer) onQueryClear(ctx app.Context) {
	if v.opened.file != nil {
		v.shownQuery().input = ""
	}
	v.dropQuery(ctx, "")
}

// dropQuery stops the query of the level shown and shows all its rows in
// their order, with status; the address forgets the file's query.
func (v *Viewer) dropQuery(ctx app.Context, status scanStatus) {
	if v.opened.file == nil {
		return
	}
	q := v.shownQuery()
	q.stop()
	q.plan, q.order, q.matches, q.status = queryPlan{sortCol: -1}, nil, -1, status
	q.err, q.note = nil, ""
	q.gen++
	v.startRow = 0
	if q == &v.query {
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
	plan, qerr := planQuery(q.cols, sortText, filterText)
	if qerr != nil {
		q.err, q.status = qerr, queryError
		return
	}
	q.stop()
	q.err, q.note = nil, ""
	q.plan, q.order, q.matches, q.found, q.skipped = plan, nil, -1, 0, 0
	q.gen++
	q.run++
	if !link {
		v.startRow = 0
		if q == &v.query {
			v.do(ctx, viewstate.SetQuery{Sort: plan.Sort, Filter: plan.Filter})
		}
	}
	if plan.none() {
		q.status = ""
		return
	}
	if plan.filter != nil {
		q.order = rowList{} // the matches come in as found
	}
	q.status = queryRunning
	qctx, cancel := context.WithCancel(context.Background())
	q.cancel = cancel
	v.runQuery(ctx, qctx, q, f, plan)
}

// queryReport is how often a scan updates the page at most.
const queryReport = 100 * time.Millisecond

// runQuery scans f for plan in a goroutine, and shows its progress, a
// filter's matches as found and the result in q, the state of the level
// showing f, while it is that level's latest scan (q.run) and the level is
// open.
func (v *Viewer) runQuery(ctx app.Context, qctx context.Context, q *queryState, f *decode.File, plan queryPlan) {
	run := q.run
	current := func() bool { return q.run == run && v.queryOf(f) == q }
	ctx.Async(func() {
		fail := func(err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if !current() || scan.Canceled(err) {
					return
				}
				q.cancel, q.progress = nil, nil
				q.err = &queryErr{What: "scan", Msg: err.Error()}
				q.status, q.order, q.matches = queryError, nil, -1
				q.gen++
			})
		}
		// Waiting for the index (a dataset's files to open) shows as
		// the scan's progress, with Cancel.
		label, last := indexFirstLabel(f), time.Time{}
		if err := indexFirst(qctx, f, plan.sort != nil, func(done, total int64) {
			if done < total && time.Since(last) < queryReport {
				return
			}
			last = time.Now()
			ctx.Dispatch(func(ctx app.Context) {
				if current() && (q.progress == nil || q.progress.Label == label) {
					q.progress = &progress{Label: label, Done: done, Total: total}
				}
			})
		}); err != nil {
			fail(err)
			return
		}
		pace := newPacer(qctx, yieldToPage)
		var matches *query.Matches
		var notes []string
		if plan.filter != nil {
			show := throttled(func(p scan.Progress) {
				part := orderOf(p.Matches.Perm) // a copy: the scan appends past it
				ctx.Dispatch(func(ctx app.Context) {
					if current() {
						q.order, q.found = part, part.Len()
						q.progress = rowsProgress(q.progress, p)
					}
				})
			})
			var skipped int64 // the scan's count, read once it returns
			m, unread, err := scan.Filter(qctx, v.scanSource(ctx, q, f, "Filtering", plan.filter.Needs(), current), plan.filter, scan.Options{
				Pace:     pace,
				Progress: func(p scan.Progress) { skipped = p.Skipped; show(p) },
			})
			if err != nil {
				fail(err)
				return
			}
			matches = &m
			notes = append(notes, unreadNote(unread, m.Unevaluated, m.FirstError)...)
			o := orderOf(m.Perm)
			ctx.Dispatch(func(ctx app.Context) {
				if current() {
					q.order, q.found, q.matches, q.skipped = o, o.Len(), o.Len(), skipped
				}
			})
		}
		var o rowOrder
		if plan.sort != nil {
			perm, unread, err := scan.Sort(qctx, v.scanSource(ctx, q, f, "Sorting", plan.sort.Needs(), current), plan.sort, scan.Options{
				Pace: pace,
				Progress: throttled(func(p scan.Progress) {
					ctx.Dispatch(func(ctx app.Context) {
						if current() {
							q.progress = rowsProgress(q.progress, p)
						}
					})
				}),
			})
			if err == nil && matches != nil {
				total, _ := f.Rows()
				o, err = sortedMatches(qctx, perm, matches.Perm, total, pace)
			} else if err == nil {
				o = orderOf(perm)
			}
			if err != nil {
				fail(err)
				return
			}
			notes = append(notes, unreadNote(unread, 0, "")...)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if !current() {
				return
			}
			if o != nil {
				q.order = o
			}
			if v.startRow > 0 && q == &v.query && len(v.nested) == 0 {
				q.gen++ // a link's first row, in the result now known
			}
			q.cancel, q.progress, q.status = nil, nil, queryDone
			q.note = strings.Join(notes, " ")
		})
	})
}

// scanSource is f as a scan's source, whose reads of the columns named
// needs show in the query's progress line ("Sorting · reading 12 MB of
// column score") in q, verb saying what the scan does.
func (v *Viewer) scanSource(ctx app.Context, q *queryState, f *decode.File, verb string, needs []string, current func() bool) fileSource {
	label, total := scanLabel(f, verb, needs)
	ctx.Dispatch(func(ctx app.Context) {
		if current() {
			q.progress = &progress{Label: label, Total: total}
		}
	})
	return fileSource{f: f}
}

// scanLabel is a scan's progress line, "Sorting · reading 12 MB of column
// score", with the bytes of the columns needs in f.
func scanLabel(f *decode.File, verb string, needs []string) (string, int64) {
	var cols []int
	for _, n := range needs {
		if idx := f.Schema.FieldIndices(n); len(idx) > 0 {
			cols = append(cols, idx[0])
		}
	}
	// ColumnBytes takes the columns in increasing order, once each.
	slices.Sort(cols)
	cols = slices.Compact(cols)
	total, exact, err := f.ColumnsBytes(cols)
	noun := "column"
	if len(needs) > 1 {
		noun = "columns"
	}
	size := decode.HumanBytes(total)
	switch {
	case err != nil:
		return fmt.Sprintf("%s · reading %s %s", verb, noun, strings.Join(needs, ", ")), 0
	case !exact:
		size = "≈ " + size
	}
	return fmt.Sprintf("%s · reading %s of %s %s", verb, size, noun, strings.Join(needs, ", ")), total
}

// rowsProgress is the progress line after p, keeping its label.
func rowsProgress(cur *progress, p scan.Progress) *progress {
	out := progress{RowsDone: p.Rows, RowsTotal: p.Total}
	if cur != nil {
		out.Label, out.Done, out.Total = cur.Label, cur.Done, cur.Total
	}
	if p.Matches != nil {
		out.Rows = int64(p.Matches.Len())
	}
	return &out
}

// throttled calls report at most every queryReport, and for the last
// rows.
func throttled(report func(scan.Progress)) func(scan.Progress) {
	var last time.Time
	return func(p scan.Progress) {
		if p.Rows < p.Total && time.Since(last) < queryReport {
			return
		}
		last = time.Now()
		report(p)
	}
}

// unreadNote says what a scan could not read or evaluate.
func unreadNote(u scan.Unread, unevaluated int64, firstErr string) []string {
	var out []string
	switch {
	case u.Rows > 0:
		out = append(out, fmt.Sprintf("%s rows could not be read (%s).", groupDigits(u.Rows), u.FirstError))
	case u.FirstError != "":
		out = append(out, fmt.Sprintf("Some rows could not be read (%s).", u.FirstError))
	}
	if unevaluated > 0 {
		out = append(out, fmt.Sprintf("%s rows could not be evaluated (%s).", groupDigits(unevaluated), firstErr))
	}
	return out
}

// yieldToPage lets the browser's event loop run (Go's wasm is one thread:
// while every goroutine waits, the page handles input and paints).
func yieldToPage() { time.Sleep(time.Millisecond) }

// count is the row count of a level of rows rows (estimated unless
// exact) under q: its filter's matches once q has one.
func (q *queryState) count(rows int64, exact bool) rowCount {
	return rowCount{Rows: rows, Exact: exact, Query: q.status, Filter: q.plan.filter != nil, Found: q.found, Matches: q.matches}
}

// task is the query's progress line's data-task: filter while a filter
// scans, else sort.
func (q *queryState) task() string {
	if q.plan.filter != nil && q.matches < 0 {
		return "filter"
	}
	return "sort"
}
