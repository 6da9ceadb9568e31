package dialect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// extField is a field of an unregistered extension type as arrow-go reads
// it: the storage type, with the name and metadata in the field metadata.
func extField(name string, storage arrow.DataType, ext, meta string) arrow.Field {
	return arrow.Field{Name: name, Type: storage, Nullable: true,
		Metadata: arrow.NewMetadata([]string{ExtensionNameKey, ExtensionMetadataKey}, []string{ext, meta})}
}

func detect(f arrow.Field) (*Column, error) { return Detect(NewInput(f, arrow.Metadata{})) }

var (
	f32         = arrow.PrimitiveTypes.Float32
	i64         = arrow.PrimitiveTypes.Int64
	listF32     = arrow.ListOf(f32)
	largeF32    = arrow.LargeListOf(f32)
	rayVarF32   = arrow.StructOf(arrow.Field{Name: "data", Type: largeF32, Nullable: true}, arrow.Field{Name: "shape", Type: arrow.ListOf(i64), Nullable: true})
	hf2F32      = arrow.ListOf(arrow.ListOf(f32))
	rayPickle22 = string([]byte{0x80, 5, 0x95, 7, 0, 0, 0, 0, 0, 0, 0, 'K', 2, 'K', 2, 0x86, 0x94, '.'})
)

// TestDetectRefuses: columns of a dialect that cannot be read as tensors
// give (nil, err) saying why; others give (nil, nil).
func TestDetectRefuses(t *testing.T) {
	const rt, rv = "ray.data.arrow_tensor", "ray.data.arrow_variable_shaped_tensor"
	hf2 := "datasets.features.features.Array2DExtensionType"
	tests := []struct {
		name string
		f    arrow.Field
		want string // "" for (nil, nil)
	}{
		{"ray JSON object", extField("a", listF32, rt, `{"shape":[2,2]}`), "is not a non-negative int or a list of them"},
		{"ray negative dim", extField("a", listF32, rt, `[2, -1]`), "is not a non-negative int"},
		{"ray float dim", extField("a", listF32, rt, `[2.5]`), "is not a non-negative int"},
		{"ray huge dim", extField("a", listF32, rt, `[99999999999999999999]`), "is not a non-negative int"},
		{"ray too many elements", extField("a", listF32, rt, `[4294967296, 4294967296]`), "too many elements"},
		{"ray 65 dims", extField("a", listF32, rt, "["+strings.Repeat("1, ", 64)+"1]"), "65 dimensions"},
		{"ray text after JSON", extField("a", listF32, rt, `[2, 2] x`), "text after the JSON"},
		{"ray not JSON", extField("a", listF32, rt, `shape=(2,2)`), "neither JSON nor a pickle"},
		{"ray empty metadata", extField("a", listF32, rt, ``), "neither JSON nor a pickle"},
		{"ray scalar for fixed", extField("a", listF32, rt, `4`), "one int, 4"},
		{"ray list for variable", extField("a", rayVarF32, rv, `[2]`), "where Ray writes ndim as one int"},
		{"ray ndim 65", extField("a", rayVarF32, rv, `65`), "ndim 65"},
		{"ray FSL storage", extField("a", arrow.FixedSizeListOf(4, f32), rt, `[2, 2]`), "where Ray writes List or LargeList"},
		{"ray string tensor", extField("a", arrow.ListOf(&arrow.FixedSizeBinaryType{ByteWidth: 8}), rt, `[2]`), "is not numeric"},
		{"ray variable not a struct", extField("a", listF32, rv, `2`), "where Ray writes Struct<data"},
		{"ray variable shape of floats", extField("a", arrow.StructOf(arrow.Field{Name: "data", Type: largeF32}, arrow.Field{Name: "shape", Type: arrow.ListOf(f32)}), rv, `2`), "where Ray writes Struct<data"},
		{"ray variable three fields", extField("a", arrow.StructOf(arrow.Field{Name: "x", Type: largeF32}, arrow.Field{Name: "y", Type: arrow.ListOf(i64)}, arrow.Field{Name: "z", Type: i64}), rv, `2`), "where Ray writes Struct<data"},
		{"ray pickle of a call", extField("a", listF32, rt, "\x80\x02cposix\nsystem\n."), "CVE-2026-41486"},
		{"hf 3 dims for Array2D", extField("a", hf2F32, hf2, `[[1, 2, 3], "float32"]`), "a shape of 3 dimensions for Array2D"},
		{"hf null second dim", extField("a", hf2F32, hf2, `[[2, null], "float32"]`), "only the first may be null"},
		{"hf dtype mismatch", extField("a", hf2F32, hf2, `[[2, 3], "int32"]`), `metadata says dtype "int32" but its values are float`},
		{"hf unknown dtype", extField("a", hf2F32, hf2, `[[2, 3], "timestamp[s]"]`), "is not numeric"},
		{"hf not [shape, dtype]", extField("a", hf2F32, hf2, `{"shape": [2, 3]}`), "is not JSON [shape, dtype]"},
		{"hf three items", extField("a", hf2F32, hf2, `[[2, 3], "float32", 1]`), "has 3 items"},
		{"hf storage too shallow", extField("a", listF32, hf2, `[[2, 3], "float32"]`), "1 levels of lists, Array2D has 2"},
		{"hf storage too deep", extField("a", arrow.ListOf(hf2F32), hf2, `[[2, 3], "float32"]`), "3 levels of lists, Array2D has 2"},
		{"hf Array6D is not a name", extField("a", hf2F32, "datasets.features.features.Array6DExtensionType", `[[2, 3], "float32"]`), ""},
		{"hf Array1D is not a name", extField("a", listF32, "datasets.features.features.Array1DExtensionType", `[[2], "float32"]`), ""},
		{"other extension over FSL", extField("a", arrow.FixedSizeListOf(4, f32), "my.ext", ``), ""},
		{"other extension over List", extField("a", listF32, "my.ext", ``), ""},
		{"FSL of strings", arrow.Field{Name: "a", Type: arrow.FixedSizeListOf(2, arrow.BinaryTypes.String)}, ""},
		{"FSL of decimals", arrow.Field{Name: "a", Type: arrow.FixedSizeListOf(2, &arrow.Decimal128Type{Precision: 5})}, ""},
		{"List of List of strings", arrow.Field{Name: "a", Type: arrow.ListOf(arrow.ListOf(arrow.BinaryTypes.String))}, ""},
		{"FixedSizeList of List", arrow.Field{Name: "a", Type: arrow.FixedSizeListOf(2, listF32)}, ""},
		{"List 65 deep", arrow.Field{Name: "a", Type: arrow.ListOf(deepFSL(64))}, "65 levels of nesting"},
		{"List of timestamps", arrow.Field{Name: "a", Type: arrow.ListOf(arrow.FixedWidthTypes.Timestamp_s)}, ""},
		{"a struct", arrow.Field{Name: "a", Type: rayVarF32}, ""},
		{"FSL 65 deep", arrow.Field{Name: "a", Type: deepFSL(65)}, "65 levels of nesting"},
		{"FSL 500 deep", arrow.Field{Name: "a", Type: deepFSL(500)}, "500 levels of nesting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col, err := detect(tt.f)
			if col != nil {
				t.Fatalf("Detect = %+v, want nil", col)
			}
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one containing %q", err, tt.want)
			}
			if strings.HasPrefix(NewInput(tt.f, arrow.Metadata{}).Extension, "ray") && !strings.Contains(err.Error(), "shown as its storage") {
				t.Errorf("err %v does not say the column is shown as its storage", err)
			}
		})
	}
}

