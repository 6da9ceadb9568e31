package session

import (
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
)

// ScanStatus is how a scan of the file stands (a query's, as data-query
// says, or column statistics', as data-stats says): "" none, running,
// done, error (for a query: the text does not compile, and the rows shown
// stay as they were), cancelled.
type ScanStatus string

// queryState is the sort and filter of a level's rows: the file's, or a
// nested record batch's.
type Query struct {
	Cols     []query.Column // the file's columns as a query names them
	Heads    []ColSort      // what each column's header offers to sort by
	Plan     Plan           // the sort and filter applied
	Input    string         // the query bar's text
	Err      *QueryError    // why the last text given does not compile
	Status   ScanStatus
	Order    Order  // the rows shown, in order (nil: all, in file order)
	Gen      int    // counts the results shown anew (the grid goes back to Start)
	Matches  int64  // a filter's matches once done, else -1
	Found    int64  // a filter's matches so far
	Skipped  int64  // rows a filter ruled out by row-group statistics, unread
	Note     string // rows that could not be read or evaluated
	Progress *Progress
	Job      JobID // the scan under way (0: none)
}

// ColSort is what a column's header offers to sort by: its values (Plain)
// or statistics of its tensors.
type ColSort struct {
	Plain bool
	Stats []string
}

// newQueryState is the query state of a level showing f: no sort, no
// filter, and what each of f's columns' headers offers to sort by.
func NewQuery(f *decode.File) Query {
	cols := QueryColumns(f)
	heads := make([]ColSort, len(cols))
	for i, c := range cols {
		switch {
		case c.Tensor || c.Image:
			heads[i].Stats = SortStats(c)
		default:
			heads[i].Plain = sortable(c)
		}
	}
	return Query{Cols: cols, Heads: heads, Plan: Plan{SortCol: -1}, Matches: -1}
}

// Stop cancels the scan under way, if any.
func (q *Query) Stop(j *Jobs) {
	j.Stop(q.Job)
	q.Job, q.Progress = 0, nil
}

// Task is the query's progress line's data-task: filter while a filter
// scans, else sort.
func (q *Query) Task() string {
	if q.Plan.FilterExpr != nil && q.Matches < 0 {
		return "filter"
	}
	return "sort"
}

// The statuses of a scan (ScanStatus) but none.
const (
	StatusRunning   ScanStatus = "running"
	StatusDone      ScanStatus = "done"
	StatusError     ScanStatus = "error"
	StatusCancelled ScanStatus = "cancelled"
)
