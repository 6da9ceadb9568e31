package colstats

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// ColumnStatsPanel is the statistics of a column (or of a tensor
// statistic over a tensor column's rows) over the whole file, in a modal
// dialog: progress with Cancel while computed, then the figures, a
// histogram of numbers or the top values with counts, and a quick filter:
// a range of numbers, or checkboxes of the top values. Escape and × close
// it (actionColStatsClose). Every figure has its data-stat, for tests.
type ColumnStatsPanel struct {
	app.Compo
	Col      int
	X        query.Operand
	Class    query.ValueClass
	Fns      []string           // a tensor column's statistics to choose from (nil: a plain column)
	Status   session.ScanStatus // data-stats: running, done, cancelled, error
	Progress *session.Progress
	Sum      *query.Summary
	Unread   scan.Unread
	Err      string
	QuickErr string
	Rows     int64  // the file's rows
	Filtered bool   // a filter is applied (the statistics are not of its matches)
	Filter   string // the filter applied: its term of X, if any, sets the quick filter's inputs
	// Inline: the element statistics of the inspected column, in the
	// inspector's side (inline.go), instead of the dialog.
	Inline bool

	forSum  *query.Summary  // the statistics the inputs below were set for
	checked map[string]bool // the top values checked
	lo, hi  string          // the range's bounds as typed
}

// Render draws the dialog.
func (p *ColumnStatsPanel) Render() app.UI {
	if p.Inline {
		return p.inline()
	}
	if p.forSum != p.Sum {
		p.forSum = p.Sum
		p.checked, p.lo, p.hi = quickState(p.Filter, p.X)
		if p.Sum != nil && p.lo == "" && p.hi == "" {
			p.lo, p.hi = p.Sum.Min, p.Sum.Max
		}
	}
	name := p.X.String()
	scope := "Over all " + session.GroupDigits(p.Rows) + " rows of the file"
	if p.Filtered {
		scope += ", not only the filter's matches"
	}
	return app.Div().Class("colstats-backdrop").OnClick(p.onBackdrop).Body(
		app.Div().Class("colstats").Role("dialog").Aria("modal", "true").Aria("labelledby", "colstats-title").
			Attr("data-role", "column-stats").Attr("data-stats", p.Status).Attr("data-col", p.Col).Attr("data-of", name).
			TabIndex(-1).OnKeyDown(p.onKeyDown).Body(
			app.Header().Class("colstats-head").Body(
				app.H2().ID("colstats-title").Body(app.Text("Statistics of "), app.Code().Text(name)),
				app.Button().Type("button").Class("close").Attr("data-action", "close-stats").Aria("label", "Close the statistics").Text("×").
					OnClick(func(ctx app.Context, e app.Event) { ActionColStatsClose.Send(ctx) }),
			),
			app.P().Class("colstats-scope").Attr("data-role", "stats-scope").Text(scope),
			app.Div().Class("colstats-fn").Body(
				app.If(len(p.Fns) > 0, p.fnSelect),
			),
			app.Div().Class("colstats-status").Body(
				app.If(p.Progress != nil, func() app.UI {
					return &kit.ProgressBar{Task: "stats", Progress: *p.Progress, OnCancel: ActionColStatsCancel}
				}),
				app.If(p.Status == session.StatusCancelled, func() app.UI {
					return app.P().Class("colstats-note").Attr("data-role", "stats-cancelled").Body(
						app.Text("Cancelled. "),
						app.Button().Type("button").Class("link").Attr("data-action", "stats-again").Text("Compute again").
							OnClick(func(ctx app.Context, e app.Event) { ActionColStats.Send(ctx, StatsAsk{Col: p.Col, Fn: p.X.Func}) }),
					)
				}),
				app.If(p.Err != "", func() app.UI {
					return app.P().Class("alert").Role("alert").Attr("data-role", "stats-error").Text(p.Err)
				}),
			),
			app.If(p.Sum != nil, p.results),
		),
	)
}

// fnSelect chooses the tensor statistic whose distribution is shown.
func (p *ColumnStatsPanel) fnSelect() app.UI {
	return app.Label().Class("colstats-fn-label").Body(
		app.Span().Text("Statistic of each tensor "),
		app.Select().Attr("data-role", "stats-fn").OnChange(func(ctx app.Context, e app.Event) {
			ActionColStats.Send(ctx, StatsAsk{Col: p.Col, Fn: ctx.JSSrc().Get("value").String()})
		}).Body(
			app.Range(p.Fns).Slice(func(i int) app.UI {
				return app.Option().Value(p.Fns[i]).Selected(p.Fns[i] == p.X.Func).Text(p.Fns[i])
			}),
		),
	)
}

