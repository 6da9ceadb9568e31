package ui

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// Geometry of the windowed rows table, in CSS pixels.
const (
	headerHeight = 36
	viewHeight   = 560 // height of the scrolling container until measured
	overscan     = 4   // rows drawn beyond each edge of the view
	cellCacheCap = 512 // rows whose summarised cells are kept
	// maxSpacer is the tallest scroll area drawn: browsers cap element
	// heights (about 33.5 million pixels in Chromium), so beyond this the
	// scroll position maps to rows proportionally.
	maxSpacer = 8_000_000
)

// Actions the rows table's parts send to it.
const (
	actionCancelRead signal = "tv/cancel-read" // stop the record batch reads under way (its progress bar's Cancel)
	actionReadAgain  signal = "tv/read-again"  // read the cancelled rows in view again (a cancelled row's button)
)

// RowsTable shows every row of every record batch in a windowed list: only
// the rows in view (plus a few) are in the DOM, so any number of rows
// scrolls at the same cost. Rows whose record batch is not in the file's
// cache show as loading while the batch is read in the background; how
// each read ended the file keeps (decode.File.WindowState): rows whose
// read failed show the error, rows whose read was cancelled offer to read
// again.
type RowsTable struct {
	app.Compo
	File  *decode.File
	Rows  int64 // row count (estimated while the file is being indexed)
	Start int64 // the first row in view when File is first shown (a link's row)

	viewH  int       // measured height of the scrolling container (0: viewHeight)
	size   string    // preview size: small, medium or large (remembered)
	viewW  int       // measured width of the scrolling container
	dpr    float64   // the window's devicePixelRatio (previews are drawn at their displayed size)
	left   float64   // its scrollLeft (columns.go)
	widths colWidths // columns the reader resized
	drag   *colDrag  // a column resize under way
	// the cell the keyboard is on (keyboard.go)
	focusRow  int64
	focusCol  int
	first     int          // first row in view
	up        bool         // the last scroll went up: rows are read ahead above the view (prefetch)
	settled   bool         // false for the first frame of a file: no overscan rows
	grown     bool         // settle's second step is done: all the overscan rows are drawn
	top       float64      // scrollTop of the rows container
	shown     *decode.File // the file the state below belongs to
	cache     map[int64][]summary.Cell
	cacheBox  [2]int        // the preview box of the cells in cache
	loads     *atomic.Int32 // Load calls under way for the file shown
	loadCtx   context.Context
	stopLoads context.CancelFunc // cancels the loads of loadCtx (Cancel, another file)
	watching  bool               // a goroutine reports the big reads under way
	reading   *progress          // the big reads under way, shown as a progress bar
	thumbs    thumbQueue         // the decoding budget of image thumbnails
}

// OnMount loads the batches of the first rows.
func (r *RowsTable) OnMount(ctx app.Context) {
	mark("rows-mount")
	r.shown = r.File
	r.File.Forget(decode.Cancelled) // read as any others: see OnUpdate
	dpr, size := r.dpr, r.size
	r.dpr = app.Window().Get("devicePixelRatio").Float()
	_ = ctx.LocalStorage().Get(previewSizeKey, &r.size)
	if r.dpr == dpr && r.size == size {
		// Render drew with these already (cells reads the ratio): go-app
		// would render the table and the page again after OnMount.
		ctx.PreventUpdate()
	}
	place := func(ctx app.Context) {
		mark("rows-measure")
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
		afterPaint(ctx, place)
	}
	ctx.Defer(r.fetch)
	afterPaint(ctx, r.settle)
	actionCancelRead.handle(ctx, func(ctx app.Context) {
		r.cancelLoads()
		ctx.Update()
	})
	// Sent by a cancelled row's button, which is gone once the row
	// redraws (and go-app drops what its context dispatches): the table's
	// own context reads the rows again.
	actionReadAgain.handle(ctx, func(ctx app.Context) {
		r.File.Forget(decode.Cancelled)
		r.fetch(ctx)
		ctx.Update()
	})
}

// OnDismount stops the loads under way.
func (r *RowsTable) OnDismount() { r.cancelLoads() }

// cancelLoads stops the big reads of the loads under way: their rows offer
// to read again.
func (r *RowsTable) cancelLoads() {
	if r.stopLoads != nil {
		r.stopLoads()
	}
	r.loadCtx, r.stopLoads = nil, nil
}

