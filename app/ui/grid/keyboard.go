package grid

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/summary"
)

// The rows table is a grid for the keyboard (WAI-ARIA grid pattern): one
// cell at a time is focusable (roving tabindex); arrow keys move it,
// PageUp/PageDown by a view of rows, Home/End to the first/last column,
// Ctrl+Home/End to the first/last row; the grid scrolls to keep it in view.
// Enter or Space on a tensor cell opens the inspector, which gives the focus
// back to the cell when it closes. Shift+Space selects the tensor cell (or
// unselects it), as Ctrl+click does, and Escape empties the selection
// (gridselect.go).

// gridCell is the cell the keyboard is on: a row (its position in the
// rows shown: a sort's or filter's result) and a column.
type gridCell struct {
	row int64
	col int
}

// moved returns the cell a key moves the focus to in a table of rows ×
// cols, with page rows a page; ok is false for other keys.
func (g gridCell) moved(key string, ctrl bool, rows int64, cols, page int) (to gridCell, ok bool) {
	row, col := g.row, g.col
	switch key {
	case "ArrowDown":
		row++
	case "ArrowUp":
		row--
	case "ArrowRight":
		col++
	case "ArrowLeft":
		col--
	case "PageDown":
		row += int64(page)
	case "PageUp":
		row -= int64(page)
	case "Home":
		if ctrl {
			row = 0
		}
		col = 0
	case "End":
		if ctrl {
			row = rows - 1
		}
		col = cols - 1
	default:
		return g, false
	}
	return gridCell{max(0, min(row, rows-1)), max(0, min(col, cols-1))}, true
}

// colIn is the keyboard's column in row i, -1 if it is in another row.
func (g gridCell) colIn(i int64) int {
	if i != g.row {
		return -1
	}
	return g.col
}

// pageRows is how many rows PageUp and PageDown move by in a view height
// pixels high over rows of rowH pixels: the rows it shows whole, less one.
func pageRows(height, rowH int) int {
	return max(1, (height-headerHeight)/rowH-1)
}

// topToShow is the scrollTop that shows row whole in a view visible
// pixels high (below the header) scrolled to top, over rows rows of rowH
// pixels: top if it does. Scaled (geometry), it is the row's own place.
func topToShow(row, rows int64, rowH int, top, visible float64) float64 {
	spacer, scaled := geometry(rows, rowH)
	y := float64(row * int64(rowH))
	switch {
	case scaled:
		return scaledTop(row, rows, rowH, spacer, visible)
	case y < top:
		return y
	case y+float64(rowH) > top+visible:
		return y + float64(rowH) - visible
	}
	return top
}

