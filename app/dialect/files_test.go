package dialect

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// expectColumn is one column of testdata/dialects_expected.json, written by
// testdata/gen_dialects.mjs from the values it wrote.
type expectColumn struct {
	None    bool        `json:"none"`    // no dialect applies
	Error   string      `json:"error"`   // Detect refuses it; a substring of the error
	Dialect string      `json:"dialect"` // Column.Dialect
	Shape   []int       `json:"shape"`   // Column.Shape (nil: varies)
	NDim    int         `json:"ndim"`    // Column.NDim
	Rows    []expectRow `json:"rows"`
}

type expectRow struct {
	null   bool
	Shape  []int      `json:"shape"`
	Values []*float64 `json:"values"` // nil entries are null elements
	Error  string     `json:"error"`
}

func (r *expectRow) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		r.null = true
		return nil
	}
	type plain expectRow
	return json.Unmarshal(b, (*plain)(r))
}

func readExpected(t *testing.T) map[string]map[string]expectColumn {
	t.Helper()
	b, err := os.ReadFile("../../testdata/dialects_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]expectColumn
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

// readFile reads every record batch of an Arrow IPC file.
func readFile(t *testing.T, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatal(err)
	}
	var recs []arrow.RecordBatch
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		rec.Retain()
		recs = append(recs, rec)
	}
	t.Cleanup(func() {
		for _, rec := range recs {
			rec.Release()
		}
		r.Close()
	})
	return r.Schema(), recs
}

// rowValues returns t's elements in row-major order of its shape, nil for
// a null element.
func rowValues(t *testing.T, tn tensorext.Tensor) []*float64 {
	t.Helper()
	if err := tn.Check(); err != nil {
		t.Fatalf("view fails Check: %v", err)
	}
	out := []*float64{}
	tn.Positions(func(pos int) bool {
		if tn.IsNull(pos) {
			out = append(out, nil)
			return true
		}
		v, ok := tn.Float64(pos)
		if !ok {
			t.Fatalf("element at %d is not numeric", pos)
		}
		out = append(out, &v)
		return true
	})
	return out
}

