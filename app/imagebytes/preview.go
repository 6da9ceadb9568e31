package imagebytes

import (
	"errors"
	"image"
)

// DecodePreview decodes the encoded image b, as Decode would (same limits,
// errors, channels and first GIF frame), and returns it scaled down to at
// most maxSide pixels a side, for table thumbnails: the larger side becomes
// maxSide and the other keeps the aspect ratio, rounded down and at least 1
// (as package raster fits its previews); an image that fits keeps its size.
// Scaling is an area (box) filter: each preview pixel is the mean of the
// source area it covers, fractional pixels weighted by the covered part,
// computed exactly in integers (over alpha-premultiplied values when the
// image has alpha) and rounded to nearest.
//
// The preview's Pix holds straight (non-premultiplied) alpha, as the
// viewer's previews and the canvas ImageData they are drawn with do (not Go's
// premultiplied convention for image.RGBA); gray images have R = G = B and
// images without alpha A = 255. Only the decoder's picture, a few rows and
// the preview are held, never the full tensor.
func DecodePreview(b []byte, maxSide int, lim Limits) (*image.RGBA, Info, error) {
	if maxSide < 1 {
		return nil, Info{}, errors.New("imagebytes: preview side must be at least 1")
	}
	img, info, err := decodeImage(b, lim)
	if err != nil {
		return nil, info, err
	}
	return downscale(rowReader(img, info.Width, info.Channels), info.Width, info.Height, maxSide, info.Channels < 4), info, nil
}

// fitSide is the preview size of a w×h image at most side pixels a side.
func fitSide(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, int(int64(h)*int64(side)/int64(w)))
	}
	return max(1, int(int64(w)*int64(side)/int64(h))), side
}

// downscale area-averages the w×h straight-RGBA rows that read yields into
// an image at most side pixels a side.
//
// In units of 1/dw of a source pixel, source column x spans [x·dw, (x+1)·dw)
// and preview column i spans [i·w, (i+1)·w): each source pixel weighs its
// overlap, a preview pixel's weights sum to w, and rows likewise to h, so
// every preview pixel's weights total w·h. With alpha ≤ 255 and colour·alpha
// ≤ 65025, sums stay below 65025·w·h, far inside uint64 for any image the
// Limits admit.
func downscale(read func(y int, dst []byte), w, h, side int, opaque bool) *image.RGBA {
	dw, dh := fitSide(w, h, side)
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	// Source column x adds weight w0[x] to preview column col[x] and
	// dw-w0[x] to the next one.
	col, w0 := make([]int32, w), make([]uint64, w)
	for x := range w {
		i := x * dw / w
		col[x], w0[x] = int32(i), uint64(min((x+1)*dw, (i+1)*w)-x*dw)
	}
	row := make([]byte, 4*w)
	hacc := make([]uint64, 4*dw)
	cur, next := make([]uint64, 4*dw), make([]uint64, 4*dw)
	total := uint64(w) * uint64(h)
	oy := 0
	for y := range h {
		read(y, row)
		clear(hacc)
		for x := range w {
			p := row[4*x : 4*x+4 : 4*x+4]
			a := uint64(p[3])
			r, g, b := uint64(p[0]), uint64(p[1]), uint64(p[2])
			if !opaque {
				r, g, b = r*a, g*a, b*a
			}
			i, wt := int(col[x]), w0[x]
			acc := hacc[4*i : 4*i+4 : 4*i+4]
			acc[0] += r * wt
			acc[1] += g * wt
			acc[2] += b * wt
			acc[3] += a * wt
			if wt != uint64(dw) {
				wt = uint64(dw) - wt
				acc := hacc[4*i+4 : 4*i+8 : 4*i+8]
				acc[0] += r * wt
				acc[1] += g * wt
				acc[2] += b * wt
				acc[3] += a * wt
			}
		}
		i := y * dh / h
		v0 := uint64(min((y+1)*dh, (i+1)*h) - y*dh)
		v1 := uint64(dh) - v0
		for k, v := range hacc {
			cur[k] += v * v0
		}
		if v1 > 0 {
			for k, v := range hacc {
				next[k] += v * v1
			}
		}
		if (y+1)*dh >= (oy+1)*h {
			flush(out.Pix[oy*out.Stride:oy*out.Stride+4*dw], cur, total, opaque)
			cur, next = next, cur
			clear(next)
			oy++
		}
	}
	return out
}

// flush writes one preview row from its sums, premultiplied unless opaque.
func flush(dst []byte, acc []uint64, total uint64, opaque bool) {
	for i := 0; i < len(dst); i += 4 {
		a := acc[i+3]
		d := dst[i : i+4 : i+4]
		d[3] = byte((a + total/2) / total)
		if opaque {
			d[0] = byte((acc[i] + total/2) / total)
			d[1] = byte((acc[i+1] + total/2) / total)
			d[2] = byte((acc[i+2] + total/2) / total)
			continue
		}
		if a == 0 {
			d[0], d[1], d[2] = 0, 0, 0
			continue
		}
		d[0] = byte((acc[i] + a/2) / a)
		d[1] = byte((acc[i+1] + a/2) / a)
		d[2] = byte((acc[i+2] + a/2) / a)
	}
}
