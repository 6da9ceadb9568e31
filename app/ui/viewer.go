// Package ui is the tensorview user interface: go-app components that show
// an Arrow file's schema, rows and tensors. Decoding and rasterising live in
// the pure-Go packages decode and raster, reading files in the browser in
// app/browser; this layer decides what to open and renders the results.
package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/open"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Viewer is the page: a file picker and drop zone, then the opened file's
// facts, schema and rows. It owns the opened file; children get it passed
// in. Its methods: the lifecycle and the page's events here, the actions'
// handlers in actions.go, opening a file in open.go (by URL openurl.go),
// the address in address.go, the drawing in render.go; its state's plain
// types in state.go.
type Viewer struct {
	app.Compo
	opener open.Opener // opens the files asked for (package open)
	page   pageFlags   // the page's own facts, whatever file it shows

	// model owns what the page shows of the file: its levels (the file,
	// the nested record batches opened), their queries, the statistics
	// panel, the view state and the address (effects.go). Made by
	// OnMount (session, before it).
	model *session.Model
	loc   location // the address and the embedding page: history writes, links, messages (address.go)
}

// pageFlags are the page's own facts.
type pageFlags struct {
	mounted bool // OnMount has run: the page is the wasm's (data-ready="true")
	update  bool // a newer build has been downloaded
	schema  bool // the schema panel's remembered state (local storage): a file opened without a link opens with it
	// returning: the inspector has closed and the grid has not had the
	// keyboard focus back yet (routeKeys).
	returning bool
}

// addressMark is the data-address attribute as last set: settled or
// pending, marked once set at all.
type addressMark struct{ settled, marked bool }

// session is the model, made at once when the page renders before
// OnMount (on the server).
func (v *Viewer) session() *session.Model {
	if v.model == nil {
		v.model = session.NewModel("")
	}
	v.opener.Page, v.loc.v = v, v
	return v.model
}

// SchemaOpen is the schema panel's remembered state (local storage): a
// file opened without a link opens with it.
func (v *Viewer) SchemaOpen() bool { return v.page.schema }

// File is the file opened (level 0), nil before one is.
func (v *Viewer) File() *decode.File {
	if l := v.session().Levels().At(0); l != nil {
		return l.File
	}
	return nil
}

// OnInit runs as go-app mounts the Viewer, before anything it dispatched
// (such as the news of a newer build the service worker found before the
// wasm started, whose OnAppUpdate reloads an empty page): when web/boot.js
// holds a file for the app, the page is loading it from now on, so no
// reload throws it away.
func (v *Viewer) OnInit() {
	v.loc.v = v
	v.opener.Init(v)
}

// OnAppUpdate is called when go-app's service worker has installed a newer
// build. The page is never reloaded for it: a file picked, dropped or
// linked may be on its way in (between a pick and its open there is no
// state that says so for sure), so the page offers the reload instead.
// go-app also calls it when the first service worker of a page loaded from
// the network claims it (clients.claim in its activate handler can come
// before the page sees the activation): that page is the newest build, so
// only a page loaded under a service worker is told of an update.
func (v *Viewer) OnAppUpdate(ctx app.Context) {
	if !controlledAtLoad() {
		return
	}
	v.page.update = true
}

// controlledAtLoad reports whether a service worker answered the page's
// navigation (Navigation Timing's workerStart is 0 otherwise).
func controlledAtLoad() bool {
	nav := app.Window().Get("performance").Call("getEntriesByType", "navigation")
	if !nav.Truthy() || nav.Length() == 0 {
		return true // no timing: assume an update
	}
	return nav.Index(0).Get("workerStart").Float() > 0
}

// OnPreRender sets the state of the server-rendered page (app/site writes
// it as index.html): the empty page, usable before the wasm has started
// (web/boot.js queues what is asked for meanwhile; see open.Opener.TakeBooted).
func (v *Viewer) OnPreRender(ctx app.Context) {
	v.opener.Status.State = open.StateEmpty
}

// OnMount registers the handlers of the components' actions and of the
// browser's events, then opens what was asked for before the wasm
// started. Until the first update after it the root's data-ready is
// "false" and the state "loading".
func (v *Viewer) OnMount(ctx app.Context) {
	_ = ctx.LocalStorage().Get(schemaKey, &v.page.schema)
	v.opener.Budget = open.CacheBudget(app.Window().URL().Query())
	tuneGC(v.opener.Budget)
	v.model = session.NewModel(app.Window().URL().String())
	ctx.Dispatch(func(ctx app.Context) {
		v.page.mounted = true
		if v.opener.Status.State == open.StateStarting {
			v.opener.Status.State = open.StateEmpty
		}
	})
	v.handleActions(ctx)
	v.loc.handleAddress(ctx)
	v.loc.handleMessages(ctx)
	v.routeKeys(ctx)
	v.opener.TakeBooted(ctx)
}

// OnNav reads the address into the view state when go-app reports a
// navigation: the page loaded, or a link within it followed (a sample).
// Back and Forward are the popstate handler's (address.go).
func (v *Viewer) OnNav(ctx app.Context) {
	if v.model == nil {
		return
	}
	query, step := entry()
	v.Apply(ctx, session.Address{A: viewstate.Link{Query: query, Step: step}})
}

// schemaKey is the local storage key that remembers the schema panel.
const schemaKey = "tensorview-schema-open"

// toggleSchema opens or closes the schema panel and remembers it.
func (v *Viewer) toggleSchema(ctx app.Context, e app.Event) {
	v.page.schema = !v.st().Schema
	if !v.page.schema {
		// Closed at once, before the render that closes it (the next
		// frame): a click right after reaches the rows the panel covered.
		// The class is the one that render writes.
		if el := app.Window().GetElementByID("schema-panel"); el.Truthy() {
			el.Set("className", panelClass(false))
		}
	}
	ctx.LocalStorage().Set(schemaKey, v.page.schema)
	v.Apply(ctx, session.Address{A: viewstate.SetSchema{Open: v.page.schema}})
}

func panelClass(open bool) string {
	if open {
		return "schema-panel open"
	}
	return "schema-panel"
}

// onKeyDown: "/" anywhere but in a text field goes to the "go to row" box.
func (v *Viewer) onKeyDown(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	if e.Get("key").String() != "/" {
		return
	}
	switch e.Get("target").Get("tagName").String() {
	case "INPUT", "SELECT", "TEXTAREA":
		return
	}
	if box := app.Window().Get("document").Call("querySelector", "[data-role=goto-row]"); box.Truthy() {
		e.PreventDefault()
		box.Call("focus")
	}
}
