package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// Ray Data's tensor extension types (ray-project/ray
// python/ray/data/_internal/tensor_extensions/arrow.py @ 18a29212, earlier
// python/ray/air/util/tensor_extensions/arrow.py @ 00501e2b):
//
//   - "ray.data.arrow_tensor" (ArrowTensorType): storage List<T> (int32
//     offsets), each row the tensor's values flattened in C order; the
//     metadata is the shape, a tuple of ints.
//   - "ray.data.arrow_tensor_v2" (ArrowTensorTypeV2): the same with
//     LargeList<T> (int64 offsets).
//   - "ray.data.arrow_variable_shaped_tensor" (ArrowVariableShapedTensorType):
//     storage Struct<data: LargeList<T>, shape: List<int64>>, each row its
//     flattened values and its own shape; the metadata is ndim, one int.
//
// The metadata is cloudpickle.dumps(shape or ndim) by default, or
// json.dumps(shape or ndim) ("[28, 28]", "2") when the writer set
// RAY_DATA_ARROW_EXTENSION_SERIALIZATION_LEGACY_JSON_FORMAT=1 and in older
// releases; Ray reads either (_deserialize_with_fallback). Pickles are read
// by ReadPickledInts, never unpickled. Ray also writes string tensors as
// FixedSizeBinary values: those are not numeric and are shown as storage.

const (
	rayTensor         = "ray.data.arrow_tensor"
	rayTensorV2       = "ray.data.arrow_tensor_v2"
	rayVariableTensor = "ray.data.arrow_variable_shaped_tensor"
)

// pickleAdvisory is why a pickle is never unpickled.
const pickleAdvisory = "unpickling it could run code (CVE-2026-41486, GHSA-mw35-8rx3-xf9r)"

type rayAdapter struct{}

func init() { Register(rayAdapter{}) }

func (rayAdapter) Name() string  { return "ray" }
func (rayAdapter) Priority() int { return 10 }

// Match recognises the three Ray extension names. It returns (nil, err)
// for a Ray column it cannot read: metadata that is neither JSON nor a
// pickle of ints (err says the column is shown as its storage and why a
// pickle is not run), storage that is not Ray's layout, or a value type
// that is not numeric.
func (rayAdapter) Match(in Input) (*Column, error) {
	switch in.Extension {
	case rayTensor, rayTensorV2:
		return rayFixed(in)
	case rayVariableTensor:
		return rayVariable(in)
	}
	return nil, nil
}

// rayMetadata reads Ray's metadata: JSON or a pickle of one int (scalar) or
// a tuple of ints. how says which ("JSON", "pickled").
func rayMetadata(in Input) (ints []int, scalar bool, how string, err error) {
	raw := []byte(in.Metadata)
	if len(raw) > 0 && raw[0] == 0x80 {
		ints, scalar, err = ReadPickledInts(raw)
		if err != nil {
			return nil, false, "", fmt.Errorf("Ray column %q (%s) is shown as its storage: its metadata is a Python pickle, which tensorview does not execute because %s, and it is not a plain tuple of ints that can be read as data: %v",
				in.Field.Name, in.Extension, pickleAdvisory, err)
		}
		return ints, scalar, "pickled metadata (read as data, never unpickled)", nil
	}
	if len(raw) > maxPickleLen {
		return nil, false, "", fmt.Errorf("Ray column %q (%s) is shown as its storage: its metadata has %d bytes, more than a shape needs", in.Field.Name, in.Extension, len(raw))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false, "", fmt.Errorf("Ray column %q (%s) is shown as its storage: its metadata %q is neither JSON nor a pickle", in.Field.Name, in.Extension, short(in.Metadata))
	}
	if dec.More() {
		return nil, false, "", fmt.Errorf("Ray column %q (%s) is shown as its storage: its metadata %q has text after the JSON value", in.Field.Name, in.Extension, short(in.Metadata))
	}
	bad := fmt.Errorf("Ray column %q (%s) is shown as its storage: its JSON metadata %q is not a non-negative int or a list of them", in.Field.Name, in.Extension, short(in.Metadata))
	switch x := v.(type) {
	case json.Number:
		n, ok := jsonInt(x)
		if !ok {
			return nil, false, "", bad
		}
		return []int{n}, true, "JSON metadata", nil
	case []any:
		if len(x) > maxNDim {
			return nil, false, "", fmt.Errorf("Ray column %q (%s) is shown as its storage: its shape has %d dimensions, more than %d", in.Field.Name, in.Extension, len(x), maxNDim)
		}
		ints = make([]int, len(x))
		for k, e := range x {
			num, isNum := e.(json.Number)
			n, ok := jsonInt(num)
			if !isNum || !ok {
				return nil, false, "", bad
			}
			ints[k] = n
		}
		return ints, false, "JSON metadata", nil
	}
	return nil, false, "", bad
}

// jsonInt returns n as an int in [0, 2^62], or ok false.
func jsonInt(n json.Number) (int, bool) {
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || v < 0 || v > maxElems {
		return 0, false
	}
	return int(v), true
}

// short quotes at most 60 bytes of s for an error.
func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

