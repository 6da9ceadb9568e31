package dialect

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// ListRow returns where row i of a list-like array (List, LargeList,
// FixedSizeList, ListView is not one) keeps its elements: the child array
// values and the half-open range [start, end) of positions in it. It
// returns an error wrapping tensorext.ErrNullTensor for a null row and an
// error for any other array type or a row out of range.
func ListRow(arr arrow.Array, i int) (values arrow.Array, start, end int, err error) {
	if i < 0 || i >= arr.Len() {
		return nil, 0, 0, fmt.Errorf("row %d out of range [0, %d)", i, arr.Len())
	}
	if arr.IsNull(i) {
		return nil, 0, 0, tensorext.ErrNullTensor
	}
	switch a := arr.(type) {
	case *array.List:
		s, e := a.ValueOffsets(i)
		return a.ListValues(), int(s), int(e), nil
	case *array.LargeList:
		s, e := a.ValueOffsets(i)
		return a.ListValues(), int(s), int(e), nil
	case *array.FixedSizeList:
		s, e := a.ValueOffsets(i)
		return a.ListValues(), int(s), int(e), nil
	}
	return nil, 0, 0, fmt.Errorf("%s is not a list type", arr.DataType())
}

// rowTensor is RowMajor(values, start, end, shape, nil) for row i, the
// row its elements are: its error starts "row i: ".
func rowTensor(i int, values arrow.Array, start, end int, shape []int) (tensorext.Tensor, error) {
	t, err := RowMajor(values, start, end, shape, nil)
	if err != nil {
		return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
	}
	return t, nil
}

// RowMajor returns the view of n = end-start elements of values starting at
// position start as a row-major (C-order) tensor of the given physical
// shape and dim names (nil, or one per dimension). It returns an error when
// the product of shape is not n ("the row has 6 elements, shape [2,2] needs
// 4") or a dimension is negative; shape and dimNames are copied.
func RowMajor(values arrow.Array, start, end int, shape []int, dimNames []string) (tensorext.Tensor, error) {
	n := end - start
	want := 1
	for _, d := range shape {
		if d < 0 {
			return tensorext.Tensor{}, fmt.Errorf("shape %s has a negative dimension", tensorext.FormatShape(shape))
		}
		if d != 0 && want > (1<<62)/d {
			return tensorext.Tensor{}, fmt.Errorf("shape %s has too many elements", tensorext.FormatShape(shape))
		}
		want *= d
	}
	if want != n {
		return tensorext.Tensor{}, fmt.Errorf("the row has %d elements, shape %s needs %d", n, tensorext.FormatShape(shape), want)
	}
	if dimNames != nil && len(dimNames) != len(shape) {
		return tensorext.Tensor{}, fmt.Errorf("%d dim_names for %d dimensions", len(dimNames), len(shape))
	}
	strides := make([]int, len(shape))
	s := 1
	for k := len(shape) - 1; k >= 0; k-- {
		strides[k] = s
		s *= max(shape[k], 1)
	}
	t := tensorext.Tensor{Values: values, Offset: start, Shape: append([]int(nil), shape...), Strides: strides}
	if dimNames != nil {
		t.DimNames = append([]string(nil), dimNames...)
	}
	return t, nil
}

// Int reads element i of an integer array of any width, signed or not, as
// an int in [0, limit]: the shapes, ndims and image sizes producers store
// in Arrow columns. Its errors say "null", "float32 is not an integer
// type", "negative (-1)" or "4294967296 is more than 2147483647".
func Int(a arrow.Array, i int, limit int64) (int, error) {
	if a.IsNull(i) {
		return 0, errors.New("null")
	}
	var v int64
	switch x := a.(type) {
	case *array.Int8:
		v = int64(x.Value(i))
	case *array.Int16:
		v = int64(x.Value(i))
	case *array.Int32:
		v = int64(x.Value(i))
	case *array.Int64:
		v = x.Value(i)
	case *array.Uint8:
		v = int64(x.Value(i))
	case *array.Uint16:
		v = int64(x.Value(i))
	case *array.Uint32:
		v = int64(x.Value(i))
	case *array.Uint64:
		if u := x.Value(i); u > uint64(limit) {
			return 0, fmt.Errorf("%d is more than %d", u, limit)
		}
		v = int64(x.Value(i))
	default:
		return 0, fmt.Errorf("%s is not an integer type", a.DataType())
	}
	switch {
	case v < 0:
		return 0, fmt.Errorf("negative (%d)", v)
	case v > limit:
		return 0, fmt.Errorf("%d is more than %d", v, limit)
	}
	return int(v), nil
}

// IsNull reports whether err is tensorext.ErrNullTensor or wraps it.
func IsNull(err error) bool { return errors.Is(err, tensorext.ErrNullTensor) }
