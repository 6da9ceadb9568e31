package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// DaftName is the one extension name Daft gives every logical type it
// stores in Arrow (DAFT_SUPER_EXTENSION_NAME in Eventual-Inc/Daft
// src/daft-schema/src/dtype.rs, commit 4c85eda1). The extension metadata is
// the Daft data type as JSON (DataType::to_json): an object
// {"datatype": D, "daft_version": "…", "daft_build_type": "…"} where D is
// serde's external tagging of the DataType enum, for example "Float32",
// {"Tensor":"Float32"}, {"FixedShapeTensor":["Int32",[3,224,224]]},
// {"Embedding":["Float32",256]}, {"Image":"RGB"}, {"Image":null},
// {"FixedShapeImage":["RGBA",512,512]}, {"SparseTensor":["Float64",true]}.
const DaftName = "daft.super_extension"

// MaxDaftDims is the most dimensions a Daft tensor may have here (NumPy's
// limit): a longer shape, in the metadata or in a row, is an error.
const MaxDaftDims = 64

// daftImageDims are the dim names given to Daft images, whose pixels are stored
// row-major as height × width × channel (Daft's image arrays hold the
// interleaved buffers of the Rust image crate: src/daft-core/src/array/
// image_array.rs, src/daft-image), so that package picture finds the picture.
var daftImageDims = []string{"height", "width", "channel"}

// daftMode is one of Daft's image modes (ImageMode in
// src/daft-schema/src/image_mode.rs): its number, as stored in an Image
// row's mode field, is its position in daftModes plus one.
type daftMode struct {
	name     string
	channels int
	value    arrow.DataType
}

var daftModes = func() []daftMode {
	u8, u16, f32 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Float32
	return []daftMode{
		{"L", 1, u8}, {"LA", 2, u8}, {"RGB", 3, u8}, {"RGBA", 4, u8},
		{"L16", 1, u16}, {"LA16", 2, u16}, {"RGB16", 3, u16}, {"RGBA16", 4, u16},
		{"RGB32F", 3, f32}, {"RGBA32F", 4, f32},
	}
}()

func daftModeByName(s string) (daftMode, bool) {
	for _, m := range daftModes {
		if m.name == s {
			return m, true
		}
	}
	return daftMode{}, false
}

// daftPrimitives maps Daft's primitive type names to Arrow type IDs
// (DataType::to_arrow in src/daft-schema/src/dtype.rs).
var daftPrimitives = map[string]arrow.Type{
	"Boolean": arrow.BOOL, "Int8": arrow.INT8, "Int16": arrow.INT16, "Int32": arrow.INT32, "Int64": arrow.INT64,
	"UInt8": arrow.UINT8, "UInt16": arrow.UINT16, "UInt32": arrow.UINT32, "UInt64": arrow.UINT64,
	"Float16": arrow.FLOAT16, "Float32": arrow.FLOAT32, "Float64": arrow.FLOAT64,
}

// daftType is a parsed Daft data type: its variant name and its argument
// (nil for a unit variant such as "Float32").
type daftType struct {
	kind string
	arg  json.RawMessage
	raw  json.RawMessage // the whole value
}

// parseDaftType reads Daft's extension metadata: the payload object with
// its "datatype" key, or (leniently) a bare data type.
func parseDaftType(meta string) (daftType, string, error) {
	var payload struct {
		Datatype json.RawMessage `json:"datatype"`
		Version  string          `json:"daft_version"`
	}
	raw := json.RawMessage(meta)
	if err := json.Unmarshal(raw, &payload); err == nil && payload.Datatype != nil {
		raw = payload.Datatype
	} else {
		payload.Version = ""
	}
	t, err := parseVariant(raw)
	return t, payload.Version, err
}

// parseVariant reads one serde externally tagged enum value: "Name" or
// {"Name": argument}.
func parseVariant(raw json.RawMessage) (daftType, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return daftType{kind: s, raw: raw}, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || len(obj) != 1 {
		return daftType{}, fmt.Errorf("not a Daft data type: %s", daftClip(string(raw)))
	}
	t := daftType{raw: raw}
	for k, v := range obj {
		t.kind, t.arg = k, v
	}
	return t, nil
}

