package grid

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/internal/perfmark"
)

// Actions the rows table's parts send to it.
const (
	ActionCancelRead kit.Signal = "tv/cancel-read" // stop the record batch reads under way (its progress bar's Cancel)
	actionReadAgain  kit.Signal = "tv/read-again"  // read the cancelled rows in view again (a cancelled row's button)

	actionSelect         kit.Action[selectedCell] = "tv/select"          // toggle a tensor cell's selection (CellView: Ctrl+click, Shift+Space)
	actionClearSelection kit.Signal               = "tv/selection-clear" // unselect every cell (SelectionBar)
	actionGoTo           kit.Action[int64]        = "tv/goto-row"        // the row typed in the "go to row" box

	// The Viewer's, as the inspector closes (keyroute.go).
	ActionAt    kit.Action[Target]   = "tv/grid-at"    // the cell the inspector closed on becomes the keyboard's
	ActionKey   kit.Action[keyPress] = "tv/grid-key"   // a key for the focused cell, sent while the focus is elsewhere
	ActionFocus kit.Signal           = "tv/grid-focus" // the focused cell takes the keyboard focus
)

// RowsTable shows every row of every record batch in a windowed list: only
// the rows in view (plus a few) are in the DOM, so any number of rows
// scrolls at the same cost. Rows whose record batch is not in the file's
// cache show as loading while the batch is read in the background; how
// each read ended the file keeps (decode.File.WindowState): rows whose
// read failed show the error, rows whose read was cancelled offer to read
// again. Its methods: the lifecycle, scrolling and drawing here, the reads
// in rowloads.go, the keyboard in keyboard.go; the column headers are
// components of their own (ColumnHead), and the state's plain types carry
// out what they own (columns.go, rowspan.go, rowsize.go, rowcells.go,
// gridselect.go, the focus in keyboard.go).
type RowsTable struct {
	app.Compo
	File  *decode.File
	Rows  int64 // row count (estimated while the file is being indexed)
	Start int64 // the first position in view when File is first shown (a link's row), or a result
	// Order is the file rows the grid's positions show (a sort's or
	// filter's result; nil: all, in file order), OrderGen counts the
	// results shown: when it changes the grid goes back to Start.
	Order    session.Order
	OrderGen int
	Sort     session.SortShown // the sort the headers show
	Heads    []session.ColSort // what each column's header sorts by (nil: no sorting)
	// Masks are the masks offered over image columns' thumbnails, and
	// whether each is drawn (thumbmaskplan.go); an image column's header
	// turns its mask on and off (masktoggle.go).
	Masks []session.ThumbMask
	// Placement is File.Placement when the parent drew the table: a
	// dataset's rows placed again as its files open (OnUpdate loads the
	// rows drawn where they are now).
	Placement int

	shown  *decode.File  // the file the state below belongs to
	gen    int           // the OrderGen the state below belongs to
	geom   tableGeometry // the container's size, the pixel ratio, the preview size (rowsize.go)
	scroll rowScroll     // the first row in view and the rows drawn around it (rowspan.go)
	cols   colView       // the columns' scroll, widths and resizing (columns.go)
	focus  gridFocus     // the cell the keyboard is on (keyboard.go)
	sel    gridSelection // the tensor cells selected to compare (gridselect.go)
	loads  rowLoads      // the reads under way (rowloads.go)
	cache  cellCache     // the summarised cells of the rows drawn lately (rowcells.go)
	placed int           // the File.Placement the cells kept belong to
	thumbs *thumbQueue   // the decoding budget of image thumbnails, shared with the rows drawn (made by Render)
	screen firstScreen   // the rows in view first, then the rest (firstscreen.go)
}

