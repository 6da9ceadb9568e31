package tensorext

// Tests of fixedvariable.go.

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

func TestFixedToVariableRoundTrip(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Int32, arrow.FixedWidthTypes.Float16,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := convCheckedMem(t)
			arr := convBuildFixed(t, mem, dt, []int{2, 3}, []int{1, 0}, []string{"H", "W"}, 5, 2, 4)
			defer arr.Release()
			sl := array.NewSlice(arr, 1, 5).(*FixedShapeTensorArray) // rows 1, null, 3, 4
			defer sl.Release()
			v, err := FixedToVariable(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Release()
			vt := v.TensorType()
			if vt.NDim() != 2 || !reflect.DeepEqual(vt.Permutation(), []int{1, 0}) || !reflect.DeepEqual(vt.DimNames(), []string{"H", "W"}) ||
				!reflect.DeepEqual(vt.UniformShape(), []int{2, 3}) || !arrow.TypeEqual(vt.ValueType(), dt) {
				t.Errorf("type %s", vt)
			}
			if s := vt.Serialize(); s != `{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[2,3]}` {
				t.Errorf("metadata %s", s)
			}
			if err := v.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			if v.Len() != 4 || v.NullN() != 1 || !v.IsNull(1) {
				t.Fatalf("len %d nulls %d", v.Len(), v.NullN())
			}
			for r := 0; r < 4; r++ {
				if g, w := v.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("row %d: %s, want %s", r, g, w)
				}
				if r != 1 {
					vv, fv := convTensor(t, v, r), convTensor(t, sl, r)
					if !reflect.DeepEqual(vv.Shape, []int{2, 3}) || vv.Logical().String() != fv.Logical().String() {
						t.Errorf("row %d: shape %v logical %s", r, vv.Shape, vv.Logical())
					}
				}
			}
			// The values are shared.
			st := v.Storage().(*array.Struct).Field(0).(*array.List)
			if st.ListValues().Data().Buffers()[1] != sl.Storage().(*array.FixedSizeList).ListValues().Data().Buffers()[1] {
				t.Error("values copied")
			}

			back, err := VariableToFixed(mem, v)
			if err != nil {
				t.Fatal(err)
			}
			defer back.Release()
			if !back.TensorType().ExtensionEquals(sl.TensorType()) {
				t.Errorf("type %s, want %s", back.DataType(), sl.DataType())
			}
			if back.Len() != 4 || !back.IsNull(1) || back.NullN() != 1 {
				t.Fatalf("len %d", back.Len())
			}
			for r := 0; r < 4; r++ {
				if g, w := back.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("back row %d: %s, want %s", r, g, w)
				}
			}
			if err := back.ValidateFull(); err != nil {
				t.Error(err)
			}
			// Back to back rows: shared again.
			if back.Storage().(*array.FixedSizeList).ListValues().Data().Buffers()[1] != st.ListValues().Data().Buffers()[1] {
				t.Error("values copied on the way back")
			}
		})
	}
}

// VariableToFixed copies when rows are not back to back (the builder gives
// null rows empty lists).
func TestVariableToFixedCopy(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int32, 2, []int{1, 0}, []string{"a", "b"}, nil)
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	_ = b.AppendTensor([]int{1, 2}, []int32{-1, -2})
	_ = b.AppendTensor([]int{2, 2}, []int32{1, 2, 3, 4})
	b.AppendNull()
	_ = b.AppendTensor([]int{2, 2}, []int32{5, 6, 7, 8})
	_ = b.AppendTensor([]int{2, 3}, []int32{0, 0, 0, 0, 0, 0})
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()

	if _, err := VariableToFixed(mem, arr); err == nil || err.Error() != "tensorext: row 1 has shape [2,2], unlike row 0's shape [1,2]; a fixed shape tensor needs one shape" {
		t.Errorf("mismatch: %v", err)
	}
	sl := array.NewSlice(arr, 1, 5).(*VariableShapeTensorArray)
	defer sl.Release()
	if _, err := VariableToFixed(mem, sl); err == nil || err.Error() != "tensorext: row 3 has shape [2,3], unlike row 0's shape [2,2]; a fixed shape tensor needs one shape" {
		t.Errorf("mismatch in slice: %v", err)
	}
	sl3 := array.NewSlice(arr, 1, 4).(*VariableShapeTensorArray)
	defer sl3.Release()
	f, err := VariableToFixed(mem, sl3)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	ft := f.TensorType()
	if !reflect.DeepEqual(ft.Shape(), []int{2, 2}) || !reflect.DeepEqual(ft.Permutation(), []int{1, 0}) || !reflect.DeepEqual(ft.DimNames(), []string{"a", "b"}) {
		t.Errorf("type %s", ft)
	}
	fsl := f.Storage().(*array.FixedSizeList)
	if got := fsl.ListValues().(*array.Int32).Int32Values(); !reflect.DeepEqual(got, []int32{1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8}) {
		t.Errorf("values %v", got)
	}
	if f.NullN() != 1 || !f.IsNull(1) || f.ValueStr(2) != "[[5 6] [7 8]]" {
		t.Errorf("rows %s", f)
	}
	if err := f.ValidateFull(); err != nil {
		t.Error(err)
	}
}

