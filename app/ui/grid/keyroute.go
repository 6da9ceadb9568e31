package grid

import (
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// Where a key goes is decided from the session's state, not from the
// element the browser has focused: the focus follows a render, and keys
// pressed faster than the page draws (Escape, ArrowDown, Enter while the
// inspector closes) would land on a dialog that is going, or on a cell
// that is no longer the keyboard's. The page's keydown listener
// (Viewer.routeKeys) asks RouteOf; the grid acts on its own focused cell
// (RowsTable.key), whichever cell the event came from. native tests:
// keyroute_test.go.

// keyPress is a keydown's key and modifiers.
type keyPress struct {
	Key   string
	Shift bool
	Ctrl  bool // Ctrl or ⌘
}

// gridAct is what a key does in the rows grid.
type gridAct int

const (
	actNone   gridAct = iota
	actMove           // arrows, PageUp/PageDown, Home/End: the focused cell moves
	actOpen           // Enter, Space: inspect a tensor cell, open a nested record batch
	actSelect         // Shift+Space: select a tensor cell to compare, or unselect it
	actClear          // Escape: empty the selection
)

// gridActOf is what k does in the grid.
func gridActOf(k keyPress) gridAct {
	switch k.Key {
	case "ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "PageDown", "PageUp", "Home", "End":
		return actMove
	case " ":
		if k.Shift {
			return actSelect
		}
		return actOpen
	case "Enter":
		return actOpen
	case "Escape":
		return actClear
	}
	return actNone
}

// cellAct is what opening or selecting does to one cell.
type cellAct int

const (
	cellNone    cellAct = iota
	cellInspect         // open the inspector on it
	cellNested          // show its nested record batch
	cellSelect          // select it to compare, or unselect it
)

// cellActOf is what act does to a cell of field f: c is the cell when its
// row is shown (drawn), nil while its record batch is being read, when
// only the column says what the cell holds.
func cellActOf(act gridAct, f decode.FieldInfo, c *summary.Cell) cellAct {
	tensors := f.Tensor != nil || f.Images
	switch {
	case act == actOpen && c == nil && f.Nested:
		return cellNested
	case act == actOpen && c == nil && tensors:
		return cellInspect
	case c == nil:
		return cellNone
	case act == actOpen && c.Nested != nil:
		return cellNested
	case act == actOpen && c.Tensor != nil:
		return cellInspect
	case act == actSelect && (c.Tensor != nil || (c.Null && tensors)):
		return cellSelect
	}
	return cellNone
}

// KeyTarget is where the browser sent a key: into the rows grid, into the
// inspector, into a control that keeps its keys (a text field, a select,
// a button).
type KeyTarget struct {
	InGrid, InInspector, Control bool
}

// keyRoute is where the page sends a key.
type keyRoute int

const (
	RoutePass  keyRoute = iota // the element it was sent to handles it
	RouteClose                 // close the inspector
	RouteGrid                  // the grid's focused cell, wherever the focus is
	RouteDrop                  // a grid key that would reach the grid behind the inspector
)

// RouteOf is where k, sent to t, goes: inspecting says whether the
// inspector is open, returning whether it has closed and the grid has not
// had the focus back yet.
func RouteOf(k keyPress, t KeyTarget, inspecting, returning bool) keyRoute {
	grid := gridActOf(k) != actNone && !t.Control
	switch {
	case inspecting && k.Key == "Escape":
		return RouteClose
	case inspecting && grid && !t.InInspector:
		return RouteDrop
	case !inspecting && returning && grid && !t.InGrid:
		return RouteGrid
	}
	return RoutePass
}
