package tensorext

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
)

// ---------------------------------------------------------------------------
// helpers

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

// ---------------------------------------------------------------------------
// CopyContiguous

func TestCopyContiguousSpecExample(t *testing.T) {
	mem := convCheckedMem(t)
	// Spec example of NOTES.md: shape [2,2,3], values 1..12, permutation
	// [2,0,1] -> logical shape [3,2,2], values 1 4 7 10 2 5 8 11 3 6 9 12.
	want := []int{1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12}
	build := func(dt arrow.DataType, appendFn func(vb array.Builder, v int)) *FixedShapeTensorArray {
		typ, err := NewFixedShapeTensorType(dt, []int{2, 2, 3}, []int{2, 0, 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := NewFixedShapeTensorBuilder(mem, typ)
		defer b.Release()
		b.AppendNull()
		b.Append(true)
		for v := 1; v <= 12; v++ {
			appendFn(b.ValueBuilder(), v)
		}
		arr := b.NewFixedShapeTensorArray()
		defer arr.Release()
		return array.NewSlice(arr, 1, 2).(*FixedShapeTensorArray)
	}
	check := func(name string, dt arrow.DataType, appendFn func(array.Builder, int), got func(arrow.Array) any, exp any) {
		t.Run(name, func(t *testing.T) {
			arr := build(dt, appendFn)
			defer arr.Release()
			tt := convTensor(t, arr, 0)
			out, err := CopyContiguous(mem, tt.Logical())
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if g := got(out); !reflect.DeepEqual(g, exp) {
				t.Errorf("logical copy = %v, want %v", g, exp)
			}
			if out.NullN() != 0 || out.Data().Buffers()[0] != nil {
				t.Errorf("unexpected validity: %d nulls", out.NullN())
			}
		})
	}
	u8 := make([]uint8, 12)
	i32 := make([]int32, 12)
	f32 := make([]float32, 12)
	f64 := make([]float64, 12)
	f16 := make([]float32, 12)
	bools := make([]bool, 12)
	for i, v := range want {
		u8[i], i32[i], f32[i], f64[i], f16[i], bools[i] = uint8(v), int32(-v), float32(v)/8, float64(v)*1e-3, float32(v)/2, v%2 == 0
	}
	check("uint8", arrow.PrimitiveTypes.Uint8, func(vb array.Builder, v int) { vb.(*array.Uint8Builder).Append(uint8(v)) },
		func(a arrow.Array) any { return a.(*array.Uint8).Uint8Values() }, u8)
	check("int32", arrow.PrimitiveTypes.Int32, func(vb array.Builder, v int) { vb.(*array.Int32Builder).Append(int32(-v)) },
		func(a arrow.Array) any { return a.(*array.Int32).Int32Values() }, i32)
	check("float32", arrow.PrimitiveTypes.Float32, func(vb array.Builder, v int) { vb.(*array.Float32Builder).Append(float32(v) / 8) },
		func(a arrow.Array) any { return a.(*array.Float32).Float32Values() }, f32)
	check("float64", arrow.PrimitiveTypes.Float64, func(vb array.Builder, v int) { vb.(*array.Float64Builder).Append(float64(v) * 1e-3) },
		func(a arrow.Array) any { return a.(*array.Float64).Float64Values() }, f64)
	check("float16", arrow.FixedWidthTypes.Float16, func(vb array.Builder, v int) { vb.(*array.Float16Builder).Append(float16.New(float32(v) / 2)) },
		func(a arrow.Array) any {
			var out []float32
			for _, x := range a.(*array.Float16).Values() {
				out = append(out, x.Float32())
			}
			return out
		}, f16)
	check("bool", arrow.FixedWidthTypes.Boolean, func(vb array.Builder, v int) { vb.(*array.BooleanBuilder).Append(v%2 == 0) },
		func(a arrow.Array) any {
			var out []bool
			for i := 0; i < a.Len(); i++ {
				out = append(out, a.(*array.Boolean).Value(i))
			}
			return out
		}, bools)
}

func TestCopyContiguousEveryPermutation(t *testing.T) {
	shape := []int{2, 3, 4}
	for _, dt := range convValueTypes {
		for _, perm := range convPerms3 {
			for _, nullEvery := range []int{0, 5} {
				name := fmt.Sprintf("%s/perm%v/nulls%d", dt, perm, nullEvery)
				t.Run(name, func(t *testing.T) {
					mem := convCheckedMem(t)
					arr := convBuildFixed(t, mem, dt, shape, perm, nil, 4, 1, nullEvery)
					defer arr.Release()
					sl := array.NewSlice(arr, 1, 4).(*FixedShapeTensorArray) // rows: null, 2, 3
					defer sl.Release()
					if _, err := sl.Tensor(0); err != ErrNullTensor {
						t.Fatalf("row 0 of slice: %v", err)
					}
					ref := convRefTranspose(shape, perm)
					for r := 1; r < 3; r++ {
						tt := convTensor(t, sl, r)
						out, err := CopyContiguous(mem, tt.Logical())
						if err != nil {
							t.Fatal(err)
						}
						if !arrow.TypeEqual(out.DataType(), dt) || out.Len() != 24 {
							t.Fatalf("got %s len %d", out.DataType(), out.Len())
						}
						wantNulls := 0
						for m, p := range ref {
							want := convElemStr(tt.Values, tt.Offset+p)
							if want == "null" {
								wantNulls++
							}
							if got := convElemStr(out, m); got != want {
								t.Fatalf("row %d logical element %d = %s, want %s", r, m, got, want)
							}
						}
						if out.NullN() != wantNulls {
							t.Errorf("NullN = %d, want %d", out.NullN(), wantNulls)
						}
						out.Release()
						// The physical copy is the row as stored.
						phys, err := CopyContiguous(mem, tt)
						if err != nil {
							t.Fatal(err)
						}
						for m := 0; m < 24; m++ {
							if got, want := convElemStr(phys, m), convElemStr(tt.Values, tt.Offset+m); got != want {
								t.Fatalf("physical element %d = %s, want %s", m, got, want)
							}
						}
						phys.Release()
					}
				})
			}
		}
	}
}

func TestCopyContiguousStrides(t *testing.T) {
	mem := convCheckedMem(t)
	b := array.NewInt32Builder(mem)
	defer b.Release()
	for i := 0; i < 30; i++ {
		if i == 9 {
			b.AppendNull()
		} else {
			b.Append(int32(i))
		}
	}
	all := b.NewInt32Array()
	defer all.Release()
	vals := array.NewSlice(all, 5, 30) // Values with a data offset: position p holds 5+p
	defer vals.Release()
	cases := []struct {
		name   string
		t      Tensor
		want   []string
		errMsg string
	}{
		{"reversed", Tensor{Values: vals, Offset: 6, Shape: []int{7}, Strides: []int{-1}},
			[]string{"11", "10", "null", "8", "7", "6", "5"}, ""},
		{"flip rows", Tensor{Values: vals, Offset: 3, Shape: []int{2, 3}, Strides: []int{-3, 1}},
			[]string{"8", "null", "10", "5", "6", "7"}, ""},
		{"broadcast", Tensor{Values: vals, Offset: 10, Shape: []int{3, 2}, Strides: []int{0, 1}},
			[]string{"15", "16", "15", "16", "15", "16"}, ""},
		{"every other, 3-D", Tensor{Values: vals, Offset: 0, Shape: []int{2, 2, 2}, Strides: []int{12, 4, 2}},
			[]string{"5", "7", "null", "11", "17", "19", "21", "23"}, ""},
		{"0-D", Tensor{Values: vals, Offset: 2, Shape: nil, Strides: nil}, []string{"7"}, ""},
		{"size-1 dims", Tensor{Values: vals, Offset: 1, Shape: []int{1, 3, 1}, Strides: []int{100, 2, -50}},
			[]string{"6", "8", "10"}, ""},
		{"empty", Tensor{Values: vals, Offset: 99, Shape: []int{0, 3}, Strides: []int{3, 1}}, nil, ""},
		{"out of range", Tensor{Values: vals, Offset: 20, Shape: []int{2, 3}, Strides: []int{3, 1}}, nil,
			"tensorext: view reads positions [20, 25] of a values array of length 25"},
		{"negative out of range", Tensor{Values: vals, Offset: 1, Shape: []int{3}, Strides: []int{-1}}, nil,
			"tensorext: view reads positions [-1, 1] of a values array of length 25"},
		{"strides length", Tensor{Values: vals, Shape: []int{2, 3}, Strides: []int{1}}, nil,
			"tensorext: 1 strides for 2 dimensions"},
		{"negative dim", Tensor{Values: vals, Shape: []int{-2}, Strides: []int{1}}, nil,
			"tensorext: shape [-2] is negative or too large"},
		{"no values", Tensor{Shape: []int{1}, Strides: []int{1}}, nil, "tensorext: tensor has no values"},
		{"null type", Tensor{Values: array.NewNull(4), Offset: 3, Shape: []int{2}, Strides: []int{-2}}, []string{"(null)", "(null)"}, ""}, // arrow-go: Null.IsNull is false
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := CopyContiguous(mem, c.t)
			if c.errMsg != "" {
				if err == nil || err.Error() != c.errMsg {
					t.Fatalf("err = %v, want %q", err, c.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			var got []string
			for i := 0; i < out.Len(); i++ {
				got = append(got, convElemStr(out, i))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
			if !arrow.TypeEqual(out.DataType(), c.t.Values.DataType()) {
				t.Errorf("type %s", out.DataType())
			}
		})
	}
}

// TestCopyContiguousKernels compares CopyContiguous with an element-by-element
// walk (Tensor.Positions) on many strided views, covering every kernel:
// unit-stride rows, (de)interleaving of 2-4 streams, general gathers,
// negative and zero strides, and the odometer over outer dimensions, for
// element widths 1, 2, 4, 8 and 16 and bits.
func TestCopyContiguousKernels(t *testing.T) {
	mem := convCheckedMem(t)
	const n = 400
	var arrays []arrow.Array
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32,
		arrow.PrimitiveTypes.Int64, &arrow.Decimal128Type{Precision: 30, Scale: 0}, arrow.FixedWidthTypes.Boolean} {
		b := array.NewBuilder(mem, dt)
		for k := 0; k < n; k++ {
			if k%11 == 5 {
				b.AppendNull()
			} else {
				convAppendElem(b, k)
			}
		}
		arrays = append(arrays, b.NewArray())
		b.Release()
	}
	defer func() {
		for _, a := range arrays {
			a.Release()
		}
	}()
	views := []struct{ shape, strides []int }{
		{[]int{3, 20}, []int{1, 3}},       // deinterleave 3, contiguous
		{[]int{2, 20}, []int{1, 5}},       // deinterleave 2, gaps
		{[]int{4, 20}, []int{1, 4}},       // deinterleave 4
		{[]int{20, 3}, []int{1, 20}},      // interleave 3
		{[]int{20, 2}, []int{1, 33}},      // interleave 2, gaps
		{[]int{20, 4}, []int{1, 21}},      // interleave 4
		{[]int{5, 20}, []int{1, 5}},       // general gather (5 streams)
		{[]int{3, 4, 5}, []int{1, 15, 3}}, // logical CHW of HWC
		{[]int{2, 3, 4, 5}, []int{60, 1, 15, 3}},
		{[]int{3, 4, 5}, []int{-1, 15, -3}}, // negative strides
		{[]int{4, 3, 2}, []int{0, 1, 3}},    // broadcast
		{[]int{2, 3, 4}, []int{12, 4, 1}},   // contiguous
		{[]int{2, 3, 4}, []int{40, 7, 2}},   // sparse
	}
	for _, vals := range arrays {
		for _, v := range views {
			tt := Tensor{Values: vals, Shape: v.shape, Strides: v.strides}
			lo := 0
			for k, d := range v.shape {
				if e := (d - 1) * v.strides[k]; e < 0 {
					lo -= e
				}
			}
			for _, off := range []int{lo, lo + 7} {
				tt.Offset = off
				var want []string
				tt.Positions(func(pos int) bool {
					want = append(want, convElemStr(vals, pos))
					return true
				})
				out, err := CopyContiguous(mem, tt)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for i := 0; i < out.Len(); i++ {
					got = append(got, convElemStr(out, i))
				}
				out.Release()
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s shape %v strides %v offset %d:\n got %v\nwant %v", vals.DataType(), v.shape, v.strides, off, got, want)
				}
			}
		}
	}
}

// A fixed_size_binary of width 5 has no typed fast path, and a buffer at an
// odd address disables the typed ones: both use the byte path.
func TestCopyContiguousBytePath(t *testing.T) {
	mem := convCheckedMem(t)
	b := array.NewFixedSizeBinaryBuilder(mem, &arrow.FixedSizeBinaryType{ByteWidth: 5})
	defer b.Release()
	for i := 0; i < 6; i++ {
		b.Append([]byte{byte(i), 1, 2, 3, byte(10 * i)})
	}
	fsb := b.NewArray()
	defer fsb.Release()
	out, err := CopyContiguous(mem, Tensor{Values: fsb, Shape: []int{3, 2}, Strides: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	var got []byte
	for i := 0; i < out.Len(); i++ {
		got = append(got, out.(*array.FixedSizeBinary).Value(i)[0])
	}
	if !reflect.DeepEqual(got, []byte{0, 3, 1, 4, 2, 5}) {
		t.Errorf("fsb(5) transpose = %v", got)
	}

	// uint32 values at an odd address (an IPC reader over a foreign buffer
	// could produce one).
	raw := make([]byte, 1+4*6)
	for i := 0; i < 6; i++ {
		raw[1+4*i] = byte(i + 1)
	}
	data := array.NewData(arrow.PrimitiveTypes.Uint32, 6, []*memory.Buffer{nil, memory.NewBufferBytes(raw[1:])}, nil, 0, 0)
	defer data.Release()
	u32 := array.MakeFromData(data)
	defer u32.Release()
	out2, err := CopyContiguous(mem, Tensor{Values: u32, Shape: []int{3, 2}, Strides: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	defer out2.Release()
	if got := out2.(*array.Uint32).Uint32Values(); !reflect.DeepEqual(got, []uint32{1, 4, 2, 5, 3, 6}) {
		t.Errorf("unaligned uint32 transpose = %v", got)
	}
}

// ---------------------------------------------------------------------------
// arrow-go tensors

func TestConvertToArrowTensor(t *testing.T) {
	mem := convCheckedMem(t)
	shape, perm := []int{2, 3, 4}, []int{2, 0, 1}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float32,
		arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Date32} {
		t.Run(dt.String(), func(t *testing.T) {
			arr := convBuildFixed(t, mem, dt, shape, perm, []string{"N", "H", "W"}, 3, 0, 0)
			defer arr.Release()
			sl := array.NewSlice(arr, 1, 3).(*FixedShapeTensorArray)
			defer sl.Release()
			tt := convTensor(t, sl, 1) // storage row 2
			bw := int64(dt.(arrow.FixedWidthDataType).BitWidth() / 8)

			phys, err := ToArrowTensor(tt)
			if err != nil {
				t.Fatal(err)
			}
			defer phys.Release()
			if !reflect.DeepEqual(phys.Shape(), []int64{2, 3, 4}) || !reflect.DeepEqual(phys.Strides(), []int64{12 * bw, 4 * bw, bw}) ||
				!phys.IsRowMajor() || !reflect.DeepEqual(phys.DimNames(), []string{"N", "H", "W"}) {
				t.Errorf("physical: shape %v strides %v rowmajor %v names %v", phys.Shape(), phys.Strides(), phys.IsRowMajor(), phys.DimNames())
			}
			if phys.Data().Buffers()[1] != tt.Values.Data().Buffers()[1] || phys.Data().Offset() != tt.Values.Data().Offset()+48 {
				t.Error("physical tensor is not a zero-copy slice of the row")
			}

			lt, err := ToArrowTensor(tt.Logical())
			if err != nil {
				t.Fatal(err)
			}
			defer lt.Release()
			if !reflect.DeepEqual(lt.Shape(), []int64{4, 2, 3}) || !reflect.DeepEqual(lt.Strides(), []int64{bw, 12 * bw, 4 * bw}) ||
				lt.IsContiguous() || !reflect.DeepEqual(lt.DimNames(), []string{"W", "N", "H"}) {
				t.Errorf("logical: shape %v strides %v names %v", lt.Shape(), lt.Strides(), lt.DimNames())
			}
			if lt.Data().Buffers()[1] != tt.Values.Data().Buffers()[1] {
				t.Error("logical tensor copied")
			}
			ref := convRefTranspose(shape, perm)
			m := 0
			for a := int64(0); a < 4; a++ {
				for b := int64(0); b < 2; b++ {
					for c := int64(0); c < 3; c++ {
						got := convArrowTensorValue(lt, []int64{a, b, c})
						if want := tt.Values.ValueStr(tt.Offset + ref[m]); got != want {
							t.Fatalf("logical (%d,%d,%d) = %s, want %s", a, b, c, got, want)
						}
						m++
					}
				}
			}
		})
	}
}

// convArrowTensorValue reads one element of an arrow-go tensor as text.
func convArrowTensorValue(ts tensor.Interface, idx []int64) string {
	switch x := ts.(type) {
	case *tensor.Uint8:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Int32:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Float32:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Float64:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Date32:
		return x.Value(idx).FormattedString()
	}
	return fmt.Sprintf("%T", ts)
}

func TestConvertToArrowTensorNullsAndErrors(t *testing.T) {
	mem := convCheckedMem(t)
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues([]float64{0, 1, 2, 3, 4, 5, 6, 7}, []bool{true, false, true, true, true, true, true, false})
	vals := b.NewFloat64Array()
	defer vals.Release()

	// Nulls outside the view do not matter.
	ts, err := ToArrowTensor(Tensor{Values: vals, Offset: 2, Shape: []int{2, 2}, Strides: []int{2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.(*tensor.Float64).Float64Values(); !reflect.DeepEqual(got, []float64{2, 3, 4, 5}) {
		t.Errorf("values %v", got)
	}
	ts.Release()
	_, err = ToArrowTensor(Tensor{Values: vals, Offset: 0, Shape: []int{2, 2}, Strides: []int{4, 1}})
	if err == nil || err.Error() != "tensorext: element at index [0,1] is null; arrow-go tensors cannot hold nulls" {
		t.Errorf("null element: %v", err)
	}
	// A view with a negative stride is copied into a row-major tensor.
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 6, Shape: []int{2, 2}, Strides: []int{-2, -1}, DimNames: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.(*tensor.Float64); !reflect.DeepEqual(got.Float64Values(), []float64{6, 5, 4, 3}) || !got.IsRowMajor() ||
		!reflect.DeepEqual(got.Strides(), []int64{16, 8}) || got.Value([]int64{1, 0}) != 4 || got.DimName(1) != "b" {
		t.Errorf("negative strides: values %v strides %v", got.Float64Values(), got.Strides())
	}
	ts.Release()
	// 0-D and empty views.
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 5})
	if err != nil || ts.Len() != 1 || ts.(*tensor.Float64).Value(nil) != 5 {
		t.Errorf("0-D: %v", err)
	}
	ts.Release()
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 8, Shape: []int{0, 2}, Strides: []int{2, 1}})
	if err != nil || ts.Len() != 0 || ts.Data().Len() != 0 {
		t.Errorf("empty: %v", err)
	}
	ts.Release()

	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Boolean} {
		a := array.MakeArrayOfNull(mem, dt, 4)
		_, err := ToArrowTensor(Tensor{Values: a, Shape: []int{4}, Strides: []int{1}})
		if want := "tensorext: arrow-go tensors do not support value type " + dt.String(); err == nil || err.Error() != want {
			t.Errorf("%s: %v", dt, err)
		}
		a.Release()
	}
}

func TestConvertAppendArrowTensor(t *testing.T) {
	mem := convCheckedMem(t)
	fb := array.NewFloat32Builder(mem)
	defer fb.Release()
	fb.AppendValues([]float32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	data := fb.NewFloat32Array()
	defer data.Release()
	sliced := array.NewSlice(data, 2, 8) // 2..7
	defer sliced.Release()

	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, []int{1, 0}, []string{"r", "c"})
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()

	rowMajor := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, nil, nil)
	defer rowMajor.Release()
	colMajor := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{4, 8}, nil) // element (i,j) = 2+i+2j
	defer colMajor.Release()
	strided := tensor.NewFloat32(data.Data(), []int64{2, 3}, []int64{4, 8}, nil)
	defer strided.Release()
	logical := tensor.NewFloat32(sliced.Data(), []int64{3, 2}, nil, nil) // logical [3,2] -> physical [2,3]
	defer logical.Release()

	for _, src := range []tensor.Interface{rowMajor, colMajor, strided} {
		if err := AppendArrowTensor(b, src); err != nil {
			t.Fatal(err)
		}
	}
	if err := AppendLogicalArrowTensor(b, logical); err != nil {
		t.Fatal(err)
	}
	b.AppendNull()
	// Errors append nothing.
	wrongShape := tensor.NewFloat32(sliced.Data(), []int64{3, 2}, nil, nil)
	defer wrongShape.Release()
	if err := AppendArrowTensor(b, wrongShape); err == nil || err.Error() != "tensorext: tensor shape [3,2] does not match the physical shape [2,3]" {
		t.Errorf("shape: %v", err)
	}
	if err := AppendLogicalArrowTensor(b, rowMajor); err == nil || err.Error() != "tensorext: tensor shape [2,3] does not match the logical shape [3,2]" {
		t.Errorf("logical shape: %v", err)
	}
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{1, 2, 3, 4, 5, 6}, nil)
	ints := ib.NewInt32Array()
	ib.Release()
	defer ints.Release()
	it := tensor.NewInt32(ints.Data(), []int64{2, 3}, nil, nil)
	defer it.Release()
	if err := AppendArrowTensor(b, it); err == nil || err.Error() != "tensorext: cannot append a tensor of int32 to a tensor column of float32" {
		t.Errorf("type: %v", err)
	}
	tooLong := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{16, 4}, nil)
	defer tooLong.Release()
	if err := AppendArrowTensor(b, tooLong); err == nil || !strings.Contains(err.Error(), "view reads positions [0, 6] of a values array of length 6") {
		t.Errorf("extent: %v", err)
	}
	odd := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{12, 2}, nil)
	defer odd.Release()
	if err := AppendArrowTensor(b, odd); err == nil || !strings.Contains(err.Error(), "stride 2 is not a non-negative multiple of the 4-byte element size") {
		t.Errorf("odd stride: %v", err)
	}

	// Nulls in an arrow tensor's data are kept.
	nb := array.NewFloat32Builder(mem)
	nb.AppendValues([]float32{1, 2, 3, 4, 5, 6}, []bool{true, true, false, true, true, true})
	withNull := nb.NewFloat32Array()
	nb.Release()
	defer withNull.Release()
	nt := tensor.NewFloat32(withNull.Data(), []int64{2, 3}, []int64{4, 8}, nil) // column-major
	defer nt.Release()
	if err := AppendArrowTensor(b, nt); err != nil {
		t.Fatal(err)
	}

	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	if got := arr.ValueStr(5); got != "[[1 (null) 5] [2 4 6]]" {
		t.Errorf("row with a null = %s", got)
	}
	if arr.Len() != 6 || !arr.IsNull(4) {
		t.Fatalf("len %d", arr.Len())
	}
	want := [][]float32{
		{2, 3, 4, 5, 6, 7}, // row-major as is
		{2, 4, 6, 3, 5, 7}, // column-major read in row-major index order
		{0, 2, 4, 1, 3, 5}, // strided over the unsliced data
		{2, 4, 6, 3, 5, 7}, // logical [[2 3] [4 5] [6 7]] transposed to physical
	}
	for r, w := range want {
		tt := convTensor(t, arr, r)
		vals := tt.Values.(*array.Float32).Float32Values()[tt.Offset : tt.Offset+6]
		if !reflect.DeepEqual(vals, w) {
			t.Errorf("row %d = %v, want %v", r, vals, w)
		}
	}
	// The logical row reads back as the source tensor.
	lt, err := ToArrowTensor(convTensor(t, arr, 3).Logical())
	if err != nil {
		t.Fatal(err)
	}
	defer lt.Release()
	for i := int64(0); i < 3; i++ {
		for j := int64(0); j < 2; j++ {
			if g, w := lt.(*tensor.Float32).Value([]int64{i, j}), logical.Value([]int64{i, j}); g != w {
				t.Errorf("logical (%d,%d) = %v, want %v", i, j, g, w)
			}
		}
	}
}

