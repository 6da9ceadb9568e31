package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/colstats"
	"github.com/tensorview/tensorview/app/ui/grid"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/querybar"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Actions the components send to the Viewer. The grid's are in package
// grid (grid/actions.go); the actions a component sends to itself are with
// it: the rows table's (grid/rows.go), the inspector's (inspector.go).
const (
	actionCrumb        kit.Action[int]                  = "tv/crumb"         // the level a breadcrumb names: 0 the file, k the k-th nested record batch
	actionInspectState kit.Action[*viewstate.Inspector] = "tv/inspect-state" // the inspector's settings, for the address

	actionCloseInspect kit.Signal = "tv/inspect-close" // close the inspector
)

// handleActions registers the Viewer's action handlers. They do not
// re-render by themselves: each ends with Update, or says why not.
func (v *Viewer) handleActions(ctx app.Context) {
	v.opener.Handle(ctx)
	grid.ActionFirstScreen.Handle(ctx, v.opener.AfterFirstScreen)
	// The rows table's Cancel stops its reads, and redraws them; the read
	// of the first rows that the open started is the opener's.
	grid.ActionCancelRead.Handle(ctx, v.opener.StopEarly)
	actionCloseInspect.Handle(ctx, v.onCloseInspect)
	grid.ActionFirstRow.Handle(ctx, v.onFirstRow)
	actionInspectState.Handle(ctx, v.onInspectState)
	v.handleModel(ctx)
}

// handleModel registers the handlers of the actions that go to the
// session model as they are, and re-render the page.
//
// Sort and filter over the whole level shown go this way: the query
// bar's filter and the column headers' sort go to the session model
// (session.Filter, session.SortBy), which compiles them and asks for their
// scan (session.StartScan); the Viewer runs it (session.RunScan) in a
// goroutine whose pacer yields to the event loop every few milliseconds,
// and hands its reports back to the model. The rows table shows the
// result through the level's session.Order.
func (v *Viewer) handleModel(ctx app.Context) {
	to := func(ctx app.Context, a session.Action) {
		v.Apply(ctx, a)
		ctx.Update()
	}
	grid.ActionInspect.Handle(ctx, func(ctx app.Context, t grid.Target) { to(ctx, session.Inspect{Col: t.Col, Row: t.Row}) })
	grid.ActionCompareCells.Handle(ctx, func(ctx app.Context, o viewstate.OpenInspector) {
		if v.session().Shown() != nil {
			to(ctx, session.Address{A: o})
		}
	})
	grid.ActionNested.Handle(ctx, func(ctx app.Context, t grid.Target) { to(ctx, session.OpenNested{Col: t.Col, Row: t.Row}) })
	actionCrumb.Handle(ctx, func(ctx app.Context, k int) { to(ctx, session.Crumb{Level: k}) })
	querybar.ActionQuery.Handle(ctx, func(ctx app.Context, text string) { to(ctx, session.Filter{Text: text}) })
	grid.ActionSortCol.Handle(ctx, func(ctx app.Context, a grid.SortAsk) { to(ctx, session.SortBy{Col: a.Col, Fn: a.Fn, Clear: a.Clear}) })
	querybar.ActionQueryCancel.Handle(ctx, func(ctx app.Context) { to(ctx, session.QueryCancel{}) })
	querybar.ActionQueryClear.Handle(ctx, func(ctx app.Context) { to(ctx, session.QueryClear{}) })
	colstats.ActionColStats.Handle(ctx, func(ctx app.Context, a colstats.StatsAsk) { to(ctx, session.OpenStats{Col: a.Col, Fn: a.Fn}) })
	colstats.ActionColStatsCancel.Handle(ctx, func(ctx app.Context) { to(ctx, session.StatsCancel{}) })
	colstats.ActionColStatsClose.Handle(ctx, func(ctx app.Context) { to(ctx, session.StatsClose{}) })
	colstats.ActionElementStats.Handle(ctx, func(ctx app.Context) { to(ctx, session.ElementStats{}) })
	colstats.ActionElementStatsCancel.Handle(ctx, func(ctx app.Context) { to(ctx, session.ElementStatsCancel{}) })
	colstats.ActionQuickFilter.Handle(ctx, func(ctx app.Context, a session.QuickAsk) { to(ctx, session.QuickFilter{Ask: a}) })
	grid.ActionThumbMask.Handle(ctx, func(ctx app.Context, key string) { to(ctx, session.ToggleMask{Key: key}) })
}

