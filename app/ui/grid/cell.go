package grid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/tensorext"
)

// CellView shows one value: text, null, an error, or a tensor summary with
// its image preview.
type CellView struct {
	app.Compo
	Field  string
	Col    int
	Row    int64
	Cell   summary.Cell
	Tensor bool        // the column holds tensors (its null rows are null tensors)
	Thumbs *thumbQueue // the table's decoding budget for image thumbnails
	Active bool        // the keyboard's cell: the one in the tab order
	// Selected: the cell is selected to compare (gridselect.go); tensor
	// cells say whether they are (aria-selected), others cannot be.
	Selected bool
}

// Render draws the cell.
func (c *CellView) Render() app.UI {
	tab := -1 // roving tabindex: only the keyboard's cell is in the tab order
	if c.Active {
		tab = 0
	}
	cell := c.Cell
	col := c.Col + 2 // aria-colindex: the row number is column 1
	switch {
	case cell.Tensor != nil:
		return tensorCellView(c.Field, cell.Tensor, c.Thumbs).Attr("data-col", c.Col).TabIndex(tab).Role("gridcell").Aria("colindex", col).
			// Its accessible name is what it shows (shape, values); the
			// title says what pressing it does, and why a mask is not
			// drawn over its thumbnail.
			Title(cellTitle(c.Field, c.Row, cell.Tensor)).
			Aria("selected", c.Selected).OnClick(c.onClick)
	case cell.Nested != nil:
		n := cell.Nested
		label := n.Label
		if label == "" {
			label = "(no label)"
		}
		return app.Div().Class("cell nested").Attr("data-nested", true).Attr("data-field", c.Field).Attr("data-col", c.Col).
			Attr("data-rows", n.Rows).Attr("data-columns", n.Columns).TabIndex(tab).Role("gridcell").Aria("colindex", col).
			Title(fmt.Sprintf("Open the nested record batch of %s, row %d", c.Field, c.Row)).
			OnClick(c.openNested).Body(
			app.Div().Class("nested-label").Text(label),
			app.Div().Class("summary").Text(fmt.Sprintf("record batch: %d rows × %d columns · %s", n.Rows, n.Columns, decode.HumanBytes(int64(n.Bytes)))),
		)
	case cell.Err != "":
		return app.Div().Class("cell error").Attr("data-field", c.Field).Attr("data-col", c.Col).TabIndex(tab).Role("gridcell").Aria("colindex", col).
			Attr("data-cell-error", cell.Err).Title(cell.Err).Body(
			app.Span().Class("cell-error").Text("⚠ "+cell.Err),
			app.If(cell.Text != "", func() app.UI { return app.Div().Class("text").Text(cell.Text) }),
		)
	case cell.Null && c.Tensor:
		// A null tensor, of either tensor type: data-tensor and data-null.
		return app.Div().Class("cell tensor null").Attr("data-tensor", true).Attr("data-field", c.Field).Attr("data-col", c.Col).
			TabIndex(tab).Role("gridcell").Aria("colindex", col).Attr("data-null", true).Aria("selected", c.Selected).
			OnClick(c.onClick).Text("null")
	case cell.Null:
		return app.Div().Class("cell null").Attr("data-field", c.Field).Attr("data-col", c.Col).TabIndex(tab).Role("gridcell").Aria("colindex", col).Attr("data-null", true).Text("null")
	}
	return app.Div().Class("cell").Attr("data-field", c.Field).Attr("data-col", c.Col).TabIndex(tab).Role("gridcell").Aria("colindex", col).Body(app.Div().Class("text").Text(cell.Text))
}

// cellTitle is a tensor cell's title: "Inspect image, row 3", and why the
// mask of its column is not drawn over its thumbnail in this row.
func cellTitle(field string, row int64, t *summary.Tensor) string {
	s := fmt.Sprintf("Inspect %s, row %d (Ctrl+click: select to compare)", field, row)
	if t.MaskNote != "" {
		s += ". No mask over the thumbnail: " + t.MaskNote + "."
	}
	return s
}

