package session

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tensorview/tensorview/app/query"
)

// Sort and filter in plain Go (no browser): the query bar's and the
// column headers' sort and filter compiled against the file's columns,
// the errors the bar shows, the headers' sort cycle, and the pacer that
// lets a scan yield to the page. The scan itself runs in query.go.
// native tests: queryplan_test.go.

// queryPlan is a sort and a filter compiled against a file's columns.
// Sort and Filter are their canonical texts (the address's), "" for none.
type Plan struct {
	Sort, Filter string
	SortExpr     *query.Sort
	FilterExpr   *query.Filter
	SortCol      int // the column sorted by, -1 for none
	SortDesc     bool
	sortFn       string // the tensor statistic sorted by ("" for the column's values)
}

// None reports whether the plan neither sorts nor filters.
func (p Plan) None() bool { return p.SortExpr == nil && p.FilterExpr == nil }

// QueryError is a sort's or filter's error as the query bar shows it: the
// text it was found in, the word (At, a byte span of Text; Len 0 at its
// end) and what was wrong or expected.
type QueryError struct {
	What string // "filter" or "sort"
	Text string
	At   query.Span
	Msg  string
}

// Parts are Text before the word, the word and after it (a word past the
// end is empty).
func (e QueryError) Parts() (before, word, after string) {
	off := min(max(e.At.Off, 0), len(e.Text))
	end := min(off+max(e.At.Len, 0), len(e.Text))
	return e.Text[:off], e.Text[off:end], e.Text[end:]
}

// PlanQuery compiles sortText (a sort key: "-score") and filterText (a
// query) against cols; blank texts are none.
func PlanQuery(cols []query.Column, sortText, filterText string) (Plan, *QueryError) {
	p := Plan{SortCol: -1}
	if strings.TrimSpace(filterText) != "" {
		f, err := query.Compile(filterText, cols)
		if err != nil {
			return p, asQueryErr("filter", filterText, err)
		}
		p.FilterExpr, p.Filter = f, f.String()
	}
	if strings.TrimSpace(sortText) != "" {
		k, err := query.ParseSort(sortText)
		if err != nil {
			return p, asQueryErr("sort", sortText, err)
		}
		s, err := query.BindSort(k, cols)
		if err != nil {
			return p, asQueryErr("sort", sortText, err)
		}
		p.SortExpr, p.Sort = s, s.String()
		p.SortCol, p.SortDesc, p.sortFn = columnOf(cols, k.X.Column), k.Desc, k.X.Func
	}
	return p, nil
}

func asQueryErr(what, text string, err error) *QueryError {
	var qe *query.Error
	if errors.As(err, &qe) {
		return &QueryError{What: what, Text: text, At: qe.At, Msg: qe.Msg}
	}
	return &QueryError{What: what, Text: text, At: query.Span{Off: 0, Len: len(text)}, Msg: err.Error()}
}

// columnOf is the column a query names name: exactly, else the one equal
// but for case (as query binds it); -1 for none.
func columnOf(cols []query.Column, name string) int {
	found := -1
	for i, c := range cols {
		switch {
		case c.Name == name:
			return i
		case strings.EqualFold(c.Name, name):
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// SortStats are the statistics a tensor column's header offers to sort by
// (images add width and height).
func SortStats(c query.Column) []string {
	stats := []string{"mean", "min", "max", "std", "nan", "size"}
	if c.Image {
		stats = append(stats, "width", "height")
	}
	return stats
}

// sortable reports whether a column's header sorts by its values (tensor
// and image columns sort by a statistic).
func sortable(c query.Column) bool {
	_, err := query.BindSort(query.SortKey{X: query.Operand{Column: c.Name}}, []query.Column{c})
	return err == nil
}

// NextSort is the sort key after a click on column col's header: by its
// values (or fn, a statistic of a tensor column: "mean" when "") ascending,
// then descending, then none ("").
func NextSort(p Plan, cols []query.Column, col int, fn string) string {
	c := cols[col]
	if (c.Tensor || c.Image) && fn == "" {
		fn = "mean"
		if p.SortCol == col && p.sortFn != "" {
			fn = p.sortFn
		}
	}
	key := query.SortKey{X: query.Operand{Func: fn, Column: c.Name}}
	if p.SortCol == col && p.sortFn == fn {
		if p.SortDesc {
			return ""
		}
		key.Desc = true
	}
	return key.String()
}

// SortShown is the sort as the column headers show it.
type SortShown struct {
	Col  int // -1: none
	Desc bool
	Fn   string
}

// Shown is the plan's sort for the headers.
func (p Plan) Shown() SortShown {
	return SortShown{Col: p.SortCol, Desc: p.SortDesc, Fn: p.sortFn}
}

// Aria is column col's aria-sort: ascending, descending or none.
func (s SortShown) Aria(col int) string {
	switch {
	case s.Col != col:
		return "none"
	case s.Desc:
		return "descending"
	}
	return "ascending"
}

// Arrow is column col's sort mark: ▲ ascending, ▼ descending, "" none.
func (s SortShown) Arrow(col int) string {
	switch s.Aria(col) {
	case "ascending":
		return "▲"
	case "descending":
		return "▼"
	}
	return ""
}

// paceSlice is how long a scan runs before it yields to the page: well
// under the 50 ms of a long task, with the slice that ends it.
const paceSlice = 8 * time.Millisecond

// NewPacer is a scan's Options.Pace: once paceSlice has passed since it
// last yielded it calls yield (in the browser: a wait that lets the event
// loop run: input, rendering, the grid's reads), and it returns ctx's
// error once cancelled, which stops the scan.
func NewPacer(ctx context.Context, yield func()) func() error {
	last := time.Now()
	return func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if time.Since(last) < paceSlice {
			return nil
		}
		yield()
		last = time.Now()
		return ctx.Err()
	}
}
