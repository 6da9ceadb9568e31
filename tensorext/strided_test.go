package tensorext

// Tests of strided.go.

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// convReadLogical checks that arr's row 0 reads back, through its logical view,
// as the strided input tensor, element by element.
func convReadLogical[T Element](t *testing.T, arr *FixedShapeTensorArray, values []T, shape, strides []int) {
	t.Helper()
	lv := convTensor(t, arr, 0).Logical()
	if !reflect.DeepEqual(lv.Shape, shape) {
		t.Fatalf("logical shape %v, want %v", lv.Shape, shape)
	}
	n, _ := product(shape)
	for k := 0; k < n; k++ {
		idx := unravel(k, shape)
		src := 0
		for i, x := range idx {
			src += x * strides[i]
		}
		pos, ok := lv.Pos(idx...)
		if !ok {
			t.Fatalf("Pos%v failed", idx)
		}
		if got, want := lv.ValueStr(pos), fmt.Sprint(values[src]); got != want {
			t.Fatalf("logical %v = %s, want %s", idx, got, want)
		}
	}
}

func TestFromStrided3Cycle(t *testing.T) {
	// B: C-contiguous [2,3,4] (strides [12,4,1]), values 0..23, dims N,H,W.
	// X = numpy.transpose(B, (2,0,1)): shape [4,2,3], strides [1,12,4], dims W,N,H.
	buf := make([]float32, 24)
	for i := range buf {
		buf[i] = float32(i)
	}
	shape, strides, names := []int{4, 2, 3}, []int{1, 12, 4}, []string{"W", "N", "H"}
	r, err := FromStrided(buf, shape, strides, names)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Shape, []int{2, 3, 4}) || !reflect.DeepEqual(r.Permutation, []int{2, 0, 1}) ||
		!reflect.DeepEqual(r.DimNames, []string{"N", "H", "W"}) || !reflect.DeepEqual(r.Values, buf) {
		t.Fatalf("got shape %v permutation %v names %v values %v", r.Shape, r.Permutation, r.DimNames, r.Values)
	}
	mem := convCheckedMem(t)
	arr, err := NewFixedShapeTensorFromStrided(mem, buf, shape, strides, names)
	if err != nil {
		t.Fatal(err)
	}
	defer arr.Release()
	if s := arr.TensorType().Serialize(); s != `{"shape":[2,3,4],"permutation":[2,0,1],"dim_names":["N","H","W"]}` {
		t.Errorf("metadata %s", s)
	}
	convReadLogical(t, arr, buf, shape, strides)
	if got := arr.TensorType().LogicalDimNames(); !reflect.DeepEqual(got, names) {
		t.Errorf("logical names %v", got)
	}
	// Arrow C++'s from_numpy_ndarray would store [1,2,0] (argsort of the
	// strides), whose logical view has the wrong shape.
	cpp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3, 4}, []int{1, 2, 0}, nil)
	if got := cpp.LogicalShape(); reflect.DeepEqual(got, shape) {
		t.Errorf("the inverse permutation should not reproduce X, got %v", got)
	}
}

func TestFromStridedEveryPermutation(t *testing.T) {
	base := make([]int32, 24)
	for i := range base {
		base[i] = int32(100 + i)
	}
	bshape, bstrides := []int{2, 3, 4}, []int{12, 4, 1}
	mem := convCheckedMem(t)
	for _, perm := range convPerms3 {
		// X = numpy.transpose(B, perm)
		shape := []int{bshape[perm[0]], bshape[perm[1]], bshape[perm[2]]}
		strides := []int{bstrides[perm[0]], bstrides[perm[1]], bstrides[perm[2]]}
		r, err := FromStrided(base, shape, strides, nil)
		if err != nil {
			t.Fatal(err)
		}
		wantPerm := perm
		if isIdentity(perm) {
			wantPerm = nil
		}
		if !reflect.DeepEqual(r.Permutation, wantPerm) || !reflect.DeepEqual(r.Shape, bshape) || !reflect.DeepEqual(r.Values, base) {
			t.Errorf("perm %v: got shape %v permutation %v", perm, r.Shape, r.Permutation)
		}
		arr, err := NewFixedShapeTensorFromStrided(mem, base, shape, strides, nil)
		if err != nil {
			t.Fatal(err)
		}
		convReadLogical(t, arr, base, shape, strides)
		// And the logical copy equals the reference transpose of B.
		out, err := CopyContiguous(mem, convTensor(t, arr, 0).Logical())
		if err != nil {
			t.Fatal(err)
		}
		for m, p := range convRefTranspose(bshape, perm) {
			if got := out.(*array.Int32).Value(m); got != base[p] {
				t.Fatalf("perm %v: element %d = %d, want %d", perm, m, got, base[p])
			}
		}
		out.Release()
		arr.Release()
	}
}

