package tensorext_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// A NumPy array b of shape (2,3,4), C order, transposed with
// numpy.transpose(b, (2,0,1)), is a [4,2,3] view of b's buffer with element
// strides [1,12,4]. FromStrided stores b's buffer as it is, with the spec's
// permutation [2,0,1] (Arrow C++ would store the inverse, [1,2,0]), and the
// logical view reads back the transposed array.
func ExampleFromStrided() {
	buf := make([]int32, 24)
	for i := range buf {
		buf[i] = int32(i)
	}
	r, err := tensorext.FromStrided(buf, []int{4, 2, 3}, []int{1, 12, 4}, []string{"W", "N", "H"})
	if err != nil {
		panic(err)
	}
	fmt.Println("physical shape:", r.Shape, "permutation:", r.Permutation, "dim names:", r.DimNames)
	fmt.Println("values:", r.Values)

	typ, err := r.FixedShapeTensorType()
	if err != nil {
		panic(err)
	}
	fmt.Println(typ.Serialize())

	arr, err := tensorext.NewFixedShapeTensorFromStrided(memory.DefaultAllocator, buf, []int{4, 2, 3}, []int{1, 12, 4}, nil)
	if err != nil {
		panic(err)
	}
	defer arr.Release()
	t, _ := arr.Tensor(0)
	fmt.Println("logical:", t.Logical())
	// Output:
	// physical shape: [2 3 4] permutation: [2 0 1] dim names: [N H W]
	// values: [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23]
	// {"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["N","H","W"]}
	// logical: [[[0 4 8] [12 16 20]] [[1 5 9] [13 17 21]] [[2 6 10] [14 18 22]] [[3 7 11] [15 19 23]]]
}

// The spec's example: physical shape [2,2,3] with permutation [2,0,1] has
// logical shape [3,2,2]; CopyContiguous of the logical view materializes it.
func ExampleCopyContiguous() {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2, 3}, []int{2, 0, 1}, nil)
	if err != nil {
		panic(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	if err := b.AppendTensor([]uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); err != nil {
		panic(err)
	}
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()

	t, _ := arr.Tensor(0)
	logical := t.Logical()
	flat, err := tensorext.CopyContiguous(memory.DefaultAllocator, logical)
	if err != nil {
		panic(err)
	}
	defer flat.Release()
	fmt.Println("logical shape:", logical.Shape)
	fmt.Println("values:", flat.(*array.Uint8).Uint8Values())
	// Output:
	// logical shape: [3 2 2]
	// values: [1 4 7 10 2 5 8 11 3 6 9 12]
}