// settle adds the overscan rows after a file's first frame, which draws only
// the rows in view so that they show sooner. It adds them in two frames
// (settleSpan), so that neither is a long task: drawing all of them at once
// (up to 17 rows with their previews) took about 100 ms here.
func (r *RowsTable) settle(ctx app.Context) {
	if !r.settled {
		mark("settle")
		r.settled = true
		r.fetch(ctx)
		ctx.Update()
		// From a Defer: after go-app has drawn this step.
		ctx.Defer(func(ctx app.Context) { afterPaint(ctx, r.grow) })
	}
}

// grow is settle's second step: the rest of the overscan rows.
func (r *RowsTable) grow(ctx app.Context) {
	if r.settled && !r.grown {
		mark("grown")
		r.grown = true
		r.fetch(ctx)
		ctx.Update()
	}
}

// OnUpdate resets the window when another file is passed in.
func (r *RowsTable) OnUpdate(ctx app.Context) {
	if r.File != r.shown {
		r.shown = r.File
		r.cancelLoads()
		// A file shown anew reads the windows whose reads were cancelled
		// before (by the loads just cancelled, when it was shown last):
		// only a cancel while it is shown offers to read again.
		r.File.Forget(decode.Cancelled)
		r.first, r.top, r.cache, r.settled, r.grown = 0, 0, nil, false, false
		r.reading, r.loads, r.watching = nil, nil, false
		ctx.Defer(func(ctx app.Context) { r.scrollToStart() })
		afterPaint(ctx, r.settle)
	}
	ctx.Defer(r.fetch)
}

// span returns the rows drawn, [from, to): those in view and, after a
// file's first frame, overscan rows beyond each edge, the first rounded
// down to a multiple of rowBlock, and as many rows as there are slots
// (rowViews) drawn from there: with the edges on blocks, scrolling by a row
// changes nothing in the page until the view nears an edge; with a row in
// every slot, a row that comes into view takes the element of the one that
// leaves it (its cells and canvases are redrawn, not made anew).
func (r *RowsTable) span() (from, to int) {
	n := int(r.Rows)
	end := r.first + r.height()/r.rowH() + 1
	if !r.settled {
		return max(0, min(r.first, n-1)), min(n, end)
	}
	from, to = blockSpan(r.first, end, n)
	if !r.grown {
		to = settleSpan(from, to, min(n, end))
	}
	return from, to
}

// settleSpan is the end of the rows drawn in settle's first step, when the
// rows [from, to) are drawn once settled and the first frame drew the rows
// in view up to end: about half the rows past the view.
func settleSpan(from, to, end int) int {
	return max(from, min(to, end+(to-end+1)/2))
}

// rowBlock is the step by which the edges of the rows drawn move.
const rowBlock = 8

// slotCount is the number of rows drawn, and of slots for them, for
// views of rows [first, first+view): view and the overscan rows beyond each
// edge after rounding the first row drawn down to a block, rounded up to a
// block.
func slotCount(view int) int {
	return (view + 2*overscan + 2*(rowBlock-1)) / rowBlock * rowBlock
}

// blockSpan is [first-overscan, …) with its start rounded down to a
// multiple of rowBlock and slotCount(end-first) rows long (so that it
// reaches end+overscan), within [0, n).
func blockSpan(first, end, n int) (from, to int) {
	from = max(0, min(first, n-1)-overscan) / rowBlock * rowBlock
	return from, min(n, from+slotCount(end-first))
}

// fetch loads, one goroutine per row window (a batch, or a window of its
// rows), the data of the rows drawn that is not in the cache, and redraws
// when each arrives; windows whose read failed or was cancelled are left
// (their rows show the error, or offer to read again). A window being
// loaded already (by an earlier fetch, the inspector's column statistics)
// is read once: the file's cache has its callers wait for that load. ctx
// must be one that stays mounted with the table.
func (r *RowsTable) fetch(ctx app.Context) {
	if r.loads == nil {
		r.loads = new(atomic.Int32)
	}
	if r.loadCtx == nil {
		r.loadCtx, r.stopLoads = context.WithCancel(context.Background())
	}
	f, loads, lctx := r.File, r.loads, r.loadCtx
	from, to := r.span()
	asked := map[[2]int]bool{}
	for i := from; i < to; i++ {
		row := int64(i)
		b, w, ok := f.Window(row)
		key := [2]int{b, w}
		if !ok || asked[key] {
			continue
		}
		if s := f.WindowState(row); s == decode.Loaded || s == decode.Failed || s == decode.Cancelled {
			continue
		}
		asked[key] = true
		loads.Add(1)
		ctx.Async(func() {
			// How it ended, the file says (WindowState).
			if err := f.LoadContext(lctx, row); err != nil && lctx.Err() != nil && f.WindowState(row) == decode.Loading {
				// Cancel stopped this wait, not the load waited for
				// (another caller's, such as the inspector's column
				// statistics): redraw when that load ends.
				_ = f.LoadContext(context.Background(), row)
			}
			loads.Add(-1)
			ctx.Update() // the table redraws its rows from the file's state
		})
	}
	if loads.Load() > 0 && !r.watching {
		r.watching = true
		r.watch(ctx, f, loads)
	}
	if r.settled {
		r.prefetch(ctx, from, to, asked)
	}
}