// onCloseInspect closes the inspector and gives the keyboard back to the
// cell it was opened from: that cell is the grid's focused cell at once,
// and keys pressed before the grid has the focus back go to it
// (routeKeys).
func (v *Viewer) onCloseInspect(ctx app.Context) {
	t, open := v.inspected()
	v.Apply(ctx, session.Address{A: viewstate.CloseInspector{}})
	ctx.Update()
	if !open {
		ctx.Defer(func(app.Context) { app.Window().Get("document").Get("body").Call("focus") })
		return
	}
	v.page.returning = true
	grid.ActionAt.Send(ctx, t)
	ctx.Defer(func(ctx app.Context) {
		if v.st().Inspector == nil { // not opened again meanwhile
			grid.ActionFocus.Send(ctx)
		}
	})
}

// routeKeys sends the keys the page's state, not the browser's focus,
// says where to go (grid.RouteOf): Escape closes the inspector wherever the
// focus is; a grid key meant for the grid behind the open inspector is
// dropped, unless a close sent before it has not been applied yet; one
// pressed after the inspector closed, before the grid has the focus back,
// goes to the grid's focused cell (until the focus goes into anything but
// the inspector that is going). Listeners on the window
// in the capture phase, before any element's; go-app runs what they
// dispatch before the next event comes.
func (v *Viewer) routeKeys(ctx app.Context) {
	app.Window().Call("addEventListener", "focusin", app.FuncOf(func(this app.Value, args []app.Value) any {
		if !targetOf(args[0].Get("target")).InInspector {
			ctx.Dispatch(func(ctx app.Context) {
				v.page.returning = false
				ctx.PreventUpdate()
			})
		}
		return nil
	}), true)
	app.Window().Call("addEventListener", "keydown", app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		if e.Get("defaultPrevented").Bool() {
			return nil
		}
		k, t := grid.KeyOf(e), targetOf(e.Get("target"))
		route := grid.RouteOf(k, t, v.st().Inspector != nil, v.page.returning)
		if route == grid.RoutePass {
			return nil
		}
		e.Call("preventDefault")
		e.Call("stopPropagation")
		switch route {
		case grid.RouteClose:
			hideInspector()
			ctx.Dispatch(func(ctx app.Context) {
				if v.st().Inspector != nil {
					v.onCloseInspect(ctx)
				}
			})
		case grid.RouteGrid:
			ctx.Dispatch(func(ctx app.Context) {
				grid.ActionKey.Send(ctx, k)
				ctx.PreventUpdate()
			})
		case grid.RouteDrop:
			// The inspector may be closed already by a key before this
			// one, whose dispatch has not run yet (keys sent faster than
			// the page runs them): decide again after it, in order.
			ctx.Dispatch(func(ctx app.Context) {
				if r := grid.RouteOf(k, t, v.st().Inspector != nil, v.page.returning); r == grid.RouteGrid || (r == grid.RoutePass && t.InGrid) {
					grid.ActionKey.Send(ctx, k)
				}
				ctx.PreventUpdate()
			})
		}
		return nil
	}), true)
}

// targetOf is where an event was sent (grid.KeyTarget).
func targetOf(el app.Value) grid.KeyTarget {
	if !el.Truthy() || el.Get("closest").IsUndefined() { // the window, the document
		return grid.KeyTarget{}
	}
	tag := el.Get("tagName").String()
	return grid.KeyTarget{
		InGrid:      el.Call("closest", "[data-role=rows]").Truthy(),
		InInspector: el.Call("closest", ".inspector-backdrop").Truthy(),
		Control:     tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" || tag == "BUTTON",
	}
}

// onFirstRow keeps the rows table's first row in view for the address.
func (v *Viewer) onFirstRow(ctx app.Context, row int64) {
	v.Apply(ctx, session.Address{A: viewstate.ScrollRow{Row: row}})
	// Sent while scrolling: the page shows nothing of it but the
	// address, so it must not re-render the viewer.
	ctx.PreventUpdate()
}

// onInspectState keeps the inspector's settings for the address.
func (v *Viewer) onInspectState(ctx app.Context, in *viewstate.Inspector) {
	v.Apply(ctx, session.Address{A: viewstate.InspectorChanged{Inspector: *in}})
	if !v.st().Embed {
		ctx.PreventUpdate() // only the embedded page shows the view's link
	}
}
