//go:build !wasm

package grid

import (
	"slices"
	"strconv"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/summary"
)

// TestRowsTableNative renders the rows table on testdata/js_images.arrow in
// go-app's test engine (natively the engine renders but runs no OnMount, so
// the rows are loaded first, as the table's fetch would): each row in view
// shows the cells decode reads, with the values apache-arrow JS wrote
// (js_expected.json: id 0, 1, 2; label red-green, gradient, null-row).
func TestRowsTableNative(t *testing.T) {
	f := decodetest.Open(t, "js_images.arrow")
	rows, _ := f.Rows()
	for i := range rows {
		if err := f.Load(i); err != nil {
			t.Fatal(err)
		}
	}
	r := &RowsTable{File: f, Rows: rows}
	e := app.NewTestEngine()
	if err := e.Load(r); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	id, label := decodetest.Column(t, f, "id"), decodetest.Column(t, f, "label")
	for i, want := range []string{"red-green", "gradient", "null-row"} {
		// section > rows view > rows body > slot i (row i) > its row >
		// cell (after the row number)
		path := []int{0, 2, 1, i, 0}
		// The keyboard starts on the first cell.
		if err := app.Match(&CellView{Field: "id", Col: id, Row: int64(i), Cell: summary.Cell{Text: strconv.Itoa(i)}, Active: i == 0 && id == 0}, r, append(path, 1+id)...); err != nil {
			t.Errorf("row %d id: %v", i, err)
		}
		if err := app.Match(&CellView{Field: "label", Col: label, Row: int64(i), Cell: summary.Cell{Text: want}}, r, append(path, 1+label)...); err != nil {
			t.Errorf("row %d label: %v", i, err)
		}
	}
	// Row 2's rgb is a null tensor: the cell knows its column holds tensors
	// and draws data-tensor with data-null.
	rgb := decodetest.Column(t, f, "rgb")
	null := &CellView{Field: "rgb", Col: rgb, Row: 2, Cell: summary.Cell{Null: true, Text: "(null)"}, Tensor: true}
	if err := app.Match(null, r, 0, 2, 1, 2, 0, 1+rgb); err != nil {
		t.Errorf("row 2 rgb: %v", err)
	}
	if err := app.Match(app.Div().Class("cell tensor null").Attr("data-tensor", true).Attr("data-field", "rgb").Attr("data-col", rgb).TabIndex(-1).
		Role("gridcell").Aria("colindex", rgb+2).Attr("data-null", true).Aria("selected", false).
		OnClick(null.onClick), null.Render()); err != nil {
		t.Errorf("null tensor cell: %v", err)
	}
	// Selected to compare (Ctrl+click, Shift+Space): the table draws it
	// aria-selected in a multi-selectable grid, and the bar says so.
	r = &RowsTable{File: f, Rows: rows}
	r.sel.toggle(selectedCell{Col: rgb, Row: 2, Null: true})
	if err := app.NewTestEngine().Load(r); err != nil {
		t.Fatal(err)
	}
	null.Selected = true
	if err := app.Match(null, r, 0, 2, 1, 2, 0, 1+rgb); err != nil {
		t.Errorf("row 2 rgb selected: %v", err)
	}
	want := &SelectionBar{Count: 1, Status: "rgb, row 2 selected: select another tensor cell (Ctrl+click or Shift+Space) to compare"}
	if err := app.Match(want, r, 0, 0, 3); err != nil {
		t.Errorf("selection bar: %v", err)
	}
}

// TestThumbQueue: one thumbnail decodes at a time (maxDecoding), the rest
// start in order as decodes end, and those no longer wanted are skipped;
// afterIdle's functions run once the last decode has ended.
func TestThumbQueue(t *testing.T) {
	if maxDecoding != 1 {
		t.Fatalf("this test follows a budget of 1 decode, not %d", maxDecoding)
	}
	var q thumbQueue
	var started []int
	dones := map[int]func(){}
	wanted := map[int]bool{0: true, 1: true, 2: false, 3: true}
	for k := range 4 {
		q.run(func() bool { return wanted[k] }, func(done func()) {
			started = append(started, k)
			dones[k] = done
		})
	}
	if !slices.Equal(started, []int{0}) {
		t.Fatalf("started %v, want [0]", started)
	}
	dones[0]()
	dones[0]() // a second call changes nothing
	if !slices.Equal(started, []int{0, 1}) {
		t.Fatalf("after one ended: %v, want [0 1]", started)
	}
	dones[1]()
	if !slices.Equal(started, []int{0, 1, 3}) || q.running != 1 {
		t.Fatalf("started %v, %d running; want [0 1 3] (2 is no longer wanted), 1", started, q.running)
	}
	idle := 0
	q.afterIdle(func() { idle++ })
	if idle != 0 {
		t.Fatal("afterIdle ran its function while a decode runs")
	}
	dones[3]()
	if q.running != 0 || len(q.waiting) != 0 {
		t.Errorf("%d running, %d waiting after all ended", q.running, len(q.waiting))
	}
	if idle != 1 {
		t.Errorf("afterIdle's function ran %d times once the last decode ended, want once", idle)
	}
	q.afterIdle(func() { idle++ })
	if idle != 2 {
		t.Errorf("afterIdle on an idle queue: its function ran %d times in all, want 2", idle)
	}
	var nilQueue *thumbQueue
	nilQueue.afterIdle(func() { idle++ })
	if idle != 3 {
		t.Error("a nil queue did not run afterIdle's function")
	}
	ran := false
	nilQueue.run(func() bool { return true }, func(done func()) { ran = true; done() })
	if !ran {
		t.Error("a nil queue did not run its job")
	}
}

// TestShapeTexts: a cell's summary writes a shape as tensorext.FormatShape
// with × between the sizes, then its dim names.
func TestShapeTexts(t *testing.T) {
	for _, c := range []struct {
		shape []int
		names []string
		want  string
	}{
		{[]int{4, 3, 3}, []string{"H", "W", "C"}, "[4×3×3] (H,W,C)"},
		{[]int{5}, nil, "[5]"},
		{[]int{}, nil, "scalar"},
		{nil, []string{"x"}, "scalar (x)"},
	} {
		if got := Dims(c.shape, c.names); got != c.want {
			t.Errorf("dims(%v, %v) = %q, want %q", c.shape, c.names, got, c.want)
		}
	}
}
