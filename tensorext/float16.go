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
