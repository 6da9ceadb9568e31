package tensorext

// Conformance table for the canonical tensor extension types: metadata of
// every producer (Arrow C++, arrow-rs, the spec's "", drafts), Serialize
// byte-exactness against Arrow C++, edge shapes and layouts, every
// permutation of 3-D and 4-D tensors against an independent reference
// transpose, uniform_shape checks, value types, ExtensionEquals and String.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type confCase struct {
	name string
	run  func(t *testing.T)
}

// TestConformance runs the conformance table; each entry is one named edge
// case (some with subtests).
func TestConformance(t *testing.T) {
	cases := conformanceCases()
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Fatalf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, c.run)
	}
	if len(cases) < 40 {
		t.Errorf("conformance table has %d cases, want at least 40", len(cases))
	}
}

func conformanceCases() []confCase {
	var cs []confCase
	cs = append(cs, fixedMetadataCases()...)
	cs = append(cs, variableMetadataCases()...)
	cs = append(cs, serializeCases()...)
	cs = append(cs, shapeCases()...)
	cs = append(cs, permutationCases()...)
	cs = append(cs, uniformShapeCases()...)
	cs = append(cs, valueTypeCases()...)
	cs = append(cs, equalityCases()...)
	return cs
}

// ---------------------------------------------------------------------------
// Metadata: Deserialize never fails, Validate reports the exact problem.

func fsl(n int32) arrow.DataType { return arrow.FixedSizeListOf(n, arrow.PrimitiveTypes.Float32) }

type fixedMeta struct {
	storage arrow.DataType
	meta    string
	err     string // Validate message (see errMatches); "" for valid
	shape   []int
	perm    []int
	names   []string
	ser     string // Serialize of the valid type (Arrow C++ spelling)
}

// errMatches reports whether err's message is want, or starts with want
// minus a final "*" (used where the rest is encoding/json's wording).
func errMatches(err error, want string) bool {
	if p, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(err.Error(), p)
	}
	return err.Error() == want
}

func fixedMetaCase(name string, m fixedMeta) confCase {
	return confCase{"fixed-meta/" + name, func(t *testing.T) {
		et, err := (&FixedShapeTensorType{}).Deserialize(m.storage, m.meta)
		if err != nil || et == nil {
			t.Fatalf("Deserialize(%q) returned %v, %v; must never fail", m.meta, et, err)
		}
		typ := et.(*FixedShapeTensorType)
		if typ.ExtensionName() != FixedShapeTensorName {
			t.Errorf("name %q", typ.ExtensionName())
		}
		verr := typ.Validate()
		if m.err != "" {
			if verr == nil {
				t.Fatalf("Validate() = nil, want %q", m.err)
			}
			if !errMatches(verr, m.err) {
				t.Fatalf("Validate() = %q\nwant         %q", verr.Error(), m.err)
			}
			_ = typ.String() // must not panic on an invalid type
			return
		}
		if verr != nil {
			t.Fatalf("Validate() = %v, want nil", verr)
		}
		if !reflect.DeepEqual(typ.Shape(), m.shape) {
			t.Errorf("Shape() = %#v, want %#v", typ.Shape(), m.shape)
		}
		if !reflect.DeepEqual(typ.Permutation(), m.perm) {
			t.Errorf("Permutation() = %#v, want %#v", typ.Permutation(), m.perm)
		}
		if !reflect.DeepEqual(typ.DimNames(), m.names) {
			t.Errorf("DimNames() = %#v, want %#v", typ.DimNames(), m.names)
		}
		if s := typ.Serialize(); s != m.ser {
			t.Errorf("Serialize() = %s, want %s", s, m.ser)
		}
		checkFixedRoundTrip(t, typ)
	}}
}

func checkFixedRoundTrip(t *testing.T, typ *FixedShapeTensorType) {
	t.Helper()
	s1 := typ.Serialize()
	et, err := (&FixedShapeTensorType{}).Deserialize(typ.StorageType(), s1)
	if err != nil {
		t.Fatal(err)
	}
	back := et.(*FixedShapeTensorType)
	if err := back.Validate(); err != nil {
		t.Fatalf("re-parsing %s: %v", s1, err)
	}
	if s2 := back.Serialize(); s2 != s1 {
		t.Errorf("Serialize round trip: %s -> %s", s1, s2)
	}
	if !typ.ExtensionEquals(back) || !back.ExtensionEquals(typ) || !arrow.TypeEqual(typ, back) {
		t.Errorf("round-tripped type %s not equal to %s", back, typ)
	}
}

