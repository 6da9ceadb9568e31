//go:build !purego

package tensorext

// This file feeds the AVX2 kernels of shuffle_amd64.s, which (de)interleave
// 2 to 4 channels of 1- to 16-byte elements with byte shuffles: 32 bytes of
// each stream per step, where the portable loops of iterate.go move one
// element per store.

import "golang.org/x/sys/cpu"

// useAVX2 selects the kernels; tests turn it off to check the portable loops.
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func deint2AVX2(d0, d1, src *byte, iters int, masks *byte)

//go:noescape
func deint3AVX2(d0, d1, d2, src *byte, iters int, masks *byte)

//go:noescape
func deint4AVX2(d0, d1, d2, d3, src *byte, iters int, masks *byte)

//go:noescape
func int2AVX2(dst, s0, s1 *byte, iters int, masks *byte)

//go:noescape
func int3AVX2(dst, s0, s1, s2 *byte, iters int, masks *byte)

//go:noescape
func int4AVX2(dst, s0, s1, s2, s3 *byte, iters int, masks *byte)

// shuffleTable[dir][nc-2][log2(w)] holds shuffleMasks(dir == 1, nc, w).
var shuffleTable = func() (t [2][3][5][]byte) {
	for dir := range t {
		for nc := 2; nc <= 4; nc++ {
			for l := range t[dir][nc-2] {
				t[dir][nc-2][l] = shuffleMasks(dir == 1, nc, 1<<l)
			}
		}
	}
	return t
}()

// shuffleMasks returns the nc*nc VPSHUFB masks of 32 bytes (both lanes
// alike) for nc channels of w-byte elements (w divides 16). Mask out*nc+in
// takes output register out's bytes from input register in; 0x80 gives 0.
// Splitting (interleave false), input c holds bytes 16c..16c+15 of a lane's
// 16*nc interleaved bytes and output k is channel k. Merging, input k is
// channel k and output c is bytes 16c..16c+15 of the lane's interleaved
// bytes.
func shuffleMasks(interleave bool, nc, w int) []byte {
	m := make([]byte, nc*nc*32)
	for i := range m {
		m[i] = 0x80
	}
	set := func(out, in, b int, idx int) {
		m[(out*nc+in)*32+b] = byte(idx)
		m[(out*nc+in)*32+16+b] = byte(idx)
	}
	for out := 0; out < nc; out++ {
		for b := 0; b < 16; b++ {
			if interleave {
				off := 16*out + b // in the lane's interleaved bytes
				e, q := off/w, off%w
				j, k := e/nc, e%nc // element j of channel k
				set(out, k, b, j*w+q)
			} else {
				j, q := b/w, b%w // byte q of element j of channel out
				off := (j*nc+out)*w + q
				set(out, off/16, b, off%16)
			}
		}
	}
	return m
}

// shuffleArgs checks that the kernels apply to nc channels of w-byte
// elements and returns the steps of 32 bytes per stream they can take for n
// elements per stream, with their masks.
func shuffleArgs(interleave bool, w, nc, n int) (iters int, masks *byte) {
	l := widthLog2(w)
	if !useAVX2 || nc < 2 || nc > 4 || l < 0 {
		return 0, nil
	}
	dir := 0
	if interleave {
		dir = 1
	}
	return n * w / 32, &shuffleTable[dir][nc-2][l][0]
}

// deinterleaveVec splits the first elements of nc interleaved channels of
// w-byte elements: src holds n*nc elements, channel k goes to dst[k*n*w:],
// n elements each. It returns how many elements of each channel it wrote
// (0 without AVX2); the caller does the rest.
func deinterleaveVec(dst, src []byte, w, nc, n int) int {
	iters, masks := shuffleArgs(false, w, nc, n)
	if iters == 0 {
		return 0
	}
	_ = src[iters*32*nc-1]
	_ = dst[(nc-1)*n*w+iters*32-1]
	d := func(k int) *byte { return &dst[k*n*w] }
	switch nc {
	case 2:
		deint2AVX2(d(0), d(1), &src[0], iters, masks)
	case 3:
		deint3AVX2(d(0), d(1), d(2), &src[0], iters, masks)
	default:
		deint4AVX2(d(0), d(1), d(2), d(3), &src[0], iters, masks)
	}
	return iters * 32 / w
}

// interleaveVec merges the first elements of nc channels of n w-byte
// elements, channel k at src[k*step*w:], into dst (n*nc elements). It
// returns how many elements of each channel it read (0 without AVX2); the
// caller does the rest.
func interleaveVec(dst, src []byte, w, nc, n, step int) int {
	iters, masks := shuffleArgs(true, w, nc, n)
	if iters == 0 {
		return 0
	}
	_ = dst[iters*32*nc-1]
	_ = src[(nc-1)*step*w+iters*32-1]
	s := func(k int) *byte { return &src[k*step*w] }
	switch nc {
	case 2:
		int2AVX2(&dst[0], s(0), s(1), iters, masks)
	case 3:
		int3AVX2(&dst[0], s(0), s(1), s(2), iters, masks)
	default:
		int4AVX2(&dst[0], s(0), s(1), s(2), s(3), iters, masks)
	}
	return iters * 32 / w
}
