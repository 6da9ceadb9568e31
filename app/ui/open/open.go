package open

import (
	"context"
	"errors"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/internal/perfmark"
)

// Opening a file (ActionOpen, whatever it came from):
//
//	Open            UI goroutine: claims the open, says "Reading …"
//	└ openSource    ctx.Async: sniffs the format, opens it (Arrow, or
//	                Parquet in parquet-wasm's worker), reads its first rows
//	                (a big first batch: starts reading it); its result goes
//	                into a channel of one
//	awaitOpen       UI goroutine: waits up to quickOpen for that result,
//	                else hands the wait to a goroutine that dispatches it
//	show            UI goroutine: shows the file, unless a newer open
//	                overtook it (opens counts them)
//	AfterFirstScreen once the rows table's first screen is shown (its rows
//	                in view read and painted, their thumbnails drawn;
//	                the rows table's firstscreen.go): fills the closed schema panel, indexes
//	                the record batches

// Page is what an opener needs of the page it opens files for.
type Page interface {
	// Apply tells the page's session model a (the file shown:
	// session.Opened) and carries out its effects.
	Apply(ctx app.Context, a session.Action)
	// File is the file shown (level 0), nil for none.
	File() *decode.File
	// SchemaOpen is the schema panel's remembered state: a file opened
	// without a link opens with it.
	SchemaOpen() bool
}

// Actions of opening files.
const (
	ActionOpen       kit.Action[source]            = "tv/open"        // a file to open
	ActionWarmedUp   kit.Action[WarmUpResult]      = "tv/warmed-up"   // how the warm-up ended (WarmUp)
	ActionOpenURL    kit.Action[string]            = "tv/open-url"    // the address as typed or in ?url=
	ActionOpenFailed kit.Action[OpenFailure]       = "tv/open-failed" // what was dropped or picked that cannot be opened, and why
	ActionProgress   kit.Action[*session.Progress] = "tv/progress"    // the download under way
	ActionChanged    kit.Action[string]            = "tv/changed"     // the error: the file changed on the server
	ActionCancel     kit.Signal                    = "tv/cancel"      // stop indexing (the progress bar's Cancel)
)

// quickOpen is how long opening a file may hold the page before it shows
// "Reading …": a file that opens sooner shows its rows in the next frame,
// without a frame of the message in between (go-app draws a dispatch's
// changes one frame, 8 ms, after it).
const quickOpen = 100 * time.Millisecond

// sniffLen is how many of a file's first bytes tell its format
// (decode.Sniff).
const sniffLen = 16

// openResult is what opening a source gave: the file, or why not; src is the
// source, whose Close closes the Parquet reader too when it opened one.
type openResult struct {
	f     *decode.File
	src   source
	err   error
	early context.CancelFunc // stops the read of the first rows started by the open (nil: none)
}

// Open reads a file's schema and batch locations off the UI goroutine,
// shows it, then indexes the rest of its record batches in the background
// with a progress bar that can be cancelled.
func (op *Opener) Open(ctx app.Context, src source) {
	perfmark.Mark("open-action")
	gen, ok := op.claim(src)
	if !ok {
		src.stop() // a URL that another file overtook
		return
	}
	op.StopIndexing()
	if op.WarmUp == WarmUpPending {
		op.WarmUp = WarmUpSkipped // the first file compiles what the warm-up would have
	}
	op.Status.Reading(src.Name)
	// Buffered: the goroutine that opens the file never waits for the UI.
	done := make(chan openResult, 1)
	budget := op.Budget
	ctx.Async(func() { done <- op.openSource(ctx, gen, src, budget) })
	op.awaitOpen(ctx, gen, done)
	ctx.Update()
}

// claim numbers an open: a source asked for now (gen 0) overtakes any file
// being opened; one asked for earlier (a file by URL, fetched meanwhile)
// is dropped (ok false) when another open overtook it.
func (op *Opener) claim(src source) (gen int, ok bool) {
	if src.gen == 0 {
		op.opens++
	} else if src.gen != op.opens {
		return 0, false
	}
	return op.opens, true
}

// openSource opens src within budget: an Arrow IPC file or stream with
// decode.OpenReader, a Parquet file (decode.Sniff of its first bytes) in
// the Parquet reader's worker, which the page says it waits for. A small
// first record batch is read too, so that the table shows its rows in its
// first frame instead of a round of "loading…" (a bigger read is left to
// the table, which shows its progress). It blocks: run it in ctx.Async.
func (op *Opener) openSource(ctx app.Context, gen int, src source, budget int64) openResult {
	perfmark.Mark("open-start")
	var f *decode.File
	var err error
	if len(src.Shards) > 0 {
		f, src, err = openDataset(src, budget)
		if err == nil && src.sizes != nil {
			op.lateSizes(ctx, f, src.sizes)
		}
	} else if sniff(src) == decode.Parquet {
		ctx.Dispatch(func(ctx app.Context) {
			if gen == op.opens && op.Status.State == StateLoading {
				op.Status.Phase = "Loading the Parquet reader…"
			}
		})
		f, src, err = openParquet(src, budget)
	} else {
		f, err = decode.OpenReader(src.Name, src.Reader, src.Size, readOptions(src, budget))
	}
	perfmark.Mark("opened")
	var early context.CancelFunc
	if err == nil && f.WindowBytes(0) < decode.BigRead {
		_ = f.Load(0)
		perfmark.Mark("loaded")
	} else if err == nil {
		// A bigger first window (a record batch read whole) is read from
		// now on, while the page draws the file: the rows table's read of
		// it waits for this one, and its Cancel stops it (the Viewer's
		// actionCancelRead).
		var ectx context.Context
		ectx, early = context.WithCancel(context.Background())
		go func() {
			defer early()
			_ = f.LoadContext(ectx, 0)
		}()
	}
	return openResult{f, src, err, early}
}

