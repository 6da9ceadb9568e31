package open

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The page is usable before the wasm has started: index.html is the
// Viewer's empty page rendered on the server (OnPreRender), and
// web/boot.js, a plain script loaded before it, takes what a person does
// with it meanwhile. A sample clicked or a URL submitted becomes the
// page's address (history.pushState of "?url=…"), which OnNav opens when
// the app starts; a file picked or dropped waits in window.tensorviewBoot
// until TakeBooted asks for it.

// TakeBooted opens the file picked or dropped before the wasm started, if
// any, and tells web/boot.js to stop taking events (the app's own handlers
// have them from now on) and to pass the files of its page's input, if
// picked still, to bootOpen. Call it from OnMount once actionOpen has its
// handler. The page is loading from then on, when a file was taken: no
// OnAppUpdate can find it empty meanwhile.
func (op *Opener) TakeBooted(ctx app.Context) {
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
func (op *Opener) openBooted(ctx app.Context, f app.Value) {
	op.Status.State, op.Status.Loading = StateLoading, f.Get("name").String()
	readFile(ctx, f)
}

// bootOpen is the function web/boot.js hands a file to once the app has
// taken over: one picked in a file chooser of the server-rendered page's
// input (which go-app's start took out of the document, so no handler of
// the app hears it). It lives as long as the page.
var bootOpen app.Func

// Init gives the opener its page, and when web/boot.js holds a file for
// the app, says the page is loading it from now on.
func (op *Opener) Init(p Page) {
	op.Page = p
	if !app.IsClient {
		return
	}
	boot := app.Window().Get("tensorviewBoot")
	if !boot.Truthy() || boot.Get("queued").Type() != app.TypeFunction {
		return
	}
	if name := boot.Call("queued"); name.Type() == app.TypeString {
		op.Status.State, op.Status.Loading = StateLoading, name.String()
	}
}
