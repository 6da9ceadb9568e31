package tensorext

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// TestParquetRoundTrip writes both tensor types to Parquet with pqarrow,
// which stores the Arrow schema (with the extension metadata) in the file's
// ARROW:schema key, and reads them back with type, metadata and values intact.
func TestParquetRoundTrip(t *testing.T) {
	vtyp, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float64, 2, []int{1, 0}, []string{"H", "W"}, []int{VaryingDim, 2})
	vb := NewVariableShapeTensorBuilder(memory.DefaultAllocator, vtyp)
	defer vb.Release()
	// No null rows here either: a null row's shape is a null FixedSizeList
	// with ndim child slots, which pqarrow rejects as above.
	_ = vb.AppendTensor([]int{1, 2}, []float64{1.5, -2})
	_ = vb.AppendTensor([]int{0, 2}, []float64{})
	_ = vb.AppendTensor([]int{3, 2}, []float64{1, 2, 3, 4, 5, 6})
	_ = vb.AppendTensor([]int{1, 2}, []float64{7, 8})
	vt := vb.NewVariableShapeTensorArray()
	defer vt.Release()
	ftyp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int16, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	fb := NewFixedShapeTensorBuilder(memory.DefaultAllocator, ftyp)
	defer fb.Release()
	// No null row: pqarrow rejects a FixedSizeList whose null rows have
	// child slots ("lists with non-zero length null components are not
	// supported"), which every null fixed shape tensor row has.
	for r := 0; r < 4; r++ {
		_ = fb.AppendTensor([]int16{int16(r), -1, 2, -3, 4, 5})
	}
	ft := fb.NewFixedShapeTensorArray()
	defer ft.Release()
	// pqarrow (arrow-go v18.8.0) cannot write an extension type over nested
	// storage ("not implemented: support for FIXED_SIZE_LIST"), so write the
	// storage with the extension's field metadata, as IPC does on the wire.
	meta := func(e arrow.ExtensionType) arrow.Metadata {
		return arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{e.ExtensionName(), e.Serialize()})
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f", Type: ftyp.StorageType(), Nullable: true, Metadata: meta(ftyp)},
		{Name: "v", Type: vt.TensorType().StorageType(), Nullable: true, Metadata: meta(vt.TensorType())},
	}, nil)
	tbl := array.NewTableFromSlice(schema, [][]arrow.Array{{ft.Storage()}, {vt.Storage()}})
	defer tbl.Release()

	var buf bytes.Buffer
	props := parquet.NewWriterProperties()
	if err := pqarrow.WriteTable(tbl, &buf, 1024, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	gf := got.Column(0).Data().Chunk(0)
	ftGot, ok := gf.(*FixedShapeTensorArray)
	if !ok {
		t.Fatalf("column f came back as %s", gf.DataType())
	}
	if ftGot.TensorType().Serialize() != ftyp.Serialize() || !array.Equal(ftGot, ft) {
		t.Errorf("fixed: %s %v, want %s %v", ftGot.TensorType().Serialize(), ftGot, ftyp.Serialize(), ft)
	}
	gv := got.Column(1).Data().Chunk(0)
	vtGot, ok := gv.(*VariableShapeTensorArray)
	if !ok {
		t.Fatalf("column v came back as %s", gv.DataType())
	}
	if vtGot.TensorType().Serialize() != vt.TensorType().Serialize() {
		t.Errorf("variable metadata %s", vtGot.TensorType().Serialize())
	}
	for i := 0; i < vt.Len(); i++ {
		if a, b := vtGot.ValueStr(i), vt.ValueStr(i); a != b {
			t.Errorf("variable row %d: %s, want %s", i, a, b)
		}
	}
}
