package inspect

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/tensorview/tensorview/app/dialect"
	"github.com/tensorview/tensorview/tensorext"
)

// lanceRows reads a column of testdata/lance_bfloat16.arrow (written by
// gen_daft_lance.mjs: an arrow.fixed_shape_tensor of lance.bfloat16) and the
// generator's values of its rows (nil for a null row), as float32.
func lanceRows(t *testing.T, column string) (*tensorext.FixedShapeTensorArray, [][]float32) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "lance_bfloat16.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := ipc.NewFileReader(f)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	rec, err := r.RecordBatchAt(0)
	if err != nil {
		t.Fatal(err)
	}
	idx := r.Schema().FieldIndices(column)
	if len(idx) != 1 {
		t.Fatalf("no column %q", column)
	}
	arr, ok := rec.Column(idx[0]).(*tensorext.FixedShapeTensorArray)
	if !ok {
		t.Fatalf("column %q is %T", column, rec.Column(idx[0]))
	}
	if _, ok := arr.TensorType().ValueType().(*dialect.BFloat16Type); !ok {
		t.Fatalf("value type %s", arr.TensorType().ValueType())
	}

	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "daft_lance_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var cols map[string]struct {
		Rows []*struct {
			Values []string `json:"values"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(doc["lance_bfloat16.arrow"], &cols); err != nil {
		t.Fatal(err)
	}
	var rows [][]float32
	for _, row := range cols[column].Rows {
		if row == nil {
			rows = append(rows, nil)
			continue
		}
		vals := make([]float32, len(row.Values))
		for i, s := range row.Values {
			v, err := strconv.ParseFloat(s, 64) // JavaScript's text of an exact float32
			if err != nil {
				t.Fatal(err)
			}
			vals[i] = float32(v)
			if float64(vals[i]) != v && !math.IsNaN(v) {
				t.Fatalf("%s is not a float32", s)
			}
		}
		rows = append(rows, vals)
	}
	return arr, rows
}

// TestBFloat16Inspect checks statistics, auto ranges, pictures, readouts and
// .npy export of Lance bfloat16 tensors against the same values as float32
// (the generator's values, drawn and summarised by the float32 paths) and
// against exact expected values.
func TestBFloat16Inspect(t *testing.T) {
	arr, rows := lanceRows(t, "bf16")
	shape := arr.TensorType().Shape()
	for r, vals := range rows {
		ten, err := arr.Tensor(r)
		if vals == nil {
			if err == nil {
				t.Errorf("row %d: no null error", r)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		twin := fixed(t, arrow.PrimitiveTypes.Float32, shape, nil, nil, vals)

		// Statistics equal the float32 twin's, field by field.
		got, want := ComputeStats(ten, 8), ComputeStats(twin, 8)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("row %d stats %+v, float32 %+v", r, got, want)
		}

		// Pictures: the bfloat16 path (through Float64Reader) draws the same
		// pixels as float32's own loop.
		v := DefaultView(ten)
		if !reflect.DeepEqual(v, DefaultView(twin)) {
			t.Errorf("row %d default view %+v", r, v)
		}
		rg := AutoRange(ten, v, MinMax)
		if rg != AutoRange(twin, v, MinMax) {
			t.Errorf("row %d AutoRange %v, float32 %v", r, rg, AutoRange(twin, v, MinMax))
		}
		for _, cm := range Colormaps {
			img, err := Render(ten, v, cm, rg)
			if err != nil {
				t.Fatal(err)
			}
			tw, _ := Render(twin, v, cm, rg)
			if !bytes.Equal(img.Pix, tw.Pix) {
				t.Errorf("row %d colormap %s: pixels differ from float32's", r, cm.Name)
			}
		}

		// Readouts: the shortest text that reads back as the float32.
		for y := 0; y < shape[0]; y++ {
			for x := 0; x < shape[1]; x++ {
				_, text, ok := ValueAt(ten, v, x, y)
				f, err := strconv.ParseFloat(text, 32)
				w := vals[y*shape[1]+x]
				if !ok || err != nil || (float32(f) != w && !(math.IsNaN(f) && w != w)) || (f == 0 && math.Signbit(f) != math.Signbit(float64(w))) {
					t.Errorf("row %d (%d,%d): %q, want %v", r, x, y, text, w)
				}
			}
		}

		// .npy: '<f4', shape (2, 3), the float32 bytes of the values.
		var buf bytes.Buffer
		if err := WriteNPY(&buf, ten); err != nil {
			t.Fatal(err)
		}
		f, err := parseNPY(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if f.descr != "<f4" || f.fortran || !slices.Equal(f.shape, shape) {
			t.Errorf("row %d npy header %q", r, f.header)
		}
		wantData := make([]byte, 0, 4*len(vals))
		for _, w := range vals {
			wantData = binary.LittleEndian.AppendUint32(wantData, math.Float32bits(w))
		}
		if !bytes.Equal(f.data, wantData) {
			t.Errorf("row %d npy data % x, want % x", r, f.data, wantData)
		}
		// The header is the float32 twin's, byte for byte.
		var tb bytes.Buffer
		if err := WriteNPY(&tb, twin); err != nil || !bytes.Equal(tb.Bytes(), buf.Bytes()) {
			t.Errorf("row %d: .npy differs from the float32 twin's (%v)", r, err)
		}
	}

	// Exact statistics of rows 0 and 3.
	t0, _ := arr.Tensor(0)
	if s := ComputeStats(t0, 0); s.Finite != 6 || s.Min != -2.5 || s.Max != 0x1.fep+127 {
		t.Errorf("row 0: %+v", s)
	}
	t3, _ := arr.Tensor(3)
	if s := ComputeStats(t3, 0); s.Finite != 3 || s.NaN != 1 || s.PosInf != 1 || s.NegInf != 1 || s.Min != -65536 || s.Max != 65536 { // 65504 rounds to 65536 in bfloat16
		t.Errorf("row 3: %+v", s)
	}

	dt := arr.TensorType().ValueType()
	if d, ok := NPYDescr(dt); !ok || d != "<f4" {
		t.Errorf("NPYDescr = %q, %v", d, ok)
	}
	if got, want := NPYNote(dt), "extension<lance.bfloat16> values are written as float32 ('<f4'), exactly: NumPy has no extension<lance.bfloat16> dtype"; got != want {
		t.Errorf("NPYNote = %q", got)
	}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Float32, arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Uint8} {
		if n := NPYNote(dt); n != "" {
			t.Errorf("NPYNote(%s) = %q", dt, n)
		}
	}
}

// TestBFloat16Image checks that an [H, W, 3] bfloat16 tensor (Lance's
// bf16_image column) opens as an RGB picture, drawn as the float32 twin is.
func TestBFloat16Image(t *testing.T) {
	arr, rows := lanceRows(t, "bf16_image")
	shape := arr.TensorType().Shape()
	for r, vals := range rows {
		ten, err := arr.Tensor(r)
		if err != nil {
			t.Fatal(err)
		}
		v := DefaultView(ten)
		if v.Y != 0 || v.X != 1 || v.Channel != 2 {
			t.Fatalf("row %d: view %+v, want Y 0, X 1, Channel 2", r, v)
		}
		twin := fixed(t, arrow.PrimitiveTypes.Float32, shape, nil, nil, vals)
		img, err := Render(ten, v, Colormaps[0], Range{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		tw, _ := Render(twin, v, Colormaps[0], Range{0, 1})
		if !bytes.Equal(img.Pix, tw.Pix) {
			t.Errorf("row %d: pixels %v, float32 %v", r, img.Pix, tw.Pix)
		}
		// Pixel (1, 0) is elements 3, 4, 5: k/16 or 1-k/16, times 255, rounded.
		want := []uint8{48, 64, 80, 255} // round(255*3/16), round(255*4/16), round(255*5/16)
		if r%2 == 1 {
			want = []uint8{207, 191, 175, 255}
		}
		if got := img.Pix[4:8]; !bytes.Equal(got, want) {
			t.Errorf("row %d pixel (1,0) = %v, want %v", r, got, want)
		}
	}
}
