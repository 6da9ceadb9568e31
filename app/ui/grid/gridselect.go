package grid

import (
	"fmt"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/inspector/compare"
	"github.com/tensorview/tensorview/app/viewstate"
)

// The rows grid's selection of tensor cells to compare,
// as in the WAI-ARIA grid pattern's multi-selection: Ctrl+click (⌘+click)
// or Shift+Space on the focused cell toggles a tensor cell's selection
// (aria-selected), Escape or Clear empties it; with exactly two cells
// selected, the selection bar offers to open the inspector on the first
// compared with the second. The selection is transient: not in the
// address (the comparison it opens is).

// selectedCell is a tensor cell selected: a column of a file row (not a
// position: a sort or filter keeps it), and whether its tensor is null.
type selectedCell struct {
	Col  int
	Row  int64
	Null bool
}

// gridSelection is the cells selected, in the order they were selected.
type gridSelection struct{ cells []selectedCell }

// toggle selects c, or unselects it when it is selected.
func (s *gridSelection) toggle(c selectedCell) {
	for i, have := range s.cells {
		if have.Col == c.Col && have.Row == c.Row {
			s.cells = append(s.cells[:i:i], s.cells[i+1:]...)
			return
		}
	}
	s.cells = append(s.cells, c)
}

// clear unselects every cell and reports whether any was selected.
func (s *gridSelection) clear() bool {
	had := len(s.cells) > 0
	s.cells = nil
	return had
}

// colsIn lists the columns selected in file row row, nil when none is
// (a RowView's snapshot: nil for the rows without any).
func (s gridSelection) colsIn(row int64) []int {
	var cols []int
	for _, c := range s.cells {
		if c.Row == row {
			cols = append(cols, c.Col)
		}
	}
	return cols
}

// pair is what two cells selected compare: A the first selected, B the
// second, except that a null first is compared as B (the inspector shows
// a tensor, and says B is null), ok false unless exactly two are selected.
func (s gridSelection) pair() (a, b selectedCell, ok bool) {
	if len(s.cells) != 2 {
		return a, b, false
	}
	a, b = s.cells[0], s.cells[1]
	if a.Null && !b.Null {
		a, b = b, a
	}
	return a, b, true
}

// side names a selected cell of a file with fields fields as the
// inspector does ("prediction, row 3").
func (c selectedCell) side(fields []decode.FieldInfo) compare.Side {
	return compare.Side{Field: fields[c.Col].Name, Col: c.Col, Row: c.Row}
}

// openCompared is the inspector opened on a compared with b: vs= b's
// field, of b's row (the address writes field@row for another row).
func openCompared(fields []decode.FieldInfo, a, b selectedCell) viewstate.OpenInspector {
	return viewstate.OpenInspector{Field: fields[a.Col].Name, Row: a.Row, Vs: fields[b.Col].Name, VsRow: b.Row}
}

// describe is what the selection bar says of the selection (status) and
// its Compare button's text, which names both cells ("" when there is no
// pair to compare).
func (s gridSelection) describe(fields []decode.FieldInfo) (status, compare string) {
	switch n := len(s.cells); {
	case n == 0:
		return "", ""
	case n == 1:
		return s.cells[0].side(fields).String() + " selected: select another tensor cell (Ctrl+click or Shift+Space) to compare", ""
	case n > 2:
		return fmt.Sprintf("%d cells selected: a comparison takes two", n), ""
	}
	a, b, _ := s.pair()
	return "2 cells selected", fmt.Sprintf("Compare %s with %s", a.side(fields), b.side(fields))
}

// bar says what is selected and offers to compare a pair.
func (s gridSelection) bar(fields []decode.FieldInfo) *SelectionBar {
	status, compare := s.describe(fields)
	bar := &SelectionBar{Count: len(s.cells), Status: status, Compare: compare}
	if a, b, ok := s.pair(); ok {
		bar.Open = openCompared(fields, a, b)
	}
	return bar
}
