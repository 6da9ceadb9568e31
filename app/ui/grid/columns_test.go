//go:build !wasm

package grid

import (
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// TestColumnSpan: up to manyColumns columns are all drawn and share the
// width; more are drawn only where they are in view (plus colOverscan).
func TestColumnSpan(t *testing.T) {
	for _, c := range []struct {
		n        int
		left     float64
		width    int
		from, to int
		grid     string
	}{
		{5, 0, 1280, 0, 5, "72px repeat(5, minmax(180px, 1fr))"},
		{24, 900, 1280, 0, 24, "72px repeat(24, minmax(180px, 1fr))"},
		{500, 0, 1280, 0, 10, "72px 0px repeat(10, 180px) 88200px"},
		{500, 1800, 1280, 8, 20, "72px 1440px repeat(12, 180px) 86400px"},
		{500, 89000, 1280, 492, 500, "72px 88560px repeat(8, 180px) 0px"},
	} {
		from, to := colSpan(c.n, c.left, c.width, nil)
		grid, _ := gridColumns(c.n, from, to, nil, nil)
		if from != c.from || to != c.to || grid != c.grid {
			t.Errorf("%d columns at %v: [%d, %d) %q, want [%d, %d) %q", c.n, c.left, from, to, grid, c.from, c.to, c.grid)
		}
	}
}

// TestResizedColumns: resized columns keep their width in the template and
// move the virtualized span.
func TestResizedColumns(t *testing.T) {
	w := colWidths{1: 300}
	if grid, width := gridColumns(3, 0, 3, w, nil); grid != "72px minmax(180px, 1fr) 300px minmax(180px, 1fr)" || width != "max(100%, 732px)" {
		t.Errorf("3 columns: %q %q", grid, width)
	}
	// 100 columns, column 0 made 1000 px wide: at scroll 0 only it and the
	// overscan are drawn; at 1000 px the span starts after it.
	w = colWidths{0: 1000}
	if from, to := colSpan(100, 0, 800, w); from != 0 || to != 3 {
		t.Errorf("at 0: [%d, %d), want [0, 3)", from, to)
	}
	if from, to := colSpan(100, 1000, 800, w); from != 0 || to != 8 {
		t.Errorf("at 1000: [%d, %d), want [0, 8)", from, to)
	}
	grid, width := gridColumns(100, 0, 3, w, nil)
	if grid != "72px 0px 1000px 180px 180px 17460px" || width != "18892px" {
		t.Errorf("template %q %q", grid, width)
	}
}

// TestNarrowColumns: below narrowView pixels plain columns start at 96 px
// and tensor columns at 150 px; wide views and resized columns are as
// before.
func TestNarrowColumns(t *testing.T) {
	fields := []decode.FieldInfo{{Name: "id"}, {Name: "caption"}, {Name: "image", Tensor: &decode.TensorField{}}}
	if m := minWidths(fields, 1280); m != nil {
		t.Errorf("wide view: %v, want nil", m)
	}
	m := minWidths(fields, 480)
	grid, width := gridColumns(3, 0, 3, nil, m)
	if grid != "72px minmax(96px, 1fr) minmax(96px, 1fr) minmax(150px, 1fr)" || width != "max(100%, 414px)" {
		t.Errorf("narrow: %q %q", grid, width)
	}
	grid, width = gridColumns(3, 0, 3, colWidths{1: 200}, m)
	if grid != "72px minmax(96px, 1fr) 200px minmax(150px, 1fr)" || width != "max(100%, 518px)" {
		t.Errorf("narrow, resized: %q %q", grid, width)
	}
	if m := minWidths(make([]decode.FieldInfo, manyColumns+1), 480); m != nil {
		t.Errorf("virtualized columns: %v, want nil", m)
	}
}

// TestColumnDrag: dragging a column's edge resizes that column from its
// width when the drag started, within minColWidth and maxColWidth; a move
// without a drag of that column changes nothing.
func TestColumnDrag(t *testing.T) {
	var v colView
	if v.dragTo(1, 300) || v.widths != nil {
		t.Fatalf("a move without a drag resized: %v", v.widths)
	}
	v.startDrag(1, 100, 180)
	if v.dragTo(2, 150) || v.widths[2] != 0 {
		t.Errorf("a move on column 2's edge resized it during column 1's drag: %v", v.widths)
	}
	for _, c := range []struct {
		x    float64
		want int
	}{{150, 230}, {60, 140}, {-1000, minColWidth}, {5000, maxColWidth}, {100, 180}} {
		if !v.dragTo(1, c.x) || v.widths.of(1) != c.want {
			t.Errorf("drag to %v: width %d, want %d", c.x, v.widths.of(1), c.want)
		}
	}
	v.drag = nil // the pointer went up
	if v.dragTo(1, 400) || v.widths.of(1) != 180 {
		t.Errorf("a move after the drag: width %d, want 180", v.widths.of(1))
	}
	v.setWidth(0, 10)
	if v.widths.of(0) != minColWidth || v.widths.of(2) != colWidth {
		t.Errorf("widths %v: want column 0 at %d, 2 at %d", v.widths, minColWidth, colWidth)
	}
}

// TestColumnResize: the header's resize steps, as the table carries them
// out: down starts a drag from the drawn width (the kept one when the
// header could not measure itself), moves resize and ask for a redraw,
// up ends it, a double-click fits the column.
func TestColumnResize(t *testing.T) {
	var v colView
	fit := func(c int) int { return 300 + c }
	for _, c := range []struct {
		a      colResize
		redraw bool
		width  int // column 1's, after
	}{
		{colResize{Col: 1, X: 50}, false, colWidth},                      // no drag yet
		{colResize{Col: 1, Down: true, X: 100, W: 200}, false, colWidth}, // drawn 200 wide
		{colResize{Col: 1, X: 130}, true, 230},
		{colResize{Col: 2, X: 130}, false, 230}, // another column's edge
		{colResize{Col: 1, Up: true}, false, 230},
		{colResize{Col: 1, X: 400}, false, 230},
		{colResize{Col: 1, Down: true, X: 0, W: -1}, false, 230}, // unmeasured: from the kept 230
		{colResize{Col: 1, X: 20}, true, 250},
		{colResize{Col: 1, Fit: true}, true, 301},
	} {
		if got := v.resize(c.a, fit); got != c.redraw || v.widths.of(1) != c.width {
			t.Errorf("%+v: redraw %v, width %d; want %v, %d", c.a, got, v.widths.of(1), c.redraw, c.width)
		}
	}
}

// TestLeftToShow: the keyboard scrolls a column whole into view, by as
// little as it can (a column wider than the view: its start, if that was
// out of view, else its end).
func TestLeftToShow(t *testing.T) {
	var v colView
	for _, c := range []struct {
		col       int
		left, w   float64
		want      float64
		resizedTo int
	}{
		{10, 0, 800, 1180, 0},    // right of the view: its end at the view's (1800+180-800)
		{10, 1500, 800, 1500, 0}, // in view
		{10, 2000, 800, 1800, 0}, // left of the view: its start at the view's
		{1, 0, 800, 380, 1000},   // after a column of 1000 px: 1000 to 1180
		{2, 1300, 800, 1180, 1000},
		{0, 0, 800, 200, 1000}, // wider than the view, from its start: its end at the view's
		{0, 500, 800, 0, 1000}, // wider than the view, scrolled into it: its start at the view's
	} {
		v.widths = nil
		if c.resizedTo > 0 {
			v.widths = colWidths{0: c.resizedTo}
		}
		if got := v.leftToShow(c.col, c.left, c.w); got != c.want {
			t.Errorf("column %d from %v (widths %v): %v, want %v", c.col, c.left, v.widths, got, c.want)
		}
	}
}
