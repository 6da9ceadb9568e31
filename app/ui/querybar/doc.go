// Package querybar is the query bar over the grid: the filter's text,
// the sort applied, the scan's progress with Cancel, the result line
// with Clear, and a query's error with the word it stumbled on. It sends
// ActionQuery, ActionQueryCancel and ActionQueryClear; the page hands them
// to the session model (session.Filter, session.QueryCancel,
// session.QueryClear).
//
// Entry points: QueryBar, CountOf.
package querybar