func deepFSL(n int) arrow.DataType {
	var dt arrow.DataType = arrow.PrimitiveTypes.Uint8
	for i := 0; i < n; i++ {
		dt = arrow.FixedSizeListOf(1, dt)
	}
	return dt
}

// TestDetectOrder: named dialects win over the shape of their storage, and
// a nested FixedSizeList over a plain list.
func TestDetectOrder(t *testing.T) {
	col, err := detect(extField("a", listF32, "ray.data.arrow_tensor", `[4]`))
	if err != nil || col == nil || col.Dialect != "Ray tensor (ray.data.arrow_tensor)" {
		t.Errorf("Ray over List: %v, %v", col, err)
	}
	col, err = detect(extField("a", hf2F32, "datasets.features.features.Array2DExtensionType", `[[1, 4], "float32"]`))
	if err != nil || col == nil || col.Dialect != "Hugging Face Array2D" {
		t.Errorf("HF over List<List>: %v, %v", col, err)
	}
	col, err = detect(arrow.Field{Name: "a", Type: arrow.FixedSizeListOf(4, f32)})
	if err != nil || col == nil || col.Dialect != "nested FixedSizeList" {
		t.Errorf("FSL: %v, %v", col, err)
	}
	col, err = detect(arrow.Field{Name: "a", Type: listF32})
	if err != nil || col == nil || col.Dialect != "plain list" || col.Shape != nil || col.NDim != 1 {
		t.Errorf("List: %v, %v", col, err)
	}
}

func float32s(vals ...float32) *array.Float32 {
	b := array.NewFloat32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewFloat32Array()
}

