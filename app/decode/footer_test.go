package decode

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// unalignedFooter is a Footer flatbuffer (File.fbs) laid out by hand: its
// Schema (field 1) holds one field "d" whose DictionaryEncoding has id 7,
// and the schema table starts 257 bytes past the field that points at it,
// so the offset's low byte is 1, a schema message's header type.
// Flatbuffers do not require tables to be aligned.
func unalignedFooter() []byte {
	b := make([]byte, 360)
	u16 := func(at int, v ...uint16) {
		for k, x := range v {
			binary.LittleEndian.PutUint16(b[at+2*k:], x)
		}
	}
	u32 := func(at int, v uint32) { binary.LittleEndian.PutUint32(b[at:], v) }
	table := func(at, vtable int) { u32(at, uint32(int32(at-vtable))) }
	const footer, schema, fields, field, dict = 8, 269, 300, 320, 340
	u32(0, footer)
	u16(100, 8, 8, 0, 4) // Footer: field 1 (schema) at +4
	table(footer, 100)
	u32(footer+4, schema-(footer+4))
	u16(120, 8, 8, 0, 4) // Schema: field 1 (fields) at +4
	table(schema, 120)
	u32(schema+4, fields-(schema+4))
	u32(fields, 1)
	u32(fields+4, field-(fields+4))
	u16(140, 14, 8, 0, 0, 0, 0, 4) // Field: field 4 (dictionary) at +4
	table(field, 140)
	u32(field+4, dict-(field+4))
	u16(160, 6, 12, 4) // DictionaryEncoding: field 0 (id) at +4
	table(dict, 160)
	binary.LittleEndian.PutUint64(b[dict+4:], 7)
	return b
}

// TestFooterSchemaNotReadAsMessage: a Footer's Schema is its field 1,
// whatever that field's bytes are. dictValueTypes once read a footer as a
// schema message when its schema offset's low byte was 1, took field 2
// (the dictionaries vector) for the schema and failed ("no schema").
func TestFooterSchemaNotReadAsMessage(t *testing.T) {
	fb := unalignedFooter()
	root, err := flatbuf.Root(fb)
	if err != nil {
		t.Fatal(err)
	}
	if low, _ := root.Uint8(footerSchema); low != msgSchema {
		t.Fatalf("the footer's field 1 starts with %d, want %d", low, msgSchema)
	}
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: dt}}, nil)
	got, err := dictValueTypes(fb, footerSchema, schema)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !arrow.TypeEqual(got[7], arrow.BinaryTypes.String) {
		t.Errorf("dictionary value types %v, want map[7:utf8]", got)
	}
}

// TestSharedVtableSchema: arrow-go writes a schema whose flatbuffer tables
// share vtables across inline sizes (a dictionary column, a
// fixed_shape_tensor, then a struct of a dictionary and a list, in that
// order); it opens, and every column reads as arrow-go reads it.
func TestSharedVtableSchema(t *testing.T) {
	mem := memory.DefaultAllocator
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	tt, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := arrow.StructOf(arrow.Field{Name: "d", Type: dict}, arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)})
	schema := arrow.NewSchema([]arrow.Field{{Name: "label", Type: dict}, {Name: "t", Type: tt}, {Name: "s", Type: st}}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for r := range 3 {
		b.Field(0).(*array.BinaryDictionaryBuilder).AppendString([]string{"cat", "dog"}[r%2])
		tb := b.Field(1).(*tensorext.FixedShapeTensorBuilder)
		if err := tb.AppendTensor([]float32{float32(r), float32(r) + 0.5}); err != nil {
			t.Fatal(err)
		}
		sb := b.Field(2).(*array.StructBuilder)
		sb.Append(true)
		sb.FieldBuilder(0).(*array.BinaryDictionaryBuilder).AppendString("x")
		lb := sb.FieldBuilder(1).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{int32(r), 7}, nil)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := Open("shared.arrow", testkit.IPCFile(t, schema, rec))
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Batch(0)
	if err != nil {
		t.Fatal(err)
	}
	for c := range 3 {
		if !array.Equal(got.Column(c), rec.Column(c)) {
			t.Errorf("column %d: %v, want %v", c, got.Column(c), rec.Column(c))
		}
	}
}
