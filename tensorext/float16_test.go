package tensorext

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestFloat16Subnormals(t *testing.T) {
	cases := []struct {
		bits uint16
		want float64
	}{
		{0x0001, math.Ldexp(1, -24)},
		{0x03ff, 1023 * math.Ldexp(1, -24)},
		{0x8001, -math.Ldexp(1, -24)},
		{0x0400, math.Ldexp(1, -14)},
		{0x3c00, 1},
		{0xc000, -2},
		{0x7bff, 65504},
		{0x7c00, math.Inf(1)},
	}
	for _, c := range cases {
		if got := Float16ToFloat64(float16.FromBits(c.bits)); got != c.want {
			t.Errorf("%#04x: %g, want %g", c.bits, got, c.want)
		}
	}
	if !math.IsNaN(Float16ToFloat64(float16.FromBits(0x7e00))) {
		t.Error("0x7e00 is not NaN")
	}
	typ, _ := NewFixedShapeTensorType(arrow.FixedWidthTypes.Float16, []int{2}, nil, nil)
	b := NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	_ = b.AppendTensor([]float16.Num{float16.FromBits(0x0001), float16.FromBits(0x3c00)})
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	tt, _ := arr.Tensor(0)
	if v, _ := tt.Float64(tt.Offset); v != math.Ldexp(1, -24) {
		t.Errorf("Float64 of a subnormal: %g", v)
	}
	if s := tt.String(); s != "[5.9604645e-08 1]" {
		t.Errorf("String = %s", s)
	}
}
