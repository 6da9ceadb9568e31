package tensorext

// Tests of arrowtensor.go.

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/tensor"
)

func TestConvertToArrowTensor(t *testing.T) {
	mem := convCheckedMem(t)
	shape, perm := []int{2, 3, 4}, []int{2, 0, 1}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float32,
		arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Date32} {
		t.Run(dt.String(), func(t *testing.T) {
			arr := convBuildFixed(t, mem, dt, shape, perm, []string{"N", "H", "W"}, 3, 0, 0)
			defer arr.Release()
			sl := array.NewSlice(arr, 1, 3).(*FixedShapeTensorArray)
			defer sl.Release()
			tt := convTensor(t, sl, 1) // storage row 2
			bw := int64(dt.(arrow.FixedWidthDataType).BitWidth() / 8)

			phys, err := ToArrowTensor(tt)
			if err != nil {
				t.Fatal(err)
			}
			defer phys.Release()
			if !reflect.DeepEqual(phys.Shape(), []int64{2, 3, 4}) || !reflect.DeepEqual(phys.Strides(), []int64{12 * bw, 4 * bw, bw}) ||
				!phys.IsRowMajor() || !reflect.DeepEqual(phys.DimNames(), []string{"N", "H", "W"}) {
				t.Errorf("physical: shape %v strides %v rowmajor %v names %v", phys.Shape(), phys.Strides(), phys.IsRowMajor(), phys.DimNames())
			}
			if phys.Data().Buffers()[1] != tt.Values.Data().Buffers()[1] || phys.Data().Offset() != tt.Values.Data().Offset()+48 {
				t.Error("physical tensor is not a zero-copy slice of the row")
			}

			lt, err := ToArrowTensor(tt.Logical())
			if err != nil {
				t.Fatal(err)
			}
			defer lt.Release()
			if !reflect.DeepEqual(lt.Shape(), []int64{4, 2, 3}) || !reflect.DeepEqual(lt.Strides(), []int64{bw, 12 * bw, 4 * bw}) ||
				lt.IsContiguous() || !reflect.DeepEqual(lt.DimNames(), []string{"W", "N", "H"}) {
				t.Errorf("logical: shape %v strides %v names %v", lt.Shape(), lt.Strides(), lt.DimNames())
			}
			if lt.Data().Buffers()[1] != tt.Values.Data().Buffers()[1] {
				t.Error("logical tensor copied")
			}
			ref := convRefTranspose(shape, perm)
			m := 0
			for a := int64(0); a < 4; a++ {
				for b := int64(0); b < 2; b++ {
					for c := int64(0); c < 3; c++ {
						got := convArrowTensorValue(lt, []int64{a, b, c})
						if want := tt.Values.ValueStr(tt.Offset + ref[m]); got != want {
							t.Fatalf("logical (%d,%d,%d) = %s, want %s", a, b, c, got, want)
						}
						m++
					}
				}
			}
		})
	}
}

// convArrowTensorValue reads one element of an arrow-go tensor as text.
func convArrowTensorValue(ts tensor.Interface, idx []int64) string {
	switch x := ts.(type) {
	case *tensor.Uint8:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Int32:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Float32:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Float64:
		return fmt.Sprint(x.Value(idx))
	case *tensor.Date32:
		return x.Value(idx).FormattedString()
	}
	return fmt.Sprintf("%T", ts)
}

