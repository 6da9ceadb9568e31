package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// paintWait is how long afterPaint waits for a frame at most: a page in a
// background tab renders no frames (requestAnimationFrame waits until it
// is shown), and work such as indexing must not wait for that.
const paintWait = 100 * time.Millisecond

// afterPaint runs fn on the UI goroutine once the browser has rendered the
// next frame (style, layout and paint of what the page holds now), or
// after paintWait when no frame comes (a hidden page). Work that the first
// screen does not need (overscan rows, indexing, measuring the layout) goes
// there, so that the rows in view are painted first: go-app runs a frame's
// ctx.Defer functions before the browser may paint, and reading the layout
// there (clientHeight) forces the style and layout of the whole page in the
// middle of the Go code.
func afterPaint(ctx app.Context, fn func(app.Context)) {
	done := false // touched on the UI goroutine only
	once := func(ctx app.Context) {
		if !done {
			done = true
			fn(ctx)
		}
	}
	// A requestAnimationFrame callback runs before the frame's rendering;
	// a task it posts runs after it.
	var raf, tick app.Func
	tick = app.FuncOf(func(app.Value, []app.Value) any {
		tick.Release()
		ctx.Dispatch(once)
		return nil
	})
	raf = app.FuncOf(func(app.Value, []app.Value) any {
		raf.Release()
		app.Window().Call("setTimeout", tick, 0)
		return nil
	})
	app.Window().Call("requestAnimationFrame", raf)
	ctx.After(paintWait, once)
}