// onKey acts on the focused cell (keyroute.go): the keyboard's cell, not
// the element the key was sent to, which may not have the focus yet.
func (r *RowsTable) onKey(ctx app.Context, e app.Event) {
	if tag := e.Get("target").Get("tagName").String(); tag == "SELECT" || tag == "BUTTON" {
		ctx.PreventUpdate() // a header's sort controls keep their keys
		return
	}
	if !r.key(ctx, KeyOf(e.Value)) {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
}

// KeyOf is a keydown event's key and modifiers.
func KeyOf(e app.Value) keyPress {
	return keyPress{Key: e.Get("key").String(), Shift: e.Get("shiftKey").Bool(), Ctrl: e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()}
}

// key does what k does to the focused cell, and reports whether it did
// anything.
func (r *RowsTable) key(ctx app.Context, k keyPress) bool {
	switch act := gridActOf(k); act {
	case actClear:
		return r.sel.clear()
	case actMove:
		to, _ := r.focus.moved(k.Key, k.Ctrl, r.Rows, len(r.File.Fields()), pageRows(r.geom.height(), r.rowH()))
		r.goTo(ctx, to)
		return true
	case actOpen, actSelect:
		return r.openKey(ctx, act)
	}
	return false
}

// openKey inspects, opens or selects the focused cell (cellActOf).
func (r *RowsTable) openKey(ctx app.Context, act gridAct) bool {
	fields := r.File.Fields()
	if r.focus.col >= len(fields) || r.focus.row >= r.Rows {
		return false
	}
	row := session.FileRow(r.Order, r.focus.row)
	var cell *summary.Cell
	if _, _, located := r.File.Window(row); rowStateOf(located, r.File.WindowState(row)) == rowShown {
		cell = &r.cells(row, len(fields))[r.focus.col]
	}
	at := Target{Col: r.focus.col, Row: row}
	switch cellActOf(act, fields[r.focus.col], cell) {
	case cellInspect:
		ActionInspect.Send(ctx, at)
	case cellNested:
		ActionNested.Send(ctx, at)
	case cellSelect:
		r.sel.toggle(selectedCell{Col: at.Col, Row: row, Null: cell.Tensor == nil})
	default:
		return false
	}
	return true
}

// at makes the cell of file row t.Row and column t.Col the keyboard's,
// if a grid of cols columns showing order has that row (the inspector
// closing on it).
func (f *gridFocus) at(t Target, order session.Order, cols int) {
	if p := session.PosOf(order, t.Row); p >= 0 && t.Col < cols {
		f.gridCell = gridCell{p, t.Col}
	}
}

// onFocusIn follows the focus into a cell (a click, the inspector giving
// it back): the keyboard goes on from there.
func (r *RowsTable) onFocusIn(ctx app.Context, e app.Event) {
	cell := e.Get("target").Call("closest", "[data-col]")
	row := e.Get("target").Call("closest", "[data-pos]")
	if !cell.Truthy() || !row.Truthy() {
		ctx.PreventUpdate()
		return
	}
	c, err1 := strconv.Atoi(cell.Call("getAttribute", "data-col").String())
	i, err2 := strconv.ParseInt(row.Call("getAttribute", "data-pos").String(), 10, 64)
	own := r.focus.own != nil && (gridCell{i, c}) == *r.focus.own
	if own {
		r.focus.own = nil
	}
	if err1 != nil || err2 != nil || (gridCell{i, c}) == r.focus.gridCell || own {
		ctx.PreventUpdate()
		return
	}
	r.focus = gridFocus{gridCell: gridCell{i, c}}
}

// goTo makes cell c the focused cell, scrolls it into view and focuses it
// once drawn.
func (r *RowsTable) goTo(ctx app.Context, c gridCell) {
	r.focus.gridCell, r.focus.due = c, true
	if v := r.view(); v.Truthy() {
		rowH := r.rowH()
		v.Set("scrollTop", topToShow(c.row, r.Rows, rowH, v.Get("scrollTop").Float(), float64(r.geom.height()-headerHeight)))
		r.scroll.placed(v.Get("scrollTop").Float(), r.Rows, r.geom.height(), rowH)
		if n := len(r.File.Fields()); n > manyColumns {
			// Columns not drawn cannot take the focus: scroll to it first.
			w := float64(v.Get("clientWidth").Int() - indexWidth)
			v.Set("scrollLeft", r.cols.leftToShow(c.col, v.Get("scrollLeft").Float(), w))
			r.cols.left = v.Get("scrollLeft").Float()
		}
	}
	ctx.Defer(r.fetch)
	ctx.Defer(func(ctx app.Context) { r.focus.give(r) })
}

// view is the scrolling container.
func (r *RowsTable) view() app.Value {
	if el := r.JSValue(); el.Truthy() {
		return el.Call("querySelector", "[data-role=rows]")
	}
	return app.Undefined()
}

// gridFocus is the keyboard's cell, and whether it is due to take the
// browser's focus once drawn: a row being read has no cells yet, and the
// cell moved from has gone with its row.
type gridFocus struct {
	gridCell
	due bool
	// own is the cell give gave the browser's focus to, whose focusin is
	// still to come (onFocusIn ignores it: the keyboard's cell may have
	// moved on since, by a key sent before that event); nil: none.
	own *gridCell
}

// give gives the keyboard focus to the focused cell if it is drawn,
// unless a dialog (the inspector opened meanwhile) has it; until it is
// drawn (in table), the focus stays due.
func (f *gridFocus) give(table app.UI) {
	doc := app.Window().Get("document")
	if doc.Call("querySelector", ".inspector-backdrop").Truthy() {
		f.due = false
		return
	}
	if el := table.JSValue(); el.Truthy() {
		c := el.Call("querySelector", fmt.Sprintf(`[data-pos="%d"] [data-col="%d"]`, f.row, f.col))
		if c.Truthy() {
			f.due = false
			if !c.Equal(doc.Get("activeElement")) {
				own := f.gridCell
				f.own = &own
			}
			c.Call("focus", map[string]any{"preventScroll": true})
			c.Call("scrollIntoView", map[string]any{"block": "nearest", "inline": "nearest"})
		}
	}
}

// giveDue gives the focus to the focused cell once its row is drawn,
// when it is due and the browser's focus has not gone anywhere else
// meanwhile (it is on the page's body, or still in the grid).
func (f *gridFocus) giveDue(ctx app.Context, table app.UI) {
	if !f.due {
		return
	}
	ctx.Defer(func(app.Context) {
		a := app.Window().Get("document").Get("activeElement")
		if el := table.JSValue(); a.Truthy() && a.Get("tagName").String() != "BODY" && !(el.Truthy() && el.Call("contains", a).Bool()) {
			f.due = false
			return
		}
		f.give(table)
	})
}

// gotoRow is the "go to row" box of a table of rows rows: it sends the
// row typed (actionGoTo), which the table checks when it runs.
func gotoRow(rows int64) app.UI {
	return app.Input().Type("number").Class("goto-row").Attr("data-role", "goto-row").Min(0).Max(max(0, rows-1)).
		Placeholder("go to row").Aria("label", "Go to row (press / to come here)").
		OnChange(func(ctx app.Context, e app.Event) {
			if row, err := strconv.ParseInt(ctx.JSSrc().Get("value").String(), 10, 64); err == nil {
				actionGoTo.Send(ctx, row)
			}
			ctx.PreventUpdate()
		}, app.EventScope("goto"))
}

// sizeSelect chooses the preview size (and so the row height); the first
// row in view stays in view.
func (r *RowsTable) sizeSelect() app.UI {
	current := r.geom.kind(r.File.HasPreviews())
	return app.Select().Class("preview-size").Attr("data-role", "preview-size").Aria("label", "Preview size").
		OnChange(func(ctx app.Context, e app.Event) {
			// The size now, not when the handler was made: go-app keeps
			// the first handler of this place (closures of one literal
			// compare equal), so what it captured goes stale.
			size := rowKind(ctx.JSSrc().Get("value").String())
			if !size.isPreviewSize() || size == r.geom.kind(r.File.HasPreviews()) {
				ctx.PreventUpdate()
				return
			}
			first := r.scroll.first
			r.geom.preview = size
			ctx.LocalStorage().Set(previewSizeKey, size)
			ctx.Defer(func(ctx app.Context) {
				v := r.view()
				if !v.Truthy() {
					return
				}
				if _, scaled := geometry(r.Rows, r.rowH()); !scaled {
					v.Set("scrollTop", first*r.rowH())
				}
				r.scroll.placed(v.Get("scrollTop").Float(), r.Rows, r.geom.height(), r.rowH())
				r.fetch(ctx)
				ctx.Update()
			})
		}).Body(
		app.Range(previewSizes).Slice(func(i int) app.UI {
			size := string(previewSizes[i])
			return app.Option().Value(size).Selected(previewSizes[i] == current).Text(size + " previews")
		}),
	)
}
