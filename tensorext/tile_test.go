package tensorext

// Tests of the blocked gather (tile.go, the kernels of shuffle_amd64.go and
// their portable loops) through CopyContiguous, against a naive
// element-by-element walk.

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// tileValues returns an array of n elements of dt whose bytes differ from
// element to element (a multiplicative hash of the position), null at every
// position that nullAt says.
func tileValues(mem memory.Allocator, dt arrow.DataType, n int, nullAt func(int) bool) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for k := 0; k < n; k++ {
		h := uint64(k+1) * 0x9E3779B97F4A7C15
		if nullAt(k) {
			b.AppendNull()
			continue
		}
		switch b := b.(type) {
		case *array.Uint8Builder:
			b.Append(uint8(h >> 56))
		case *array.Int16Builder:
			b.Append(int16(k))
		case *array.Float32Builder:
			b.Append(float32(k) + 0.25)
		case *array.Int64Builder:
			b.Append(int64(h))
		case *array.Decimal128Builder:
			b.Append(decimal128.New(int64(k), h))
		case *array.FixedSizeBinaryBuilder:
			b.Append([]byte{byte(k), byte(k >> 8), byte(h >> 56)})
		case *array.BooleanBuilder:
			b.Append(h>>63 == 1)
		default:
			panic(fmt.Sprintf("tileValues: %T", b))
		}
	}
	return b.NewArray()
}

// tileElem returns element i of a as a comparable key: "null", or its raw
// bytes (its bit for booleans).
func tileElem(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	if b, ok := a.(*array.Boolean); ok {
		return fmt.Sprint(b.Value(i))
	}
	w := a.DataType().(arrow.FixedWidthDataType).BitWidth() / 8
	d := a.Data()
	return string(d.Buffers()[1].Bytes()[(d.Offset()+i)*w : (d.Offset()+i+1)*w])
}

// checkCopy compares CopyContiguous(t) with the elements of t in row-major
// order (Tensor.Positions), values and nulls.
func checkCopy(t *testing.T, mem memory.Allocator, tt Tensor) {
	t.Helper()
	out, err := CopyContiguous(mem, tt)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	if out.Len() != tt.Len() {
		t.Fatalf("%s shape %v strides %v: %d elements, want %d", tt.ValueType(), tt.Shape, tt.Strides, out.Len(), tt.Len())
	}
	i, nulls := 0, 0
	tt.Positions(func(pos int) bool {
		want := tileElem(tt.Values, pos)
		if want == "null" {
			nulls++
		}
		if got := tileElem(out, i); got != want {
			t.Fatalf("%s shape %v strides %v offset %d: element %d = %q, want %q (position %d)",
				tt.ValueType(), tt.Shape, tt.Strides, tt.Offset, i, got, want, pos)
		}
		i++
		return true
	})
	if out.NullN() != nulls {
		t.Fatalf("%s shape %v strides %v: NullN %d, want %d", tt.ValueType(), tt.Shape, tt.Strides, out.NullN(), nulls)
	}
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for at := 0; at <= len(p); at++ {
			q := append(append(append([]int{}, p[:at]...), n-1), p[at:]...)
			out = append(out, q)
		}
	}
	return out
}

// tileCases lists physical shapes, each copied in every permutation of its
// logical view: packed channels around the kernels' step sizes (32 bytes of
// each channel), transposes around the tile sizes, 3- to 5-D permutations
// whose most contiguous dimension lands anywhere, and zero-sized dims.
func tileCases() [][]int {
	var shapes [][]int
	for _, c := range []int{2, 3, 4, 5} {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 97, 129, 1000} {
			shapes = append(shapes, []int{n, c})
		}
	}
	for _, n := range []int{0, 1, 7, 8, 9, 63, 64, 65, 130} {
		shapes = append(shapes, []int{n, 9}, []int{70, n})
	}
	shapes = append(shapes,
		[]int{37, 41, 3}, []int{5, 70, 9}, []int{9, 8, 4}, []int{2, 66, 65}, []int{0, 4, 3}, []int{4, 0, 3},
		[]int{3, 5, 66, 7}, []int{2, 9, 4, 70}, []int{8, 3, 1, 33}, []int{3, 0, 5, 2},
		[]int{2, 3, 4, 5, 6}, []int{1, 7, 2, 65, 3},
	)
	return shapes
}

