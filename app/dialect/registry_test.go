package dialect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
