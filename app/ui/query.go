package ui

import (
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// Sort and filter over the whole level shown, in the page: the query
// bar's filter and the column headers' sort go to the session model
// (session.Filter, session.SortBy), which compiles them and asks for their
// scan (session.StartScan); the Viewer runs it (session.RunScan) in a
// goroutine whose pacer yields to the event loop every few milliseconds,
// and hands its reports back to the model. The rows table shows the
// result through the level's session.Order.

// Actions of the query bar and the column headers.
const (
	actionQuery       kit.Action[string]  = "tv/query"        // the query bar's filter (Enter; "" clears it)
	actionSortCol     kit.Action[sortAsk] = "tv/sort-col"     // a column header's sort
	actionQueryCancel kit.Signal          = "tv/query-cancel" // the query's progress bar's Cancel
	actionQueryClear  kit.Signal          = "tv/query-clear"  // the query's result line's Clear
)

// sortAsk is a click on a column header's sort (Fn "") or a statistic
// chosen in a tensor column's header (Fn: "mean", …; Clear: none).
type sortAsk struct {
	Col   int
	Fn    string
	Clear bool
}

// count is the row count of a level of rows rows (estimated unless
// exact) under q: its filter's matches once q has one.
func countOf(q *session.Query, rows int64, exact bool) rowCount {
	return rowCount{Rows: rows, Exact: exact, Query: q.Status, Filter: q.Plan.FilterExpr != nil, Found: q.Found, Matches: q.Matches}
}