// Round trip of every permutation: ToArrowTensor(row.Logical()) appended
// with AppendLogicalArrowTensor, ToArrowTensor(row) with AppendArrowTensor.
func TestConvertArrowTensorRoundTrip(t *testing.T) {
	mem := convCheckedMem(t)
	for _, perm := range convPerms3 {
		for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64} {
			arr := convBuildFixed(t, mem, dt, []int{2, 3, 4}, perm, nil, 2, -1, 0)
			typ := arr.TensorType()
			b := NewFixedShapeTensorBuilder(mem, typ)
			for r := 0; r < 2; r++ {
				tt := convTensor(t, arr, r)
				lt, err := ToArrowTensor(tt.Logical())
				if err != nil {
					t.Fatal(err)
				}
				if err := AppendLogicalArrowTensor(b, lt); err != nil {
					t.Fatal(err)
				}
				lt.Release()
				pt, err := ToArrowTensor(tt)
				if err != nil {
					t.Fatal(err)
				}
				if err := AppendArrowTensor(b, pt); err != nil {
					t.Fatal(err)
				}
				pt.Release()
			}
			got := b.NewFixedShapeTensorArray()
			for r := 0; r < 4; r++ {
				if g, w := got.ValueStr(r), arr.ValueStr(r/2); g != w {
					t.Errorf("perm %v %s row %d: %s, want %s", perm, dt, r, g, w)
				}
			}
			got.Release()
			b.Release()
			arr.Release()
		}
	}
}

