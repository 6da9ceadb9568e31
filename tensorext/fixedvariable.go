package tensorext

// This file converts between the fixed shape and the variable shape
// tensor types.

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// FixedToVariable converts a fixed shape tensor array into a variable shape
// tensor array of the same rows (spec "Canonical Extension Types › Variable
// shape tensor"): same value type, ndim = len(shape), the same dim_names and
// permutation, and uniform_shape = the fixed shape. Every row's shape is the
// fixed shape, its data the row's values; null rows stay null (the struct
// and its data list are null; the shape is still filled in). The values are
// shared with arr, not copied: the result's data list is a slice of arr's
// value array with new offsets. mem (nil: memory.DefaultAllocator) allocates
// the offsets, shapes and validity bitmap. It works on sliced arrays.
//
// It returns an error for an invalid type (Validate), a 0-D shape (arrow-go
// has no variable shape tensor of ndim 0), more than 2^31-1 values in all
// (List offsets are int32) or a value array too short for the rows.
func FixedToVariable(mem memory.Allocator, arr *FixedShapeTensorArray) (*VariableShapeTensorArray, error) {
	typ := arr.TensorType()
	if err := typ.Validate(); err != nil {
		return nil, err
	}
	ndim := len(typ.shape)
	if ndim == 0 {
		return nil, errors.New("tensorext: cannot convert 0-D tensors: a variable shape tensor needs ndim >= 1")
	}
	vtyp, err := NewVariableShapeTensorType(typ.ValueType(), ndim, typ.permutation, typ.dimNames, typ.shape)
	if err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := arr.Len()
	size, _ := product(typ.shape)
	if int64(n)*int64(size) > math.MaxInt32 {
		return nil, fmt.Errorf("tensorext: %d rows of %d values do not fit List's int32 offsets", n, size)
	}
	fsl := arr.Storage().(*array.FixedSizeList)
	off := fsl.Data().Offset()
	child := fsl.Data().Children()[0]
	if (off+n)*size > child.Len() {
		return nil, fmt.Errorf("tensorext: Expected values array of length at least %d, got %d", (off+n)*size, child.Len())
	}
	values := array.NewSliceData(child, int64(off*size), int64((off+n)*size))
	defer values.Release()

	offsets := memory.NewResizableBuffer(mem)
	defer offsets.Release()
	offsets.Resize((n + 1) * arrow.Int32SizeBytes)
	o32 := arrow.Int32Traits.CastFromBytes(offsets.Bytes())
	for i := range o32 {
		o32[i] = int32(i * size)
	}

	var validity *memory.Buffer
	nulls := arr.NullN()
	if nulls > 0 {
		validity = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		defer validity.Release()
		bitutil.CopyBitmap(fsl.NullBitmapBytes(), off, n, validity.Bytes(), 0)
	}

	dims := memory.NewResizableBuffer(mem)
	defer dims.Release()
	dims.Resize(n * ndim * arrow.Int32SizeBytes)
	d32 := arrow.Int32Traits.CastFromBytes(dims.Bytes())
	for i := 0; i < n; i++ {
		for k, d := range typ.shape {
			d32[i*ndim+k] = int32(d)
		}
	}

	st := vtyp.Storage.(*arrow.StructType)
	listData := array.NewData(st.Field(0).Type, n, []*memory.Buffer{validity, offsets}, []arrow.ArrayData{values}, nulls, 0)
	defer listData.Release()
	dimData := array.NewData(arrow.PrimitiveTypes.Int32, n*ndim, []*memory.Buffer{nil, dims}, nil, 0, 0)
	defer dimData.Release()
	shapeData := array.NewData(st.Field(1).Type, n, []*memory.Buffer{nil}, []arrow.ArrayData{dimData}, 0, 0)
	defer shapeData.Release()
	structData := array.NewData(st, n, []*memory.Buffer{validity}, []arrow.ArrayData{listData, shapeData}, nulls, 0)
	defer structData.Release()
	storage := array.MakeFromData(structData)
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray), nil
}

