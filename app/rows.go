package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
)

// Geometry of the windowed rows table, in CSS pixels.
const (
	rowHeight    = 84
	headerHeight = 36
	viewHeight   = 560 // height of the scrolling container
	overscan     = 4   // rows drawn beyond each edge of the view
	cellCacheCap = 512 // rows whose decoded cells are kept
)

// RowsTable shows every row of every record batch in a windowed list: only
// the rows in view (plus a few) are in the DOM, so any number of rows
// scrolls at the same cost.
type RowsTable struct {
	app.Compo
	File  *decode.File
	first int // first row in view
	shown *decode.File
	cache map[int64][]decode.Cell
}

// OnUpdate resets the window when another file is passed in.
func (r *RowsTable) OnUpdate(ctx app.Context) {
	if r.File != r.shown {
		r.first, r.cache = 0, nil
		ctx.Defer(func(ctx app.Context) {
			if el := r.JSValue(); el.Truthy() {
				if body := el.Call("querySelector", "[data-role=rows]"); body.Truthy() {
					body.Set("scrollTop", 0)
				}
			}
		})
	}
}

func (r *RowsTable) cells(row int64) []decode.Cell {
	if r.File != r.shown || r.cache == nil || len(r.cache) > cellCacheCap {
		r.cache, r.shown = map[int64][]decode.Cell{}, r.File
	}
	if c, ok := r.cache[row]; ok {
		return c
	}
	c := make([]decode.Cell, len(r.File.Fields))
	for i := range c {
		c[i] = r.File.Cell(row, i)
	}
	r.cache[row] = c
	return c
}

func (r *RowsTable) onScroll(ctx app.Context, e app.Event) {
	first := int(ctx.JSSrc().Get("scrollTop").Float()) / rowHeight
	if first == r.first {
		ctx.PreventUpdate()
		return
	}
	r.first = first
}

// Render draws the header and the rows in view.
func (r *RowsTable) Render() app.UI {
	f := r.File
	n := int(f.NumRows)
	from := max(0, r.first-overscan)
	to := min(n, r.first+viewHeight/rowHeight+overscan+1)
	rows := make([]int, 0, max(0, to-from))
	for i := from; i < to; i++ {
		rows = append(rows, i)
	}
	grid := fmt.Sprintf("72px repeat(%d, minmax(180px, 1fr))", len(f.Fields))
	width := fmt.Sprintf("max(100%%, %dpx)", 72+180*len(f.Fields))
	return app.Section().Class("rows").Body(
		app.H2().Text(fmt.Sprintf("Rows (%d)", n)),
		app.Div().Class("rows-view").Attr("data-role", "rows").Style("height", fmt.Sprintf("%dpx", min(viewHeight, headerHeight+n*rowHeight+2))).
			OnScroll(r.onScroll).Body(
			app.Div().Class("rows-header").Style("grid-template-columns", grid).Style("width", width).Body(
				app.Div().Class("row-index").Text("#"),
				app.Range(f.Fields).Slice(func(i int) app.UI {
					return app.Div().Class("col-head").Title(f.Fields[i].Type).Text(f.Fields[i].Name)
				}),
			),
			app.Div().Class("rows-body").Style("height", fmt.Sprintf("%dpx", n*rowHeight)).Style("width", width).Body(
				app.Range(rows).Slice(func(k int) app.UI {
					i := rows[k]
					return r.row(int64(i), grid)
				}),
			),
		),
	)
}

func (r *RowsTable) row(i int64, grid string) app.UI {
	cells := r.cells(i)
	return app.Div().Class("row").Attr("data-row", i).
		Style("top", strconv.FormatInt(i*rowHeight, 10)+"px").Style("grid-template-columns", grid).Body(
		app.Div().Class("row-index").Text(i),
		app.Range(cells).Slice(func(c int) app.UI {
			return &CellView{Field: r.File.Fields[c].Name, Col: c, Row: i, Cell: cells[c]}
		}),
	)
}
