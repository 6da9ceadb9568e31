//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// expected is testdata/js_expected.json, written by the apache-arrow script.
type expected struct {
	Files map[string]struct {
		NumRows int `json:"num_rows"`
		Columns map[string]struct {
			Rows []*struct {
				Shape  []int     `json:"shape"`
				Values []float64 `json:"values"`
			} `json:"rows"`
		} `json:"columns"`
	} `json:"files"`
}

func loadExpected(t *testing.T) expected {
	var e expected
	data, err := os.ReadFile("../testdata/js_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// checkJSImages checks what the page shows of testdata/js_images.arrow, open
// and in view: the schema's extensions, the rgb cells' shapes and exact
// pixels, the grayscale preview scaled to the row's range, the CHW preview.
func (b *browser) checkJSImages(want expected) {
	b.t.Helper()
	var schema []struct{ Field, Extension, Error string }
	b.eval(`[...document.querySelectorAll('tr[data-field]')].map(e => ({Field: e.dataset.field, Extension: e.dataset.extension || '', Error: e.dataset.error || ''}))`, &schema)
	gotExt := map[string]string{}
	for _, f := range schema {
		gotExt[f.Field] = f.Extension
		if f.Error != "" {
			b.t.Errorf("field %s: unexpected error %q", f.Field, f.Error)
		}
	}
	wantExt := map[string]string{"id": "", "label": "", "rgb": "arrow.fixed_shape_tensor", "gray": "arrow.fixed_shape_tensor", "chw": "arrow.fixed_shape_tensor"}
	if !reflect.DeepEqual(gotExt, wantExt) {
		b.t.Errorf("schema extensions %v, want %v", gotExt, wantExt)
	}
	rgb := b.tensorCells("rgb")
	wantRGB := []tensorCell{
		{Row: "0", Field: "rgb", Shape: "4,3,3", LogicalShape: "4,3,3", DimNames: "H,W,C", LogicalDimNames: "H,W,C", Preview: "rgb"},
		{Row: "1", Field: "rgb", Shape: "4,3,3", LogicalShape: "4,3,3", DimNames: "H,W,C", LogicalDimNames: "H,W,C", Preview: "rgb"},
		{Row: "2", Field: "rgb", Null: true},
	}
	if !reflect.DeepEqual(rgb, wantRGB) {
		b.t.Errorf("rgb cells\n got %+v\nwant %+v", rgb, wantRGB)
	}
	b.checkNullTensors("rgb", wantRGB)
	// uint8 RGB values are drawn exactly: pixel (h, w) = values[h][w][0:3], alpha 255.
	for row := 0; row < 2; row++ {
		vals := want.Files["js_images.arrow"].Columns["rgb"].Rows[row].Values
		var wantPix []int
		for i := 0; i < len(vals); i += 3 {
			wantPix = append(wantPix, int(vals[i]), int(vals[i+1]), int(vals[i+2]), 255)
		}
		w, h, pix := b.canvas(row, "rgb")
		if w != 3 || h != 4 || !reflect.DeepEqual(pix, wantPix) {
			b.t.Errorf("row %d rgb canvas %dx%d pixels %v, want 3x4 %v", row, w, h, pix, wantPix)
		}
	}
	// float32 2x4 grayscale, scaled from the row's min..max to 0..255.
	vals := want.Files["js_images.arrow"].Columns["gray"].Rows[0].Values
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	var wantGray []int
	for _, v := range vals {
		g := int((v-lo)*255/(hi-lo) + 0.5)
		wantGray = append(wantGray, g, g, g, 255)
	}
	if w, h, pix := b.canvas(0, "gray"); w != 4 || h != 2 || !reflect.DeepEqual(pix, wantGray) {
		b.t.Errorf("gray canvas %dx%d %v, want 4x2 %v", w, h, pix, wantGray)
	}
	chw := b.tensorCells("chw")
	if len(chw) == 0 || chw[0].Preview != "rgb" || chw[0].DimNames != "C,H,W" {
		b.t.Errorf("CHW cell %+v: want an rgb preview with dim names C,H,W", chw)
	}
}

// checkNullTensors checks that the null rows of a tensor column are null
// tensors (data-tensor and data-null), whatever the tensor type.
func (b *browser) checkNullTensors(field string, cells []tensorCell) {
	b.t.Helper()
	var want, got []string
	for _, c := range cells {
		if c.Null {
			want = append(want, c.Row)
		}
	}
	b.eval(fmt.Sprintf(`[...document.querySelectorAll('[data-row] [data-tensor][data-null][data-field=%q]')].map(e => e.closest('[data-row]').dataset.row)`, field), &got)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		b.t.Errorf("%s: null tensors in rows %v, want %v", field, got, want)
	}
}

// nestedText is how the viewer lists a small tensor's values: nested
// brackets by the shape, elements separated by spaces, floats in the
// shortest form of their value type.
func nestedText(shape []int, values []any, bits int) string {
	var b strings.Builder
	pos := 0
	var walk func(d int)
	walk = func(d int) {
		if d == len(shape) {
			switch v := values[pos].(type) {
			case nil:
				b.WriteString("(null)")
			case float64:
				if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
					b.WriteString(strconv.FormatInt(int64(v), 10)) // integers, and integral floats alike
				} else {
					b.WriteString(strconv.FormatFloat(v, 'g', -1, bits))
				}
			case string:
				f, _ := strconv.ParseFloat(v, 64)
				b.WriteString(strconv.FormatFloat(f, 'g', -1, bits))
			default:
				fmt.Fprint(&b, v)
			}
			pos++
			return
		}
		b.WriteByte('[')
		for i := 0; i < shape[d]; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			walk(d + 1)
		}
		b.WriteByte(']')
	}
	walk(0)
	return b.String()
}
