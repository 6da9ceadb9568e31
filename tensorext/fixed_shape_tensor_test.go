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

func TestSpecPermutationExample(t *testing.T) {
	typ, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int32, []int{2, 2, 3}, []int{2, 0, 1}, []string{"A", "B", "C"})
	if err != nil {
		t.Fatal(err)
	}
	b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	if err := b.AppendTensor(seq(1, 12)); err != nil {
		t.Fatal(err)
	}
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	tt, err := arr.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	if got := tt.LogicalShape(); !reflect.DeepEqual(got, []int{3, 2, 2}) {
		t.Errorf("logical shape %v, want [3 2 2]", got)
	}
	if got := tt.LogicalStrides(); !reflect.DeepEqual(got, []int{1, 6, 3}) {
		t.Errorf("logical strides %v, want [1 6 3]", got)
	}
	if got := tt.LogicalDimNames(); !reflect.DeepEqual(got, []string{"C", "A", "B"}) {
		t.Errorf("logical dim names %v", got)
	}
	want := strs(1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12)
	if got := logicalValues(t, tt); !reflect.DeepEqual(got, want) {
		t.Errorf("logical values %v, want %v", got, want)
	}
	// Element access by logical index: logical (2,1,0) is physical (1,0,2) = 1*6+0*3+2 = 8 -> value 9.
	pos, ok := tt.Logical().Pos(2, 1, 0)
	if !ok || tt.ValueStr(pos) != "9" {
		t.Errorf("logical (2,1,0) = %q ok=%v, want 9", tt.ValueStr(pos), ok)
	}
	if _, ok := tt.Logical().Pos(3, 0, 0); ok {
		t.Error("out-of-range index accepted")
	}
	if s := typ.Serialize(); s != `{"shape":[2,2,3],"permutation":[2,0,1],"dim_names":["A","B","C"]}` {
		t.Errorf("Serialize = %s", s)
	}
}

func TestEveryPermutation3D(t *testing.T) {
	shape := []int{2, 3, 4}
	vals := make([]int, 24)
	for i := range vals {
		vals[i] = i * 10
	}
	perms := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, perm := range perms {
		typ, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Int64, shape, perm, nil)
		if err != nil {
			t.Fatal(err)
		}
		b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		v64 := make([]int64, 24)
		for i, v := range vals {
			v64[i] = int64(v)
		}
		b.AppendNull()
		if err := b.AppendTensor(v64); err != nil {
			t.Fatal(err)
		}
		arr := b.NewFixedShapeTensorArray()
		b.Release()
		// Slice past the null row so the view must honour the array offset.
		sl := array.NewSlice(arr, 1, 2).(*FixedShapeTensorArray)
		tt, err := sl.Tensor(0)
		if err != nil {
			t.Fatal(err)
		}
		want := strs(transpose(vals, shape, perm)...)
		if got := logicalValues(t, tt); !reflect.DeepEqual(got, want) {
			t.Errorf("perm %v: logical values %v, want %v", perm, got, want)
		}
		if _, err := arr.Tensor(0); !errors.Is(err, ErrNullTensor) {
			t.Errorf("null row: err %v", err)
		}
		sl.Release()
		arr.Release()
	}
}

