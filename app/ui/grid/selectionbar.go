package grid

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/viewstate"
)

// SelectionBar says which tensor cells of the grid are selected
// (gridselect.go) and, with two, offers to compare them: its button, named
// after both cells ("Compare target, row 0 with prediction, row 0"), opens
// the inspector on the first with vs= the second. Clear (or Escape in the
// grid) unselects them. Always drawn, so that its status is a live region
// before it says anything.
type SelectionBar struct {
	app.Compo
	Count   int
	Status  string                  // what is selected ("" for nothing)
	Compare string                  // the Compare button's text, "" without a pair
	Open    viewstate.OpenInspector // what the Compare button opens
}

// Render draws the bar.
func (s *SelectionBar) Render() app.UI {
	return app.Div().Class("selection-bar").Attr("data-role", "selection").Attr("data-count", s.Count).Body(
		app.Span().Class("selection-status").Role("status").Text(s.Status),
		app.If(s.Compare != "", func() app.UI {
			return app.Button().Type("button").Class("compare-selected").Attr("data-action", "compare-selected").Text(s.Compare).
				OnClick(func(ctx app.Context, e app.Event) {
					ActionCompareCells.Send(ctx, s.Open)
					actionClearSelection.Send(ctx)
				})
		}),
		app.If(s.Count > 0, func() app.UI {
			return app.Button().Type("button").Class("link").Attr("data-action", "clear-selection").
				Aria("label", "Clear the selection (Escape)").Text("Clear").
				OnClick(func(ctx app.Context, e app.Event) { actionClearSelection.Send(ctx) })
		}),
	)
}
