package nullarray_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/nullarray"
	"github.com/tensorview/tensorview/tensorext"
)

// Every layout, compared with arrow-go's array.MakeArrayOfNull: the same
// type, length, null count, values (array.Equal) and text.
func TestMakeMatchesArrow(t *testing.T) {
	fixed, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	variable, err := tensorext.NewVariableShapeTensorType(arrow.PrimitiveTypes.Uint8, 3, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	types := []arrow.DataType{
		arrow.Null,
		arrow.FixedWidthTypes.Boolean,
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		arrow.FixedWidthTypes.Float16,
		&arrow.Decimal32Type{Precision: 9, Scale: 2}, &arrow.Decimal64Type{Precision: 18, Scale: 2},
		&arrow.Decimal128Type{Precision: 20, Scale: 3}, &arrow.Decimal256Type{Precision: 40, Scale: 3},
		arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64,
		arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time64ns,
		arrow.FixedWidthTypes.Timestamp_us, arrow.FixedWidthTypes.Duration_ms,
		arrow.FixedWidthTypes.MonthInterval, arrow.FixedWidthTypes.DayTimeInterval,
		arrow.FixedWidthTypes.MonthDayNanoInterval,
		&arrow.FixedSizeBinaryType{ByteWidth: 5},
		arrow.BinaryTypes.Binary, arrow.BinaryTypes.String,
		arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.LargeString,
		arrow.BinaryTypes.BinaryView, arrow.BinaryTypes.StringView,
		arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.LargeListOf(arrow.BinaryTypes.String),
		arrow.ListViewOf(arrow.PrimitiveTypes.Int16), arrow.LargeListViewOf(arrow.PrimitiveTypes.Int16),
		arrow.FixedSizeListOf(3, arrow.PrimitiveTypes.Float64),
		arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Uint8)),
		st,
		arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String},
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Uint32, ValueType: arrow.PrimitiveTypes.Float64},
		arrow.SparseUnionOf([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{5, 7}),
		arrow.DenseUnionOf([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			{Name: "y", Type: arrow.BinaryTypes.String, Nullable: true}}, []arrow.UnionTypeCode{2, 0}),
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int16, arrow.BinaryTypes.String),
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float64),
		arrow.RunEndEncodedOf(arrow.PrimitiveTypes.Int64, st),
		extensions.NewUUIDType(), extensions.NewBool8Type(),
		fixed, variable,
	}
	for _, dt := range types {
		for _, n := range []int{0, 1, 5, 70} {
			mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
			want := array.MakeArrayOfNull(mem, dt, n)
			got := nullarray.Make(mem, dt, n)
			if !arrow.TypeEqual(got.DataType(), dt) || got.Len() != n || got.NullN() != want.NullN() {
				t.Errorf("%s × %d: got type %s, %d values, %d nulls; want %d values, %d nulls",
					dt, n, got.DataType(), got.Len(), got.NullN(), n, want.NullN())
			}
			if !array.Equal(got, want) {
				t.Errorf("%s × %d: got %v, want %v", dt, n, got, want)
			}
			if g, w := got.String(), want.String(); g != w {
				t.Errorf("%s × %d: text %q, want %q", dt, n, g, w)
			}
			for i := range n {
				if !got.IsNull(i) && want.IsNull(i) {
					t.Errorf("%s × %d: value %d is not null", dt, n, i)
				}
			}
			if ids := dt.ID(); ids != arrow.SPARSE_UNION && ids != arrow.DENSE_UNION && ids != arrow.RUN_END_ENCODED {
				if got.NullN() != n {
					t.Errorf("%s × %d: %d nulls", dt, n, got.NullN())
				}
			}
			got.Release()
			want.Release()
			mem.AssertSize(t, 0)
		}
	}
}
