package ui

import (
	"context"
	"errors"
	"fmt"

	"github.com/tensorview/tensorview/app/session"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
)

// Column statistics from a column header: the header's button opens the
// statistics panel (colstatspanel.go) of the column, or of the statistic
// a tensor column's header chose (mean first), and scans the whole file
// (or the nested record batch shown) for them (scan.Stats) in a goroutine paced as a query's (query.go), with
// progress and Cancel. One at a time: a new one cancels the one under
// way; the query's own scan goes on beside it. A quick filter chosen in the
// panel is merged into the filter (colstatsplan.go) and applied.

// Actions of the statistics panel and the headers' statistics buttons.
const (
	actionColStats       action[statsAsk]         = "tv/col-stats"        // a header's statistics button, or another statistic chosen in the panel
	actionQuickFilter    action[session.QuickAsk] = "tv/quick-filter"     // the panel's quick filter
	actionColStatsCancel signal                   = "tv/col-stats-cancel" // the panel's progress bar's Cancel
	actionColStatsClose  signal                   = "tv/col-stats-close"  // the panel's × or Escape
)

// statsAsk asks for the statistics of column Col (of a tensor column, of
// its statistic Fn: "mean" when "").
type statsAsk struct {
	Col int
	Fn  string
}

// colStats is the statistics panel's state: closed when !open.
type colStats struct {
	open     bool
	col      int
	x        query.Operand
	class    query.ValueClass
	status   session.ScanStatus // session.StatusRunning, session.StatusDone, session.StatusCancelled, session.StatusError
	progress *session.Progress
	sum      *query.Summary
	unread   scan.Unread
	err      string        // why the scan failed
	quickErr string        // why the quick filter asked for does not apply
	job      session.JobID // the scan under way (0: none)
}

// stopColStats cancels the statistics' scan under way, if any.
func (v *Viewer) stopColStats() {
	v.jobs.Stop(v.colStats.job)
	v.colStats.job, v.colStats.progress = 0, nil
}

// closeColStats closes the panel and forgets its statistics.
func (v *Viewer) closeColStats() {
	v.stopColStats()
	v.colStats = colStats{}
}

// onColStats opens the panel on a's column of the level shown and computes
// its statistics.
func (v *Viewer) onColStats(ctx app.Context, a statsAsk) {
	if v.file() == nil {
		return
	}
	f, q := v.shown(), v.shownQuery()
	if a.Col < 0 || a.Col >= len(q.Cols) {
		return
	}
	c := q.Cols[a.Col]
	x := query.Operand{Column: c.Name}
	if c.Tensor || c.Image {
		x.Func = a.Fn
		if x.Func == "" {
			x.Func = "mean"
		}
	}
	focus := !v.colStats.open
	v.closeColStats()
	v.colStats.open, v.colStats.col, v.colStats.x, v.colStats.class = true, a.Col, x, query.ClassOf(x, q.Cols)
	st, err := query.NewStats(x, q.Cols, query.StatsOptions{})
	if err != nil {
		v.colStats.status, v.colStats.err = session.StatusError, err.Error()
	} else {
		v.colStats.status = session.StatusRunning
		id, sctx := v.jobs.Start()
		v.colStats.job = id
		v.runColStats(ctx, sctx, f, st, id)
	}
	ctx.Update()
	if focus {
		ctx.Defer(func(app.Context) {
			if d := app.Window().Get("document").Call("querySelector", "[data-role=column-stats]"); d.Truthy() {
				d.Call("focus")
			}
		})
	}
}

// runColStats scans f for st in a goroutine (run: the scan's number) and
// shows its progress and result.
func (v *Viewer) runColStats(ctx app.Context, sctx context.Context, f *decode.File, st *query.Stats, id session.JobID) {
	current := func() bool { return v.jobs.Live(id) }
	ctx.Async(func() {
		done := func(sum *query.Summary, unread scan.Unread, err error) {
			ctx.Dispatch(func(ctx app.Context) {
				if !current() || scan.Canceled(err) {
					return
				}
				v.stopColStats()
				v.colStats.sum, v.colStats.unread, v.colStats.status = sum, unread, session.StatusDone
				if err != nil {
					v.colStats.status, v.colStats.err = session.StatusError, err.Error()
				}
			})
		}
		if err := session.IndexFirst(sctx, f, false, nil); err != nil {
			done(nil, scan.Unread{}, err)
			return
		}
		label, bytes := session.ScanLabel(f, "Computing statistics", st.Needs())
		ctx.Dispatch(func(ctx app.Context) {
			if current() {
				v.colStats.progress = &session.Progress{Label: label, Total: bytes}
			}
		})
		sum, unread, err := scan.Stats(sctx, session.FileSource{File: f}, st, scan.Options{
			Pace: session.NewPacer(sctx, session.YieldToPage),
			Progress: session.Throttled(func(p scan.Progress) {
				ctx.Dispatch(func(ctx app.Context) {
					if current() {
						v.colStats.progress = session.RowsProgress(v.colStats.progress, p)
					}
				})
			}),
		})
		if err != nil {
			done(nil, unread, err)
			return
		}
		done(&sum, unread, nil)
	})
}

// onColStatsCancel stops the statistics under way; the panel stays open
// and offers to compute them again.
func (v *Viewer) onColStatsCancel(ctx app.Context) {
	v.stopColStats()
	v.colStats.status = session.StatusCancelled
	ctx.Update()
}

// onColStatsClose closes the panel and gives the focus back to the
// header button that opened it.
func (v *Viewer) onColStatsClose(ctx app.Context) {
	col := v.colStats.col
	v.closeColStats()
	ctx.Update()
	ctx.Defer(func(app.Context) { focusStatsButton(col) })
}

// focusStatsButton focuses column col's statistics button, if shown.
func focusStatsButton(col int) {
	sel := fmt.Sprintf(`[role=columnheader][data-col="%d"] [data-action=column-stats]`, col)
	if b := app.Window().Get("document").Call("querySelector", sel); b.Truthy() {
		b.Call("focus", map[string]any{"preventScroll": true})
	}
}

// onQuickFilter merges the panel's quick filter into the filter applied,
// writes it in the query bar and applies it; the panel closes. A bound
// that is no number is shown in the panel, and nothing changes.
func (v *Viewer) onQuickFilter(ctx app.Context, a session.QuickAsk) {
	if !v.colStats.open || v.file() == nil {
		return
	}
	lq := v.shownQuery()
	q, err := session.QuickQuery(lq.Plan.Filter, a, lq.Cols)
	if err != nil {
		v.colStats.quickErr = err.Error()
		var qe *query.Error
		if errors.As(err, &qe) {
			v.colStats.quickErr = qe.Msg
		}
		ctx.Update()
		return
	}
	col := v.colStats.col
	v.closeColStats()
	lq.Input = q
	v.applyQuery(ctx, lq.Plan.Sort, q, false)
	ctx.Update()
	ctx.Defer(func(app.Context) { focusStatsButton(col) })
}

// colStatsPanel is the panel as the Viewer's state has it.
func (v *Viewer) colStatsPanel() app.UI {
	s, q := &v.colStats, v.shownQuery()
	c := q.Cols[s.col]
	p := &ColumnStatsPanel{Col: s.col, X: s.x, Class: s.class, Status: s.status, Progress: s.progress,
		Sum: s.sum, Unread: s.unread, Err: s.err, QuickErr: s.quickErr, Filtered: q.Plan.FilterExpr != nil, Filter: q.Plan.Filter}
	p.Rows, _ = v.shown().Rows()
	if c.Tensor || c.Image {
		p.Fns = session.SortStats(c)
	}
	return p
}
