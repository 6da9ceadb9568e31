package grid

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
)

// The rows table's reads: the row windows of the rows drawn are loaded in
// the background, those of the rows past them read ahead once the rows
// drawn are in,
// and the big reads under way shown as a progress bar. Which windows to read
// is plain Go (toLoad, toPrefetch; native tests: rowloads_test.go).

// rowLoads are the loads of the file shown under way.
type rowLoads struct {
	count    *atomic.Int32      // Load calls under way
	ctx      context.Context    // the loads' context
	stop     context.CancelFunc // cancels ctx (Cancel, another file)
	watching bool               // a goroutine reports the big reads under way
	reading  *session.Progress  // the big reads under way, shown as a progress bar
}

// begin returns the loads' context and count, made if there are none.
func (l *rowLoads) begin() (context.Context, *atomic.Int32) {
	if l.count == nil {
		l.count = new(atomic.Int32)
	}
	if l.ctx == nil {
		l.ctx, l.stop = context.WithCancel(context.Background())
	}
	return l.ctx, l.count
}

// cancel stops the big reads of the loads under way: their rows offer to
// read again.
func (l *rowLoads) cancel() {
	if l.stop != nil {
		l.stop()
	}
	l.ctx, l.stop = nil, nil
}

// reset cancels the loads under way and forgets them: another file is
// shown.
func (l *rowLoads) reset() {
	l.cancel()
	*l = rowLoads{}
}

// watched takes what a watcher saw: done of total bytes of big reads, and
// whether any load was left then (idle: none); pending is the loads under
// way now. It reports whether a new watcher must start (loads started after
// this one saw none).
func (l *rowLoads) watched(done, total int64, idle bool, pending int32) (again bool) {
	l.reading = nil
	if total > 0 && !idle {
		l.reading = &session.Progress{Label: "Reading record batch", Done: done, Total: total}
	}
	if !idle {
		return false
	}
	l.watching = pending > 0
	return l.watching
}

// windows is what the table asks a file of its row windows (*decode.File).
type windows interface {
	Window(row int64) (batch, window int, ok bool)
	WindowState(row int64) decode.WindowState
	WindowBytes(row int64) int64
}