func fmtValues(v []*float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		if x == nil {
			parts[i] = "null"
		} else {
			parts[i] = fmt.Sprint(*x)
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// checkColumn compares Detect on one field, and Tensor on every row of
// every batch, with the expected column.
func checkColumn(t *testing.T, schema *arrow.Schema, recs []arrow.RecordBatch, idx int, want expectColumn) {
	t.Helper()
	in := NewInput(schema.Field(idx), schema.Metadata())
	col, err := Detect(in)
	switch {
	case want.None:
		if col != nil || err != nil {
			t.Fatalf("Detect = %+v, %v; want no dialect", col, err)
		}
		return
	case want.Error != "":
		if col != nil || err == nil || !strings.Contains(err.Error(), want.Error) {
			t.Fatalf("Detect = %v, %v; want an error containing %q", col, err, want.Error)
		}
		return
	}
	if err != nil || col == nil {
		t.Fatalf("Detect = %v, %v", col, err)
	}
	if col.Dialect != want.Dialect || !reflect.DeepEqual(col.Shape, want.Shape) || col.NDim != want.NDim {
		t.Errorf("column %q %v ndim %d, want %q %v ndim %d", col.Dialect, col.Shape, col.NDim, want.Dialect, want.Shape, want.NDim)
	}
	t.Logf("%s: %s", col.Dialect, col.Why)
	if col.Why == "" || col.ValueType == nil || col.Tensor == nil {
		t.Errorf("column lacks Why, ValueType or Tensor: %+v", col)
	}
	row := 0
	for _, rec := range recs {
		arr := rec.Column(idx)
		for i := 0; i < arr.Len(); i++ {
			w := want.Rows[row]
			tn, err := col.Tensor(arr, i)
			switch {
			case w.null:
				if !IsNull(err) {
					t.Errorf("row %d: %v, want null", row, err)
				}
			case w.Error != "":
				t.Logf("row %d: %v", row, err)
				if err == nil || !strings.Contains(err.Error(), w.Error) {
					t.Errorf("row %d: error %v, want one containing %q", row, err, w.Error)
				}
			case err != nil:
				t.Errorf("row %d: %v", row, err)
			default:
				if !reflect.DeepEqual(tn.Shape, w.Shape) && !(len(tn.Shape) == 0 && len(w.Shape) == 0) {
					t.Errorf("row %d: shape %v, want %v", row, tn.Shape, w.Shape)
				}
				if got := rowValues(t, tn); fmtValues(got) != fmtValues(w.Values) {
					t.Errorf("row %d: values %s, want %s", row, fmtValues(got), fmtValues(w.Values))
				}
				if !arrow.TypeEqual(tn.ValueType(), col.ValueType) {
					t.Errorf("row %d: value type %s, column says %s", row, tn.ValueType(), col.ValueType)
				}
			}
			row++
		}
	}
	if row != len(want.Rows) {
		t.Errorf("%d rows, want %d", row, len(want.Rows))
	}
}

// TestDialectFiles reads the files testdata/gen_dialects.mjs wrote with
// apache-arrow JS in each producer's layout, runs Detect on every field and
// Tensor on every row, and compares with dialects_expected.json.
func TestDialectFiles(t *testing.T) {
	want := readExpected(t)
	for _, file := range []string{"dialects_nested.arrow", "dialects_ray.arrow", "dialects_hf.arrow"} {
		t.Run(file, func(t *testing.T) {
			cols, ok := want[file]
			if !ok {
				t.Fatalf("%s is not in dialects_expected.json", file)
			}
			schema, recs := readFile(t, filepath.Join("../../testdata", file))
			if len(cols) != schema.NumFields() {
				t.Fatalf("%d fields, %d expected", schema.NumFields(), len(cols))
			}
			for i, f := range schema.Fields() {
				w, ok := cols[f.Name]
				if !ok {
					t.Fatalf("field %q is not in dialects_expected.json", f.Name)
				}
				t.Run(f.Name, func(t *testing.T) { checkColumn(t, schema, recs, i, w) })
			}
		})
	}
}

// TestPolarsInterop reads the plain FixedSizeList<float32>[4] files
// nodejs-polars 0.26.1 wrote (uncompressed, lz4, zstd; IPC file), whose
// values its script gives: [[1,2,3,4],[5,6,7,8],[9,10,11,12]].
func TestPolarsInterop(t *testing.T) {
	dir := "../../../shared/interop/generated-nonGo-writers"
	want := [][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
	for _, name := range []string{"polars_fsl_float32x4.arrow", "polars_fsl_float32x4_lz4.arrow", "polars_fsl_float32x4_zstd.arrow"} {
		t.Run(name, func(t *testing.T) {
			schema, recs := readFile(t, filepath.Join(dir, name))
			idx := schema.FieldIndices("tensor")
			if len(idx) != 1 {
				t.Fatalf("no tensor field in %s", schema)
			}
			col, err := Detect(NewInput(schema.Field(idx[0]), schema.Metadata()))
			if err != nil || col == nil {
				t.Fatalf("Detect = %v, %v", col, err)
			}
			if col.Dialect != "nested FixedSizeList" || !reflect.DeepEqual(col.Shape, []int{4}) || col.ValueType.ID() != arrow.FLOAT32 {
				t.Errorf("column %+v", col)
			}
			if c, err := Detect(NewInput(schema.Field(schema.FieldIndices("id")[0]), arrow.Metadata{})); c != nil || err != nil {
				t.Errorf("id column: %v, %v", c, err)
			}
			row := 0
			for _, rec := range recs {
				for i := 0; i < int(rec.NumRows()); i++ {
					tn, err := col.Tensor(rec.Column(idx[0]), i)
					if err != nil {
						t.Fatalf("row %d: %v", row, err)
					}
					got := rowValues(t, tn)
					if len(got) != 4 {
						t.Fatalf("row %d: %d values", row, len(got))
					}
					for k, v := range got {
						if v == nil || *v != want[row][k] {
							t.Errorf("row %d: %s, want %v", row, fmtValues(got), want[row])
							break
						}
					}
					row++
				}
			}
			if row != 3 {
				t.Errorf("%d rows, want 3", row)
			}
		})
	}
}