// OnMount loads the batches of the first rows.
func (r *RowsTable) OnMount(ctx app.Context) {
	perfmark.Mark("rows-mount")
	r.shown, r.gen = r.File, r.OrderGen
	r.File.Forget(decode.Cancelled) // read as any others: see OnUpdate
	drawn := r.geom
	r.geom.dpr = app.Window().Get("devicePixelRatio").Float()
	_ = ctx.LocalStorage().Get(previewSizeKey, &r.geom.preview)
	if r.geom == drawn {
		// Render drew with these already (cells reads the ratio): go-app
		// would render the table and the page again after OnMount.
		ctx.PreventUpdate()
	}
	place := func(ctx app.Context) {
		perfmark.Mark("rows-measure")
		if r.measure() { // the page's layout gives the table its height
			ctx.Update()
		}
		r.scrollToStart()
	}
	if r.Start > 0 {
		ctx.Defer(place) // a link's row: in the first frame shown
	} else {
		// The first frame shows the rows that fit the default height;
		// the layout is read once it is painted.
		kit.AfterPaint(ctx, place)
	}
	// The reads of the rows in view start now, not in a Defer: go-app
	// runs OnMount as a dispatch after the frame that mounted the table,
	// and a Defer of it only after its next frame (the browser paints in
	// between). The rows past the view come once the rows in view are
	// shown (rowsIn).
	r.screen.restart()
	r.fetch(ctx)
	r.handle(ctx)
}

// handle registers the handlers of the actions the table's parts send
// to it, and those the page sends as the inspector closes.
func (r *RowsTable) handle(ctx app.Context) {
	ActionCancelRead.Handle(ctx, func(ctx app.Context) {
		r.loads.cancel()
		ctx.Update()
	})
	// Sent by a cancelled row's button, which is gone once the row
	// redraws (and go-app drops what its context dispatches): the table's
	// own context reads the rows again.
	actionReadAgain.Handle(ctx, func(ctx app.Context) {
		r.File.Forget(decode.Cancelled)
		r.fetch(ctx)
		ctx.Update()
	})
	actionSelect.Handle(ctx, func(ctx app.Context, c selectedCell) {
		r.sel.toggle(c)
		ctx.Update()
	})
	actionClearSelection.Handle(ctx, func(ctx app.Context) {
		if r.sel.clear() {
			ctx.Update()
		}
	})
	ActionAt.Handle(ctx, func(ctx app.Context, t Target) {
		r.focus.at(t, r.Order, len(r.File.Fields()))
		ctx.Update()
	})
	ActionKey.Handle(ctx, func(ctx app.Context, k keyPress) {
		if r.key(ctx, k) {
			ctx.Update()
		}
	})
	ActionFocus.Handle(ctx, func(ctx app.Context) { r.goTo(ctx, r.focus.gridCell) })
	actionGoTo.Handle(ctx, func(ctx app.Context, row int64) {
		if row < 0 || row >= r.Rows {
			ctx.PreventUpdate()
			return
		}
		r.goTo(ctx, gridCell{row, r.focus.col})
	})
	actionResize.Handle(ctx, func(ctx app.Context, a colResize) {
		if !r.cols.resize(a, r.fitWidth) {
			ctx.PreventUpdate()
		}
	})
}

// OnDismount stops the loads under way.
func (r *RowsTable) OnDismount() { r.loads.cancel() }

// settle adds the overscan rows after a file's first screen (rowsIn), which
// draws only the rows in view so that they show sooner, in two frames
// (drawStep).
func (r *RowsTable) settle(ctx app.Context) {
	if r.scroll.settle() {
		perfmark.Mark("settle")
		r.fetch(ctx)
		ctx.Update()
		// From a Defer: after go-app has drawn this step.
		ctx.Defer(func(ctx app.Context) { kit.AfterPaint(ctx, r.grow) })
	}
}

// grow is settle's second step: the rest of the overscan rows.
func (r *RowsTable) grow(ctx app.Context) {
	if r.scroll.grow() {
		perfmark.Mark("grown")
		r.fetch(ctx)
		ctx.Update()
	}
}

// OnUpdate resets the window when another file is passed in.
func (r *RowsTable) OnUpdate(ctx app.Context) {
	if r.File != r.shown {
		r.shown = r.File
		r.loads.reset()
		// A file shown anew reads the windows whose reads were cancelled
		// before (by the loads just cancelled, when it was shown last):
		// only a cancel while it is shown offers to read again.
		r.File.Forget(decode.Cancelled)
		r.scroll.reset()
		r.cache.clear()
		r.sel.clear() // cells of the file shown before
		ctx.Defer(func(ctx app.Context) { r.scrollToStart() })
		r.screen.restart()
		r.gen = r.OrderGen
	} else if r.OrderGen != r.gen {
		// Another result (a sort, a filter): from its start (or a
		// link's row in it).
		r.gen = r.OrderGen
		r.scroll.reset()
		ctx.Defer(func(ctx app.Context) { r.scrollToStart() })
		r.screen.restart()
	}
	ctx.Defer(r.fetch)
}

