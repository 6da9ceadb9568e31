package colstats

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/tensorext"
)

// Actions of the inline panel: the inspector's column statistics.
const (
	ActionElementStats       kit.Signal = "tv/element-stats"        // its Compute button
	ActionElementStatsCancel kit.Signal = "tv/element-stats-cancel" // its progress bar's Cancel
)

// inline draws the element statistics of the inspected column (Sum's
// Elements) in the inspector's side: a button that starts them, their
// progress over both passes with Cancel, then the figures, the histogram
// of every element and the shapes the rows have. data-role=column-stats,
// with data-rows, data-min and data-max, once they are computed.
func (p *ColumnStatsPanel) inline() app.UI {
	if p.Sum == nil || p.Sum.Elements == nil {
		return app.Section().Class("column-stats").Attr("data-stats", p.Status).Body(
			app.H3().Text("Column"),
			app.If(p.Progress != nil, func() app.UI {
				return &kit.ProgressBar{Task: "column-stats", Progress: *p.Progress, OnCancel: ActionElementStatsCancel}
			}).Else(func() app.UI {
				return app.Div().Body(
					app.If(p.Status == session.StatusCancelled, func() app.UI {
						return app.P().Class("colstats-note").Attr("data-role", "stats-cancelled").Text("Cancelled.")
					}),
					app.If(p.Err != "", func() app.UI {
						return app.P().Class("alert").Role("alert").Attr("data-role", "stats-error").Text(p.Err)
					}),
					app.Button().Type("button").Attr("data-action", "column-stats").Text("Compute column statistics").
						OnClick(func(ctx app.Context, e app.Event) { ActionElementStats.Send(ctx) }),
				)
			}),
		)
	}
	s, c := *p.Sum, p.Sum.Elements
	return app.Section().Class("column-stats stats").Attr("data-role", "column-stats").Attr("data-stats", p.Status).
		Attr("data-rows", c.Rows).Attr("data-min", exact(c.Min)).Attr("data-max", exact(c.Max)).Body(
		app.H3().Text("Column"),
		figureRows(elementFigures(s, p.Unread)),
		app.If(c.Finite > 0 && len(c.Hist) > 0, func() app.UI { return p.histogram(elementHistogram(s), "value") }),
		app.H3().Class("shapes-head").Text("Shapes"),
		app.Ul().Class("shapes").Attr("data-role", "shapes").Body(
			app.Range(c.Shapes).Slice(func(i int) app.UI {
				sc := c.Shapes[i]
				return app.Li().Attr("data-shape", tensorext.JoinShape(sc.Shape)).Attr("data-rows", sc.Rows).
					Text(fmt.Sprintf("%s × %s", tensorext.FormatShape(sc.Shape), session.GroupDigits(int64(sc.Rows))))
			}),
			app.If(c.OtherShapes > 0, func() app.UI {
				return app.Li().Text(session.GroupDigits(int64(c.OtherShapes)) + " rows of other shapes")
			}),
		),
	)
}

// figureRows draws figures as the rows of a definition list, as the
// inspector's side lists a tensor's statistics.
func figureRows(figs []statFigure) app.UI {
	return app.Dl().Body(app.Range(figs).Slice(func(i int) app.UI {
		f := figs[i]
		return app.Div().Attr("data-stat", f.Key).Title(f.Title).Body(app.Dt().Text(f.Label), app.Dd().Text(f.Value))
	}))
}

// exact is a value as data attributes carry it: every digit.
func exact(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
