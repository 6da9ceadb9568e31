package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/ui/grid"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/open"
	"github.com/tensorview/tensorview/app/ui/querybar"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Render draws the page. go-app matches children by position: everything
// that comes and goes lives inside fixed containers, so the file view
// keeps its place (and its scroll position) when a message shows.
func (v *Viewer) Render() app.UI {
	state := v.opener.Status.State.Drawn()
	view := v.st()
	target, inspecting := v.inspected()
	return app.Div().Class("viewer").Attr("data-state", state.String()).Attr("data-embed", view.Embed).
		Attr("data-ready", v.page.mounted).Attr("data-warm-up", v.opener.WarmUp.String()).
		OnDragEnter(v.opener.OnDragOver).OnDragOver(v.opener.OnDragOver).OnDragLeave(v.opener.OnDragLeave).OnDrop(v.opener.OnDrop).
		OnKeyDown(v.onKeyDown).
		Body(
			topBar(v, view),
			app.Div().Class("messages").Body(
				app.If(v.page.update, updateNote),
			),
			// With no file, the drop zone and the samples, centred.
			app.Div().Class("start").Body(
				app.If(v.File() == nil, func() app.UI { return &open.DropZone{Over: v.opener.Over, Starting: app.IsServer} }),
				app.If(v.File() == nil, typeSpecimen),
				app.If(v.page.mounted && v.File() == nil && state == open.StateEmpty && v.opener.WarmUp == open.WarmUpPending, func() app.UI { return &WarmUp{} }),
			),
			app.Div().Class("messages").Body(
				app.If(v.opener.Status.LoadingText() != "", func() app.UI {
					return app.P().Class("loading").Attr("aria-live", "polite").Text(v.opener.Status.LoadingText())
				}),
				app.If(v.opener.Status.ErrText != "", func() app.UI { return openAlert(v) }),
			),
			app.Div().Class("messages").Body(
				app.If(v.opener.Opened.Changed != "", func() app.UI { return changedAlert(v) }),
			),
			// Background work (indexing, a download, a big read) in a
			// card at the foot of the window: the grid does not move when
			// it comes and goes.
			app.Div().Class("messages work-status").Body(
				app.If(v.opener.Work.Progress != nil, func() app.UI {
					return &kit.ProgressBar{Task: v.opener.Work.Task.String(), Progress: *v.opener.Work.Progress, OnCancel: open.ActionCancel}
				}),
			),
			app.If(v.File() != nil, func() app.UI { return fileView(v, view) }),
			app.If(inspecting, func() app.UI {
				return &Inspector{File: v.session().Shown(), Col: target.Col, Row: target.Row, Restore: view.Inspector, Column: *v.session().Elements()}
			}),
		)
}

// topBar is the top bar: with a file, one line of name, Open file…, the
// file's facts and the schema button. The file's items come and go
// together, before the theme button (go-app matches children by
// position).
func topBar(v *Viewer, view viewstate.State) app.UI {
	return app.Header().Class("top").Body(
		app.H1().Class("brand").Text("tensorview"),
		app.P().Class("tagline").Text("Look at the tensors in Arrow files. Everything happens in your browser: the file never leaves your machine."),
		app.IfSlice(v.File() != nil, func() []app.UI {
			f := v.File()
			return []app.UI{
				&open.DropZone{Compact: true, Over: v.opener.Over},
				&open.URLForm{Compact: true},
				&FileInfo{File: f, Count: querybar.CountOf(v.session().Levels().At(0).Query, v.opener.Opened.Rows, v.opener.Opened.Exact), Batches: f.NumBatches()},
				app.Button().Type("button").Class("toggle-schema").Attr("data-action", "toggle-schema").
					Aria("expanded", view.Schema).Aria("controls", "schema-panel").Text("Schema").OnClick(v.toggleSchema),
				app.Button().Type("button").Class("copy-link").Attr("data-action", "copy-link").
					Title("Copy a link to this view").Text("Copy link").OnClick(v.loc.copyLink),
				app.Span().Class("note").Attr("data-role", "note").Attr("aria-live", "polite").Text(v.loc.note),
				app.A().Class("open-full").Attr("data-role", "open-full").Href(v.loc.fullLink()).Target("_blank").Rel("noopener").
					Text("Open in tensorview ↗"),
			}
		}),
		&ThemeToggle{},
	)
}