// daftClip shortens text for an error message.
func daftClip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// args splits a variant's tuple argument [a, b, ...] into n parts.
func (t daftType) args(n int) ([]json.RawMessage, error) {
	var parts []json.RawMessage
	if err := json.Unmarshal(t.arg, &parts); err != nil || len(parts) != n {
		return nil, fmt.Errorf("Daft %s needs %d arguments, got %s", t.kind, n, daftClip(string(t.arg)))
	}
	return parts, nil
}

// elementAndArg reads the two arguments of FixedShapeTensor(T, shape) and
// Embedding(T, n): the element type T as daftElementType does (its error
// prefixed "Daft <kind>: ") and the second argument as it is.
func (t daftType) elementAndArg() (kind string, id arrow.Type, arg json.RawMessage, err error) {
	parts, err := t.args(2)
	if err != nil {
		return "", 0, nil, err
	}
	kind, id, err = daftElementType(parts[0])
	if err != nil {
		return "", 0, nil, fmt.Errorf("Daft %s: %w", t.kind, err)
	}
	return kind, id, parts[1], nil
}

// daftElementType reads a tensor's element type argument and returns its name
// and Arrow type ID (arrow.NULL when it is not a primitive Daft knows).
func daftElementType(raw json.RawMessage) (string, arrow.Type, error) {
	e, err := parseVariant(raw)
	if err != nil {
		return "", 0, err
	}
	if e.arg != nil {
		return e.kind, arrow.NULL, nil
	}
	id, ok := daftPrimitives[e.kind]
	if !ok {
		return e.kind, arrow.NULL, nil
	}
	return e.kind, id, nil
}

// daftDimension reads one non-negative integer dimension from JSON.
func daftDimension(raw json.RawMessage) (int, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var n json.Number
	if err := d.Decode(&n); err != nil {
		return 0, fmt.Errorf("dimension %s is not a number", daftClip(string(raw)))
	}
	v, err := n.Int64()
	if err != nil || v < 0 || v > math.MaxInt32 {
		return 0, fmt.Errorf("dimension %s is not an integer in [0, 2^31)", n)
	}
	return int(v), nil
}

// daftProduct returns the product of shape, or an error when it exceeds 2^62.
func daftProduct(shape []int) (int, error) {
	p := 1
	for _, d := range shape {
		if d != 0 && p > (1<<62)/d {
			return 0, fmt.Errorf("shape %s has too many elements", tensorext.FormatShape(shape))
		}
		p *= d
	}
	return p, nil
}

type daftAdapter struct{}

func init() { Register(daftAdapter{}) }

func (daftAdapter) Name() string  { return "daft" }
func (daftAdapter) Priority() int { return 20 }

// errDaftSparse is Match's error for Daft's sparse tensor types.
var errDaftSparse = errors.New("tensorview does not read Daft sparse tensors; shown as storage")

