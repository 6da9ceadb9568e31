package tensorext

// This file walks strided tensor views in blocks, the machinery of every
// copy between layouts below.

import (
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/bitutil"
)

// block is a two-dimensional strided piece of a source: n1 rows of n0
// elements, element (i1, i0) at position pos + i1*s1 + i0*s0, copied to the
// next n1*n0 consecutive destination slots. pos < 0 marks a filler block with
// no source: its slots are cleared.
type block struct{ pos, n1, s1, n0, s0 int }

// coalesce simplifies a strided layout without changing its row-major
// element order: it drops dimensions of size 1 and merges a dimension into
// the next inner one when stride[outer] == stride[inner]*shape[inner]. The
// result lists dimensions outer to inner. The shape must have no zero.
func coalesce(shape, strides []int) (cs, cst []int) {
	for k, n := range shape {
		if n == 1 {
			continue
		}
		if last := len(cs) - 1; last >= 0 && cst[last] == strides[k]*n {
			cs[last] *= n
			cst[last] = strides[k]
			continue
		}
		cs = append(cs, n)
		cst = append(cst, strides[k])
	}
	return cs, cst
}

// forEachBlock calls fn with the blocks of the tensor at offset with shape and
// strides, in row-major order of shape, so that the blocks' destination slots
// follow each other from 0. The last two (coalesced) dimensions form a block;
// an odometer walks the others. shape must have no zero.
func forEachBlock(offset int, shape, strides []int, fn func(block)) {
	cs, cst := coalesce(shape, strides)
	m := len(cs)
	switch m {
	case 0:
		fn(block{pos: offset, n1: 1, n0: 1, s0: 1})
		return
	case 1:
		fn(block{pos: offset, n1: 1, n0: cs[0], s0: cst[0]})
		return
	}
	b := block{pos: offset, n1: cs[m-2], s1: cst[m-2], n0: cs[m-1], s0: cst[m-1]}
	outer, ostr := cs[:m-2], cst[:m-2]
	idx := make([]int, len(outer))
	for {
		fn(b)
		k := len(outer) - 1
		for ; k >= 0; k-- {
			idx[k]++
			b.pos += ostr[k]
			if idx[k] < outer[k] {
				break
			}
			b.pos -= idx[k] * ostr[k]
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// gather copies the elements of the strided tensor (offset, shape, strides)
// over src into dst, which has exactly product(shape) elements, in row-major
// order of shape. The positions must be valid in src.
func gather[T any](dst, src []T, offset int, shape, strides []int) {
	if len(dst) == 0 || gatherCrossed(dst, src, offset, shape, strides) {
		return
	}
	d := 0
	forEachBlock(offset, shape, strides, func(b block) {
		k := b.n1 * b.n0
		gather2(dst[d:d+k], src, b)
		d += k
	})
}

// gather2 copies one block into dst (len n1*n0).
func gather2[T any](dst, src []T, b block) {
	n0, s0 := b.n0, b.s0
	switch {
	case s0 == 1:
		pos := b.pos
		for i := 0; i < b.n1; i++ {
			copy(dst[i*n0:(i+1)*n0], src[pos:pos+n0])
			pos += b.s1
		}
	case b.s1 == 1 && b.n1 <= 4 && s0 >= b.n1:
		// A small interleaved axis read as the outer one (channels last read
		// as channels first): walk the source once, in order, and write n1
		// streams.
		deinterleave(dst, src, b.pos, b.n1, n0, s0)
	case b.s1 == 1 && n0 <= 4 && s0 >= n0:
		// The converse (channels first read as channels last): read n0
		// streams once, in order, and write dst in order.
		interleave(dst, src, b.pos, b.n1, n0, s0)
	case crosses(b.s1, s0):
		// A transpose: the source runs along the rows.
		tile2D(dst, n0, src, b.pos, b.n1, b.s1, n0, s0)
	default:
		pos := b.pos
		for i := 0; i < b.n1; i++ {
			row := dst[i*n0 : (i+1)*n0]
			p := pos
			for j := range row {
				row[j] = src[p]
				p += s0
			}
			pos += b.s1
		}
	}
}

// deinterleave writes dst[c*n + j] = src[pos + j*step + c] for c < nc, j < n
// (nc <= 4 <= step). Packed channels (step == nc) go through
// deinterleaveVec first, which does all but a tail where it can.
func deinterleave[T any](dst, src []T, pos, nc, n, step int) {
	j0 := 0
	if step == nc {
		j0 = deinterleaveVec(asBytes(dst[:nc*n]), asBytes(src[pos:pos+nc*n]), sizeOf[T](), nc, n)
	}
	if j0 == n {
		return
	}
	src = src[pos+j0*step : pos+(n-1)*step+nc]
	switch nc {
	case 2:
		d0, d1 := dst[j0:n], dst[n+j0:2*n]
		d1 = d1[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+2]
			d0[j], d1[j] = s[0], s[1]
		}
	case 3:
		d0, d1, d2 := dst[j0:n], dst[n+j0:2*n], dst[2*n+j0:3*n]
		d1, d2 = d1[:len(d0)], d2[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+3]
			d0[j], d1[j], d2[j] = s[0], s[1], s[2]
		}
	case 4:
		d0, d1, d2, d3 := dst[j0:n], dst[n+j0:2*n], dst[2*n+j0:3*n], dst[3*n+j0:4*n]
		d1, d2, d3 = d1[:len(d0)], d2[:len(d0)], d3[:len(d0)]
		for j := range d0 {
			s := src[j*step : j*step+4]
			d0[j], d1[j], d2[j], d3[j] = s[0], s[1], s[2], s[3]
		}
	default: // nc == 1
		d0 := dst[j0:n]
		for j := range d0 {
			d0[j] = src[j*step]
		}
	}
}

// interleave writes dst[j*nc + c] = src[pos + c*step + j] for c < nc, j < n
// (nc <= 4 <= step), through interleaveVec first, which does all but a tail
// where it can.
func interleave[T any](dst, src []T, pos, n, nc, step int) {
	if nc == 1 {
		copy(dst[:n], src[pos:pos+n])
		return
	}
	j0 := interleaveVec(asBytes(dst[:n*nc]), asBytes(src[pos:pos+(nc-1)*step+n]), sizeOf[T](), nc, n, step)
	if j0 == n {
		return
	}
	pos += j0
	dst = dst[j0*nc : n*nc]
	switch nc {
	case 2:
		s0, s1 := src[pos:pos+n-j0], src[pos+step:pos+step+n-j0]
		s1 = s1[:len(s0)]
		for j := range s0 {
			d := dst[2*j : 2*j+2]
			d[0], d[1] = s0[j], s1[j]
		}
	case 3:
		s0, s1, s2 := src[pos:pos+n-j0], src[pos+step:pos+step+n-j0], src[pos+2*step:pos+2*step+n-j0]
		s1, s2 = s1[:len(s0)], s2[:len(s0)]
		for j := range s0 {
			d := dst[3*j : 3*j+3]
			d[0], d[1], d[2] = s0[j], s1[j], s2[j]
		}
	default: // nc == 4
		s0, s1, s2, s3 := src[pos:pos+n-j0], src[pos+step:pos+step+n-j0], src[pos+2*step:pos+2*step+n-j0], src[pos+3*step:pos+3*step+n-j0]
		s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
		for j := range s0 {
			d := dst[4*j : 4*j+4]
			d[0], d[1], d[2], d[3] = s0[j], s1[j], s2[j], s3[j]
		}
	}
}

// sizeOf returns the size in bytes of a T.
func sizeOf[T any]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// asBytes reinterprets a slice of T as its bytes.
func asBytes[T any](s []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*sizeOf[T]())
}