func TestCopyContiguousBlocked(t *testing.T) {
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int64,
		&arrow.Decimal128Type{Precision: 38, Scale: 0}, &arrow.FixedSizeBinaryType{ByteWidth: 3}, arrow.FixedWidthTypes.Boolean,
	}
	const maxLen = 40000
	modes := []bool{false}
	if useAVX2 {
		modes = append(modes, true)
	}
	for _, avx := range modes {
		for _, dt := range types {
			for _, nulls := range []bool{false, true} {
				t.Run(fmt.Sprintf("avx2=%v/%s/nulls=%v", avx, dt, nulls), func(t *testing.T) {
					saved := useAVX2
					useAVX2 = avx
					defer func() { useAVX2 = saved }()
					mem := convCheckedMem(t)
					vals := tileValues(mem, dt, maxLen, func(k int) bool { return nulls && (k%7 == 3 || k%61 == 0) })
					defer vals.Release()
					for _, shape := range tileCases() {
						for _, perm := range permutations(len(shape)) {
							n, _ := product(shape)
							for _, off := range []int{0, 13} {
								if n+off > maxLen {
									continue
								}
								tt := Tensor{Values: vals, Offset: off, Shape: shape, Strides: rowMajorStrides(shape), Permutation: perm}
								checkCopy(t, mem, tt.Logical())
							}
						}
					}
					// Views that are not permutations: channels with gaps
					// between them (streams apart, or a pixel wider than its
					// channels), negative strides, broadcasts.
					for _, v := range []struct{ shape, strides []int }{
						{[]int{100, 3}, []int{1, 150}},
						{[]int{67, 4}, []int{1, -70}},
						{[]int{3, 100}, []int{1, 4}},
						{[]int{100, 3}, []int{-3, 1}},
						{[]int{3, 100}, []int{-1, -3}},
						{[]int{80, 3}, []int{0, 1}},
						{[]int{3, 80}, []int{1, 0}},
						{[]int{5, 4, 70}, []int{1, 0, 5}},
						{[]int{6, 5, 4, 33}, []int{-1, 1000, 6, 30}},
					} {
						tt := Tensor{Values: vals, Shape: v.shape, Strides: v.strides, Offset: 0}
						lo := 0
						for k, d := range v.shape {
							if e := (d - 1) * v.strides[k]; e < 0 {
								lo -= e
							}
						}
						for _, off := range []int{lo, lo + 5} {
							tt.Offset = off
							checkCopy(t, mem, tt)
						}
					}
				})
			}
		}
	}
}

// A buffer at an odd address takes the byte path for every width, with its
// blocks: the permutations of a 3-D shape there match the naive walk too.
func TestCopyContiguousBlockedUnaligned(t *testing.T) {
	mem := convCheckedMem(t)
	const n = 5 * 7 * 9
	raw := make([]byte, 1+8*n)
	for i := range raw {
		raw[i] = byte(i * 37)
	}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64} {
		data := array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(raw[1:])}, nil, 0, 0)
		vals := array.MakeFromData(data)
		data.Release()
		for _, perm := range permutations(3) {
			shape := []int{5, 7, 9}
			checkCopy(t, mem, Tensor{Values: vals, Shape: shape, Strides: rowMajorStrides(shape), Permutation: perm}.Logical())
		}
		vals.Release()
	}
}