func fixedMetadataCases() []confCase {
	return []confCase{
		fixedMetaCase("cpp-all-keys", fixedMeta{storage: fsl(6), meta: `{"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}`,
			shape: []int{2, 3}, perm: []int{1, 0}, names: []string{"H", "W"}, ser: `{"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}`}),
		fixedMetaCase("cpp-shape-only", fixedMeta{storage: fsl(36), meta: `{"shape":[4,3,3]}`,
			shape: []int{4, 3, 3}, ser: `{"shape":[4,3,3]}`}),
		fixedMetaCase("keys-reordered-with-spaces", fixedMeta{storage: fsl(6), meta: " { \"dim_names\" : [\"H\", \"W\"],\n \"shape\" : [ 2 , 3 ] } ",
			shape: []int{2, 3}, names: []string{"H", "W"}, ser: `{"shape":[2,3],"dim_names":["H","W"]}`}),
		fixedMetaCase("arrow-rs-explicit-nulls", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"dim_names":null,"permutations":null}`,
			shape: []int{2, 2}, ser: `{"shape":[2,2]}`}),
		fixedMetaCase("arrow-rs-permutations-key", fixedMeta{storage: fsl(6), meta: `{"shape":[2,3],"dim_names":["a","b"],"permutations":[1,0]}`,
			shape: []int{2, 3}, perm: []int{1, 0}, names: []string{"a", "b"}, ser: `{"shape":[2,3],"permutation":[1,0],"dim_names":["a","b"]}`}),
		fixedMetaCase("permutation-key-wins-over-permutations", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"permutation":[1,0],"permutations":[0,1]}`,
			shape: []int{2, 2}, perm: []int{1, 0}, ser: `{"shape":[2,2],"permutation":[1,0]}`}),
		fixedMetaCase("cpp-permutation-null", fixedMeta{storage: fsl(2), meta: `{"shape":[2],"permutation":null,"dim_names":null}`,
			shape: []int{2}, ser: `{"shape":[2]}`}),
		fixedMetaCase("unknown-keys-ignored", fixedMeta{storage: fsl(4), meta: `{"shape":[4],"foo":1,"bar":{"x":[1,2]},"ndim":7}`,
			shape: []int{4}, ser: `{"shape":[4]}`}),
		fixedMetaCase("0-D-shape", fixedMeta{storage: fsl(1), meta: `{"shape":[]}`,
			shape: []int{}, ser: `{"shape":[]}`}),
		fixedMetaCase("spec-empty-string", fixedMeta{storage: fsl(4), meta: ``, err: `extension metadata has no "shape"`}),
		fixedMetaCase("empty-object", fixedMeta{storage: fsl(4), meta: `{}`, err: `extension metadata has no "shape"`}),
		fixedMetaCase("shape-null", fixedMeta{storage: fsl(4), meta: `{"shape":null}`, err: `extension metadata has no "shape"`}),
		fixedMetaCase("non-object-array", fixedMeta{storage: fsl(4), meta: `[2,2]`,
			err: "extension metadata is not a JSON object: json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}),
		fixedMetaCase("non-object-literal-null", fixedMeta{storage: fsl(4), meta: `null`, err: "extension metadata is not a JSON object: null"}),
		fixedMetaCase("non-object-number", fixedMeta{storage: fsl(4), meta: `4`,
			err: "extension metadata is not a JSON object: json: cannot unmarshal number into Go value of type map[string]json.RawMessage"}),
		fixedMetaCase("truncated-json", fixedMeta{storage: fsl(4), meta: `{"shape":[2,`,
			err: "extension metadata is not a JSON object: unexpected end of JSON input"}),
		fixedMetaCase("shape-is-string", fixedMeta{storage: fsl(4), meta: `{"shape":"2,2"}`,
			err: "shape must be an array of integers*"}),
		fixedMetaCase("shape-float", fixedMeta{storage: fsl(4), meta: `{"shape":[2.5]}`, err: "shape must be an array of integers, got 2.5"}),
		fixedMetaCase("shape-nested", fixedMeta{storage: fsl(4), meta: `{"shape":[[4]]}`,
			err: "shape must be an array of integers*"}),
		// JSON strings are not integers, even when they hold digits.
		fixedMetaCase("shape-quoted-numbers", fixedMeta{storage: fsl(4), meta: `{"shape":["2","2"]}`, err: "shape must be an array of integers*"}),
		fixedMetaCase("dim-names-not-strings", fixedMeta{storage: fsl(2), meta: `{"shape":[2],"dim_names":[1]}`,
			err: "dim_names must be an array of strings*"}),
		// encoding/json leaves a string at "" for a JSON null; a null name is malformed.
		fixedMetaCase("dim-names-null-entry", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"dim_names":["H",null]}`,
			err: "dim_names must be an array of strings*"}),
		fixedMetaCase("permutation-strings", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"permutation":["1","0"]}`,
			err: "permutation must be an array of integers*"}),
		fixedMetaCase("negative-dim", fixedMeta{storage: fsl(4), meta: `{"shape":[-1,-4]}`, err: "shape must have non-negative values, got -1"}),
		fixedMetaCase("product-mismatch", fixedMeta{storage: fsl(12), meta: `{"shape":[3,3]}`,
			err: "Product of shape dimensions (9) does not match FixedSizeList size (12)"}),
		fixedMetaCase("0-D-product-mismatch", fixedMeta{storage: fsl(2), meta: `{"shape":[]}`,
			err: "Product of shape dimensions (1) does not match FixedSizeList size (2)"}),
		{"fixed-meta/product-overflow", func(t *testing.T) {
			et, err := (&FixedShapeTensorType{}).Deserialize(fsl(4), `{"shape":[4294967296,4294967296]}`)
			if err != nil {
				t.Fatal(err)
			}
			verr := et.(*FixedShapeTensorType).Validate()
			if verr == nil {
				t.Fatal("overflowing shape accepted")
			}
			// The product is 2^64, not 0: the message must not claim a product of 0.
			if strings.Contains(verr.Error(), "(0)") {
				t.Errorf("Validate() = %q: reports an overflowing product as 0", verr)
			}
		}},
		fixedMetaCase("permutation-out-of-range", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"permutation":[0,2]}`,
			err: "Permutation indices for 2 dimensional tensors must be unique and within [0, 1] range. Got: [0,2]"}),
		fixedMetaCase("permutation-negative", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"permutation":[-1,0]}`,
			err: "Permutation indices for 2 dimensional tensors must be unique and within [0, 1] range. Got: [-1,0]"}),
		fixedMetaCase("permutation-duplicated", fixedMeta{storage: fsl(8), meta: `{"shape":[2,2,2],"permutation":[1,1,0]}`,
			err: "Permutation indices for 3 dimensional tensors must be unique and within [0, 2] range. Got: [1,1,0]"}),
		fixedMetaCase("permutation-wrong-length", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"permutation":[0]}`,
			err: "permutation size must match shape size. Expected: 2 Got: 1"}),
		fixedMetaCase("dim-names-wrong-length", fixedMeta{storage: fsl(4), meta: `{"shape":[2,2],"dim_names":["x","y","z"]}`,
			err: "dim_names size must match shape size. Expected: 2 Got: 3"}),
		fixedMetaCase("storage-not-list", fixedMeta{storage: arrow.PrimitiveTypes.Int32, meta: `{"shape":[4]}`,
			err: "storage type must be FixedSizeList, got int32"}),
		fixedMetaCase("storage-variable-list", fixedMeta{storage: arrow.ListOf(arrow.PrimitiveTypes.Float32), meta: `{"shape":[4]}`,
			err: "storage type must be FixedSizeList, got list<item: float32, nullable>"}),
	}
}

func varStorage(ndim int32, shapeElem arrow.DataType) arrow.DataType {
	return arrow.StructOf(
		arrow.Field{Name: "data", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
		arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(ndim, shapeElem), Nullable: true})
}

type varMeta struct {
	storage arrow.DataType // nil: varStorage(2, int32)
	meta    string
	err     string
	ndim    int
	perm    []int
	names   []string
	uniform []int
	ser     string
}

func varMetaCase(name string, m varMeta) confCase {
	return confCase{"variable-meta/" + name, func(t *testing.T) {
		storage := m.storage
		if storage == nil {
			storage = varStorage(2, arrow.PrimitiveTypes.Int32)
		}
		et, err := (&VariableShapeTensorType{}).Deserialize(storage, m.meta)
		if err != nil || et == nil {
			t.Fatalf("Deserialize(%q) returned %v, %v; must never fail", m.meta, et, err)
		}
		typ := et.(*VariableShapeTensorType)
		verr := typ.Validate()
		if m.err != "" {
			if verr == nil {
				t.Fatalf("Validate() = nil, want %q", m.err)
			}
			if !errMatches(verr, m.err) {
				t.Fatalf("Validate() = %q\nwant         %q", verr.Error(), m.err)
			}
			_ = typ.String()
			return
		}
		if verr != nil {
			t.Fatalf("Validate() = %v, want nil", verr)
		}
		if typ.NDim() != m.ndim {
			t.Errorf("NDim() = %d, want %d", typ.NDim(), m.ndim)
		}
		if !reflect.DeepEqual(typ.Permutation(), m.perm) {
			t.Errorf("Permutation() = %#v, want %#v", typ.Permutation(), m.perm)
		}
		if !reflect.DeepEqual(typ.DimNames(), m.names) {
			t.Errorf("DimNames() = %#v, want %#v", typ.DimNames(), m.names)
		}
		if !reflect.DeepEqual(typ.UniformShape(), m.uniform) {
			t.Errorf("UniformShape() = %#v, want %#v", typ.UniformShape(), m.uniform)
		}
		if s := typ.Serialize(); s != m.ser {
			t.Errorf("Serialize() = %s, want %s", s, m.ser)
		}
		checkVariableRoundTrip(t, typ)
	}}
}

func checkVariableRoundTrip(t *testing.T, typ *VariableShapeTensorType) {
	t.Helper()
	s1 := typ.Serialize()
	et, err := (&VariableShapeTensorType{}).Deserialize(typ.StorageType(), s1)
	if err != nil {
		t.Fatal(err)
	}
	back := et.(*VariableShapeTensorType)
	if err := back.Validate(); err != nil {
		t.Fatalf("re-parsing %s: %v", s1, err)
	}
	if s2 := back.Serialize(); s2 != s1 {
		t.Errorf("Serialize round trip: %s -> %s", s1, s2)
	}
	if !typ.ExtensionEquals(back) || !back.ExtensionEquals(typ) || !arrow.TypeEqual(typ, back) {
		t.Errorf("round-tripped type %s not equal to %s", back, typ)
	}
}

func variableMetadataCases() []confCase {
	i16 := arrow.PrimitiveTypes.Int16
	return []confCase{
		varMetaCase("spec-empty-string", varMeta{meta: ``, ndim: 2, ser: `{}`}),
		varMetaCase("spaces-only", varMeta{meta: " \n ", ndim: 2, ser: `{}`}),
		varMetaCase("cpp-empty-object", varMeta{meta: `{}`, ndim: 2, ser: `{}`}),
		varMetaCase("cpp-all-keys", varMeta{meta: `{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[null,4]}`, ndim: 2,
			perm: []int{1, 0}, names: []string{"H", "W"}, uniform: []int{VaryingDim, 4},
			ser: `{"permutation":[1,0],"dim_names":["H","W"],"uniform_shape":[null,4]}`}),
		varMetaCase("keys-reordered-with-spaces", varMeta{meta: "{ \"uniform_shape\": [ 3, null ], \"dim_names\": [\"H\", \"W\"] }", ndim: 2,
			names: []string{"H", "W"}, uniform: []int{3, VaryingDim}, ser: `{"dim_names":["H","W"],"uniform_shape":[3,null]}`}),
		varMetaCase("arrow-rs-explicit-nulls", varMeta{meta: `{"dim_names":null,"permutations":null,"uniform_shape":null}`, ndim: 2, ser: `{}`}),
		varMetaCase("arrow-rs-permutations-key", varMeta{meta: `{"permutations":[1,0]}`, ndim: 2, perm: []int{1, 0}, ser: `{"permutation":[1,0]}`}),
		varMetaCase("unknown-keys-ignored", varMeta{meta: `{"x":[1,{"y":null}],"dim_names":["a","b"]}`, ndim: 2,
			names: []string{"a", "b"}, ser: `{"dim_names":["a","b"]}`}),
		varMetaCase("uniform-all-null", varMeta{meta: `{"uniform_shape":[null,null]}`, ndim: 2,
			uniform: []int{VaryingDim, VaryingDim}, ser: `{"uniform_shape":[null,null]}`}),
		varMetaCase("draft-ndim", varMeta{meta: `{"ndim":2,"dim_names":["H","W"]}`, ndim: 2, names: []string{"H", "W"}, ser: `{"dim_names":["H","W"]}`}),
		varMetaCase("draft-ragged-dimensions", varMeta{meta: `{"ndim":2,"ragged_dimensions":[0,1]}`, ndim: 2, ser: `{}`}),
		varMetaCase("draft-uint32-shape-list", varMeta{storage: varStorage(3, arrow.PrimitiveTypes.Uint32), meta: `{"ndim":3,"ragged_dimensions":[0]}`,
			ndim: 3, ser: `{}`}),
		varMetaCase("draft-ndim-mismatch", varMeta{meta: `{"ndim":3}`, err: "ndim (3) does not match shape FixedSizeList size (2)"}),
		varMetaCase("draft-ndim-not-integer", varMeta{meta: `{"ndim":"2"}`,
			err: "ndim*"}),
		varMetaCase("draft-ragged-out-of-range", varMeta{meta: `{"ragged_dimensions":[2]}`, err: "ragged_dimensions must be within [0, 1], got [2]"}),
		varMetaCase("non-object-array", varMeta{meta: `[1,2]`,
			err: "extension metadata is not a JSON object: json: cannot unmarshal array into Go value of type map[string]json.RawMessage"}),
		varMetaCase("non-object-literal-null", varMeta{meta: `null`, err: "extension metadata is not a JSON object: null"}),
		varMetaCase("non-object-string", varMeta{meta: `"{}"`,
			err: "extension metadata is not a JSON object: json: cannot unmarshal string into Go value of type map[string]json.RawMessage"}),
		varMetaCase("truncated-json", varMeta{meta: `{"dim_names":["H"`, err: "extension metadata is not a JSON object: unexpected end of JSON input"}),
		varMetaCase("permutation-wrong-type", varMeta{meta: `{"permutation":{"0":1}}`,
			err: "permutation must be an array of integers*"}),
		varMetaCase("dim-names-wrong-type", varMeta{meta: `{"dim_names":"HW"}`,
			err: "dim_names must be an array of strings*"}),
		varMetaCase("uniform-shape-wrong-type", varMeta{meta: `{"uniform_shape":["2",null]}`,
			err: `uniform_shape must be an array of integers and nulls, got "2"`}),
		varMetaCase("uniform-shape-float", varMeta{meta: `{"uniform_shape":[1.5,null]}`,
			err: `uniform_shape must be an array of integers and nulls, got 1.5`}),
		varMetaCase("uniform-shape-wrong-length", varMeta{meta: `{"uniform_shape":[1]}`, err: "uniform_shape size must match ndim. Expected: 2 Got: 1"}),
		varMetaCase("uniform-shape-negative", varMeta{meta: `{"uniform_shape":[-2,3]}`,
			err: "uniform_shape must have non-negative values or null, got -2"}),
		// -1 is a negative dimension, not the JSON null that marks a varying one.
		varMetaCase("uniform-shape-minus-one", varMeta{meta: `{"uniform_shape":[-1,3]}`,
			err: "uniform_shape must have non-negative values or null, got -1"}),
		varMetaCase("permutation-out-of-range", varMeta{meta: `{"permutation":[0,2]}`,
			err: "Permutation indices for 2 dimensional tensors must be unique and within [0, 1] range. Got: [0,2]"}),
		varMetaCase("permutation-duplicated", varMeta{meta: `{"permutation":[1,1]}`,
			err: "Permutation indices for 2 dimensional tensors must be unique and within [0, 1] range. Got: [1,1]"}),
		varMetaCase("permutation-wrong-length", varMeta{meta: `{"permutation":[1,0,2]}`,
			err: "permutation size must match shape size. Expected: 2 Got: 3"}),
		varMetaCase("dim-names-wrong-length", varMeta{meta: `{"dim_names":["H"]}`, err: "dim_names size must match shape size. Expected: 2 Got: 1"}),
		varMetaCase("storage-not-struct", varMeta{storage: arrow.PrimitiveTypes.Int32, meta: `{}`,
			err: "storage type must be Struct<data: List, shape: FixedSizeList<int32>>, got int32"}),
		varMetaCase("storage-three-fields", varMeta{storage: arrow.StructOf(
			arrow.Field{Name: "data", Type: arrow.ListOf(i16)},
			arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)},
			arrow.Field{Name: "x", Type: i16}), meta: `{}`,
			err: "storage type must be Struct<data: List, shape: FixedSizeList<int32>>, got struct<data: list<item: int16, nullable>, shape: fixed_size_list<item: int32, nullable>[2], x: int16>"}),
		varMetaCase("storage-data-fixed-size-list", varMeta{storage: arrow.StructOf(
			arrow.Field{Name: "data", Type: arrow.FixedSizeListOf(4, i16)},
			arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)}), meta: `{}`,
			err: "data field must be a List, got fixed_size_list<item: int16, nullable>[4]"}),
		varMetaCase("storage-shape-float", varMeta{storage: varStorage(2, arrow.PrimitiveTypes.Float32), meta: `{}`,
			err: "shape field must be FixedSizeList<int32>, got fixed_size_list<item: float32, nullable>[2]"}),
		varMetaCase("storage-shape-variable-list", varMeta{storage: arrow.StructOf(
			arrow.Field{Name: "data", Type: arrow.ListOf(i16)},
			arrow.Field{Name: "shape", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32)}), meta: `{}`,
			err: "shape field must be FixedSizeList<int32>, got list<item: int32, nullable>"}),
	}
}

// ---------------------------------------------------------------------------
// Serialize: byte-exact Arrow C++ spelling, and round trips.

func serializeCase(name string, mk func() (arrow.ExtensionType, error), want string) confCase {
	return confCase{"serialize/" + name, func(t *testing.T) {
		et, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		if got := et.Serialize(); got != want {
			t.Errorf("Serialize() = %s\nwant          %s", got, want)
		}
		switch typ := et.(type) {
		case *FixedShapeTensorType:
			checkFixedRoundTrip(t, typ)
		case *VariableShapeTensorType:
			checkVariableRoundTrip(t, typ)
		}
	}}
}

func fixedT(vt arrow.DataType, shape, perm []int, names []string) func() (arrow.ExtensionType, error) {
	return func() (arrow.ExtensionType, error) { return NewFixedShapeTensorType(vt, shape, perm, names) }
}

func varT(vt arrow.DataType, ndim int, perm []int, names []string, uniform []int) func() (arrow.ExtensionType, error) {
	return func() (arrow.ExtensionType, error) { return NewVariableShapeTensorType(vt, ndim, perm, names, uniform) }
}

func serializeCases() []confCase {
	u8, f32 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Float32
	V := VaryingDim
	return []confCase{
		serializeCase("fixed-shape-only", fixedT(u8, []int{4, 3, 3}, nil, nil), `{"shape":[4,3,3]}`),
		serializeCase("fixed-permutation", fixedT(u8, []int{2, 3}, []int{1, 0}, nil), `{"shape":[2,3],"permutation":[1,0]}`),
		serializeCase("fixed-dim-names", fixedT(u8, []int{4, 3, 3}, nil, []string{"H", "W", "C"}), `{"shape":[4,3,3],"dim_names":["H","W","C"]}`),
		serializeCase("fixed-all-keys", fixedT(u8, []int{100, 200, 500}, []int{2, 0, 1}, []string{"C", "H", "W"}),
			`{"shape":[100,200,500],"permutation":[2,0,1],"dim_names":["C","H","W"]}`),
		serializeCase("fixed-identity-permutation-kept", fixedT(u8, []int{2, 2}, []int{0, 1}, nil), `{"shape":[2,2],"permutation":[0,1]}`),
		serializeCase("fixed-0-D", fixedT(f32, []int{}, nil, nil), `{"shape":[]}`),
		// Arrow C++ leaves out empty permutation and dim_names (it tests
		// !permutation_.empty()), so a 0-D type writes only the shape.
		serializeCase("fixed-0-D-empty-lists", fixedT(f32, []int{}, []int{}, []string{}), `{"shape":[]}`),
		serializeCase("fixed-dim-names-escapes", fixedT(u8, []int{1, 1, 1}, nil, []string{`a"b`, `c\d`, "é\t"}),
			`{"shape":[1,1,1],"dim_names":["a\"b","c\\d","é\t"]}`),
		// rapidjson (Arrow C++) escapes only '"', '\\' and control characters;
		// it writes <, > and & as they are.
		serializeCase("fixed-dim-names-html-characters", fixedT(u8, []int{1, 1}, nil, []string{"<H>", "a&b"}),
			`{"shape":[1,1],"dim_names":["<H>","a&b"]}`),
		serializeCase("variable-empty", varT(f32, 3, nil, nil, nil), `{}`),
		serializeCase("variable-permutation", varT(f32, 3, []int{2, 0, 1}, nil, nil), `{"permutation":[2,0,1]}`),
		serializeCase("variable-dim-names", varT(f32, 2, nil, []string{"H", "W"}, nil), `{"dim_names":["H","W"]}`),
		serializeCase("variable-uniform-with-nulls", varT(f32, 3, nil, nil, []int{400, V, 3}), `{"uniform_shape":[400,null,3]}`),
		serializeCase("variable-uniform-all-known", varT(f32, 2, nil, nil, []int{2, 3}), `{"uniform_shape":[2,3]}`),
		serializeCase("variable-all-keys", varT(f32, 3, []int{2, 0, 1}, []string{"H", "W", "C"}, []int{V, V, 3}),
			`{"permutation":[2,0,1],"dim_names":["H","W","C"],"uniform_shape":[null,null,3]}`),
		{"serialize/registered-and-ipc-metadata", func(t *testing.T) {
			for _, name := range []string{FixedShapeTensorName, VariableShapeTensorName} {
				if arrow.GetExtensionType(name) == nil {
					t.Errorf("%s not registered", name)
				}
			}
			// The IPC writer stores exactly Serialize() under ARROW:extension:metadata.
			ft, _ := NewFixedShapeTensorType(u8, []int{2, 3}, []int{1, 0}, []string{"H", "W"})
			vt, _ := NewVariableShapeTensorType(f32, 2, nil, nil, []int{V, 3})
			schema := arrow.NewSchema([]arrow.Field{{Name: "f", Type: ft, Nullable: true}, {Name: "v", Type: vt, Nullable: true}}, nil)
			var buf bytes.Buffer
			w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{ft.Serialize(), vt.Serialize()} {
				if !bytes.Contains(buf.Bytes(), []byte(want)) {
					t.Errorf("IPC schema does not contain %s", want)
				}
			}
			r, err := ipc.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !arrow.TypeEqual(r.Schema().Field(0).Type, ft) || !arrow.TypeEqual(r.Schema().Field(1).Type, vt) {
				t.Errorf("schema after IPC: %s", r.Schema())
			}
		}},
	}
}

