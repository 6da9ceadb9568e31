package tensorext

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/float16"
)

// Float16ToFloat64 converts an IEEE 754 binary16 value exactly, subnormals
// included (the smallest, bits 0x0001, is 2^-24 ≈ 5.96e-8). arrow-go v18.8.0's
// float16.Num.Float32 decodes subnormals wrongly (0x0001 as about 1.1e-41),
// so the views and tools built on this package use this instead.
func Float16ToFloat64(v float16.Num) float64 {
	b := v.Uint16()
	sign := uint32(b>>15) << 31
	exp := uint32(b>>10) & 0x1f
	frac := uint32(b & 0x3ff)
	switch exp {
	case 0: // zero or subnormal: frac × 2^-24, exact in float32
		f := float32(frac) * (1.0 / (1 << 24))
		return float64(math.Float32frombits(math.Float32bits(f) | sign))
	case 0x1f: // Inf or NaN
		return float64(math.Float32frombits(sign | 0xff<<23 | frac<<13))
	}
	return float64(math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13))
}

// Float16FromFloat64 rounds f to the nearest IEEE 754 binary16 value, ties
// to even (IEEE 754-2019 §4.3.1, roundTiesToEven): subnormals kept (the
// smallest, 2^-24, is bits 0x0001), magnitudes from 65520 on (halfway past
// the largest finite value, 65504) to infinity, NaN to the quiet NaN 0x7e00
// of f's sign. arrow-go v18.8.0's float16.New truncates instead and flushes
// subnormals to zero.
func Float16FromFloat64(f float64) float16.Num {
	sign := uint16(0)
	if math.Signbit(f) {
		sign = 0x8000
	}
	a := math.Abs(f)
	switch {
	case math.IsNaN(f):
		return float16.FromBits(sign | 0x7e00)
	case a >= 65520:
		return float16.FromBits(sign | 0x7c00)
	case a < 0x1p-14: // subnormal (or zero): a multiple of 2^-24
		// a·2^24 is exact; 0x400 (2^-14 after rounding up) is the
		// smallest normal's bits too.
		return float16.FromBits(sign | uint16(math.RoundToEven(a*(1<<24))))
	}
	_, e := math.Frexp(a)    // a = m·2^e, m in [0.5, 1)
	q := math.Ldexp(1, e-11) // the spacing of binary16 values in a's binade
	v := math.RoundToEven(a/q) * q
	b := math.Float32bits(float32(v)) // exact: v has 11 significant bits
	exp := uint16((b>>23)&0xff) - 127 + 15
	return float16.FromBits(sign | exp<<10 | uint16(b>>13)&0x3ff)
}
