// Package ui is the tensorview user interface: go-app components that show
// an Arrow file's schema, rows and tensors. Decoding and rasterising live in
// the pure-Go packages decode and raster; this layer only renders their
// results and reads files from the browser.
package ui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/browser"
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Actions the components send to the Viewer.
const (
	actionLoading    = "tv/loading"     // value: the file name
	actionOpen       = "tv/open"        // value: source
	actionFail       = "tv/fail"        // value: error text
	actionCancel     = "tv/cancel"      // no value: stop indexing
	actionCancelRead = "tv/cancel-read" // no value: stop the record batch reads under way
	actionReadAgain  = "tv/read-again"  // no value: read the cancelled rows in view again
	actionNested     = "tv/nested"      // value: inspectTarget, a nested record batch cell to open
	actionWarmedUp   = "tv/warmed-up"   // value: warmUpDone or warmUpFailed (WarmUp)
)

// State names, as the root's data-state attribute spells them.
const (
	stateEmpty   = "empty"
	stateLoading = "loading"
	stateReady   = "ready"
	stateError   = "error"
)

// Viewer is the page: a file picker and drop zone, then the opened file's
// facts, schema and rows. It owns the opened file; children get it passed in.
type Viewer struct {
	app.Compo
	state   string
	loading string // name of the file being read
	phase   string // what opening it waits for, when not its bytes ("Loading the Parquet reader…")
	errText string
	file    *decode.File
	over    bool   // a drag is over the page
	mounted bool   // OnMount has run: the page is the wasm's (data-ready="true")
	warmUp  string // "" until the warm-up (WarmUp) ends: warmUpDone, warmUpFailed or warmUpSkipped (a file was opened first); it runs once
	update  bool   // a newer build has been downloaded
	schema  bool   // the schema panel's remembered state (local storage): a file opened without a link opens with it
	// panelFilled: the schema panel has its content while closed (after
	// the file's first frame).
	panelFilled bool

	budget   int64 // cache budget in bytes (URL parameter cache=<MiB>)
	rows     int64 // rows of file, estimated until exact
	exact    bool
	progress *progress
	task     string // what progress measures: "index" or "download"
	cancel   context.CancelFunc
	src      source // where file is read from
	changed  string // the file changed on the server while being read

	// model owns the view state: the file's view (first row, schema
	// panel, inspector and its session, nested levels) and the address
	// (address.go). Nil until OnMount.
	model           *viewstate.Model
	settled, marked bool   // data-address as last set (address.go)
	startRow        int64  // the rows table's first row when a file or level is shown
	note            string // a short status in the top bar ("link copied")
	opens           int    // files asked to open so far: a slow open that a newer one overtook is dropped

	// nested record batches opened below file (arrow.turtle values), the
	// last one shown in the grid; empty when the file itself is shown.
	nested []nestedLevel
}

// nestedLevel is a nested record batch shown in the grid, and where it
// was opened from.
type nestedLevel struct {
	file  *decode.File
	label string // for the breadcrumb
	field string // the field of the level above it was opened from
	row   int64  // the row of the level above it was opened from
}

// shown is the file the grid, the schema panel and the inspector show: the
// innermost nested record batch opened, else the file.
func (v *Viewer) shown() *decode.File {
	if n := len(v.nested); n > 0 {
		return v.nested[n-1].file
	}
	return v.file
}