// ---------------------------------------------------------------------------
// Shapes and layouts.

func mustFixed(t *testing.T, vt arrow.DataType, shape, perm []int, names []string) *FixedShapeTensorType {
	t.Helper()
	typ, err := NewFixedShapeTensorType(vt, shape, perm, names)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func mustVariable(t *testing.T, vt arrow.DataType, ndim int, perm []int, names []string, uniform []int) *VariableShapeTensorType {
	t.Helper()
	typ, err := NewVariableShapeTensorType(vt, ndim, perm, names, uniform)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func f64s(from, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(from + i)
	}
	return v
}

// floats reads a tensor's elements in this view's row-major order; nulls
// read as NaN-free sentinel -999.
func floats(t *testing.T, tt Tensor) []float64 {
	t.Helper()
	out := []float64{}
	tt.Positions(func(pos int) bool {
		v, ok := tt.Float64(pos)
		if !ok {
			v = -999
		}
		out = append(out, v)
		return true
	})
	return out
}

// vrow describes one row of a variable shape tensor array built by hand.
type vrow struct {
	null      bool    // struct slot null (children get nulls)
	garbage   bool    // struct slot null but children hold a bad row
	dataNull  bool    // data list null
	shapeNull bool    // shape list null
	shape     []int32 // dims
	dimNull   int     // index+1 of a null dim, 0 for none
	vals      []float64
	valNull   int // index+1 of a null value, 0 for none
}

// buildVar builds a float64 variable shape tensor array row by row through
// the storage builders, so rows that AppendTensor would reject can be made.
func buildVar(t *testing.T, typ *VariableShapeTensorType, rows []vrow) *VariableShapeTensorArray {
	t.Helper()
	b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	st := b.ExtensionBuilder.Builder.(*array.StructBuilder)
	data := st.FieldBuilder(0).(*array.ListBuilder)
	dv := data.ValueBuilder().(*array.Float64Builder)
	shape := st.FieldBuilder(1).(*array.FixedSizeListBuilder)
	sv := shape.ValueBuilder().(*array.Int32Builder)
	for _, r := range rows {
		if r.null {
			st.AppendNull()
			continue
		}
		st.AppendValues([]bool{!r.garbage})
		if r.dataNull {
			data.AppendNull()
		} else {
			data.Append(true)
			for i, v := range r.vals {
				if i+1 == r.valNull {
					dv.AppendNull()
				} else {
					dv.Append(v)
				}
			}
		}
		if r.shapeNull {
			shape.AppendNull()
		} else {
			shape.Append(true)
			for i, d := range r.shape {
				if i+1 == r.dimNull {
					sv.AppendNull()
				} else {
					sv.Append(d)
				}
			}
		}
	}
	return b.NewVariableShapeTensorArray()
}

func shapeCases() []confCase {
	f64 := arrow.PrimitiveTypes.Float64
	return []confCase{
		{"shape/constructor-errors", func(t *testing.T) {
			if _, err := NewFixedShapeTensorType(f64, []int{0, 3}, nil, nil); err == nil {
				t.Error("fixed shape [0,3] accepted: arrow-go cannot build FixedSizeList[0]")
			}
			if _, err := NewFixedShapeTensorType(f64, []int{0}, nil, nil); err == nil {
				t.Error("fixed shape [0] accepted")
			}
			if _, err := NewFixedShapeTensorType(f64, []int{3, -2}, nil, nil); err == nil || err.Error() != "tensorext: shape must have non-negative values, got -2" {
				t.Errorf("negative dimension: %v", err)
			}
			if _, err := NewFixedShapeTensorType(f64, []int{1 << 16, 1 << 16}, nil, nil); err == nil {
				t.Error("shape beyond int32 elements accepted")
			}
			if _, err := NewFixedShapeTensorType(nil, []int{2}, nil, nil); err == nil {
				t.Error("nil value type accepted")
			}
			if _, err := NewFixedShapeTensorType(f64, []int{2, 2}, []int{1}, nil); err == nil ||
				err.Error() != "tensorext: permutation size must match shape size. Expected: 2 Got: 1" {
				t.Errorf("short permutation: %v", err)
			}
			if _, err := NewVariableShapeTensorType(f64, 0, nil, nil, nil); err == nil {
				t.Error("variable ndim 0 accepted: arrow-go cannot build FixedSizeList[0]")
			}
			if _, err := NewVariableShapeTensorType(f64, -1, nil, nil, nil); err == nil {
				t.Error("variable ndim -1 accepted")
			}
			if _, err := NewVariableShapeTensorType(f64, 2, []int{0, 0}, nil, nil); err == nil {
				t.Error("duplicated permutation accepted")
			}
			if _, err := NewVariableShapeTensorType(f64, 2, nil, nil, []int{2, -2}); err == nil ||
				err.Error() != "tensorext: uniform_shape must have non-negative values or null, got -2" {
				t.Errorf("negative uniform_shape: %v", err)
			}
		}},
		{"shape/fixed-0-D", func(t *testing.T) {
			typ := mustFixed(t, f64, []int{}, nil, nil)
			if n := typ.StorageType().(*arrow.FixedSizeListType).Len(); n != 1 {
				t.Fatalf("0-D storage size %d, want 1", n)
			}
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			for _, v := range []float64{7, 8} {
				if err := b.AppendTensor([]float64{v}); err != nil {
					t.Fatal(err)
				}
			}
			b.AppendNull()
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			tt, err := arr.Tensor(1)
			if err != nil {
				t.Fatal(err)
			}
			if tt.NDim() != 0 || tt.Len() != 1 || len(tt.LogicalShape()) != 0 {
				t.Errorf("0-D: ndim %d len %d", tt.NDim(), tt.Len())
			}
			if got := floats(t, tt.Logical()); !reflect.DeepEqual(got, []float64{8}) {
				t.Errorf("0-D values %v", got)
			}
			if pos, ok := tt.Pos(); !ok || pos != 1 {
				t.Errorf("Pos() = %d, %v; want 1, true", pos, ok)
			}
			if s := arr.ValueStr(1); s != "8" {
				t.Errorf("ValueStr = %q, want 8", s)
			}
			if s := arr.String(); s != "[7 8 (null)]" {
				t.Errorf("String = %q", s)
			}
		}},
		{"shape/variable-zero-size-rows", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, []int{1, 0}, nil, nil)
			b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			for _, s := range [][]int{{0, 3}, {3, 0}, {0, 0}, {1, 1}} {
				n := s[0] * s[1]
				if err := b.AppendTensor(s, f64s(5, n)); err != nil {
					t.Fatal(err)
				}
			}
			arr := b.NewVariableShapeTensorArray()
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 3; i++ {
				tt, err := arr.Tensor(i)
				if err != nil {
					t.Fatalf("row %d: %v", i, err)
				}
				if tt.Len() != 0 {
					t.Errorf("row %d: Len %d", i, tt.Len())
				}
				called := false
				tt.Logical().Positions(func(int) bool { called = true; return true })
				tt.Positions(func(int) bool { called = true; return true })
				if called {
					t.Errorf("row %d: Positions visited an element of an empty tensor", i)
				}
				if _, ok := tt.Logical().Pos(0, 0); ok {
					t.Errorf("row %d: Pos(0,0) ok on an empty tensor", i)
				}
				_ = arr.ValueStr(i)
			}
			if s := arr.ValueStr(0); s != "[]" {
				t.Errorf("row [0,3] ValueStr %q, want []", s)
			}
			tt, _ := arr.Tensor(3)
			if got := floats(t, tt); !reflect.DeepEqual(got, []float64{5}) {
				t.Errorf("row after empty rows reads %v", got)
			}
		}},
		{"shape/variable-zero-size-row-huge-dim", func(t *testing.T) {
			// shape [4194304, 0] holds no values; printing it must not
			// produce one "[]" per empty sub-tensor (for [2^31-1, 0], a 6 GB string).
			typ := mustVariable(t, f64, 2, nil, nil, nil)
			arr := buildVar(t, typ, []vrow{{shape: []int32{1 << 22, 0}}})
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			if s := arr.ValueStr(0); len(s) > 64 {
				t.Errorf("ValueStr of an empty [4194304,0] tensor is %d bytes long (%q...)", len(s), s[:20])
			}
		}},
		{"shape/fixed-empty-array", func(t *testing.T) {
			typ := mustFixed(t, f64, []int{2, 2}, nil, nil)
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			if arr.Len() != 0 || arr.ValidateFull() != nil || arr.String() != "[]" {
				t.Errorf("empty array: len %d err %v str %q", arr.Len(), arr.ValidateFull(), arr.String())
			}
			checkIPCRoundTrip(t, arr)
		}},
		{"shape/variable-empty-array", func(t *testing.T) {
			typ := mustVariable(t, f64, 3, nil, nil, []int{VaryingDim, 2, 2})
			b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			arr := b.NewVariableShapeTensorArray()
			defer arr.Release()
			if arr.Len() != 0 || arr.ValidateFull() != nil || arr.String() != "[]" {
				t.Errorf("empty array: len %d err %v str %q", arr.Len(), arr.ValidateFull(), arr.String())
			}
			checkIPCRoundTrip(t, arr)
		}},
		{"shape/fixed-all-rows-null", func(t *testing.T) {
			typ := mustFixed(t, f64, []int{2, 3}, []int{1, 0}, nil)
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			for i := 0; i < 3; i++ {
				b.AppendNull()
			}
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			if arr.NullN() != 3 || arr.ValidateFull() != nil {
				t.Fatalf("nulls %d err %v", arr.NullN(), arr.ValidateFull())
			}
			for i := 0; i < 3; i++ {
				if _, err := arr.Tensor(i); !errors.Is(err, ErrNullTensor) {
					t.Errorf("row %d: %v", i, err)
				}
			}
			if s := arr.String(); s != "[(null) (null) (null)]" {
				t.Errorf("String = %q", s)
			}
			checkIPCRoundTrip(t, arr)
		}},
		{"shape/variable-all-rows-null", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, nil, nil, []int{2, 2})
			arr := buildVar(t, typ, []vrow{{null: true}, {null: true}, {garbage: true, shape: []int32{-5, 7}, vals: f64s(0, 3)}})
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Fatalf("ValidateFull on null rows: %v", err)
			}
			for i := 0; i < arr.Len(); i++ {
				if _, err := arr.Tensor(i); !errors.Is(err, ErrNullTensor) {
					t.Errorf("row %d: %v", i, err)
				}
				if s := arr.ValueStr(i); s != "(null)" {
					t.Errorf("row %d: ValueStr %q", i, s)
				}
			}
			checkIPCRoundTrip(t, arr)
		}},
		{"shape/fixed-null-elements", func(t *testing.T) {
			typ := mustFixed(t, f64, []int{2, 2}, []int{1, 0}, nil)
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			vb := b.ValueBuilder().(*array.Float64Builder)
			b.Append(true)
			vb.AppendValues([]float64{1, 0, 3, 4}, []bool{true, false, true, true})
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			tt, err := arr.Tensor(0)
			if err != nil {
				t.Fatal(err)
			}
			pos, _ := tt.Pos(0, 1)
			if v, ok := tt.Float64(pos); ok || v != 0 || !tt.IsNull(pos) || tt.ValueStr(pos) != "(null)" {
				t.Errorf("null element: Float64 = %v, %v; IsNull %v; ValueStr %q", v, ok, tt.IsNull(pos), tt.ValueStr(pos))
			}
			lpos, _ := tt.Logical().Pos(1, 0)
			if lpos != pos {
				t.Errorf("logical (1,0) at %d, physical (0,1) at %d", lpos, pos)
			}
			if got := floats(t, tt.Logical()); !reflect.DeepEqual(got, []float64{1, 3, -999, 4}) {
				t.Errorf("logical values %v", got)
			}
			if s := arr.ValueStr(0); s != "[[1 (null)] [3 4]]" {
				t.Errorf("ValueStr = %q", s)
			}
		}},
		{"shape/variable-null-elements-and-bad-rows", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, nil, nil, nil)
			arr := buildVar(t, typ, []vrow{
				{shape: []int32{1, 3}, vals: []float64{1, 2, 3}, valNull: 2},
				{dataNull: true, shape: []int32{1, 1}},
				{shapeNull: true, vals: f64s(0, 2)},
				{shape: []int32{2, 1}, dimNull: 2, vals: f64s(0, 2)},
				{shape: []int32{2, 2}, vals: f64s(0, 3)},
			})
			defer arr.Release()
			tt, err := arr.Tensor(0)
			if err != nil {
				t.Fatal(err)
			}
			pos, _ := tt.Pos(0, 1)
			if v, ok := tt.Float64(pos); ok || !tt.IsNull(pos) {
				t.Errorf("null element read as %v, %v", v, ok)
			}
			if s := arr.ValueStr(0); s != "[[1 (null) 3]]" {
				t.Errorf("ValueStr = %q", s)
			}
			if _, err := arr.Tensor(1); !errors.Is(err, ErrNullTensor) {
				t.Errorf("null data list: %v", err)
			}
			for i, want := range map[int]string{2: "row 2: shape is null", 3: "row 3: shape has a null dimension", 4: "row 4: Expected data array of length 4, got 3"} {
				if _, err := arr.Tensor(i); err == nil || err.Error() != want {
					t.Errorf("row %d: %v, want %q", i, err, want)
				}
			}
			if err := arr.ValidateFull(); err == nil || err.Error() != "row 2: shape is null" {
				t.Errorf("ValidateFull = %v", err)
			}
		}},
		{"shape/fixed-slices", func(t *testing.T) {
			typ := mustFixed(t, f64, []int{2, 3}, []int{1, 0}, []string{"r", "c"})
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			for r := 0; r < 6; r++ {
				if r == 3 {
					b.AppendNull()
					continue
				}
				if err := b.AppendTensor(f64s(r*10, 6)); err != nil {
					t.Fatal(err)
				}
			}
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			s1 := array.NewSlice(arr, 1, 6).(*FixedShapeTensorArray) // rows 1..5
			defer s1.Release()
			s2 := array.NewSlice(s1, 1, 4).(*FixedShapeTensorArray) // rows 2..4
			defer s2.Release()
			s3 := array.NewSlice(s2, 2, 3).(*FixedShapeTensorArray) // row 4
			defer s3.Release()
			for _, c := range []struct {
				a    *FixedShapeTensorArray
				rows []int
			}{{s1, []int{1, 2, 3, 4, 5}}, {s2, []int{2, 3, 4}}, {s3, []int{4}}} {
				if err := c.a.ValidateFull(); err != nil {
					t.Fatal(err)
				}
				for i, r := range c.rows {
					tt, err := c.a.Tensor(i)
					if r == 3 {
						if !errors.Is(err, ErrNullTensor) {
							t.Errorf("slice row %d (row %d): %v", i, r, err)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					want := []float64{0, 3, 1, 4, 2, 5}
					for k := range want {
						want[k] += float64(r * 10)
					}
					if got := floats(t, tt.Logical()); !reflect.DeepEqual(got, want) {
						t.Errorf("slice row %d (row %d): %v, want %v", i, r, got, want)
					}
					if c.a.ValueStr(i) != arr.ValueStr(r) {
						t.Errorf("slice row %d ValueStr %q vs %q", i, c.a.ValueStr(i), arr.ValueStr(r))
					}
				}
			}
			checkIPCRoundTrip(t, s2)
		}},
		{"shape/variable-slices", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, []int{1, 0}, nil, nil)
			rows := []vrow{
				{shape: []int32{1, 2}, vals: f64s(0, 2)},
				{null: true},
				{shape: []int32{2, 2}, vals: f64s(10, 4)},
				{shape: []int32{0, 2}},
				{shape: []int32{3, 1}, vals: f64s(20, 3)},
				{shape: []int32{1, 1}, vals: f64s(30, 1)},
			}
			arr := buildVar(t, typ, rows)
			defer arr.Release()
			s1 := array.NewSlice(arr, 1, 6).(*VariableShapeTensorArray)
			defer s1.Release()
			s2 := array.NewSlice(s1, 1, 4).(*VariableShapeTensorArray) // rows 2..4
			defer s2.Release()
			s3 := array.NewSlice(s2, 2, 3).(*VariableShapeTensorArray) // row 4
			defer s3.Release()
			for _, c := range []struct {
				a     *VariableShapeTensorArray
				first int
			}{{s1, 1}, {s2, 2}, {s3, 4}} {
				if err := c.a.ValidateFull(); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < c.a.Len(); i++ {
					r := c.first + i
					tt, err := c.a.Tensor(i)
					if rows[r].null {
						if !errors.Is(err, ErrNullTensor) {
							t.Errorf("row %d: %v", r, err)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(tt.Shape, []int{int(rows[r].shape[0]), int(rows[r].shape[1])}) {
						t.Errorf("row %d: shape %v", r, tt.Shape)
					}
					if got := floats(t, tt); !reflect.DeepEqual(got, append([]float64{}, rows[r].vals...)) && len(rows[r].vals) > 0 {
						t.Errorf("row %d: values %v, want %v", r, got, rows[r].vals)
					}
					if c.a.ValueStr(i) != arr.ValueStr(r) {
						t.Errorf("row %d ValueStr %q vs %q", r, c.a.ValueStr(i), arr.ValueStr(r))
					}
				}
			}
			tt, _ := s3.Tensor(0)
			if got := floats(t, tt.Logical()); !reflect.DeepEqual(got, []float64{20, 21, 22}) {
				t.Errorf("logical [1,3] view %v", got)
			}
			checkIPCRoundTrip(t, s2)
		}},
		{"shape/variable-struct-offset", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, nil, nil, nil)
			arr := buildVar(t, typ, []vrow{
				{shape: []int32{1, 1}, vals: []float64{1}},
				{shape: []int32{1, 2}, vals: []float64{2, 3}},
				{shape: []int32{2, 2}, vals: []float64{4, 5, 6, 7}},
				{null: true},
				{shape: []int32{1, 3}, vals: []float64{8, 9, 10}},
			})
			defer arr.Release()
			// Re-wrap the storage's buffers with struct offset 2 and length 3,
			// children unsliced, as an IPC reader or C data import may produce.
			sd := arr.Storage().Data()
			data := array.NewData(typ.StorageType(), 3, sd.Buffers(), sd.Children(), array.UnknownNullCount, 2)
			defer data.Release()
			storage := array.MakeFromData(data)
			defer storage.Release()
			ext := array.NewExtensionArrayWithStorage(typ, storage).(*VariableShapeTensorArray)
			defer ext.Release()
			if err := ext.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			tt, err := ext.Tensor(0)
			if err != nil || !reflect.DeepEqual(floats(t, tt), []float64{4, 5, 6, 7}) {
				t.Errorf("row 0 = %v, %v; want original row 2", floats(t, tt), err)
			}
			if _, err := ext.Tensor(1); !errors.Is(err, ErrNullTensor) {
				t.Errorf("row 1: %v", err)
			}
			tt, err = ext.Tensor(2)
			if err != nil || !reflect.DeepEqual(tt.Shape, []int{1, 3}) || !reflect.DeepEqual(floats(t, tt), []float64{8, 9, 10}) {
				t.Errorf("row 2 = %v %v, %v", tt.Shape, floats(t, tt), err)
			}
			// And children sliced on their own, struct offset 0.
			children := []arrow.Array{array.NewSlice(arr.Storage().(*array.Struct).Field(0), 1, 3), array.NewSlice(arr.Storage().(*array.Struct).Field(1), 1, 3)}
			defer children[0].Release()
			defer children[1].Release()
			st, err := array.NewStructArrayWithFields(children, typ.StorageType().(*arrow.StructType).Fields())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Release()
			ext2 := array.NewExtensionArrayWithStorage(typ, st).(*VariableShapeTensorArray)
			defer ext2.Release()
			if s := ext2.String(); s != "[[[2 3]] [[4 5] [6 7]]]" {
				t.Errorf("String = %q", s)
			}
		}},
		{"shape/variable-builder-for-lenient-storage", func(t *testing.T) {
			// Deserialize accepts a LargeList data field (and swapped fields);
			// the type's builder must then append or report an error, not panic.
			for _, storage := range []*arrow.StructType{
				arrow.StructOf(
					arrow.Field{Name: "data", Type: arrow.LargeListOf(f64), Nullable: true},
					arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), Nullable: true}),
				arrow.StructOf(
					arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32), Nullable: true},
					arrow.Field{Name: "data", Type: arrow.ListOf(f64), Nullable: true}),
			} {
				t.Run(storage.String(), func(t *testing.T) {
					et, _ := (&VariableShapeTensorType{}).Deserialize(storage, "{}")
					typ := et.(*VariableShapeTensorType)
					if err := typ.Validate(); err != nil {
						t.Fatal(err)
					}
					b := typ.NewBuilder(memory.DefaultAllocator).(*VariableShapeTensorBuilder)
					defer b.Release()
					var err error
					func() {
						defer func() {
							if r := recover(); r != nil {
								err = fmt.Errorf("panic: %v", r)
								t.Errorf("AppendTensor panicked: %v", r)
							}
						}()
						err = b.AppendTensor([]int{1, 2}, []float64{1, 2})
					}()
					if err != nil {
						return
					}
					arr := b.NewVariableShapeTensorArray()
					defer arr.Release()
					if s := arr.ValueStr(0); s != "[[1 2]]" {
						t.Errorf("ValueStr = %q", s)
					}
				})
			}
		}},
		{"shape/malformed-storage-never-panics", func(t *testing.T) {
			// Storage whose buffers disagree with its lengths, as arrow-go's
			// IPC reader returns for a corrupt file: ValidateFull and Tensor
			// must report it, and ValueStr must not panic.
			u8 := func(b ...byte) *memory.Buffer { return memory.NewBufferBytes(b) }
			typ := mustFixed(t, arrow.BinaryTypes.String, []int{3}, nil, nil)
			badMeta, _ := (&FixedShapeTensorType{}).Deserialize(typ.StorageType(), `{"shape":[2]}`)
			i32 := func(v ...int32) *memory.Buffer {
				return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v))
			}
			for _, c := range []struct {
				name  string
				typ   arrow.ExtensionType
				child arrow.ArrayData
			}{
				// Offsets go down (arrow-go checks only the last one).
				{"string-offsets-decrease", typ, array.NewData(arrow.BinaryTypes.String, 3,
					[]*memory.Buffer{nil, i32(0, 2, 1, 3), u8('a', 'b', 'c')}, nil, 0, 0)},
				// A validity bitmap of 1 byte for 12 values.
				{"validity-bitmap-too-short", mustFixed(t, arrow.PrimitiveTypes.Float64, []int{3, 4}, nil, nil), array.NewData(arrow.PrimitiveTypes.Float64, 12,
					[]*memory.Buffer{u8(0xFF), memory.NewBufferBytes(make([]byte, 96))}, nil, 1, 0)},
				// Decreasing offsets under metadata that does not fit the storage.
				{"bad-metadata-and-string-offsets", badMeta.(arrow.ExtensionType), array.NewData(arrow.BinaryTypes.String, 3,
					[]*memory.Buffer{nil, i32(0, 2, 1, 3), u8('a', 'b', 'c')}, nil, 0, 0)},
			} {
				t.Run(c.name, func(t *testing.T) {
					fslData := array.NewData(c.typ.StorageType(), c.child.Len()/int(c.typ.StorageType().(*arrow.FixedSizeListType).Len()),
						[]*memory.Buffer{nil}, []arrow.ArrayData{c.child}, 0, 0)
					storage := array.MakeFromData(fslData)
					defer storage.Release()
					arr := array.NewExtensionArrayWithStorage(c.typ, storage).(*FixedShapeTensorArray)
					defer arr.Release()
					if err := arr.ValidateFull(); err == nil {
						t.Error("ValidateFull() = nil for malformed storage")
					}
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("Tensor(0) panicked: %v", r)
							}
						}()
						if _, err := arr.Tensor(0); err == nil {
							t.Error("Tensor(0) returned a view of malformed storage")
						}
					}()
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("ValueStr(0) panicked: %v", r)
							}
						}()
						_ = arr.ValueStr(0)
					}()
				})
			}
		}},
		{"shape/malformed-dictionary-and-view-values-never-panic", func(t *testing.T) {
			// Value types whose element access follows indices: a dictionary
			// index past the dictionary, a string view naming a missing data
			// buffer. arrow-go's IPC reader accepts both as they are.
			dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
			dict := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil,
				memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1, 2})), memory.NewBufferBytes([]byte("xy"))}, nil, 0, 0)
			defer dict.Release()
			dictValues := array.NewDataWithDictionary(dictType, 2, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{1, 9})}, 0, 0, dict)
			defer dictValues.Release()
			// A non-inline view (length 20 > 12) into data buffer 3, of which there is none.
			view := make([]byte, 16)
			binary.LittleEndian.PutUint32(view[0:], 20)
			binary.LittleEndian.PutUint32(view[8:], 3)
			viewValues := array.NewData(arrow.BinaryTypes.StringView, 1, []*memory.Buffer{nil, memory.NewBufferBytes(view)}, nil, 0, 0)
			defer viewValues.Release()
			for _, c := range []struct {
				name   string
				values arrow.ArrayData
			}{{"dictionary-index-out-of-range", dictValues}, {"string-view-missing-buffer", viewValues}} {
				t.Run(c.name, func(t *testing.T) {
					var arr *FixedShapeTensorArray
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Skipf("arrow-go cannot build such an array: %v", r)
							}
						}()
						typ := mustFixed(t, c.values.DataType(), []int{c.values.Len()}, nil, nil)
						fslData := array.NewData(typ.StorageType(), 1, []*memory.Buffer{nil}, []arrow.ArrayData{c.values}, 0, 0)
						defer fslData.Release()
						storage := array.MakeFromData(fslData)
						defer storage.Release()
						arr = array.NewExtensionArrayWithStorage(typ, storage).(*FixedShapeTensorArray)
					}()
					defer arr.Release()
					verr := arr.ValidateFull()
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Errorf("ValidateFull() = %v, then ValueStr(0) panicked: %v", verr, r)
							}
						}()
						_ = arr.ValueStr(0)
						if tt, err := arr.Tensor(0); err == nil {
							tt.Positions(func(pos int) bool { _ = tt.ValueStr(pos); return true })
						}
					}()
				})
			}
		}},
		{"shape/variable-swapped-storage-fields", func(t *testing.T) {
			// A lenient reader finds the data field by name.
			storage := arrow.StructOf(
				arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(1, arrow.PrimitiveTypes.Int32), Nullable: true},
				arrow.Field{Name: "data", Type: arrow.ListOf(f64), Nullable: true})
			et, _ := (&VariableShapeTensorType{}).Deserialize(storage, "{}")
			typ := et.(*VariableShapeTensorType)
			if err := typ.Validate(); err != nil || !arrow.TypeEqual(typ.ValueType(), f64) || typ.NDim() != 1 {
				t.Fatalf("Validate %v, value type %v, ndim %d", err, typ.ValueType(), typ.NDim())
			}
			sb := array.NewStructBuilder(memory.DefaultAllocator, storage)
			defer sb.Release()
			sb.Append(true)
			shape := sb.FieldBuilder(0).(*array.FixedSizeListBuilder)
			shape.Append(true)
			shape.ValueBuilder().(*array.Int32Builder).Append(2)
			data := sb.FieldBuilder(1).(*array.ListBuilder)
			data.Append(true)
			data.ValueBuilder().(*array.Float64Builder).AppendValues([]float64{1.5, 2.5}, nil)
			st := sb.NewArray()
			defer st.Release()
			arr := array.NewExtensionArrayWithStorage(typ, st).(*VariableShapeTensorArray)
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil || arr.ValueStr(0) != "[1.5 2.5]" {
				t.Errorf("ValidateFull %v, ValueStr %q", err, arr.ValueStr(0))
			}
		}},
	}
}