// TestNestedSliced reads rows of sliced arrays (offsets into the parent and
// inner levels): the views must point at the right values.
func TestNestedSliced(t *testing.T) {
	mem := memory.DefaultAllocator
	// FixedSizeList<FixedSizeList<float32>[2]>[2]: rows k = [[4k, 4k+1], [4k+2, 4k+3]], row 2 null.
	typ := arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, f32))
	b := array.NewFixedSizeListBuilder(mem, 2, typ.Elem())
	inner := b.ValueBuilder().(*array.FixedSizeListBuilder)
	vals := inner.ValueBuilder().(*array.Float32Builder)
	for k := 0; k < 5; k++ {
		if k == 2 {
			b.AppendNull() // arrow-go appends the null row's child slots itself
			continue
		}
		b.Append(true)
		for j := 0; j < 2; j++ {
			inner.Append(true)
			vals.AppendValues([]float32{float32(4*k + 2*j), float32(4*k + 2*j + 1)}, nil)
		}
	}
	full := b.NewArray()
	defer full.Release()
	b.Release()
	sl := array.NewSlice(full, 1, 5) // rows 1..4
	defer sl.Release()

	col, err := detect(arrow.Field{Name: "x", Type: typ})
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	for i, want := range []string{"[[4 5] [6 7]]", "null", "[[12 13] [14 15]]", "[[16 17] [18 19]]"} {
		tn, err := col.Tensor(sl, i)
		if want == "null" {
			if !IsNull(err) {
				t.Errorf("row %d: %v, want null", i, err)
			}
			continue
		}
		if err != nil || tn.String() != want {
			t.Errorf("row %d: %s, %v; want %s", i, tn.String(), err, want)
		}
	}
	if _, err := col.Tensor(sl, 4); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("row 4 of 4: %v", err)
	}

	// List<List<float32>> (Hugging Face Array2D [null, 2]) sliced, and its
	// inner level sliced too.
	lb := array.NewListBuilder(mem, arrow.ListOf(f32))
	ib := lb.ValueBuilder().(*array.ListBuilder)
	fb := ib.ValueBuilder().(*array.Float32Builder)
	for k := 0; k < 4; k++ {
		lb.Append(true)
		for j := 0; j <= k; j++ {
			ib.Append(true)
			fb.AppendValues([]float32{float32(10*k + 2*j), float32(10*k + 2*j + 1)}, nil)
		}
	}
	lists := lb.NewListArray()
	defer lists.Release()
	lb.Release()
	ls := array.NewSlice(lists, 2, 4)
	defer ls.Release()
	hf, err := detect(extField("h", arrow.ListOf(arrow.ListOf(f32)), "datasets.features.features.Array2DExtensionType", `[[null, 2], "float32"]`))
	if err != nil || hf == nil {
		t.Fatal(hf, err)
	}
	for i, want := range []string{"[[20 21] [22 23] [24 25]]", "[[30 31] [32 33] [34 35] [36 37]]"} {
		tn, err := hf.Tensor(ls, i)
		if err != nil || tn.String() != want || !reflect.DeepEqual(tn.Strides, []int{2, 1}) {
			t.Errorf("HF row %d: %s %v, %v; want %s", i, tn.String(), tn.Strides, err, want)
		}
	}
	// The plain-list adapter on the sliced inner level (a List<float32>).
	innerSlice := array.NewSlice(lists.ListValues(), 3, 6)
	defer innerSlice.Release()
	pl, _ := detect(arrow.Field{Name: "p", Type: listF32})
	for i, want := range []string{"[20 21]", "[22 23]", "[24 25]"} {
		tn, err := pl.Tensor(innerSlice, i)
		if err != nil || tn.String() != want {
			t.Errorf("list row %d: %s, %v; want %s", i, tn.String(), err, want)
		}
	}
}

