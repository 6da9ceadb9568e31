package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/open"
)

// FileInfo shows the opened file's name and facts on one line of the top
// bar: size, format, record batches, rows, columns; for a Parquet file row
// groups instead of record batches, and its writer (created_by) and
// compression codecs. Each fact is a dt/dd pair (read as "Rows 64"),
// drawn value first ("64 rows").
type FileInfo struct {
	app.Compo
	File    *decode.File
	Count   kit.RowCount // the file's rows, or its filter's matches
	Batches int
}

// Render draws the facts.
func (f *FileInfo) Render() app.UI {
	file := f.File
	pq, isParquet := file.ParquetFacts()
	format, groups := string(file.Format), pq.RowGroups
	shards := file.Shards()
	if shards != nil {
		// A dataset: its files' formats; of Parquet files only, its
		// record batches are row groups.
		format = open.ShardFormats(shards, file.Format)
		isParquet, groups = format == string(decode.Parquet), f.Batches
	}
	fact := func(label string, dd app.HTMLDd) app.UI {
		return app.Div().Body(app.Dt().Text(label), dd)
	}
	return app.Section().Class("file-info").Attr("data-role", "file-info").Body(
		app.H2().Title(file.Name).Text(file.Name),
		app.Dl().Body(
			fact("Format", app.Dd().Attr("data-role", "format").Text(format)),
			fact("Size", app.Dd().Attr("data-bytes", file.Size).Text(decode.HumanBytes(file.Size))),
			app.If(shards != nil, func() app.UI {
				return fact("Files", app.Dd().Attr("data-role", "num-shards").Attr("data-shards", len(shards)).Title(open.ShardsText(shards)).Text(len(shards)))
			}),
			app.If(!isParquet, func() app.UI {
				return fact("Record batches", app.Dd().Attr("data-role", "batches").Text(f.Batches))
			}).Else(func() app.UI {
				return fact("Row groups", app.Dd().Attr("data-role", "row-groups").Text(groups))
			}),
			fact("Rows", f.numRows()),
			fact("Columns", app.Dd().Text(len(file.Fields()))),
			app.If(pq.Compression != "", func() app.UI {
				return fact("Compression", app.Dd().Attr("data-role", "compression").Text(pq.Compression))
			}),
			app.If(pq.CreatedBy != "", func() app.UI {
				return fact("Created by", app.Dd().Attr("data-role", "created-by").Title(pq.CreatedBy).Text(pq.CreatedBy))
			}),
		),
	)
}

// numRows is the row count: of the file, or of a filter's result "1,204
// of 3,000,000", with data-matches once the filter is done.
func (f *FileInfo) numRows() app.HTMLDd {
	c := f.Count
	dd := app.Dd().Attr("data-role", "num-rows").Attr("data-exact", c.Exact).Attr("data-query", c.Query)
	if c.Done() {
		dd = dd.Attr("data-matches", c.Matches)
	}
	return dd.Text(c.Text())
}

// FileWarnings lists what the reader noticed about the file (File.Warnings)
// under the top bar; Count makes new warnings show.
type FileWarnings struct {
	app.Compo
	File  *decode.File
	Count int
}

// Render draws the warnings.
func (w *FileWarnings) Render() app.UI {
	warnings := w.File.Warnings()
	return app.Div().Class("file-warnings").Attr("data-role", "file-warnings").Body(
		app.Range(warnings).Slice(func(i int) app.UI {
			return app.P().Class("warning").Role("alert").Text(warnings[i])
		}),
	)
}

// SchemaMetadata shows the schema-level key/value metadata (in the schema
// panel), closed until asked for.
type SchemaMetadata struct {
	app.Compo
	Items []decode.KV
}

// Render draws the metadata, nothing when there is none.
func (m *SchemaMetadata) Render() app.UI {
	return app.Details().Class("metadata").Body(
		app.Summary().Text(fmt.Sprintf("Schema metadata (%d)", len(m.Items))),
		&MetadataList{Items: m.Items},
	)
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
