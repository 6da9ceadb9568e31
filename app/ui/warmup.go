package ui

import (
	_ "embed"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/grid"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/open"
)

// warmUpFile is a small Arrow IPC file of image and other tensors
// (warmup.arrow, written by writeWarmUpFile in warmup_test.go): one record
// batch of warmUpRows rows of an int64 id, a 16×16×3 uint8 image (H,W,C),
// a float32 score, a string label and an 8×8 float32 tensor (H,W).
//
//go:embed warmup.arrow
var warmUpFile []byte

// warmUpRows is the row count of warmUpFile.
const warmUpRows = 16

// warmUpBudget is the cache budget warmUpFile is opened with: small enough
// that its record batch is read by windows of rows, as a big file's is.
const warmUpBudget = 16 << 10

// WarmUp opens warmUpFile the way a dropped file is opened (from a Blob,
// by windows of rows) and shows its facts, schema and rows, hidden
// (display: none), once the empty page has been painted; then it sends
// actionWarmedUp, and the Viewer removes it (the page's data-warm-up
// attribute says how it ended).
//
// Chromium compiles a WebAssembly function the first time it is called
// (lazy compilation). Opening the first file called about a thousand
// functions for the first time (the decoder, the cells' summaries and
// previews, go-app's mounting of the table): compiling them was 40–50 % of
// the time from choosing the file to its first previews. The warm-up runs
// them while the page waits for a file, so that the first file finds them
// compiled.
type WarmUp struct {
	app.Compo
	file *decode.File
	rows int64
}

// OnMount opens the file once the empty page has been painted.
func (w *WarmUp) OnMount(ctx app.Context) {
	kit.AfterPaint(ctx, func(ctx app.Context) {
		src := open.BlobSource("warm-up.arrow", browser.NewBlob(warmUpFile))
		ctx.Async(func() {
			f, err := decode.OpenReader(src.Name, src.Reader, src.Size, decode.Options{Budget: warmUpBudget})
			if err == nil {
				err = f.Load(0)
			}
			ctx.Dispatch(func(ctx app.Context) {
				if err != nil {
					open.ActionWarmedUp.Send(ctx, open.WarmUpFailed) // nothing to show
					return
				}
				w.file = f
				w.rows, _ = f.Rows()
				// Once the frame with its rows has been rendered: afterPaint
				// from a Defer, which runs once go-app has rendered them.
				// Called here, the next animation frame could come (and
				// end the warm-up) before go-app's next render, so that
				// the rows were never rendered.
				ctx.Defer(func(ctx app.Context) {
					kit.AfterPaint(ctx, func(ctx app.Context) { open.ActionWarmedUp.Send(ctx, open.WarmUpDone) })
				})
			})
		})
	})
}

// OnDismount closes the file.
func (w *WarmUp) OnDismount() {
	if w.file != nil {
		w.file.Close()
	}
}

// Render draws nothing visible: the file's view inside a container that is
// not displayed.
func (w *WarmUp) Render() app.UI {
	return app.Div().Class("warm-up").Hidden(true).Aria("hidden", true).Attr("inert", true).Body(
		app.If(w.file != nil, func() app.UI {
			f := w.file
			return app.Div().Body(
				&FileInfo{File: f, Count: kit.RowCount{Rows: w.rows, Exact: true}, Batches: f.NumBatches()},
				&FileWarnings{File: f, Count: len(f.Warnings())},
				&SchemaTable{Fields: f.Fields()},
				&grid.RowsTable{File: f, Rows: w.rows},
			)
		}),
	)
}
