package tensorext

// Helpers shared by the tests.

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func convCheckedMem(t *testing.T) *memory.CheckedAllocator {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return mem
}

var convPerms3 = [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// convRefTranspose is an independent reference for numpy.transpose of a
// row-major [d0,d1,d2] array by perm: entry m of the result is the physical
// flat index of logical flat element m. It spells out the three loops over
// the logical shape and builds the physical index from its definition
// (logical axis i is physical axis perm[i]).
func convRefTranspose(shape, perm []int) []int {
	var out []int
	l0, l1, l2 := shape[perm[0]], shape[perm[1]], shape[perm[2]]
	for a := 0; a < l0; a++ {
		for b := 0; b < l1; b++ {
			for c := 0; c < l2; c++ {
				var p [3]int
				p[perm[0]] = a
				p[perm[1]] = b
				p[perm[2]] = c
				out = append(out, p[0]*shape[1]*shape[2]+p[1]*shape[2]+p[2])
			}
		}
	}
	return out
}

// convAppendElem appends element number k to a value builder of any of the test
// value types.
func convAppendElem(vb array.Builder, k int) {
	switch b := vb.(type) {
	case *array.Uint8Builder:
		b.Append(uint8(k))
	case *array.Int8Builder:
		b.Append(int8(k - 50))
	case *array.Int16Builder:
		b.Append(int16(k*3 - 500))
	case *array.Int32Builder:
		b.Append(int32(k*1000 - 7))
	case *array.Int64Builder:
		b.Append(int64(k) << 40)
	case *array.Float16Builder:
		b.Append(float16.New(float32(k) / 4))
	case *array.Float32Builder:
		b.Append(float32(k) + 0.5)
	case *array.Float64Builder:
		b.Append(float64(k) * 1.25)
	case *array.BooleanBuilder:
		b.Append(k%3 == 1)
	case *array.Date32Builder:
		b.Append(arrow.Date32(18000 + k))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(1_600_000_000_000 + int64(k)))
	case *array.Decimal128Builder:
		b.Append(decimal128.FromI64(int64(k)*1001 - 5))
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, b.Type().(*arrow.FixedSizeBinaryType).ByteWidth)
		for i := range v {
			v[i] = byte(k*7 + i)
		}
		b.Append(v)
	case *array.MonthDayNanoIntervalBuilder:
		b.Append(arrow.MonthDayNanoInterval{Months: int32(k), Days: int32(-k), Nanoseconds: int64(k) * 3})
	case *array.StringBuilder:
		b.Append(fmt.Sprintf("s%d", k))
	case *extensions.UUIDBuilder:
		if err := b.AppendValueFromString(fmt.Sprintf("00000000-0000-0000-0000-%012x", k)); err != nil {
			panic(err)
		}
	default:
		panic(fmt.Sprintf("convAppendElem: %T", vb))
	}
}

var convValueTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Uint8,
	arrow.PrimitiveTypes.Int8,
	arrow.PrimitiveTypes.Int32,
	arrow.PrimitiveTypes.Int64,
	arrow.FixedWidthTypes.Float16,
	arrow.PrimitiveTypes.Float32,
	arrow.PrimitiveTypes.Float64,
	arrow.FixedWidthTypes.Boolean,
	arrow.FixedWidthTypes.Date32,
	arrow.FixedWidthTypes.Timestamp_ms,
	&arrow.Decimal128Type{Precision: 20, Scale: 3},
	&arrow.FixedSizeBinaryType{ByteWidth: 3},
	arrow.FixedWidthTypes.MonthDayNanoInterval,
	arrow.BinaryTypes.String,
	extensions.NewUUIDType(),
}

// convBuildFixed builds a fixed shape tensor array of rows rows; row nullRow
// (if >= 0) is null and, when nullEvery > 0, element k (counting over all
// rows) is null when k%nullEvery == 3.
func convBuildFixed(t *testing.T, mem memory.Allocator, dt arrow.DataType, shape, perm []int, names []string, rows, nullRow, nullEvery int) *FixedShapeTensorArray {
	t.Helper()
	typ, err := NewFixedShapeTensorType(dt, shape, perm, names)
	if err != nil {
		t.Fatal(err)
	}
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()
	size, _ := product(shape)
	for r := 0; r < rows; r++ {
		if r == nullRow {
			b.AppendNull()
			continue
		}
		b.Append(true)
		for e := 0; e < size; e++ {
			k := r*size + e
			if nullEvery > 0 && k%nullEvery == 3 {
				b.ValueBuilder().AppendNull()
			} else {
				convAppendElem(b.ValueBuilder(), k)
			}
		}
	}
	return b.NewFixedShapeTensorArray()
}

func convTensor(t *testing.T, a interface{ Tensor(int) (Tensor, error) }, i int) Tensor {
	t.Helper()
	tt, err := a.Tensor(i)
	if err != nil {
		t.Fatalf("Tensor(%d): %v", i, err)
	}
	return tt
}

// convElemStr describes element pos of values as the test compares it.
func convElemStr(a arrow.Array, pos int) string {
	if a.IsNull(pos) {
		return "null"
	}
	return a.ValueStr(pos)
}

func seq(from, n int) []int32 {
	v := make([]int32, n)
	for i := range v {
		v[i] = int32(from + i)
	}
	return v
}

// logicalValues collects a tensor's values in logical row-major order.
func logicalValues(t *testing.T, tt Tensor) []string {
	t.Helper()
	var out []string
	tt.Logical().Positions(func(pos int) bool {
		out = append(out, tt.ValueStr(pos))
		return true
	})
	return out
}

func strs(v ...int) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// transpose is an independent reference: numpy.transpose of a row-major
// array of the given shape by perm, flattened.
func transpose(vals []int, shape, perm []int) []int {
	out := []int{}
	lshape := make([]int, len(perm))
	for i, p := range perm {
		lshape[i] = shape[p]
	}
	for a := 0; a < lshape[0]; a++ {
		for b := 0; b < lshape[1]; b++ {
			for c := 0; c < lshape[2]; c++ {
				phys := make([]int, 3)
				phys[perm[0]], phys[perm[1]], phys[perm[2]] = a, b, c
				out = append(out, vals[(phys[0]*shape[1]+phys[1])*shape[2]+phys[2]])
			}
		}
	}
	return out
}