// updateNote offers the reload to a newer build.
func updateNote() app.UI {
	return app.P().Class("update").Attr("data-role", "update").Attr("aria-live", "polite").Body(
		app.Text("A new version of tensorview is ready. "),
		app.Button().Type("button").Class("link").Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
	)
}

// openAlert says why the file asked for could not be opened.
func openAlert(v *Viewer) app.UI {
	return app.Div().Class("alert").Role("alert").Body(
		app.Strong().Text(v.opener.Status.AlertTitle()),
		app.Span().Text(v.opener.Status.ErrText),
		app.If(v.File() != nil, func() app.UI {
			return app.Span().Text(" Still showing " + v.File().Name + ".")
		}),
	)
}

// changedAlert says the file changed on the server while being read, and
// offers to open it again.
func changedAlert(v *Viewer) app.UI {
	return app.Div().Class("alert").Role("alert").Attr("data-role", "changed").Body(
		app.Strong().Text("Stopped reading. "),
		app.Span().Text(v.opener.Opened.Changed+": what is shown may mix two versions. "),
		app.Button().Type("button").Class("link").Attr("data-action", "reopen").Text("Open it again").
			OnClick(func(ctx app.Context, e app.Event) { open.ActionOpenURL.Send(ctx, v.opener.Opened.Src.URL) }),
	)
}

// fileView is the file shown: its warnings, the breadcrumb of nested
// batches, the schema panel and the rows.
func fileView(v *Viewer, view viewstate.State) app.UI {
	shown, q := v.session().Shown(), v.session().ShownQuery()
	filled := view.Schema || v.opener.Opened.PanelFilled
	top := shown == v.File()
	rows := v.opener.Opened.Rows
	if !top {
		rows, _ = shown.Rows()
	}
	table := &grid.RowsTable{File: shown, Rows: rows, Start: v.session().Levels().Shown().Start,
		Order: q.Order, OrderGen: q.Gen, Sort: q.Plan.Shown(), Heads: q.Heads, Masks: v.session().Masks(),
		Placement: shown.Placement()}
	if q.Order != nil {
		table.Rows = q.Order.Len()
	}
	return app.Div().Class("file").Body(
		&FileWarnings{File: v.File(), Count: len(v.File().Warnings())},
		app.Div().Class("nesting").Body(
			app.If(v.session().Levels().Depth() > 0, func() app.UI { return &Breadcrumb{Levels: v.session().Levels().Crumbs()} }),
		),
		// In the page whether open or not (display: none when closed), so
		// its hooks stay readable; closed, its content comes after the
		// file's first screen (data-filled: true from then on), which it
		// is not part of.
		app.Aside().ID("schema-panel").Class(panelClass(view.Schema)).Attr("data-role", "schema-panel").Attr("data-filled", filled).Body(
			app.Button().Type("button").Class("close").Attr("data-action", "close-schema").Aria("label", "Close the schema").
				Text("×").OnClick(v.toggleSchema),
			app.If(filled && len(shown.Metadata) > 0, func() app.UI { return &SchemaMetadata{Items: shown.Metadata} }),
			app.If(filled && shown.Shards() != nil, func() app.UI { return &ShardList{Shards: shown.Shards()} }),
			app.If(filled, func() app.UI { return &SchemaTable{Fields: shown.Fields()} }),
		),
		// The query bar filters the rows of the level shown: the file's,
		// or a nested batch's (whose row count shows here, the top bar's
		// being the file's).
		app.Div().Class("query-area").Body(
			&querybar.QueryBar{Text: q.Input, Err: q.Err, Status: q.Status, Task: q.Task(),
				Progress: q.Progress, Sort: q.Plan.Sort, Skipped: q.Skipped, Note: q.Note, Level: !top, Count: querybar.CountOf(q, rows, true)},
		),
		table,
		// The column statistics' dialog, over the page.
		app.Div().Class("colstats-area").Body(
			app.If(v.session().Stats().Open, func() app.UI { return colStatsPanel(v) }),
		),
	)
}
