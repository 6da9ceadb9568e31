package tensorext

// Benchmarks of the conversions.

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

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

// BenchmarkCopyContiguous224x224x3Portable is
// BenchmarkCopyContiguous224x224x3Reuse with the portable loops only (no
// AVX2 kernels), as on other architectures and in WebAssembly.
func BenchmarkCopyContiguous224x224x3Portable(b *testing.B) {
	saved := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = saved }()
	convBenchCopy(b, convImageRow(b).Logical(), &convReuseAllocator{})
}

// convBenchView benchmarks CopyContiguous of the logical view of a row-major
// tensor of dt with the given physical shape and permutation, with a
// recycling allocator.
func convBenchView(b *testing.B, dt arrow.DataType, shape, perm []int) {
	n, _ := product(shape)
	w := dt.(arrow.FixedWidthDataType).BitWidth() / 8
	buf := make([]byte, n*w)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	data := array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(buf)}, nil, 0, 0)
	defer data.Release()
	vals := array.MakeFromData(data)
	defer vals.Release()
	tt := Tensor{Values: vals, Shape: shape, Strides: rowMajorStrides(shape), Permutation: perm}
	convBenchCopy(b, tt.Logical(), &convReuseAllocator{})
	b.SetBytes(int64(n * w))
}

// BenchmarkCopyContiguousNHWC8x224x224x3 copies a batch of 8 HWC uint8 images
// into NCHW order (physical [8,224,224,3], permutation [0,3,1,2]).
func BenchmarkCopyContiguousNHWC8x224x224x3(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Uint8, []int{8, 224, 224, 3}, []int{0, 3, 1, 2})
}

// BenchmarkCopyContiguousRGBA224x224x4 copies an HWC uint8 image of 4
// channels into CHW order.
func BenchmarkCopyContiguousRGBA224x224x4(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Uint8, []int{224, 224, 4}, []int{2, 0, 1})
}

// BenchmarkCopyContiguousFloat32HWC224x224x3 copies an HWC float32 image into
// CHW order.
func BenchmarkCopyContiguousFloat32HWC224x224x3(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Float32, []int{224, 224, 3}, []int{2, 0, 1})
}

// BenchmarkCopyContiguousTranspose1024x1024Float32 copies the transpose of a
// 1024×1024 float32 matrix (4 MiB).
func BenchmarkCopyContiguousTranspose1024x1024Float32(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Float32, []int{1024, 1024}, []int{1, 0})
}

// BenchmarkCopyContiguousTranspose1000x1000Uint8 copies the transpose of a
// 1000×1000 uint8 matrix.
func BenchmarkCopyContiguousTranspose1000x1000Uint8(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Uint8, []int{1000, 1000}, []int{1, 0})
}

// BenchmarkCopyContiguousReverse4D copies the reversed-axes view (permutation
// [3,2,1,0]) of a [24,24,24,24] float32 tensor (1.3 MB), the N-d tiled path.
func BenchmarkCopyContiguousReverse4D(b *testing.B) {
	convBenchView(b, arrow.PrimitiveTypes.Float32, []int{24, 24, 24, 24}, []int{3, 2, 1, 0})
}

// BenchmarkPlainCopy4MiB is Go's copy of 4 MiB (the size of the 1024×1024
// float32 transpose), a bound for copies that do not fit in L2.
func BenchmarkPlainCopy4MiB(b *testing.B) {
	src := make([]byte, 4<<20)
	dst := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		copy(dst, src)
	}
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
