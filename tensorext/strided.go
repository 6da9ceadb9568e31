package tensorext

// This file builds tensor rows from strided Go buffers (numpy-like data
// with element strides).

import (
	"fmt"
	"math"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Element is the set of Go element types that FromStrided and
// FixedShapeTensorBuilder.AppendTensor accept, one per supported Arrow value
// type: uint8 … int64, float16.Num, float32, float64 and bool.
type Element interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | uint64 | int64 | float16.Num | float32 | float64 | bool
}

// RowMajor is a tensor laid out for storage in a tensor extension column
// (spec "Canonical Extension Types › Fixed shape tensor"): Values holds the
// elements row-major in the physical Shape, and Permutation (nil for the identity)
// gives the logical view numpy.transpose(physical, Permutation). DimNames, in
// physical order, is nil when no names were given.
type RowMajor[T Element] struct {
	// Shape is the physical shape.
	Shape []int
	// Permutation maps logical dimension i to physical dimension
	// Permutation[i]; nil when the logical and physical orders agree.
	Permutation []int
	// DimNames names the physical dimensions; nil when unnamed.
	DimNames []string
	// Values holds product(Shape) elements in physical row-major order.
	Values []T
}

// ValueTypeOf returns the Arrow value type of the Go element type T, for
// example arrow.PrimitiveTypes.Uint8 for uint8, arrow.FixedWidthTypes.Float16
// for float16.Num and arrow.FixedWidthTypes.Boolean for bool.
func ValueTypeOf[T Element]() arrow.DataType {
	var zero T
	switch any(zero).(type) {
	case uint8:
		return arrow.PrimitiveTypes.Uint8
	case int8:
		return arrow.PrimitiveTypes.Int8
	case uint16:
		return arrow.PrimitiveTypes.Uint16
	case int16:
		return arrow.PrimitiveTypes.Int16
	case uint32:
		return arrow.PrimitiveTypes.Uint32
	case int32:
		return arrow.PrimitiveTypes.Int32
	case uint64:
		return arrow.PrimitiveTypes.Uint64
	case int64:
		return arrow.PrimitiveTypes.Int64
	case float16.Num:
		return arrow.FixedWidthTypes.Float16
	case float32:
		return arrow.PrimitiveTypes.Float32
	case float64:
		return arrow.PrimitiveTypes.Float64
	default: // bool
		return arrow.FixedWidthTypes.Boolean
	}
}

// FixedShapeTensorType returns the fixed shape tensor type of r's value type,
// Shape, Permutation and DimNames, for a column whose rows all share r's
// layout; append rows with FixedShapeTensorBuilder.AppendTensor(r.Values).
// It returns NewFixedShapeTensorType's errors (a shape with no elements, for
// example).
func (r RowMajor[T]) FixedShapeTensorType() (*FixedShapeTensorType, error) {
	return NewFixedShapeTensorType(ValueTypeOf[T](), r.Shape, r.Permutation, r.DimNames)
}