func TestConvertToArrowTensorNullsAndErrors(t *testing.T) {
	mem := convCheckedMem(t)
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.AppendValues([]float64{0, 1, 2, 3, 4, 5, 6, 7}, []bool{true, false, true, true, true, true, true, false})
	vals := b.NewFloat64Array()
	defer vals.Release()

	// Nulls outside the view do not matter.
	ts, err := ToArrowTensor(Tensor{Values: vals, Offset: 2, Shape: []int{2, 2}, Strides: []int{2, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.(*tensor.Float64).Float64Values(); !reflect.DeepEqual(got, []float64{2, 3, 4, 5}) {
		t.Errorf("values %v", got)
	}
	ts.Release()
	_, err = ToArrowTensor(Tensor{Values: vals, Offset: 0, Shape: []int{2, 2}, Strides: []int{4, 1}})
	if err == nil || err.Error() != "tensorext: element at index [0,1] is null; arrow-go tensors cannot hold nulls" {
		t.Errorf("null element: %v", err)
	}
	// A view with a negative stride is copied into a row-major tensor.
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 6, Shape: []int{2, 2}, Strides: []int{-2, -1}, DimNames: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := ts.(*tensor.Float64); !reflect.DeepEqual(got.Float64Values(), []float64{6, 5, 4, 3}) || !got.IsRowMajor() ||
		!reflect.DeepEqual(got.Strides(), []int64{16, 8}) || got.Value([]int64{1, 0}) != 4 || got.DimName(1) != "b" {
		t.Errorf("negative strides: values %v strides %v", got.Float64Values(), got.Strides())
	}
	ts.Release()
	// 0-D and empty views.
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 5})
	if err != nil || ts.Len() != 1 || ts.(*tensor.Float64).Value(nil) != 5 {
		t.Errorf("0-D: %v", err)
	}
	ts.Release()
	ts, err = ToArrowTensor(Tensor{Values: vals, Offset: 8, Shape: []int{0, 2}, Strides: []int{2, 1}})
	if err != nil || ts.Len() != 0 || ts.Data().Len() != 0 {
		t.Errorf("empty: %v", err)
	}
	ts.Release()

	for _, dt := range []arrow.DataType{arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Boolean} {
		a := array.MakeArrayOfNull(mem, dt, 4)
		_, err := ToArrowTensor(Tensor{Values: a, Shape: []int{4}, Strides: []int{1}})
		if want := "tensorext: arrow-go tensors do not support value type " + dt.String(); err == nil || err.Error() != want {
			t.Errorf("%s: %v", dt, err)
		}
		a.Release()
	}
}

func TestConvertAppendArrowTensor(t *testing.T) {
	mem := convCheckedMem(t)
	fb := array.NewFloat32Builder(mem)
	defer fb.Release()
	fb.AppendValues([]float32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	data := fb.NewFloat32Array()
	defer data.Release()
	sliced := array.NewSlice(data, 2, 8) // 2..7
	defer sliced.Release()

	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, []int{1, 0}, []string{"r", "c"})
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()

	rowMajor := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, nil, nil)
	defer rowMajor.Release()
	colMajor := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{4, 8}, nil) // element (i,j) = 2+i+2j
	defer colMajor.Release()
	strided := tensor.NewFloat32(data.Data(), []int64{2, 3}, []int64{4, 8}, nil)
	defer strided.Release()
	logical := tensor.NewFloat32(sliced.Data(), []int64{3, 2}, nil, nil) // logical [3,2] -> physical [2,3]
	defer logical.Release()

	for _, src := range []tensor.Interface{rowMajor, colMajor, strided} {
		if err := b.AppendArrowTensor(src); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AppendLogicalArrowTensor(logical); err != nil {
		t.Fatal(err)
	}
	b.AppendNull()
	// Errors append nothing.
	wrongShape := tensor.NewFloat32(sliced.Data(), []int64{3, 2}, nil, nil)
	defer wrongShape.Release()
	if err := b.AppendArrowTensor(wrongShape); err == nil || err.Error() != "tensorext: tensor shape [3,2] does not match the physical shape [2,3]" {
		t.Errorf("shape: %v", err)
	}
	if err := b.AppendLogicalArrowTensor(rowMajor); err == nil || err.Error() != "tensorext: tensor shape [2,3] does not match the logical shape [3,2]" {
		t.Errorf("logical shape: %v", err)
	}
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{1, 2, 3, 4, 5, 6}, nil)
	ints := ib.NewInt32Array()
	ib.Release()
	defer ints.Release()
	it := tensor.NewInt32(ints.Data(), []int64{2, 3}, nil, nil)
	defer it.Release()
	if err := b.AppendArrowTensor(it); err == nil || err.Error() != "tensorext: cannot append a tensor of int32 to a tensor column of float32" {
		t.Errorf("type: %v", err)
	}
	tooLong := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{16, 4}, nil)
	defer tooLong.Release()
	if err := b.AppendArrowTensor(tooLong); err == nil || !strings.Contains(err.Error(), "view reads positions [0, 6] of a values array of length 6") {
		t.Errorf("extent: %v", err)
	}
	odd := tensor.NewFloat32(sliced.Data(), []int64{2, 3}, []int64{12, 2}, nil)
	defer odd.Release()
	if err := b.AppendArrowTensor(odd); err == nil || !strings.Contains(err.Error(), "stride 2 is not a non-negative multiple of the 4-byte element size") {
		t.Errorf("odd stride: %v", err)
	}

	// Nulls in an arrow tensor's data are kept.
	nb := array.NewFloat32Builder(mem)
	nb.AppendValues([]float32{1, 2, 3, 4, 5, 6}, []bool{true, true, false, true, true, true})
	withNull := nb.NewFloat32Array()
	nb.Release()
	defer withNull.Release()
	nt := tensor.NewFloat32(withNull.Data(), []int64{2, 3}, []int64{4, 8}, nil) // column-major
	defer nt.Release()
	if err := b.AppendArrowTensor(nt); err != nil {
		t.Fatal(err)
	}

	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	if got := arr.ValueStr(5); got != "[[1 (null) 5] [2 4 6]]" {
		t.Errorf("row with a null = %s", got)
	}
	if arr.Len() != 6 || !arr.IsNull(4) {
		t.Fatalf("len %d", arr.Len())
	}
	want := [][]float32{
		{2, 3, 4, 5, 6, 7}, // row-major as is
		{2, 4, 6, 3, 5, 7}, // column-major read in row-major index order
		{0, 2, 4, 1, 3, 5}, // strided over the unsliced data
		{2, 4, 6, 3, 5, 7}, // logical [[2 3] [4 5] [6 7]] transposed to physical
	}
	for r, w := range want {
		tt := convTensor(t, arr, r)
		vals := tt.Values.(*array.Float32).Float32Values()[tt.Offset : tt.Offset+6]
		if !reflect.DeepEqual(vals, w) {
			t.Errorf("row %d = %v, want %v", r, vals, w)
		}
	}
	// The logical row reads back as the source tensor.
	lt, err := ToArrowTensor(convTensor(t, arr, 3).Logical())
	if err != nil {
		t.Fatal(err)
	}
	defer lt.Release()
	for i := int64(0); i < 3; i++ {
		for j := int64(0); j < 2; j++ {
			if g, w := lt.(*tensor.Float32).Value([]int64{i, j}), logical.Value([]int64{i, j}); g != w {
				t.Errorf("logical (%d,%d) = %v, want %v", i, j, g, w)
			}
		}
	}
}