// Match reads a daft.super_extension column whose Daft type is Tensor,
// FixedShapeTensor, Embedding, Image or FixedShapeImage (layouts from
// DataType::to_physical in src/daft-schema/src/dtype.rs, commit 4c85eda1;
// Daft's List is Arrow's LargeList):
//   - Tensor(T): Struct{data: LargeList<T>, shape: LargeList<uint64>}; each
//     row has its own shape, row-major.
//   - FixedShapeTensor(T, shape): FixedSizeList<T>[prod(shape)], row-major.
//   - Embedding(T, n): FixedSizeList<T>[n], shape [n].
//   - Image(mode): Struct{data: LargeList<T>, channel: uint16, height:
//     uint32, width: uint32, mode: uint8}, raw pixels height × width ×
//     channel (HWC); mode is ImageMode's number (L=1, LA, RGB, RGBA, L16,
//     LA16, RGB16, RGBA16, RGB32F, RGBA32F=10) and gives the channels (L 1,
//     LA 2, RGB 3, RGBA 4) and T (uint8; uint16 for the 16 modes; float32
//     for the 32F modes); Image(null) ("MIXED") lets each row say.
//   - FixedShapeImage(mode, height, width): FixedSizeList<T>[height·width·
//     channels], shape [height, width, channels].
//
// Images get dim_names [height, width, channel]. SparseTensor and
// FixedShapeSparseTensor return an error (shown as storage); other Daft
// types are not tensors ((nil, nil)). A storage type that does not match the
// metadata, or metadata that cannot be read, is an error.
func (daftAdapter) Match(in Input) (*Column, error) {
	if in.Extension != DaftName {
		return nil, nil
	}
	t, version, err := parseDaftType(in.Metadata)
	if err != nil {
		return nil, fmt.Errorf("Daft metadata: %w", err)
	}
	storage := in.Field.Type
	if ext, ok := storage.(arrow.ExtensionType); ok {
		storage = ext.StorageType()
	}
	why := fmt.Sprintf("extension name %q, Daft type %s from its JSON metadata", DaftName, daftCompact(t.raw))
	if version != "" {
		why += " (written by Daft " + version + ")"
	}
	var c *Column
	switch t.kind {
	case "SparseTensor", "FixedShapeSparseTensor":
		return nil, errDaftSparse
	case "Tensor":
		c, err = daftTensor(t, storage)
	case "FixedShapeTensor":
		c, err = daftFixedShapeTensor(t, storage)
	case "Embedding":
		c, err = daftEmbedding(t, storage)
	case "Image":
		c, err = daftImage(t, storage)
	case "FixedShapeImage":
		c, err = daftFixedShapeImage(t, storage)
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c.Why = why + "; " + c.Why
	return c, nil
}

// daftCompact returns raw as compact JSON, clipped, for messages.
func daftCompact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return daftClip(string(raw))
	}
	return daftClip(b.String())
}

// daftCheckElement returns an error when the metadata's element type (a
// primitive Daft knows) is not the storage's value type.
func daftCheckElement(kind string, id arrow.Type, value arrow.DataType) error {
	if id != arrow.NULL && value.ID() != id {
		return fmt.Errorf("Daft metadata says %s values, the storage holds %s", kind, value)
	}
	return nil
}

// daftStorage unwraps an extension array (daft.super_extension registered
// with arrow-go by someone else) to its storage.
func daftStorage(arr arrow.Array) arrow.Array {
	if e, ok := arr.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return arr
}

// daftChild returns the index of the child named name of a struct type,
// checking that it is list-like (list) or an integer (otherwise).
func daftChild(st *arrow.StructType, name string, list bool) (int, error) {
	i, ok := st.FieldIdx(name)
	if !ok {
		return 0, fmt.Errorf("storage %s has no field %q", st, name)
	}
	dt := st.Field(i).Type
	switch {
	case list && !daftIsList(dt):
		return 0, fmt.Errorf("field %q is %s, not a list", name, dt)
	case !list && !arrow.IsInteger(dt.ID()):
		return 0, fmt.Errorf("field %q is %s, not an integer", name, dt)
	}
	return i, nil
}

func daftIsList(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST:
		return true
	}
	return false
}

func daftElem(dt arrow.DataType) arrow.DataType { return dt.(arrow.ListLikeType).Elem() }

// daftStructRow returns the struct array of arr (the column, or its storage)
// and checks row i is in range and not null, and that the array has fields
// fields, as its type says.
func daftStructRow(arr arrow.Array, i, fields int) (*array.Struct, error) {
	st, ok := daftStorage(arr).(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("the array is %s, not a struct", arr.DataType())
	}
	if i < 0 || i >= st.Len() {
		return nil, fmt.Errorf("row %d out of range [0, %d)", i, st.Len())
	}
	if st.IsNull(i) {
		return nil, tensorext.ErrNullTensor
	}
	if st.NumField() != fields {
		return nil, fmt.Errorf("the array has %d fields, its type %d", st.NumField(), fields)
	}
	return st, nil
}