func TestConvertAppendArrowTensorVariable(t *testing.T) {
	mem := convCheckedMem(t)
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{10, 11, 12, 13, 14, 15}, nil)
	ints := ib.NewInt32Array()
	ib.Release()
	defer ints.Release()

	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int32, 2, []int{1, 0}, nil, []int{VaryingDim, 3})
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	a := tensor.NewInt32(ints.Data(), []int64{2, 3}, []int64{4, 8}, nil) // column-major
	defer a.Release()
	c := tensor.NewInt32(ints.Data(), []int64{1, 3}, nil, nil)
	defer c.Release()
	l := tensor.NewInt32(ints.Data(), []int64{3, 2}, nil, nil) // logical [3,2] -> physical [2,3]
	defer l.Release()
	for _, src := range []tensor.Interface{a, c} {
		if err := AppendArrowTensorVariable(b, src); err != nil {
			t.Fatal(err)
		}
	}
	if err := AppendLogicalArrowTensorVariable(b, l); err != nil {
		t.Fatal(err)
	}
	if err := AppendArrowTensorVariable(b, l); err == nil || err.Error() != "tensorext: physical shape [3,2] does not match uniform_shape in dimension 1" {
		t.Errorf("uniform: %v", err)
	}
	v1 := tensor.NewInt32(ints.Data(), []int64{6}, nil, nil)
	defer v1.Release()
	if err := AppendArrowTensorVariable(b, v1); err == nil || err.Error() != "tensorext: tensor shape [6] must have 2 dimensions" {
		t.Errorf("ndim: %v", err)
	}
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()
	if err := arr.ValidateFull(); err != nil {
		t.Fatal(err)
	}
	if arr.Len() != 3 {
		t.Fatalf("len %d", arr.Len())
	}
	want := []struct {
		shape []int
		vals  []int32
	}{
		{[]int{2, 3}, []int32{10, 12, 14, 11, 13, 15}},
		{[]int{1, 3}, []int32{10, 11, 12}},
		{[]int{2, 3}, []int32{10, 12, 14, 11, 13, 15}},
	}
	for r, w := range want {
		tt := convTensor(t, arr, r)
		vals := tt.Values.(*array.Int32).Int32Values()[tt.Offset : tt.Offset+tt.Len()]
		if !reflect.DeepEqual(tt.Shape, w.shape) || !reflect.DeepEqual(vals, w.vals) {
			t.Errorf("row %d: shape %v values %v, want %v %v", r, tt.Shape, vals, w.shape, w.vals)
		}
	}
	// Row 2's logical view is l.
	if got := convTensor(t, arr, 2).Logical().String(); got != "[[10 11] [12 13] [14 15]]" {
		t.Errorf("logical row 2 = %s", got)
	}
}

