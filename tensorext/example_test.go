package tensorext_test

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// Build a column of 2×3 uint8 images, then view a row physically and
// logically.
func ExampleNewFixedShapeTensorType() {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	if err != nil {
		panic(err)
	}
	fmt.Println(typ)
	fmt.Println(typ.Serialize())

	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]uint8{1, 2, 3, 4, 5, 6})
	b.AppendNull()
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()

	t, _ := arr.Tensor(0)
	fmt.Println("physical", t.Shape, t.DimNames, t)
	l := t.Logical()
	fmt.Println("logical ", l.Shape, l.DimNames, l)
	_, err = arr.Tensor(1)
	fmt.Println(err)
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[2,3], permutation=[1,0], dim_names=[H,W]]>
	// {"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}
	// physical [2 3] [H W] [[1 2 3] [4 5 6]]
	// logical  [3 2] [W H] [[1 4] [2 5] [3 6]]
	// tensorext: tensor is null
}

// Each row of a variable shape tensor column has its own shape.
func ExampleNewVariableShapeTensorType() {
	typ, _ := tensorext.NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 3, nil,
		[]string{"H", "W", "C"}, []int{tensorext.VaryingDim, tensorext.VaryingDim, 3})
	fmt.Println(typ.Serialize())

	b := tensorext.NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]int{1, 2, 3}, []float32{0, 1, 2, 3, 4, 5})
	_ = b.AppendTensor([]int{2, 1, 3}, []float32{6, 7, 8, 9, 10, 11})
	err := b.AppendTensor([]int{1, 1, 4}, []float32{0, 0, 0, 0})
	fmt.Println(err)
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()

	var t tensorext.Tensor // reused by TensorInto: no allocation per row
	for i := 0; i < arr.Len(); i++ {
		_ = arr.TensorInto(&t, i)
		fmt.Println(t.Shape, t)
	}
	// Output:
	// {"dim_names":["H","W","C"],"uniform_shape":[null,null,3]}
	// tensorext: shape [1,1,4] does not match uniform_shape in dimension 2
	// [1 2 3] [[[0 1 2] [3 4 5]]]
	// [2 1 3] [[[6 7 8]] [[9 10 11]]]
}

// Write a tensor column to the Arrow IPC stream format and read it back: the
// extension type comes back because importing tensorext registers it.
func Example_ipc() {
	typ, _ := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Int32, []int{2, 2}, nil, nil)
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	_ = b.AppendTensor([]int32{1, 2, 3, 4})
	col := b.NewFixedShapeTensorArray()
	b.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 1)
	col.Release()

	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	_ = w.Write(rec)
	_ = w.Close()
	rec.Release()

	r, _ := ipc.NewReader(&buf)
	defer r.Release()
	for r.Next() {
		got := r.RecordBatch().Column(0).(*tensorext.FixedShapeTensorArray)
		fmt.Println(got.DataType())
		t, _ := got.Tensor(0)
		pos, _ := t.Pos(1, 0)
		v, _ := t.Float64(pos)
		fmt.Println(t, v)
	}
	// Output:
	// extension<arrow.fixed_shape_tensor[value_type=int32, shape=[2,2]]>
	// [[1 2] [3 4]] 3
}

// Positions visits the elements in the view's row-major order; on the
// logical view that is numpy.transpose(physical, permutation) order.
func ExampleTensor_Positions() {
	typ, _ := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Int32, []int{2, 2, 3}, []int{2, 0, 1}, nil)
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]int32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	t, _ := arr.Tensor(0)
	l := t.Logical()
	fmt.Println(l.Shape, l.Strides)
	l.Positions(func(pos int) bool {
		fmt.Print(l.ValueStr(pos), " ")
		return true
	})
	fmt.Println()
	// Output:
	// [3 2 2] [1 6 3]
	// 1 4 7 10 2 5 8 11 3 6 9 12
}