func rayFixed(in Input) (*Column, error) {
	shape, scalar, how, err := rayMetadata(in)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("Ray column %q (%s)", in.Field.Name, in.Extension)
	if scalar {
		return nil, fmt.Errorf("%s is shown as its storage: its metadata is one int, %d, where Ray writes the shape as a tuple", name, shape[0])
	}
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("%s is shown as its storage: %v", name, err)
	}
	st := storageType(in.Field.Type)
	vt, ok := flatListElem(st)
	if !ok {
		return nil, fmt.Errorf("%s is shown as its storage: its storage is %s, where Ray writes List or LargeList of the values", name, typeString(st))
	}
	if !isNumericType(vt) {
		return nil, fmt.Errorf("%s is shown as its storage: its value type %s is not numeric", name, vt)
	}
	return &Column{
		Dialect:   fmt.Sprintf("Ray tensor (%s)", in.Extension),
		Why:       fmt.Sprintf("extension name %q, shape %s from its %s", in.Extension, tensorext.FormatShape(shape), how),
		ValueType: vt,
		Shape:     shape,
		NDim:      len(shape),
		Tensor: func(arr arrow.Array, i int) (tensorext.Tensor, error) {
			values, start, end, _, err := nestedRow(storageOf(arr), i, []int{-1})
			if err != nil {
				return tensorext.Tensor{}, err
			}
			return rowTensor(i, values, start, end, shape)
		},
	}, nil
}

// flatListElem returns the element type of a List or LargeList.
func flatListElem(dt arrow.DataType) (arrow.DataType, bool) {
	switch t := dt.(type) {
	case *arrow.ListType:
		return t.Elem(), true
	case *arrow.LargeListType:
		return t.Elem(), true
	}
	return nil, false
}

func rayVariable(in Input) (*Column, error) {
	v, scalar, how, err := rayMetadata(in)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("Ray column %q (%s)", in.Field.Name, in.Extension)
	if !scalar {
		return nil, fmt.Errorf("%s is shown as its storage: its metadata is a list, where Ray writes ndim as one int", name)
	}
	ndim := v[0]
	if ndim > maxNDim {
		return nil, fmt.Errorf("%s is shown as its storage: ndim %d is more than %d", name, ndim, maxNDim)
	}
	st, ok := storageType(in.Field.Type).(*arrow.StructType)
	if !ok {
		return nil, fmt.Errorf("%s is shown as its storage: its storage is %s, where Ray writes Struct<data: LargeList<T>, shape: List<int64>>", name, typeString(storageType(in.Field.Type)))
	}
	di, si, ok := rayStructFields(st)
	if !ok {
		return nil, fmt.Errorf("%s is shown as its storage: its storage is %s, where Ray writes Struct<data: LargeList<T>, shape: List<int64>>", name, typeString(st))
	}
	vt, _ := flatListElem(st.Field(di).Type)
	if !isNumericType(vt) {
		return nil, fmt.Errorf("%s is shown as its storage: its value type %s is not numeric", name, vt)
	}
	return &Column{
		Dialect:   fmt.Sprintf("Ray variable-shaped tensor (%s)", in.Extension),
		Why:       fmt.Sprintf("extension name %q, ndim %d from its %s; each row's shape from its shape field", in.Extension, ndim, how),
		ValueType: vt,
		NDim:      ndim,
		Tensor: func(arr arrow.Array, i int) (tensorext.Tensor, error) {
			s, ok := storageOf(arr).(*array.Struct)
			if !ok || s.NumField() != st.NumFields() {
				return tensorext.Tensor{}, fmt.Errorf("the array is %s, not the column's struct", arr.DataType())
			}
			if i < 0 || i >= s.Len() {
				return tensorext.Tensor{}, fmt.Errorf("row %d out of range [0, %d)", i, s.Len())
			}
			if s.IsNull(i) {
				return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, tensorext.ErrNullTensor)
			}
			shape, err := rayRowShape(s.Field(si), i, ndim)
			if err != nil {
				return tensorext.Tensor{}, err
			}
			values, start, end, _, err := nestedRow(s.Field(di), i, []int{-1})
			if err != nil {
				return tensorext.Tensor{}, err
			}
			return rowTensor(i, values, start, end, shape)
		},
	}, nil
}

// rayStructFields finds the data and shape fields of Ray's variable-shaped
// storage by name, or else as the first two of exactly two fields: data a
// List or LargeList, shape a List, LargeList or FixedSizeList of integers.
func rayStructFields(st *arrow.StructType) (data, shape int, ok bool) {
	data, okd := st.FieldIdx("data")
	shape, oks := st.FieldIdx("shape")
	if !okd || !oks {
		if st.NumFields() != 2 {
			return 0, 0, false
		}
		data, shape = 0, 1
	}
	if _, ok := flatListElem(st.Field(data).Type); !ok {
		return 0, 0, false
	}
	elem, ok := isListType(st.Field(shape).Type)
	if !ok || !isIntegerType(elem) {
		return 0, 0, false
	}
	return data, shape, true
}

func isIntegerType(dt arrow.DataType) bool {
	return dt != nil && isNumericType(dt) && arrow.IsInteger(dt.ID())
}

// rayRowShape reads row i of Ray's shape field: ndim non-negative ints.
func rayRowShape(shapes arrow.Array, i, ndim int) ([]int, error) {
	ints, start, end, _, err := nestedRow(shapes, i, []int{-1})
	if err != nil {
		if errors.Is(err, tensorext.ErrNullTensor) {
			return nil, fmt.Errorf("row %d: its shape is null", i)
		}
		return nil, fmt.Errorf("shape of %w", err)
	}
	if end-start != ndim {
		return nil, fmt.Errorf("row %d: its shape has %d entries, the column's ndim is %d", i, end-start, ndim)
	}
	shape := make([]int, ndim)
	for k := range shape {
		v, err := Int(ints, start+k, maxElems)
		if err != nil {
			return nil, fmt.Errorf("row %d: shape entry %d: %v", i, k, err)
		}
		shape[k] = v
	}
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("row %d: %v", i, err)
	}
	return shape, nil
}