// maskDrawn is the column of the mask drawn over t's thumbnail, "" for
// none (thumbmaskplan.go).
func maskDrawn(t *summary.Tensor) string {
	if t.MaskNote != "" || (t.Image != nil && t.Mask == nil) {
		return ""
	}
	return t.MaskOf
}

func (c *CellView) inspect(ctx app.Context, e app.Event) {
	ActionInspect.Send(ctx, Target{Col: c.Col, Row: c.Row})
}

// onClick inspects a tensor cell; with Ctrl (⌘) it selects the cell, or
// unselects it, to compare.
func (c *CellView) onClick(ctx app.Context, e app.Event) {
	switch {
	case e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool():
		e.PreventDefault()
		c.toggleSelected(ctx)
	case c.Cell.Tensor != nil:
		c.inspect(ctx, e)
	default:
		ctx.PreventUpdate() // a null tensor: nothing to inspect
	}
}

// toggleSelected selects a tensor cell (a null one too: a comparison says
// it is null), or unselects it.
func (c *CellView) toggleSelected(ctx app.Context) {
	actionSelect.Send(ctx, selectedCell{Col: c.Col, Row: c.Row, Null: c.Cell.Tensor == nil})
}

// openNested shows the cell's nested record batch in the grid.
func (c *CellView) openNested(ctx app.Context, e app.Event) {
	ActionNested.Send(ctx, Target{Col: c.Col, Row: c.Row})
}

// tensorCellView draws the cell of a tensor summary: its preview (drawn
// already, or an image thumbnail the page decodes) and its lines (type and
// shape, logical shape, image format, values or range).
func tensorCellView(field string, t *summary.Tensor, thumbs *thumbQueue) app.HTMLDiv {
	lines := []string{t.ValueType + " " + Dims(t.Shape, t.DimNames)}
	if !slices.Equal(t.Shape, t.LogicalShape) || !slices.Equal(t.DimNames, t.LogicalDimNames) {
		lines = append(lines, "logical "+Dims(t.LogicalShape, t.LogicalDimNames))
	}
	if t.Image != nil {
		lines = append(lines, t.Image.Info.String())
	} else if t.Values != "" {
		lines = append(lines, t.Values)
	} else if t.Min != "" {
		lines = append(lines, "min "+t.Min+" · max "+t.Max)
	}
	if len(t.Boxes) > 0 { // drawn over the preview (boxplan.go)
		lines[len(lines)-1] += " · " + kit.Plural(len(t.Boxes), "box", "boxes")
	}
	return app.Div().Class("cell tensor").
		Attr("data-tensor", true).Attr("data-field", field).
		Attr("data-shape", tensorext.JoinShape(t.Shape)).Attr("data-logical-shape", tensorext.JoinShape(t.LogicalShape)).
		Attr("data-dim-names", strings.Join(t.DimNames, ",")).Attr("data-logical-dim-names", strings.Join(t.LogicalDimNames, ",")).
		Attr("data-boxes", len(t.Boxes)).Attr("data-boxes-of", t.BoxesOf).
		Attr("data-mask-of", maskDrawn(t)).Attr("data-mask-note", t.MaskNote).
		Body(
			app.If(t.Preview != nil, func() app.UI {
				return &Preview{Img: t.Preview, Kind: string(t.PreviewKind), Marks: t.Boxes, MaskOf: maskDrawn(t)}
			}).ElseIf(t.Image != nil, func() app.UI {
				return &ImagePreview{Image: t.Image, Kind: string(t.PreviewKind), Queue: thumbs, Marks: t.Boxes,
					Mask: t.Mask, MaskOpacity: t.MaskOpacity, MaskOf: maskDrawn(t)}
			}),
			app.Div().Class("summary").Body(
				app.Range(lines).Slice(func(i int) app.UI { return app.Div().Text(lines[i]) }),
			),
		)
}

// Dims formats a shape with its dim names for a cell's summary:
// tensorext.FormatShape with × between the sizes, "[4×3×3] (H,W,C)", and
// "scalar" for no dimensions.
func Dims(shape []int, names []string) string {
	s := "scalar"
	if len(shape) > 0 {
		s = strings.ReplaceAll(tensorext.FormatShape(shape), ",", "×")
	}
	return s + kit.NamesSuffix(names)
}