// toLoad lists the file rows shown at positions [from, to) of o whose
// row windows the table loads, one row per window: those located and
// neither loaded, failed nor cancelled (their rows show the error, or
// offer to read again). asked gets their windows.
func toLoad(f windows, o session.Order, from, to int, asked map[[2]int]bool) []int64 {
	var rows []int64
	for i := from; i < to; i++ {
		row := session.FileRow(o, int64(i))
		b, w, ok := f.Window(row)
		key := [2]int{b, w}
		if !ok || asked[key] {
			continue
		}
		if s := f.WindowState(row); s == decode.Loaded || s == decode.Failed || s == decode.Cancelled {
			continue
		}
		asked[key] = true
		rows = append(rows, row)
	}
	return rows
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

// toPrefetch lists the file rows shown past positions [from, to) (above
// them when up) of n of o whose row windows are read ahead, one row per
// window: those unread, not in asked, and of at most prefetchMax bytes.
// asked gets their windows.
func toPrefetch(f windows, o session.Order, from, to, n int, up bool, asked map[[2]int]bool) []int64 {
	lo, hi := to, min(n, to+prefetchRows)
	if up {
		lo, hi = max(0, from-prefetchRows), from
	}
	var rows []int64
	for i := lo; i < hi; i++ {
		row := session.FileRow(o, int64(i))
		b, w, ok := f.Window(row)
		key := [2]int{b, w}
		if !ok || asked[key] || f.WindowState(row) != decode.Unread || f.WindowBytes(row) > prefetchMax {
			continue
		}
		asked[key] = true
		rows = append(rows, row)
	}
	return rows
}

// fetch loads, one goroutine per row window (a batch, or a window of its
// rows), the data of the rows drawn that is not in the cache, and redraws
// when each arrives (toLoad). A window being loaded already (by an earlier
// fetch, the inspector's column statistics) is read once: the file's cache
// has its callers wait for that load. ctx must be one that stays mounted
// with the table.
func (r *RowsTable) fetch(ctx app.Context) {
	lctx, loads := r.loads.begin()
	f := r.File
	from, to := r.span()
	asked := map[[2]int]bool{}
	placed := f.Placement()
	for _, row := range toLoad(f, r.Order, from, to, asked) {
		loads.Add(1)
		ctx.Async(func() {
			// How it ended, the file says (WindowState).
			if err := f.LoadContext(lctx, row); err != nil && lctx.Err() != nil && f.WindowState(row) == decode.Loading {
				// Cancel stopped this wait, not the load waited for
				// (this table's own earlier ask for the window, or
				// another caller's, such as the inspector's column
				// statistics): redraw when that load ends, without
				// starting another (a Cancelled load ends at once).
				_ = f.Await(context.Background(), row)
			}
			if f.Placement() != placed && lctx.Err() == nil {
				// A dataset's file opened (this load's, or another's):
				// its rows, and those after it, are in windows not
				// asked for yet.
				ctx.Dispatch(func(ctx app.Context) {
					if r.File == f {
						r.fetch(ctx)
					}
				})
			}
			if loads.Add(-1) == 0 {
				// The rows drawn are in: read the rest of their batches,
				// and ahead, now; a first screen goes on (rowsIn).
				ctx.Dispatch(func(ctx app.Context) {
					if r.File == f {
						r.rowsIn(ctx)
					}
					r.readRest(ctx, f, lctx)
					r.readAhead(f, lctx, nil)
				})
			}
			ctx.Dispatch(func(ctx app.Context) {
				if r.File == f {
					r.focus.giveDue(ctx, r) // the keyboard's cell, if it was in this row
				}
			})
			ctx.Update() // the table redraws its rows from the file's state
		})
	}
	if loads.Load() > 0 && !r.loads.watching {
		r.loads.watching = true
		r.watch(ctx, f, loads)
	}
	if loads.Load() == 0 {
		r.rowsIn(ctx)
		r.readRest(ctx, f, lctx)
		r.readAhead(f, lctx, asked)
	}
}

// toReadWhole lists, one row per record batch, the rows shown at positions
// [from, to) of o whose record batches the table reads whole once the rows
// drawn are in (decode.File.LoadBatchOf, which reads only batches read by
// small row windows, and only what their windows did not read): only in
// the file's own order (o nil; a sort's or filter's rows lie scattered
// over many batches, and are read by their windows alone), rows read by
// windows (window ≥ 0) and loaded (not failed, cancelled, or still loading).
func toReadWhole(f windows, o session.Order, from, to int) []int64 {
	if o != nil {
		return nil
	}
	var rows []int64
	seen := map[int]bool{}
	for row := int64(from); row < int64(to); row++ {
		b, w, ok := f.Window(row)
		if !ok || w < 0 || seen[b] || f.WindowState(row) != decode.Loaded {
			continue
		}
		seen[b] = true
		rows = append(rows, row)
	}
	return rows
}

// readRest reads the rest of the record batches of the rows drawn of f in
// the background (toReadWhole), once their thumbnails are drawn (the
// frame that renders the rows come in queues them; decoding the rest
// must not hold them up): by URL the first screen reads only its rows
// (small row windows), and scrolling on through their batches then finds
// their rows in. A batch read whole already costs nothing; nothing
// redraws when these end.
func (r *RowsTable) readRest(ctx app.Context, f *decode.File, lctx context.Context) {
	ctx.Dispatch(func(app.Context) { // after the frame this dispatch renders
		r.thumbs.afterIdle(func() {
			if r.File != f || lctx.Err() != nil {
				return
			}
			from, to := r.span()
			for _, row := range toReadWhole(f, r.Order, from, to) {
				go func() { _ = f.LoadBatchOf(lctx, row) }()
			}
		})
	})
}

// readAhead reads ahead (toPrefetch) past the rows drawn of f, once the
// table draws more than the rows in view, and only when the rows drawn
// need no load (their reads go first: by URL, each is a request).
// Nothing redraws when these arrive (fetch waits for a window being read
// and redraws then). asked are the windows fetch asked for (nil: none).
func (r *RowsTable) readAhead(f *decode.File, lctx context.Context, asked map[[2]int]bool) {
	if r.File != f || r.scroll.step == drawView || lctx.Err() != nil {
		return
	}
	if asked == nil {
		asked = map[[2]int]bool{}
	}
	from, to := r.span()
	for _, row := range toPrefetch(f, r.Order, from, to, int(r.Rows), r.scroll.up, asked) {
		go func() { _ = f.LoadContext(lctx, row) }()
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
				if r.loads.watched(done, total, idle, loads.Load()) {
					r.watch(ctx, f, loads)
				}
			})
			if idle {
				return
			}
		}
	})
}