// FromStrided converts a strided tensor held in a Go slice, such as the
// buffer of a transposed or column-major (Fortran order) NumPy array, into
// the row-major storage of the spec without changing what it means: the
// returned layout's logical view (numpy.transpose(physical, Permutation),
// spec "Canonical Extension Types › Fixed shape tensor") is the input
// tensor, element for element and with the same dimension names.
//
// The input element at index (i0, ..., in-1) is values[i0*strides[0] + ... +
// in-1*strides[n-1]]; strides are in elements (NumPy's byte strides divided
// by the item size) and must be non-negative. dimNames, in the input's order,
// may be nil.
//
// The physical order is the input's dimensions sorted by decreasing stride
// (ties, dimensions of size 1 and broadcast dimensions of stride 0 keep
// their place after the preceding dimension), so that the physical values
// are read from values in memory order and a tensor that is a transposed
// view of a contiguous buffer is stored exactly as that buffer.
// The physical shape and dim names are the input's in that order, and
// Permutation is its inverse: logical dimension i (input dimension i) is
// physical dimension Permutation[i]. Permutation is nil when the input is
// already row-major ordered. Values is always a new slice.
//
// It returns an error when shape and strides differ in length, dimNames is
// neither nil nor of that length, a dimension or stride is negative, or a
// position falls outside values.
func FromStrided[T Element](values []T, shape, strides []int, dimNames []string) (RowMajor[T], error) {
	nd := len(shape)
	if len(strides) != nd {
		return RowMajor[T]{}, fmt.Errorf("tensorext: %d strides for %d dimensions", len(strides), nd)
	}
	if err := checkDimNames(dimNames, nd); err != nil {
		return RowMajor[T]{}, fmt.Errorf("tensorext: %w", err)
	}
	n, ok := product(shape)
	if !ok {
		return RowMajor[T]{}, fmt.Errorf("tensorext: shape %s is negative or too large", FormatShape(shape))
	}
	last := 0
	for k, s := range strides {
		if s < 0 {
			return RowMajor[T]{}, fmt.Errorf("tensorext: stride %d of dimension %d is negative", s, k)
		}
		last += (shape[k] - 1) * s
	}
	if n > 0 && last >= len(values) {
		return RowMajor[T]{}, fmt.Errorf("tensorext: shape %s with strides %s reads position %d of %d values",
			FormatShape(shape), FormatShape(strides), last, len(values))
	}

	// Worked example, the 3-cycle where Arrow C++ differs. Let B be a
	// C-contiguous array of shape [2,3,4] (element strides [12,4,1]) and
	// X = numpy.transpose(B, (2,0,1)): X has shape [4,2,3] and strides
	// [1,12,4] over B's buffer.
	//   order (input dims by decreasing stride) = [1, 2, 0]
	//   physical shape = shape[order[j]] = [2,3,4], the values are B's
	//   buffer unchanged.
	//   Permutation = inverse(order): order[j] = i => Permutation[i] = j,
	//   so Permutation = [2, 0, 1].
	// Check with the spec: logical = numpy.transpose(physical, [2,0,1])
	// = numpy.transpose(B, (2,0,1)) = X. Logical dimension 0 (X's size-4
	// axis) is physical dimension 2 (B's size-4 axis), and so on.
	// pyarrow's FixedShapeTensorArray.from_numpy_ndarray (Arrow C++) stores
	// the inverse, order itself = [1,2,0], as the permutation. The two agree
	// only for permutations that are their own inverse (the identity and
	// swaps); for this 3-cycle [1,2,0] describes numpy.transpose(B,
	// (1,2,0)), a tensor of shape [3,4,2] that is not X.
	order := physicalOrder(shape, strides)
	r := RowMajor[T]{Shape: make([]int, nd), Values: make([]T, n)}
	physStrides := make([]int, nd)
	perm := make([]int, nd)
	for j, i := range order {
		r.Shape[j] = shape[i]
		physStrides[j] = strides[i]
		perm[i] = j
	}
	if !isIdentity(perm) {
		r.Permutation = perm
	}
	r.DimNames = permuteStrings(dimNames, order)
	if n > 0 {
		gather(r.Values, values, 0, r.Shape, physStrides)
	}
	return r, nil
}

// physicalOrder returns the input dimensions sorted by decreasing stride,
// ties in input order. A dimension of size 1 has no meaningful stride (NumPy
// gives it any) and one of stride 0 (a broadcast) has no place in memory:
// such a dimension sorts with the stride of the nearest preceding other
// dimension, so it stays next to that dimension.
func physicalOrder(shape, strides []int) []int {
	key := make([]int, len(shape))
	prev := math.MaxInt
	for k := range shape {
		if shape[k] != 1 && strides[k] != 0 {
			prev = strides[k]
		}
		key[k] = prev
	}
	order := make([]int, len(shape))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return key[order[a]] > key[order[b]] })
	return order
}

// NewFixedShapeTensorFromStrided returns a one-row FixedShapeTensorArray
// holding the strided tensor (values, shape, strides, dimNames) as
// FromStrided lays it out: its type has FromStrided's physical shape,
// permutation and dim names and the value type of T, and
// arr.Tensor(0).Logical() reads back the input tensor element for element.
// mem nil means memory.DefaultAllocator. It returns FromStrided's and
// NewFixedShapeTensorType's errors. The caller releases the array.
func NewFixedShapeTensorFromStrided[T Element](mem memory.Allocator, values []T, shape, strides []int, dimNames []string) (*FixedShapeTensorArray, error) {
	r, err := FromStrided(values, shape, strides, dimNames)
	if err != nil {
		return nil, err
	}
	typ, err := r.FixedShapeTensorType()
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()
	if err := b.AppendTensor(r.Values); err != nil {
		return nil, err
	}
	return b.NewFixedShapeTensorArray(), nil
}
