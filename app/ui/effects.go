package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Apply tells the session model a and carries out its effects, in order:
// the address's (history.go's rules, address.go), the scans it asks for,
// the focus and the alert. It does not re-render by itself.
func (v *Viewer) Apply(ctx app.Context, a session.Action) {
	for _, e := range v.session().Do(a) {
		switch e := e.(type) {
		case session.History:
			v.loc.history(ctx, e.E)
		case session.StartScan:
			runScan(ctx, v.Apply, e)
		case session.StartStats:
			runStats(ctx, v.Apply, e)
		case session.Focus:
			ctx.Defer(func(app.Context) { kit.Focus(e.Selector) })
		case session.Alert:
			v.opener.Status.ErrText = e.Text
			if e.Text != "" {
				v.opener.Status.Loading = e.What
			}
		}
	}
	if showsInspector(a) {
		if v.st().Inspector != nil {
			showInspector()
		} else {
			ctx.Defer(func(app.Context) { showInspector() }) // once it is gone
		}
	}
	v.loc.markAddress()
}

// showsInspector reports whether a may open or close the inspector (or
// move it to other fields), so that the page lets clicks through it again.
func showsInspector(a session.Action) bool {
	switch a := a.(type) {
	case session.Address:
		switch a.A.(type) {
		case viewstate.OpenInspector, viewstate.CloseInspector, viewstate.PopState, viewstate.FileOpened, viewstate.SetNested:
			return true
		}
	case session.Opened, session.OpenNested, session.Crumb, session.Inspect:
		return true
	}
	return false
}

// runScan runs a query's scan in a goroutine and hands its reports to
// the model (apply).
func runScan(ctx app.Context, apply func(app.Context, session.Action), s session.StartScan) {
	ctx.Async(func() {
		session.RunScan(s.Ctx, s.File, s.Plan, session.YieldToPage, func(e session.ScanEvent) {
			ctx.Dispatch(func(ctx app.Context) { apply(ctx, session.ScanReport{Job: s.Job, Query: s.Query, Event: e}) })
		})
	})
}

// runStats runs a statistics scan in a goroutine and hands its reports
// to the model (apply).
func runStats(ctx app.Context, apply func(app.Context, session.Action), s session.StartStats) {
	ctx.Async(func() {
		session.RunStats(s.Ctx, s.File, s.Stats, session.YieldToPage, func(e session.StatsEvent) {
			ctx.Dispatch(func(ctx app.Context) { apply(ctx, session.StatsReport{Job: s.Job, Event: e}) })
		})
	})
}
