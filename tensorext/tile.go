package tensorext

// This file copies strided layouts whose source runs across the
// destination's rows (transposes) in cache-sized tiles.

// Tile sizes of tile2D, in elements: tileRun along the dimension that is
// most contiguous in the source, tileRows along the destination's rows.
// Measured on 1024×1024 and 1000×1000 float32, 1024×1024 uint8 and 512×512
// uint64 transposes: 64×8 was the best or near it for all; squarer tiles
// lose on power-of-two strides, whose rows all fall in the same L1 sets.
const (
	tileRun  = 64
	tileRows = 8
)

// tile2D writes dst[i1*drow + i0] = src[pos + i1*s1 + i0*s0] for i1 < n1,
// i0 < n0, in tiles of tileRun values of i1 by tileRows of i0, so that the
// source lines read along i1 (|s1| small) serve a whole tile while they are
// in L1 instead of one element per line as a row-by-row walk of a transpose
// does.
func tile2D[T any](dst []T, drow int, src []T, pos, n1, s1, n0, s0 int) {
	for a := 0; a < n1; a += tileRun {
		e1 := min(a+tileRun, n1)
		for b := 0; b < n0; b += tileRows {
			e0 := min(b+tileRows, n0)
			for i1 := a; i1 < e1; i1++ {
				row := dst[i1*drow+b : i1*drow+e0]
				p := pos + i1*s1 + b*s0
				for j := range row {
					row[j] = src[p]
					p += s0
				}
			}
		}
	}
}

// crosses reports whether a source stride s is more contiguous than t: a
// transpose has a run along an outer destination dimension worth tiling.
// Broadcast strides (0) never cross.
func crosses(s, t int) bool {
	return s != 0 && abs(s) < abs(t)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// gatherCrossed copies the strided tensor (offset, shape, strides) into dst
// as gather does when its most contiguous source dimension u (after
// coalescing) is not one of the last two, which forEachBlock's blocks span:
// an odometer walks the other dimensions and tile2D copies the (u, last)
// plane for each. It reports false, doing nothing, in every other case.
func gatherCrossed[T any](dst, src []T, offset int, shape, strides []int) bool {
	cs, cst := coalesce(shape, strides)
	m := len(cs)
	if m < 3 {
		return false
	}
	u := 0
	for k := 1; k < m-2; k++ {
		if crosses(cst[k], cst[u]) || cst[u] == 0 {
			u = k
		}
	}
	last := m - 1
	if !crosses(cst[u], cst[m-2]) || !crosses(cst[u], cst[last]) {
		return false
	}
	// Destination strides, and the other dimensions for the odometer.
	dstr := make([]int, m)
	dstr[last] = 1
	for k := last - 1; k >= 0; k-- {
		dstr[k] = dstr[k+1] * cs[k+1]
	}
	var outer []int
	for k := 0; k < last; k++ {
		if k != u {
			outer = append(outer, k)
		}
	}
	idx := make([]int, len(outer))
	s, d := offset, 0
	for {
		tile2D(dst[d:], dstr[u], src, s, cs[u], cst[u], cs[last], cst[last])
		k := len(outer) - 1
		for ; k >= 0; k-- {
			o := outer[k]
			idx[k]++
			s += cst[o]
			d += dstr[o]
			if idx[k] < cs[o] {
				break
			}
			s -= idx[k] * cst[o]
			d -= idx[k] * dstr[o]
			idx[k] = 0
		}
		if k < 0 {
			return true
		}
	}
}
