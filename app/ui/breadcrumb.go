package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Breadcrumb is the way back out of nested record batches: the file, then
// each nested batch opened ("runs, row 0: sunny"), the last one the batch
// shown. A crumb before the last shows its level again (actionCrumb).
type Breadcrumb struct {
	app.Compo
	Levels []string // the file's name, then one label per nested batch
}

// Render draws the trail.
func (b *Breadcrumb) Render() app.UI {
	last := len(b.Levels) - 1
	return app.Nav().Class("breadcrumb").Attr("data-role", "breadcrumb").Aria("label", "Nested record batches").Body(
		app.Ol().Body(
			app.Range(b.Levels).Slice(func(k int) app.UI {
				if k == last {
					return app.Li().Body(app.Span().Aria("current", "page").Attr("data-level", k).Text(b.Levels[k]))
				}
				return app.Li().Body(
					app.Button().Type("button").Class("link").Attr("data-level", k).Text(b.Levels[k]).
						OnClick(func(ctx app.Context, e app.Event) { actionCrumb.Send(ctx, k) }),
				)
			}),
		),
	)
}