// readOptions are the decoder's options for src within budget: a file
// read by URL with HTTP Range (no Blob: every read a request) is read by
// small row windows even in small record batches
// (decode.RemoteRowWindow), so that rows scattered over many batches (a
// sorted result) cost a few KiB each rather than their batches.
func readOptions(src source, budget int64) decode.Options {
	opt := decode.Options{Budget: budget}
	if src.URL != "" && src.Blob == nil {
		opt.RowWindow = decode.RemoteRowWindow
	}
	return opt
}

// sniff is the format of src from its first bytes, "" when they cannot be
// read or are no format (decode.OpenReader then says why).
func sniff(src source) decode.Format {
	head := make([]byte, min(src.Size, sniffLen))
	if n, _ := src.Reader.ReadAt(head, 0); n < len(head) {
		return ""
	}
	format, _ := decode.Sniff(head)
	return format
}

// openParquet opens the Parquet file src in the Parquet reader's worker;
// the source it returns closes the worker too.
func openParquet(src source, budget int64) (*decode.File, source, error) {
	f, closeReader, err := browser.OpenParquet(context.Background(), src.Name, src.Blob, src.Reader, src.URL, src.Size, readOptions(src, budget))
	if err == nil {
		src.Close = chainClose(src.Close, closeReader)
	}
	return f, src, err
}

// awaitOpen shows the file opened into done. It waits for it on the UI
// goroutine (the page does not render meanwhile) for up to quickOpen; a
// slower open is shown when it ends, by a dispatch from a goroutine that
// waits for it, and the page says "Reading …" meanwhile.
func (op *Opener) awaitOpen(ctx app.Context, gen int, done <-chan openResult) {
	select {
	case o := <-done:
		op.show(ctx, gen, o)
	case <-time.After(quickOpen):
		ctx.Async(func() {
			o := <-done
			ctx.Dispatch(func(ctx app.Context) { op.show(ctx, gen, o) })
		})
	}
}

// show makes o the file shown (or its error the page's), unless a newer
// open overtook open number gen: then o is closed.
func (op *Opener) show(ctx app.Context, gen int, o openResult) {
	perfmark.Mark("show")
	// The file is open (or failed): what web/boot.js fetched for the
	// page's link and the app did not take is dropped.
	browser.ReleaseBoot()
	if gen != op.opens {
		if o.f != nil {
			o.f.Close() // another file was chosen meanwhile
		}
		o.src.stop()
		return
	}
	op.StopIndexing()
	op.Status.Phase = ""
	if o.err != nil {
		op.Status.Failed(o.err.Error())
		o.src.stop()
		return
	}
	old := op.Page.File()
	op.Opened.Src.stop()
	op.Opened = openedFile{Src: o.src, Early: o.early}
	for _, n := range o.src.notes {
		o.f.AddWarning(n)
	}
	if len(o.src.skipped) > 0 {
		o.f.AddWarning(skippedText(o.src.skipped))
	}
	op.Opened.Rows, op.Opened.Exact = o.f.Rows()
	op.Status.State = StateReady
	// The model makes it level 0 and applies a link's sort and filter
	// (its row a position in their result).
	op.Page.Apply(ctx, session.Opened{File: o.f, URL: o.src.URL, Schema: op.Page.SchemaOpen()})
	if old != nil {
		old.Close()
	}
	op.afterFirstFrame(ctx, o.f)
}

// firstScreenWait is how long after a file's first frame the Viewer waits
// at most for the rows table's first screen (actionFirstScreen) before it
// does what it left for after it: a read that does not end (a server that
// stalls) must not keep the row count estimated.
const firstScreenWait = 2 * time.Second

// afterFirstFrame leaves what the first screen of f does not need for after
// it, so that the rows in view, their data and thumbnails come first: once
// the rows table says its first screen is shown (actionFirstScreen), or
// firstScreenWait after the first frame has been painted, whichever comes
// first (AfterFirstScreen).
func (op *Opener) afterFirstFrame(ctx app.Context, f *decode.File) {
	ctx.Defer(func(ctx app.Context) {
		kit.AfterPaint(ctx, func(ctx app.Context) {
			ctx.After(firstScreenWait, func(ctx app.Context) { op.AfterFirstScreen(ctx, f) })
		})
	})
}