// results are the figures, the histogram or top values, and the quick
// filter.
func (p *ColumnStatsPanel) results() app.UI {
	s := *p.Sum
	figs := statFigures(s, p.Unread, p.Class)
	numbers := (p.Class == query.ClassNumber || p.Class == query.ClassFloat) && len(s.Hist) > 0
	top := (p.Class == query.ClassText || p.Class == query.ClassBool || p.Class == query.ClassTime) && len(s.Top) > 0
	return app.Div().Class("colstats-body").Body(
		// The counts on a line, then the values (min, max, mean) and what
		// could not be read, each line's cards of equal width.
		figureList(figs[:countFigures(figs)]),
		figureList(figs[countFigures(figs):]),
		app.If(s.Unevaluated+p.Unread.Rows > 0, func() app.UI {
			return app.P().Class("colstats-first-error").Attr("data-role", "stats-first-error").Text("First error: " + figs[len(figs)-1].Title)
		}),
		app.If(numbers, func() app.UI { return p.histogram(s, "row") }),
		app.If(numbers, p.rangeForm),
		app.If(top, func() app.UI { return p.topValues(s) }),
		app.If(p.QuickErr != "", func() app.UI {
			return app.P().Class("alert").Role("alert").Attr("data-role", "quick-error").Text(p.QuickErr)
		}),
	)
}

// countFigures is how many of figs, from the first, are counts (rows,
// nulls, NaN, distinct).
func countFigures(figs []statFigure) int {
	n := 0
	for n < len(figs) && slices.Contains([]string{"count", "nulls", "nan", "distinct"}, figs[n].Key) {
		n++
	}
	return n
}

// figureList draws figures as a line of cards.
func figureList(figs []statFigure) app.UI {
	return app.Dl().Class("colstats-figures").Body(app.Range(figs).Slice(func(i int) app.UI {
		f := figs[i]
		return app.Div().Class("colstats-figure").Attr("data-stat", f.Key).Title(f.Title).Body(
			app.Dt().Text(f.Label),
			app.Dd().Text(f.Value),
		)
	}))
}

// histogram draws the bins as bars, each titled with its range and count
// of unit ("row", "value").
func (p *ColumnStatsPanel) histogram(s query.Summary, unit string) app.UI {
	bars := histBars(s, unit)
	var peak int64 = 1
	for _, b := range bars {
		peak = max(peak, b.Count)
	}
	label := fmt.Sprintf("Histogram of %s: %d bins from %s to %s", p.X.String(), len(bars), numberText(s.HistMin), numberText(s.HistMax))
	return app.Section().Class("colstats-section").Body(
		sectionHead("Histogram", !s.HistExact, "hist-estimated", "estimated", "Estimated from a sample of the values, scaled to their count"),
		app.Div().Class("colstats-hist").Attr("data-role", "histogram").Attr("data-exact", s.HistExact).Body(
			app.Span().Class("colstats-peak").Text(session.GroupDigits(peak)+" "+unit+"s"),
			app.Div().Class("colstats-bars").Role("img").Aria("label", label).Body(
				app.Range(bars).Slice(func(i int) app.UI {
					b := bars[i]
					return app.Div().Class("colstats-bar").Attr("data-role", "hist-bar").Attr("data-count", b.Count).
						Attr("data-lo", strconv.FormatFloat(b.Lo, 'g', -1, 64)).Attr("data-hi", strconv.FormatFloat(b.Hi, 'g', -1, 64)).
						Title(b.Title).Body(
						app.Div().Class("fill").Style("height", fmt.Sprintf("%.1f%%", 100*float64(b.Count)/float64(peak))),
					)
				}),
			),
			app.Div().Class("colstats-axis").Body(
				app.Span().Text(numberText(s.HistMin)),
				app.Span().Text(numberText(s.HistMax)),
			),
		),
	)
}

// sectionHead is a section's title, with a badge (role, text, title) when
// estimated.
func sectionHead(title string, estimated bool, role, badge, tip string) app.UI {
	return app.H3().Body(
		app.Text(title),
		app.If(estimated, func() app.UI {
			return app.Span().Class("colstats-badge").Attr("data-role", role).Title(tip).Text(badge)
		}),
	)
}

