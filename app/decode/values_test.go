package decode

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/tensorext"
)

// rowTensor returns the tensor at global row of column col, or ok=false for
// a null row.
func rowTensor(t *testing.T, f *File, row int64, col int) (tensorext.Tensor, bool) {
	t.Helper()
	b, i, ok := f.Locate(row)
	if !ok {
		t.Fatalf("row %d out of range", row)
	}
	rec, err := f.Batch(b)
	if err != nil {
		t.Fatal(err)
	}
	arr, ok := rec.Column(col).(interface {
		Tensor(int) (tensorext.Tensor, error)
	})
	if !ok {
		t.Fatalf("column %d is %s, not a tensor array", col, rec.Column(col).DataType())
	}
	tt, err := arr.Tensor(i)
	if errors.Is(err, tensorext.ErrNullTensor) {
		return tt, false
	}
	if err != nil {
		t.Fatalf("row %d: %v", row, err)
	}
	return tt, true
}

// values lists a view's elements in its own row-major order.
func values(t *testing.T, tt tensorext.Tensor) []float64 {
	t.Helper()
	out := []float64{}
	tt.Positions(func(pos int) bool {
		v, ok := tt.Float64(pos)
		if !ok {
			t.Fatalf("element at %d is null or not numeric", pos)
		}
		out = append(out, v)
		return true
	})
	return out
}

func column(t *testing.T, f *File, name string) int {
	t.Helper()
	for i, fld := range f.Fields() {
		if fld.Name == name {
			return i
		}
	}
	t.Fatalf("no column %q", name)
	return -1
}

func open(t *testing.T, path string) *File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(filepath.Base(path), data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

type expectedRow struct {
	Shape         []int     `json:"shape"`
	Values        []float64 `json:"values"`
	LogicalShape  []int     `json:"logical_shape"`
	LogicalValues []float64 `json:"logical_values"`
	Sum           *float64  `json:"sum"`
	SHA256        string    `json:"values_sha256"`
}

// digest is the sha256 of a view's values as little-endian bytes of its
// value type (uint8 and float32, the types js_big.arrow digests).
func digest(t *testing.T, tt tensorext.Tensor) (string, float64) {
	t.Helper()
	h := sha256.New()
	var sum float64
	for _, v := range values(t, tt) {
		sum += v
		switch tt.ValueType().ID() {
		case arrow.UINT8:
			h.Write([]byte{byte(v)})
		case arrow.FLOAT32:
			h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v))))
		default:
			t.Fatalf("no digest for %s", tt.ValueType())
		}
	}
	return hex.EncodeToString(h.Sum(nil)), sum
}

type expectedColumn struct {
	ValuesStr []string       `json:"values_str"`
	Extension string         `json:"extension"`
	Metadata  string         `json:"metadata"`
	Rows      []*expectedRow `json:"rows"`
}

