//go:build !wasm

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// pqExpected is a file of testdata/parquet_expected.json (written by
// testdata/gen_parquet.mjs from the values it wrote).
type pqExpected struct {
	Source      string `json:"source"` // a broken copy of this file
	CreatedBy   string `json:"created_by"`
	NumRows     int    `json:"num_rows"`
	RowGroups   []int  `json:"row_groups"`
	BadRowGroup *int   `json:"bad_row_group"`
	BadRows     [2]int `json:"bad_rows"` // [first, end)
	LZOColumn   string `json:"lzo_column"`
	Error       string `json:"error"`
	Columns     map[string]struct {
		Plain []any             `json:"plain"`
		Rows  []json.RawMessage `json:"rows"`
	} `json:"columns"`
}

// pqTensorRow is one tensor cell of parquet_expected.json.
type pqTensorRow struct {
	Error        string `json:"error"`
	Shape        []int  `json:"shape"`
	Permutation  []int  `json:"permutation"`
	LogicalShape []int  `json:"logical_shape"`
	Values       []any  `json:"values"`
	Format       string `json:"format"` // an encoded image's
	Path         string `json:"path"`   // a Hugging Face image without bytes
}

// pqCell is what the page shows of one cell.
type pqCell struct {
	Found, Tensor, Null bool
	Shape, Err, Text    string
	Summary             []string
	ImageFormat         string
}

func (b *browser) pqRow(r int) map[string]pqCell {
	b.t.Helper()
	b.run(chromedp.SetValue(`[data-role=goto-row]`, fmt.Sprint(r), chromedp.ByQuery),
		chromedp.SendKeys(`[data-role=goto-row]`, kb.Enter, chromedp.ByQuery))
	sel := fmt.Sprintf(`[data-row="%d"]`, r)
	b.waitFor(`document.querySelector('` + sel + ` [data-field]') !== null && document.querySelector('` + sel + `[data-loading]') === null`)
	var cells map[string]pqCell
	b.eval(`Object.fromEntries([...document.querySelectorAll('`+sel+` [data-field]')].map(c => [c.dataset.field, {
		Found: true, Tensor: c.hasAttribute('data-tensor'), Null: c.hasAttribute('data-null'), Shape: c.dataset.shape || '',
		Err: c.dataset.cellError || '', Text: c.querySelector('.text')?.textContent ?? '',
		Summary: [...c.querySelectorAll('.summary > div')].map(d => d.textContent),
		ImageFormat: c.querySelector('canvas[data-image-format]')?.dataset.imageFormat || ''}]))`, &cells)
	return cells
}