// rangeForm is the quick filter of numbers: rows whose value is between
// the bounds typed (either left blank: no bound).
func (p *ColumnStatsPanel) rangeForm() app.UI {
	bound := func(id, role, label string, val *string) app.UI {
		return app.Label().For(id).Class("colstats-bound").Body(
			app.Span().Text(label),
			app.Input().ID(id).Type("text").Attr("inputmode", "decimal").Attr("data-role", role).Attr("autocomplete", "off").
				Attr("spellcheck", "false").Value(*val).
				OnInput(func(ctx app.Context, e app.Event) { *val = ctx.JSSrc().Get("value").String(); ctx.PreventUpdate() }).
				OnKeyDown(func(ctx app.Context, e app.Event) {
					if e.Get("key").String() == "Enter" {
						e.PreventDefault()
						*val = ctx.JSSrc().Get("value").String()
						p.applyRange(ctx)
						return
					}
					ctx.PreventUpdate()
				}),
		)
	}
	return app.Section().Class("colstats-section colstats-quick").Body(
		app.H3().Text("Filter rows by range"),
		app.Div().Class("colstats-range").Body(
			bound("colstats-lo", "range-lo", "from", &p.lo),
			bound("colstats-hi", "range-hi", "to", &p.hi),
			app.Button().Type("button").Class("colstats-apply").Attr("data-action", "quick-filter").Text("Filter").
				OnClick(func(ctx app.Context, e app.Event) { p.applyRange(ctx) }),
		),
	)
}

func (p *ColumnStatsPanel) applyRange(ctx app.Context) {
	ActionQuickFilter.Send(ctx, session.QuickAsk{X: p.X, Range: true, Lo: p.lo, Hi: p.hi})
}

// topValues lists the most frequent values with their counts, each with a
// checkbox: the quick filter keeps the rows of the values checked.
func (p *ColumnStatsPanel) topValues(s query.Summary) app.UI {
	rows := s.Count - s.Nulls - s.NaN - s.Unevaluated
	ge := ""
	if !s.TopExact {
		ge = "≥ "
	}
	return app.Section().Class("colstats-section colstats-quick").Body(
		sectionHead("Top values", !s.TopExact, "top-estimated", "at least", "Counted approximately: each count is at least the one shown"),
		app.Ul().Class("colstats-top").Attr("data-role", "top-values").Body(
			app.Range(s.Top).Slice(func(i int) app.UI {
				v := s.Top[i]
				id := fmt.Sprintf("colstats-top-%d", i)
				share := 0.0
				if rows > 0 {
					share = 100 * float64(v.Count) / float64(rows)
				}
				return app.Li().Class("colstats-value").Attr("data-role", "top-value").Attr("data-value", v.Value).Attr("data-count", v.Count).Body(
					app.Input().Type("checkbox").ID(id).Value(v.Value).Checked(p.checked[v.Value]).
						OnChange(func(ctx app.Context, e app.Event) {
							p.checked[v.Value] = ctx.JSSrc().Get("checked").Bool()
						}),
					app.Label().For(id).Class("colstats-value-text").Body(
						app.If(v.Value == "", func() app.UI { return app.Em().Text("(empty)") }).
							Else(func() app.UI { return app.Text(v.Value) }),
					),
					app.Span().Class("colstats-count").Text(ge+session.GroupDigits(v.Count)),
					app.Span().Class("colstats-share").Aria("hidden", true).Body(
						app.Span().Style("width", fmt.Sprintf("%.1f%%", share)),
					),
				)
			}),
		),
		app.Div().Class("colstats-range").Body(
			app.Button().Type("button").Class("colstats-apply").Attr("data-action", "quick-filter").Text("Filter to the values checked").
				OnClick(func(ctx app.Context, e app.Event) {
					var values []string
					for _, v := range s.Top {
						if p.checked[v.Value] {
							values = append(values, v.Value)
						}
					}
					ActionQuickFilter.Send(ctx, session.QuickAsk{X: p.X, Values: values})
				}),
		),
	)
}

// onKeyDown: Escape closes the panel.
func (p *ColumnStatsPanel) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		e.PreventDefault()
		e.Call("stopPropagation")
		ActionColStatsClose.Send(ctx)
		return
	}
	ctx.PreventUpdate()
}

// onBackdrop: a click on the backdrop, outside the dialog, closes it.
func (p *ColumnStatsPanel) onBackdrop(ctx app.Context, e app.Event) {
	if e.Get("target").Equal(e.Get("currentTarget")) {
		ActionColStatsClose.Send(ctx)
		return
	}
	ctx.PreventUpdate()
}

// Actions of the statistics panel and the headers' statistics buttons.
const (
	ActionColStats       kit.Action[StatsAsk]         = "tv/col-stats"        // a header's statistics button, or another statistic chosen in the panel
	ActionQuickFilter    kit.Action[session.QuickAsk] = "tv/quick-filter"     // the panel's quick filter
	ActionColStatsCancel kit.Signal                   = "tv/col-stats-cancel" // the panel's progress bar's Cancel
	ActionColStatsClose  kit.Signal                   = "tv/col-stats-close"  // the panel's × or Escape
)

// StatsAsk asks for the statistics of column Col (of a tensor column, of
// its statistic Fn: "mean" when "").
type StatsAsk struct {
	Col int
	Fn  string
}
