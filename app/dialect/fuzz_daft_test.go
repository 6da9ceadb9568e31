package dialect

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// FuzzDaft feeds any metadata to the Daft adapter over each storage type
// of testdata/dialects_daft.arrow (Struct tensors and images, fixed size
// lists of int32, float64, uint8, uint16, the sparse struct) and reads every
// row of the matching column: Match and Tensor must never panic, and a
// tensor they return must be a valid view with the column's shape, number
// of dimensions and dim names.
func FuzzDaft(f *testing.F) {
	schema, recs := dlReadFile(f, filepath.Join("..", "..", "testdata", "dialects_daft.arrow"))
	rec := recs[0]
	for i := range schema.Fields() {
		f.Add(dlInput(schema, i).Metadata, uint8(i))
	}
	f.Add(`{"datatype":{"FixedShapeTensor":["UInt8",[0]]}}`, uint8(5))
	f.Add(`{"datatype":{"FixedShapeImage":["L",4,1]}}`, uint8(6))
	f.Add(`{"Image":"RGBA"}`, uint8(3))
	f.Add(`{"datatype":{"Embedding":["Float64",1e3]}}`, uint8(2))
	f.Fuzz(func(t *testing.T, meta string, pick uint8) {
		i := int(pick) % len(schema.Fields())
		field := schema.Field(i)
		col, err := daftAdapter{}.Match(Input{Field: field, Extension: DaftName, Metadata: meta})
		if col == nil {
			return
		}
		if err != nil {
			t.Fatalf("a column and an error: %v", err)
		}
		if col.ValueType == nil || col.Tensor == nil || col.Dialect == "" || col.Why == "" {
			t.Fatalf("incomplete column %+v", col)
		}
		arr := rec.Column(i)
		for r := -1; r <= arr.Len(); r++ {
			tn, err := col.Tensor(arr, r)
			if err != nil {
				continue
			}
			if err := tn.Check(); err != nil {
				t.Fatalf("row %d: invalid view: %v", r, err)
			}
			if !arrow.TypeEqual(tn.ValueType(), col.ValueType) {
				t.Fatalf("row %d: values %s, column %s", r, tn.ValueType(), col.ValueType)
			}
			if col.Shape != nil && !slices.Equal(tn.Shape, col.Shape) {
				t.Fatalf("row %d: shape %v, column %v", r, tn.Shape, col.Shape)
			}
			if col.NDim >= 0 && tn.NDim() != col.NDim {
				t.Fatalf("row %d: %d dims, column %d", r, tn.NDim(), col.NDim)
			}
			if col.DimNames != nil && !slices.Equal(tn.DimNames, col.DimNames) {
				t.Fatalf("row %d: dim names %q, column %q", r, tn.DimNames, col.DimNames)
			}
			_ = tn.String()
		}
	})
}
