package tensorext

// This file converts between tensor views and arrow-go tensors
// (github.com/apache/arrow-go/v18/arrow/tensor).

import (
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
)

// ToArrowTensor returns the view t as an arrow-go tensor (package
// github.com/apache/arrow-go/v18/arrow/tensor), in t's own dimension order:
// pass t.Logical() for the logical layout of the spec (spec "Canonical
// Extension Types › Fixed shape tensor"), the physical view for the stored
// one. Its shape is t.Shape, its strides t.Strides times the element
// size (arrow-go tensor strides are in bytes) and its dimension names
// t.DimNames (empty strings when nil).
//
// It copies nothing when every stride is non-negative: the tensor shares
// t.Values' buffer (a slice of it starting at the element at index 0), so
// the logical view of a permuted row is a zero-copy tensor with
// non-row-major strides (IsContiguous false). An arrow-go tensor cannot start
// anywhere but at its lowest element, so a view with a negative stride is
// copied (CopyContiguous, memory.DefaultAllocator) into a new row-major
// tensor.
//
// arrow-go tensors cannot hold nulls: it returns an error naming the index of
// the first null element of the view (nulls outside the view do not matter).
// It also returns an error for value types arrow-go tensors do not support
// (they support int8-64, uint8-64, float32, float64, date32 and date64; not
// float16 or bool) and for views that checkView rejects. The caller releases
// the tensor.
func ToArrowTensor(t Tensor) (tensor.Interface, error) {
	n, lo, hi, err := checkView(t)
	if err != nil {
		return nil, err
	}
	dt := t.Values.DataType()
	if !arrowTensorType(dt) {
		return nil, fmt.Errorf("tensorext: arrow-go tensors do not support value type %s", dt)
	}
	if bad, ok := t.FirstNull(); ok {
		return nil, fmt.Errorf("tensorext: element at index %s is null; arrow-go tensors cannot hold nulls", FormatShape(bad))
	}
	names := cloneStrings(t.DimNames)
	shape := make([]int64, len(t.Shape))
	for k, d := range t.Shape {
		shape[k] = int64(d)
	}
	bw := int64(dt.(arrow.FixedWidthDataType).BitWidth() / 8)
	negative := false
	for _, s := range t.Strides {
		negative = negative || s < 0
	}
	if negative {
		flat, err := CopyContiguous(memory.DefaultAllocator, t)
		if err != nil {
			return nil, err
		}
		defer flat.Release()
		strides := make([]int64, len(shape))
		for k, s := range rowMajorStrides(t.Shape) {
			strides[k] = int64(s) * bw
		}
		return tensor.New(flat.Data(), shape, strides, names), nil
	}
	if n == 0 { // an empty slice at the offset, clamped into the array
		lo = min(max(lo, 0), t.Values.Len())
		hi = lo - 1
	}
	data := array.NewSliceData(t.Values.Data(), int64(lo), int64(hi+1))
	defer data.Release()
	strides := make([]int64, len(shape))
	for k, s := range t.Strides {
		strides[k] = int64(s) * bw
	}
	return tensor.New(data, shape, strides, names), nil
}

// arrowTensorType reports whether arrow-go's tensor.New accepts dt.
func arrowTensorType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64:
		return true
	}
	return false
}

// unravel returns the row-major index of flat position k in shape.
func unravel(k int, shape []int) []int {
	idx := make([]int, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] > 0 {
			idx[i] = k % shape[i]
			k /= shape[i]
		}
	}
	return idx
}