// VariableToFixed converts a variable shape tensor array whose non-null rows
// all have one physical shape into a fixed shape tensor array (spec
// "Canonical Extension Types › Fixed shape tensor") with that shape and the
// same value type, dim_names and permutation. A row is null when its struct
// or its data list is null; when the values are copied, its slots in the
// FixedSizeList hold valid zero values (nulls for value types that are not
// fixed-width). When every row is null
// (or there are none) the shape comes from a uniform_shape that fixes every
// dimension. When the rows' values are laid out back to back (as
// FixedToVariable makes them) they are shared, not copied; otherwise they
// are copied. mem nil means memory.DefaultAllocator.
//
// It returns an error for an invalid type, a row the array's Tensor method
// rejects, the first row whose shape differs from the first non-null row's
// ("row 3 has shape [2,2], unlike row 0's shape [2,3]"), a shape that
// disagrees with uniform_shape, a shape that cannot be inferred, or a shape
// NewFixedShapeTensorType rejects (one with no elements, for example).
func VariableToFixed(mem memory.Allocator, arr *VariableShapeTensorArray) (*FixedShapeTensorArray, error) {
	typ := arr.TensorType()
	if err := typ.Validate(); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	n := arr.Len()
	var shape []int
	first := -1
	starts := make([]int, n)
	for i := 0; i < n; i++ {
		t, err := arr.Tensor(i)
		if errors.Is(err, ErrNullTensor) {
			starts[i] = -1
			continue
		}
		if err != nil {
			return nil, err
		}
		if first < 0 {
			shape, first = t.Shape, i
		} else if !slices.Equal(t.Shape, shape) {
			return nil, fmt.Errorf("tensorext: row %d has shape %s, unlike row %d's shape %s; a fixed shape tensor needs one shape",
				i, FormatShape(t.Shape), first, FormatShape(shape))
		}
		starts[i] = t.Offset
	}
	if first < 0 {
		for _, d := range typ.uniformShape {
			if d == VaryingDim {
				shape = nil
				break
			}
			shape = append(shape, d)
		}
		if shape == nil {
			return nil, errors.New("tensorext: cannot infer the shape: no row has a value and uniform_shape does not fix every dimension")
		}
	}
	for k, d := range typ.uniformShape {
		if d != VaryingDim && d != shape[k] {
			return nil, fmt.Errorf("tensorext: row %d: shape %s does not match uniform_shape in dimension %d", first, FormatShape(shape), k)
		}
	}
	ftyp, err := NewFixedShapeTensorType(typ.ValueType(), shape, typ.permutation, typ.dimNames)
	if err != nil {
		return nil, err
	}
	size, _ := product(shape)
	st := arr.Storage().(*array.Struct)
	data := st.Field(typ.dataIdx).(array.ListLike)
	values := data.ListValues()

	// Rows back to back, null rows included: share the values.
	var valuesData arrow.ArrayData
	if n > 0 {
		s0, _ := data.ValueOffsets(0)
		contiguous := true
		for i := 0; i < n && contiguous; i++ {
			s, e := data.ValueOffsets(i)
			contiguous = s == s0+int64(i*size) && e == s+int64(size)
		}
		if contiguous {
			valuesData = array.NewSliceData(values.Data(), s0, s0+int64(n*size))
		}
	}
	if valuesData == nil {
		flat, err := copyFlat(mem, values, n*size, flatSource{blocks: func(fn func(block)) {
			for _, s := range starts {
				fn(block{pos: s, n1: 1, n0: size, s0: 1})
			}
		}})
		if err != nil {
			return nil, err
		}
		valuesData = flat.Data()
		valuesData.Retain()
		flat.Release()
	}
	defer valuesData.Release()

	var validity *memory.Buffer
	nulls := 0
	for _, s := range starts {
		if s < 0 {
			nulls++
		}
	}
	if nulls > 0 {
		validity = newZeroedBuffer(mem, int(bitutil.BytesForBits(int64(n))))
		defer validity.Release()
		for i, s := range starts {
			if s >= 0 {
				bitutil.SetBit(validity.Bytes(), i)
			}
		}
	}
	fslData := array.NewData(ftyp.Storage, n, []*memory.Buffer{validity}, []arrow.ArrayData{valuesData}, nulls, 0)
	defer fslData.Release()
	storage := array.MakeFromData(fslData)
	defer storage.Release()
	return array.NewExtensionArrayWithStorage(ftyp, storage).(*FixedShapeTensorArray), nil
}
