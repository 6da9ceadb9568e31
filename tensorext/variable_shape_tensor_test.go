package tensorext

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func buildVariable(t *testing.T) *VariableShapeTensorArray {
	t.Helper()
	typ, err := NewVariableShapeTensorType(arrow.PrimitiveTypes.Float64, 3, []int{2, 0, 1}, []string{"H", "W", "C"}, []int{VaryingDim, VaryingDim, 3})
	if err != nil {
		t.Fatal(err)
	}
	b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	f := func(from, n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(from + i)
		}
		return v
	}
	for _, r := range []struct {
		shape []int
		vals  []float64
	}{{[]int{2, 2, 3}, f(1, 12)}, {nil, nil}, {[]int{1, 1, 3}, f(100, 3)}, {[]int{0, 5, 3}, f(0, 0)}} {
		if r.shape == nil {
			b.AppendNull()
			continue
		}
		if err := b.AppendTensor(r.shape, r.vals); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AppendTensor([]int{1, 1, 2}, f(0, 2)); err == nil {
		t.Error("row against uniform_shape accepted")
	}
	return b.NewVariableShapeTensorArray()
}

func TestVariableShape(t *testing.T) {
	arr := buildVariable(t)
	defer arr.Release()
	if err := arr.ValidateFull(); err != nil {
		t.Fatal(err)
	}
	tt, err := arr.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tt.Shape, []int{2, 2, 3}) || !reflect.DeepEqual(tt.LogicalShape(), []int{3, 2, 2}) {
		t.Errorf("shape %v logical %v", tt.Shape, tt.LogicalShape())
	}
	if got, want := logicalValues(t, tt), strs(1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12); !reflect.DeepEqual(got, want) {
		t.Errorf("logical values %v", got)
	}
	if _, err := arr.Tensor(1); !errors.Is(err, ErrNullTensor) {
		t.Errorf("null row err %v", err)
	}
	// Sliced struct: row 2 becomes row 0.
	sl := array.NewSlice(arr, 2, 4).(*VariableShapeTensorArray)
	defer sl.Release()
	tt, err = sl.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := logicalValues(t, tt); !reflect.DeepEqual(got, strs(100, 101, 102)) {
		t.Errorf("sliced row values %v", got)
	}
	tt, err = sl.Tensor(1)
	if err != nil || tt.Len() != 0 || !reflect.DeepEqual(tt.Shape, []int{0, 5, 3}) {
		t.Errorf("empty row: %v %v", tt.Shape, err)
	}
	typ := arr.TensorType()
	if s := typ.Serialize(); s != `{"permutation":[2,0,1],"dim_names":["H","W","C"],"uniform_shape":[null,null,3]}` {
		t.Errorf("Serialize = %s", s)
	}
}

func TestVariableShapeDeserialize(t *testing.T) {
	storage := func(shapeElem arrow.DataType) arrow.DataType {
		return arrow.StructOf(
			arrow.Field{Name: "data", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
			arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, shapeElem), Nullable: true})
	}
	i32 := storage(arrow.PrimitiveTypes.Int32)
	cases := []struct{ name, meta, err string }{
		{"empty string", ``, ""},
		{"empty object", `{}`, ""},
		{"full", `{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[null,4]}`, ""},
		{"arrow-rs", `{"dim_names":null,"permutations":null,"uniform_shape":null}`, ""},
		{"draft ndim", `{"ndim":2,"dim_names":["H","W"]}`, ""},
		{"draft ragged", `{"dim_names":["H","W"],"ragged_dimensions":[1]}`, ""},
		{"draft ndim mismatch", `{"ndim":3}`, "ndim (3) does not match shape FixedSizeList size (2)"},
		{"bad uniform", `{"uniform_shape":[1]}`, "uniform_shape size must match ndim. Expected: 2 Got: 1"},
		{"bad perm", `{"permutation":[1,1]}`, "Permutation indices for 2 dimensional tensors must be unique"},
		{"array", `[1,2]`, "extension metadata is not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			et, err := (&VariableShapeTensorType{}).Deserialize(i32, c.meta)
			if err != nil {
				t.Fatal(err)
			}
			verr := et.(*VariableShapeTensorType).Validate()
			if (c.err == "") != (verr == nil) || (verr != nil && !strings.Contains(verr.Error(), c.err)) {
				t.Fatalf("Validate = %v, want %q", verr, c.err)
			}
		})
	}
	et, _ := (&VariableShapeTensorType{}).Deserialize(storage(arrow.PrimitiveTypes.Uint32), `{}`)
	if err := et.(*VariableShapeTensorType).Validate(); err != nil {
		t.Errorf("draft uint32 shape rejected: %v", err)
	}
	et, _ = (&VariableShapeTensorType{}).Deserialize(arrow.PrimitiveTypes.Int32, `{}`)
	if err := et.(*VariableShapeTensorType).Validate(); err == nil {
		t.Error("int32 storage accepted")
	}
}

func TestVariableShapeBadRows(t *testing.T) {
	typ, _ := NewVariableShapeTensorType(arrow.PrimitiveTypes.Int16, 2, nil, nil, []int{VaryingDim, 2})
	st := typ.StorageType().(*arrow.StructType)
	sb := array.NewStructBuilder(memory.DefaultAllocator, st)
	defer sb.Release()
	data := sb.FieldBuilder(0).(*array.ListBuilder)
	shape := sb.FieldBuilder(1).(*array.FixedSizeListBuilder)
	row := func(vals []int16, dims ...int32) {
		sb.Append(true)
		data.Append(true)
		data.ValueBuilder().(*array.Int16Builder).AppendValues(vals, nil)
		shape.Append(true)
		shape.ValueBuilder().(*array.Int32Builder).AppendValues(dims, nil)
	}
	row([]int16{1, 2, 3, 4}, 2, 2)
	row([]int16{1, 2, 3}, 2, 2)
	row([]int16{1, 2}, -1, 2)
	row([]int16{1, 2, 3}, 1, 3)
	storage := sb.NewArray()
	defer storage.Release()
	arr := array.NewExtensionArrayWithStorage(typ, storage).(*VariableShapeTensorArray)
	defer arr.Release()
	for i, want := range []string{"", "row 1: Expected data array of length 4, got 3", "row 2: shape must have non-negative values, got -1", ""} {
		_, err := arr.Tensor(i)
		if (want == "") != (err == nil) || (err != nil && err.Error() != want) {
			t.Errorf("row %d: err %v, want %q", i, err, want)
		}
	}
	one := array.NewSlice(arr, 3, 4).(*VariableShapeTensorArray)
	defer one.Release()
	if err := one.ValidateFull(); err == nil || err.Error() != "row 0: shape [1,3] does not match uniform_shape [null,2] in dimension 1" {
		t.Errorf("ValidateFull = %v", err)
	}
}