// ---------------------------------------------------------------------------
// FromStrided

// convReadLogical checks that arr's row 0 reads back, through its logical view,
// as the strided input tensor, element by element.
func convReadLogical[T Element](t *testing.T, arr *FixedShapeTensorArray, values []T, shape, strides []int) {
	t.Helper()
	lv := convTensor(t, arr, 0).Logical()
	if !reflect.DeepEqual(lv.Shape, shape) {
		t.Fatalf("logical shape %v, want %v", lv.Shape, shape)
	}
	n, _ := product(shape)
	for k := 0; k < n; k++ {
		idx := unravel(k, shape)
		src := 0
		for i, x := range idx {
			src += x * strides[i]
		}
		pos, ok := lv.Pos(idx...)
		if !ok {
			t.Fatalf("Pos%v failed", idx)
		}
		if got, want := lv.ValueStr(pos), fmt.Sprint(values[src]); got != want {
			t.Fatalf("logical %v = %s, want %s", idx, got, want)
		}
	}
}

func TestFromStrided3Cycle(t *testing.T) {
	// B: C-contiguous [2,3,4] (strides [12,4,1]), values 0..23, dims N,H,W.
	// X = numpy.transpose(B, (2,0,1)): shape [4,2,3], strides [1,12,4], dims W,N,H.
	buf := make([]float32, 24)
	for i := range buf {
		buf[i] = float32(i)
	}
	shape, strides, names := []int{4, 2, 3}, []int{1, 12, 4}, []string{"W", "N", "H"}
	r, err := FromStrided(buf, shape, strides, names)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Shape, []int{2, 3, 4}) || !reflect.DeepEqual(r.Permutation, []int{2, 0, 1}) ||
		!reflect.DeepEqual(r.DimNames, []string{"N", "H", "W"}) || !reflect.DeepEqual(r.Values, buf) {
		t.Fatalf("got shape %v permutation %v names %v values %v", r.Shape, r.Permutation, r.DimNames, r.Values)
	}
	mem := convCheckedMem(t)
	arr, err := NewFixedShapeTensorFromStrided(mem, buf, shape, strides, names)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if s := arr.TensorType().Serialize(); s != `{"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["N","H","W"]}` {
		t.Errorf("metadata %s", s)
	}
	convReadLogical(t, arr, buf, shape, strides)
	if got := arr.TensorType().LogicalDimNames(); !reflect.DeepEqual(got, names) {
		t.Errorf("logical names %v", got)
	}
	// Arrow C++'s from_numpy_ndarray would store [1,2,0] (argsort of the
	// strides), whose logical view has the wrong shape.
	cpp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3, 4}, []int{1, 2, 0}, nil)
	if got := cpp.LogicalShape(); reflect.DeepEqual(got, shape) {
		t.Errorf("the inverse permutation should not reproduce X, got %v", got)
	}
}

