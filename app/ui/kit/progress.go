package kit

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
)

// ProgressBar shows work under way with bytes done and a cancel button,
// which sends OnCancel.
type ProgressBar struct {
	app.Compo
	Task     string // data-task: "index", "download", "read" or "column-stats"
	Progress session.Progress
	OnCancel Signal
}

// Render draws the bar.
func (p *ProgressBar) Render() app.UI {
	pr := p.Progress
	done, total := pr.Done, pr.Total
	amount := fmt.Sprintf(" %s of %s ", decode.HumanBytes(pr.Done), decode.HumanBytes(pr.Total))
	if pr.RowsTotal > 0 {
		done, total = pr.RowsDone, pr.RowsTotal
		amount = " " + session.GroupDigits(pr.RowsDone) + " of " + session.GroupDigits(pr.RowsTotal) + " rows "
	}
	pct := 0.0
	if total > 0 {
		pct = 100 * float64(done) / float64(total)
	}
	div := app.Div().Class("progress").Attr("data-role", "progress").Attr("data-task", p.Task)
	if pr.RowsTotal > 0 {
		div = div.Attr("data-rows-done", fmt.Sprint(pr.RowsDone)).Attr("data-rows-total", fmt.Sprint(pr.RowsTotal))
	} else {
		div = div.Attr("data-bytes-read", fmt.Sprint(pr.Done)).Attr("data-bytes-total", fmt.Sprint(pr.Total))
	}
	return div.Body(
		app.Span().Text(pr.Label+" "),
		app.Progress().Max(100).Value(fmt.Sprintf("%.1f", pct)).Aria("label", pr.Label),
		app.Span().Class("bytes").Text(amount),
		app.If(pr.Rows > 0, func() app.UI {
			return app.Span().Class("rows-found").Attr("data-rows", pr.Rows).Text("· " + session.GroupDigits(pr.Rows) + " rows ")
		}),
		app.Button().Type("button").Class("link").Attr("data-action", "cancel").Text("Cancel").
			OnClick(func(ctx app.Context, e app.Event) { p.OnCancel.Send(ctx) }),
	)
}