// TestParquetFixtures opens each Parquet file testdata/gen_parquet.mjs
// wrote with non-Go writers (parquet-wasm, hyparquet-writer) and checks
// what the page shows against parquet_expected.json: the file facts, and
// every cell of every row: plain values as text, tensors' shapes and (small
// ones) values in logical order, Hugging Face images as PNG thumbnails of
// their shape, null rows, the ragged row's error; the corrupt row group's
// rows show the reader's crash while the others read (by a fresh worker);
// the LZO column shows its error while the others read; the encrypted file
// is refused with a message that says so.
func TestParquetFixtures(t *testing.T) {
	skipWithoutSite(t)
	data, err := os.ReadFile(filepath.Join("testdata", "parquet_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var all struct {
		Files   map[string]pqExpected `json:"files"`
		Interop struct {
			Files map[string]pqExpected `json:"files"`
		} `json:"interop"`
	}
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	for _, name := range []string{"parquet_tensors.parquet", "parquet_nested_lists.parquet", "parquet_hf_images.parquet",
		"parquet_corrupt_rowgroup.parquet", "parquet_lzo.parquet", "parquet_encrypted.parquet",
		// Files of ../shared/interop: R's (parquet-cpp 1.5.1) and arrow-rs's.
		"arrow/r__tests__testthat__golden-files__data-arrow-extra-meta_3.0.0.parquet",
		"generated-nonGo-writers/arrowrs_fixed_shape_tensor.parquet",
		"generated-nonGo-writers/arrowrs_tensors_mixed.parquet"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			want, path := all.Files[name], filepath.Join("testdata", name)
			if strings.Contains(name, "/") {
				want, path = all.Interop.Files[name], filepath.Join("..", "shared", "interop", name)
				if want.NumRows == 0 {
					t.Fatalf("parquet_expected.json has no interop entry for %s", name)
				}
				name = filepath.Base(name)
			}
			b.t = t
			if want.Error != "" {
				b.run(chromedp.Navigate(b.base))
				b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
				b.upload(path)
				b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
				var text string
				b.eval(`document.querySelector('[role=alert]').textContent`, &text)
				if !strings.Contains(text, "encrypted") {
					t.Errorf("the error says %q, want that the file is encrypted", text)
				}
				return
			}
			cols := want.Columns
			if want.Source != "" {
				cols = all.Files[want.Source].Columns
			}
			b.upload(path)
			b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q`, name))
			f := b.parquetFacts()
			if f.Format != "Parquet" || f.RowGroups != fmt.Sprint(len(want.RowGroups)) || f.Rows != fmt.Sprint(want.NumRows) || f.CreatedBy != want.CreatedBy {
				t.Errorf("file facts %+v, want %d row groups, %d rows, created by %q", f, len(want.RowGroups), want.NumRows, want.CreatedBy)
			}
			for r := range want.NumRows {
				got := b.pqRow(r)
				bad := want.BadRowGroup != nil && r >= want.BadRows[0] && r < want.BadRows[1]
				for field, col := range cols {
					c := got[field]
					switch {
					case !c.Found:
						t.Errorf("row %d: no cell for %s", r, field)
					case bad:
						if !strings.Contains(c.Err, fmt.Sprintf("row group %d", *want.BadRowGroup)) || !strings.Contains(c.Err, "parquet-wasm") {
							t.Errorf("row %d %s: %+v, want row group %d's error", r, field, c, *want.BadRowGroup)
						}
					case field == want.LZOColumn:
						if !strings.Contains(c.Err, "LZO") {
							t.Errorf("row %d %s: %+v, want the LZO column's error", r, field, c)
						}
					case col.Plain != nil:
						v := col.Plain[r]
						if v == nil {
							if !c.Null {
								t.Errorf("row %d %s: %+v, want null", r, field, c)
							}
						} else if !plainMatches(c.Text, v) || c.Err != "" {
							t.Errorf("row %d %s: %+v, want %v", r, field, c, v)
						}
					default:
						checkPQTensor(t, r, field, c, col.Rows[r])
					}
				}
			}
			b.screenshot(strings.TrimSuffix(name, ".parquet"))
			if name != "parquet_lzo.parquet" {
				return
			}
			// The Parquet facts, a column's error and the schema panel, in
			// both themes, wide and on a phone.
			for _, v := range b.axe() {
				t.Errorf("Parquet file: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
			}
			b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
				chromedp.EmulateViewport(360, 640))
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
			b.screenshot("parquet-dark-360-schema")
			for _, v := range b.axe() {
				t.Errorf("Parquet file's schema, dark, 360 px: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
			}
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery),
				emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}),
				chromedp.EmulateViewport(1280, 800))
		})
	}
}

func checkPQTensor(t *testing.T, r int, field string, c pqCell, raw json.RawMessage) {
	t.Helper()
	if string(raw) == "null" {
		if !c.Null {
			t.Errorf("row %d %s: %+v, want a null", r, field, c)
		}
		return
	}
	var w pqTensorRow
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	switch {
	case w.Error != "":
		if c.Err == "" {
			t.Errorf("row %d %s: %+v, want its error (%s)", r, field, c, w.Error)
		}
		return
	case w.Shape == nil: // an image without bytes (a path)
		if c.Tensor {
			t.Errorf("row %d %s: %+v, want no tensor (path %q only)", r, field, c, w.Path)
		}
		return
	}
	if !c.Tensor || c.Shape != joinInts(w.Shape) || c.Err != "" {
		t.Errorf("row %d %s: %+v, want a tensor of shape %v", r, field, c, w.Shape)
		return
	}
	if w.Format != "" {
		if c.ImageFormat != w.Format {
			t.Errorf("row %d %s: thumbnail of format %q, want %q", r, field, c.ImageFormat, w.Format)
		}
		return
	}
	n := 1
	for _, d := range w.Shape {
		n *= d
	}
	if n > 16 || n == 0 {
		return // not listed
	}
	bits := 64
	if strings.Contains(field, "f32") {
		bits = 32
	}
	lshape, lvalues := logical(w.Shape, w.Permutation, w.Values)
	if text := nestedText(lshape, lvalues, bits); !containsString(c.Summary, text) {
		t.Errorf("row %d %s lists %q, want %q", r, field, c.Summary, text)
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// plainMatches compares a plain cell's text with its expected value: a
// struct or list (arrow-go writes it as JSON) by its JSON value, anything
// else as fmt.Sprint writes it.
func plainMatches(text string, want any) bool {
	switch want.(type) {
	case map[string]any, []any:
		var got any
		return json.Unmarshal([]byte(text), &got) == nil && reflect.DeepEqual(got, want)
	}
	return text == fmt.Sprint(want)
}