// checkIPCRoundTrip writes arr as the only column of an IPC stream and file
// and checks the column read back is equal.
func checkIPCRoundTrip(t *testing.T, arr arrow.Array) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arr.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	var sbuf, fbuf bytes.Buffer
	w := ipc.NewWriter(&sbuf, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	fw, err := ipc.NewFileWriter(&fbuf, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	r, err := ipc.NewReader(&sbuf)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if !r.Next() {
		t.Fatalf("stream: %v", r.Err())
	}
	checkSameColumn(t, "stream", arr, r.RecordBatch().Column(0))
	fr, err := ipc.NewFileReader(bytes.NewReader(fbuf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	got, err := fr.RecordBatch(0)
	if err != nil {
		t.Fatal(err)
	}
	checkSameColumn(t, "file", arr, got.Column(0))
}

func checkSameColumn(t *testing.T, what string, want, got arrow.Array) {
	t.Helper()
	if !arrow.TypeEqual(want.DataType(), got.DataType()) {
		t.Fatalf("%s: type %s, want %s", what, got.DataType(), want.DataType())
	}
	if !array.Equal(want, got) {
		t.Errorf("%s: column %v, want %v", what, got, want)
	}
	for i := 0; i < want.Len(); i++ {
		if want.ValueStr(i) != got.ValueStr(i) {
			t.Errorf("%s: row %d %q, want %q", what, i, got.ValueStr(i), want.ValueStr(i))
		}
	}
	switch g := got.(type) {
	case *FixedShapeTensorArray:
		if err := g.ValidateFull(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	case *VariableShapeTensorArray:
		if err := g.ValidateFull(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	default:
		t.Errorf("%s: read back as %T", what, got)
	}
}

// ---------------------------------------------------------------------------
// Permutations against an independent numpy.transpose reference.

// allPerms returns every permutation of [0, n) in lexicographic order.
func allPerms(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range allPerms(n - 1) {
		for pos := 0; pos <= len(p); pos++ {
			q := make([]int, 0, n)
			q = append(q, p[:pos]...)
			q = append(q, n-1)
			q = append(q, p[pos:]...)
			out = append(out, q)
		}
	}
	return out
}

// refTranspose returns, for numpy.transpose(x, perm) of a row-major x of the
// given shape, the logical shape and, in logical row-major order, each
// element's logical index and flat physical index.
func refTranspose(shape, perm []int) (lshape []int, lidx [][]int, phys []int) {
	nd := len(shape)
	lshape = make([]int, nd)
	for k := range perm {
		lshape[k] = shape[perm[k]]
	}
	total := 1
	for _, d := range lshape {
		total *= d
	}
	for n := 0; n < total; n++ {
		// Decompose n into a logical index, last dimension fastest.
		l := make([]int, nd)
		rem := n
		for k := nd - 1; k >= 0; k-- {
			l[k] = rem % lshape[k]
			rem /= lshape[k]
		}
		// phys[perm[k]] = logical[k]
		p := make([]int, nd)
		for k := range perm {
			p[perm[k]] = l[k]
		}
		flat := 0
		for j := 0; j < nd; j++ {
			flat = flat*shape[j] + p[j]
		}
		lidx = append(lidx, l)
		phys = append(phys, flat)
	}
	return lshape, lidx, phys
}

func checkPermutedTensor(t *testing.T, tt Tensor, shape, perm []int, names []string, base float64) {
	t.Helper()
	lshape, lidx, phys := refTranspose(shape, perm)
	// Physical row-major strides, computed independently.
	rm := make([]int, len(shape))
	for j := range shape {
		rm[j] = 1
		for k := j + 1; k < len(shape); k++ {
			rm[j] *= shape[k]
		}
	}
	wantStrides := make([]int, len(perm))
	wantNames := make([]string, len(perm))
	for k, p := range perm {
		wantStrides[k] = rm[p]
		wantNames[k] = names[p]
	}
	if !reflect.DeepEqual(tt.Shape, shape) || !reflect.DeepEqual(tt.Strides, rm) {
		t.Errorf("physical shape %v strides %v, want %v %v", tt.Shape, tt.Strides, shape, rm)
	}
	if !reflect.DeepEqual(tt.LogicalShape(), lshape) {
		t.Errorf("LogicalShape %v, want %v", tt.LogicalShape(), lshape)
	}
	if !reflect.DeepEqual(tt.LogicalStrides(), wantStrides) {
		t.Errorf("LogicalStrides %v, want %v", tt.LogicalStrides(), wantStrides)
	}
	if !reflect.DeepEqual(tt.LogicalDimNames(), wantNames) {
		t.Errorf("LogicalDimNames %v, want %v", tt.LogicalDimNames(), wantNames)
	}
	lg := tt.Logical()
	if lg.Permutation != nil || !reflect.DeepEqual(lg.Shape, lshape) || !reflect.DeepEqual(lg.DimNames, wantNames) {
		t.Errorf("Logical() = shape %v names %v perm %v", lg.Shape, lg.DimNames, lg.Permutation)
	}
	var got []int
	lg.Positions(func(pos int) bool { got = append(got, pos); return true })
	if len(got) != len(phys) {
		t.Fatalf("Positions visited %d elements, want %d", len(got), len(phys))
	}
	for n := range phys {
		want := tt.Offset + phys[n]
		if got[n] != want {
			t.Fatalf("logical element %d %v: Positions gave %d, want %d", n, lidx[n], got[n], want)
		}
		pos, ok := lg.Pos(lidx[n]...)
		if !ok || pos != want {
			t.Fatalf("Logical().Pos(%v) = %d, %v; want %d", lidx[n], pos, ok, want)
		}
		v, ok := tt.Float64(pos)
		if !ok || v != base+float64(phys[n]) {
			t.Fatalf("logical %v = %v, %v; want %v", lidx[n], v, ok, base+float64(phys[n]))
		}
	}
	// Stopping early is honoured.
	count := 0
	lg.Positions(func(int) bool { count++; return count < 2 })
	if count != min(2, len(phys)) {
		t.Errorf("Positions did not stop: %d calls", count)
	}
}

func permutationCase(shape []int, variable bool) confCase {
	kind := "fixed"
	if variable {
		kind = "variable"
	}
	return confCase{fmt.Sprintf("permutation/%dd-%s-all-%d", len(shape), kind, len(allPerms(len(shape)))), func(t *testing.T) {
		names := []string{"a", "b", "c", "d", "e"}[:len(shape)]
		n := 1
		for _, d := range shape {
			n *= d
		}
		for _, perm := range allPerms(len(shape)) {
			t.Run(FormatShape(perm), func(t *testing.T) {
				var tt Tensor
				if variable {
					typ := mustVariable(t, arrow.PrimitiveTypes.Float64, len(shape), perm, names, nil)
					b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
					defer b.Release()
					one := make([]int, len(shape))
					for k := range one {
						one[k] = 1
					}
					if err := b.AppendTensor(one, []float64{-1}); err != nil {
						t.Fatal(err)
					}
					if err := b.AppendTensor(shape, f64s(1000, n)); err != nil {
						t.Fatal(err)
					}
					arr := b.NewVariableShapeTensorArray()
					defer arr.Release()
					sl := array.NewSlice(arr, 1, 2).(*VariableShapeTensorArray)
					defer sl.Release()
					var err error
					if tt, err = sl.Tensor(0); err != nil {
						t.Fatal(err)
					}
				} else {
					typ := mustFixed(t, arrow.PrimitiveTypes.Float64, shape, perm, names)
					if !reflect.DeepEqual(typ.LogicalShape(), permuteRef(shape, perm)) {
						t.Errorf("type LogicalShape %v", typ.LogicalShape())
					}
					b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
					defer b.Release()
					b.AppendNull()
					if err := b.AppendTensor(f64s(1000, n)); err != nil {
						t.Fatal(err)
					}
					arr := b.NewFixedShapeTensorArray()
					defer arr.Release()
					sl := array.NewSlice(arr, 1, 2).(*FixedShapeTensorArray)
					defer sl.Release()
					var err error
					if tt, err = sl.Tensor(0); err != nil {
						t.Fatal(err)
					}
					if tt.Offset != n {
						t.Errorf("Offset %d, want %d", tt.Offset, n)
					}
				}
				if !reflect.DeepEqual(tt.Permutation, perm) {
					t.Errorf("Tensor.Permutation %v", tt.Permutation)
				}
				checkPermutedTensor(t, tt, shape, perm, names, 1000)
			})
		}
	}}
}

func permuteRef(v, perm []int) []int {
	out := make([]int, len(perm))
	for k, p := range perm {
		out[k] = v[p]
	}
	return out
}

func permutationCases() []confCase {
	return []confCase{
		permutationCase([]int{2, 3, 4}, false),
		permutationCase([]int{2, 3, 4}, true),
		permutationCase([]int{2, 3, 1, 5}, false),
		permutationCase([]int{3, 2, 4, 2}, true),
		{"permutation/spec-example-100x200x500", func(t *testing.T) {
			typ := mustFixed(t, arrow.PrimitiveTypes.Uint8, []int{100, 200, 500}, []int{2, 0, 1}, []string{"C", "H", "W"})
			if got := typ.LogicalShape(); !reflect.DeepEqual(got, []int{500, 100, 200}) {
				t.Errorf("LogicalShape %v, want [500 100 200]", got)
			}
			if got := typ.LogicalDimNames(); !reflect.DeepEqual(got, []string{"W", "C", "H"}) {
				t.Errorf("LogicalDimNames %v, want [W C H]", got)
			}
		}},
	}
}

// ---------------------------------------------------------------------------
// uniform_shape.

func uniformShapeCases() []confCase {
	f64 := arrow.PrimitiveTypes.Float64
	V := VaryingDim
	return []confCase{
		{"uniform-shape/matching-rows-with-nulls", func(t *testing.T) {
			typ := mustVariable(t, f64, 3, nil, nil, []int{V, 2, V})
			arr := buildVar(t, typ, []vrow{
				{shape: []int32{1, 2, 1}, vals: f64s(0, 2)},
				{null: true},
				{garbage: true, shape: []int32{9, 9, 9}},
				{dataNull: true, shape: []int32{4, 4, 4}},
				{shape: []int32{0, 2, 5}},
				{shape: []int32{3, 2, 1}, vals: f64s(0, 6)},
			})
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Errorf("ValidateFull = %v", err)
			}
		}},
		{"uniform-shape/first-mismatching-row", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, nil, nil, []int{V, 3})
			arr := buildVar(t, typ, []vrow{
				{shape: []int32{2, 3}, vals: f64s(0, 6)},
				{null: true},
				{shape: []int32{1, 3}, vals: f64s(0, 3)},
				{shape: []int32{2, 4}, vals: f64s(0, 8)},
				{shape: []int32{1, 5}, vals: f64s(0, 5)},
			})
			defer arr.Release()
			want := "row 3: shape [2,4] does not match uniform_shape [null,3] in dimension 1"
			if err := arr.ValidateFull(); err == nil || err.Error() != want {
				t.Errorf("ValidateFull = %v, want %q", err, want)
			}
			// Rows that disagree with uniform_shape are still viewable.
			if tt, err := arr.Tensor(3); err != nil || tt.Len() != 8 {
				t.Errorf("Tensor(3) = %v, %v", tt.Shape, err)
			}
			// In a slice, row numbers are the slice's.
			sl := array.NewSlice(arr, 4, 5).(*VariableShapeTensorArray)
			defer sl.Release()
			want = "row 0: shape [1,5] does not match uniform_shape [null,3] in dimension 1"
			if err := sl.ValidateFull(); err == nil || err.Error() != want {
				t.Errorf("sliced ValidateFull = %v, want %q", err, want)
			}
		}},
		{"uniform-shape/builder-rejects-mismatch", func(t *testing.T) {
			typ := mustVariable(t, f64, 2, nil, nil, []int{2, V})
			b := NewVariableShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			if err := b.AppendTensor([]int{3, 1}, f64s(0, 3)); err == nil {
				t.Error("row against uniform_shape accepted")
			}
			if err := b.AppendTensor([]int{2, 1}, f64s(0, 3)); err == nil || err.Error() != "tensorext: Expected data array of length 2, got 3" {
				t.Errorf("wrong length: %v", err)
			}
			if err := b.AppendTensor([]int{2}, f64s(0, 2)); err == nil {
				t.Error("wrong ndim accepted")
			}
			if err := b.AppendTensor([]int{2, 0}, []float64{}); err != nil {
				t.Error(err)
			}
			if b.Len() != 1 {
				t.Errorf("builder has %d rows, want 1", b.Len())
			}
		}},
	}
}

// ---------------------------------------------------------------------------
// Value types.

type numType struct {
	dt   arrow.DataType
	vals any       // physical values of a [2,3] tensor
	want []float64 // the same values as float64
}

func numericTypes() []numType {
	return []numType{
		{arrow.PrimitiveTypes.Int8, []int8{-128, -1, 0, 1, 2, 127}, []float64{-128, -1, 0, 1, 2, 127}},
		{arrow.PrimitiveTypes.Int16, []int16{-32768, -1, 0, 1, 2, 32767}, []float64{-32768, -1, 0, 1, 2, 32767}},
		{arrow.PrimitiveTypes.Int32, []int32{-1 << 31, -1, 0, 1, 2, 1<<31 - 1}, []float64{-1 << 31, -1, 0, 1, 2, 1<<31 - 1}},
		{arrow.PrimitiveTypes.Int64, []int64{-1 << 53, -1, 0, 1, 2, 1 << 53}, []float64{-1 << 53, -1, 0, 1, 2, 1 << 53}},
		{arrow.PrimitiveTypes.Uint8, []uint8{0, 1, 2, 3, 254, 255}, []float64{0, 1, 2, 3, 254, 255}},
		{arrow.PrimitiveTypes.Uint16, []uint16{0, 1, 2, 3, 4, 65535}, []float64{0, 1, 2, 3, 4, 65535}},
		{arrow.PrimitiveTypes.Uint32, []uint32{0, 1, 2, 3, 4, 1<<32 - 1}, []float64{0, 1, 2, 3, 4, 1<<32 - 1}},
		{arrow.PrimitiveTypes.Uint64, []uint64{0, 1, 2, 3, 4, 1 << 63}, []float64{0, 1, 2, 3, 4, 1 << 63}},
		{arrow.FixedWidthTypes.Float16, []float16.Num{float16.New(0.5), float16.New(-1.25), float16.New(0), float16.New(2), float16.New(65504), float16.New(-3)},
			[]float64{0.5, -1.25, 0, 2, 65504, -3}},
		{arrow.PrimitiveTypes.Float32, []float32{0.5, -1.25, 0, 2, 3.75, -3}, []float64{0.5, -1.25, 0, 2, 3.75, -3}},
		{arrow.PrimitiveTypes.Float64, []float64{0.1, -1e300, 0, 2, 5e-324, -3}, []float64{0.1, -1e300, 0, 2, 5e-324, -3}},
		{arrow.FixedWidthTypes.Boolean, []bool{true, false, false, true, true, false}, []float64{1, 0, 0, 1, 1, 0}},
	}
}

// wrongSlice returns a Go slice of a type no builder accepts for dt.
func wrongSlice(dt arrow.DataType) any {
	if dt.ID() == arrow.INT8 {
		return []uint8{0, 0, 0, 0, 0, 0}
	}
	return []int8{0, 0, 0, 0, 0, 0}
}

func valueTypeCases() []confCase {
	// Logical order of a [2,3] tensor under permutation [1,0].
	lorder := []int{0, 3, 1, 4, 2, 5}
	cs := []confCase{{"value-types/numeric-fixed-and-variable", func(t *testing.T) {
		for _, nt := range numericTypes() {
			t.Run(nt.dt.String(), func(t *testing.T) {
				want := make([]float64, 6)
				for i, p := range lorder {
					want[i] = nt.want[p]
				}
				ft := mustFixed(t, nt.dt, []int{2, 3}, []int{1, 0}, nil)
				fb := NewFixedShapeTensorBuilder(memory.DefaultAllocator, ft)
				defer fb.Release()
				if err := fb.AppendTensor(wrongSlice(nt.dt)); err == nil {
					t.Errorf("%T accepted for %s", wrongSlice(nt.dt), nt.dt)
				}
				if err := fb.AppendTensor(nt.vals); err != nil {
					t.Fatal(err)
				}
				fa := fb.NewFixedShapeTensorArray()
				defer fa.Release()
				vt := mustVariable(t, nt.dt, 2, []int{1, 0}, nil, nil)
				vb := NewVariableShapeTensorBuilder(memory.DefaultAllocator, vt)
				defer vb.Release()
				if err := vb.AppendTensor([]int{2, 3}, wrongSlice(nt.dt)); err == nil {
					t.Errorf("%T accepted for %s", wrongSlice(nt.dt), nt.dt)
				}
				if err := vb.AppendTensor([]int{2, 3}, nt.vals); err != nil {
					t.Fatal(err)
				}
				va := vb.NewVariableShapeTensorArray()
				defer va.Release()
				for _, a := range []interface {
					arrow.Array
					Tensor(int) (Tensor, error)
				}{fa, va} {
					if a.Len() != 1 {
						t.Fatalf("%T has %d rows", a, a.Len())
					}
					tt, err := a.Tensor(0)
					if err != nil {
						t.Fatal(err)
					}
					if !arrow.TypeEqual(tt.ValueType(), nt.dt) {
						t.Errorf("ValueType %s", tt.ValueType())
					}
					if got := floats(t, tt.Logical()); !reflect.DeepEqual(got, want) {
						t.Errorf("%T logical values %v, want %v", a, got, want)
					}
				}
				if fa.ValueStr(0) != va.ValueStr(0) {
					t.Errorf("fixed %q and variable %q print differently", fa.ValueStr(0), va.ValueStr(0))
				}
				checkIPCRoundTrip(t, fa)
				checkIPCRoundTrip(t, va)
			})
		}
	}}}

	other := []struct {
		name   string
		dt     arrow.DataType
		append func(b array.Builder)
		want   []string // ValueStr of each element, physical order
		row    string
	}{
		{"decimal128", &arrow.Decimal128Type{Precision: 9, Scale: 2}, func(b array.Builder) {
			db := b.(*array.Decimal128Builder)
			db.Append(decimal128.FromI64(12345))
			db.AppendNull()
			db.Append(decimal128.FromI64(-5))
			db.Append(decimal128.FromI64(0))
		}, []string{"123.45", "(null)", "-0.05", "0"}, "[[123.45 (null)] [-0.05 0]]"},
		{"date32", arrow.FixedWidthTypes.Date32, func(b array.Builder) {
			db := b.(*array.Date32Builder)
			for _, d := range []time.Time{time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)} {
				db.Append(arrow.Date32FromTime(d))
			}
			db.AppendNull()
		}, []string{"2024-01-02", "1970-01-01", "1969-12-31", "(null)"}, "[[2024-01-02 1970-01-01] [1969-12-31 (null)]]"},
		{"timestamp-ms-utc", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, func(b array.Builder) {
			tb := b.(*array.TimestampBuilder)
			tb.Append(arrow.Timestamp(0))
			tb.Append(arrow.Timestamp(1700000000123))
			tb.AppendNull()
			tb.Append(arrow.Timestamp(-1000))
		}, []string{"1970-01-01T00:00:00Z", "2023-11-14T22:13:20.123Z", "(null)", "1969-12-31T23:59:59Z"},
			"[[1970-01-01T00:00:00Z 2023-11-14T22:13:20.123Z] [(null) 1969-12-31T23:59:59Z]]"},
		{"fixed-size-binary-4", &arrow.FixedSizeBinaryType{ByteWidth: 4}, func(b array.Builder) {
			fb := b.(*array.FixedSizeBinaryBuilder)
			fb.Append([]byte{1, 2, 3, 4})
			fb.Append([]byte("abcd"))
			fb.AppendNull()
			fb.Append([]byte{0, 0, 0, 0})
		}, []string{"AQIDBA==", "YWJjZA==", "(null)", "AAAAAA=="}, "[[AQIDBA== YWJjZA==] [(null) AAAAAA==]]"},
	}
	for _, o := range other {
		cs = append(cs, confCase{"value-types/" + o.name, func(t *testing.T) {
			typ := mustFixed(t, o.dt, []int{2, 2}, []int{1, 0}, nil)
			b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
			defer b.Release()
			if err := b.AppendTensor([]int64{1, 2, 3, 4}); err == nil {
				t.Errorf("AppendTensor of []int64 accepted for %s", o.dt)
			}
			b.AppendNull()
			b.Append(true)
			o.append(b.ValueBuilder())
			arr := b.NewFixedShapeTensorArray()
			defer arr.Release()
			if err := arr.ValidateFull(); err != nil {
				t.Fatal(err)
			}
			tt, err := arr.Tensor(1)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			tt.Positions(func(pos int) bool {
				got = append(got, tt.ValueStr(pos))
				if _, ok := tt.Float64(pos); ok {
					t.Errorf("Float64 ok for %s", o.dt)
				}
				return true
			})
			if !reflect.DeepEqual(got, o.want) {
				t.Errorf("element ValueStr %q, want %q", got, o.want)
			}
			if s := arr.ValueStr(1); s != o.row {
				t.Errorf("row ValueStr %q, want %q", s, o.row)
			}
			lpos, _ := tt.Logical().Pos(0, 1) // logical (0,1) = physical (1,0)
			if s := tt.ValueStr(lpos); s != o.want[2] {
				t.Errorf("logical (0,1) = %q, want %q", s, o.want[2])
			}
			checkIPCRoundTrip(t, arr)
		}})
	}
	return cs
}

// ---------------------------------------------------------------------------
// ExtensionEquals and String.

func equalityCases() []confCase {
	u8, f32 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Float32
	V := VaryingDim
	eq := func(t *testing.T, a, b arrow.ExtensionType, want bool) {
		t.Helper()
		if a.ExtensionEquals(b) != want || b.ExtensionEquals(a) != want {
			t.Errorf("%s == %s: got %v/%v, want %v", a, b, a.ExtensionEquals(b), b.ExtensionEquals(a), want)
		}
	}
	return []confCase{
		{"equals/fixed", func(t *testing.T) {
			base := mustFixed(t, u8, []int{2, 3}, nil, []string{"H", "W"})
			eq(t, base, base, true)
			eq(t, base, mustFixed(t, u8, []int{2, 3}, []int{0, 1}, []string{"H", "W"}), true)
			eq(t, base, mustFixed(t, u8, []int{2, 3}, []int{1, 0}, []string{"H", "W"}), false)
			eq(t, base, mustFixed(t, u8, []int{3, 2}, nil, []string{"H", "W"}), false) // same FixedSizeList[6]
			eq(t, base, mustFixed(t, u8, []int{6}, nil, []string{"H"}), false)
			eq(t, base, mustFixed(t, u8, []int{2, 3}, nil, []string{"W", "H"}), false)
			eq(t, base, mustFixed(t, u8, []int{2, 3}, nil, nil), false)
			eq(t, base, mustFixed(t, f32, []int{2, 3}, nil, []string{"H", "W"}), false)
			eq(t, base, mustVariable(t, u8, 2, nil, []string{"H", "W"}, nil), false)
			// Parsed from arrow-rs metadata, equal to the same type built here.
			et, _ := (&FixedShapeTensorType{}).Deserialize(base.StorageType(), `{"shape":[2,3],"dim_names":["H","W"],"permutations":null}`)
			eq(t, base, et, true)
		}},
		{"equals/variable", func(t *testing.T) {
			base := mustVariable(t, f32, 2, nil, []string{"H", "W"}, []int{V, 3})
			eq(t, base, base, true)
			eq(t, base, mustVariable(t, f32, 2, []int{0, 1}, []string{"H", "W"}, []int{V, 3}), true)
			eq(t, base, mustVariable(t, f32, 2, []int{1, 0}, []string{"H", "W"}, []int{V, 3}), false)
			eq(t, base, mustVariable(t, f32, 2, nil, []string{"H", "X"}, []int{V, 3}), false)
			eq(t, base, mustVariable(t, f32, 2, nil, nil, []int{V, 3}), false)
			eq(t, base, mustVariable(t, f32, 2, nil, []string{"H", "W"}, []int{V, 4}), false)
			eq(t, base, mustVariable(t, f32, 2, nil, []string{"H", "W"}, []int{3, V}), false)
			eq(t, base, mustVariable(t, f32, 2, nil, []string{"H", "W"}, nil), false)
			eq(t, base, mustVariable(t, u8, 2, nil, []string{"H", "W"}, []int{V, 3}), false)
			eq(t, mustVariable(t, f32, 2, nil, nil, nil), mustVariable(t, f32, 3, nil, nil, nil), false)
			et, _ := (&VariableShapeTensorType{}).Deserialize(base.StorageType(), `{"uniform_shape":[null,3],"dim_names":["H","W"],"extra":1}`)
			eq(t, base, et, true)
		}},
		{"string/fixed-and-variable", func(t *testing.T) {
			for _, c := range []struct {
				typ  arrow.ExtensionType
				want string
			}{
				{mustFixed(t, u8, []int{4, 3, 3}, nil, []string{"H", "W", "C"}), "extension<arrow.fixed_shape_tensor[value_type=uint8, shape=[4,3,3], dim_names=[H,W,C]]>"},
				{mustFixed(t, f32, []int{2, 2}, []int{1, 0}, nil), "extension<arrow.fixed_shape_tensor[value_type=float32, shape=[2,2], permutation=[1,0]]>"},
				{mustFixed(t, f32, []int{}, nil, nil), "extension<arrow.fixed_shape_tensor[value_type=float32, shape=[]]>"},
				{mustVariable(t, f32, 3, nil, []string{"H", "W", "C"}, []int{V, V, 3}),
					"extension<arrow.variable_shape_tensor[value_type=float32, ndim=3, dim_names=[H,W,C], uniform_shape=[null,null,3]]>"},
				{mustVariable(t, u8, 2, []int{1, 0}, nil, nil), "extension<arrow.variable_shape_tensor[value_type=uint8, ndim=2, permutation=[1,0]]>"},
				{mustVariable(t, u8, 1, nil, nil, []int{10}), "extension<arrow.variable_shape_tensor[value_type=uint8, ndim=1, uniform_shape=[10]]>"},
			} {
				if got := c.typ.String(); got != c.want {
					t.Errorf("String() = %s\nwant       %s", got, c.want)
				}
			}
			// Invalid types print without panicking.
			et, _ := (&FixedShapeTensorType{}).Deserialize(arrow.PrimitiveTypes.Int32, `{"shape":[2]}`)
			if s := et.String(); !strings.Contains(s, "value_type=?") {
				t.Errorf("invalid fixed type String() = %s", s)
			}
			et, _ = (&VariableShapeTensorType{}).Deserialize(arrow.PrimitiveTypes.Int32, `{}`)
			if s := et.String(); !strings.HasPrefix(s, "extension<arrow.variable_shape_tensor[") {
				t.Errorf("invalid variable type String() = %s", s)
			}
		}},
	}
}
