package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
)

// FileInfo shows facts about the opened file and its schema-level metadata.
type FileInfo struct {
	app.Compo
	File     *decode.File
	Rows     int64 // estimated until Exact
	Exact    bool
	Batches  int
	Warnings int // how many File.Warnings there are (so new ones show)
}

// Render draws the facts.
func (f *FileInfo) Render() app.UI {
	file := f.File
	warnings := file.Warnings()
	return app.Section().Class("file-info").Attr("data-role", "file-info").Body(
		app.H2().Text(file.Name),
		app.Dl().Body(
			app.Dt().Text("Size"), app.Dd().Attr("data-bytes", file.Size).Text(decode.HumanBytes(file.Size)),
			app.Dt().Text("Format"), app.Dd().Attr("data-role", "format").Text(string(file.Format)),
			app.Dt().Text("Record batches"), app.Dd().Attr("data-role", "batches").Text(f.Batches),
			app.Dt().Text("Rows"), app.Dd().Attr("data-role", "num-rows").Attr("data-exact", f.Exact).Text(rowsText(f.Rows, f.Exact)),
			app.Dt().Text("Columns"), app.Dd().Text(len(file.Fields())),
		),
		app.Range(warnings).Slice(func(i int) app.UI {
			return app.P().Class("warning").Role("alert").Text(warnings[i])
		}),
		app.If(len(file.Metadata) > 0, func() app.UI {
			return app.Details().Class("metadata").Body(
				app.Summary().Text(fmt.Sprintf("Schema metadata (%d)", len(file.Metadata))),
				&MetadataList{Items: file.Metadata},
			)
		}),
	)
}

// rowsText writes a row count, "≈" marking an estimate.
func rowsText(n int64, exact bool) string {
	if exact {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("≈%d", n)
}

// MetadataList shows key/value metadata as text.
type MetadataList struct {
	app.Compo
	Items []decode.KV
}

// Render draws the list.
func (m *MetadataList) Render() app.UI {
	return app.Dl().Class("kv").Body(
		app.Range(m.Items).Slice(func(i int) app.UI {
			kv := m.Items[i]
			return app.Div().Attr("data-key", kv.Key).Body(
				app.Dt().Text(kv.Key),
				app.Dd().Body(app.Pre().Text(kv.Value)),
			)
		}),
	)
}