// widthLog2 returns log2(w) for w in 1, 2, 4, 8, 16, else -1.
func widthLog2(w int) int {
	for l := 0; l <= 4; l++ {
		if w == 1<<l {
			return l
		}
	}
	return -1
}

// castSlice reinterprets a byte slice as a slice of T.
func castSlice[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// aligned reports whether b's data is aligned to a.
func aligned(b []byte, a uintptr) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%a == 0
}

// copyBlocksBytes copies the w-byte elements that s names from src to dst.
// Filler blocks are zeroed.
func copyBlocksBytes(dst, src []byte, w int, s flatSource) {
	switch {
	case w == 1:
		copyTyped[uint8](dst, src, s)
		return
	case w == 2 && aligned(dst, 2) && aligned(src, 2):
		copyTyped[uint16](dst, src, s)
		return
	case w == 4 && aligned(dst, 4) && aligned(src, 4):
		copyTyped[uint32](dst, src, s)
		return
	case w == 8 && aligned(dst, 8) && aligned(src, 8):
		copyTyped[uint64](dst, src, s)
		return
	case w == 16 && aligned(dst, 8) && aligned(src, 8):
		copyTyped[[2]uint64](dst, src, s)
		return
	}
	// Any width, any alignment: an element is an extra innermost dimension
	// of w bytes with stride 1.
	d := 0
	s.blocks(func(b block) {
		k := b.n1 * b.n0
		if b.pos < 0 {
			clear(dst[d*w : (d+k)*w])
		} else {
			gather(dst[d*w:(d+k)*w], src, b.pos*w, []int{b.n1, b.n0, w}, []int{b.s1 * w, b.s0 * w, 1})
		}
		d += k
	})
}

// copyTyped is copyBlocksBytes for elements of type T, on buffers aligned
// for it: the view's elements with gather, else block by block.
func copyTyped[T any](dst, src []byte, s flatSource) {
	ds, ss := castSlice[T](dst), castSlice[T](src)
	if s.view != nil {
		gather(ds, ss, s.view.Offset, s.view.Shape, s.view.Strides)
		return
	}
	d := 0
	s.blocks(func(b block) {
		k := b.n1 * b.n0
		if b.pos < 0 {
			clear(ds[d : d+k])
		} else {
			gather2(ds[d:d+k], ss, b)
		}
		d += k
	})
}

// copyBlocksBits copies blocks of bits from src (bit offset srcOff) to dst
// (from bit 0, which must be zeroed). Filler blocks are set to fill.
func copyBlocksBits(dst, src []byte, srcOff int, fill bool, blocks func(func(block))) {
	d := 0
	blocks(func(b block) {
		switch {
		case b.pos < 0:
			if fill {
				bitutil.SetBitsTo(dst, int64(d), int64(b.n1*b.n0), true)
			}
			d += b.n1 * b.n0
		case b.s0 == 1:
			pos := b.pos
			for i := 0; i < b.n1; i++ {
				bitutil.CopyBitmap(src, srcOff+pos, b.n0, dst, d)
				d += b.n0
				pos += b.s1
			}
		default:
			pos := srcOff + b.pos
			for i := 0; i < b.n1; i++ {
				p := pos
				for j := 0; j < b.n0; j++ {
					if bitutil.BitIsSet(src, p) {
						bitutil.SetBit(dst, d)
					}
					d++
					p += b.s0
				}
				pos += b.s1
			}
		}
	})
}
