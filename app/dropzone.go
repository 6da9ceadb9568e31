package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Accepted lists the file name endings the file picker offers; any file can
// still be dropped, since the format is sniffed from the bytes.
const Accepted = ".arrow,.arrows,.feather,.ipc"

// DropZone lets a person open a file: drop it, pick it, or try a sample.
type DropZone struct {
	app.Compo
	Compact bool // a file is open: draw the zone as a slim bar
	over    bool // a drag is over the zone
}

// Render draws the zone.
func (d *DropZone) Render() app.UI {
	class := "dropzone"
	if d.Compact {
		class += " compact"
	}
	if d.over {
		class += " over"
	}
	return app.Div().Class(class).Attr("data-role", "dropzone").
		OnDragEnter(d.onDragOver).OnDragOver(d.onDragOver).OnDragLeave(d.onDragLeave).OnDrop(d.onDrop).
		Body(
			app.P().Class("drop-hint").Text("Drop an Arrow IPC file or stream (.arrow, .arrows, .feather) here, or"),
			app.Label().Class("button").Body(
				app.Text("Open file…"),
				app.Input().Type("file").Accept(Accepted).Attr("data-role", "file-input").Class("visually-hidden").OnChange(d.onPick),
			),
			&Samples{},
		)
}

func (d *DropZone) onDragOver(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if d.over {
		ctx.PreventUpdate()
		return
	}
	d.over = true
}

func (d *DropZone) onDragLeave(ctx app.Context, e app.Event) {
	d.over = false
}

func (d *DropZone) onDrop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	d.over = false
	files := e.Get("dataTransfer").Get("files")
	if !files.Truthy() || files.Length() == 0 {
		ctx.NewActionWithValue(actionFail, "nothing was dropped that can be read as a file")
		return
	}
	readFile(ctx, files.Index(0))
}

func (d *DropZone) onPick(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	readFile(ctx, files.Index(0))
	input.Set("value", "") // picking the same file again fires change again
}