// Reading ahead: while scrolling, the row windows of the prefetchRows rows
// past the edge of the rows drawn, in the direction of the last scroll, are
// read before they come into view, so that a row comes in with its data
// (one redraw) instead of loading first (two, and a frame later). Windows
// larger than prefetchMax (record batches read whole) are left to fetch.
const (
	prefetchRows = 2 * rowBlock
	prefetchMax  = 4 << 20
)

// prefetch starts reading the row windows of the rows past [from, to) that
// are unread and not asked for already; nothing redraws when they arrive
// (fetch waits for a window being read and redraws then).
func (r *RowsTable) prefetch(ctx app.Context, from, to int, asked map[[2]int]bool) {
	f, lctx := r.File, r.loadCtx
	lo, hi := to, min(int(r.Rows), to+prefetchRows)
	if r.up {
		lo, hi = max(0, from-prefetchRows), from
	}
	for i := lo; i < hi; i++ {
		row := int64(i)
		b, w, ok := f.Window(row)
		key := [2]int{b, w}
		if !ok || asked[key] || f.WindowState(row) != decode.Unread || f.WindowBytes(row) > prefetchMax {
			continue
		}
		asked[key] = true
		ctx.Async(func() { _ = f.LoadContext(lctx, row) })
	}
}

// watch shows the big reads of f under way (record batches read whole)
// as a progress bar, checking every 100 ms until no load is left.
func (r *RowsTable) watch(ctx app.Context, f *decode.File, loads *atomic.Int32) {
	ctx.Async(func() {
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		var shown [2]int64
		for range tick.C {
			done, total := f.Reading()
			idle := loads.Load() == 0
			if !idle && shown == [2]int64{done, total} {
				continue // nothing new to draw
			}
			shown = [2]int64{done, total}
			ctx.Dispatch(func(ctx app.Context) {
				if r.File != f {
					return // another file is shown, with a watcher of its own
				}
				r.reading = nil
				if total > 0 && !idle {
					r.reading = &progress{Label: "Reading record batch", Done: done, Total: total}
				}
				if idle {
					r.watching = false
					if loads.Load() > 0 {
						// Loads started after this goroutine saw none.
						r.watching = true
						r.watch(ctx, f, loads)
					}
				}
			})
			if idle {
				return
			}
		}
	})
}

// cells are the summarised cells of a row, their previews drawn at most
// as large as they show (previewBox).
func (r *RowsTable) cells(row int64, columns int) []summary.Cell {
	if r.dpr == 0 {
		// Render comes before OnMount: the first rows' previews too are
		// drawn at their displayed size.
		r.dpr = app.Window().Get("devicePixelRatio").Float()
	}
	box := previewBox(r.rowKind(), r.dpr)
	if r.cache == nil || len(r.cache) > cellCacheCap || box != r.cacheBox {
		r.cache, r.cacheBox = map[int64][]summary.Cell{}, box
	}
	if c, ok := r.cache[row]; ok {
		return c
	}
	c := make([]summary.Cell, columns)
	for i := range c {
		c[i] = summary.In(r.File, row, i, box[0], box[1])
	}
	r.cache[row] = c
	mark("row-summarised")
	return c
}

// Row heights in CSS pixels by what the rows show: one line of text when
// the file has no tensor column, else room for previews of the chosen size
// (web/style.css draws the same heights).
var rowHeights = map[string]int{"text": 36, "small": 52, "medium": 84, "large": 164}

// previewBoxes are the content boxes of previews in CSS pixels by preview
// size (web/style.css: canvas.preview's size less its 1 px border).
var previewBoxes = map[string][2]int{"small": {54, 38}, "medium": {94, 68}, "large": {198, 148}}

