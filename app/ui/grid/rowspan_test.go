//go:build !wasm

package grid

import "testing"

// TestSettleSpan: settle's first step draws about half the rows past the
// view, its second step the rest.
func TestSettleSpan(t *testing.T) {
	for _, c := range []struct{ from, to, end, want int }{
		{0, 24, 9, 17},      // rows 0–8 in view: 9–16 first, then 17–23
		{0, 24, 8, 16},      // 8–15, then 16–23
		{96, 120, 109, 115}, // a link's row 100: 96–99 and 109–114, then 115–119
		{0, 2, 2, 2},        // fewer rows than the view: nothing left
		{984, 1000, 1000, 1000},
	} {
		if got := settleSpan(c.from, c.to, c.end); got != c.want {
			t.Errorf("settleSpan(%d, %d, %d) = %d, want %d", c.from, c.to, c.end, got, c.want)
		}
	}
}

// TestBlockSpan: the rows drawn are those in view and overscan rows beyond
// each edge, the first rounded down to a block of rowBlock rows and as many
// as the slots, so that scrolling by a row mostly leaves them as they are
// and every slot holds a row.
func TestBlockSpan(t *testing.T) {
	if slotCount(8) != 24 || slotCount(1) != 16 {
		t.Fatalf("slots for 8 and 1 rows in view: %d, %d; want 24, 16", slotCount(8), slotCount(1))
	}
	for _, c := range []struct{ first, end, n, from, to int }{
		{0, 8, 1000, 0, 24},          // [0, 12) and on to the slots
		{3, 11, 1000, 0, 24},         // [0, 15)
		{4, 12, 1000, 0, 24},         // [0, 16)
		{5, 13, 1000, 0, 24},         // [1, 17)
		{12, 20, 1000, 8, 32},        // [8, 24): the start moves on by a block
		{13, 21, 1000, 8, 32},        // [9, 25)
		{19, 27, 1000, 8, 32},        // [15, 31)
		{995, 1003, 1000, 984, 1000}, // the end within the rows
		{0, 3, 2, 0, 2},              // fewer rows than the view
	} {
		if from, to := blockSpan(c.first, c.end, c.n); from != c.from || to != c.to {
			t.Errorf("blockSpan(%d, %d, %d) = [%d, %d), want [%d, %d)", c.first, c.end, c.n, from, to, c.from, c.to)
		}
	}
}

// TestSpan: the rows drawn for scroll positions, in a view of 560 px with
// rows of 84 (7 rows in view), at each step of settling: the rows in view,
// then about half the overscan rows, then all of them, in blocks.
func TestSpan(t *testing.T) {
	type span struct{ from, to int }
	for _, c := range []struct {
		rows            int64
		top             float64
		view, half, all span
	}{
		{1000, 0, span{0, 7}, span{0, 16}, span{0, 24}},
		{1000, 840, span{10, 17}, span{0, 21}, span{0, 24}},              // row 10 first
		{1000, 8450, span{100, 107}, span{96, 114}, span{96, 120}},       // row 100 first, partly scrolled
		{1000, 83580, span{995, 1000}, span{984, 1000}, span{984, 1000}}, // near the end
		{3, 0, span{0, 3}, span{0, 3}, span{0, 3}},                       // fewer rows than the view
		{0, 0, span{0, 0}, span{0, 0}, span{0, 0}},
	} {
		s := rowScroll{first: firstRow(c.top, c.rows, 560, 84), top: c.top}
		for step, want := range []span{c.view, c.half, c.all} {
			s.step = drawStep(step)
			if from, to := s.span(int(c.rows), inView(560, 84)); (span{from, to}) != want {
				t.Errorf("%d rows at %v, step %d: [%d, %d), want %v", c.rows, c.top, step, from, to, want)
			}
		}
	}
}

// TestDrawSteps: a file's first frame draws the rows in view; settle's
// two steps follow it once each, in order; another file starts over.
func TestDrawSteps(t *testing.T) {
	var s rowScroll
	if s.grow() || s.step != drawView {
		t.Fatal("the first frame grew before settling")
	}
	if !s.settle() || s.step != drawHalf || s.settle() {
		t.Fatalf("settle: step %d, want drawHalf once", s.step)
	}
	if !s.grow() || s.step != drawAll || s.grow() || s.settle() {
		t.Fatalf("grow: step %d, want drawAll once", s.step)
	}
	s.first, s.top, s.up = 40, 3360, true
	s.reset()
	if s != (rowScroll{up: true}) {
		t.Errorf("reset: %+v, want the top, the first frame, the last scroll's direction", s)
	}
}

// TestScrolled: the first row in view follows the scroll, and the
// direction of the last scroll that changed it stays until another does.
func TestScrolled(t *testing.T) {
	s := rowScroll{first: 10, top: 840}
	for _, c := range []struct {
		first     int
		top       float64
		moved, up bool
	}{
		{10, 850, false, false}, // within row 10
		{8, 672, true, true},
		{8, 680, false, true},
		{12, 1008, true, false},
	} {
		if moved := s.scrolled(c.first, c.top); moved != c.moved || s.up != c.up || s.first != c.first || s.top != c.top {
			t.Errorf("to row %d at %v: moved %v, %+v; want moved %v, up %v", c.first, c.top, moved, s, c.moved, c.up)
		}
	}
	s.placed(84*30+10, 1000, 560, 84)
	if s.first != 30 || s.top != 2530 || s.up {
		t.Errorf("placed at row 30: %+v", s)
	}
}

// TestScaledRows: a file too long for a pixel row per pixel maps the
// scroll position to rows proportionally, scaledTop inverts firstRow, and
// the rows drawn are placed after the first row in view.
func TestScaledRows(t *testing.T) {
	if spacer, scaled := geometry(1000, 84); spacer != 84000 || scaled {
		t.Errorf("1000 rows of 84 px: %d px, scaled %v", spacer, scaled)
	}
	const rows, rowH, height = 10_000_000, 36, 560
	spacer, scaled := geometry(rows, rowH)
	if spacer != maxSpacer || !scaled {
		t.Fatalf("10 million rows of 36 px: %d px, scaled %v", spacer, scaled)
	}
	visible := float64(height - headerHeight) // 14 rows of 36 px
	for _, row := range []int64{0, 1_000_000, 5_000_000, rows - 14} {
		top := scaledTop(row, rows, rowH, spacer, visible)
		if got := firstRow(top, rows, height, rowH); int64(got) != row {
			t.Errorf("row %d: scrollTop %v shows row %d first", row, top, got)
		}
	}
	if got := firstRow(float64(spacer), rows, height, rowH); got != rows-14 {
		t.Errorf("at the bottom: row %d first, want %d", got, rows-14)
	}
	s := rowScroll{first: 5_000_000, top: 3_999_000.7}
	if got := s.rowTop(5_000_002, rows, rowH); got != 3_999_000+72 {
		t.Errorf("scaled, 2 rows after the first: top %d", got)
	}
	if got := s.rowTop(7, 1000, 84); got != 588 {
		t.Errorf("not scaled: row 7 at %d, want 588", got)
	}
}
