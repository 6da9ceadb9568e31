package tensorext

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// ValueStr returns element i of arr as text, as arrow-go's arr.ValueStr(i)
// does, except that every float16 value in it is converted exactly
// (Float16ToFloat64), at any depth: a float16 array's element, and the
// float16 values inside lists (List, LargeList, FixedSizeList, ListView,
// LargeListView), maps, structs, unions, dictionaries, run-end encoded
// arrays and extension arrays' storage. arrow-go v18.8.0 decodes float16
// subnormals wrongly there (bits 0x0001 as 1.148e-41, not 2^-24), and its
// struct and union texts panic on a float16 NaN or infinity.
//
// The text is arrow-go's, value for value: a float16 element is the
// shortest decimal that reads back as the same float32
// (strconv.FormatFloat(v, 'g', -1, 32): "5.9604645e-08", "NaN", "+Inf");
// inside JSON texts (lists, maps, structs, unions) a float16 is written as
// arrow-go writes a float32 there: a JSON number ("5.9604645e-8" with the
// build tag arrow_json_stdlib, which the viewer's builds use, else
// "5.9604645e-08": arrow-go's JSON library, see json_goccy.go; "0.7001953"),
// or the strings "NaN", "+Inf" and "-Inf". A null is
// "(null)" (array.NullValueStr) at the top, null inside. Arrays whose type
// holds no float16 are arr.ValueStr(i), unchanged. The canonical tensor
// arrays of this package format their rows themselves (their ValueStr,
// exact too); other extension arrays holding float16 show their storage's
// text. Like arrow-go's, it panics when i is out of range or arr is
// malformed (offsets past its child).
func ValueStr(arr arrow.Array, i int) string {
	if !HasFloat16(arr.DataType()) {
		return arr.ValueStr(i)
	}
	switch a := arr.(type) {
	case *FixedShapeTensorArray, *VariableShapeTensorArray:
		return arr.ValueStr(i)
	case array.ExtensionArray:
		return ValueStr(a.Storage(), i)
	case *array.Dictionary:
		if a.IsNull(i) {
			return array.NullValueStr
		}
		return ValueStr(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return ValueStr(a.Values(), a.GetPhysicalIndex(i))
	}
	if arr.IsNull(i) {
		return array.NullValueStr
	}
	if f, ok := arr.(*array.Float16); ok {
		return strconv.FormatFloat(Float16ToFloat64(f.Value(i)), 'g', -1, 32)
	}
	v := marshalOne(arr, i)
	if v == nil {
		return array.NullValueStr // a union whose child is null there
	}
	b, err := marshalJSON(v)
	if err != nil {
		panic(err) // as arrow-go's ValueStr does; unreachable: no NaN is left
	}
	return string(b)
}

// marshalOne is arrow-go's GetOneForMarshal with float16 exact: the Go
// value that encoding/json writes as element i of arr in arrow-go's JSON
// texts. A float16 is a float32, or "NaN", "+Inf" or "-Inf" as arrow-go
// writes non-finite float32s (never a NaN float, which json cannot write).
func marshalOne(arr arrow.Array, i int) any {
	if !HasFloat16(arr.DataType()) {
		return arr.GetOneForMarshal(i)
	}
	switch a := arr.(type) {
	case array.ExtensionArray:
		return marshalOne(a.Storage(), i)
	case *array.Dictionary:
		if a.IsNull(i) {
			return nil
		}
		return marshalOne(a.Dictionary(), a.GetValueIndex(i))
	case *array.RunEndEncoded:
		return marshalOne(a.Values(), a.GetPhysicalIndex(i))
	case *array.SparseUnion:
		child := a.Field(a.ChildID(i))
		if child.IsNull(i) {
			return nil
		}
		return []any{a.RawTypeCodes()[i], marshalOne(child, i)}
	case *array.DenseUnion:
		child, off := a.Field(a.ChildID(i)), int(a.RawValueOffsets()[i])
		if child.IsNull(off) {
			return nil
		}
		return []any{a.RawTypeCodes()[i], marshalOne(child, off)}
	}
	if arr.IsNull(i) {
		return nil
	}
	switch a := arr.(type) {
	case *array.Float16:
		f := float32(Float16ToFloat64(a.Value(i)))
		switch {
		case f != f:
			return "NaN"
		case math.IsInf(float64(f), 1):
			return "+Inf"
		case math.IsInf(float64(f), -1):
			return "-Inf"
		}
		return f
	case array.ListLike: // List, LargeList, FixedSizeList, the list views, Map
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		out := make([]any, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, marshalOne(vals, int(j)))
		}
		b, err := marshalJSON(out)
		if err != nil {
			panic(err)
		}
		return rawJSON(b)
	case *array.Struct:
		fields := a.DataType().(*arrow.StructType).Fields()
		out := make(map[string]any, len(fields))
		for k, f := range fields {
			out[f.Name] = marshalOne(a.Field(k), i)
		}
		return out
	}
	return arr.GetOneForMarshal(i)
}

// HasFloat16 reports whether dt is float16 or holds float16 values at any
// depth: in a nested type's fields (lists, structs, maps, unions, run-end
// encoded values), a dictionary's values or an extension type's storage.
func HasFloat16(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case nil:
		return false
	case arrow.ExtensionType:
		return HasFloat16(t.StorageType())
	case *arrow.DictionaryType:
		return HasFloat16(t.ValueType)
	case arrow.NestedType:
		for _, f := range t.Fields() {
			if HasFloat16(f.Type) {
				return true
			}
		}
		return false
	}
	return dt.ID() == arrow.FLOAT16
}