// TestApacheArrowJSFiles reads the files npm's apache-arrow wrote
// (testdata/gen_js.mjs) and compares every value with the expectations the
// same script wrote to testdata/js_expected.json.
func TestApacheArrowJSFiles(t *testing.T) {
	var exp struct {
		Files map[string]struct {
			Format         string                    `json:"format"`
			NumRows        int64                     `json:"num_rows"`
			NumBatches     int                       `json:"num_batches"`
			Error          bool                      `json:"error"`
			SchemaMetadata map[string]string         `json:"schema_metadata"`
			Columns        map[string]expectedColumn `json:"columns"`
		} `json:"files"`
	}
	data, err := os.ReadFile("../../testdata/js_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Files) < 6 {
		t.Fatalf("only %d files expected", len(exp.Files))
	}
	for name, want := range exp.Files {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("../../testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(name, raw)
			if want.Error {
				if err == nil || errors.Is(err, ErrPanic) {
					t.Fatalf("want a clear error, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			wantFormat := map[string]Format{"file": IPCFile, "stream": IPCStream}[want.Format]
			rows, _ := f.Rows()
			if f.Format != wantFormat || rows != want.NumRows || f.NumBatches() != want.NumBatches {
				t.Errorf("format %s rows %d batches %d, want %s %d %d", f.Format, rows, f.NumBatches(), wantFormat, want.NumRows, want.NumBatches)
			}
			for _, kv := range f.Metadata {
				if want.SchemaMetadata[kv.Key] != kv.Value {
					t.Errorf("schema metadata %s=%q", kv.Key, kv.Value)
				}
			}
			for colName, wc := range want.Columns {
				c := column(t, f, colName)
				fld := f.Fields()[c]
				if fld.Extension != wc.Extension || (wc.Metadata != "" && fld.ExtensionMetadata != wc.Metadata) || fld.Err != "" {
					t.Errorf("%s: extension %q metadata %q err %q, want %q %q", colName, fld.Extension, fld.ExtensionMetadata, fld.Err, wc.Extension, wc.Metadata)
				}
				for r, s := range wc.ValuesStr {
					if got := valueText(f, int64(r), c); got != s {
						t.Errorf("%s row %d: %q, want %q", colName, r, got, s)
					}
				}
				for r, wr := range wc.Rows {
					tt, ok := rowTensor(t, f, int64(r), c)
					if wr == nil {
						if ok || valueText(f, int64(r), c) != "(null)" {
							t.Errorf("%s row %d: want null", colName, r)
						}
						continue
					}
					if !ok {
						t.Fatalf("%s row %d: null", colName, r)
					}
					if wr.SHA256 != "" {
						d, sum := digest(t, tt)
						if !reflect.DeepEqual(tt.Shape, wr.Shape) || d != wr.SHA256 || sum != *wr.Sum {
							t.Errorf("%s row %d: shape %v sha256 %s sum %v, want %v %s %v", colName, r, tt.Shape, d, sum, wr.Shape, wr.SHA256, *wr.Sum)
						}
					} else if !reflect.DeepEqual(tt.Shape, wr.Shape) || !reflect.DeepEqual(values(t, tt), wr.Values) {
						t.Errorf("%s row %d: shape %v values %v, want %v %v", colName, r, tt.Shape, values(t, tt), wr.Shape, wr.Values)
					}
					if wr.LogicalShape != nil {
						lt := tt.Logical()
						if !reflect.DeepEqual(lt.Shape, wr.LogicalShape) || !reflect.DeepEqual(values(t, lt), wr.LogicalValues) {
							t.Errorf("%s row %d: logical shape %v values %v, want %v %v", colName, r, lt.Shape, values(t, lt), wr.LogicalShape, wr.LogicalValues)
						}
					}
				}
			}
		})
	}
}

func seqf(from, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(from + i)
	}
	return v
}

// TestNonGoWriters reads the tensor files in the shared interop corpus
// written by apache-arrow JS, @uwdata/flechette and arrow-rs; expected values
// are those their scripts (in the corpus's scripts/ folder) wrote.
func TestNonGoWriters(t *testing.T) {
	dir := filepath.Join(interopDir, "generated-nonGo-writers")
	type tensorRows struct {
		column   string
		shape    []int
		dimNames []string
		rows     [][]float64 // nil: null row
		shapes   [][]int     // per row, for variable shape columns
	}
	fixed12 := tensorRows{column: "tensor", shape: []int{2, 2}, rows: [][]float64{seqf(1, 4), seqf(5, 4), seqf(9, 4)}}
	named12 := fixed12
	named12.dimNames = []string{"H", "W"}
	mixed := []tensorRows{
		{column: "fst_int64_2x3", shape: []int{2, 3}, dimNames: []string{"H", "W"}, rows: [][]float64{seqf(0, 6), nil, seqf(6, 6)}},
		{column: "vst_float32_2d", dimNames: []string{"H", "W"}, rows: [][]float64{seqf(1, 6), nil, seqf(7, 2)}, shapes: [][]int{{2, 3}, nil, {1, 2}}},
	}
	cases := map[string][]tensorRows{
		"js_fixed_shape_tensor.arrow":                    {fixed12},
		"js_fixed_shape_tensor.arrows":                   {fixed12},
		"arrowrs_roundtrip_fixed_shape_tensor.arrows":    {fixed12},
		"arrowrs_from_parquet_fixed_shape_tensor.arrows": {fixed12},
		"flechette_fixed_shape_tensor.arrow":             {named12},
		"flechette_fixed_shape_tensor.arrows":            {named12},
		"js_tensors_mixed.arrow":                         mixed,
		"js_tensors_mixed.arrows":                        mixed,
		"arrowrs_roundtrip_tensors_mixed.arrows":         mixed,
		"arrowrs_from_parquet_tensors_mixed.arrows":      mixed,
	}
	for name, cols := range cases {
		t.Run(name, func(t *testing.T) {
			f := open(t, filepath.Join(dir, name))
			for _, want := range cols {
				c := column(t, f, want.column)
				if f.Fields()[c].Err != "" || f.Fields()[c].Tensor == nil {
					t.Fatalf("%s: not decoded as a tensor column: %+v", want.column, f.Fields()[c])
				}
				if rows, _ := f.Rows(); rows != int64(len(want.rows)) {
					t.Fatalf("%d rows, want %d", rows, len(want.rows))
				}
				for r, wv := range want.rows {
					tt, ok := rowTensor(t, f, int64(r), c)
					if wv == nil {
						if ok {
							t.Errorf("%s row %d: want null", want.column, r)
						}
						continue
					}
					shape := want.shape
					if want.shapes != nil {
						shape = want.shapes[r]
					}
					if !ok || !reflect.DeepEqual(tt.Shape, shape) || !reflect.DeepEqual(tt.DimNames, want.dimNames) || !reflect.DeepEqual(values(t, tt), wv) {
						t.Errorf("%s row %d: shape %v names %v values %v, want %v %v %v", want.column, r, tt.Shape, tt.DimNames, values(t, tt), shape, want.dimNames, wv)
					}
				}
			}
		})
	}
	// nodejs-polars writes a plain FixedSizeList<float32>[4] (no
	// extension): read as 1-D tensors of shape [4] by the nested
	// FixedSizeList dialect.
	for _, name := range []string{"polars_fsl_float32x4.arrow", "polars_fsl_float32x4.arrows", "polars_fsl_float32x4_lz4.arrow", "polars_fsl_float32x4_zstd.arrow"} {
		t.Run(name, func(t *testing.T) {
			f := open(t, filepath.Join(dir, name))
			c := column(t, f, "tensor")
			if fld := f.Fields()[c]; fld.Dialect == "" || fld.Tensor == nil || !reflect.DeepEqual(fld.Tensor.Shape, []int{4}) {
				t.Fatalf("not read as a [4] tensor column: %+v", fld)
			}
			for r, want := range []string{"[1 2 3 4]", "[5 6 7 8]", "[9 10 11 12]"} {
				got, err := f.Tensor(int64(r), c)
				if err != nil || got.Logical().String() != want || !reflect.DeepEqual(got.Shape, []int{4}) {
					t.Errorf("row %d: %v %v (%v), want a [4] tensor %s", r, got.Shape, got.Logical(), err, want)
				}
			}
		})
	}
}
