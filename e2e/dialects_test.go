//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/chromedp"
)

// dialectColumn is one column of testdata/dialects_expected.json or
// daft_lance_expected.json: the values the generators wrote.
type dialectColumn struct {
	Dialect   string `json:"dialect"`
	Error     string `json:"error"`
	None      bool   `json:"none"`
	ValueType string `json:"value_type"`
	Rows      []*struct {
		Shape  []int `json:"shape"`
		Values []any `json:"values"`
		Error  string
	} `json:"rows"`
}

func loadDialectExpected(t *testing.T, name string) map[string]map[string]dialectColumn {
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]dialectColumn{}
	for file, cols := range raw {
		if !strings.HasSuffix(file, ".arrow") {
			continue // "about"
		}
		var m map[string]dialectColumn
		if err := json.Unmarshal(cols, &m); err != nil {
			t.Fatalf("%s %s: %v", name, file, err)
		}
		out[file] = m
	}
	return out
}

// TestDialects opens the files written following each producer's layout
// (Ray, Hugging Face ArrayND, Daft, Lance bfloat16, plain nested lists) and
// checks every tensor cell against the values the generator wrote: shape,
// null rows, per-row errors and, for small tensors, the values listed; the
// schema panel names the dialect; refused columns (hostile pickles, Daft's
// sparse tensors) say why and show their storage; a Daft image's preview
// has the exact pixels; an embedding's strip; the inspector opens on a
// tensor of every dialect with the generator's min and max.
func TestDialects(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	expected := loadDialectExpected(t, "dialects_expected.json")
	for k, v := range loadDialectExpected(t, "daft_lance_expected.json") {
		expected[k] = v
	}
	b := newBrowser(t)
	for _, file := range []string{"dialects_nested.arrow", "dialects_ray.arrow", "dialects_hf.arrow", "dialects_daft.arrow", "lance_bfloat16.arrow"} {
		t.Run(file, func(t *testing.T) {
			b.upload(filepath.Join("..", "testdata", file))
			b.waitOpened(file)
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
			b.waitFor(`document.querySelector('[data-role=schema-panel] tr[data-field]') !== null`)
			for name, col := range expected[file] {
				var schema struct{ Dialect, Note string }
				b.eval(fmt.Sprintf(`(() => { const tr = document.querySelector('[data-role=schema-panel] tr[data-field=%q]');
					return {Dialect: tr?.querySelector('[data-role=dialect]')?.dataset.dialect || '',
						Note: tr?.querySelector('[data-role=column-note]')?.textContent || ''}; })()`, name), &schema)
				var tensors int
				b.eval(fmt.Sprintf(`document.querySelectorAll('[data-row] [data-tensor][data-field=%q]').length`, name), &tensors)
				switch {
				case col.None:
					if schema.Dialect != "" || tensors != 0 {
						t.Errorf("%s: read as %q with %d tensor cells, want a plain column", name, schema.Dialect, tensors)
					}
					continue
				case col.Error != "":
					if schema.Dialect != "" || tensors != 0 || (col.Dialect == "" && schema.Note == "" && !strings.Contains(col.Error, "not numeric")) {
						t.Errorf("%s: read as %q, %d tensor cells, note %q; want its storage and why (%s)", name, schema.Dialect, tensors, schema.Note, col.Error)
					}
					continue
				}
				if col.Dialect != "" && schema.Dialect != col.Dialect {
					t.Errorf("%s: the schema panel says read as %q, want %q", name, schema.Dialect, col.Dialect)
				}
				bits := 64
				if col.ValueType == "float32" || file == "lance_bfloat16.arrow" {
					bits = 32
				}
				if strings.Contains(name, "f32") {
					bits = 32
				}
				for r, want := range col.Rows {
					var got struct {
						Tensor, Null bool
						Shape, Err   string
						Summary      []string
					}
					b.eval(fmt.Sprintf(`(() => { const c = document.querySelector('[data-row="%d"] [data-field=%q]');
						return {Tensor: c.hasAttribute('data-tensor'), Null: c.hasAttribute('data-null'), Shape: c.dataset.shape || '',
							Err: c.dataset.cellError || '', Summary: [...c.querySelectorAll('.summary > div')].map(d => d.textContent)}; })()`, r, name), &got)
					switch {
					case want == nil:
						if !got.Null || !got.Tensor {
							t.Errorf("%s row %d: %+v, want a null tensor", name, r, got)
						}
					case want.Error != "":
						if got.Err == "" {
							t.Errorf("%s row %d: %+v, want the row's error (%s)", name, r, got, want.Error)
						}
					default:
						if !got.Tensor || got.Shape != joinInts(want.Shape) {
							t.Errorf("%s row %d: %+v, want a tensor of shape %v", name, r, got, want.Shape)
							continue
						}
						n := 1
						for _, d := range want.Shape {
							n *= d
						}
						if n <= 16 && len(want.Shape) > 0 && !strings.HasPrefix(col.ValueType, "bool") && !strings.Contains(name, "bool") {
							if text := nestedText(want.Shape, want.Values, bits); got.Summary[len(got.Summary)-1] != text {
								t.Errorf("%s row %d lists %q, want %q", name, r, got.Summary[len(got.Summary)-1], text)
							}
						}
					}
				}
			}
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
		})
	}

	t.Run("a Daft image's preview", func(t *testing.T) {
		b.upload(filepath.Join("..", "testdata", "dialects_daft.arrow"))
		b.waitOpened("dialects_daft.arrow")
		want := expected["dialects_daft.arrow"]["image"].Rows[0]
		w, h, pix := b.canvas(0, "image")
		if w != want.Shape[1] || h != want.Shape[0] {
			t.Fatalf("preview %dx%d, want %dx%d", w, h, want.Shape[1], want.Shape[0])
		}
		for p := 0; p < w*h; p++ {
			for c := 0; c < 3; c++ {
				if v := want.Values[p*3+c].(float64); pix[p*4+c] != int(v) {
					t.Errorf("pixel %d channel %d = %d, want %v", p, c, pix[p*4+c], v)
				}
			}
		}
		b.screenshot("dialects-daft")
	})

	t.Run("an embedding strip", func(t *testing.T) {
		// A plain FixedSizeList<float32>[64] (how Polars or pyarrow store
		// embeddings): each row's preview is one row of 64 grey pixels.
		mem := memory.DefaultAllocator
		bld := array.NewFixedSizeListBuilder(mem, 64, arrow.PrimitiveTypes.Float32)
		vb := bld.ValueBuilder().(*array.Float32Builder)
		rows := [][]float32{}
		for r := range 2 {
			row := make([]float32, 64)
			for k := range row {
				row[k] = float32(math.Sin(float64(k)/5 + float64(r)))
			}
			bld.Append(true)
			vb.AppendValues(row, nil)
			rows = append(rows, row)
		}
		arr := bld.NewArray()
		defer arr.Release()
		schema := arrow.NewSchema([]arrow.Field{{Name: "embedding", Type: arr.DataType()}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 2)
		defer rec.Release()
		path := writeIPCFile(t, "embeddings.arrow", schema, rec)
		b.upload(path)
		b.waitOpened("embeddings.arrow")
		for r, row := range rows {
			w, h, pix := b.canvas(r, "embedding")
			if w != 64 || h != 1 {
				t.Fatalf("row %d: strip %dx%d, want 64x1", r, w, h)
			}
			lo, hi := slices.Min(row), slices.Max(row)
			for k, v := range row {
				want := int(math.Round(float64((v - lo) / (hi - lo) * 255)))
				if got := pix[k*4]; got < want-1 || got > want+1 || pix[k*4+3] != 255 {
					t.Errorf("row %d element %d: grey %d (alpha %d), want %d", r, k, got, pix[k*4+3], want)
					break
				}
			}
		}
		var kind string
		b.eval(`document.querySelector('[data-row="0"] canvas[data-preview]').dataset.preview`, &kind)
		if kind != "strip" {
			t.Errorf("preview kind %q, want strip", kind)
		}
		b.screenshot("dialects-embedding-strip")
		b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
		for _, v := range b.axe() {
			t.Errorf("dialect schema panel: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
		}
		b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	})

	for _, c := range []struct {
		file, field       string
		row               int
		min, max, npyNote string
	}{
		{"dialects_nested.arrow", "fsl_f32_2x3", 0, "10", "12.5", ""},
		{"dialects_ray.arrow", "ray_json_f32", 0, "10", "12.5", ""},
		{"dialects_ray.arrow", "ray_var_json_f64", 0, "1.5", "2.5", ""},
		{"dialects_hf.arrow", "a2_f32", 0, "10", "12.5", ""},
		{"dialects_daft.arrow", "tensor", 0, "-5", "4", ""},
		{"dialects_daft.arrow", "image", 0, "5", "192", ""},
		{"lance_bfloat16.arrow", "bf16", 0, "-2.5", "3.38953e+38", "float32"},
	} {
		t.Run("inspector on "+c.field, func(t *testing.T) {
			// Choosing the file shown again opens it again, and the new
			// file replaces the page's (closing an inspector opened on
			// the old one): choose it only when another is shown.
			var shown string
			b.eval(`document.querySelector('[data-role=file-info] h2')?.textContent || ''`, &shown)
			if shown != c.file {
				b.upload(filepath.Join("..", "testdata", c.file))
				b.waitOpened(c.file)
			}
			// A click by script: the schema panel, which Back may have
			// restored from an earlier address, can cover the column.
			b.eval(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-tensor][data-field=%q]').click(), true`, c.row, c.field), nil)
			b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector][data-field=%q] [data-role=stats]') !== null`, c.field))
			var got struct{ Min, Max, Note string }
			b.eval(`(() => { const s = document.querySelector('[data-role=stats]');
				return {Min: s.dataset.min, Max: s.dataset.max, Note: document.querySelector('[data-role=npy-note]')?.textContent || ''}; })()`, &got)
			if got.Min != c.min || got.Max != c.max || !strings.Contains(got.Note, c.npyNote) || (c.npyNote == "") != (got.Note == "") {
				t.Errorf("inspector stats %+v, want min %s max %s and a .npy note with %q", got, c.min, c.max, c.npyNote)
			}
			b.screenshot("dialects-inspector-" + c.field)
			b.run(chromedp.KeyEvent("\x1b"))
			// Closing goes Back in the history: wait for it, or the next
			// inspector could be closed by that Back's popstate.
			b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
		})
	}
}
