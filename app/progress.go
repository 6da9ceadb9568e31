package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
)

// progress is work under way on a file, in bytes, and the rows found so far
// (0 when the work finds none).
type progress struct {
	Label       string
	Done, Total int64
	Rows        int64
}

// ProgressBar shows work under way with bytes done and a cancel button,
// which sends the action named OnCancel.
type ProgressBar struct {
	app.Compo
	Task     string // data-task: "index" or "read"
	Progress progress
	OnCancel string
}

// Render draws the bar.
func (p *ProgressBar) Render() app.UI {
	pr := p.Progress
	pct := 0.0
	if pr.Total > 0 {
		pct = 100 * float64(pr.Done) / float64(pr.Total)
	}
	return app.Div().Class("progress").Attr("data-role", "progress").Attr("data-task", p.Task).
		Attr("data-bytes-read", fmt.Sprint(pr.Done)).Attr("data-bytes-total", fmt.Sprint(pr.Total)).Body(
		app.Span().Text(pr.Label+" "),
		app.Progress().Max(100).Value(fmt.Sprintf("%.1f", pct)).Aria("label", pr.Label),
		app.Span().Class("bytes").Text(fmt.Sprintf(" %s of %s ", decode.HumanBytes(pr.Done), decode.HumanBytes(pr.Total))),
		app.If(pr.Rows > 0, func() app.UI {
			return app.Span().Class("rows-found").Attr("data-rows", pr.Rows).Text(fmt.Sprintf("· %d rows ", pr.Rows))
		}),
		app.Button().Type("button").Class("link").Attr("data-action", "cancel").Text("Cancel").
			OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(p.OnCancel) }),
	)
}
