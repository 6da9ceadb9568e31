package ui

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The rows table is a grid for the keyboard (WAI-ARIA grid pattern): one
// cell at a time is focusable (roving tabindex); arrow keys move it,
// PageUp/PageDown by a view of rows, Home/End to the first/last column,
// Ctrl+Home/End to the first/last row; the grid scrolls to keep it in view.
// Enter or Space on a tensor cell opens the inspector, which gives the focus
// back to the cell when it closes.

// moveFocus returns the cell a key moves the focus to from (row, col) in a
// table of rows × cols, with page rows a page; ok is false for other keys.
func moveFocus(key string, ctrl bool, row int64, col int, rows int64, cols, page int) (int64, int, bool) {
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
		return row, col, false
	}
	return max(0, min(row, rows-1)), max(0, min(col, cols-1)), true
}

// onKey moves the focused cell.
func (r *RowsTable) onKey(ctx app.Context, e app.Event) {
	ctrl := e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()
	page := max(1, (r.height()-headerHeight)/r.rowH()-1)
	row, col, ok := moveFocus(e.Get("key").String(), ctrl, r.focusRow, r.focusCol, r.Rows, len(r.File.Fields()), page)
	if !ok {
		ctx.PreventUpdate()
		return
	}
	e.PreventDefault()
	r.goTo(ctx, row, col)
}

// onFocusIn follows the focus into a cell (a click, the inspector giving
// it back): the keyboard goes on from there.
func (r *RowsTable) onFocusIn(ctx app.Context, e app.Event) {
	cell := e.Get("target").Call("closest", "[data-col]")
	row := e.Get("target").Call("closest", "[data-row]")
	if !cell.Truthy() || !row.Truthy() {
		ctx.PreventUpdate()
		return
	}
	c, err1 := strconv.Atoi(cell.Call("getAttribute", "data-col").String())
	i, err2 := strconv.ParseInt(row.Call("getAttribute", "data-row").String(), 10, 64)
	if err1 != nil || err2 != nil || (i == r.focusRow && c == r.focusCol) {
		ctx.PreventUpdate()
		return
	}
	r.focusRow, r.focusCol = i, c
}

// goTo makes (row, col) the focused cell, scrolls it into view and focuses
// it once drawn.
func (r *RowsTable) goTo(ctx app.Context, row int64, col int) {
	r.focusRow, r.focusCol = row, col
	if v := r.view(); v.Truthy() {
		top := v.Get("scrollTop").Float()
		visible := float64(r.height() - headerHeight)
		rowH := r.rowH()
		spacer, scaled := geometry(r.Rows, rowH)
		y := float64(row * int64(rowH))
		switch {
		case scaled:
			top = r.scaledTop(row, spacer, visible)
		case y < top:
			top = y
		case y+float64(rowH) > top+visible:
			top = y + float64(rowH) - visible
		}
		v.Set("scrollTop", top)
		top = v.Get("scrollTop").Float()
		r.first, r.top = firstRow(top, r.Rows, r.height(), rowH), top
		if n := len(r.File.Fields()); n > manyColumns {
			// Columns not drawn cannot take the focus: scroll to it first.
			left, w := v.Get("scrollLeft").Float(), float64(v.Get("clientWidth").Int()-indexWidth)
			x, cw := float64(r.widths.x(col)), float64(r.widths.of(col))
			switch {
			case x < left:
				left = x
			case x+cw > left+w:
				left = x + cw - w
			}
			v.Set("scrollLeft", left)
			r.left = v.Get("scrollLeft").Float()
		}
	}
	ctx.Defer(r.fetch)
	ctx.Defer(func(ctx app.Context) { r.focusCell() })
}

// view is the scrolling container.
func (r *RowsTable) view() app.Value {
	if el := r.JSValue(); el.Truthy() {
		return el.Call("querySelector", "[data-role=rows]")
	}
	return app.Undefined()
}

// focusCell gives the keyboard focus to the focused cell if it is drawn.
func (r *RowsTable) focusCell() {
	if el := r.JSValue(); el.Truthy() {
		c := el.Call("querySelector", fmt.Sprintf(`[data-row="%d"] [data-col="%d"]`, r.focusRow, r.focusCol))
		if c.Truthy() {
			c.Call("focus", map[string]any{"preventScroll": true})
			c.Call("scrollIntoView", map[string]any{"block": "nearest", "inline": "nearest"})
		}
	}
}

// gotoRow is the "go to row" box.
func (r *RowsTable) gotoRow() app.UI {
	return app.Input().Type("number").Class("goto-row").Attr("data-role", "goto-row").Min(0).Max(max(0, r.Rows-1)).
		Placeholder("go to row").Aria("label", "Go to row (press / to come here)").
		OnChange(func(ctx app.Context, e app.Event) {
			row, err := strconv.ParseInt(ctx.JSSrc().Get("value").String(), 10, 64)
			if err != nil || row < 0 || row >= r.Rows {
				ctx.PreventUpdate()
				return
			}
			r.goTo(ctx, row, r.focusCol)
		}, app.EventScope("goto"))
}

// sizeSelect chooses the preview size (and so the row height); the first
// row in view stays in view.
func (r *RowsTable) sizeSelect() app.UI {
	current := r.rowKind()
	return app.Select().Class("preview-size").Attr("data-role", "preview-size").Aria("label", "Preview size").
		OnChange(func(ctx app.Context, e app.Event) {
			size := ctx.JSSrc().Get("value").String()
			if _, ok := rowHeights[size]; !ok || size == "text" || size == current {
				ctx.PreventUpdate()
				return
			}
			first := r.first
			r.size = size
			ctx.LocalStorage().Set(previewSizeKey, size)
			ctx.Defer(func(ctx app.Context) {
				v := r.view()
				if !v.Truthy() {
					return
				}
				if _, scaled := geometry(r.Rows, r.rowH()); !scaled {
					v.Set("scrollTop", first*r.rowH())
				}
				r.top = v.Get("scrollTop").Float()
				r.first = firstRow(r.top, r.Rows, r.height(), r.rowH())
				r.fetch(ctx)
				ctx.Update()
			})
		}).Body(
		app.Range(previewSizes).Slice(func(i int) app.UI {
			return app.Option().Value(previewSizes[i]).Selected(previewSizes[i] == current).Text(previewSizes[i] + " previews")
		}),
	)
}