// The copy path of VariableToFixed for several value types, with null
// elements and a null row (whose slots are filled).
func TestVariableToFixedCopyTypes(t *testing.T) {
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Uint8, arrow.FixedWidthTypes.Boolean, arrow.FixedWidthTypes.Float16,
		&arrow.FixedSizeBinaryType{ByteWidth: 5}, &arrow.Decimal128Type{Precision: 20, Scale: 2}, arrow.BinaryTypes.String} {
		t.Run(dt.String(), func(t *testing.T) {
			mem := convCheckedMem(t)
			vtyp, err := NewVariableShapeTensorType(dt, 2, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			sb := array.NewStructBuilder(mem, vtyp.StorageType().(*arrow.StructType))
			defer sb.Release()
			data := sb.FieldBuilder(0).(*array.ListBuilder)
			shape := sb.FieldBuilder(1).(*array.FixedSizeListBuilder)
			k := 0
			for r := 0; r < 4; r++ {
				if r == 2 {
					sb.AppendNull()
					continue
				}
				sb.Append(true)
				data.Append(true)
				for e := 0; e < 6; e++ {
					if k%4 == 1 {
						data.ValueBuilder().AppendNull()
					} else {
						convAppendElem(data.ValueBuilder(), k)
					}
					k++
				}
				shape.Append(true)
				shape.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{3, 2}, nil)
			}
			storage := sb.NewArray()
			defer storage.Release()
			varr := array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray)
			defer varr.Release()
			sl := array.NewSlice(varr, 1, 4).(*VariableShapeTensorArray)
			defer sl.Release()
			f, err := VariableToFixed(mem, sl)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Release()
			if err := f.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.TensorType().Shape(), []int{3, 2}) || f.Len() != 3 || !f.IsNull(1) {
				t.Fatalf("got %s len %d", f.DataType(), f.Len())
			}
			for r := 0; r < 3; r++ {
				if g, w := f.ValueStr(r), sl.ValueStr(r); g != w {
					t.Errorf("row %d: %s, want %s", r, g, w)
				}
			}
			vals := f.Storage().(*array.FixedSizeList).ListValues()
			if vals.Len() != 18 {
				t.Fatalf("values length %d", vals.Len())
			}
			// Element nulls survive: the slice's first row holds elements
			// k = 6..11, null when k%4 == 1 (k = 9, its element 3).
			for e := 0; e < 6; e++ {
				if got, want := vals.IsNull(e), (6+e)%4 == 1; got != want {
					t.Errorf("element %d null = %v, want %v", e, got, want)
				}
			}
		})
	}
}

func TestVariableToFixedShapeFromUniform(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, []int{2, 2})
	b := NewVariableShapeTensorBuilder(mem, typ)
	defer b.Release()
	b.AppendNull()
	b.AppendNull()
	arr := b.NewVariableShapeTensorArray()
	defer arr.Release()
	f, err := VariableToFixed(mem, arr)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.TensorType().Shape(), []int{2, 2}) || f.NullN() != 2 || f.Storage().(*array.FixedSizeList).ListValues().Len() != 8 {
		t.Errorf("got %s", f.DataType())
	}
	f.Release()
	empty := array.NewSlice(arr, 0, 0).(*VariableShapeTensorArray)
	defer empty.Release()
	f, err = VariableToFixed(mem, empty)
	if err != nil || f.Len() != 0 {
		t.Fatalf("empty: %v", err)
	}
	f.Release()

	typ2, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float32, 2, nil, nil, []int{2, VaryingDim})
	b2 := NewVariableShapeTensorBuilder(mem, typ2)
	defer b2.Release()
	b2.AppendNull()
	arr2 := b2.NewVariableShapeTensorArray()
	defer arr2.Release()
	if _, err := VariableToFixed(mem, arr2); err == nil || !strings.Contains(err.Error(), "cannot infer the shape") {
		t.Errorf("all null, varying: %v", err)
	}
}

func TestFixedToVariableErrors(t *testing.T) {
	mem := convCheckedMem(t)
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int8, []int{}, nil, nil)
	b := NewFixedShapeTensorBuilder(mem, typ)
	defer b.Release()
	_ = b.AppendTensor([]int8{3})
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	if _, err := FixedToVariable(mem, arr); err == nil || !strings.Contains(err.Error(), "0-D") {
		t.Errorf("0-D: %v", err)
	}
	// A row that is broken in the variable array is reported with its index.
	vtyp, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int16, 1, nil, nil, nil)
	sb := array.NewStructBuilder(mem, vtyp.StorageType().(*arrow.StructType))
	defer sb.Release()
	data := sb.FieldBuilder(0).(*array.ListBuilder)
	shape := sb.FieldBuilder(1).(*array.FixedSizeListBuilder)
	sb.Append(true)
	data.Append(true)
	data.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{1, 2}, nil)
	shape.Append(true)
	shape.ValueBuilder().(*array.Int32Builder).Append(3)
	storage := sb.NewArray()
	defer storage.Release()
	varr := array.NewExtensionArrayWithStorage(vtyp, storage).(*VariableShapeTensorArray)
	defer varr.Release()
	if _, err := VariableToFixed(mem, varr); err == nil || err.Error() != "row 0: Expected data array of length 3, got 2" {
		t.Errorf("broken row: %v", err)
	}
}
