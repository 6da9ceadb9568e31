package ui

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// ShardList lists the files of a dataset in the schema panel, in the
// order their rows come: each file's name, format, size, first row (≈
// until the files before it are counted) and rows (≈ until it is open and
// indexed), or why it could not be opened.
// The table is [data-role=shards], a row per file [data-shard=<name>].
type ShardList struct {
	app.Compo
	Shards []decode.ShardInfo
}

// Render draws the list.
func (l *ShardList) Render() app.UI {
	return app.Details().Class("shards").Open(len(l.Shards) <= 20).Body(
		app.Summary().Text(fmt.Sprintf("Files (%d)", len(l.Shards))),
		app.Table().Attr("data-role", "shards").Body(
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("File"), app.Th().Scope("col").Text("Format"),
				app.Th().Scope("col").Text("Size"), app.Th().Scope("col").Text("First row"), app.Th().Scope("col").Text("Rows"),
			)),
			app.TBody().Body(app.Range(l.Shards).Slice(func(i int) app.UI {
				s := l.Shards[i]
				format, size := "", "?"
				if s.File != nil {
					format = string(s.File.Format)
				}
				if s.Size >= 0 {
					size = decode.HumanBytes(s.Size)
				}
				tr := app.Tr().Attr("data-shard", s.Name).Attr("data-rows", s.Rows).Attr("data-exact", s.Exact)
				if s.Err != "" {
					return tr.Attr("data-error", true).Body(
						app.Th().Scope("row").Text(s.Name),
						app.Td().ColSpan(4).Class("error").Text(strings.TrimPrefix(s.Err, s.Name+": ")), // the row names it
					)
				}
				return tr.Body(
					app.Th().Scope("row").Text(s.Name),
					app.Td().Text(format),
					app.Td().Text(size),
					app.Td().Text(kit.RowsText(s.Start, s.Placed)),
					app.Td().Text(kit.RowsText(s.Rows, s.Exact)),
				)
			})),
		),
	)
}
