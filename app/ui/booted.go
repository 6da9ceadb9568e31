package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// takeBooted opens the file picked or dropped before the wasm started, if
// any, and tells web/boot.js to stop taking events (the app's own handlers
// have them from now on) and to pass the files of its page's input, if
// picked still, to bootOpen. Call it from OnMount once actionOpen has its
// handler. The page is loading from then on, when a file was taken: no
// OnAppUpdate can find it empty meanwhile.
func (op *opener) takeBooted(ctx app.Context) {
	boot := app.Window().Get("tensorviewBoot")
	if !boot.Truthy() || boot.Get("take").Type() != app.TypeFunction {
		return
	}
	if bootOpen == nil {
		bootOpen = app.FuncOf(func(this app.Value, args []app.Value) any {
			if len(args) > 0 && args[0].Truthy() {
				f := args[0]
				ctx.Dispatch(func(ctx app.Context) { op.openBooted(ctx, f) })
			}
			return nil
		})
	}
	q := boot.Call("take", bootOpen)
	if !q.Truthy() {
		return
	}
	if f := q.Get("file"); f.Truthy() {
		op.openBooted(ctx, f)
	}
}

// openBooted opens a file web/boot.js took.
func (op *opener) openBooted(ctx app.Context, f app.Value) {
	op.status.state, op.status.loading = stateLoading, f.Get("name").String()
	readFile(ctx, f)
}
