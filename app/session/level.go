package session

import (
	"context"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
)

// scanStatus is how a scan of the file stands (a query's, as data-query
// says, or column statistics', as data-stats says): "" none, running,
// done, error (for a query: the text does not compile, and the rows shown
// stay as they were), cancelled.
type ScanStatus string

// queryState is the sort and filter of a level's rows: the file's, or a
// nested record batch's.
type Query struct {
	Cols     []query.Column // the file's columns as a query names them
	Heads    []ColSort      // what each column's header offers to sort by
	Plan     Plan      // the sort and filter applied
	Input    string         // the query bar's text
	Err      *QueryError      // why the last text given does not compile
	Status   ScanStatus
	Order    Order // the rows shown, in order (nil: all, in file order)
	Gen      int      // counts the results shown anew (the grid goes back to Start)
	Matches  int64    // a filter's matches once done, else -1
	Found    int64    // a filter's matches so far
	Skipped  int64    // rows a filter ruled out by row-group statistics, unread
	Note     string   // rows that could not be read or evaluated
	Progress *Progress
	Cancel   context.CancelFunc
	Run      int // counts the scans started: a stale one's reports are dropped
}

// colSort is what a column's header offers to sort by: its values (Plain)
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

// stop cancels the scan under way, if any.
func (q *Query) Stop() {
	if q.Cancel != nil {
		q.Cancel()
	}
	q.Cancel, q.Progress = nil, nil
}

// task is the query's progress line's data-task: filter while a filter
// scans, else sort.
func (q *Query) Task() string {
	if q.Plan.FilterExpr != nil && q.Matches < 0 {
		return "filter"
	}
	return "sort"
}

// nestedLevel is a nested record batch shown in the grid, and where it
// was opened from.
type Level struct {
	File  *decode.File
	Label string      // for the breadcrumb
	Field string      // the field of the level above it was opened from
	Row   int64       // the row of the level above it was opened from
	Query *Query // the sort and filter of its rows, kept while a level below it is shown
	Masks MaskSel     // the masks over its thumbnails turned on or off (masktoggle.go)
}

// maskSel is what a level says of its thumbnails' masks: nothing (has
// false: every one suggested is drawn), or the keys of those drawn; as
// viewstate.State's HasThumbMasks and ThumbMasks.
type MaskSel struct {
	Has bool
	On  []string
}

// progress is work under way on a file: in bytes, with the rows found so
// far (0 when the work finds none); or, when RowsTotal is set, in rows.
type Progress struct {
	Label               string
	Done, Total         int64
	Rows                int64
	RowsDone, RowsTotal int64
}
