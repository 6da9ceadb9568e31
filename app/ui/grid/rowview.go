package grid

import (
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// rowState is what a row of the table shows: its cells, or why its data
// is not there (yet).
type rowState int

const (
	rowShown     rowState = iota // its cells: its values, or the error of its read
	rowIndexing                  // past what is indexed so far (the count is an estimate)
	rowLoading                   // its row window is being read
	rowCancelled                 // its row window's read was cancelled: it offers to read again
)

// rowStateOf is the state of a row whose row window is in a file's index
// (located) or not yet, and is in state s.
func rowStateOf(located bool, s decode.WindowState) rowState {
	switch {
	case !located:
		return rowIndexing
	case s == decode.Cancelled:
		return rowCancelled
	case s == decode.Unread || s == decode.Loading:
		return rowLoading
	}
	return rowShown
}

// RowView is one row of the rows table, drawn in a slot of its own
// (RowsTable.Render): its fields are the row's snapshot, so that when the
// table redraws, go-app (which compares a component's exported fields with
// reflect.DeepEqual, slices first by their first element's address) finds
// the rows that stayed in view unchanged and leaves them, their cells and
// their canvases as they are. A RowView with Row -1 is an empty slot.
type RowView struct {
	app.Compo
	Row      int64    // the file's row shown (its number in the row header)
	Pos      int64    // its position in the rows shown (a sort's or filter's result; else Row)
	Top      int64    // its place in the scroll area, in CSS pixels
	Grid     string   // the CSS grid template of its columns
	State    rowState // rowShown: Cells are its values
	Fields   []decode.FieldInfo
	Cols     []int          // the columns drawn
	Cells    []summary.Cell // the row's summarised cells, all columns
	Focus    int            // the keyboard's column in this row, -1 if it is elsewhere
	Selected []int          // its columns selected to compare, nil for none
	Thumbs   *thumbQueue    // the table's decoding budget for image thumbnails
	Shard    string         // the file of a dataset the row is in ("": one file)
}

// Render draws the row, or an empty slot.
func (v *RowView) Render() app.UI {
	div := app.Div().Class("row")
	if v.Row < 0 {
		return div.Hidden(true)
	}
	i := v.Row
	// aria-rowindex counts from 1, the header's row, over the rows shown;
	// the row header says the file's row.
	div = div.Role("row").Aria("rowindex", v.Pos+2).Attr("data-row", i).Attr("data-pos", v.Pos).
		Style("top", strconv.FormatInt(v.Top, 10)+"px").Style("grid-template-columns", v.Grid)
	index := app.Div().Class("row-index").Role("rowheader").Aria("colindex", 1).Text(i)
	if v.Shard != "" {
		index = index.Title(v.Shard).Attr("data-shard", v.Shard)
	}
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
					OnClick(func(ctx app.Context, e app.Event) { actionReadAgain.Send(ctx) }),
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
				Thumbs: thumbs, Active: c == v.Focus, Selected: slices.Contains(v.Selected, c)}
		}),
		colSpacer(len(fields)),
	)
}
