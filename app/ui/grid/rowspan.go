package grid

import "math"

// Which rows the rows table draws and where, in plain Go (no browser): the
// scroll position, the rows in view and the overscan rows beyond them, and
// the mapping of a scroll position to rows when the file is too long for
// one pixel row per pixel. native tests: rowspan_test.go.

// Geometry of the windowed rows table, in CSS pixels.
const (
	headerHeight = 36
	viewHeight   = 560 // height of the scrolling container until measured
	overscan     = 4   // rows drawn beyond each edge of the view
	// maxSpacer is the tallest scroll area drawn: browsers cap element
	// heights (about 33.5 million pixels in Chromium), so beyond this the
	// scroll position maps to rows proportionally.
	maxSpacer = 8_000_000
)

// drawStep is how many of the overscan rows the table draws. A file's
// first frame draws only the rows in view, so that they show sooner; settle
// adds the overscan rows after it in two frames (settleSpan), so that
// neither is a long task: drawing all of them at once (up to 17 rows with
// their previews) took about 100 ms here.
type drawStep int

const (
	drawView drawStep = iota // a file's first frame: the rows in view only
	drawHalf                 // settle's first step: about half the rows past the view
	drawAll                  // settled (data-settled="true"): all the overscan rows
)

// rowScroll is where the rows are scrolled to, and how many rows beyond
// the view are drawn.
type rowScroll struct {
	first int     // first row in view
	top   float64 // scrollTop of the rows container
	up    bool    // the last scroll went up: rows are read ahead above the view (prefetch)
	step  drawStep
}

// inView is the number of rows of rowH pixels a view height pixels high
// can show (one more than fit: rows partly shown).
func inView(height, rowH int) int { return height/rowH + 1 }

// span returns the rows drawn, [from, to), of n rows with inView rows in
// view: those in view and, after a file's first frame, overscan rows beyond
// each edge, the first rounded down to a multiple of rowBlock, and as many
// rows as there are slots (rowViews) drawn from there: with the edges on
// blocks, scrolling by a row changes nothing in the page until the view
// nears an edge; with a row in every slot, a row that comes into view takes
// the element of the one that leaves it (its cells and canvases are
// redrawn, not made anew).
func (s rowScroll) span(n, inView int) (from, to int) {
	end := s.first + inView
	if s.step == drawView {
		return max(0, min(s.first, n-1)), min(n, end)
	}
	from, to = blockSpan(s.first, end, n)
	if s.step == drawHalf {
		to = settleSpan(from, to, min(n, end))
	}
	return from, to
}

// settle moves on from a file's first frame to settle's first step, and
// reports whether it did.
func (s *rowScroll) settle() bool {
	if s.step != drawView {
		return false
	}
	s.step = drawHalf
	return true
}

// grow moves on from settle's first step to its second, and reports
// whether it did.
func (s *rowScroll) grow() bool {
	if s.step != drawHalf {
		return false
	}
	s.step = drawAll
	return true
}

// scrolled: the reader scrolled the view to top, where row first is the
// first in view; it reports whether that is another row than before (up
// then says which way it went).
func (s *rowScroll) scrolled(first int, top float64) bool {
	moved := first != s.first
	if moved {
		s.up = first < s.first
	}
	s.first, s.top = first, top
	return moved
}

// placed: the table put the view at top (a link's row, the keyboard, a
// resize), in a container height pixels high over rows of rowH pixels.
func (s *rowScroll) placed(top float64, rows int64, height, rowH int) {
	s.first, s.top = firstRow(top, rows, height, rowH), top
}

// reset starts another file: at the top, in its first frame. The direction
// of the last scroll stays.
func (s *rowScroll) reset() {
	*s = rowScroll{up: s.up}
}

// rowTop is row i's place in the scroll area, of rows rows of rowH pixels:
// its own when every row has its pixels, else after the first row in view,
// placed at the scroll position.
func (s rowScroll) rowTop(i, rows int64, rowH int) int64 {
	h := int64(rowH)
	if _, scaled := geometry(rows, rowH); scaled {
		return int64(s.top) + (i-int64(s.first))*h
	}
	return i * h
}

// settleSpan is the end of the rows drawn in settle's first step, when the
// rows [from, to) are drawn once settled and the first frame drew the rows
// in view up to end: about half the rows past the view.
func settleSpan(from, to, end int) int {
	return max(from, min(to, end+(to-end+1)/2))
}

// rowBlock is the step by which the edges of the rows drawn move.
const rowBlock = 8

// slotCount is the number of rows drawn, and of slots for them, for
// views of rows [first, first+view): view and the overscan rows beyond each
// edge after rounding the first row drawn down to a block, rounded up to a
// block.
func slotCount(view int) int {
	return (view + 2*overscan + 2*(rowBlock-1)) / rowBlock * rowBlock
}

// blockSpan is [first-overscan, …) with its start rounded down to a
// multiple of rowBlock and slotCount(end-first) rows long (so that it
// reaches end+overscan), within [0, n).
func blockSpan(first, end, n int) (from, to int) {
	from = max(0, min(first, n-1)-overscan) / rowBlock * rowBlock
	return from, min(n, from+slotCount(end-first))
}

// geometry returns the height of the scroll area for rows of rowH pixels
// and whether rows are mapped to it proportionally (too many rows for one
// pixel row each).
func geometry(rows int64, rowH int) (spacer int64, scaled bool) {
	h := rows * int64(rowH)
	if h > maxSpacer {
		return maxSpacer, true
	}
	return h, false
}

// firstRow is the first row in view for a scroll position in a container
// of the given height, with rows of rowH pixels.
func firstRow(top float64, rows int64, height, rowH int) int {
	spacer, scaled := geometry(rows, rowH)
	if !scaled {
		return int(top) / rowH
	}
	visible := int64(height-headerHeight) / int64(rowH)
	frac := top / float64(spacer-int64(height-headerHeight))
	return int(math.Min(1, math.Max(0, frac)) * float64(rows-visible))
}

// scaledTop is the scrollTop that shows row first when the spacer is scaled
// (a file too long for its true height): firstRow's mapping inverted, for
// rows rows of rowH pixels under visible pixels of view.
func scaledTop(row, rows int64, rowH int, spacer int64, visible float64) float64 {
	fit := int64(visible) / int64(rowH)
	return min(1, float64(row)/float64(max(1, rows-fit))) * (float64(spacer) - visible)
}
