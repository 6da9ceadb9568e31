package dialect

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// extField is a field of an unregistered extension type as arrow-go reads
// it: the storage type, with the name and metadata in the field metadata.
func extField(name string, storage arrow.DataType, ext, meta string) arrow.Field {
	return arrow.Field{Name: name, Type: storage, Nullable: true,
		Metadata: arrow.NewMetadata([]string{ExtensionNameKey, ExtensionMetadataKey}, []string{ext, meta})}
}

func detect(f arrow.Field) (*Column, error) { return Detect(NewInput(f, arrow.Metadata{})) }

var (
	f32         = arrow.PrimitiveTypes.Float32
	i64         = arrow.PrimitiveTypes.Int64
	listF32     = arrow.ListOf(f32)
	largeF32    = arrow.LargeListOf(f32)
	rayVarF32   = arrow.StructOf(arrow.Field{Name: "data", Type: largeF32, Nullable: true}, arrow.Field{Name: "shape", Type: arrow.ListOf(i64), Nullable: true})
	hf2F32      = arrow.ListOf(arrow.ListOf(f32))
	rayPickle22 = string([]byte{0x80, 5, 0x95, 7, 0, 0, 0, 0, 0, 0, 0, 'K', 2, 'K', 2, 0x86, 0x94, '.'})
)

func deepFSL(n int) arrow.DataType {
	var dt arrow.DataType = arrow.PrimitiveTypes.Uint8
	for i := 0; i < n; i++ {
		dt = arrow.FixedSizeListOf(1, dt)
	}
	return dt
}

func float32s(vals ...float32) *array.Float32 {
	b := array.NewFloat32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewFloat32Array()
}

// dlReadFile reads every record batch of an Arrow IPC file with arrow-go's
// reader.
func dlReadFile(t testing.TB, path string) (*arrow.Schema, []arrow.RecordBatch) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { r.Close() })
	var recs []arrow.RecordBatch
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			t.Fatalf("%s batch %d: %v", path, i, err)
		}
		rec.Retain()
		t.Cleanup(rec.Release)
		recs = append(recs, rec)
	}
	return r.Schema(), recs
}

// dlInput builds the Input Detect sees for field i of schema.
func dlInput(schema *arrow.Schema, i int) Input {
	f := schema.Field(i)
	in := Input{Field: f, Schema: schema.Metadata()}
	if ext, ok := f.Type.(arrow.ExtensionType); ok {
		in.Extension, in.Metadata = ext.ExtensionName(), ext.Serialize()
		return in
	}
	if k := f.Metadata.FindKey("ARROW:extension:name"); k >= 0 {
		in.Extension = f.Metadata.Values()[k]
	}
	if k := f.Metadata.FindKey("ARROW:extension:metadata"); k >= 0 {
		in.Metadata = f.Metadata.Values()[k]
	}
	return in
}

// dlRow is one row of daft_lance_expected.json: the physical shape
// and the row-major values (numbers, or for bfloat16 JavaScript's text of
// the exact float32 value and the bits).
type dlRow struct {
	Shape  []int             `json:"shape"`
	Values []json.RawMessage `json:"values"`
	Bits   []uint16          `json:"bits"`
}

type dlColumn struct {
	DaftType  json.RawMessage `json:"daft_type"`
	ValueType string          `json:"value_type"`
	DimNames  []string        `json:"dim_names"`
	Shape     []int           `json:"shape"`
	Error     string          `json:"error"`
	Rows      []*dlRow        `json:"rows"`
}

func dlExpected(t testing.TB) map[string]map[string]dlColumn {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "daft_lance_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]dlColumn{}
	for _, file := range []string{"dialects_daft.arrow", "lance_bfloat16.arrow"} {
		var cols map[string]dlColumn
		if err := json.Unmarshal(doc[file], &cols); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out[file] = cols
	}
	return out
}

// dlNumber parses a value the generator wrote: a JSON number, or a string
// in JavaScript's number syntax ("-0", "NaN", "Infinity", "1e+38").
func dlNumber(t testing.TB, raw json.RawMessage) float64 {
	t.Helper()
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("expected value %s: %v", raw, err)
	}
	return v
}

// dlSame reports whether a and b are the same value: equal bits, or
// both NaN.
func dlSame(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}
