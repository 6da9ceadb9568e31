package kit

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// paintWait is how often afterPaint checks, while no frame has come,
// whether the page is hidden: a page in a background tab renders no frames
// (requestAnimationFrame waits until it is shown), and work such as
// indexing must not wait for that.
const paintWait = 100 * time.Millisecond

// AfterPaint runs fn on the UI goroutine once the browser has rendered the
// next frame (style, layout and paint of what the page holds now), or, when
// no frame has come after paintWait, once the page is hidden. Work that the first
// screen does not need (overscan rows, indexing, measuring the layout) goes
// there, so that the rows in view are painted first: go-app runs a frame's
// ctx.Defer functions before the browser may paint, and reading the layout
// there (clientHeight) forces the style and layout of the whole page in the
// middle of the Go code.
func AfterPaint(ctx app.Context, fn func(app.Context)) {
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
	// The wait is for hidden pages only: a shown page whose main thread is
	// busy (the long task that mounts a file's first screen) renders its
	// next frame late, and fn must not run before it.
	var wait func(app.Context)
	wait = func(ctx app.Context) {
		if done {
			return
		}
		if app.Window().Get("document").Get("hidden").Bool() {
			once(ctx)
			return
		}
		ctx.After(paintWait, wait)
	}
	ctx.After(paintWait, wait)
}
