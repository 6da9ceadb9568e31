package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The page is usable before the wasm has started: index.html is the
// Viewer's empty page rendered on the server (OnPreRender), and
// web/boot.js, a plain script loaded before it, takes what a person does
// with it meanwhile. A sample clicked or a URL submitted becomes the
// page's address (history.pushState of "?url=…"), which OnNav opens when
// the app starts; a file picked or dropped waits in window.tensorviewBoot
// until takeBooted asks for it.

// takeBooted opens the file picked or dropped before the wasm started, if
// any, and tells web/boot.js to stop taking events (the app's own handlers
// have them from now on). Call it from OnMount once actionOpen has its
// handler.
func (v *Viewer) takeBooted(ctx app.Context) {
	boot := app.Window().Get("tensorviewBoot")
	if !boot.Truthy() || boot.Get("take").Type() != app.TypeFunction {
		return
	}
	q := boot.Call("take")
	if !q.Truthy() {
		return
	}
	if f := q.Get("file"); f.Truthy() {
		readFile(ctx, f)
	}
}