func TestFromStridedLayouts(t *testing.T) {
	seq8 := func(n int) []uint8 {
		v := make([]uint8, n)
		for i := range v {
			v[i] = uint8(i)
		}
		return v
	}
	cases := []struct {
		name             string
		shape, strides   []int
		n                int
		wantShape        []int
		wantPerm         []int
		wantValues       []uint8
		wantErr          string
		dimNames         []string
		wantPhysDimNames []string
	}{
		{name: "column-major", shape: []int{2, 3}, strides: []int{1, 2}, n: 6,
			wantShape: []int{3, 2}, wantPerm: []int{1, 0}, wantValues: []uint8{0, 1, 2, 3, 4, 5},
			dimNames: []string{"r", "c"}, wantPhysDimNames: []string{"c", "r"}},
		{name: "C order", shape: []int{2, 3}, strides: []int{3, 1}, n: 6,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 1, 2, 3, 4, 5}},
		{name: "every other column", shape: []int{2, 3}, strides: []int{12, 2}, n: 24,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 2, 4, 12, 14, 16}},
		{name: "size-1 dims keep their place", shape: []int{2, 1, 3, 1}, strides: []int{3, 77, 1, 0}, n: 6,
			wantShape: []int{2, 1, 3, 1}, wantValues: []uint8{0, 1, 2, 3, 4, 5}},
		{name: "column-major with size-1", shape: []int{3, 1, 4}, strides: []int{1, 99, 3}, n: 12,
			wantShape: []int{4, 3, 1}, wantPerm: []int{1, 2, 0}, wantValues: []uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
		{name: "broadcast", shape: []int{2, 3}, strides: []int{0, 1}, n: 3,
			wantShape: []int{2, 3}, wantValues: []uint8{0, 1, 2, 0, 1, 2}},
		{name: "0-D", shape: []int{}, strides: []int{}, n: 1, wantShape: []int{}, wantValues: []uint8{0}},
		{name: "empty", shape: []int{0, 3}, strides: []int{3, 1}, n: 0, wantShape: []int{0, 3}, wantValues: []uint8{}},
		{name: "negative stride", shape: []int{3}, strides: []int{-1}, n: 3,
			wantErr: "tensorext: stride -1 of dimension 0 is negative"},
		{name: "out of range", shape: []int{2, 3}, strides: []int{3, 1}, n: 5,
			wantErr: "tensorext: shape [2,3] with strides [3,1] reads position 5 of 5 values"},
		{name: "lengths", shape: []int{2, 3}, strides: []int{3}, n: 6, wantErr: "tensorext: 1 strides for 2 dimensions"},
		{name: "names", shape: []int{2, 3}, strides: []int{3, 1}, n: 6, dimNames: []string{"x"},
			wantErr: "tensorext: dim_names size must match shape size. Expected: 2 Got: 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vals := seq8(c.n)
			r, err := FromStrided(vals, c.shape, c.strides, c.dimNames)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Shape, c.wantShape) || !reflect.DeepEqual(r.Permutation, c.wantPerm) ||
				!reflect.DeepEqual(r.Values, c.wantValues) || !reflect.DeepEqual(r.DimNames, c.wantPhysDimNames) {
				t.Fatalf("got shape %v perm %v values %v names %v", r.Shape, r.Permutation, r.Values, r.DimNames)
			}
			if c.n == 0 {
				if _, err := NewFixedShapeTensorFromStrided(nil, vals, c.shape, c.strides, c.dimNames); err == nil {
					t.Error("array of a tensor with no elements accepted")
				}
				return
			}
			arr, err := NewFixedShapeTensorFromStrided(nil, vals, c.shape, c.strides, c.dimNames)
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			convReadLogical(t, arr, vals, c.shape, c.strides)
		})
	}
}

func TestFromStridedValueTypes(t *testing.T) {
	// Column-major [2,3] of several element types.
	shape, strides := []int{2, 3}, []int{1, 2}
	check := func(name string, arr *FixedShapeTensorArray, err error, dt arrow.DataType, want string) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer arr.Release()
		if !arrow.TypeEqual(arr.TensorType().ValueType(), dt) {
			t.Errorf("%s: value type %s", name, arr.TensorType().ValueType())
		}
		if got := convTensor(t, arr, 0).Logical().String(); got != want {
			t.Errorf("%s: logical %s, want %s", name, got, want)
		}
		if got := arr.TensorType().Permutation(); !reflect.DeepEqual(got, []int{1, 0}) {
			t.Errorf("%s: permutation %v", name, got)
		}
	}
	bools := []bool{true, false, false, true, true, false}
	a, err := NewFixedShapeTensorFromStrided(nil, bools, shape, strides, nil)
	check("bool", a, err, arrow.FixedWidthTypes.Boolean, "[[true false true] [false true false]]")
	h := make([]float16.Num, 6)
	for i := range h {
		h[i] = float16.New(float32(i) + 0.5)
	}
	a, err = NewFixedShapeTensorFromStrided(nil, h, shape, strides, nil)
	check("float16", a, err, arrow.FixedWidthTypes.Float16, "[[0.5 2.5 4.5] [1.5 3.5 5.5]]")
	f64 := []float64{-1, -2, -3, -4, -5, -6}
	a, err = NewFixedShapeTensorFromStrided(nil, f64, shape, strides, nil)
	check("float64", a, err, arrow.PrimitiveTypes.Float64, "[[-1 -3 -5] [-2 -4 -6]]")
	i8 := []int8{1, 2, 3, 4, 5, 6}
	a, err = NewFixedShapeTensorFromStrided(nil, i8, shape, strides, nil)
	check("int8", a, err, arrow.PrimitiveTypes.Int8, "[[1 3 5] [2 4 6]]")
}