// daftInt reads element i of an integer array as an int in [0, 2^31);
// name is for errors.
func daftInt(a arrow.Array, i int, name string) (int, error) {
	if i < 0 || i >= a.Len() {
		return 0, fmt.Errorf("%s: row %d out of range", name, i)
	}
	v, err := Int(a, i, math.MaxInt32)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// daftTensor reads Tensor(T).
func daftTensor(t daftType, storage arrow.DataType) (*Column, error) {
	kind, id, err := daftElementType(t.arg)
	if err != nil {
		return nil, fmt.Errorf("Daft Tensor: %w", err)
	}
	st, ok := storage.(*arrow.StructType)
	if !ok {
		return nil, fmt.Errorf("Daft Tensor needs storage struct<data: large_list, shape: large_list<uint64>>, got %s", storage)
	}
	di, err := daftChild(st, "data", true)
	if err != nil {
		return nil, fmt.Errorf("Daft Tensor: %w", err)
	}
	si, err := daftChild(st, "shape", true)
	if err != nil {
		return nil, fmt.Errorf("Daft Tensor: %w", err)
	}
	if e := daftElem(st.Field(si).Type); !arrow.IsInteger(e.ID()) {
		return nil, fmt.Errorf("Daft Tensor: shape holds %s, not integers", e)
	}
	value := daftElem(st.Field(di).Type)
	if err := daftCheckElement(kind, id, value); err != nil {
		return nil, err
	}
	return &Column{
		Dialect:   "Daft Tensor (" + DaftName + ")",
		Why:       "each row's shape from its shape field, values row-major in its data field",
		ValueType: value,
		NDim:      -1,
		Tensor: func(arr arrow.Array, i int) (tensorext.Tensor, error) {
			s, err := daftStructRow(arr, i, st.NumFields())
			if err != nil {
				return tensorext.Tensor{}, err
			}
			vals, start, end, err := ListRow(s.Field(di), i)
			if err != nil {
				return tensorext.Tensor{}, fmt.Errorf("row %d: data: %w", i, err)
			}
			shapes, ss, se, err := ListRow(s.Field(si), i)
			if err != nil {
				return tensorext.Tensor{}, fmt.Errorf("row %d: shape: %w", i, err)
			}
			if se-ss > MaxDaftDims {
				return tensorext.Tensor{}, fmt.Errorf("row %d: shape has %d dimensions, more than %d", i, se-ss, MaxDaftDims)
			}
			shape := make([]int, se-ss)
			for k := range shape {
				if shape[k], err = daftInt(shapes, ss+k, "shape dimension"); err != nil {
					return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
				}
			}
			tt, err := RowMajor(vals, start, end, shape, nil)
			if err != nil {
				return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
			}
			return tt, nil
		},
	}, nil
}

// daftFixedRows returns a Tensor function for FixedSizeList storage whose
// every row has the given shape.
func daftFixedRows(shape []int, dimNames []string) func(arr arrow.Array, i int) (tensorext.Tensor, error) {
	return func(arr arrow.Array, i int) (tensorext.Tensor, error) {
		vals, start, end, err := ListRow(daftStorage(arr), i)
		if err != nil {
			if IsNull(err) {
				return tensorext.Tensor{}, err
			}
			return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
		}
		t, err := RowMajor(vals, start, end, shape, dimNames)
		if err != nil {
			return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
		}
		return t, nil
	}
}

// daftFixedList checks storage is a FixedSizeList of n elements and returns
// its value type.
func daftFixedList(what string, storage arrow.DataType, n int) (arrow.DataType, error) {
	fsl, ok := storage.(*arrow.FixedSizeListType)
	if !ok {
		return nil, fmt.Errorf("Daft %s needs storage fixed_size_list[%d], got %s", what, n, storage)
	}
	if int(fsl.Len()) != n {
		return nil, fmt.Errorf("Daft %s: the storage's fixed_size_list has %d elements, the metadata needs %d", what, fsl.Len(), n)
	}
	return fsl.Elem(), nil
}

// daftFixedShapeTensor reads FixedShapeTensor(T, shape).
func daftFixedShapeTensor(t daftType, storage arrow.DataType) (*Column, error) {
	kind, id, arg, err := t.elementAndArg()
	if err != nil {
		return nil, err
	}
	var dims []json.RawMessage
	if err := json.Unmarshal(arg, &dims); err != nil {
		return nil, fmt.Errorf("Daft FixedShapeTensor: shape %s is not a list", daftClip(string(arg)))
	}
	if len(dims) > MaxDaftDims {
		return nil, fmt.Errorf("Daft FixedShapeTensor: shape has %d dimensions, more than %d", len(dims), MaxDaftDims)
	}
	shape := make([]int, len(dims))
	for k, d := range dims {
		if shape[k], err = daftDimension(d); err != nil {
			return nil, fmt.Errorf("Daft FixedShapeTensor: %w", err)
		}
	}
	return daftFixedTensor("FixedShapeTensor", kind, id, storage, shape,
		"shape "+tensorext.FormatShape(shape)+" from the metadata, values row-major in a fixed_size_list")
}

// daftFixedTensor is the column of a FixedShapeTensor or an Embedding
// (what): rows of the physical shape shape, row-major in a fixed_size_list
// of the element type kind (arrow type id) the dtype names; why says so.
func daftFixedTensor(what, kind string, id arrow.Type, storage arrow.DataType, shape []int, why string) (*Column, error) {
	n, err := daftProduct(shape)
	if err != nil {
		return nil, fmt.Errorf("Daft %s: %w", what, err)
	}
	value, err := daftFixedList(what, storage, n)
	if err != nil {
		return nil, err
	}
	if err := daftCheckElement(kind, id, value); err != nil {
		return nil, err
	}
	return &Column{
		Dialect:   "Daft " + what + " (" + DaftName + ")",
		Why:       why,
		ValueType: value,
		Shape:     shape,
		NDim:      len(shape),
		Tensor:    daftFixedRows(shape, nil),
	}, nil
}

// daftEmbedding reads Embedding(T, n).
func daftEmbedding(t daftType, storage arrow.DataType) (*Column, error) {
	kind, id, arg, err := t.elementAndArg()
	if err != nil {
		return nil, err
	}
	n, err := daftDimension(arg)
	if err != nil {
		return nil, fmt.Errorf("Daft Embedding: %w", err)
	}
	return daftFixedTensor("Embedding", kind, id, storage, []int{n}, fmt.Sprintf("a vector of %d values in a fixed_size_list", n))
}

// daftImageMode reads an image mode argument ("RGB", or null when allowed).
func daftImageMode(raw json.RawMessage, nullable bool) (daftMode, bool, error) {
	if nullable && (raw == nil || string(bytes.TrimSpace(raw)) == "null") {
		return daftMode{}, false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return daftMode{}, false, fmt.Errorf("image mode %s is not a string", daftClip(string(raw)))
	}
	m, ok := daftModeByName(s)
	if !ok {
		return daftMode{}, false, fmt.Errorf("unknown image mode %q", daftClip(s))
	}
	return m, true, nil
}

// daftImage reads Image(mode).
func daftImage(t daftType, storage arrow.DataType) (*Column, error) {
	mode, fixed, err := daftImageMode(t.arg, true)
	if err != nil {
		return nil, fmt.Errorf("Daft Image: %w", err)
	}
	st, ok := storage.(*arrow.StructType)
	if !ok {
		return nil, fmt.Errorf("Daft Image needs storage struct<data, channel, height, width, mode>, got %s", storage)
	}
	var idx [5]int
	for k, name := range []string{"data", "channel", "height", "width", "mode"} {
		if idx[k], err = daftChild(st, name, k == 0); err != nil {
			return nil, fmt.Errorf("Daft Image: %w", err)
		}
	}
	value := daftElem(st.Field(idx[0]).Type)
	why := "mode per row (Image[MIXED]): channels from each row's channel field; "
	if fixed {
		if value.ID() != mode.value.ID() {
			return nil, fmt.Errorf("Daft Image mode %s needs %s pixels, the storage holds %s", mode.name, mode.value, value)
		}
		why = fmt.Sprintf("mode %s: %d channel(s) of %s; ", mode.name, mode.channels, value)
	}
	why += "pixels row-major height × width × channel (HWC), size from each row's height, width and channel fields"
	return &Column{
		Dialect:   "Daft Image (" + DaftName + ")",
		Why:       why,
		ValueType: value,
		NDim:      3,
		DimNames:  daftImageDims,
		Tensor: func(arr arrow.Array, i int) (tensorext.Tensor, error) {
			return daftImageRow(arr, i, st.NumFields(), idx, mode, fixed)
		},
	}, nil
}

// daftImageRow reads row i of a Daft Image column arr, a struct of nf
// fields whose data, channel, height, width and mode children are at idx,
// as a height × width × channel tensor. mode is the column's mode when
// fixed is true; a row's own mode must then match it.
func daftImageRow(arr arrow.Array, i, nf int, idx [5]int, mode daftMode, fixed bool) (tensorext.Tensor, error) {
	s, err := daftStructRow(arr, i, nf)
	if err != nil {
		return tensorext.Tensor{}, err
	}
	vals, start, end, err := ListRow(s.Field(idx[0]), i)
	if err != nil {
		return tensorext.Tensor{}, fmt.Errorf("row %d: data: %w", i, err)
	}
	var dims [3]int // channel, height, width
	for k, name := range []string{"channel", "height", "width"} {
		if dims[k], err = daftInt(s.Field(idx[k+1]), i, name); err != nil {
			return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
		}
	}
	c, h, w := dims[0], dims[1], dims[2]
	m, known, err := daftRowMode(s.Field(idx[4]), i, mode, fixed)
	if err != nil {
		return tensorext.Tensor{}, err
	}
	if known && m.channels != c {
		return tensorext.Tensor{}, fmt.Errorf("row %d: mode %s has %d channel(s), the row says %d", i, m.name, m.channels, c)
	}
	t, err := RowMajor(vals, start, end, []int{h, w, c}, daftImageDims)
	if err != nil {
		return tensorext.Tensor{}, fmt.Errorf("row %d: %w", i, err)
	}
	return t, nil
}

// daftRowMode returns the image mode of row i: the row's mode field when it
// is valid (one of Daft's modes, and the column's mode when fixed), else the
// column's mode. known is false for a null mode in a column of mixed modes.
func daftRowMode(field arrow.Array, i int, mode daftMode, fixed bool) (m daftMode, known bool, err error) {
	if !field.IsValid(i) {
		return mode, fixed, nil
	}
	n, err := daftInt(field, i, "mode")
	if err != nil || n < 1 || n > len(daftModes) {
		return daftMode{}, false, fmt.Errorf("row %d: mode is not one of Daft's image modes 1..%d", i, len(daftModes))
	}
	rm := daftModes[n-1]
	if fixed && rm != mode {
		return daftMode{}, false, fmt.Errorf("row %d: mode %s in a column of mode %s", i, rm.name, mode.name)
	}
	return rm, true, nil
}

// daftFixedShapeImage reads FixedShapeImage(mode, height, width).
func daftFixedShapeImage(t daftType, storage arrow.DataType) (*Column, error) {
	parts, err := t.args(3)
	if err != nil {
		return nil, err
	}
	mode, _, err := daftImageMode(parts[0], false)
	if err != nil {
		return nil, fmt.Errorf("Daft FixedShapeImage: %w", err)
	}
	var hw [2]int
	for k := range hw {
		if hw[k], err = daftDimension(parts[k+1]); err != nil {
			return nil, fmt.Errorf("Daft FixedShapeImage: %w", err)
		}
	}
	shape := []int{hw[0], hw[1], mode.channels}
	n, err := daftProduct(shape)
	if err != nil {
		return nil, fmt.Errorf("Daft FixedShapeImage: %w", err)
	}
	value, err := daftFixedList("FixedShapeImage", storage, n)
	if err != nil {
		return nil, err
	}
	if value.ID() != mode.value.ID() {
		return nil, fmt.Errorf("Daft FixedShapeImage mode %s needs %s pixels, the storage holds %s", mode.name, mode.value, value)
	}
	return &Column{
		Dialect: "Daft FixedShapeImage (" + DaftName + ")",
		Why: fmt.Sprintf("mode %s: %d channel(s) of %s; %d×%d pixels row-major height × width × channel (HWC) in a fixed_size_list",
			mode.name, mode.channels, value, hw[0], hw[1]),
		ValueType: value,
		Shape:     shape,
		NDim:      3,
		DimNames:  daftImageDims,
		Tensor:    daftFixedRows(shape, daftImageDims),
	}, nil
}
