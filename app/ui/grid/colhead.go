package grid

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/colstats"
)

// colHead is column c's header: its name, which sorts by the column
// (click, or Enter/Space on it: ascending, descending, none; a tensor
// column by the statistic its select chooses, mean first), aria-sort and
// an arrow saying the sort, an image column's mask toggle
// (masktoggle.go), the button of its statistics (colstats.go) and the
// edge that resizes it.
func (r *RowsTable) colHead(c int, f decode.FieldInfo) app.UI {
	head := app.Div().Class("col-head").Role("columnheader").Aria("colindex", c+2).Attr("data-col", c).Title(f.Type)
	mask := r.maskToggle(c) // masktoggle.go
	if c >= len(r.Heads) || (!r.Heads[c].Plain && len(r.Heads[c].Stats) == 0) {
		return head.Body(app.Span().Class("col-name").Text(f.Name), mask, r.resizeHandle(c))
	}
	s, h := r.Sort, r.Heads[c]
	label := "Sort by " + f.Name
	if s.Col == c && s.Fn != "" {
		label = "Sort by " + s.Fn + "(" + f.Name + ")"
	} else if len(h.Stats) > 0 {
		label = "Sort by mean(" + f.Name + ")"
	}
	return head.Aria("sort", s.Aria(c)).Body(
		app.Button().Type("button").Class("col-sort").Attr("data-action", "sort").Title(label).Body(
			app.Span().Class("col-name").Text(f.Name),
			app.If(s.Col == c && s.Fn != "", func() app.UI { return app.Span().Class("sort-fn").Text(s.Fn) }),
			app.Span().Class("sort-mark").Aria("hidden", true).Text(s.Arrow(c)),
		).OnClick(func(ctx app.Context, e app.Event) {
			ActionSortCol.Send(ctx, SortAsk{Col: c})
		}),
		app.If(len(h.Stats) > 0, func() app.UI { return r.statSelect(c, f.Name, h.Stats) }),
		mask,
		r.statsButton(c, f.Name),
		r.resizeHandle(c),
	)
}

// statsButton opens the statistics of column c over the whole file (of
// a tensor column: of the statistic its select chose, mean first).
func (r *RowsTable) statsButton(c int, name string) app.UI {
	fn := ""
	if r.Sort.Col == c {
		fn = r.Sort.Fn
	}
	label := "Statistics of " + name
	return app.Button().Type("button").Class("col-stats").Attr("data-action", "column-stats").
		Aria("label", label).Title(label).Body(
		app.Span().Class("col-stats-icon").Aria("hidden", true).Body(app.Span(), app.Span(), app.Span()),
	).OnClick(func(ctx app.Context, e app.Event) {
		colstats.ActionColStats.Send(ctx, colstats.StatsAsk{Col: c, Fn: fn})
	})
}

// statSelect chooses the statistic a tensor column sorts by; choosing one
// sorts by it ascending, the empty choice sorts by none.
func (r *RowsTable) statSelect(c int, name string, stats []string) app.UI {
	cur := ""
	if r.Sort.Col == c {
		cur = r.Sort.Fn
	}
	return app.Select().Class("sort-stat").Attr("data-role", "sort-stat").Aria("label", "Sort "+name+" by a statistic").
		OnChange(func(ctx app.Context, e app.Event) {
			fn := ctx.JSSrc().Get("value").String()
			ActionSortCol.Send(ctx, SortAsk{Col: c, Fn: fn, Clear: fn == ""})
		}).Body(
		app.Option().Value("").Selected(cur == "").Text("stat"),
		app.Range(stats).Slice(func(i int) app.UI {
			return app.Option().Value(stats[i]).Selected(stats[i] == cur).Text(stats[i])
		}),
	)
}