func TestFromStridedEveryPermutation(t *testing.T) {
	base := make([]int32, 24)
	for i := range base {
		base[i] = int32(100 + i)
	}
	bshape, bstrides := []int{2, 3, 4}, []int{12, 4, 1}
	mem := convCheckedMem(t)
	for _, perm := range convPerms3 {
		// X = numpy.transpose(B, perm)
		shape := []int{bshape[perm[0]], bshape[perm[1]], bshape[perm[2]]}
		strides := []int{bstrides[perm[0]], bstrides[perm[1]], bstrides[perm[2]]}
		r, err := FromStrided(base, shape, strides, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantPerm := perm
		if isIdentity(perm) {
			wantPerm = nil
		}
		if !reflect.DeepEqual(r.Permutation, wantPerm) || !reflect.DeepEqual(r.Shape, bshape) || !reflect.DeepEqual(r.Values, base) {
			t.Errorf("perm %v: got shape %v permutation %v", perm, r.Shape, r.Permutation)
		}
		arr, err := NewFixedShapeTensorFromStrided(mem, base, shape, strides, nil)
		if err != nil {
			t.Fatal(err)
		}
		convReadLogical(t, arr, base, shape, strides)
		// And the logical copy equals the reference transpose of B.
		out, err := CopyContiguous(mem, convTensor(t, arr, 0).Logical())
		if err != nil {
			t.Fatal(err)
		}
		for m, p := range convRefTranspose(bshape, perm) {
			if got := out.(*array.Int32).Value(m); got != base[p] {
				t.Fatalf("perm %v: element %d = %d, want %d", perm, m, got, base[p])
			}
		}
		out.Release()
		arr.Release()
	}
}

func TestFromStridedLayouts(t *testing.T) {
	seq8 := func(n int) []uint8 {
		v := make([]uint8, n)
		for i := range v {
			v[i] = uint8(i)
		}
		return v
	}
	cases := []struct {
		name             string
		shape, strides   []int
		n                int
		wantShape        []int
		wantPerm         []int
		wantValues       []uint8
		wantErr          string
		dimNames         []string
		wantPhysDimNames []string
	}{
		{name: "column-major", shape: []int{2, 3}, strides: []int{1, 2}, n: 6,
			wantShape: []int{3, 2}, wantPerm: []int{1, 0}, wantValues: []uint8{0, 1, 2, 3, 4, 5},
			dimNames: []string{"r", "c"}, wantPhysDimNames: []string{"c", "r"}},
		{name: "C order", shape: []int{2, 3}, strides: []int{3, 1}, n: 6,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 1, 2, 3, 4, 5}},
		{name: "every other column", shape: []int{2, 3}, strides: []int{12, 2}, n: 24,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 2, 4, 12, 14, 16}},
		{name: "size-1 dims keep their place", shape: []int{2, 1, 3, 1}, strides: []int{3, 77, 1, 0}, n: 6,
			wantShape: []int{2, 1, 3, 1}, wantValues: []uint8{0, 1, 2, 3, 4, 5}},
		{name: "column-major with size-1", shape: []int{3, 1, 4}, strides: []int{1, 99, 3}, n: 12,
			wantShape: []int{4, 3, 1}, wantPerm: []int{1, 2, 0}, wantValues: []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{name: "broadcast", shape: []int{2, 3}, strides: []int{0, 1}, n: 3,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 1, 2, 0, 1, 2}},
		{name: "0-D", shape: []int{}, strides: []int{}, n: 1, wantShape: []int{}, wantValues: []uint8{0}},
		{name: "empty", shape: []int{0, 3}, strides: []int{3, 1}, n: 0, wantShape: []int{0, 3}, wantValues: []uint8{}},
		{name: "negative stride", shape: []int{3}, strides: []int{-1}, n: 3,
			wantErr: "tensorext: stride -1 of dimension 0 is negative"},
		{name: "out of range", shape: []int{2, 3}, strides: []int{3, 1}, n: 5,
			wantErr: "tensorext: shape [2,3] with strides [3,1] reads position 5 of 5 values"},
		{name: "lengths", shape: []int{2, 3}, strides: []int{3}, n: 6, wantErr: "tensorext: 1 strides for 2 dimensions"},
		{name: "names", shape: []int{2, 3}, strides: []int{3, 1}, n: 6, dimNames: []string{"x"},
			wantErr: "tensorext: dim_names size must match shape size. Expected: 2 Got: 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vals := seq8(c.n)
			r, err := FromStrided(vals, c.shape, c.strides, c.dimNames)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Shape, c.wantShape) || !reflect.DeepEqual(r.Permutation, c.wantPerm) ||
				!reflect.DeepEqual(r.Values, c.wantValues) || !reflect.DeepEqual(r.DimNames, c.wantPhysDimNames) {
				t.Fatalf("got shape %v perm %v values %v names %v", r.Shape, r.Permutation, r.Values, r.DimNames)
			}
			if c.n == 0 {
				if _, err := NewFixedShapeTensorFromStrided(nil, vals, c.shape, c.strides, c.dimNames); err == nil {
					t.Error("array of a tensor with no elements accepted")
				}
				return
			}
			arr, err := NewFixedShapeTensorFromStrided(nil, vals, c.shape, c.strides, c.dimNames)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			convReadLogical(t, arr, vals, c.shape, c.strides)
		})
	}
}

