package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Columns of the rows grid. A file of up to manyColumns columns shares the
// width (at least colWidth pixels each); a wider one is virtualized like the
// rows: columns of colWidth pixels, only those in view (and colOverscan on
// each side) drawn, spacers standing for the rest, so a file of 500 columns
// scrolls as fast as one of 5.
const (
	indexWidth  = 72 // the sticky row-number column
	colWidth    = 180
	manyColumns = 24
	colOverscan = 2
)

// colSpan is the columns drawn, [from, to), of n, for a scroll position
// left and a view width width (both in CSS pixels).
func colSpan(n int, left float64, width int) (from, to int) {
	if n <= manyColumns {
		return 0, n
	}
	from = max(0, int(left)/colWidth-colOverscan)
	to = min(n, (int(left)+width)/colWidth+1+colOverscan)
	return from, max(from, to)
}

// gridColumns is the CSS grid template of a header or row drawing columns
// [from, to) of n: the row number, a spacer for the columns before, the
// columns, a spacer for those after.
func gridColumns(n, from, to int) (template, width string) {
	if n <= manyColumns {
		return fmt.Sprintf("%dpx repeat(%d, minmax(%dpx, 1fr))", indexWidth, n, colWidth),
			fmt.Sprintf("max(100%%, %dpx)", indexWidth+colWidth*n)
	}
	return fmt.Sprintf("%dpx %dpx repeat(%d, %dpx) %dpx", indexWidth, from*colWidth, to-from, colWidth, (n-to)*colWidth),
		fmt.Sprintf("%dpx", indexWidth+colWidth*n)
}

// colSpacer stands for columns not drawn, in a virtualized grid.
func colSpacer(n int) app.UI {
	return app.If(n > manyColumns, func() app.UI { return app.Div().Class("col-spacer").Aria("hidden", true) })
}

// colRange lists from, ..., to-1.
func colRange(from, to int) []int {
	cols := make([]int, 0, max(0, to-from))
	for c := from; c < to; c++ {
		cols = append(cols, c)
	}
	return cols
}

// columns is the span of columns the table draws now.
func (r *RowsTable) columns(n int) (from, to int) {
	w := r.viewW
	if w <= 0 {
		w = 1280
	}
	return colSpan(n, r.left, w)
}
