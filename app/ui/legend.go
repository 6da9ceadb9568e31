package ui

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/overlay"
)

// Legend lists the classes of the mask drawn: a toggle button per class
// present (its colour, id and name), pressed while the class is drawn;
// pressing it hands the class to OnToggle.
type Legend struct {
	app.Compo
	Items    []overlay.LegendItem
	OnToggle func(ctx app.Context, id int64)
}

// Render draws the list.
func (l *Legend) Render() app.UI {
	return app.Ul().Class("legend").Attr("data-role", "legend").Aria("label", "Classes (press to hide or show)").Body(
		app.Range(l.Items).Slice(func(i int) app.UI {
			it := l.Items[i]
			id := strconv.FormatInt(it.ID, 10)
			return app.Li().Body(
				app.Button().Type("button").Attr("data-class", id).Aria("pressed", !it.Hidden).
					Title(fmt.Sprintf("%s: %d pixels", it.Label, it.Pixels)).
					OnClick(func(ctx app.Context, e app.Event) { l.OnToggle(ctx, it.ID) }, app.EventScope("class-"+id)).Body(
					app.Span().Class("swatch").Aria("hidden", "true").
						Style("background", fmt.Sprintf("rgb(%d,%d,%d)", it.Color.R, it.Color.G, it.Color.B)),
					app.Span().Text(it.Label),
				),
			)
		}),
	)
}