func TestFromStridedValueTypes(t *testing.T) {
	// Column-major [2,3] of several element types.
	shape, strides := []int{2, 3}, []int{1, 2}
	check := func(name string, arr *FixedShapeTensorArray, err error, dt arrow.DataType, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer arr.Release()
		if !arrow.TypeEqual(arr.TensorType().ValueType(), dt) {
			t.Errorf("%s: value type %s", name, arr.TensorType().ValueType())
		}
		if got := convTensor(t, arr, 0).Logical().String(); got != want {
			t.Errorf("%s: logical %s, want %s", name, got, want)
		}
		if got := arr.TensorType().Permutation(); !reflect.DeepEqual(got, []int{1, 0}) {
			t.Errorf("%s: permutation %v", name, got)
		}
	}
	bools := []bool{true, false, false, true, true, false}
	a, err := NewFixedShapeTensorFromStrided(nil, bools, shape, strides, nil)
	check("bool", a, err, arrow.FixedWidthTypes.Boolean, "[[true false true] [false true false]]")
	h := make([]float16.Num, 6)
	for i := range h {
		h[i] = float16.New(float32(i) + 0.5)
	}
	a, err = NewFixedShapeTensorFromStrided(nil, h, shape, strides, nil)
	check("float16", a, err, arrow.FixedWidthTypes.Float16, "[[0.5 2.5 4.5] [1.5 3.5 5.5]]")
	f64 := []float64{-1, -2, -3, -4, -5, -6}
	a, err = NewFixedShapeTensorFromStrided(nil, f64, shape, strides, nil)
	check("float64", a, err, arrow.PrimitiveTypes.Float64, "[[-1 -3 -5] [-2 -4 -6]]")
	i8 := []int8{1, 2, 3, 4, 5, 6}
	a, err = NewFixedShapeTensorFromStrided(nil, i8, shape, strides, nil)
	check("int8", a, err, arrow.PrimitiveTypes.Int8, "[[1 3 5] [2 4 6]]")
}

// ---------------------------------------------------------------------------
// Fixed <-> variable