// AfterFirstScreen does, once, what the first screen of f left for after
// it: it fills the closed schema panel, and indexes f's record batches when
// its row count is an estimate (a dataset: opens its other files).
func (op *Opener) AfterFirstScreen(ctx app.Context, f *decode.File) {
	if op.Page.File() != f || op.Opened.PanelFilled {
		return
	}
	op.Opened.PanelFilled = true
	if !op.Opened.Exact && op.Work.Cancel == nil {
		op.index(ctx, f)
	}
	ctx.Update()
}

// indexReport is how often indexing updates its progress bar at most.
const indexReport = 100 * time.Millisecond

// index reads the remaining record batch headers of f in the background,
// showing progress; cancelling keeps what is known (the rest estimated).
func (op *Opener) index(ctx app.Context, f *decode.File) {
	ictx, cancel := context.WithCancel(context.Background())
	label := "Indexing record batches"
	if shards := f.Shards(); shards != nil {
		label = "Opening the dataset's files: " + ShardsText(shards) // from the start: the next report comes when a file is done
	}
	op.Work = work{Task: TaskIndex, Cancel: cancel, Progress: &session.Progress{Label: label, Total: f.Size}}
	last := time.Now() // touched by the indexing goroutine only
	ctx.Async(func() {
		err := f.Index(ictx, func(done, total int64) {
			if time.Since(last) < indexReport {
				return
			}
			last = time.Now()
			ctx.Dispatch(func(app.Context) {
				if op.Page.File() == f && op.Work.Progress != nil {
					op.Opened.Rows, op.Opened.Exact = f.Rows()
					label := op.Work.Progress.Label
					if shards := f.Shards(); shards != nil {
						label = "Opening the dataset's files: " + ShardsText(shards)
					}
					op.Work.Progress = &session.Progress{Label: label, Done: done, Total: total, Rows: op.Opened.Rows}
				}
			})
		})
		ctx.Dispatch(func(app.Context) {
			if op.Page.File() != f {
				return
			}
			op.Work.Progress, op.Work.Cancel = nil, nil
			op.Opened.Rows, op.Opened.Exact = f.Rows()
			if err != nil && !errors.Is(err, context.Canceled) {
				f.AddWarning("indexing stopped: " + err.Error())
			}
		})
	})
}

// StopIndexing cancels the work under way, if any, and removes its bar.
func (op *Opener) StopIndexing() {
	if op.Work.Cancel != nil {
		op.Work.Cancel()
	}
	op.Work = work{}
}

// chainClose is a source's Close that runs first, then then (either may be nil).
func chainClose(first, then func()) func() {
	return func() {
		if first != nil {
			first()
		}
		if then != nil {
			then()
		}
	}
}

// Opener opens the files asked for, whatever they came from, and says
// how it goes: it owns what the page says of the file asked for, where
// the file shown is read from and the background work on it (indexing,
// a download). The Viewer's model is told of each file shown.
type Opener struct {
	Page   Page
	Over   bool         // a drag is over the page
	Status Status       // empty, loading, ready or error, and what the page says of the file asked for
	Opened openedFile   // where the file shown is read from (none: the empty page)
	Work   work         // indexing or downloading, under way
	Budget int64        // cache budget in bytes (URL parameter cache=<MiB>)
	opens  int          // files asked to open so far: a slow open that a newer one overtook is dropped
	WarmUp WarmUpResult // how the warm-up (WarmUp) ended; it runs once
}

// openedFile is the file shown and where it is read from.
type openedFile struct {
	Src     source
	Rows    int64 // rows of file, estimated until exact
	Exact   bool
	Changed string // the file changed on the server while being read
	// panelFilled: the schema panel has its content while closed, and
	// what else the first screen left for after it has started
	// (AfterFirstScreen).
	PanelFilled bool
	// early stops the read of the first rows the open started (nil:
	// none); the rows table's Cancel (actionCancelRead) calls it.
	Early context.CancelFunc
}

// work is the background work on a file, with a progress bar and Cancel:
// indexing the file shown, or downloading one whole.
type work struct {
	Task     task
	Progress *session.Progress // nil: no bar
	Cancel   context.CancelFunc
}

func (op *Opener) OnDragOver(ctx app.Context, e app.Event) {
	e.PreventDefault() // lets the page take the drop
	if op.Over {
		ctx.PreventUpdate()
		return
	}
	op.Over = true
}

func (op *Opener) OnDragLeave(ctx app.Context, e app.Event) {
	// Leaving a child element also fires dragleave: only a leave to outside
	// the page (no related target) ends the drag.
	if e.Get("relatedTarget").Truthy() {
		ctx.PreventUpdate()
		return
	}
	op.Over = false
}

func (op *Opener) OnDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	op.Over = false
	dt := e.Get("dataTransfer")
	if entries, folder := droppedEntries(dt); folder {
		ctx.Async(func() { readEntries(ctx, entries) }) // a folder's files are read by callbacks
		return
	}
	files := dt.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		op.Status.FailedOn("", "nothing was dropped that can be read as a file")
		return
	}
	readFiles(ctx, files, nil)
}
