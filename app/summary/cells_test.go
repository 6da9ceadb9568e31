package summary

import (
	"image"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/raster"
)

// arrow-go's Struct.ValueStr marshals a row as JSON and panics on a
// float16 NaN or infinity (float64 ones it writes as strings); a struct
// cell shows its fields' own texts then (found by
// FuzzOpen: testdata/fuzz/FuzzOpen/093b55c2a8245c72).
func TestStructValueStrNonFinite(t *testing.T) {
	dt := arrow.StructOf(
		arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "x", Type: arrow.FixedWidthTypes.Float16, Nullable: true},
	)
	b := array.NewStructBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	s, x := b.FieldBuilder(0).(*array.StringBuilder), b.FieldBuilder(1).(*array.Float16Builder)
	rows := []struct {
		s    string
		sNul bool
		x    float64
	}{{"a", false, math.NaN()}, {"", true, math.Inf(-1)}, {`q"`, false, 1.5}}
	for _, r := range rows {
		b.Append(true)
		if r.sNul {
			s.AppendNull()
		} else {
			s.Append(r.s)
		}
		x.Append(float16.New(float32(r.x)))
	}
	b.AppendNull()
	arr := b.NewArray()
	defer arr.Release()
	want := []string{`{"s":"a","x":NaN}`, `{"s":null,"x":-Inf}`, `{"s":"q\"","x":1.5}`, array.NullValueStr}
	for i, w := range want {
		if got := valueStr(arr, i); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
	}
}

// testFile opens testdata/name as the page opens a dropped file: read
// lazily through an io.ReaderAt.
func testFile(t testing.TB, name string) *decode.File {
	t.Helper()
	r, err := os.Open(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	st, err := r.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := decode.OpenReader(name, r, st.Size(), decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.Close()
		r.Close()
	})
	return f
}

// TestCellKinds: a cell is its value's text, null, or its tensor's summary
// (physical and logical shapes and names, value type, length, values of a
// small tensor, range, preview of what looks like an image, its kind); or
// the error that stops the value from being read.
func TestCellKinds(t *testing.T) {
	f := testFile(t, "js_images.arrow") // id, label, rgb [4,3,3] H,W,C uint8, gray [2,4] float32, chw [3,2,2] C,H,W uint8
	if c := At(f, 1, 1); c != (Cell{Text: "gradient"}) {
		t.Errorf("label row 1: %+v", c)
	}
	if c := At(f, 2, 2); c != (Cell{Null: true, Text: "(null)"}) {
		t.Errorf("rgb row 2 (a null tensor): %+v", c)
	}
	rgb := At(f, 0, 2).Tensor
	if rgb == nil || !slices.Equal(rgb.Shape, []int{4, 3, 3}) || !slices.Equal(rgb.DimNames, []string{"H", "W", "C"}) || rgb.ValueType != "uint8" ||
		rgb.Len != 36 || rgb.Values != "" || rgb.Min != "0" || rgb.Max != "255" || rgb.PreviewKind != raster.RGB || rgb.Preview == nil ||
		rgb.Preview.Rect != image.Rect(0, 0, 3, 4) || rgb.Image != nil {
		t.Errorf("rgb row 0: %+v", rgb)
	}
	gray := At(f, 1, 3).Tensor
	if gray == nil || gray.Values != "[[10 10.5 11 11.5] [12 12.5 13 13.5]]" || gray.Min != "10" || gray.Max != "13.5" || gray.PreviewKind != raster.Gray {
		t.Errorf("gray row 1: %+v", gray)
	}
	p := testFile(t, "js_permuted.arrow")
	perm := At(p, 1, 0).Tensor
	if perm == nil || !slices.Equal(perm.Shape, []int{2, 2, 3}) || !slices.Equal(perm.LogicalShape, []int{3, 2, 2}) ||
		!slices.Equal(perm.LogicalDimNames, []string{"C", "A", "B"}) || perm.Values != "[[[101 104] [107 110]] [[102 105] [108 111]] [[103 106] [109 112]]]" ||
		perm.Min != "101" || perm.Max != "112" {
		t.Errorf("permuted row 1: %+v", perm)
	}
	if c := At(f, 0, 9); c != (Cell{Err: "no column 9"}) {
		t.Errorf("column 9: %+v", c)
	}
	if c := At(f, 3, 0); c.Err != "no row 3 (yet)" {
		t.Errorf("row 3 of 3: %+v", c)
	}
}

// TestTruncate: a text is cut after n characters (runes, not bytes), with
// "…" where it was cut.
func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"ééé", 2, "éé…"}, {"", 0, ""}} {
		if got := Truncate(c.s, c.n); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	long := strings.Repeat("x", MaxTextLen+1)
	if got := truncate(long); got != long[:MaxTextLen]+"…" {
		t.Errorf("truncate of %d characters: %d bytes", len(long), len(got))
	}
}

// BenchmarkRowCells summarises the cells of 12 rows of image tensors
// (testdata/js_images.arrow: uint8 and float32 pictures, ids), previews at
// 64×64 device pixels, as the table does for the rows coming into view.
func BenchmarkRowCells(b *testing.B) {
	f := testFile(b, "js_images.arrow")
	rows, _ := f.Rows()
	columns := len(f.Fields())
	b.ReportAllocs()
	row := int64(0)
	for b.Loop() {
		for k := int64(0); k < 12; k++ {
			for c := range columns {
				if cell := In(f, (row+k)%rows, c, 64, 64); cell.Err != "" {
					b.Fatal(cell.Err)
				}
			}
		}
		row += 5
	}
}

// Float16 cells show the exact value, subnormals too (arrow-go's ValueStr
// shows bits 0x0001 as 1.148e-41, not 2^-24), alone and in a struct.
func TestFloat16CellsExact(t *testing.T) {
	bits := []uint16{0x0001, 0x03ff, 0x8200, 0x3c00, 0x7bff}
	want := []string{"5.9604645e-08", "6.097555e-05", "-3.0517578e-05", "1", "65504"}
	b := array.NewFloat16Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, x := range bits {
		b.Append(float16.FromBits(x))
	}
	arr := b.NewArray()
	defer arr.Release()
	st, err := array.NewStructArray([]arrow.Array{arr}, []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	for i, w := range want {
		if got := valueStr(arr, i); got != w {
			t.Errorf("row %d: %q, want %q", i, got, w)
		}
		if got, w := valueStr(st, i), `{"x":`+w+`}`; got != w {
			t.Errorf("struct row %d: %q, want %q", i, got, w)
		}
	}
}
