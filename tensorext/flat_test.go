package tensorext

// Tests of flat.go.

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

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
