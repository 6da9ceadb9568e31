package tensorext

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Float64Reader returns a function that reads the element at position pos
// of values as a float64, for loops over many elements: the type is
// resolved once, then each call indexes the array's value buffer. values
// must be numeric: an integer type (integers beyond 2^53 lose precision),
// float16 (exactly, Float16ToFloat64), float32, float64 or boolean (0 or
// 1), or an array of another type that implements Float64Source (an
// extension type's array, such as Lance's bfloat16, whose reader it
// returns); ok is false for any other type. Nulls are not checked (a null
// slot reads as whatever its buffer holds): test IsNull first. pos must be
// in [0, values.Len()).
//
// This is the one place that maps Arrow's numeric arrays to float64;
// Tensor.Float64 and the viewer's previews, statistics and inspector read
// elements through it.
func Float64Reader(values arrow.Array) (at func(pos int) float64, ok bool) {
	switch a := values.(type) {
	case *array.Uint8:
		return reader(a.Uint8Values()), true
	case *array.Int8:
		return reader(a.Int8Values()), true
	case *array.Uint16:
		return reader(a.Uint16Values()), true
	case *array.Int16:
		return reader(a.Int16Values()), true
	case *array.Uint32:
		return reader(a.Uint32Values()), true
	case *array.Int32:
		return reader(a.Int32Values()), true
	case *array.Uint64:
		return reader(a.Uint64Values()), true
	case *array.Int64:
		return reader(a.Int64Values()), true
	case *array.Float16:
		v := a.Values()
		return func(pos int) float64 { return Float16ToFloat64(v[pos]) }, true
	case *array.Float32:
		return reader(a.Float32Values()), true
	case *array.Float64:
		return reader(a.Float64Values()), true
	case *array.Boolean:
		return func(pos int) float64 {
			if a.Value(pos) {
				return 1
			}
			return 0
		}, true
	case Float64Source:
		return a.Float64Reader()
	}
	return nil, false
}

// IsNumeric reports whether Float64Reader reads values.
func IsNumeric(values arrow.Array) bool {
	switch a := values.(type) {
	case *array.Uint8, *array.Int8, *array.Uint16, *array.Int16, *array.Uint32, *array.Int32,
		*array.Uint64, *array.Int64, *array.Float16, *array.Float32, *array.Float64, *array.Boolean:
		return true
	case Float64Source:
		_, ok := a.Float64Reader()
		return ok
	}
	return false
}

// Float64Source is implemented by arrays of numeric value types this
// package does not know, typically extension types whose storage holds
// numbers in an encoding Arrow has no type for (Lance's lance.bfloat16:
// FixedSizeBinary(2) storage, see app/dialect/bfloat16.go). Float64Reader
// and IsNumeric accept them, so Tensor.Float64, and everything that reads
// tensors through Float64Reader, works with their values. Such an array
// formats its elements in its own ValueStr, which Tensor.ValueStr calls.
type Float64Source interface {
	arrow.Array
	// Float64Reader returns a function that reads element pos (in
	// [0, Len())) as a float64, resolving buffers once; nulls are not
	// checked. ok is false when the array cannot be read (storage of an
	// unexpected type, say).
	Float64Reader() (at func(pos int) float64, ok bool)
}

// FloatType is implemented by data types of floating point values that
// Arrow has no type for, typically extension types such as Lance's
// lance.bfloat16, whose arrays implement Float64Source. Float returns the
// Arrow floating point type (float32 or float64) that holds every value of
// the type exactly, or nil when the type cannot be read (an extension type
// over storage of an unexpected type): code that decides by value type
// (which dimensions hold colour channels, how many digits to print, the
// .npy dtype to write) decides by it instead, through StandardType.
type FloatType interface {
	arrow.DataType
	Float() arrow.DataType
}

// StandardType returns the Arrow type to decide by for values of type dt:
// dt's Float() when dt implements FloatType and Float is not nil, else dt
// itself (nil for nil).
func StandardType(dt arrow.DataType) arrow.DataType {
	if f, ok := dt.(FloatType); ok {
		if s := f.Float(); s != nil {
			return s
		}
	}
	return dt
}

type number interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~uint64 | ~int64 | ~float32 | ~float64
}

func reader[T number](v []T) func(pos int) float64 {
	return func(pos int) float64 { return float64(v[pos]) }
}

// Check reports why the view t cannot be read, or nil: it has no Values,
// not one stride per dimension, a negative shape or one whose product
// overflows int, or an element whose position (Offset + Σ index[k] ·
// Strides[k]) lies outside [0, Values.Len()). Every consumer that walks a
// view checks it this way first; a view read from a valid array passes.
func (t Tensor) Check() error {
	_, _, _, err := checkView(t)
	return err
}

// FirstNull returns the index (in t's own dimension order) of t's first
// null element in row-major order, and whether there is one; nulls of
// Values outside the view do not count.
func (t Tensor) FirstNull() (index []int, ok bool) {
	if t.Values == nil || t.Values.NullN() == 0 {
		return nil, false
	}
	k := 0
	t.Positions(func(pos int) bool {
		if t.Values.IsNull(pos) {
			index, ok = unravel(k, t.Shape), true
			return false
		}
		k++
		return true
	})
	return index, ok
}