// previewBox is the largest preview drawn for rows of the given kind, in
// device pixels: larger images are sampled down to it (0×0 for rows
// without previews: no limit).
func previewBox(kind string, dpr float64) [2]int {
	b, ok := previewBoxes[kind]
	if !ok || dpr <= 0 {
		return [2]int{}
	}
	return [2]int{int(math.Ceil(float64(b[0]) * dpr)), int(math.Ceil(float64(b[1]) * dpr))}
}

// previewSizes are the choices of the preview size control, in order.
var previewSizes = []string{"small", "medium", "large"}

// previewSizeKey is the local storage key that remembers the choice.
const previewSizeKey = "tensorview-preview-size"

// rowKind is "text" for a file without tensor columns, else the preview
// size.
func (r *RowsTable) rowKind() string {
	if !r.File.HasPreviews() {
		return "text"
	}
	if _, ok := rowHeights[r.size]; ok && r.size != "text" {
		return r.size
	}
	return "medium"
}

// rowH is the height of a row in CSS pixels.
func (r *RowsTable) rowH() int { return rowHeights[r.rowKind()] }

// geometry returns the height of the scroll area for rows of rowH pixels
// and whether rows are mapped to it proportionally (too many rows for one
// pixel row each).
func geometry(rows int64, rowH int) (spacer int64, scaled bool) {
	h := rows * int64(rowH)
	if h > maxSpacer {
		return maxSpacer, true
	}
	return h, false
}

// height is the height in CSS pixels of the scrolling container: the space
// the page leaves it, as last measured.
func (r *RowsTable) height() int {
	if r.viewH > 0 {
		return r.viewH
	}
	return viewHeight
}

// measure reads the scrolling container's height and reports whether it
// changed.
func (r *RowsTable) measure() bool {
	el := r.JSValue()
	if !el.Truthy() {
		return false
	}
	v := el.Call("querySelector", "[data-role=rows]")
	if !v.Truthy() {
		return false
	}
	h, w := v.Get("clientHeight").Int(), v.Get("clientWidth").Int()
	if h <= 0 || (h == r.viewH && w == r.viewW) {
		return false
	}
	r.viewH, r.viewW = h, w
	return true
}

// OnResize draws the rows the new window size shows.
func (r *RowsTable) OnResize(ctx app.Context) {
	r.dpr = app.Window().Get("devicePixelRatio").Float()
	if !r.measure() {
		ctx.PreventUpdate()
		return
	}
	r.first = firstRow(r.top, r.Rows, r.height(), r.rowH())
	ctx.Defer(r.fetch)
}

// firstRow is the first row in view for a scroll position in a container
// of the given height, with rows of rowH pixels.
func firstRow(top float64, rows int64, height, rowH int) int {
	spacer, scaled := geometry(rows, rowH)
	if !scaled {
		return int(top) / rowH
	}
	visible := int64(height-headerHeight) / int64(rowH)
	frac := top / float64(spacer-int64(height-headerHeight))
	return int(math.Min(1, math.Max(0, frac)) * float64(rows-visible))
}

func (r *RowsTable) onScroll(ctx app.Context, e app.Event) {
	top, left := ctx.JSSrc().Get("scrollTop").Float(), ctx.JSSrc().Get("scrollLeft").Float()
	first := firstRow(top, r.Rows, r.height(), r.rowH())
	_, scaled := geometry(r.Rows, r.rowH())
	n := len(r.File.Fields())
	cFrom, cTo := r.columns(n)
	rFrom, rTo := r.span()
	prevFirst, prevTop := r.first, r.top
	r.left, r.first, r.top = left, first, top
	if first != prevFirst {
		r.up = first < prevFirst
		actionFirstRow.send(ctx, int64(first))
	}
	nf, nt := r.columns(n)
	sf, st := r.span()
	// Scaled, the rows' places follow the scroll position; else, while
	// the rows and columns drawn are the same, the browser scrolls them.
	if nf == cFrom && nt == cTo && sf == rFrom && st == rTo && (!scaled || top == prevTop) {
		ctx.PreventUpdate()
		return
	}
	ctx.Defer(r.fetch)
}

// scaledTop is the scrollTop that shows row first when the spacer is scaled
// (a file too long for its true height): firstRow's mapping inverted.
func (r *RowsTable) scaledTop(row, spacer int64, visible float64) float64 {
	fit := int64(visible) / int64(r.rowH())
	return min(1, float64(row)/float64(max(1, r.Rows-fit))) * (float64(spacer) - visible)
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
		top = r.scaledTop(row, spacer, float64(r.height()-headerHeight))
	}
	v.Set("scrollTop", top)
	top = v.Get("scrollTop").Float()
	r.first, r.top = firstRow(top, r.Rows, r.height(), rowH), top
}