func TestFixedShapeDeserialize(t *testing.T) {
	fsl := func(n int32) arrow.DataType { return arrow.FixedSizeListOf(n, arrow.PrimitiveTypes.Float32) }
	cases := []struct {
		name, meta string
		storage    arrow.DataType
		shape      []int
		perm       []int
		names      []string
		err        string
	}{
		{"cpp", `{"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}`, fsl(6), []int{2, 3}, []int{1, 0}, []string{"H", "W"}, ""},
		{"arrow-rs nulls", `{"shape":[2,2],"dim_names":null,"permutations":null}`, fsl(4), []int{2, 2}, nil, nil, ""},
		{"arrow-rs permutations", `{"shape":[2,2],"dim_names":null,"permutations":[1,0]}`, fsl(4), []int{2, 2}, []int{1, 0}, nil, ""},
		{"unknown key", `{"shape":[4],"extra":{"a":1}}`, fsl(4), []int{4}, nil, nil, ""},
		{"0-D", `{"shape":[]}`, fsl(1), []int{}, nil, nil, ""},
		{"product mismatch", `{"shape":[3,3]}`, fsl(12), nil, nil, nil, "Product of shape dimensions (9) does not match FixedSizeList size (12)"},
		{"negative", `{"shape":[-1,4]}`, fsl(4), nil, nil, nil, "shape must have non-negative values, got -1"},
		{"bad perm", `{"shape":[2,2],"permutation":[0,0]}`, fsl(4), nil, nil, nil, "Permutation indices for 2 dimensional tensors must be unique and within [0, 1] range. Got: [0,0]"},
		{"names length", `{"shape":[2,2],"dim_names":["x"]}`, fsl(4), nil, nil, nil, "dim_names size must match shape size. Expected: 2 Got: 1"},
		{"no shape", `{}`, fsl(4), nil, nil, nil, `extension metadata has no "shape"`},
		{"empty", ``, fsl(4), nil, nil, nil, `extension metadata has no "shape"`},
		{"not json", `{"shape":[2,`, fsl(4), nil, nil, nil, "extension metadata is not a JSON object"},
		{"float shape", `{"shape":[2.5]}`, fsl(4), nil, nil, nil, "shape must be an array of integers, got 2.5"},
		{"storage", `{"shape":[4]}`, arrow.PrimitiveTypes.Int32, nil, nil, nil, "storage type must be FixedSizeList, got int32"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			et, err := (&FixedShapeTensorType{}).Deserialize(c.storage, c.meta)
			if err != nil {
				t.Fatalf("Deserialize must not fail, got %v", err)
			}
			typ := et.(*FixedShapeTensorType)
			verr := typ.Validate()
			if c.err != "" {
				if verr == nil || !strings.Contains(verr.Error(), c.err) {
					t.Fatalf("Validate = %v, want %q", verr, c.err)
				}
				return
			}
			if verr != nil {
				t.Fatalf("Validate = %v", verr)
			}
			if !reflect.DeepEqual(typ.Shape(), c.shape) || !reflect.DeepEqual(typ.Permutation(), c.perm) || !reflect.DeepEqual(typ.DimNames(), c.names) {
				t.Errorf("got shape %v perm %v names %v", typ.Shape(), typ.Permutation(), typ.DimNames())
			}
		})
	}
}

func TestExtensionEqualsIdentityPermutation(t *testing.T) {
	a, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2}, nil, nil)
	b, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2}, []int{0, 1}, nil)
	c, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2}, []int{1, 0}, nil)
	if !a.ExtensionEquals(b) || !b.ExtensionEquals(a) {
		t.Error("identity permutation should equal absent")
	}
	if a.ExtensionEquals(c) {
		t.Error("[1,0] should differ from absent")
	}
	if got := a.String(); got != "extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[2,2]]>" {
		t.Errorf("String = %s", got)
	}
}

func TestConstructorErrors(t *testing.T) {
	if _, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, -1}, nil, nil); err == nil {
		t.Error("negative dimension accepted")
	}
	if _, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{0, 3}, nil, nil); err == nil {
		t.Error("zero-size shape accepted (arrow-go would panic)")
	}
	if _, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2}, []int{0, 2}, nil); err == nil {
		t.Error("bad permutation accepted")
	}
	if _, err := NewVariableShapeTensorType(arrow.PrimitiveTypes.Uint8, 2, nil, []string{"a"}, nil); err == nil {
		t.Error("short dim_names accepted")
	}
	if _, err := NewVariableShapeTensorType(arrow.PrimitiveTypes.Uint8, 2, nil, nil, []int{3}); err == nil {
		t.Error("short uniform_shape accepted")
	}
	typ, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 2}, nil, nil)
	b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	if err := b.AppendTensor([]uint8{1, 2, 3}); err == nil || err.Error() != "tensorext: Expected data array of length 4, got 3" {
		t.Errorf("short row: %v", err)
	}
	if err := b.AppendTensor([]int8{1, 2, 3, 4}); err == nil {
		t.Error("wrong Go type accepted")
	}
	if b.Len() != 0 {
		t.Errorf("failed appends left %d rows", b.Len())
	}
}