// span returns the rows drawn, [from, to) (rowScroll.span).
func (r *RowsTable) span() (from, to int) {
	return r.scroll.span(int(r.Rows), inView(r.geom.height(), r.rowH()))
}

// cells are the summarised cells of a row, their previews drawn at most
// as large as they show (PreviewBox).
func (r *RowsTable) cells(row int64, columns int) []summary.Cell {
	if r.geom.dpr == 0 {
		// Render comes before OnMount: the first rows' previews too are
		// drawn at their displayed size.
		r.geom.dpr = app.Window().Get("devicePixelRatio").Float()
	}
	box := r.geom.box(r.File.HasPreviews())
	if p := r.File.Placement(); p != r.placed {
		r.placed = p // a dataset's rows moved: what was kept by row may be another row's
		r.cache.clear()
	}
	return r.cache.get(row, cellKey{box: box, masks: session.MasksKey(r.Masks)}, func() []summary.Cell {
		c := make([]summary.Cell, columns)
		for i := range c {
			c[i] = summary.In(r.File, row, i, box[0], box[1])
		}
		withMasks(r.File, row, c, r.Masks)      // thumbmaskplan.go
		boxes.OnThumbnails(r.File, row, c, box) // boxplan.go
		perfmark.Mark("row-summarised")
		return c
	})
}

// rowH is the height of a row in CSS pixels.
func (r *RowsTable) rowH() int { return r.geom.rowH(r.File.HasPreviews()) }

// measure reads the scrolling container's size and reports whether it
// changed.
func (r *RowsTable) measure() bool {
	v := r.view()
	if !v.Truthy() {
		return false
	}
	return r.geom.measured(v.Get("clientHeight").Int(), v.Get("clientWidth").Int())
}

// OnResize draws the rows the new window size shows.
func (r *RowsTable) OnResize(ctx app.Context) {
	r.geom.dpr = app.Window().Get("devicePixelRatio").Float()
	if !r.measure() {
		ctx.PreventUpdate()
		return
	}
	r.scroll.placed(r.scroll.top, r.Rows, r.geom.height(), r.rowH())
	ctx.Defer(r.fetch)
}

func (r *RowsTable) onScroll(ctx app.Context, e app.Event) {
	top, left := ctx.JSSrc().Get("scrollTop").Float(), ctx.JSSrc().Get("scrollLeft").Float()
	first := firstRow(top, r.Rows, r.geom.height(), r.rowH())
	_, scaled := geometry(r.Rows, r.rowH())
	n := len(r.File.Fields())
	cFrom, cTo := r.cols.span(n, r.geom.width())
	rFrom, rTo := r.span()
	prevTop := r.scroll.top
	r.cols.left = left
	if r.scroll.scrolled(first, top) {
		ActionFirstRow.Send(ctx, int64(first))
	}
	nf, nt := r.cols.span(n, r.geom.width())
	sf, st := r.span()
	// Scaled, the rows' places follow the scroll position; else, while
	// the rows and columns drawn are the same, the browser scrolls them.
	if nf == cFrom && nt == cTo && sf == rFrom && st == rTo && (!scaled || top == prevTop) {
		ctx.PreventUpdate()
		return
	}
	ctx.Defer(r.fetch)
}

// scrollToStart puts row Start at the top of the view (0: the top).
func (r *RowsTable) scrollToStart() {
	v := r.view()
	if !v.Truthy() {
		return
	}
	row := min(max(r.Start, 0), max(r.Rows-1, 0))
	rowH := r.rowH()
	top := float64(row * int64(rowH))
	if spacer, scaled := geometry(r.Rows, rowH); scaled {
		top = scaledTop(row, r.Rows, rowH, spacer, float64(r.geom.height()-headerHeight))
	}
	v.Set("scrollTop", top)
	r.scroll.placed(v.Get("scrollTop").Float(), r.Rows, r.geom.height(), rowH)
}

