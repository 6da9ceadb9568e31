//go:build !wasm

package grid

import (
	"reflect"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/viewstate"
)

// TestGridSelection: Ctrl+click and Shift+Space toggle cells in the order
// selected, Escape clears; two cells make a pair (a null first one compared
// as B), which opens the inspector on A with vs= B, by field for the same
// row and field@row for another; the bar's words.
func TestGridSelection(t *testing.T) {
	fields := []decode.FieldInfo{{Name: "id"}, {Name: "target"}, {Name: "prediction"}}
	target0, pred0 := selectedCell{Col: 1, Row: 0}, selectedCell{Col: 2, Row: 0}
	target1, predNull := selectedCell{Col: 1, Row: 1}, selectedCell{Col: 2, Row: 2, Null: true}
	type want struct {
		cells   []selectedCell
		open    *viewstate.OpenInspector // nil: no pair
		status  string
		compare string
	}
	for _, c := range []struct {
		name    string
		toggles []selectedCell
		want    want
	}{
		{"none", nil, want{}},
		{"one", []selectedCell{target0}, want{cells: []selectedCell{target0},
			status: "target, row 0 selected: select another tensor cell (Ctrl+click or Shift+Space) to compare"}},
		{"two columns of a row", []selectedCell{target0, pred0}, want{cells: []selectedCell{target0, pred0},
			open:   &viewstate.OpenInspector{Field: "target", Row: 0, Vs: "prediction", VsRow: 0},
			status: "2 cells selected", compare: "Compare target, row 0 with prediction, row 0"}},
		{"in the other order", []selectedCell{pred0, target0}, want{cells: []selectedCell{pred0, target0},
			open:   &viewstate.OpenInspector{Field: "prediction", Row: 0, Vs: "target", VsRow: 0},
			status: "2 cells selected", compare: "Compare prediction, row 0 with target, row 0"}},
		{"a column in two rows", []selectedCell{target1, target0}, want{cells: []selectedCell{target1, target0},
			open:   &viewstate.OpenInspector{Field: "target", Row: 1, Vs: "target", VsRow: 0},
			status: "2 cells selected", compare: "Compare target, row 1 with target, row 0"}},
		{"another column of another row", []selectedCell{target0, predNull}, want{cells: []selectedCell{target0, predNull},
			open:   &viewstate.OpenInspector{Field: "target", Row: 0, Vs: "prediction", VsRow: 2},
			status: "2 cells selected", compare: "Compare target, row 0 with prediction, row 2"}},
		{"a null first is B", []selectedCell{predNull, target1}, want{cells: []selectedCell{predNull, target1},
			open:   &viewstate.OpenInspector{Field: "target", Row: 1, Vs: "prediction", VsRow: 2},
			status: "2 cells selected", compare: "Compare target, row 1 with prediction, row 2"}},
		{"toggled off", []selectedCell{target0, pred0, target0}, want{cells: []selectedCell{pred0},
			status: "prediction, row 0 selected: select another tensor cell (Ctrl+click or Shift+Space) to compare"}},
		{"all off", []selectedCell{target0, target0}, want{}},
		{"three", []selectedCell{target0, pred0, target1}, want{cells: []selectedCell{target0, pred0, target1},
			status: "3 cells selected: a comparison takes two"}},
		{"three less one", []selectedCell{target0, pred0, target1, pred0}, want{cells: []selectedCell{target0, target1},
			open:   &viewstate.OpenInspector{Field: "target", Row: 0, Vs: "target", VsRow: 1},
			status: "2 cells selected", compare: "Compare target, row 0 with target, row 1"}},
	} {
		var s gridSelection
		for _, cell := range c.toggles {
			s.toggle(cell)
		}
		if len(s.cells) != len(c.want.cells) || (len(s.cells) > 0 && !reflect.DeepEqual(s.cells, c.want.cells)) {
			t.Errorf("%s: cells %+v, want %+v", c.name, s.cells, c.want.cells)
		}
		a, b, ok := s.pair()
		switch {
		case ok != (c.want.open != nil):
			t.Errorf("%s: pair %v, want %v", c.name, ok, c.want.open != nil)
		case ok:
			if got := openCompared(fields, a, b); got != *c.want.open {
				t.Errorf("%s: opens %+v, want %+v", c.name, got, *c.want.open)
			}
		}
		if status, compare := s.describe(fields); status != c.want.status || compare != c.want.compare {
			t.Errorf("%s: says %q, %q, want %q, %q", c.name, status, compare, c.want.status, c.want.compare)
		}
		had := len(s.cells) > 0
		if s.clear() != had || len(s.cells) != 0 {
			t.Errorf("%s: clear", c.name)
		}
	}
}

// TestSelectedColumns: a row lists its columns selected (nil for none, so
// that the rows without any keep their snapshots), in the order selected.
func TestSelectedColumns(t *testing.T) {
	var s gridSelection
	for _, c := range []selectedCell{{Col: 3, Row: 7}, {Col: 1, Row: 2}, {Col: 0, Row: 7}} {
		s.toggle(c)
	}
	for _, c := range []struct {
		row  int64
		want []int
	}{{7, []int{3, 0}}, {2, []int{1}}, {0, nil}} {
		if got := s.colsIn(c.row); !reflect.DeepEqual(got, c.want) {
			t.Errorf("row %d: %v, want %v", c.row, got, c.want)
		}
	}
}