// Render draws the header and the rows in view.
func (r *RowsTable) Render() app.UI {
	mark("rows-render")
	f := r.File
	n := int(r.Rows)
	from, to := r.span()
	used, budget := f.CacheBytes()
	fields := f.Fields()
	kind := r.rowKind()
	spacer, _ := geometry(r.Rows, r.rowH())
	cFrom, cTo := r.columns(len(fields))
	cols := colRange(cFrom, cTo)
	grid, width := gridColumns(len(fields), cFrom, cTo, r.widths, minWidths(fields, r.width()))
	return app.Section().Class("rows").Body(
		app.Div().Class("rows-title").Body(
			app.H2().Text(fmt.Sprintf("Rows (%d)", n)),
			r.gotoRow(),
			app.If(kind != "text", func() app.UI { return r.sizeSelect() }),
			app.Span().Class("cache").Attr("data-role", "cache").Attr("data-bytes", used).Attr("data-budget", budget).
				Title("decoded record batches kept in memory").
				Text(fmt.Sprintf("cache %s of %s", decode.HumanBytes(used), decode.HumanBytes(budget))),
		),
		// A fixed container, so that the rows keep their place (go-app
		// matches children by position).
		app.Div().Class("messages").Body(
			app.If(r.reading != nil, func() app.UI {
				return &ProgressBar{Task: "read", Progress: *r.reading, OnCancel: actionCancelRead}
			}),
		),
		// An ARIA grid: the rows say their place (aria-rowindex), as their
		// page order is not row order while scrolling (rowViews).
		app.Div().Class("rows-view").Attr("data-role", "rows").Attr("data-size", kind).Attr("data-settled", r.grown).
			Role("grid").Aria("label", "Rows").Aria("rowcount", n+1).Aria("colcount", len(fields)+1).
			OnScroll(r.onScroll).OnKeyDown(r.onKey).On("focusin", r.onFocusIn).Body(
			app.Div().Class("rows-header").Role("row").Aria("rowindex", 1).Style("grid-template-columns", grid).Style("width", width).Body(
				app.Div().Class("row-index").Role("columnheader").Aria("colindex", 1).Text("#"),
				colSpacer(len(fields)),
				app.Range(cols).Slice(func(i int) app.UI {
					f := fields[cols[i]]
					return app.Div().Class("col-head").Role("columnheader").Aria("colindex", cols[i]+2).Attr("data-col", cols[i]).Title(f.Type).Body(
						app.Span().Class("col-name").Text(f.Name),
						r.resizeHandle(cols[i]),
					)
				}),
				colSpacer(len(fields)),
			),
			app.Div().Class("rows-body").Role("rowgroup").Style("height", fmt.Sprintf("%dpx", spacer)).Style("width", width).Body(
				r.rowViews(from, to, grid, fields, cols)...,
			),
		),
	)
}

// slots is the number of rows' places in the rows body: the rows drawn
// (span) for the view's height and row height, so that row i always takes
// place i mod slots, whichever rows are drawn with it.
func (r *RowsTable) slots() int {
	return slotCount(r.height()/r.rowH() + 1)
}

// rowViews are the rows body's children: slot by slot, the row drawn in it
// or an empty slot. A row keeps its slot (its element) while it stays
// drawn, so scrolling redraws only the rows that come into view; the page
// order of the rows is a rotation of row order then, which the grid's
// aria-rowindex numbers say.
func (r *RowsTable) rowViews(from, to int, grid string, fields []decode.FieldInfo, cols []int) []app.UI {
	s := r.slots()
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

// row is the snapshot of row i.
func (r *RowsTable) row(i int64, grid string, fields []decode.FieldInfo, cols []int) *RowView {
	h := int64(r.rowH())
	top := i * h
	if _, scaled := geometry(r.Rows, int(h)); scaled {
		top = int64(r.top) + (i-int64(r.first))*h
	}
	v := &RowView{Row: i, Top: top, Grid: grid, Fields: fields, Cols: cols, Focus: -1, Thumbs: &r.thumbs}
	_, _, located := r.File.Window(i)
	switch state := r.File.WindowState(i); {
	case !located:
		v.State = rowIndexing
	case state == decode.Cancelled:
		v.State = rowCancelled
	case state == decode.Unread || state == decode.Loading:
		v.State = rowLoading
	default:
		v.Cells = r.cells(i, len(fields))
		if i == r.focusRow {
			v.Focus = r.focusCol
		}
	}
	return v
}
