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
