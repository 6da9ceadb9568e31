package ui

import (
	"github.com/tensorview/tensorview/app/session"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
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

// resetQuery forgets the levels and query of the file shown before and
// makes f level 0, described by its columns.
func (v *Viewer) resetQuery(f *decode.File) {
	v.closeColStats()
	v.levels.Reset(&v.jobs, f)
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
func (v *Viewer) onQueryCancel(ctx app.Context) { v.dropQuery(ctx, session.StatusCancelled) }

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
	q.Stop(&v.jobs)
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
		q.Err, q.Status = qerr, session.StatusError
		return
	}
	q.Stop(&v.jobs)
	q.Err, q.Note = nil, ""
	q.Plan, q.Order, q.Matches, q.Found, q.Skipped = plan, nil, -1, 0, 0
	q.Gen++
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
	q.Status = session.StatusRunning
	id, qctx := v.jobs.Start()
	q.Job = id
	ctx.Async(func() {
		session.RunScan(qctx, f, plan, session.YieldToPage, func(e session.ScanEvent) {
			ctx.Dispatch(func(ctx app.Context) { v.onScan(id, q, e) })
		})
	})
}

// onScan shows a report of job id, the scan of query q, unless the job
// was stopped since (another query, the level closed, another file).
func (v *Viewer) onScan(id session.JobID, q *session.Query, e session.ScanEvent) {
	if !v.jobs.Live(id) {
		return
	}
	if !q.Apply(e) {
		return
	}
	v.jobs.Stop(id)
	if _, done := e.(session.ScanDone); done && v.levels.At(0).Start > 0 && v.levels.Depth() == 0 && q == v.levels.At(0).Query {
		q.Gen++ // a link's first row, in the result now known
	}
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
