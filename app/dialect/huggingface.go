package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Hugging Face datasets' Array2D … Array5D features
// (huggingface/datasets src/datasets/features/features.py @ b7cb10b0,
// _ArrayXDExtensionType and its subclasses):
//
//   - extension name "datasets.features.features.Array<N>DExtensionType",
//     N = 2..5 (the class's module and name);
//   - storage: N levels of List (pa.list_, int32 offsets) around the value
//     type, one level per dimension, outer first (_generate_dtype);
//   - metadata: json.dumps((shape, dtype)), for example
//     `[[2, 3], "float32"]`; shape[0] may be null (a first dimension that
//     varies from row to row), the others may not.
//
// dtype is a datasets dtype name (string_to_arrow): "bool", "int8" …
// "uint64", "float16", "float32", "float64"; others are not numeric and the
// column is shown as its storage. Readers here also accept LargeList and
// FixedSizeList levels.

const hfPrefix = "datasets.features.features.Array"

// hfDtypes maps the datasets dtype names of numeric types (and pyarrow's
// aliases string_to_arrow also resolves) to Arrow type IDs.
var hfDtypes = map[string]arrow.Type{
	"bool": arrow.BOOL, "int8": arrow.INT8, "int16": arrow.INT16, "int32": arrow.INT32, "int64": arrow.INT64,
	"uint8": arrow.UINT8, "uint16": arrow.UINT16, "uint32": arrow.UINT32, "uint64": arrow.UINT64,
	"float16": arrow.FLOAT16, "float32": arrow.FLOAT32, "float64": arrow.FLOAT64,
	"halffloat": arrow.FLOAT16, "float": arrow.FLOAT32, "double": arrow.FLOAT64,
}

type hfAdapter struct{}

func init() { Register(hfAdapter{}) }

func (hfAdapter) Name() string  { return "huggingface" }
func (hfAdapter) Priority() int { return 20 }

// Match recognises the four ArrayND extension names. It returns (nil, err)
// when the metadata is not [shape, dtype] with N dimensions (only the first
// may be null), the storage is not N nested lists of the dtype, or the
// dtype is not numeric.
func (hfAdapter) Match(in Input) (*Column, error) {
	n := hfNDim(in.Extension)
	if n == 0 {
		return nil, nil
	}
	name := fmt.Sprintf("Hugging Face column %q (Array%dD)", in.Field.Name, n)
	shape, dtype, err := hfMetadata(in.Metadata, n)
	if err != nil {
		return nil, fmt.Errorf("%s is shown as its storage: its metadata %q %v", name, short(in.Metadata), err)
	}
	st := storageType(in.Field.Type)
	vt, depth := st, 0
	for {
		elem, ok := isListType(vt)
		if !ok || depth > n {
			break
		}
		vt, depth = elem, depth+1
	}
	if depth != n {
		return nil, fmt.Errorf("%s is shown as its storage: its storage %s has %d levels of lists, Array%dD has %d", name, typeString(st), depth, n, n)
	}
	id, known := hfDtypes[dtype]
	if !known {
		return nil, fmt.Errorf("%s is shown as its storage: its dtype %q is not numeric", name, dtype)
	}
	if vt.ID() != id || !isNumericType(vt) {
		return nil, fmt.Errorf("%s is shown as its storage: its metadata says dtype %q but its values are %s", name, dtype, vt)
	}
	want := make([]int, n)
	var fixed []int
	for k, d := range shape {
		want[k] = d // -1 for a null first dimension
	}
	shapeText := "[" + hfShapeText(shape) + "]"
	if shape[0] >= 0 {
		fixed = append([]int(nil), shape...)
		if err := checkShape(fixed); err != nil {
			return nil, fmt.Errorf("%s is shown as its storage: %v", name, err)
		}
	} else if err := checkShape(shape[1:]); err != nil {
		return nil, fmt.Errorf("%s is shown as its storage: %v", name, err)
	}
	why := fmt.Sprintf("extension name %q, shape %s and dtype %q from its JSON metadata", in.Extension, shapeText, dtype)
	if fixed == nil {
		why += "; the first dimension varies by row"
	}
	return &Column{
		Dialect:   fmt.Sprintf("Hugging Face Array%dD", n),
		Why:       why,
		ValueType: vt,
		Shape:     fixed,
		NDim:      n,
		Tensor:    nestedRowTensor(want),
	}, nil
}

// hfNDim returns N for "datasets.features.features.Array<N>DExtensionType"
// with N in 2..5, else 0.
func hfNDim(ext string) int {
	rest, ok := strings.CutPrefix(ext, hfPrefix)
	if !ok || len(rest) != len("2DExtensionType") || rest[1:] != "DExtensionType" {
		return 0
	}
	if rest[0] < '2' || rest[0] > '5' {
		return 0
	}
	return int(rest[0] - '0')
}

// hfMetadata reads `[shape, dtype]`: shape n ints (-1 for a null first).
func hfMetadata(meta string, n int) (shape []int, dtype string, err error) {
	if len(meta) > maxPickleLen {
		return nil, "", fmt.Errorf("is %d bytes long, more than a shape needs", len(meta))
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(meta)))
	dec.UseNumber()
	var v []any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, "", fmt.Errorf("is not JSON [shape, dtype]")
	}
	if len(v) != 2 {
		return nil, "", fmt.Errorf("has %d items, not [shape, dtype]", len(v))
	}
	dims, ok1 := v[0].([]any)
	dtype, ok2 := v[1].(string)
	if !ok1 || !ok2 {
		return nil, "", fmt.Errorf("is not [shape, dtype]")
	}
	if len(dims) != n {
		return nil, "", fmt.Errorf("has a shape of %d dimensions for Array%dD", len(dims), n)
	}
	shape = make([]int, n)
	for k, d := range dims {
		if d == nil && k == 0 {
			shape[k] = -1
			continue
		}
		num, isNum := d.(json.Number)
		v, ok := jsonInt(num)
		if !isNum || !ok {
			return nil, "", fmt.Errorf("has shape entry %d that is not a non-negative int (only the first may be null)", k)
		}
		shape[k] = v
	}
	return shape, dtype, nil
}

func hfShapeText(shape []int) string {
	parts := make([]string, len(shape))
	for k, d := range shape {
		if d < 0 {
			parts[k] = "null"
		} else {
			parts[k] = fmt.Sprint(d)
		}
	}
	return strings.Join(parts, ",")
}
