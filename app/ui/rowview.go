package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// Row states other than shown: the row's data is not there (yet).
const (
	rowIndexing  = "indexing"  // past what is indexed so far (the count is an estimate)
	rowLoading   = "loading"   // its row window is being read
	rowCancelled = "cancelled" // its row window's read was cancelled: it offers to read again
)

// RowView is one row of the rows table, drawn in a slot of its own
// (RowsTable.Render): its fields are the row's snapshot, so that when the
// table redraws, go-app (which compares a component's exported fields with
// reflect.DeepEqual, slices first by their first element's address) finds
// the rows that stayed in view unchanged and leaves them, their cells and
// their canvases as they are. A RowView with Row -1 is an empty slot.
type RowView struct {
	app.Compo
	Row    int64
	Top    int64  // its place in the scroll area, in CSS pixels
	Grid   string // the CSS grid template of its columns
	State  string // "" (Cells are its values) or one of the row states
	Fields []decode.FieldInfo
	Cols   []int          // the columns drawn
	Cells  []summary.Cell // the row's summarised cells, all columns
	Focus  int            // the keyboard's column in this row, -1 if it is elsewhere
	Thumbs *thumbQueue    // the table's decoding budget for image thumbnails
}

// Render draws the row, or an empty slot.
func (v *RowView) Render() app.UI {
	div := app.Div().Class("row")
	if v.Row < 0 {
		return div.Hidden(true)
	}
	i := v.Row
	// aria-rowindex counts from 1, the header's row.
	div = div.Role("row").Aria("rowindex", i+2).Attr("data-row", i).
		Style("top", strconv.FormatInt(v.Top, 10)+"px").Style("grid-template-columns", v.Grid)
	index := app.Div().Class("row-index").Role("rowheader").Aria("colindex", 1).Text(i)
	switch v.State {
	case rowIndexing:
		return div.Attr("data-loading", true).Body(index, app.Div().Class("cell loading").Role("gridcell").Text("indexing…"))
	case rowLoading:
		return div.Attr("data-loading", true).Body(index, app.Div().Class("cell loading").Role("gridcell").Text("loading…"))
	case rowCancelled:
		return div.Attr("data-cancelled", true).Body(
			index,
			app.Div().Class("cell loading").Role("gridcell").Body(
				app.Text("reading cancelled "),
				app.Button().Type("button").Class("link").Attr("data-action", "read-again").Text("Read again").
					OnClick(func(ctx app.Context, e app.Event) { actionReadAgain.send(ctx) }),
			),
		)
	}
	fields := v.Fields
	return div.Body(
		index,
		colSpacer(len(fields)),
		app.Range(v.Cols).Slice(func(k int) app.UI {
			c := v.Cols[k]
			f := fields[c]
			var thumbs *thumbQueue
			if f.Images {
				thumbs = v.Thumbs
			}
			return &CellView{Field: f.Name, Col: c, Row: i, Cell: v.Cells[c], Tensor: f.Tensor != nil || f.Images,
				Thumbs: thumbs, Active: c == v.Focus}
		}),
		colSpacer(len(fields)),
	)
}
