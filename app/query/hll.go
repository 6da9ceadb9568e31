package query

import (
	"math"
	"math/bits"
)

// hll is a HyperLogLog sketch of distinct 64-bit hashes (Flajolet, Fusy,
// Gandouet, Meunier 2007) with 2^hllP one-byte registers: a relative
// standard error of 1.04/√(2^hllP) ≈ 0.81 %, and linear counting below
// 5/2 of the register count.
type hll struct{ reg [1 << hllP]uint8 }

const hllP = 14

func (h *hll) add(x uint64) {
	i := x >> (64 - hllP)
	w := x<<hllP | 1<<(hllP-1) // a guard bit bounds the run of zeros
	if r := uint8(bits.LeadingZeros64(w) + 1); r > h.reg[i] {
		h.reg[i] = r
	}
}

func (h *hll) merge(o *hll) {
	for i, r := range o.reg {
		h.reg[i] = max(h.reg[i], r)
	}
}

func (h *hll) estimate() float64 {
	const m = float64(1 << hllP)
	sum, zeros := 0.0, 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		return m * math.Log(m/float64(zeros))
	}
	return e
}

// mix64 is a bijective 64-bit finalizer (MurmurHash3's fmix64): numeric
// keys are hashed with it.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
