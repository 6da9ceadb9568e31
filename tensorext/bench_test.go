package tensorext

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func benchFixed(b *testing.B, rows int) *FixedShapeTensorArray {
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, []int{1, 0}, nil)
	bld := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer bld.Release()
	vals := []float32{1, 2, 3, 4}
	for i := 0; i < rows; i++ {
		_ = bld.AppendTensor(vals)
	}
	return bld.NewFixedShapeTensorArray()
}

// BenchmarkFixedTensor measures Tensor(i): a view, no allocation.
func BenchmarkFixedTensor(b *testing.B) {
	arr := benchFixed(b, 1024)
	defer arr.Release()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t, _ := arr.Tensor(i & 1023)
		i += t.NDim()
	}
}

// BenchmarkVariableTensorInto measures TensorInto(&t, i): a view, no
// allocation once t has room for the shape.
func BenchmarkVariableTensorInto(b *testing.B) {
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, nil)
	bld := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
	for i := 0; i < 1024; i++ {
		_ = bld.AppendTensor([]int{1, i % 7}, make([]float32, i%7))
	}
	arr := bld.NewVariableShapeTensorArray()
	bld.Release()
	defer arr.Release()
	var t Tensor
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_ = arr.TensorInto(&t, i&1023)
		i++
	}
}

// BenchmarkBuildFixed1M builds a column of 1M 2×2 float32 tensors.
func BenchmarkBuildFixed1M(b *testing.B) {
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	vals := []float32{1, 2, 3, 4}
	b.ReportAllocs()
	for b.Loop() {
		bld := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		bld.Reserve(1 << 20)
		for i := 0; i < 1<<20; i++ {
			_ = bld.AppendTensor(vals)
		}
		bld.NewFixedShapeTensorArray().Release()
		bld.Release()
	}
}

// BenchmarkBuildVariable1M builds a column of 1M variable shape tensors of
// 1 to 4 float32 elements.
func BenchmarkBuildVariable1M(b *testing.B) {
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, nil)
	vals := []float32{1, 2, 3, 4}
	shapes := [][]int{{1, 1}, {1, 2}, {3, 1}, {2, 2}}
	b.ReportAllocs()
	for b.Loop() {
		bld := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
		bld.Reserve(1 << 20)
		bld.ReserveValues(10 << 18)
		for i := 0; i < 1<<20; i++ {
			s := shapes[i&3]
			_ = bld.AppendTensor(s, vals[:s[0]*s[1]])
		}
		bld.NewVariableShapeTensorArray().Release()
		bld.Release()
	}
}

// BenchmarkBuildFixed1MBulk builds the same column with one AppendTensors.
func BenchmarkBuildFixed1MBulk(b *testing.B) {
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	vals := make([]float32, 4<<20)
	for i := range vals {
		vals[i] = float32(i & 3)
	}
	b.ReportAllocs()
	for b.Loop() {
		bld := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		if err := bld.AppendTensors(vals); err != nil {
			b.Fatal(err)
		}
		bld.NewFixedShapeTensorArray().Release()
		bld.Release()
	}
}
