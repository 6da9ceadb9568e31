package dialect

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/internal/extbase"
)

// BFloat16Name is the extension name Lance gives bfloat16 values:
// BFLOAT16_EXT_NAME in lancedb/lance rust/lance-arrow/src/bfloat16.rs
// (commit d2039d75), and BFloat16Type in python/python/lance/_arrow/bf16.py.
const BFloat16Name = "lance.bfloat16"

// BFloat16Type is Lance's bfloat16 extension type, registered with arrow-go
// by this package's init so that its IPC reader decodes lance.bfloat16
// fields, including the value field of an arrow.fixed_shape_tensor's
// FixedSizeList, as *BFloat16Array.
//
// Layout (lancedb/lance rust/lance-arrow/src/bfloat16.rs and
// python/python/lance/_arrow/bf16.py, commit d2039d75): storage
// FixedSizeBinary(2), each value the 16 bits of a bfloat16 (the upper half
// of an IEEE 754 binary32: 1 sign, 8 exponent, 7 fraction bits) in
// little-endian byte order; extension metadata empty ("").
//
// Deserialize is lenient, as an extension type's must be (a failing
// Deserialize makes arrow-go's IPC reader refuse the whole schema): any
// metadata is accepted and ignored, and a storage type other than
// FixedSizeBinary(2) gives a type whose Validate reports it and whose arrays
// read no values (Float64Reader's ok is false, ValueStr shows the storage).
type BFloat16Type struct {
	arrow.ExtensionBase
	err error
}

// NewBFloat16Type returns the bfloat16 type with storage FixedSizeBinary(2).
func NewBFloat16Type() *BFloat16Type {
	return &BFloat16Type{ExtensionBase: arrow.ExtensionBase{Storage: &arrow.FixedSizeBinaryType{ByteWidth: 2}}}
}

func init() {
	if err := arrow.RegisterExtensionType(NewBFloat16Type()); err != nil {
		panic(fmt.Sprintf("dialect: registering %s: %v", BFloat16Name, err))
	}
}

// ExtensionName returns "lance.bfloat16".
func (*BFloat16Type) ExtensionName() string { return BFloat16Name }

// String returns "extension<lance.bfloat16>".
func (*BFloat16Type) String() string { return "extension<" + BFloat16Name + ">" }

// Serialize returns "", the metadata Lance writes.
func (*BFloat16Type) Serialize() string { return "" }

// Deserialize returns a bfloat16 type over storage. It never fails: data is
// ignored, and a storage type other than FixedSizeBinary(2) is kept and
// reported by Validate.
func (*BFloat16Type) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	t := &BFloat16Type{ExtensionBase: arrow.ExtensionBase{Storage: storage}}
	if fsb, ok := storage.(*arrow.FixedSizeBinaryType); !ok || fsb.ByteWidth != 2 {
		t.err = fmt.Errorf("%s needs storage fixed_size_binary[2], got %s", BFloat16Name, storage)
	}
	return t, nil
}

// Validate returns why the type's storage is not FixedSizeBinary(2), or nil.
func (t *BFloat16Type) Validate() error { return t.err }

// ExtensionEquals reports whether other is a bfloat16 type with the same
// storage type.
func (t *BFloat16Type) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*BFloat16Type)
	return ok && arrow.TypeEqual(t.Storage, o.Storage)
}

// ArrayType returns the type of BFloat16Array, for arrow-go.
func (*BFloat16Type) ArrayType() reflect.Type { return reflect.TypeOf(BFloat16Array{}) }

// Float returns float32, which holds every bfloat16 value exactly (the
// bfloat16 bits are the upper 16 bits of the float32), or nil for a type
// with invalid storage. It makes BFloat16Type a tensorext.FloatType.
func (t *BFloat16Type) Float() arrow.DataType {
	if t.err != nil {
		return nil
	}
	return arrow.PrimitiveTypes.Float32
}

// BFloat16Array is an array of lance.bfloat16 values. It implements
// tensorext.Float64Source, so tensors of bfloat16 read, draw and export
// like other floating point tensors.
type BFloat16Array struct {
	array.ExtensionArrayBase
}

// BFloat16ToFloat32 converts bfloat16 bits to float32 exactly: they are the
// float32's upper 16 bits (NaN payloads and signs included).
func BFloat16ToFloat32(bits uint16) float32 { return math.Float32frombits(uint32(bits) << 16) }

// bits returns the array's value bytes (2 per element, from element 0 of
// the array) and whether they hold Len() elements.
func (a *BFloat16Array) bits() ([]byte, bool) {
	st, ok := a.Storage().(*array.FixedSizeBinary)
	if !ok {
		return nil, false
	}
	if fsb, ok := st.DataType().(*arrow.FixedSizeBinaryType); !ok || fsb.ByteWidth != 2 {
		return nil, false
	}
	bufs := st.Data().Buffers()
	if len(bufs) < 2 || bufs[1] == nil {
		return nil, st.Len() == 0
	}
	b := bufs[1].Bytes()
	off := 2 * st.Data().Offset()
	end := off + 2*st.Len()
	if off < 0 || end > len(b) {
		return nil, false
	}
	return b[off:end], true
}

// Bits returns the 16 bits of element i, in [0, Len()), and whether the
// array's storage holds them; nulls are not checked.
func (a *BFloat16Array) Bits(i int) (uint16, bool) {
	b, ok := a.bits()
	if !ok || i < 0 || 2*i+2 > len(b) {
		return 0, false
	}
	return binary.LittleEndian.Uint16(b[2*i:]), true
}

// Value returns element i, in [0, Len()), as float32 (exactly); NaN when
// the storage does not hold it. Nulls are not checked.
func (a *BFloat16Array) Value(i int) float32 {
	v, ok := a.Bits(i)
	if !ok {
		return float32(math.NaN())
	}
	return BFloat16ToFloat32(v)
}

// Float64Reader returns a reader of the elements as float64 (exact); ok is
// false when the storage is not FixedSizeBinary(2) with a value buffer of
// Len() elements. It makes BFloat16Array a tensorext.Float64Source.
func (a *BFloat16Array) Float64Reader() (at func(pos int) float64, ok bool) {
	b, ok := a.bits()
	if !ok {
		return nil, false
	}
	return func(pos int) float64 {
		return float64(BFloat16ToFloat32(binary.LittleEndian.Uint16(b[2*pos:])))
	}, true
}

// ValueStr returns element i as the shortest decimal that reads back as
// the same float32 (bfloat16 1.1 is "1.1015625", as Lance prints it), "NaN",
// "+Inf" or "-Inf"; "(null)" for null; the storage's text when the storage
// cannot be read.
func (a *BFloat16Array) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	v, ok := a.Bits(i)
	if !ok {
		return a.Storage().ValueStr(i)
	}
	return strconv.FormatFloat(float64(BFloat16ToFloat32(v)), 'g', -1, 32)
}

// String returns the values as "[1 -0.5 (null)]".
func (a *BFloat16Array) String() string { return extbase.ArrayString(a) }

// GetOneForMarshal returns element i as a float32 (nil for null), for
// arrow-go's JSON encoding.
func (a *BFloat16Array) GetOneForMarshal(i int) any {
	if a.IsNull(i) {
		return nil
	}
	return a.Value(i)
}
