package tensorext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// expRow is one tensor row of an expectations file: physical shape and
// row-major values, or null.
type expRow struct {
	Shape  []int     `json:"shape"`
	Values []float64 `json:"values"`
}

type tensorColumn interface {
	arrow.Array
	Tensor(int) (Tensor, error)
}

func rowValues(t *testing.T, tt Tensor) []float64 {
	t.Helper()
	out := []float64{}
	tt.Positions(func(pos int) bool {
		v, ok := tt.Float64(pos)
		if !ok {
			t.Fatalf("element at %d unreadable", pos)
		}
		out = append(out, v)
		return true
	})
	return out
}

// readRecords reads every record batch of an IPC file or stream, or of a
// Parquet file through pqarrow.
func readRecords(t *testing.T, path string) []arrow.RecordBatch {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []arrow.RecordBatch
	switch {
	case bytes.HasPrefix(data, []byte("ARROW1")):
		r, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.RecordBatchAt(i)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
	case bytes.HasPrefix(data, []byte("PAR1")):
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rr.Release()
		for rr.Next() {
			rec := rr.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
	default:
		r, err := ipc.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, r := range recs {
			r.Release()
		}
	})
	return recs
}

// TestNonGoWriterFiles reads the files @uwdata/flechette and arrow-rs
// (parquet-wasm) wrote (testdata/gen_nongo.mjs): IPC file, IPC stream and
// Parquet, each value compared with testdata/nongo_expected.json.
func TestNonGoWriterFiles(t *testing.T) {
	var exp struct {
		Files map[string]struct {
			NumRows int `json:"num_rows"`
			Columns map[string]struct {
				Extension string    `json:"extension"`
				Metadata  string    `json:"metadata"`
				Rows      []*expRow `json:"rows"`
			} `json:"columns"`
		} `json:"files"`
	}
	data, err := os.ReadFile("../testdata/nongo_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp.Files) != 4 {
		t.Fatalf("%d files expected, want 4", len(exp.Files))
	}
	for name, want := range exp.Files {
		t.Run(name, func(t *testing.T) {
			recs := readRecords(t, filepath.Join("../testdata", name))
			rows := 0
			for _, r := range recs {
				rows += int(r.NumRows())
			}
			if rows != want.NumRows {
				t.Fatalf("%d rows, want %d", rows, want.NumRows)
			}
			schema := recs[0].Schema()
			for col, wc := range want.Columns {
				idx := schema.FieldIndices(col)
				if len(idx) != 1 {
					t.Fatalf("no column %s", col)
				}
				ext, ok := schema.Field(idx[0]).Type.(arrow.ExtensionType)
				if !ok || ext.ExtensionName() != wc.Extension {
					t.Fatalf("%s: type %s, want extension %s", col, schema.Field(idx[0]).Type, wc.Extension)
				}
				if v, ok := ext.(interface{ Validate() error }); ok && v.Validate() != nil {
					t.Fatalf("%s: %v", col, v.Validate())
				}
				if got := ext.Serialize(); got != wc.Metadata {
					t.Errorf("%s: Serialize %s, want the writer's %s", col, got, wc.Metadata)
				}
				r := 0
				for _, rec := range recs {
					arr := rec.Column(idx[0]).(tensorColumn)
					for i := 0; i < arr.Len(); i, r = i+1, r+1 {
						tt, err := arr.Tensor(i)
						w := wc.Rows[r]
						if w == nil {
							if !errors.Is(err, ErrNullTensor) {
								t.Errorf("%s row %d: want null, got %v", col, r, err)
							}
							continue
						}
						if err != nil {
							t.Fatalf("%s row %d: %v", col, r, err)
						}
						if got := rowValues(t, tt); !reflect.DeepEqual(tt.Shape, w.Shape) || !reflect.DeepEqual(got, w.Values) {
							t.Errorf("%s row %d: %v %v, want %v %v", col, r, tt.Shape, got, w.Shape, w.Values)
						}
					}
				}
			}
		})
	}
}

