package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/colstats"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/querybar"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Actions the components send to the Viewer. The actions a component
// sends to itself are with it: the rows table's (rows.go), the inspector's
// (inspector.go).
const (
	actionCrumb        kit.Action[int]                     = "tv/crumb"         // the level a breadcrumb names: 0 the file, k the k-th nested record batch
	actionInspect      kit.Action[inspectTarget]           = "tv/inspect"       // a tensor cell to inspect (CellView)
	actionCompareCells kit.Action[viewstate.OpenInspector] = "tv/compare-cells" // two cells selected to compare (SelectionBar)
	actionNested       kit.Action[inspectTarget]           = "tv/nested"        // a nested record batch cell to open (CellView)
	actionFirstRow     kit.Action[int64]                   = "tv/first-row"     // the rows table's first row in view, for the address
	actionInspectState kit.Action[*viewstate.Inspector]    = "tv/inspect-state" // the inspector's settings, for the address

	actionCloseInspect kit.Signal = "tv/inspect-close" // close the inspector
)

// handleActions registers the Viewer's action handlers. They do not
// re-render by themselves: each ends with Update, or says why not.
func (v *Viewer) handleActions(ctx app.Context) {
	v.opener.Handle(ctx)
	actionFirstScreen.Handle(ctx, v.opener.AfterFirstScreen)
	// The rows table's Cancel stops its reads, and redraws them; the read
	// of the first rows that the open started is the opener's.
	actionCancelRead.Handle(ctx, v.opener.StopEarly)
	actionCloseInspect.Handle(ctx, v.onCloseInspect)
	actionFirstRow.Handle(ctx, v.onFirstRow)
	actionInspectState.Handle(ctx, v.onInspectState)
	v.handleModel(ctx)
}

// handleModel registers the handlers of the actions that go to the
// session model as they are, and re-render the page.
func (v *Viewer) handleModel(ctx app.Context) {
	to := func(ctx app.Context, a session.Action) {
		v.Apply(ctx, a)
		ctx.Update()
	}
	actionInspect.Handle(ctx, func(ctx app.Context, t inspectTarget) { to(ctx, session.Inspect{Col: t.Col, Row: t.Row}) })
	actionCompareCells.Handle(ctx, func(ctx app.Context, o viewstate.OpenInspector) {
		if v.session().Shown() != nil {
			to(ctx, session.Address{A: o})
		}
	})
	actionNested.Handle(ctx, func(ctx app.Context, t inspectTarget) { to(ctx, session.OpenNested{Col: t.Col, Row: t.Row}) })
	actionCrumb.Handle(ctx, func(ctx app.Context, k int) { to(ctx, session.Crumb{Level: k}) })
	querybar.ActionQuery.Handle(ctx, func(ctx app.Context, text string) { to(ctx, session.Filter{Text: text}) })
	actionSortCol.Handle(ctx, func(ctx app.Context, a sortAsk) { to(ctx, session.SortBy{Col: a.Col, Fn: a.Fn, Clear: a.Clear}) })
	querybar.ActionQueryCancel.Handle(ctx, func(ctx app.Context) { to(ctx, session.QueryCancel{}) })
	querybar.ActionQueryClear.Handle(ctx, func(ctx app.Context) { to(ctx, session.QueryClear{}) })
	colstats.ActionColStats.Handle(ctx, func(ctx app.Context, a colstats.StatsAsk) { to(ctx, session.OpenStats{Col: a.Col, Fn: a.Fn}) })
	colstats.ActionColStatsCancel.Handle(ctx, func(ctx app.Context) { to(ctx, session.StatsCancel{}) })
	colstats.ActionColStatsClose.Handle(ctx, func(ctx app.Context) { to(ctx, session.StatsClose{}) })
	colstats.ActionQuickFilter.Handle(ctx, func(ctx app.Context, a session.QuickAsk) { to(ctx, session.QuickFilter{Ask: a}) })
	actionThumbMask.Handle(ctx, func(ctx app.Context, key string) { to(ctx, session.ToggleMask{Key: key}) })
}

// onCloseInspect closes the inspector and gives the keyboard back to the
// cell it was opened from.
func (v *Viewer) onCloseInspect(ctx app.Context) {
	t, open := v.inspected()
	v.Apply(ctx, session.Address{A: viewstate.CloseInspector{}})
	ctx.Update()
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
}

// closeOnEscape: Escape closes the inspector wherever the focus is (the
// dialog takes it when it opens, but a file picked or a click outside the
// viewer can move it): a listener on the window, after the dialog's own.
func (v *Viewer) closeOnEscape(ctx app.Context) {
	app.Window().Call("addEventListener", "keydown", app.FuncOf(func(this app.Value, args []app.Value) any {
		if e := args[0]; e.Get("key").String() == "Escape" && !e.Get("defaultPrevented").Bool() && v.st().Inspector != nil {
			hideInspector()
			ctx.Dispatch(func(ctx app.Context) {
				if v.st().Inspector != nil {
					actionCloseInspect.Send(ctx)
				}
			})
		}
		return nil
	}))
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
