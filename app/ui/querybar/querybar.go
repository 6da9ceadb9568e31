package querybar

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// queryPlaceholder is the query bar's example.
const queryPlaceholder = "Filter rows: label = 'cat' and score > 0.9 · search('dog') · Enter applies, Escape clears"

// QueryBar is the filter above the rows: a query in the grammar of package
// query (search('text') finds text in any string column), applied with
// Enter, cleared with Escape; its error under it, the offending word
// marked; the scan's progress with Cancel, then in its place the result
// ("73 of 1,000 rows match · sorted by score, descending") with Clear, so
// that the grid below does not move when the scan ends; what the scan
// could not read.
type QueryBar struct {
	app.Compo
	Text     string              // the text applied last
	Err      *session.QueryError // why the last text does not compile (nil: it does)
	Status   session.ScanStatus  // data-query: running, done, error, cancelled, ""
	Task     string              // data-task of the progress line: filter or sort
	Progress *session.Progress   // the scan under way (nil: none)
	Sort     string              // the sort applied, as in the address ("-score"; "": none)
	Skipped  int64               // rows the filter ruled out by row-group statistics, unread
	Note     string              // rows the scan could not read or evaluate
	// Level: the bar filters a nested record batch, whose row count
	// (Count) it shows (the top bar's is the file's).
	Level bool
	Count kit.RowCount

	text string // the Text the input was given last
}

// OnMount notes the Text the input is drawn with.
func (q *QueryBar) OnMount(ctx app.Context) { q.text = q.Text }

// OnUpdate gives the input a new Text (another level's, a link's): go-app
// removes an empty value attribute, which leaves a value typed since in
// the input, so the value is set here.
func (q *QueryBar) OnUpdate(ctx app.Context) {
	if q.Text == q.text {
		return
	}
	q.text = q.Text
	ctx.Defer(func(app.Context) {
		if in := app.Window().GetElementByID("query-input"); in.Truthy() {
			in.Set("value", q.text)
		}
	})
}

// Render draws the bar.
func (q *QueryBar) Render() app.UI {
	return app.Div().Class("query-bar").Attr("data-role", "query-bar").Attr("data-query", q.Status).Body(
		app.Div().Class("query-line").Body(
			app.Label().For("query-input").Class("query-label").Text("Filter"),
			app.Input().ID("query-input").Type("search").Class("query-input").Attr("data-role", "query").
				Attr("autocomplete", "off").Attr("spellcheck", "false").
				Placeholder(queryPlaceholder).Value(q.Text).
				Aria("invalid", q.Err != nil && q.Err.What == "filter").Aria("describedby", "query-error").
				OnKeyDown(q.onKey),
			app.Button().Type("button").Class("query-apply").Attr("data-action", "apply-query").Text("Apply").
				OnClick(func(ctx app.Context, e app.Event) {
					ActionQuery.Send(ctx, app.Window().GetElementByID("query-input").Get("value").String())
				}),
			app.If(q.Level, q.levelRows),
		),
		// Fixed containers: go-app matches children by position.
		app.Div().ID("query-error").Class("query-messages").Body(
			app.If(q.Err != nil, func() app.UI { return queryErrorView(*q.Err) }),
		),
		app.Div().Class("query-status").Body(
			app.If(q.Progress != nil, func() app.UI {
				return &kit.ProgressBar{Task: q.Task, Progress: *q.Progress, OnCancel: ActionQueryCancel}
			}).ElseIf(q.Status == session.StatusDone && (q.Sort != "" || q.Count.Done()), q.result),
		),
		app.Div().Class("query-messages").Body(
			app.If(q.Note != "", func() app.UI {
				return app.P().Class("warning").Attr("data-role", "query-note").Text(q.Note)
			}),
		),
	)
}