// arrowTensorView returns a Tensor over src's values with src's shape and
// strides in elements, and the array it reads, which the caller releases.
func arrowTensorView(src tensor.Interface) (Tensor, arrow.Array, error) {
	if src == nil || src.Data() == nil {
		return Tensor{}, nil, errors.New("tensorext: nil arrow tensor")
	}
	dt := src.DataType()
	fw, ok := dt.(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth()%8 != 0 || fw.BitWidth() == 0 {
		return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor value type %s is not byte-sized", dt)
	}
	bw := int64(fw.BitWidth() / 8)
	shape := make([]int, len(src.Shape()))
	for k, d := range src.Shape() {
		shape[k] = int(d)
	}
	var strides []int
	if bs := src.Strides(); len(bs) == 0 && len(shape) > 0 {
		strides = rowMajorStrides(shape)
	} else {
		if len(bs) != len(shape) {
			return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor has %d strides for %d dimensions", len(bs), len(shape))
		}
		strides = make([]int, len(bs))
		for k, s := range bs {
			if s < 0 || s%bw != 0 {
				return Tensor{}, nil, fmt.Errorf("tensorext: arrow tensor stride %d is not a non-negative multiple of the %d-byte element size", s, bw)
			}
			strides[k] = int(s / bw)
		}
	}
	vals := array.MakeFromData(src.Data())
	v := Tensor{Values: vals, Shape: shape, Strides: strides, DimNames: src.DimNames()}
	if _, _, _, err := checkView(v); err != nil {
		vals.Release()
		return Tensor{}, nil, err
	}
	return v, vals, nil
}

// appendView appends the elements of v in its row-major order to the value
// builder vb, with v's nulls. It checks everything first and calls start just
// before appending, so that on error nothing is appended.
func appendView(vb array.Builder, v Tensor, start func()) error {
	switch v.Values.DataType().ID() {
	case arrow.INT8:
		return appendGathered[int8](vb, v, start)
	case arrow.INT16:
		return appendGathered[int16](vb, v, start)
	case arrow.INT32:
		return appendGathered[int32](vb, v, start)
	case arrow.INT64:
		return appendGathered[int64](vb, v, start)
	case arrow.UINT8:
		return appendGathered[uint8](vb, v, start)
	case arrow.UINT16:
		return appendGathered[uint16](vb, v, start)
	case arrow.UINT32:
		return appendGathered[uint32](vb, v, start)
	case arrow.UINT64:
		return appendGathered[uint64](vb, v, start)
	case arrow.FLOAT16:
		return appendGathered[float16.Num](vb, v, start)
	case arrow.FLOAT32:
		return appendGathered[float32](vb, v, start)
	case arrow.FLOAT64:
		return appendGathered[float64](vb, v, start)
	case arrow.DATE32:
		return appendGathered[arrow.Date32](vb, v, start)
	case arrow.DATE64:
		return appendGathered[arrow.Date64](vb, v, start)
	}
	return fmt.Errorf("tensorext: cannot append values of type %s", v.Values.DataType())
}

func appendGathered[T any](vb array.Builder, v Tensor, start func()) error {
	ab, ok := vb.(interface{ AppendValues([]T, []bool) })
	if !ok || !arrow.TypeEqual(vb.Type(), v.Values.DataType()) {
		return fmt.Errorf("tensorext: cannot append values of type %s to a builder of %s", v.Values.DataType(), vb.Type())
	}
	n := v.Len()
	out := make([]T, n)
	if n > 0 {
		data := v.Values.Data()
		buf := data.Buffers()[1]
		if buf == nil {
			return errors.New("tensorext: arrow tensor has no value buffer")
		}
		src := castSlice[T](buf.Bytes())
		if data.Offset()+v.Values.Len() > len(src) {
			return fmt.Errorf("tensorext: arrow tensor value buffer of %d bytes is too short", buf.Len())
		}
		gather(out, src[data.Offset():], v.Offset, v.Shape, v.Strides)
	}
	var valid []bool
	if v.Values.NullN() > 0 {
		valid = make([]bool, 0, n)
		v.Positions(func(pos int) bool {
			valid = append(valid, v.Values.IsValid(pos))
			return true
		})
	}
	start()
	ab.AppendValues(out, valid)
	return nil
}

// physicalFromLogical returns the physical view of a logical tensor v under
// perm: physical dimension perm[i] is logical dimension i, so physical
// dimension j has the strides of logical dimension inv[j], inv[perm[i]] = i.
func physicalFromLogical(v Tensor, perm []int) Tensor {
	if perm == nil {
		return v
	}
	p := v
	p.Shape = make([]int, len(perm))
	p.Strides = make([]int, len(perm))
	for i, j := range perm {
		p.Shape[j] = v.Shape[i]
		p.Strides[j] = v.Strides[i]
	}
	return p
}

// AppendArrowTensor appends src, an arrow-go tensor with any non-negative
// byte strides (row-major, column-major or strided), as one row of b in
// physical row-major order (spec "Canonical Extension Types › Fixed shape
// tensor"): src's shape must equal the type's physical shape and its element at index
// (i0, ..., in-1) becomes the row's physical element at that index. Use
// AppendLogicalArrowTensor for a tensor in the logical layout. Nulls in src's
// data, which arrow-go tensors normally lack, are kept. It returns an error,
// appending nothing, when the value types differ, the shape differs, a stride
// is negative or not a multiple of the element size, or src's data is too
// short for its shape and strides.
func (b *FixedShapeTensorBuilder) AppendArrowTensor(src tensor.Interface) error {
	return appendArrowTensorFixed(b, src, false)
}

// AppendLogicalArrowTensor appends src as one row of b whose logical view
// (numpy.transpose(physical, permutation), spec "Canonical Extension Types ›
// Fixed shape tensor") equals src: src's shape must be the type's
// LogicalShape, and the values are stored transposed into physical row-major
// order. It is the
// inverse of ToArrowTensor(row.Logical()). Errors are AppendArrowTensor's.
func (b *FixedShapeTensorBuilder) AppendLogicalArrowTensor(src tensor.Interface) error {
	return appendArrowTensorFixed(b, src, true)
}

func appendArrowTensorFixed(b *FixedShapeTensorBuilder, src tensor.Interface, logical bool) error {
	typ := b.typ
	v, vals, err := appendableView(src, typ.ValueType())
	if err != nil {
		return err
	}
	defer vals.Release()
	want, which := typ.shape, "physical"
	if logical {
		want, which = typ.LogicalShape(), "logical"
		v = physicalFromLogical(v, typ.permutation)
	}
	if !slices.Equal(v.Shape, typ.shape) {
		return fmt.Errorf("tensorext: tensor shape %s does not match the %s shape %s", FormatShape(shapeOf(src)), which, FormatShape(want))
	}
	return appendView(b.ValueBuilder(), v, func() { b.Append(true) })
}

// appendableView is arrowTensorView of src, which a builder of a tensor
// column of valueType appends: an error when src's value type is another.
func appendableView(src tensor.Interface, valueType arrow.DataType) (Tensor, arrow.Array, error) {
	if src != nil && src.Data() != nil && !arrow.TypeEqual(src.DataType(), valueType) {
		return Tensor{}, nil, fmt.Errorf("tensorext: cannot append a tensor of %s to a tensor column of %s", src.DataType(), valueType)
	}
	return arrowTensorView(src)
}

func shapeOf(src tensor.Interface) []int {
	s := make([]int, len(src.Shape()))
	for k, d := range src.Shape() {
		s[k] = int(d)
	}
	return s
}

// AppendArrowTensor appends src, an arrow-go tensor with any
// non-negative byte strides, as one row of the variable shape tensor builder
// b (spec "Canonical Extension Types › Variable shape tensor"): src's shape
// becomes the row's physical shape and its values are stored row-major. It returns an
// error, appending nothing, when the value types differ, src's number of
// dimensions is not the type's ndim, the shape disagrees with uniform_shape,
// or src's strides or data are unusable (as for FixedShapeTensorBuilder.AppendArrowTensor).
func (b *VariableShapeTensorBuilder) AppendArrowTensor(src tensor.Interface) error {
	return appendArrowTensorVariable(b, src, false)
}

// AppendLogicalArrowTensor appends src as one row of b whose logical
// view equals src: the row's physical shape is shape[permutation[i]] =
// src.Shape()[i] and the values are stored transposed into physical
// row-major order. Errors are AppendArrowTensor's.
func (b *VariableShapeTensorBuilder) AppendLogicalArrowTensor(src tensor.Interface) error {
	return appendArrowTensorVariable(b, src, true)
}

func appendArrowTensorVariable(b *VariableShapeTensorBuilder, src tensor.Interface, logical bool) error {
	typ := b.typ
	v, vals, err := appendableView(src, typ.ValueType())
	if err != nil {
		return err
	}
	defer vals.Release()
	if len(v.Shape) != typ.ndim {
		return fmt.Errorf("tensorext: tensor shape %s must have %d dimensions", FormatShape(v.Shape), typ.ndim)
	}
	if logical {
		v = physicalFromLogical(v, typ.permutation)
	}
	if err := b.checkShape(v.Shape, "physical shape"); err != nil {
		return err
	}
	st, data, shapes, err := b.storage()
	if err != nil {
		return err
	}
	return appendView(data.ValueBuilder(), v, func() { startRow(st, data, shapes, v.Shape) })
}
