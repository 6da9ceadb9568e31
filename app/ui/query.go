package ui

import "github.com/tensorview/tensorview/app/ui/kit"

// Sort and filter over the whole level shown, in the page: the query
// bar's filter and the column headers' sort go to the session model
// (session.Filter, session.SortBy), which compiles them and asks for their
// scan (session.StartScan); the Viewer runs it (session.RunScan) in a
// goroutine whose pacer yields to the event loop every few milliseconds,
// and hands its reports back to the model. The rows table shows the
// result through the level's session.Order.

// actionSortCol is a column header's sort.
const actionSortCol kit.Action[sortAsk] = "tv/sort-col"

// sortAsk is a click on a column header's sort (Fn "") or a statistic
// chosen in a tensor column's header (Fn: "mean", …; Clear: none).
type sortAsk struct {
	Col   int
	Fn    string
	Clear bool
}
