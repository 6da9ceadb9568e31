package ui

import (
	"net/url"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/viewstate"
)

// The address bar always holds the view (package viewstate): the Viewer
// keeps it in v.view and writes it with history.replaceState (scrolling,
// sliders: no history entries), or pushState when the inspector opens, so
// that Back closes it. Embedded in an iframe it only replaces (an iframe's
// entries would join the host page's history).

const (
	actionFirstRow = "tv/first-row" // value: int64, the first row in view
	// addressDelay coalesces address updates (browsers limit how often a
	// page may call replaceState): the address is written once the view
	// has not changed for this long.
	addressDelay = 250 * time.Millisecond
)

// handleAddress registers the handlers that keep the address up to date.
func (v *Viewer) handleAddress(ctx app.Context) {
	ctx.Handle(actionFirstRow, func(ctx app.Context, a app.Action) {
		v.view.Row = a.Value.(int64)
		v.scheduleAddress(ctx)
		// Sent while scrolling: the page shows nothing of it but the
		// address, so it must not re-render the viewer.
		ctx.PreventUpdate()
	})
	ctx.Handle(actionInspectState, func(ctx app.Context, a app.Action) {
		if v.inspect == nil {
			return
		}
		v.view.Inspector = a.Value.(*viewstate.Inspector)
		v.scheduleAddress(ctx)
	})
	// Back and Forward: the inspector follows the address.
	pop := app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { v.onPopState(ctx) })
		return nil
	})
	app.Window().Call("addEventListener", "popstate", pop)
}

// onPopState closes the inspector when the address has none (Back), or
// opens the one it names (Forward).
func (v *Viewer) onPopState(ctx app.Context) {
	st := viewstate.Parse(app.Window().URL().Query())
	v.pushed = false
	switch {
	case st.Inspector == nil && v.inspect != nil:
		v.inspect, v.view.Inspector = nil, nil
	case st.Inspector != nil && v.inspect == nil && v.file != nil:
		if col, ok := v.fieldIndex(st.Inspector.Field); ok {
			v.inspect, v.restore, v.view.Inspector = &inspectTarget{Col: col, Row: st.Inspector.Row}, st.Inspector, st.Inspector
		}
	}
}

// fieldIndex is the column of the field named name.
func (v *Viewer) fieldIndex(name string) (int, bool) {
	for i, f := range v.file.Fields() {
		if f.Name == name {
			return i, true
		}
	}
	return 0, false
}

// scheduleAddress writes the address once the view has rested for
// addressDelay: while scrolling, the row changes many times a second and
// each replaceState costs the page several milliseconds.
func (v *Viewer) scheduleAddress(ctx app.Context) {
	v.addressAsked = time.Now()
	if v.addressDue {
		return
	}
	v.addressDue = true
	var write func(ctx app.Context)
	write = func(ctx app.Context) {
		if wait := addressDelay - time.Since(v.addressAsked); wait > 0 {
			ctx.PreventUpdate()
			ctx.After(wait, write) // changed since: wait for the rest
			return
		}
		v.addressDue = false
		v.writeAddress(false)
		if !v.view.Embed {
			// Only the embedded page shows the view's link (open-full).
			ctx.PreventUpdate()
		}
	}
	ctx.After(addressDelay, write)
}

// writeAddress puts v.view into the address: a new history entry with
// push (never when embedded), else in place.
func (v *Viewer) writeAddress(push bool) {
	loc := app.Window().Get("location")
	search := search(v.view)
	if search == loc.Get("search").String() {
		return
	}
	method := "replaceState"
	if push && !v.view.Embed {
		method = "pushState"
	}
	app.Window().Get("history").Call(method, nil, "", loc.Get("pathname").String()+search)
	v.postState()
}

// search is the address's query ("?…", or "" for none) for st, keeping
// the parameters of the current address that st does not own (cache=).
func search(st viewstate.State) string {
	cur, _ := url.ParseQuery(strings.TrimPrefix(app.Window().Get("location").Get("search").String(), "?"))
	if q := st.Encode(cur); q != "" {
		return "?" + q
	}
	return ""
}

// fullLink is link() where the page shows it (embedded), else "" (the
// link is hidden, and building it costs the viewer's renders while
// scrolling).
func (v *Viewer) fullLink() string {
	if !v.view.Embed {
		return ""
	}
	return v.link()
}

// link is the address of the view for the full page (embed mode off).
func (v *Viewer) link() string {
	st := v.view
	st.Embed, st.Origin = false, ""
	loc := app.Window().Get("location")
	return loc.Get("origin").String() + loc.Get("pathname").String() + search(st)
}

// copyLink copies the view's link to the clipboard.
func (v *Viewer) copyLink(ctx app.Context, e app.Event) {
	v.writeAddress(false)
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		v.note = "copy the address from the address bar"
		return
	}
	then(clip.Call("writeText", v.link()), func(app.Value) {
		ctx.Dispatch(func(app.Context) { v.note = "link copied" })
	}, func(reason string) {
		ctx.Dispatch(func(app.Context) { v.note = "could not copy the link: " + reason })
	})
}
