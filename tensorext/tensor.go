package tensorext

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// ErrNullTensor is returned by the arrays' Tensor method for a null row.
var ErrNullTensor = errors.New("tensorext: tensor is null")

// Tensor is a zero-copy strided view of one tensor stored in a tensor
// extension array, in the manner of the standard library's image types.
//
// The element at index (i0, i1, ..., in-1) is Values at position
// Offset + i0*Strides[0] + ... + in-1*Strides[n-1]. Shape, Strides and
// DimNames describe this view's own dimension order; for a Tensor returned by
// an array's Tensor method that is the physical (row-major) order, and
// Permutation holds the extension type's permutation (nil when absent) that
// Logical applies. Strides are in elements, not bytes.
//
// A view shares Values and, for fixed-shape rows, its slices with the array:
// treat them as read-only.
type Tensor struct {
	// Values is the flat value array (the storage's list child); it is not
	// sliced to the row.
	Values arrow.Array
	// Offset is the position in Values of the element at index (0, ..., 0).
	Offset int
	// Shape is the size of each dimension, in this view's order.
	Shape []int
	// Strides is the distance in elements of Values between neighbours along
	// each dimension.
	Strides []int
	// DimNames names each dimension in this view's order; nil when unnamed.
	DimNames []string
	// Permutation maps logical dimension i to dimension Permutation[i] of
	// this view (spec: "The i-th dimension of the logical view corresponds
	// to dimension permutation[i] of the physical tensor"); nil for identity.
	Permutation []int
}

// NDim returns the number of dimensions (0 for a scalar tensor).
func (t Tensor) NDim() int { return len(t.Shape) }

// Len returns the number of elements, the product of Shape (1 for 0-D).
func (t Tensor) Len() int {
	n, _ := product(t.Shape)
	return n
}

// ValueType returns the Arrow data type of the elements.
func (t Tensor) ValueType() arrow.DataType { return t.Values.DataType() }

// LogicalShape returns the shape of the logical view:
// LogicalShape()[i] == Shape[Permutation[i]].
func (t Tensor) LogicalShape() []int { return permuteInts(t.Shape, t.Permutation) }

// LogicalStrides returns the element strides of the logical view:
// LogicalStrides()[i] == Strides[Permutation[i]].
func (t Tensor) LogicalStrides() []int { return permuteInts(t.Strides, t.Permutation) }

// LogicalDimNames returns the dimension names in logical order, or nil.
func (t Tensor) LogicalDimNames() []string { return permuteStrings(t.DimNames, t.Permutation) }

// Logical returns the logical view of t, numpy.transpose(t, t.Permutation):
// the same values with shape, strides and dim names permuted and
// Permutation nil. It copies no values.
func (t Tensor) Logical() Tensor {
	if t.Permutation == nil {
		return t
	}
	return Tensor{
		Values:   t.Values,
		Offset:   t.Offset,
		Shape:    t.LogicalShape(),
		Strides:  t.LogicalStrides(),
		DimNames: t.LogicalDimNames(),
	}
}

// Pos returns the position in Values of the element at index, which must
// have NDim entries within Shape; ok is false otherwise.
func (t Tensor) Pos(index ...int) (pos int, ok bool) {
	if len(index) != len(t.Shape) {
		return 0, false
	}
	pos = t.Offset
	for k, i := range index {
		if i < 0 || i >= t.Shape[k] {
			return 0, false
		}
		pos += i * t.Strides[k]
	}
	return pos, true
}

// IsNull reports whether the element at position pos of Values is null.
func (t Tensor) IsNull(pos int) bool { return t.Values.IsNull(pos) }

// ValueStr returns the element at position pos of Values as text, as
// arrow-go's array.ValueStr does ("(null)" for null), except that float16 is
// formatted from an exact conversion (the package's ValueStr). Arrays of
// types this package does not know (Float64Source) format their elements in
// their own ValueStr.
func (t Tensor) ValueStr(pos int) string { return ValueStr(t.Values, pos) }

// Float64 returns the element at position pos of Values as a float64. ok is
// false when the element is null or the value type is not numeric (integer,
// floating point, boolean, which reads as 0 or 1, or an array implementing
// Float64Source; see Float64Reader). Integers beyond 2^53 lose precision.
func (t Tensor) Float64(pos int) (v float64, ok bool) {
	if t.Values.IsNull(pos) {
		return 0, false
	}
	return numericValue(t.Values, pos)
}

// Positions calls fn with the position in Values of every element, in
// row-major order of this view's Shape: the last index varies fastest. For
// the logical order, call t.Logical().Positions. Iteration stops when fn
// returns false.
func (t Tensor) Positions(fn func(pos int) bool) {
	n := t.Len()
	if n == 0 {
		return
	}
	nd := len(t.Shape)
	idx := make([]int, nd)
	pos := t.Offset
	for {
		if !fn(pos) {
			return
		}
		k := nd - 1
		for ; k >= 0; k-- {
			idx[k]++
			pos += t.Strides[k]
			if idx[k] < t.Shape[k] {
				break
			}
			pos -= idx[k] * t.Strides[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// String returns the tensor's values in this view's order, nested like
// numpy's repr, for example "[[1 2 3] [4 5 6]]"; "[]" when it has no
// elements.
func (t Tensor) String() string {
	if t.Len() == 0 && t.NDim() > 0 {
		return "[]" // as numpy prints an empty array, whatever its shape
	}
	var b []byte
	var rec func(dim, pos int)
	rec = func(dim, pos int) {
		if dim == len(t.Shape) {
			b = append(b, t.ValueStr(pos)...)
			return
		}
		b = append(b, '[')
		for i := 0; i < t.Shape[dim]; i++ {
			if i > 0 {
				b = append(b, ' ')
			}
			rec(dim+1, pos+i*t.Strides[dim])
		}
		b = append(b, ']')
	}
	rec(0, t.Offset)
	return string(b)
}

// numericValue reads element i of a numeric array (Float64Reader); ok is
// false for other types. For one element: loops build the reader once.
func numericValue(a arrow.Array, i int) (float64, bool) {
	at, ok := Float64Reader(a)
	if !ok {
		return 0, false
	}
	return at(i), true
}

// tensorAt builds the physical view of a row whose values start at offset in
// values; shape, strides and names are shared, not copied.
func tensorAt(values arrow.Array, offset int, shape, strides []int, names []string, perm []int) Tensor {
	return Tensor{Values: values, Offset: offset, Shape: shape, Strides: strides, DimNames: names, Permutation: perm}
}

// rowError formats a per-row validation error.
func rowError(row int, format string, args ...any) error {
	return fmt.Errorf("row %d: %s", row, fmt.Sprintf(format, args...))
}
