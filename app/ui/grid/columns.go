package grid

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
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

// Narrow views (phones, small embeds): below narrowView CSS pixels the
// columns of a file of up to manyColumns columns start narrower, plain
// columns more so than tensor columns, so that the tensors and their
// previews come into view (a 480-pixel embed of id, caption and image
// columns shows the images).
const (
	narrowView        = 640
	narrowPlainWidth  = 96
	narrowTensorWidth = 150
)

// minWidths are the least widths of the shared layout's columns of fields
// in a view viewW pixels wide: nil (colWidth each) unless the view is
// narrow.
func minWidths(fields []decode.FieldInfo, viewW int) []int {
	if viewW <= 0 || viewW >= narrowView || len(fields) > manyColumns {
		return nil
	}
	mins := make([]int, len(fields))
	for c, f := range fields {
		mins[c] = narrowPlainWidth
		if f.Tensor != nil || f.Images {
			mins[c] = narrowTensorWidth
		}
	}
	return mins
}

// colWidths are the widths of the grid's columns in CSS pixels: colWidth
// unless the reader resized one (by dragging its header's edge, or
// double-clicking it to fit).
type colWidths map[int]int

// of is column c's width.
func (w colWidths) of(c int) int {
	if x, ok := w[c]; ok {
		return x
	}
	return colWidth
}

// x is where column c starts, after the row numbers.
func (w colWidths) x(c int) int {
	if len(w) == 0 {
		return c * colWidth
	}
	x := 0
	for k := range c {
		x += w.of(k)
	}
	return x
}

// colSpan is the columns drawn, [from, to), of n, for a scroll position
// left and a view width width (both in CSS pixels).
func colSpan(n int, left float64, width int, w colWidths) (from, to int) {
	if n <= manyColumns {
		return 0, n
	}
	from, to = n, n
	for c, x := 0, 0; c < n; c++ {
		end := x + w.of(c)
		if from == n && float64(end) > left {
			from = c
		}
		if float64(x) >= left+float64(width) {
			to = c
			break
		}
		x = end
	}
	return max(0, from-colOverscan), min(n, to+colOverscan)
}

// gridColumns is the CSS grid template of a header or row drawing columns
// [from, to) of n: the row number, a spacer for the columns before, the
// columns, a spacer for those after; and the grid's width. Up to
// manyColumns columns share the view's width, each at least its entry of
// mins (colWidth when mins is nil) unless resized.
func gridColumns(n, from, to int, w colWidths, mins []int) (template, width string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%dpx", indexWidth)
	if n <= manyColumns {
		if len(w) == 0 && mins == nil {
			return fmt.Sprintf("%dpx repeat(%d, minmax(%dpx, 1fr))", indexWidth, n, colWidth),
				fmt.Sprintf("max(100%%, %dpx)", indexWidth+colWidth*n)
		}
		total := indexWidth
		for c := range n {
			least := colWidth
			if mins != nil {
				least = mins[c]
			}
			if x, ok := w[c]; ok {
				fmt.Fprintf(&b, " %dpx", x)
				total += x
			} else {
				fmt.Fprintf(&b, " minmax(%dpx, 1fr)", least)
				total += least
			}
		}
		return b.String(), fmt.Sprintf("max(100%%, %dpx)", total)
	}
	total := w.x(n)
	if len(w) == 0 {
		return fmt.Sprintf("%dpx %dpx repeat(%d, %dpx) %dpx", indexWidth, from*colWidth, to-from, colWidth, (n-to)*colWidth),
			fmt.Sprintf("%dpx", indexWidth+total)
	}
	fmt.Fprintf(&b, " %dpx", w.x(from))
	for c := from; c < to; c++ {
		fmt.Fprintf(&b, " %dpx", w.of(c))
	}
	fmt.Fprintf(&b, " %dpx", total-w.x(to))
	return b.String(), fmt.Sprintf("%dpx", indexWidth+total)
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

// colView is the state of the grid's columns: how far they are scrolled,
// the widths the reader gave them, and a resize under way.
type colView struct {
	left   float64   // scrollLeft of the rows container
	widths colWidths // columns the reader resized
	drag   *colDrag  // a column resize under way
}

// colDrag is a resize under way: of column col, which was startW pixels
// wide when the pointer went down at startX.
type colDrag struct {
	col    int
	startX float64
	startW int
}

// setWidth resizes column c to w pixels, within minColWidth and
// maxColWidth.
func (v *colView) setWidth(c, w int) {
	if v.widths == nil {
		v.widths = colWidths{}
	}
	v.widths[c] = max(minColWidth, min(maxColWidth, w))
}

// startDrag: the pointer went down at x on the edge of column c, w pixels
// wide.
func (v *colView) startDrag(c int, x float64, w int) {
	v.drag = &colDrag{col: c, startX: x, startW: w}
}

// dragTo: the pointer moved to x on the edge of column c. It reports
// whether that resized the column (a resize of c is under way).
func (v *colView) dragTo(c int, x float64) bool {
	d := v.drag
	if d == nil || d.col != c {
		return false
	}
	v.setWidth(c, d.startW+int(x-d.startX))
	return true
}

// resize carries out a step of a column resize (fit gives the width that
// fits column c to what it shows) and reports whether a width changed.
func (v *colView) resize(a colResize, fit func(c int) int) bool {
	switch {
	case a.Down:
		w := a.W
		if w < 0 {
			w = v.widths.of(a.Col)
		}
		v.startDrag(a.Col, a.X, w)
		return false
	case a.Up:
		v.drag = nil
		return false
	case a.Fit:
		v.setWidth(a.Col, fit(a.Col))
		return true
	}
	return v.dragTo(a.Col, a.X)
}

// leftToShow is the scrollLeft that shows column c whole (or its start)
// in a view w pixels wide (less the row numbers) scrolled to left: left if
// it does.
func (v colView) leftToShow(c int, left, w float64) float64 {
	x, cw := float64(v.widths.x(c)), float64(v.widths.of(c))
	switch {
	case x < left:
		return x
	case x+cw > left+w:
		return x + cw - w
	}
	return left
}

// span is the columns drawn now, [from, to) of n, in a view width pixels
// wide (colSpan).
func (v colView) span(n, width int) (from, to int) {
	return colSpan(n, v.left, width, v.widths)
}

// width is the scrolling container's measured width or, until it is
// measured (after the first painted frame), the window's innerWidth, which
// reading does not force a layout: a small embed's first frame has its
// narrow columns already.
func (g tableGeometry) width() int {
	if w := g.viewW; w > 0 {
		return w
	}
	if w := app.Window().Get("innerWidth").Int(); w > 0 {
		return w
	}
	return 1280
}

// Column widths, in CSS pixels, that resizing keeps within.
const minColWidth, maxColWidth = 48, 1200

// fitWidth is the width that shows column c's header and drawn cells
// without clipping (their content's widest natural width).
func (r *RowsTable) fitWidth(c int) int {
	el := r.JSValue()
	if !el.Truthy() {
		return colWidth
	}
	w := minColWidth
	cells := el.Call("querySelectorAll", fmt.Sprintf(`.rows-header [data-col="%d"] .col-name, [data-row] [data-col="%d"]`, c, c))
	for i := range cells.Length() {
		cell := cells.Index(i)
		// The natural width: measured as max-content, then put back.
		old := cell.Get("style").Get("width").String()
		cell.Get("style").Set("width", "max-content")
		w = max(w, int(cell.Call("getBoundingClientRect").Get("width").Float())+24)
		cell.Get("style").Set("width", old)
	}
	return w
}