// closeNested closes the nested record batches below level k (0: all).
func (v *Viewer) closeNested(k int) {
	for _, l := range v.nested[k:] {
		l.file.Close()
	}
	v.nested = v.nested[:k]
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
	v.update = true
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
// (web/boot.js queues what is asked for meanwhile; see takeBooted).
func (v *Viewer) OnPreRender(ctx app.Context) {
	v.state = stateEmpty
}

// OnMount registers the handlers of the components' actions, then opens
// what was asked for before the wasm started. Until the first update after
// it the root's data-ready is "false" and the state "loading".
func (v *Viewer) OnMount(ctx app.Context) {
	_ = ctx.LocalStorage().Get(schemaKey, &v.schema)
	v.budget = decode.DefaultBudget
	if mib, err := strconv.ParseFloat(app.Window().URL().Query().Get("cache"), 64); err == nil && mib > 0 {
		v.budget = int64(mib * (1 << 20))
	}
	tuneGC(v.budget)
	v.model = viewstate.NewModel(app.Window().URL().String())
	ctx.Dispatch(func(ctx app.Context) {
		v.mounted = true
		if v.state == "" {
			v.state = stateEmpty
		}
	})
	// Action handlers do not re-render by themselves: each ends with Update.
	ctx.Handle(actionLoading, func(ctx app.Context, a app.Action) {
		v.state, v.loading, v.phase, v.errText = stateLoading, a.Value.(string), "", ""
		ctx.Update()
	})
	ctx.Handle(actionFail, func(ctx app.Context, a app.Action) {
		v.state, v.errText = stateError, a.Value.(string)
		ctx.Update()
	})
	ctx.Handle(actionOpen, v.open)
	ctx.Handle(actionWarmedUp, func(ctx app.Context, a app.Action) {
		if v.warmUp == "" {
			v.warmUp = a.Value.(string)
		}
		ctx.Update()
	})
	v.handleAddress(ctx)
	v.handleMessages(ctx)
	ctx.Handle(actionOpenURL, func(ctx app.Context, a app.Action) { v.openURL(ctx, a.Value.(string)) })
	ctx.Handle(actionProgress, func(ctx app.Context, a app.Action) {
		if v.cancel != nil && v.task == "download" {
			v.progress = a.Value.(*progress)
			ctx.Update()
		}
	})
	ctx.Handle(actionChanged, func(ctx app.Context, a app.Action) {
		v.changed = a.Value.(string)
		v.stopIndexing()
		ctx.Update()
	})
	ctx.Handle(actionCancel, func(ctx app.Context, a app.Action) {
		v.stopIndexing()
		ctx.Update()
	})
	ctx.Handle(actionInspect, func(ctx app.Context, a app.Action) {
		t := a.Value.(inspectTarget)
		if f := v.shown(); f != nil && t.Col < len(f.Fields()) {
			v.do(ctx, viewstate.OpenInspector{Field: f.Fields()[t.Col].Name, Row: t.Row})
		}
		ctx.Update()
	})
	ctx.Handle(actionNested, func(ctx app.Context, a app.Action) {
		t := a.Value.(inspectTarget)
		f := v.shown()
		inner, err := f.Nested(t.Row, t.Col)
		if err != nil {
			v.errText, v.loading = err.Error(), fmt.Sprintf("the nested record batch of %s, row %d", f.Fields()[t.Col].Name, t.Row)
			ctx.Update()
			return
		}
		label := fmt.Sprintf("%s, row %d: %s", f.Fields()[t.Col].Name, t.Row, inner.Name)
		v.nested = append(v.nested, nestedLevel{file: inner, label: label, field: f.Fields()[t.Col].Name, row: t.Row})
		v.errText, v.startRow = "", 0
		v.do(ctx, viewstate.SetNested{Levels: v.levels()})
		ctx.Update()
	})
	ctx.Handle(actionCrumb, func(ctx app.Context, a app.Action) {
		k := a.Value.(int)
		if k >= len(v.nested) {
			return
		}
		v.startRow = v.nested[k].row // back where the batch was opened from
		v.closeNested(k)
		v.do(ctx, viewstate.SetNested{Levels: v.levels()})
		ctx.Update()
	})
	// Escape closes the inspector wherever the focus is (the dialog takes
	// it when it opens, but a file picked or a click outside the viewer
	// can move it): a listener on the window, after the dialog's own.
	app.Window().Call("addEventListener", "keydown", app.FuncOf(func(this app.Value, args []app.Value) any {
		if e := args[0]; e.Get("key").String() == "Escape" && !e.Get("defaultPrevented").Bool() && v.st().Inspector != nil {
			hideInspector()
			ctx.Dispatch(func(ctx app.Context) {
				if v.st().Inspector != nil {
					ctx.NewAction(actionCloseInspect)
				}
			})
		}
		return nil
	}))
	ctx.Handle(actionCloseInspect, func(ctx app.Context, a app.Action) {
		t, open := v.inspected()
		v.do(ctx, viewstate.CloseInspector{})
		ctx.Update()
		// Give the keyboard back to the cell the inspector was opened from.
		ctx.Defer(func(app.Context) {
			doc := app.Window().Get("document")
			if open {
				if c := doc.Call("querySelector", fmt.Sprintf(`[data-row="%d"] [data-col="%d"]`, t.Row, t.Col)); c.Truthy() {
					c.Call("focus", map[string]any{"preventScroll": true})
					return
				}
			}
			doc.Get("body").Call("focus")
		})
	})
	v.takeBooted(ctx)
}

// OnNav reads the address into the view state when go-app reports a
// navigation: the page loaded, or a link within it followed (a sample).
// Back and Forward are the popstate handler's (address.go).
func (v *Viewer) OnNav(ctx app.Context) {
	if v.model == nil {
		return
	}
	query, step := entry()
	v.do(ctx, viewstate.Link{Query: query, Step: step})
}

// levels are the nested levels shown, for the view state.
func (v *Viewer) levels() []viewstate.Level {
	out := make([]viewstate.Level, len(v.nested))
	for i, l := range v.nested {
		out[i] = viewstate.Level{Field: l.field, Row: l.row}
	}
	return out
}

// quickOpen is how long opening a file may hold the page before it shows
// "Reading …": a file that opens sooner shows its rows in the next frame,
// without a frame of the message in between (go-app draws a dispatch's
// changes one frame, 8 ms, after it).
const quickOpen = 100 * time.Millisecond

// open reads a file's schema and batch locations off the UI goroutine, shows
// it, then indexes the rest of its record batches in the background with a
// progress bar that can be cancelled.
func (v *Viewer) open(ctx app.Context, a app.Action) {
	src := a.Value.(source)
	mark("open-action")
	if src.gen == 0 {
		v.opens++ // asked for now: it overtakes any file being opened
	} else if src.gen != v.opens {
		src.stop() // a URL that another file overtook
		return
	}
	v.stopIndexing()
	if v.warmUp == "" {
		v.warmUp = warmUpSkipped // the first file compiles what the warm-up would have
	}
	gen := v.opens
	v.state, v.loading, v.phase, v.errText = stateLoading, src.Name, "", ""
	budget := v.budget
	type opened struct {
		f   *decode.File
		src source // src, closing the Parquet reader too
		err error
	}
	done := make(chan opened, 1)
	ctx.Async(func() {
		mark("open-start")
		f, err := decode.OpenReader(src.Name, src.Reader, src.Size, decode.Options{Budget: budget})
		mark("opened")
		if errors.Is(err, decode.ErrParquet) {
			ctx.Dispatch(func(ctx app.Context) {
				if gen == v.opens && v.state == stateLoading {
					v.phase = "Loading the Parquet reader…"
				}
			})
			var closeReader func()
			f, closeReader, err = browser.OpenParquet(context.Background(), src.Name, src.Blob, src.Reader, src.Size, budget)
			if err == nil {
				src.Close = chainClose(src.Close, closeReader)
			}
		}
		if err == nil && f.ChunkBytes(0) < decode.BigRead {
			// Read the first rows now, so the table shows them in its first
			// frame instead of a round of "loading…". A bigger read is left
			// to the table, which shows its progress.
			_ = f.Load(0)
			mark("loaded")
		}
		done <- opened{f, src, err}
	})
	show := func(ctx app.Context, o opened) {
		mark("show")
		src := o.src
		if gen != v.opens {
			if o.f != nil {
				o.f.Close() // another file was chosen meanwhile
			}
			src.stop()
			return
		}
		v.stopIndexing()
		v.phase = ""
		if o.err != nil {
			v.state, v.errText = stateError, o.err.Error()
			src.stop()
			return
		}
		if v.file != nil {
			v.closeNested(0)
			v.file.Close()
		}
		v.src.stop()
		v.src, v.changed = src, ""
		v.file, v.state = o.f, stateReady
		v.rows, v.exact = o.f.Rows()
		v.do(ctx, viewstate.FileOpened{Name: o.f.Name, URL: src.URL, Schema: v.schema, Has: fileHas(o.f)})
		v.startRow = v.st().Row
		v.panelFilled = false
		ctx.Defer(func(ctx app.Context) {
			afterPaint(ctx, func(ctx app.Context) {
				if v.file == o.f && !v.panelFilled {
					v.panelFilled = true
					ctx.Update()
				}
			})
		})
		if !v.exact {
			// Once the frame that shows the file (the next one go-app
			// renders, which runs this Defer) has been painted: the
			// browser paints the rows in view before any of this work
			// starts.
			ctx.Defer(func(ctx app.Context) {
				afterPaint(ctx, func(ctx app.Context) {
					if v.file == o.f && v.cancel == nil {
						v.index(ctx, o.f)
						ctx.Update()
					}
				})
			})
		}
	}
	select {
	case o := <-done:
		show(ctx, o)
	case <-time.After(quickOpen):
		ctx.Async(func() {
			o := <-done
			ctx.Dispatch(func(ctx app.Context) { show(ctx, o) })
		})
	}
	ctx.Update()
}

// index reads the remaining record batch headers of f in the background,
// showing progress; cancelling keeps what is known (the rest estimated).
func (v *Viewer) index(ctx app.Context, f *decode.File) {
	ictx, cancel := context.WithCancel(context.Background())
	v.cancel, v.task = cancel, "index"
	v.progress = &progress{Label: "Indexing record batches", Total: f.Size}
	last := time.Now()
	ctx.Async(func() {
		err := f.Index(ictx, func(done, total int64) {
			if time.Since(last) < 100*time.Millisecond {
				return
			}
			last = time.Now()
			ctx.Dispatch(func(app.Context) {
				if v.file == f && v.progress != nil {
					v.rows, v.exact = f.Rows()
					v.progress = &progress{Label: v.progress.Label, Done: done, Total: total, Rows: v.rows}
				}
			})
		})
		ctx.Dispatch(func(app.Context) {
			if v.file != f {
				return
			}
			v.progress, v.cancel = nil, nil
			v.rows, v.exact = f.Rows()
			if err != nil && !errors.Is(err, context.Canceled) {
				f.AddWarning("indexing stopped: " + err.Error())
			}
		})
	})
}

func (v *Viewer) stopIndexing() {
	if v.cancel != nil {
		v.cancel()
	}
	v.cancel, v.progress, v.task = nil, nil, ""
}

// Render draws the page.
func (v *Viewer) Render() app.UI {
	state := v.state
	if state == "" {
		state = stateLoading
	}
	view := v.st()
	target, inspecting := v.inspected()
	return app.Div().Class("viewer").Attr("data-state", state).Attr("data-embed", view.Embed).
		Attr("data-ready", v.mounted).Attr("data-warm-up", v.warmUp).
		OnDragEnter(v.onDragOver).OnDragOver(v.onDragOver).OnDragLeave(v.onDragLeave).OnDrop(v.onDrop).
		OnKeyDown(v.onKeyDown).
		Body(
			// The top bar: with a file, one line of name, Open file…, the
			// file's facts and the schema button. The file's items come and
			// go together, before the theme button (go-app matches children
			// by position).
			app.Header().Class("top").Body(
				app.H1().Class("brand").Text("tensorview"),
				app.P().Class("tagline").Text("Look at the tensors in Arrow files. Everything happens in your browser: the file never leaves your machine."),
				app.IfSlice(v.file != nil, func() []app.UI {
					return []app.UI{
						&DropZone{Compact: true, Over: v.over},
						&URLForm{Compact: true},
						&FileInfo{File: v.file, Rows: v.rows, Exact: v.exact, Batches: v.file.NumBatches()},
						app.Button().Type("button").Class("toggle-schema").Attr("data-action", "toggle-schema").
							Aria("expanded", view.Schema).Aria("controls", "schema-panel").Text("Schema").OnClick(v.toggleSchema),
						app.Button().Type("button").Class("copy-link").Attr("data-action", "copy-link").
							Title("Copy a link to this view").Text("Copy link").OnClick(v.copyLink),
						app.Span().Class("note").Attr("data-role", "note").Attr("aria-live", "polite").Text(v.note),
						app.A().Class("open-full").Attr("data-role", "open-full").Href(v.fullLink()).Target("_blank").Rel("noopener").
							Text("Open in tensorview ↗"),
					}
				}),
				&ThemeToggle{},
			),
			// go-app matches children by position: everything that comes and
			// goes lives inside fixed containers, so the file view below
			// keeps its place (and its scroll position) when a message shows.
			app.Div().Class("messages").Body(
				app.If(v.update, func() app.UI {
					return app.P().Class("update").Attr("data-role", "update").Attr("aria-live", "polite").Body(
						app.Text("A new version of tensorview is ready. "),
						app.Button().Type("button").Class("link").Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
					)
				}),
			),
			// With no file, the drop zone and the samples, centred.
			app.Div().Class("start").Body(
				app.If(v.file == nil, func() app.UI { return &DropZone{Over: v.over, Starting: app.IsServer} }),
				app.If(v.file == nil, typeSpecimen),
				app.If(v.mounted && v.file == nil && state == stateEmpty && v.warmUp == "", func() app.UI { return &WarmUp{} }),
			),
			app.Div().Class("messages").Body(
				app.If(state == stateLoading && v.loading != "", func() app.UI {
					text := "Reading " + v.loading + "…"
					if v.phase != "" {
						text = v.phase
					}
					return app.P().Class("loading").Attr("aria-live", "polite").Text(text)
				}),
				app.If(v.errText != "", func() app.UI {
					what := "this file"
					if v.loading != "" {
						what = v.loading
					}
					return app.Div().Class("alert").Role("alert").Body(
						app.Strong().Text("Cannot open "+what+". "),
						app.Span().Text(v.errText),
						app.If(v.file != nil, func() app.UI {
							return app.Span().Text(" Still showing " + v.file.Name + ".")
						}),
					)
				}),
			),
			app.Div().Class("messages").Body(
				app.If(v.changed != "", func() app.UI {
					return app.Div().Class("alert").Role("alert").Attr("data-role", "changed").Body(
						app.Strong().Text("Stopped reading. "),
						app.Span().Text(v.changed+": what is shown may mix two versions. "),
						app.Button().Type("button").Class("link").Attr("data-action", "reopen").Text("Open it again").
							OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(actionOpenURL, v.src.URL) }),
					)
				}),
			),
			app.Div().Class("messages").Body(
				app.If(v.progress != nil, func() app.UI {
					return &ProgressBar{Task: v.task, Progress: *v.progress, OnCancel: actionCancel}
				}),
			),
			app.If(v.file != nil, func() app.UI {
				shown := v.shown()
				filled := view.Schema || v.panelFilled
				rows := v.rows
				if shown != v.file {
					rows, _ = shown.Rows()
				}
				return app.Div().Class("file").Body(
					&FileWarnings{File: v.file, Count: len(v.file.Warnings())},
					app.Div().Class("nesting").Body(
						app.If(len(v.nested) > 0, func() app.UI { return &Breadcrumb{Levels: v.crumbs()} }),
					),
					// In the page whether open or not (display: none when
					// closed), so its hooks stay readable; closed, its
					// content comes after the file's first frame
					// (data-filled: true from then on), which it is not
					// part of.
					app.Aside().ID("schema-panel").Class(panelClass(view.Schema)).Attr("data-role", "schema-panel").Attr("data-filled", filled).Body(
						app.Button().Type("button").Class("close").Attr("data-action", "close-schema").Aria("label", "Close the schema").
							Text("×").OnClick(v.toggleSchema),
						app.If(filled && len(shown.Metadata) > 0, func() app.UI { return &SchemaMetadata{Items: shown.Metadata} }),
						app.If(filled, func() app.UI { return &SchemaTable{Fields: shown.Fields()} }),
					),
					&RowsTable{File: shown, Rows: rows, Start: v.startRow},
				)
			}),
			app.If(inspecting, func() app.UI {
				return &Inspector{File: v.shown(), Col: target.Col, Row: target.Row, Restore: view.Inspector}
			}),
		)
}