// TestRayVariableRows: per-row errors of Ray's variable-shaped storage.
func TestRayVariableRows(t *testing.T) {
	mem := memory.DefaultAllocator
	sb := array.NewStructBuilder(mem, rayVarF32)
	defer sb.Release()
	db := sb.FieldBuilder(0).(*array.LargeListBuilder)
	dv := db.ValueBuilder().(*array.Float32Builder)
	shb := sb.FieldBuilder(1).(*array.ListBuilder)
	shv := shb.ValueBuilder().(*array.Int64Builder)
	row := func(data []float32, shape []int64, shapeNull []bool) {
		sb.Append(true)
		db.Append(true)
		dv.AppendValues(data, nil)
		if shape == nil {
			shb.AppendNull()
			return
		}
		shb.Append(true)
		valid := make([]bool, len(shape))
		for k := range valid {
			valid[k] = shapeNull == nil || !shapeNull[k]
		}
		shv.AppendValues(shape, valid)
	}
	row([]float32{1, 2, 3, 4, 5, 6}, []int64{2, 3}, nil)     // 0: ok
	row([]float32{1, 2}, nil, nil)                           // 1: shape null
	row([]float32{1, 2}, []int64{-1, -2}, nil)               // 2: negative
	row([]float32{1, 2}, []int64{1, 2}, []bool{false, true}) // 3: null entry
	row([]float32{1, 2}, []int64{2}, nil)                    // 4: wrong ndim
	row([]float32{}, []int64{0, 1 << 40}, nil)               // 5: zero-size, ok
	row(nil, []int64{1 << 40, 1 << 40}, nil)                 // 6: too many elements
	sb.AppendNull()                                          // 7: null row
	db.AppendNull()
	shb.AppendNull()
	arr := sb.NewArray()
	defer arr.Release()

	col, err := detect(extField("v", rayVarF32, "ray.data.arrow_variable_shaped_tensor", "2"))
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	tests := []struct{ want, err string }{
		{"[[1 2 3] [4 5 6]]", ""},
		{"", "row 1: its shape is null"},
		{"", "row 2: shape entry 0: negative (-1)"},
		{"", "row 3: shape entry 1: null"},
		{"", "row 4: its shape has 1 entries, the column's ndim is 2"},
		{"[]", ""},
		{"", "row 6: shape [1099511627776,1099511627776] has too many elements"},
		{"", "tensor is null"},
	}
	for i, tt := range tests {
		tn, err := col.Tensor(arr, i)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("row %d: %v, want %q", i, err, tt.err)
			}
			continue
		}
		if err != nil || tn.String() != tt.want {
			t.Errorf("row %d: %s, %v; want %s", i, tn.String(), err, tt.want)
		}
	}
	if !IsNull(func() error { _, err := col.Tensor(arr, 7); return err }()) {
		t.Error("row 7 is not reported as null")
	}
	// A different array than the column's type.
	if _, err := col.Tensor(float32s(1, 2), 0); err == nil {
		t.Error("Tensor on a float32 array: no error")
	}
}

// TestMalformedOffsets: offsets that point outside the child (a malformed
// file arrow-go did not validate) give a row error, not a panic.
func TestMalformedOffsets(t *testing.T) {
	vals := float32s(1, 2, 3, 4)
	defer vals.Release()
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 100}))
	data := array.NewData(listF32, 2, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{vals.Data()}, 0, 0)
	defer data.Release()
	lst := array.NewListData(data)
	defer lst.Release()
	for _, f := range []arrow.Field{
		{Name: "p", Type: listF32},
		extField("r", listF32, "ray.data.arrow_tensor", "[2]"),
	} {
		col, err := detect(f)
		if err != nil || col == nil {
			t.Fatal(col, err)
		}
		if tn, err := col.Tensor(lst, 0); err != nil || tn.String() != "[1 2]" {
			t.Errorf("%s row 0: %s, %v", f.Name, tn.String(), err)
		}
		if _, err := col.Tensor(lst, 1); err == nil || !strings.Contains(err.Error(), "malformed file") {
			t.Errorf("%s row 1: %v, want a malformed-file error", f.Name, err)
		}
	}
}

// TestRegisteredExtensionArray: Tensor unwraps an extension array to its
// storage (for producers whose types someone registers with arrow-go).
func TestRegisteredExtensionArray(t *testing.T) {
	col, err := detect(extField("r", listF32, "ray.data.arrow_tensor", rayPickle22))
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	lb := array.NewListBuilder(memory.DefaultAllocator, f32)
	lb.Append(true)
	lb.ValueBuilder().(*array.Float32Builder).AppendValues([]float32{1, 2, 3, 4}, nil)
	storage := lb.NewArray()
	lb.Release()
	defer storage.Release()
	ext := array.NewExtensionArrayWithStorage(&testExt{arrow.ExtensionBase{Storage: listF32}}, storage)
	defer ext.Release()
	tn, err := col.Tensor(ext, 0)
	if err != nil || tn.String() != "[[1 2] [3 4]]" {
		t.Errorf("%s, %v", tn.String(), err)
	}
	in := NewInput(arrow.Field{Name: "r", Type: &testExt{arrow.ExtensionBase{Storage: listF32}}}, arrow.Metadata{})
	if in.Extension != "test.ext" || in.Metadata != "meta" {
		t.Errorf("NewInput of a registered type: %+v", in)
	}
}

type testExt struct{ arrow.ExtensionBase }

type testExtArray struct{ array.ExtensionArrayBase }

func (*testExt) ExtensionName() string { return "test.ext" }
func (*testExt) Serialize() string     { return "meta" }
func (e *testExt) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == e.ExtensionName()
}
func (*testExt) ArrayType() reflect.Type { return reflect.TypeOf(testExtArray{}) }
func (*testExt) Deserialize(arrow.DataType, string) (arrow.ExtensionType, error) {
	return nil, nil
}