func TestFixedToVariableRoundTrip(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Float16,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := convCheckedMem(t)
			arr := convBuildFixed(t, mem, dt, []int{2, 3}, []int{1, 0}, []string{"H", "W"}, 5, 2, 4)
			defer arr.Release()
			sl := array.NewSlice(arr, 1, 5).(*FixedShapeTensorArray) // rows 1, null, 3, 4
			defer sl.Release()
			v, err := FixedToVariable(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Release()
			vt := v.TensorType()
			if vt.NDim() != 2 || !reflect.DeepEqual(vt.Permutation(), []int{1, 0}) || !reflect.DeepEqual(vt.DimNames(), []string{"H", "W"}) ||
				!reflect.DeepEqual(vt.UniformShape(), []int{2, 3}) || !arrow.TypeEqual(vt.ValueType(), dt) {
				t.Errorf("type %s", vt)
			}
			if s := vt.Serialize(); s != `{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[2,3]}` {
				t.Errorf("metadata %s", s)
			}
			if err := v.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			if v.Len() != 4 || v.NullN() != 1 || !v.IsNull(1) {
				t.Fatalf("len %d nulls %d", v.Len(), v.NullN())
			}
			for r := 0; r < 4; r++ {
				if g, w := v.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("row %d: %s, want %s", r, g, w)
				}
				if r != 1 {
					vv, fv := convTensor(t, v, r), convTensor(t, sl, r)
					if !reflect.DeepEqual(vv.Shape, []int{2, 3}) || vv.Logical().String() != fv.Logical().String() {
						t.Errorf("row %d: shape %v logical %s", r, vv.Shape, vv.Logical())
					}
				}
			}
			// The values are shared.
			st := v.Storage().(*array.Struct).Field(0).(*array.List)
			if st.ListValues().Data().Buffers()[1] != sl.Storage().(*array.FixedSizeList).ListValues().Data().Buffers()[1] {
				t.Error("values copied")
			}

			back, err := VariableToFixed(mem, v)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Release()
			if !back.TensorType().ExtensionEquals(sl.TensorType()) {
				t.Errorf("type %s, want %s", back.DataType(), sl.DataType())
			}
			if back.Len() != 4 || !back.IsNull(1) || back.NullN() != 1 {
				t.Fatalf("len %d", back.Len())
			}
			for r := 0; r < 4; r++ {
				if g, w := back.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("back row %d: %s, want %s", r, g, w)
				}
			}
			if err := back.ValidateFull(); err != nil {
				t.Error(err)
			}
			// Back to back rows: shared again.
			if back.Storage().(*array.FixedSizeList).ListValues().Data().Buffers()[1] != st.ListValues().Data().Buffers()[1] {
				t.Error("values copied on the way back")
			}
		})
	}
}

// VariableToFixed copies when rows are not back to back (the builder gives
// null rows empty lists).
func TestVariableToFixedCopy(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int32, 2, []int{1, 0}, []string{"a", "b"}, nil)
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	_ = b.AppendTensor([]int{1, 2}, []int32{-1, -2})
	_ = b.AppendTensor([]int{2, 2}, []int32{1, 2, 3, 4})
	b.AppendNull()
	_ = b.AppendTensor([]int{2, 2}, []int32{5, 6, 7, 8})
	_ = b.AppendTensor([]int{2, 3}, []int32{0, 0, 0, 0, 0, 0})
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()

	if _, err := VariableToFixed(mem, arr); err == nil || err.Error() != "tensorext: row 1 has shape [2,2], unlike row 0's shape [1,2]; a fixed shape tensor needs one shape" {
		t.Errorf("mismatch: %v", err)
	}
	sl := array.NewSlice(arr, 1, 5).(*VariableShapeTensorArray)
	defer sl.Release()
	if _, err := VariableToFixed(mem, sl); err == nil || err.Error() != "tensorext: row 3 has shape [2,3], unlike row 0's shape [2,2]; a fixed shape tensor needs one shape" {
		t.Errorf("mismatch in slice: %v", err)
	}
	sl3 := array.NewSlice(arr, 1, 4).(*VariableShapeTensorArray)
	defer sl3.Release()
	f, err := VariableToFixed(mem, sl3)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	ft := f.TensorType()
	if !reflect.DeepEqual(ft.Shape(), []int{2, 2}) || !reflect.DeepEqual(ft.Permutation(), []int{1, 0}) || !reflect.DeepEqual(ft.DimNames(), []string{"a", "b"}) {
		t.Errorf("type %s", ft)
	}
	fsl := f.Storage().(*array.FixedSizeList)
	if got := fsl.ListValues().(*array.Int32).Int32Values(); !reflect.DeepEqual(got, []int32{1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8}) {
		t.Errorf("values %v", got)
	}
	if f.NullN() != 1 || !f.IsNull(1) || f.ValueStr(2) != "[[5 6] [7 8]]" {
		t.Errorf("rows %s", f)
	}
	if err := f.ValidateFull(); err != nil {
		t.Error(err)
	}
}

// The copy path of VariableToFixed for several value types, with null
// elements and a null row (whose slots are filled).
func TestVariableToFixedCopyTypes(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.FixedWidthTypes.Boolean, arrow.FixedWidthTypes.Float16,
		&arrow.FixedSizeBinaryType{ByteWidth: 5}, &arrow.Decimal128Type{Precision: 20, Scale: 2}, arrow.BinaryTypes.String} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := convCheckedMem(t)
			vtyp, err := NewVariableShapeTensorType(dt, 2, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			sb := array.NewStructBuilder(mem, vtyp.StorageType().(*arrow.StructType))
			defer sb.Release()
			data := sb.FieldBuilder(0).(*array.ListBuilder)
			shape := sb.FieldBuilder(1).(*array.FixedSizeListBuilder)
			k := 0
			for r := 0; r < 4; r++ {
				if r == 2 {
					sb.AppendNull()
					continue
				}
				sb.Append(true)
				data.Append(true)
				for e := 0; e < 6; e++ {
					if k%4 == 1 {
						data.ValueBuilder().AppendNull()
					} else {
						convAppendElem(data.ValueBuilder(), k)
					}
					k++
				}
				shape.Append(true)
				shape.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{3, 2}, nil)
			}
			storage := sb.NewArray()
			defer storage.Release()
			varr := array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray)
			defer varr.Release()
			sl := array.NewSlice(varr, 1, 4).(*VariableShapeTensorArray)
			defer sl.Release()
			f, err := VariableToFixed(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Release()
			if err := f.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.TensorType().Shape(), []int{3, 2}) || f.Len() != 3 || !f.IsNull(1) {
				t.Fatalf("got %s len %d", f.DataType(), f.Len())
			}
			for r := 0; r < 3; r++ {
				if g, w := f.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("row %d: %s, want %s", r, g, w)
				}
			}
			vals := f.Storage().(*array.FixedSizeList).ListValues()
			if vals.Len() != 18 {
				t.Fatalf("values length %d", vals.Len())
			}
			// Element nulls survive: the slice's first row holds elements
			// k = 6..11, null when k%4 == 1 (k = 9, its element 3).
			for e := 0; e < 6; e++ {
				if got, want := vals.IsNull(e), (6+e)%4 == 1; got != want {
					t.Errorf("element %d null = %v, want %v", e, got, want)
				}
			}
		})
	}
}