// result is the query's result where its progress line was: the rows
// that match and the sort, with Clear (both go).
func (q *QueryBar) result() app.UI {
	var parts []string
	if c := q.Count; c.Done() {
		parts = append(parts, kit.MatchesText(c.Matches, c.Rows, true)+" rows match")
	}
	if q.Skipped > 0 {
		parts = append(parts, session.GroupDigits(q.Skipped)+" skipped unread by row-group statistics")
	}
	if q.Sort != "" {
		parts = append(parts, sortText(q.Sort))
	}
	return app.Div().Class("query-result").Attr("data-role", "query-result").Attr("data-skipped", q.Skipped).Body(
		app.Span().Text(strings.Join(parts, " · ")+" "),
		app.Button().Type("button").Class("link").Attr("data-action", "clear-query").Text("Clear").
			OnClick(func(ctx app.Context, e app.Event) { ActionQueryClear.Send(ctx) }),
	)
}

// sortText says a sort key as the address writes it: "-score" is "sorted
// by score, descending".
func sortText(key string) string {
	if k, desc := strings.CutPrefix(key, "-"); desc {
		return "sorted by " + k + ", descending"
	}
	return "sorted by " + key + ", ascending"
}

// levelRows is a nested record batch's row count: "2 rows", "1 of 2
// rows" with data-matches once its filter is done (the top bar's
// num-rows is the file's).
func (q *QueryBar) levelRows() app.UI {
	c := q.Count
	p := app.Span().Class("level-rows").Attr("data-role", "level-rows").Attr("data-query", c.Query).Attr("aria-live", "polite")
	if c.Done() {
		p = p.Attr("data-matches", c.Matches)
	}
	noun := " rows"
	if c.Rows == 1 {
		noun = " row"
	}
	return p.Text(c.Text() + noun)
}

// onKey: Enter applies the text, Escape clears it (and the filter).
func (q *QueryBar) onKey(ctx app.Context, e app.Event) {
	switch e.Get("key").String() {
	case "Enter":
		e.PreventDefault()
		ActionQuery.Send(ctx, ctx.JSSrc().Get("value").String())
	case "Escape":
		e.PreventDefault()
		ctx.JSSrc().Set("value", "")
		ActionQuery.Send(ctx, "")
	default:
		ctx.PreventUpdate()
	}
}

// queryErrorView shows a query's error: the text with the offending word
// marked (as text, never HTML), and what was wrong or expected.
func queryErrorView(e session.QueryError) app.UI {
	before, word, after := e.Parts()
	what := map[string]string{"filter": "Filter: ", "sort": "Sort: ", "scan": "Could not scan the file: "}[e.What]
	return app.Div().Class("query-error").Attr("data-role", "query-error").Role("alert").Body(
		app.Span().Class("query-error-msg").Text(what+e.Msg),
		app.If(e.Text != "", func() app.UI {
			return app.Code().Class("query-text").Body(
				app.Text(before),
				app.Mark().Attr("data-role", "query-error-word").Class(atEnd(word)).Text(word),
				app.Text(after),
			)
		}),
	)
}

// atEnd is the class of a marked word that is empty: the error is at the
// end of the text (drawn as a caret).
func atEnd(word string) string {
	if word == "" {
		return "at-end"
	}
	return ""
}

// Actions of the query bar and the column headers.
const (
	ActionQuery       kit.Action[string] = "tv/query"        // the query bar's filter (Enter; "" clears it)
	ActionQueryCancel kit.Signal         = "tv/query-cancel" // the query's progress bar's Cancel
	ActionQueryClear  kit.Signal         = "tv/query-clear"  // the query's result line's Clear
)

// CountOf is the row count of a level of rows rows (estimated unless
// exact) under q: its filter's matches once q has one.
func CountOf(q *session.Query, rows int64, exact bool) kit.RowCount {
	return kit.RowCount{Rows: rows, Exact: exact, Query: q.Status, Filter: q.Plan.FilterExpr != nil, Found: q.Found, Matches: q.Matches}
}
