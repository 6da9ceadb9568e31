package dialect

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// TestDaftFile reads testdata/dialects_daft.arrow (written by
// gen_daft_lance.mjs in Daft's layouts) with arrow-go's IPC reader and checks
// every row of every Daft column against daft_lance_expected.json.
func TestDaftFile(t *testing.T) {
	schema, recs := dlReadFile(t, filepath.Join("..", "..", "testdata", "dialects_daft.arrow"))
	want := dlExpected(t)["dialects_daft.arrow"]
	if len(recs) != 1 {
		t.Fatalf("%d record batches", len(recs))
	}
	rec := recs[0]
	seen := 0
	for i, f := range schema.Fields() {
		exp, ok := want[f.Name]
		if !ok {
			t.Fatalf("column %q is not in the expected JSON", f.Name)
		}
		seen++
		t.Run(f.Name, func(t *testing.T) {
			in := dlInput(schema, i)
			if in.Extension != DaftName {
				t.Fatalf("extension %q", in.Extension)
			}
			col, err := Detect(in)
			if exp.Error != "" {
				if col != nil || err == nil || err.Error() != exp.Error {
					t.Fatalf("Detect = %v, %v; want error %q", col, err, exp.Error)
				}
				return
			}
			if err != nil || col == nil {
				t.Fatalf("Detect = %v, %v", col, err)
			}
			if !strings.HasPrefix(col.Dialect, "Daft ") || !strings.Contains(col.Why, DaftName) {
				t.Errorf("Dialect %q, Why %q", col.Dialect, col.Why)
			}
			if got := col.ValueType.String(); got != exp.ValueType {
				t.Errorf("ValueType %s, want %s", got, exp.ValueType)
			}
			if !slices.Equal(col.DimNames, exp.DimNames) {
				t.Errorf("DimNames %q, want %q", col.DimNames, exp.DimNames)
			}
			arr := rec.Column(i)
			if len(exp.Rows) != arr.Len() {
				t.Fatalf("%d rows, expected %d", arr.Len(), len(exp.Rows))
			}
			for r, er := range exp.Rows {
				tn, err := col.Tensor(arr, r)
				if er == nil {
					if !IsNull(err) {
						t.Errorf("row %d: %v, want null", r, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("row %d: %v", r, err)
					continue
				}
				dlCheckRow(t, r, tn, er, exp.DimNames)
				if col.Shape != nil && !slices.Equal(col.Shape, tn.Shape) {
					t.Errorf("row %d: shape %v, column says %v", r, tn.Shape, col.Shape)
				}
				if col.NDim >= 0 && col.NDim != tn.NDim() {
					t.Errorf("row %d: %d dims, column says %d", r, tn.NDim(), col.NDim)
				}
			}
			if _, err := col.Tensor(arr, arr.Len()); err == nil || IsNull(err) {
				t.Errorf("row out of range: %v", err)
			}
		})
	}
	if seen != len(want) {
		t.Errorf("the file has %d of the %d expected columns", seen, len(want))
	}
}

// dlCheckRow compares a tensor view with an expected row, element by element
// in row-major order.
func dlCheckRow(t *testing.T, r int, tn tensorext.Tensor, er *dlRow, dimNames []string) {
	t.Helper()
	if err := tn.Check(); err != nil {
		t.Errorf("row %d: %v", r, err)
		return
	}
	if !slices.Equal(tn.Shape, er.Shape) {
		t.Errorf("row %d: shape %v, want %v", r, tn.Shape, er.Shape)
		return
	}
	if !slices.Equal(tn.DimNames, dimNames) {
		t.Errorf("row %d: dim names %q, want %q", r, tn.DimNames, dimNames)
	}
	k := 0
	tn.Positions(func(pos int) bool {
		got, ok := tn.Float64(pos)
		if want := dlNumber(t, er.Values[k]); !ok || !dlSame(got, want) {
			t.Errorf("row %d element %d: %v (%v), want %v", r, k, got, ok, want)
		}
		k++
		return true
	})
	if k != len(er.Values) {
		t.Errorf("row %d: %d elements, want %d", r, k, len(er.Values))
	}
}

// daftInput is an Input for a daft.super_extension field of storage dt.
func daftInput(dt arrow.DataType, meta string) Input {
	return Input{Field: arrow.Field{Name: "x", Type: dt, Nullable: true}, Extension: DaftName, Metadata: meta}
}

func TestDaftMatchErrors(t *testing.T) {
	u8 := arrow.PrimitiveTypes.Uint8
	f32 := arrow.PrimitiveTypes.Float32
	ll := arrow.LargeListOf
	tensorStorage := arrow.StructOf(arrow.Field{Name: "data", Type: ll(f32), Nullable: true}, arrow.Field{Name: "shape", Type: ll(arrow.PrimitiveTypes.Uint64), Nullable: true})
	cases := []struct {
		name, meta string
		dt         arrow.DataType
		want       string // "" for (nil, nil), else the error's text
	}{
		{"other extension", `{}`, f32, ""},
		{"not a tensor type", `{"datatype":"Python","daft_version":"0.7.24","daft_build_type":"release"}`, arrow.BinaryTypes.LargeBinary, ""},
		{"sparse", `{"datatype":{"SparseTensor":["Float32",false]}}`, tensorStorage, "tensorview does not read Daft sparse tensors; shown as storage"},
		{"fixed sparse", `{"datatype":{"FixedShapeSparseTensor":["Float32",[2,2],true]}}`, tensorStorage, "tensorview does not read Daft sparse tensors; shown as storage"},
		{"bad json", `{"datatype":`, f32, `Daft metadata: not a Daft data type: {"datatype":`},
		{"two keys", `{"a":1,"b":2}`, f32, `Daft metadata: not a Daft data type: {"a":1,"b":2}`},
		{"tensor wrong storage", `{"datatype":{"Tensor":"Float32"}}`, f32, "Daft Tensor needs storage struct<data: large_list, shape: large_list<uint64>>, got float32"},
		{"tensor wrong element", `{"datatype":{"Tensor":"Int32"}}`, tensorStorage, "Daft metadata says Int32 values, the storage holds float32"},
		{"fixed size mismatch", `{"datatype":{"FixedShapeTensor":["Float32",[2,3]]}}`, arrow.FixedSizeListOf(4, f32), "Daft FixedShapeTensor: the storage's fixed_size_list has 4 elements, the metadata needs 6"},
		{"fixed negative", `{"datatype":{"FixedShapeTensor":["Float32",[-2,3]]}}`, arrow.FixedSizeListOf(6, f32), "Daft FixedShapeTensor: dimension -2 is not an integer in [0, 2^31)"},
		{"fixed overflow", `{"datatype":{"FixedShapeTensor":["Float32",[2147483647,2147483647,2147483647]]}}`, arrow.FixedSizeListOf(6, f32), "Daft FixedShapeTensor: shape [2147483647,2147483647,2147483647] has too many elements"},
		{"embedding args", `{"datatype":{"Embedding":["Float32"]}}`, arrow.FixedSizeListOf(4, f32), `Daft Embedding needs 2 arguments, got ["Float32"]`},
		{"image mode", `{"datatype":{"Image":"CMYK"}}`, f32, `Daft Image: unknown image mode "CMYK"`},
		{"fixed image pixels", `{"datatype":{"FixedShapeImage":["RGB32F",1,1]}}`, arrow.FixedSizeListOf(3, u8), "Daft FixedShapeImage mode RGB32F needs float32 pixels, the storage holds uint8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := daftInput(c.dt, c.meta)
			if c.name == "other extension" {
				in.Extension = "ray.data.arrow_tensor"
			}
			col, err := daftAdapter{}.Match(in)
			if col != nil {
				t.Fatalf("Match gave a column %+v", col)
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("error %q, want %q", got, c.want)
			}
		})
	}
}

// TestDaftRowErrors checks rows that contradict their column: an image row
// whose channel field disagrees with its mode, a tensor row whose shape
// does not fit its data, and a negative shape.
func TestDaftRowErrors(t *testing.T) {
	mem := memory.DefaultAllocator
	st := arrow.StructOf(
		arrow.Field{Name: "data", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Uint8), Nullable: true},
		arrow.Field{Name: "channel", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		arrow.Field{Name: "height", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		arrow.Field{Name: "width", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		arrow.Field{Name: "mode", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
	)
	b := array.NewStructBuilder(mem, st)
	defer b.Release()
	row := func(data []uint8, c uint16, h, w uint32, mode uint8, modeValid bool) {
		b.Append(true)
		lb := b.FieldBuilder(0).(*array.LargeListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Uint8Builder).AppendValues(data, nil)
		b.FieldBuilder(1).(*array.Uint16Builder).Append(c)
		b.FieldBuilder(2).(*array.Uint32Builder).Append(h)
		b.FieldBuilder(3).(*array.Uint32Builder).Append(w)
		if modeValid {
			b.FieldBuilder(4).(*array.Uint8Builder).Append(mode)
		} else {
			b.FieldBuilder(4).(*array.Uint8Builder).AppendNull()
		}
	}
	row([]uint8{1, 2, 3}, 3, 1, 1, 3, true)     // RGB 1×1: fine
	row([]uint8{1, 2, 3}, 4, 1, 1, 3, true)     // channel 4 with mode RGB
	row([]uint8{1, 2, 3}, 3, 1, 1, 42, true)    // mode 42
	row([]uint8{1, 2, 3, 4}, 3, 1, 1, 3, true)  // 4 values for 1×1×3
	row([]uint8{1, 2, 3, 4}, 4, 1, 1, 0, false) // no mode: channel decides
	arr := b.NewStructArray()
	defer arr.Release()

	for _, c := range []struct {
		meta string
		want []string
	}{
		{`{"datatype":{"Image":null}}`, []string{"", "row 1: mode RGB has 3 channel(s), the row says 4", "row 2: mode is not one of Daft's image modes 1..10", "row 3: the row has 4 elements, shape [1,1,3] needs 3", ""}},
		{`{"datatype":{"Image":"RGBA"}}`, []string{"row 0: mode RGB in a column of mode RGBA", "row 1: mode RGB in a column of mode RGBA", "row 2: mode is not one of Daft's image modes 1..10", "row 3: mode RGB in a column of mode RGBA", ""}},
	} {
		col, err := daftAdapter{}.Match(daftInput(st, c.meta))
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range c.want {
			tn, err := col.Tensor(arr, i)
			got := ""
			if err != nil {
				got = err.Error()
			} else if tn.Check() != nil {
				t.Errorf("%s row %d: %v", c.meta, i, tn.Check())
			}
			if got != want {
				t.Errorf("%s row %d: %q, want %q", c.meta, i, got, want)
			}
		}
	}

	// Tensor rows: shape [2,2] over 3 values; shape with a dimension of -1
	// stored as int64.
	ts := arrow.StructOf(arrow.Field{Name: "data", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Float32), Nullable: true},
		arrow.Field{Name: "shape", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int64), Nullable: true})
	tb := array.NewStructBuilder(mem, ts)
	defer tb.Release()
	for _, r := range []struct {
		data  []float32
		shape []int64
	}{{[]float32{1, 2, 3}, []int64{2, 2}}, {[]float32{1}, []int64{-1}}} {
		tb.Append(true)
		tb.FieldBuilder(0).(*array.LargeListBuilder).Append(true)
		tb.FieldBuilder(0).(*array.LargeListBuilder).ValueBuilder().(*array.Float32Builder).AppendValues(r.data, nil)
		tb.FieldBuilder(1).(*array.LargeListBuilder).Append(true)
		tb.FieldBuilder(1).(*array.LargeListBuilder).ValueBuilder().(*array.Int64Builder).AppendValues(r.shape, nil)
	}
	tarr := tb.NewStructArray()
	defer tarr.Release()
	col, err := daftAdapter{}.Match(daftInput(ts, `{"Tensor":"Float32"}`)) // a bare dtype, without the payload object
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"row 0: the row has 3 elements, shape [2,2] needs 4", "row 1: shape dimension: negative (-1)"} {
		if _, err := col.Tensor(tarr, i); err == nil || err.Error() != want {
			t.Errorf("tensor row %d: %v, want %q", i, err, want)
		}
	}
	// A column of another type than the one matched never panics.
	if _, err := col.Tensor(arr, 0); err == nil {
		t.Error("tensor over an image array: no error")
	}
}