// crumbs are the breadcrumb's levels: the file, then each nested batch.
func (v *Viewer) crumbs() []string {
	out := []string{v.file.Name}
	for _, l := range v.nested {
		out = append(out, l.label)
	}
	return out
}

// schemaKey is the local storage key that remembers the schema panel.
const schemaKey = "tensorview-schema-open"

// toggleSchema opens or closes the schema panel and remembers it.
func (v *Viewer) toggleSchema(ctx app.Context, e app.Event) {
	v.schema = !v.st().Schema
	if !v.schema {
		// Closed at once, before the render that closes it (the next
		// frame): a click right after reaches the rows the panel covered.
		// The class is the one that render writes.
		if el := app.Window().GetElementByID("schema-panel"); el.Truthy() {
			el.Set("className", panelClass(false))
		}
	}
	ctx.LocalStorage().Set(schemaKey, v.schema)
	v.do(ctx, viewstate.SetSchema{Open: v.schema})
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

func (v *Viewer) onDragOver(ctx app.Context, e app.Event) {
	e.PreventDefault() // lets the page take the drop
	if v.over {
		ctx.PreventUpdate()
		return
	}
	v.over = true
}

func (v *Viewer) onDragLeave(ctx app.Context, e app.Event) {
	// Leaving a child element also fires dragleave: only a leave to outside
	// the page (no related target) ends the drag.
	if e.Get("relatedTarget").Truthy() {
		ctx.PreventUpdate()
		return
	}
	v.over = false
}

func (v *Viewer) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	v.over = false
	files := e.Get("dataTransfer").Get("files")
	if !files.Truthy() || files.Length() == 0 {
		v.state, v.loading, v.errText = stateError, "", "nothing was dropped that can be read as a file"
		return
	}
	readFile(ctx, files.Index(0))
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