// Render draws the header and the rows in view.
func (r *RowsTable) Render() app.UI {
	perfmark.Mark("rows-render")
	if r.thumbs == nil {
		r.thumbs = &thumbQueue{}
	}
	f := r.File
	n := int(r.Rows)
	from, to := r.span()
	used, budget := f.CacheBytes()
	fields := f.Fields()
	kind := r.geom.kind(r.File.HasPreviews())
	spacer, _ := geometry(r.Rows, r.rowH())
	cFrom, cTo := r.cols.span(len(fields), r.geom.width())
	cols := colRange(cFrom, cTo)
	grid, width := gridColumns(len(fields), cFrom, cTo, r.cols.widths, minWidths(fields, r.geom.width()))
	return app.Section().Class("rows").Body(
		app.Div().Class("rows-title").Body(
			app.H2().Text(fmt.Sprintf("Rows (%d)", n)),
			gotoRow(r.Rows),
			app.If(kind != kindText, func() app.UI { return r.sizeSelect() }),
			r.sel.bar(fields),
			app.Span().Class("cache").Attr("data-role", "cache").Attr("data-bytes", used).Attr("data-budget", budget).
				Title("decoded record batches kept in memory").
				Text(fmt.Sprintf("cache %s of %s", decode.HumanBytes(used), decode.HumanBytes(budget))),
		),
		// A fixed container, so that the rows keep their place (go-app
		// matches children by position).
		app.Div().Class("messages").Body(
			app.If(r.loads.reading != nil, func() app.UI {
				return &kit.ProgressBar{Task: "read", Progress: *r.loads.reading, OnCancel: ActionCancelRead}
			}),
		),
		// An ARIA grid: the rows say their place (aria-rowindex), as their
		// page order is not row order while scrolling (rowViews).
		app.Div().Class("rows-view").Attr("data-role", "rows").Attr("data-size", string(kind)).Attr("data-settled", r.scroll.step == drawAll).
			Attr("data-first-screen", r.screen.step.String()).
			Role("grid").Aria("label", "Rows").Aria("rowcount", n+1).Aria("colcount", len(fields)+1).Aria("multiselectable", true).
			OnScroll(r.onScroll).OnKeyDown(r.onKey).On("focusin", r.onFocusIn).Body(
			app.Div().Class("rows-header").Role("row").Aria("rowindex", 1).Style("grid-template-columns", grid).Style("width", width).Body(
				app.Div().Class("row-index").Role("columnheader").Aria("colindex", 1).Text("#"),
				colSpacer(len(fields)),
				app.Range(cols).Slice(func(i int) app.UI { return headOf(cols[i], fields[cols[i]], r.Heads, r.Sort, r.Masks) }),
				colSpacer(len(fields)),
			),
			app.Div().Class("rows-body").Role("rowgroup").Style("height", fmt.Sprintf("%dpx", spacer)).Style("width", width).Body(
				r.rowViews(from, to, grid, fields, cols)...,
			),
		),
	)
}

// rowViews are the rows body's children: slot by slot, the row drawn in it
// or an empty slot. A row keeps its slot (its element) while it stays
// drawn, so scrolling redraws only the rows that come into view; the page
// order of the rows is a rotation of row order then, which the grid's
// aria-rowindex numbers say.
func (r *RowsTable) rowViews(from, to int, grid string, fields []decode.FieldInfo, cols []int) []app.UI {
	// The rows' places: as many as the rows drawn for the view's height
	// and row height, so that row i always takes place i mod s.
	s := slotCount(inView(r.geom.height(), r.rowH()))
	views := make([]app.UI, s)
	for k := range views {
		i := from + ((k-from)%s+s)%s // the row of [from, from+s) in slot k
		if i >= to {
			views[k] = &RowView{Row: -1}
			continue
		}
		views[k] = r.row(int64(i), grid, fields, cols)
	}
	return views
}

// row is the snapshot of the row at position i: the file row
// session.FileRow(r.Order, i) (its data, its number in the row header), at place i.
func (r *RowsTable) row(i int64, grid string, fields []decode.FieldInfo, cols []int) *RowView {
	row := session.FileRow(r.Order, i)
	v := &RowView{Row: row, Pos: i, Top: r.scroll.rowTop(i, r.Rows, r.rowH()), Grid: grid, Fields: fields, Cols: cols, Focus: -1, Thumbs: r.thumbs}
	_, v.Shard, _ = r.File.ShardOf(row)
	_, _, located := r.File.Window(row)
	if v.State = rowStateOf(located, r.File.WindowState(row)); v.State == rowShown {
		v.Cells = r.cells(row, len(fields))
		v.Focus = r.focus.colIn(i)
		v.Selected = r.sel.colsIn(row)
	}
	return v
}
