//go:build !wasm

package grid

import "testing"

// TestMoveFocus: the keys of the rows grid and their limits.
func TestMoveFocus(t *testing.T) {
	for _, c := range []struct {
		key      string
		ctrl     bool
		row      int64
		col      int
		wantRow  int64
		wantCol  int
		wantMove bool
	}{
		{"ArrowDown", false, 3, 1, 4, 1, true},
		{"ArrowUp", false, 0, 1, 0, 1, true}, // stays in the table
		{"ArrowRight", false, 3, 4, 3, 4, true},
		{"ArrowLeft", false, 3, 1, 3, 0, true},
		{"PageDown", false, 3, 1, 8, 1, true},
		{"PageDown", false, 97, 1, 99, 1, true},
		{"PageUp", false, 3, 1, 0, 1, true},
		{"Home", false, 3, 4, 3, 0, true},
		{"End", false, 3, 0, 3, 4, true},
		{"Home", true, 50, 4, 0, 0, true},
		{"End", true, 50, 0, 99, 4, true},
		{"a", false, 3, 1, 3, 1, false},
	} {
		to, ok := gridCell{c.row, c.col}.moved(c.key, c.ctrl, 100, 5, 5)
		if to != (gridCell{c.wantRow, c.wantCol}) || ok != c.wantMove {
			t.Errorf("%s (ctrl %v) from (%d,%d) = %+v %v, want (%d,%d) %v", c.key, c.ctrl, c.row, c.col, to, ok, c.wantRow, c.wantCol, c.wantMove)
		}
	}
}

// TestMoveFocusEdges: the keyboard stays on (0, 0) in a table of one cell,
// and in one without rows and columns.
func TestMoveFocusEdges(t *testing.T) {
	for _, c := range []struct {
		rows int64
		cols int
	}{{1, 1}, {0, 0}} {
		for _, key := range []string{"ArrowDown", "ArrowUp", "ArrowRight", "ArrowLeft", "PageDown", "PageUp", "Home", "End"} {
			for _, ctrl := range []bool{false, true} {
				if to, ok := (gridCell{}).moved(key, ctrl, c.rows, c.cols, 5); to != (gridCell{}) || !ok {
					t.Errorf("%d×%d, %s (ctrl %v): %+v %v, want (0,0) true", c.rows, c.cols, key, ctrl, to, ok)
				}
			}
		}
	}
}

// TestPageRows: PageUp and PageDown move by the rows a view shows whole,
// less one, and by one at least.
func TestPageRows(t *testing.T) {
	for _, c := range []struct{ height, rowH, want int }{
		{560, 84, 5},  // 524 px below the header: 6 rows
		{560, 164, 2}, // 3 rows
		{560, 36, 13}, // 14 rows
		{100, 164, 1}, // not one row
	} {
		if got := pageRows(c.height, c.rowH); got != c.want {
			t.Errorf("pageRows(%d, %d) = %d, want %d", c.height, c.rowH, got, c.want)
		}
	}
}

// TestTopToShow: the keyboard scrolls a row whole into view, by as little
// as it can; in a scaled file it goes to the row's own place.
func TestTopToShow(t *testing.T) {
	for _, c := range []struct {
		row       int64
		top, want float64
	}{
		{10, 0, 400},     // below the view: its bottom at the view's (840+84-524)
		{10, 800, 800},   // in view: no scroll
		{5, 800, 420},    // above the view: its top at the view's
		{999, 0, 83476},  // the last row
		{0, 83476, 0},    // back to the first
		{15, 840, 840},   // the view's last whole row (1260+84 = 840+524-40)
		{16, 840, 904},   // the next, partly shown: scrolled by 64 px
		{10, 840.5, 840}, // a fractional scroll: the row's own top
	} {
		if got := topToShow(c.row, 1000, 84, c.top, 524); got != c.want {
			t.Errorf("row %d from %v: %v, want %v", c.row, c.top, got, c.want)
		}
	}
	const rows, rowH = 10_000_000, 36
	spacer, scaled := geometry(rows, rowH)
	if !scaled {
		t.Fatal("10 million rows of 36 px are not scaled")
	}
	for _, row := range []int64{0, 5_000_000, rows - 1} {
		if got, want := topToShow(row, rows, rowH, 123, 524), scaledTop(row, rows, rowH, spacer, 524); got != want {
			t.Errorf("scaled, row %d: %v, want %v", row, got, want)
		}
	}
}

// TestFocusColumn: a row draws the keyboard's cell only if it is the
// keyboard's row.
func TestFocusColumn(t *testing.T) {
	g := gridCell{row: 3, col: 2}
	if g.colIn(3) != 2 || g.colIn(4) != -1 || g.colIn(0) != -1 {
		t.Errorf("colIn: %d %d %d, want 2 -1 -1", g.colIn(3), g.colIn(4), g.colIn(0))
	}
}
