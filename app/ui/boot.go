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

// bootOpen is the function web/boot.js hands a file to once the app has
// taken over: one picked in a file chooser of the server-rendered page's
// input (which go-app's start took out of the document, so no handler of
// the app hears it). It lives as long as the page.
var bootOpen app.Func

// OnInit runs as go-app mounts the Viewer, before anything it dispatched
// (such as the news of a newer build the service worker found before the
// wasm started, whose OnAppUpdate reloads an empty page): when web/boot.js
// holds a file for the app, the page is loading it from now on, so no
// reload throws it away.
func (v *Viewer) OnInit() {
	v.opener.page, v.loc.v = v, v
	if !app.IsClient {
		return
	}
	boot := app.Window().Get("tensorviewBoot")
	if !boot.Truthy() || boot.Get("queued").Type() != app.TypeFunction {
		return
	}
	if name := boot.Call("queued"); name.Type() == app.TypeString {
		v.opener.status.state, v.opener.status.loading = stateLoading, name.String()
	}
}
