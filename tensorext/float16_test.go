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

// TestFloat16FromFloat64: every binary16 value converts back to its own
// bits, a value halfway between two neighbours to the one whose last bit is
// 0 (ties to even), a value off the halfway point to the nearer one, and
// past 65520 (halfway beyond 65504) to infinity.
func TestFloat16FromFloat64(t *testing.T) {
	for b := range 1 << 16 {
		f := Float16ToFloat64(float16.FromBits(uint16(b)))
		got := Float16FromFloat64(f).Uint16()
		if math.IsNaN(f) {
			if got&0x7e00 != 0x7e00 || got&0x8000 != uint16(b)&0x8000 {
				t.Errorf("NaN %#04x: %#04x, want a quiet NaN of its sign", b, got)
			}
			continue
		}
		if got != uint16(b) {
			t.Errorf("%#04x (%g): %#04x", b, f, got)
		}
	}
	// Neighbours a (bits b) and the next one up, for every positive finite
	// b below the largest: halfway goes to the even bits, a hair either
	// side to the nearer.
	for b := uint16(0); b < 0x7bff; b++ {
		lo, hi := Float16ToFloat64(float16.FromBits(b)), Float16ToFloat64(float16.FromBits(b+1))
		mid := (lo + hi) / 2 // exact in float64
		even := b
		if b&1 == 1 {
			even = b + 1
		}
		for _, c := range []struct {
			f    float64
			want uint16
		}{{mid, even}, {math.Nextafter(mid, 0), b}, {math.Nextafter(mid, math.Inf(1)), b + 1}, {-mid, even | 0x8000}} {
			if got := Float16FromFloat64(c.f).Uint16(); got != c.want {
				t.Fatalf("%g (between %#04x and %#04x): %#04x, want %#04x", c.f, b, b+1, got, c.want)
			}
		}
	}
	for _, c := range []struct {
		f    float64
		want uint16
	}{
		{65519.99, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {-1e10, 0xfc00},
		{math.Inf(1), 0x7c00}, {0x1p-26, 0}, {0x1p-25, 0}, {math.Nextafter(0x1p-25, 1), 1},
		{math.Copysign(0, -1), 0x8000}, {0.1, 0x2e66}, {1.0 / 3, 0x3555},
	} {
		if got := Float16FromFloat64(c.f).Uint16(); got != c.want {
			t.Errorf("%g: %#04x, want %#04x", c.f, got, c.want)
		}
	}
}