// Round trip of every permutation: ToArrowTensor(row.Logical()) appended
// with AppendLogicalArrowTensor, ToArrowTensor(row) with AppendArrowTensor.
func TestConvertArrowTensorRoundTrip(t *testing.T) {
	mem := convCheckedMem(t)
	for _, perm := range convPerms3 {
		for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64} {
			arr := convBuildFixed(t, mem, dt, []int{2, 3, 4}, perm, nil, 2, -1, 0)
			typ := arr.TensorType()
			b := NewFixedShapeTensorBuilder(mem, typ)
			for r := 0; r < 2; r++ {
				tt := convTensor(t, arr, r)
				lt, err := ToArrowTensor(tt.Logical())
				if err != nil {
					t.Fatal(err)
				}
				if err := b.AppendLogicalArrowTensor(lt); err != nil {
					t.Fatal(err)
				}
				lt.Release()
				pt, err := ToArrowTensor(tt)
				if err != nil {
					t.Fatal(err)
				}
				if err := b.AppendArrowTensor(pt); err != nil {
					t.Fatal(err)
				}
				pt.Release()
			}
			got := b.NewFixedShapeTensorArray()
			for r := 0; r < 4; r++ {
				if g, w := got.ValueStr(r), arr.ValueStr(r/2); g != w {
					t.Errorf("perm %v %s row %d: %s, want %s", perm, dt, r, g, w)
				}
			}
			got.Release()
			b.Release()
			arr.Release()
		}
	}
}

func TestConvertVariableAppendArrowTensor(t *testing.T) {
	mem := convCheckedMem(t)
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{10, 11, 12, 13, 14, 15}, nil)
	ints := ib.NewInt32Array()
	ib.Release()
	defer ints.Release()

	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int32, 2, []int{1, 0}, nil, []int{VaryingDim, 3})
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	a := tensor.NewInt32(ints.Data(), []int64{2, 3}, []int64{4, 8}, nil) // column-major
	defer a.Release()
	c := tensor.NewInt32(ints.Data(), []int64{1, 3}, nil, nil)
	defer c.Release()
	l := tensor.NewInt32(ints.Data(), []int64{3, 2}, nil, nil) // logical [3,2] -> physical [2,3]
	defer l.Release()
	for _, src := range []tensor.Interface{a, c} {
		if err := b.AppendArrowTensor(src); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AppendLogicalArrowTensor(l); err != nil {
		t.Fatal(err)
	}
	if err := b.AppendArrowTensor(l); err == nil || err.Error() != "tensorext: physical shape [3,2] does not match uniform_shape in dimension 1" {
		t.Errorf("uniform: %v", err)
	}
	v1 := tensor.NewInt32(ints.Data(), []int64{6}, nil, nil)
	defer v1.Release()
	if err := b.AppendArrowTensor(v1); err == nil || err.Error() != "tensorext: tensor shape [6] must have 2 dimensions" {
		t.Errorf("ndim: %v", err)
	}
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()
	if err := arr.ValidateFull(); err != nil {
		t.Fatal(err)
	}
	if arr.Len() != 3 {
		t.Fatalf("len %d", arr.Len())
	}
	want := []struct {
		shape []int
		vals  []int32
	}{
		{[]int{2, 3}, []int32{10, 12, 14, 11, 13, 15}},
		{[]int{1, 3}, []int32{10, 11, 12}},
		{[]int{2, 3}, []int32{10, 12, 14, 11, 13, 15}},
	}
	for r, w := range want {
		tt := convTensor(t, arr, r)
		vals := tt.Values.(*array.Int32).Int32Values()[tt.Offset : tt.Offset+tt.Len()]
		if !reflect.DeepEqual(tt.Shape, w.shape) || !reflect.DeepEqual(vals, w.vals) {
			t.Errorf("row %d: shape %v values %v, want %v %v", r, tt.Shape, vals, w.shape, w.vals)
		}
	}
	// Row 2's logical view is l.
	if got := convTensor(t, arr, 2).Logical().String(); got != "[[10 11] [12 13] [14 15]]" {
		t.Errorf("logical row 2 = %s", got)
	}
}