// gather (FromStrided's copy) takes the tiled path of gatherCrossed for a
// 4-D reversal and the kernels for packed channels; both match the naive
// walk with and without AVX2.
func TestGatherBlocked(t *testing.T) {
	modes := []bool{false}
	if useAVX2 {
		modes = append(modes, true)
	}
	for _, avx := range modes {
		saved := useAVX2
		useAVX2 = avx
		for _, c := range []struct{ shape, strides []int }{
			{[]int{11, 3, 5, 70}, []int{1, 11, 33, 165}}, // reversal of [70,5,3,11]
			{[]int{4, 9, 2, 33}, []int{1, 2376, 4, 72}},
			{[]int{3, 333}, []int{1, 3}},
			{[]int{333, 4}, []int{1, 333}},
		} {
			n, _ := product(c.shape)
			span := 1
			for k, d := range c.shape {
				span += (d - 1) * c.strides[k]
			}
			src := make([]uint16, span)
			for i := range src {
				src[i] = uint16(i)
			}
			got := make([]uint16, n)
			gather(got, src, 0, c.shape, c.strides)
			i := 0
			Tensor{Shape: c.shape, Strides: c.strides}.Positions(func(pos int) bool {
				if got[i] != src[pos] {
					t.Fatalf("avx2=%v shape %v strides %v: element %d = %d, want %d", avx, c.shape, c.strides, i, got[i], src[pos])
				}
				i++
				return true
			})
		}
		useAVX2 = saved
	}
}

// FuzzCopyContiguousView copies arbitrary strided views (up to 5 dimensions,
// sizes 0-69, strides -128..127, any offset) of a 7000-element array of one
// of the types of TestCopyContiguousBlocked, with or without AVX2: a view
// inside the array matches the naive walk, one outside fails with the range
// error.
func FuzzCopyContiguousView(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 2, 0, 0, 40, 3, 3, 1, 0},               // uint8 [40,3] strides [3,1]
		{0, 2, 0, 0, 3, 1, 40, 3, 1},               // its transpose, AVX2 on
		{2, 3, 0, 9, 7, 1, 9, 7, 11, 63, 0},        // float32 3-D
		{3, 4, 1, 0, 5, 1, 6, 5, 7, 30, 8, 210, 1}, // int64 4-D reversal-like
		{5, 2, 0, 200, 12, 0x81, 13, 12, 0},        // fsb(3) negative stride
		{6, 1, 0, 0, 65, 1, 1},                     // bool
	} {
		f.Add(seed)
	}
	types := []arrow.DataType{
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int64,
		&arrow.Decimal128Type{Precision: 38, Scale: 0}, &arrow.FixedSizeBinaryType{ByteWidth: 3}, arrow.FixedWidthTypes.Boolean,
	}
	const maxLen = 7000
	vals := make([]arrow.Array, len(types))
	for i, dt := range types {
		vals[i] = tileValues(memory.DefaultAllocator, dt, maxLen, func(k int) bool { return k%5 == 2 })
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		next := func() int {
			if len(b) == 0 {
				return 0
			}
			v := b[0]
			b = b[1:]
			return int(v)
		}
		tt := Tensor{Values: vals[next()%len(types)]}
		nd := next() % 6
		avx := next()%2 == 1
		tt.Offset = next()<<8 | next()
		tt.Offset %= maxLen
		for k := 0; k < nd; k++ {
			tt.Shape = append(tt.Shape, next()%70)
			tt.Strides = append(tt.Strides, int(int8(next())))
		}
		if n, ok := product(tt.Shape); !ok || n > 50000 {
			return
		}
		saved := useAVX2
		useAVX2 = avx && saved
		defer func() { useAVX2 = saved }()
		if _, _, _, err := checkView(tt); err != nil {
			if _, err2 := CopyContiguous(memory.DefaultAllocator, tt); err2 == nil {
				t.Fatalf("shape %v strides %v offset %d: no error", tt.Shape, tt.Strides, tt.Offset)
			}
			return
		}
		checkCopy(t, memory.DefaultAllocator, tt)
	})
}
