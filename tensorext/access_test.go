package tensorext_test

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// centi is a value array tensorext does not know: uint16 hundredths, read
// as v/100 (a stand-in for an extension type's array such as Lance's
// bfloat16, tested with the real one in app/dialect).
type centi struct{ *array.Uint16 }

func (c centi) Float64Reader() (func(pos int) float64, bool) {
	v := c.Uint16Values()
	return func(pos int) float64 { return float64(v[pos]) / 100 }, true
}

func (c centi) ValueStr(i int) string {
	if c.IsNull(i) {
		return array.NullValueStr
	}
	return strconv.FormatFloat(float64(c.Value(i))/100, 'f', 2, 64)
}

// centiType is a FloatType naming float64.
type centiType struct{ arrow.Uint16Type }

func (centiType) Float() arrow.DataType { return arrow.PrimitiveTypes.Float64 }

// TestFloat64Source checks that a Float64Source reads through
// Float64Reader, IsNumeric, Tensor.Float64, ValueStr and String, and that
// StandardType names a FloatType's Float and leaves other types alone.
func TestFloat64Source(t *testing.T) {
	b := array.NewUint16Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]uint16{100, 250, 1, 0, 0, 65535}, []bool{true, true, true, true, false, true})
	u := b.NewUint16Array()
	defer u.Release()
	arr := centi{u}

	if !tensorext.IsNumeric(arr) {
		t.Fatal("IsNumeric is false")
	}
	ten := tensorext.Tensor{Values: arr, Shape: []int{2, 3}, Strides: []int{3, 1}}
	want := []float64{1, 2.5, 0.01, 0, 0, 655.35}
	for pos, w := range want {
		got, ok := ten.Float64(pos)
		if pos == 4 {
			if ok {
				t.Errorf("null element: ok")
			}
			continue
		}
		if !ok || got != w {
			t.Errorf("element %d: %v %v, want %v", pos, got, ok, w)
		}
	}
	if got := ten.String(); got != "[[1.00 2.50 0.01] [0.00 (null) 655.35]]" {
		t.Errorf("String = %s", got)
	}
	if got := tensorext.StandardType(&centiType{}); got.ID() != arrow.FLOAT64 {
		t.Errorf("StandardType = %s", got)
	}
	for _, dt := range []arrow.DataType{arrow.PrimitiveTypes.Int8, arrow.FixedWidthTypes.Float16, nil} {
		if got := tensorext.StandardType(dt); got != dt {
			t.Errorf("StandardType(%v) = %v", dt, got)
		}
	}
}
