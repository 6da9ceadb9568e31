package open

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/internal/perfmark"
)

// Accepted lists the file name endings the file picker offers; any file can
// still be dropped, since the format is sniffed from the bytes. Picking
// several opens them as one dataset (readFiles).
const Accepted = ".arrow,.arrows,.feather,.ipc,.parquet"

// DropZone invites a person to open a file: drop it (the Viewer takes drops
// anywhere on the page), pick it, or try a sample.
type DropZone struct {
	app.Compo
	Compact bool // a file is open: draw the zone as a slim bar
	Over    bool // a drag is over the page
	// Starting: the server-rendered page, before the wasm has started. The
	// zone says so in a status line, which web/boot.js rewrites when a file
	// is asked for meanwhile ("Opening … as soon as tensorview has started").
	Starting bool
}

// Render draws the zone.
func (d *DropZone) Render() app.UI {
	class := "dropzone"
	if d.Compact {
		class += " compact"
	}
	if d.Over {
		class += " over"
	}
	return app.Div().Class(class).Attr("data-role", "dropzone").
		Body(
			app.P().Class("drop-hint").Text("Drop Arrow IPC files or streams (.arrow, .arrows, .feather), Parquet files or a folder of them here, or"),
			app.Label().Class("button").Body(
				app.Text("Open file…"),
				app.Input().Type("file").Accept(Accepted).Multiple(true).Attr("data-role", "file-input").Class("visually-hidden").OnChange(d.onPick),
			),
			app.If(!d.Compact, func() app.UI { return &URLForm{} }),
			app.If(!d.Compact, func() app.UI { return &HFForm{} }),
			&Samples{},
			app.If(d.Starting, func() app.UI {
				return app.P().Class("starting").Role("status").Attr("data-role", "starting").Attr("aria-busy", "true").
					Text("Starting tensorview…")
			}).ElseIf(!d.Compact, func() app.UI {
				// The status line's room, kept once the app has started: the
				// zone is centred in the page, and a line less would move
				// everything under a click made just then.
				return app.P().Class("starting").Aria("hidden", "true")
			}),
		)
}

func (d *DropZone) onPick(ctx app.Context, e app.Event) {
	perfmark.Mark("change-handler")
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	readFiles(ctx, files, nil)
	input.Set("value", "") // picking the same file again fires change again
}