func TestVariableToFixedShapeFromUniform(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, []int{2, 2})
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	b.AppendNull()
	b.AppendNull()
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()
	f, err := VariableToFixed(mem, arr)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.TensorType().Shape(), []int{2, 2}) || f.NullN() != 2 || f.Storage().(*array.FixedSizeList).ListValues().Len() != 8 {
		t.Errorf("got %s", f.DataType())
	}
	f.Release()
	empty := array.NewSlice(arr, 0, 0).(*VariableShapeTensorArray)
	defer empty.Release()
	f, err = VariableToFixed(mem, empty)
	if err != nil || f.Len() != 0 {
		t.Fatalf("empty: %v", err)
	}
	f.Release()

	typ2, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, []int{2, VaryingDim})
	b2 := NewVariableShapeTensorBuilder(mem, typ2)
	defer b2.Release()
	b2.AppendNull()
	arr2 := b2.NewVariableShapeTensorArray()
	defer arr2.Release()
	if _, err := VariableToFixed(mem, arr2); err == nil || !strings.Contains(err.Error(), "cannot infer the shape") {
		t.Errorf("all null, varying: %v", err)
	}
}

func TestFixedToVariableErrors(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int8, []int{}, nil, nil)
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()
	_ = b.AppendTensor([]int8{3})
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	if _, err := FixedToVariable(mem, arr); err == nil || !strings.Contains(err.Error(), "0-D") {
		t.Errorf("0-D: %v", err)
	}
	// A row that is broken in the variable array is reported with its index.
	vtyp, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int16, 1, nil, nil, nil)
	sb := array.NewStructBuilder(mem, vtyp.StorageType().(*arrow.StructType))
	defer sb.Release()
	data := sb.FieldBuilder(0).(*array.ListBuilder)
	shape := sb.FieldBuilder(1).(*array.FixedSizeListBuilder)
	sb.Append(true)
	data.Append(true)
	data.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{1, 2}, nil)
	shape.Append(true)
	shape.ValueBuilder().(*array.Int32Builder).Append(3)
	storage := sb.NewArray()
	defer storage.Release()
	varr := array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray)
	defer varr.Release()
	if _, err := VariableToFixed(mem, varr); err == nil || err.Error() != "row 0: Expected data array of length 3, got 2" {
		t.Errorf("broken row: %v", err)
	}
}

// ---------------------------------------------------------------------------
// Benchmarks

func convImageRow(b *testing.B) Tensor {
	typ, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{224, 224, 3}, []int{2, 0, 1}, []string{"H", "W", "C"})
	if err != nil {
		b.Fatal(err)
	}
	bld := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer bld.Release()
	vals := make([]uint8, 224*224*3)
	for i := range vals {
		vals[i] = uint8(i * 7)
	}
	if err := bld.AppendTensor(vals); err != nil {
		b.Fatal(err)
	}
	arr := bld.NewFixedShapeTensorArray()
	tt, err := arr.Tensor(0)
	if err != nil {
		b.Fatal(err)
	}
	return tt
}

// BenchmarkCopyContiguous224x224x3 copies an HWC uint8 image row stored with
// permutation [2,0,1] into its logical CHW order, allocating the output with
// memory.DefaultAllocator (Go's allocator; its garbage collection dominates).
func BenchmarkCopyContiguous224x224x3(b *testing.B) {
	convBenchCopy(b, convImageRow(b).Logical(), memory.DefaultAllocator)
}

// convReuseAllocator hands the last freed buffer out again, so that a benchmark
// measures the copy rather than Go's allocator and garbage collector.
type convReuseAllocator struct{ free []byte }

func (a *convReuseAllocator) Allocate(n int) []byte {
	if cap(a.free) >= n {
		b := a.free[:n]
		a.free = nil
		return b
	}
	return make([]byte, n)
}

func (a *convReuseAllocator) Reallocate(n int, b []byte) []byte {
	if cap(b) >= n {
		return b[:n]
	}
	nb := a.Allocate(n)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *convReuseAllocator) Free(b []byte) {
	if cap(b) > cap(a.free) {
		a.free = b[:0]
	}
}

func convBenchCopy(b *testing.B, tt Tensor, mem memory.Allocator) {
	b.SetBytes(int64(tt.Len()))
	b.ReportAllocs()
	for b.Loop() {
		out, err := CopyContiguous(mem, tt)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

// BenchmarkCopyContiguous224x224x3Reuse is BenchmarkCopyContiguous224x224x3
// with an allocator that recycles the output buffer: the cost of the
// strided copy itself.
func BenchmarkCopyContiguous224x224x3Reuse(b *testing.B) {
	convBenchCopy(b, convImageRow(b).Logical(), &convReuseAllocator{})
}

// BenchmarkCopyContiguousPhysical224x224x3 is the same row copied in its
// stored order (one plain copy), with a recycling allocator.
func BenchmarkCopyContiguousPhysical224x224x3(b *testing.B) {
	convBenchCopy(b, convImageRow(b), &convReuseAllocator{})
}

// BenchmarkCopyContiguousHWC224x224x3 copies a CHW-stored uint8 row
// (physical [3,224,224], permutation [1,2,0]) into its logical HWC order,
// with a recycling allocator.
func BenchmarkCopyContiguousHWC224x224x3(b *testing.B) {
	vals := make([]uint8, 3*224*224)
	v := array.NewUint8Builder(memory.DefaultAllocator)
	v.AppendValues(vals, nil)
	arr := v.NewArray()
	tt := Tensor{Values: arr, Shape: []int{3, 224, 224}, Strides: rowMajorStrides([]int{3, 224, 224}), Permutation: []int{1, 2, 0}}
	convBenchCopy(b, tt.Logical(), &convReuseAllocator{})
}

// BenchmarkPlainCopy224x224x3 is Go's copy of the same 150528 bytes into a
// preallocated slice: the physical limit.
func BenchmarkPlainCopy224x224x3(b *testing.B) {
	src := make([]byte, 224*224*3)
	dst := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		copy(dst, src)
	}
}
