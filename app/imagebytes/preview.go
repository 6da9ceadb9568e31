package imagebytes

import (
	"errors"
	"image"
	"image/color"
)

// DecodePreview decodes the encoded image b, as Decode would (same limits,
// errors, channels and first GIF frame), and returns it scaled down to at
// most maxSide pixels a side, for table thumbnails, at the size
// FitIn(width, height, maxSide, maxSide) gives (the size of the canvas the
// viewer draws it on); an image that fits keeps its size.
// Scaling is an area (box) filter: each preview pixel is the mean of the
// source area it covers, fractional pixels weighted by the covered part,
// computed exactly in integers (over alpha-premultiplied values when the
// image has alpha) and rounded to nearest. A colour JPEG or lossy WebP that
// is scaled down is averaged in its Y, Cb and Cr planes instead and
// converted once per preview pixel (within 2 of the RGB average where no
// channel clips; see downscaleYCbCr).
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
	w, h := info.Width, info.Height
	if m, ok := img.(*image.YCbCr); ok && m.Rect == image.Rect(0, 0, w, h) && info.Channels == 3 {
		if dw, dh := FitIn(w, h, maxSide, maxSide); dw < w || dh < h {
			return downscaleYCbCr(m, dw, dh), info, nil
		}
	}
	return downscale(rowReader(img, w, info.Channels), w, h, maxSide, info.Channels < 4), info, nil
}

// downscaleYCbCr is the preview of a colour JPEG or lossy WebP: the Y, Cb
// and Cr planes are area-averaged separately, each at its own resolution,
// and the averages converted to RGB once per preview pixel. As the
// conversion is affine, this equals averaging the RGB pixels except where
// a channel clips at 0 or 255 and where a subsampled chroma column or row
// at an odd edge weighs as much as a full one; it reads 1.5 bytes a pixel
// (4:2:0) instead of converting and averaging 4, several times faster in
// WebAssembly.
func downscaleYCbCr(m *image.YCbCr, dw, dh int) *image.RGBA {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw, ch := w, h
	switch m.SubsampleRatio {
	case image.YCbCrSubsampleRatio422:
		cw = (w + 1) / 2
	case image.YCbCrSubsampleRatio420:
		cw, ch = (w+1)/2, (h+1)/2
	case image.YCbCrSubsampleRatio440:
		ch = (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		cw = (w + 3) / 4
	case image.YCbCrSubsampleRatio410:
		cw, ch = (w+3)/4, (h+1)/2
	}
	ys := areaPlane(m.Y, m.YStride, w, h, dw, dh)
	cbs := areaPlane(m.Cb, m.CStride, cw, ch, dw, dh)
	crs := areaPlane(m.Cr, m.CStride, cw, ch, dw, dh)
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	yt, ct := uint64(w)*uint64(h), uint64(cw)*uint64(ch)
	for i := range ys {
		yv := uint8((ys[i] + yt/2) / yt)
		cb, cr := uint8((cbs[i]+ct/2)/ct), uint8((crs[i]+ct/2)/ct)
		r, g, b := color.YCbCrToRGB(yv, cb, cr)
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = r, g, b, 255
	}
	return out
}

// areaPlane area-sums a w×h plane of bytes (row stride stride) onto dw×dh
// cells, as downscale does one channel: each cell's weights total w·h.
func areaPlane(p []byte, stride, w, h, dw, dh int) []uint64 {
	col, w0 := make([]int32, w), make([]uint64, w)
	for x := range w {
		i := x * dw / w
		col[x], w0[x] = int32(i), uint64(min((x+1)*dw, (i+1)*w)-x*dw)
	}
	sums := make([]uint64, dw*dh)
	hacc := make([]uint64, dw+1) // one spare cell: the last column's w1 is 0
	for y := range h {
		row := p[y*stride:][:w]
		clear(hacc)
		for x, v := range row {
			i, wt := col[x], w0[x]
			hacc[i] += uint64(v) * wt
			hacc[i+1] += uint64(v) * (uint64(dw) - wt)
		}
		i := y * dh / h
		v0 := uint64(min((y+1)*dh, (i+1)*h) - y*dh)
		cur := sums[i*dw : (i+1)*dw]
		for k, v := range hacc[:dw] {
			cur[k] += v * v0
		}
		if v1 := uint64(dh) - v0; v1 > 0 {
			next := sums[(i+1)*dw : (i+2)*dw]
			for k, v := range hacc[:dw] {
				next[k] += v * v1
			}
		}
	}
	return sums
}

// FitIn returns the size, in pixels, of a w×h image sampled down to fit a
// maxW×maxH box with its aspect ratio kept: w×h itself when it fits (never
// larger). Otherwise the width is fitted first, maxW × h·maxW/w, and when
// that height is over maxH the height instead, w·maxH/h × maxH; the side
// computed is rounded down and at least 1. In a square box the larger side
// becomes maxW, except that an image a little taller than wide (h·maxW/w
// rounding down to maxW) comes out maxW×maxW. w and h must be at least 1,
// maxW and maxH at least 1. Package raster fits its previews, and package
// decode the thumbnails of encoded images, with it.
func FitIn(w, h, maxW, maxH int) (int, int) {
	if w <= maxW && h <= maxH {
		return w, h
	}
	ow, oh := maxW, max(1, h*maxW/w)
	if oh > maxH {
		ow, oh = max(1, w*maxH/h), maxH
	}
	return ow, oh
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
	dw, dh := FitIn(w, h, side, side)
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
		sumRow(hacc, row, col, w0, dw, opaque)
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

// sumRow sets hacc, 4 sums per preview column, to one source row's
// straight-RGBA pixels weighted across the columns they overlap: source
// column x adds weight w0[x] to preview column col[x] and dw-w0[x] to the
// next one. Colours are multiplied by alpha unless opaque.
func sumRow(hacc []uint64, row []byte, col []int32, w0 []uint64, dw int, opaque bool) {
	clear(hacc)
	// Indexing without subslices keeps the loop short for WebAssembly.
	for x := 0; x < len(col) && 4*x+3 < len(row); x++ {
		a := uint64(row[4*x+3])
		r, g, b := uint64(row[4*x]), uint64(row[4*x+1]), uint64(row[4*x+2])
		if !opaque {
			r, g, b = r*a, g*a, b*a
		}
		k, wt := 4*int(col[x]), w0[x]
		if k+3 >= len(hacc) {
			break
		}
		hacc[k] += r * wt
		hacc[k+1] += g * wt
		hacc[k+2] += b * wt
		hacc[k+3] += a * wt
		if wt != uint64(dw) && k+7 < len(hacc) {
			wt = uint64(dw) - wt
			hacc[k+4] += r * wt
			hacc[k+5] += g * wt
			hacc[k+6] += b * wt
			hacc[k+7] += a * wt
		}
	}
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
