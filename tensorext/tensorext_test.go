package tensorext

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func seq(from, n int) []int32 {
	v := make([]int32, n)
	for i := range v {
		v[i] = int32(from + i)
	}
	return v
}

// logicalValues collects a tensor's values in logical row-major order.
func logicalValues(t *testing.T, tt Tensor) []string {
	t.Helper()
	var out []string
	tt.Logical().Positions(func(pos int) bool {
		out = append(out, tt.ValueStr(pos))
		return true
	})
	return out
}

func strs(v ...int) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = fmt.Sprint(x)
	}
	return out
}

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

// transpose is an independent reference: numpy.transpose of a row-major
// array of the given shape by perm, flattened.
func transpose(vals []int, shape, perm []int) []int {
	out := []int{}
	lshape := make([]int, len(perm))
	for i, p := range perm {
		lshape[i] = shape[p]
	}
	for a := 0; a < lshape[0]; a++ {
		for b := 0; b < lshape[1]; b++ {
			for c := 0; c < lshape[2]; c++ {
				phys := make([]int, 3)
				phys[perm[0]], phys[perm[1]], phys[perm[2]] = a, b, c
				out = append(out, vals[(phys[0]*shape[1]+phys[1])*shape[2]+phys[2]])
			}
		}
	}
	return out
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

func TestIPCRoundTrip(t *testing.T) {
	vt := buildVariable(t)
	defer vt.Release()
	ftyp, _ := NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
	fb := NewFixedShapeTensorBuilder(memory.DefaultAllocator, ftyp)
	defer fb.Release()
	for r := 0; r < 4; r++ {
		if r == 2 {
			fb.AppendNull()
			continue
		}
		_ = fb.AppendTensor([]uint8{uint8(r), 1, 2, 3, 4, 5})
	}
	ft := fb.NewFixedShapeTensorArray()
	defer ft.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: ftyp, Nullable: true}, {Name: "v", Type: vt.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ft, vt}, 4)
	defer rec.Release()
	for _, format := range []string{"file", "stream"} {
		var buf bytes.Buffer
		var got arrow.RecordBatch
		if format == "file" {
			w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			w.Close()
			r, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			got, err = r.RecordBatch(0)
			if err != nil {
				t.Fatal(err)
			}
			got.Retain()
			r.Close()
		} else {
			w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
			w.Close()
			r, err := ipc.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Next() {
				t.Fatal(r.Err())
			}
			got = r.RecordBatch()
			got.Retain()
			r.Release()
		}
		if !array.RecordEqual(rec, got) {
			t.Errorf("%s: record differs after round trip", format)
		}
		gf := got.Column(0).(*FixedShapeTensorArray)
		if gf.TensorType().Serialize() != ftyp.Serialize() || !gf.TensorType().ExtensionEquals(ftyp) {
			t.Errorf("%s: type %s", format, gf.DataType())
		}
		gv := got.Column(1).(*VariableShapeTensorArray)
		if s := gv.TensorType().Serialize(); s != vt.TensorType().Serialize() {
			t.Errorf("%s: variable metadata %s", format, s)
		}
		got.Release()
	}
}

func TestFloat16Subnormals(t *testing.T) {
	cases := []struct {
		bits uint16
		want float64
	}{
		{0x0001, math.Ldexp(1, -24)},
		{0x03ff, 1023 * math.Ldexp(1, -24)},
		{0x8001, -math.Ldexp(1, -24)},
		{0x0400, math.Ldexp(1, -14)},
		{0x3c00, 1},
		{0xc000, -2},
		{0x7bff, 65504},
		{0x7c00, math.Inf(1)},
	}
	for _, c := range cases {
		if got := Float16ToFloat64(float16.FromBits(c.bits)); got != c.want {
			t.Errorf("%#04x: %g, want %g", c.bits, got, c.want)
		}
	}
	if !math.IsNaN(Float16ToFloat64(float16.FromBits(0x7e00))) {
		t.Error("0x7e00 is not NaN")
	}
	typ, _ := NewFixedShapeTensorType(arrow.FixedWidthTypes.Float16, []int{2}, nil, nil)
	b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]float16.Num{float16.FromBits(0x0001), float16.FromBits(0x3c00)})
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	tt, _ := arr.Tensor(0)
	if v, _ := tt.Float64(tt.Offset); v != math.Ldexp(1, -24) {
		t.Errorf("Float64 of a subnormal: %g", v)
	}
	if s := tt.String(); s != "[5.9604645e-08 1]" {
		t.Errorf("String = %s", s)
	}
}
