package grid

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/internal/perfmark"
)

// A file's first screen in the rows table: the rows in view of its first
// frame with their data, painted, and their thumbnails drawn. Until then
// the page does nothing else it can leave for later, so that the rows in
// view come first: the rows past the view (settle), the closed schema
// panel's content and indexing (the Viewer's, on ActionFirstScreen) wait.
// The rows table's data-first-screen says where it is.

// ActionFirstScreen: the rows table shows the first screen of the file
// (its rows in view, their data and thumbnails drawn): the Viewer does
// what it left for after it (open.Opener.AfterFirstScreen).
const ActionFirstScreen kit.Action[*decode.File] = "tv/first-screen"

// screenStep is where a file's first screen (or a new result's: a sort, a
// filter) is.
type screenStep int

const (
	screenReading  screenStep = iota // the rows in view are being read
	screenPainting                   // their data is in: the frame that shows it, and their thumbnails, are under way
	screenShown                      // shown: the rest may come (data-first-screen="shown")
)

// String is the step as data-first-screen says it.
func (s screenStep) String() string {
	switch s {
	case screenReading:
		return "reading"
	case screenPainting:
		return "painting"
	}
	return "shown"
}

// firstScreen is the rows table's first screen: its step, and which one it
// is (a file shown anew, or a new result, starts another).
type firstScreen struct {
	step screenStep
	gen  int
}

// restart starts another first screen (its rows are being read) and
// returns its number: the rows in view are read (fetch), and the rest
// (settle) waits for them (rowsIn).
func (s *firstScreen) restart() int {
	s.gen++
	s.step = screenReading
	return s.gen
}

// rowsIn: the rows in view of first screen gen have their data (or their
// reads ended). It reports whether that moved the screen on to painting
// (not for an earlier screen, nor twice).
func (s *firstScreen) rowsIn(gen int) bool {
	if gen != s.gen || s.step != screenReading {
		return false
	}
	s.step = screenPainting
	return true
}

// painted: the frame that shows first screen gen's rows has been rendered
// and their thumbnails drawn. It reports whether that ended the screen (not
// for an earlier screen, nor twice).
func (s *firstScreen) painted(gen int) bool {
	if gen != s.gen || s.step != screenPainting {
		return false
	}
	s.step = screenShown
	return true
}

// rowsIn is called, on the UI goroutine, once the rows drawn need no more
// reads: during a first screen, once the frame that renders them (the one
// this call comes before) has been painted and their thumbnails are drawn
// (thumbQueue.afterIdle), the table settles and tells the Viewer.
func (r *RowsTable) rowsIn(ctx app.Context) {
	gen := r.screen.gen
	if !r.screen.rowsIn(gen) {
		return
	}
	f := r.File
	ctx.Defer(func(ctx app.Context) { // after go-app has drawn the rows
		kit.AfterPaint(ctx, func(ctx app.Context) {
			r.thumbs.afterIdle(func() {
				ctx.Dispatch(func(ctx app.Context) {
					if r.File != f || !r.screen.painted(gen) {
						return
					}
					perfmark.Mark("first-screen")
					ActionFirstScreen.Send(ctx, f)
					r.settle(ctx)
					ctx.Update()
				})
			})
		})
	})
}
