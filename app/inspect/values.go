package inspect

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/float16"

	"github.com/tensorview/tensorview/tensorext"
)

// number is the Go element type of the primitive numeric Arrow arrays.
type number interface {
	~uint8 | ~int8 | ~uint16 | ~int16 | ~uint32 | ~int32 | ~uint64 | ~int64 | ~float32 | ~float64
}

// reader reads the elements of a value array as float64 (nulls read as
// whatever the buffer holds): at reads element pos; gather reads len(dst)
// elements at pos, pos+step, ... in one call, in a loop compiled for the
// value type.
type reader interface {
	at(pos int) float64
	gather(dst []float64, pos, step int)
}

type numReader[T number] []T

func (r numReader[T]) at(pos int) float64 { return float64(r[pos]) }

func (r numReader[T]) gather(dst []float64, pos, step int) {
	for i := range dst {
		dst[i] = float64(r[pos])
		pos += step
	}
}

type halfReader []float16.Num

func (r halfReader) at(pos int) float64 { return tensorext.Float16ToFloat64(r[pos]) }

func (r halfReader) gather(dst []float64, pos, step int) {
	for i := range dst {
		dst[i] = tensorext.Float16ToFloat64(r[pos])
		pos += step
	}
}

// funcReader reads through tensorext.Float64Reader's function: the loop for
// value types without one of their own (tensorext.Float64Source arrays, such
// as Lance's bfloat16).
type funcReader func(pos int) float64

func (r funcReader) at(pos int) float64 { return r(pos) }

func (r funcReader) gather(dst []float64, pos, step int) {
	for i := range dst {
		dst[i] = r(pos)
		pos += step
	}
}

type boolReader struct {
	bits   []byte
	offset int
}

func (r boolReader) at(pos int) float64 {
	if bitutil.BitIsSet(r.bits, r.offset+pos) {
		return 1
	}
	return 0
}

func (r boolReader) gather(dst []float64, pos, step int) {
	for i := range dst {
		dst[i] = r.at(pos)
		pos += step
	}
}

func boolOf(a *array.Boolean) boolReader {
	var bits []byte
	if b := a.Data().Buffers()[1]; b != nil {
		bits = b.Bytes()
	}
	return boolReader{bits: bits, offset: a.Data().Offset()}
}

// validity reports whether elements are valid (not null) through the value
// array's bitmap; its zero value (no nulls) says every element is.
type validity struct {
	bits   []byte
	offset int
}

func validityOf(a arrow.Array) validity {
	if a.NullN() == 0 {
		return validity{}
	}
	return validity{bits: a.NullBitmapBytes(), offset: a.Data().Offset()}
}

// null reports whether element pos is null.
func (v validity) null(pos int) bool {
	return v.bits != nil && !bitutil.BitIsSet(v.bits, v.offset+pos)
}

// drawable returns an error unless the value type is numeric.
func drawable(t tensorext.Tensor) error {
	if !tensorext.IsNumeric(t.Values) {
		return fmt.Errorf("inspect: cannot draw values of type %s; need an integer, float16/32/64 or bool type", t.ValueType())
	}
	return nil
}