// nodeRead runs testdata/read_check.mjs (npm's apache-arrow) on files.
func nodeRead(t *testing.T, files ...string) []struct {
	NumRows int `json:"num_rows"`
	Fields  []struct {
		Name     string            `json:"name"`
		Type     string            `json:"type"`
		Metadata map[string]string `json:"metadata"`
	} `json:"fields"`
	Columns map[string][]*expRow `json:"columns"`
} {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("TENSORVIEW_FULL") == "" { // make test sets it: nothing skips there
			t.Skip("node is not on PATH: files are read back with npm's apache-arrow (make test installs it)")
		}
		t.Fatal("node is needed to read files with npm's apache-arrow: ", err)
	}
	if _, err := os.Stat("../testdata/node_modules/apache-arrow"); err != nil {
		if os.Getenv("TENSORVIEW_FULL") == "" { // make test sets it: nothing skips there
			t.Skip("testdata/node_modules is missing: `make test` installs it (or `make testdata/node_modules`)")
		}
		t.Fatal("testdata/node_modules is missing: run `make testdata/node_modules` (make test does)")
	}
	cmd := exec.Command(node, append([]string{"../testdata/read_check.mjs"}, files...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("read_check.mjs: %v\n%s", err, stderr.String())
	}
	var res []struct {
		NumRows int `json:"num_rows"`
		Fields  []struct {
			Name     string            `json:"name"`
			Type     string            `json:"type"`
			Metadata map[string]string `json:"metadata"`
		} `json:"fields"`
		Columns map[string][]*expRow `json:"columns"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestApacheArrowReadsTensorext writes both tensor types with tensorext (IPC
// file and stream) and reads them with npm's apache-arrow in node: the same
// extension names, the exact metadata strings Serialize wrote, and the same
// values, nulls and per-row shapes.
func TestApacheArrowReadsTensorext(t *testing.T) {
	mem := memory.DefaultAllocator
	ftyp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int16, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	fb := NewFixedShapeTensorBuilder(mem, ftyp)
	defer fb.Release()
	_ = fb.AppendTensor([]int16{1, -2, 3, -4, 5, -6})
	fb.AppendNull()
	_ = fb.AppendTensor([]int16{7, 8, 9, 10, 11, 12})
	fixed := fb.NewFixedShapeTensorArray()
	defer fixed.Release()

	gtyp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float64, []int{2, 2, 1}, nil, nil)
	gb := NewFixedShapeTensorBuilder(mem, gtyp)
	defer gb.Release()
	_ = gb.AppendTensors([]float64{0.5, 1.5, -2.25, 3, 4, 5, 6, 7, 1e300, -1e-300, 0, 8})
	plain := gb.NewFixedShapeTensorArray()
	defer plain.Release()

	vtyp, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 3, []int{2, 0, 1}, []string{"H", "W", "C"}, []int{VaryingDim, VaryingDim, 3})
	vb := NewVariableShapeTensorBuilder(mem, vtyp)
	defer vb.Release()
	_ = vb.AppendTensor([]int{1, 2, 3}, []float32{1, 2, 3, 4, 5, 6})
	_ = vb.AppendTensor([]int{0, 4, 3}, []float32{})
	vb.AppendNull()
	variable := vb.NewVariableShapeTensorArray()
	defer variable.Release()

	schema := arrow.NewSchema([]arrow.Field{
		{Name: "fixed", Type: ftyp, Nullable: true},
		{Name: "plain", Type: gtyp, Nullable: true},
		{Name: "variable", Type: vtyp, Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{fixed, plain, variable}, 3)
	defer rec.Release()

	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "tensorext.arrow"), filepath.Join(dir, "tensorext.arrows")}
	for i, path := range paths {
		var buf bytes.Buffer
		var w interface {
			Write(arrow.RecordBatch) error
			Close() error
		}
		if i == 0 {
			fw, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
			if err != nil {
				t.Fatal(err)
			}
			w = fw
		} else {
			w = ipc.NewWriter(&buf, ipc.WithSchema(schema))
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	want := map[string][]*expRow{
		"fixed":    {{Values: []float64{1, -2, 3, -4, 5, -6}}, nil, {Values: []float64{7, 8, 9, 10, 11, 12}}},
		"plain":    {{Values: []float64{0.5, 1.5, -2.25, 3}}, {Values: []float64{4, 5, 6, 7}}, {Values: []float64{1e300, -1e-300, 0, 8}}},
		"variable": {{Values: []float64{1, 2, 3, 4, 5, 6}, Shape: []int{1, 2, 3}}, {Values: []float64{}, Shape: []int{0, 4, 3}}, nil},
	}
	meta := map[string]string{"fixed": ftyp.Serialize(), "plain": gtyp.Serialize(), "variable": vtyp.Serialize()}
	names := map[string]string{"fixed": FixedShapeTensorName, "plain": FixedShapeTensorName, "variable": VariableShapeTensorName}
	for i, got := range nodeRead(t, paths...) {
		if got.NumRows != 3 {
			t.Errorf("%s: %d rows", paths[i], got.NumRows)
		}
		for _, f := range got.Fields {
			if f.Metadata["ARROW:extension:name"] != names[f.Name] || f.Metadata["ARROW:extension:metadata"] != meta[f.Name] {
				t.Errorf("%s %s: metadata %v, want %s %s", paths[i], f.Name, f.Metadata, names[f.Name], meta[f.Name])
			}
			if f.Name == "variable" && !strings.HasPrefix(f.Type, "Struct<{data:List<Float32>, shape:FixedSizeList[3]<Int32>}") {
				t.Errorf("variable storage as apache-arrow sees it: %s", f.Type)
			}
		}
		if !reflect.DeepEqual(got.Columns, want) {
			gj, _ := json.Marshal(got.Columns)
			wj, _ := json.Marshal(want)
			t.Errorf("%s: values\n got %s\nwant %s", paths[i], gj, wj)
		}
	}
	if meta["variable"] != `{"permutation":[2,0,1],"dim_names":["H","W","C"],"uniform_shape":[null,null,3]}` {
		t.Errorf("variable metadata %s", meta["variable"])
	}
}
