package raster

import (
	"image"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// MaxPreviewSide is the largest width or height of a preview in pixels; a
// larger image is sampled down (nearest neighbour) to fit.
const MaxPreviewSide = 256

// Kind names how a preview maps channels to colour, as the viewer's
// data-preview attribute spells it.
type Kind string

// Preview kinds.
const (
	Gray Kind = "gray"
	RGB  Kind = "rgb"
	RGBA Kind = "rgba"
	// Strip is a 1-D tensor (an embedding) drawn as one row of grey
	// pixels (StripPreview).
	Strip Kind = "strip"
)

// Picture says where the image dimensions of a tensor are: indices into its
// (logical) shape. Channel is -1 for a 2-D image.
type Picture struct {
	H, W, Channel int
	Kind          Kind
}

// FindPicture decides whether a tensor of the given shape and dim names
// (both in the same, usually logical, order) and value type is an image the
// table previews, and where its height, width and channel dimensions are:
// the rule of package picture (picture.Find), which the inspector follows
// too. Kind is Gray for 2-D tensors and 1 channel, RGB for 3, RGBA for 4.
func FindPicture(shape []int, dimNames []string, valueType arrow.DataType) (Picture, bool) {
	l, ok := picture.Find(shape, dimNames, valueType)
	if !ok || !l.Preview {
		return Picture{}, false
	}
	kind := Gray
	if l.Colour(shape) {
		kind = RGB
		if shape[l.Channel] == 4 {
			kind = RGBA
		}
	}
	return Picture{H: l.H, W: l.W, Channel: l.Channel, Kind: kind}, true
}

// Range returns the smallest and largest finite, non-null element of t; ok is
// false when there is none or the value type is not numeric.
func Range(t tensorext.Tensor) (lo, hi float64, ok bool) {
	if v, isU8 := t.Values.(*array.Uint8); isU8 && v.NullN() == 0 && contiguous(t) && t.Len() > 0 {
		// Fast path for the common image case: one pass over the bytes.
		mn, mx := rangeUint8(v.Uint8Values()[t.Offset : t.Offset+t.Len()])
		return float64(mn), float64(mx), true
	}
	get, numeric := tensorext.Float64Reader(t.Values)
	if !numeric {
		return 0, 0, false
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	nulls := t.Values.NullN() > 0
	t.Positions(func(pos int) bool {
		if nulls && t.Values.IsNull(pos) {
			return true
		}
		v := get(pos)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
		return true
	})
	return lo, hi, lo <= hi
}

// rangeUint8 returns the smallest and largest of vals (not empty). It is a
// function of its own, calling nothing and never inlined: under Go's
// WebAssembly backend the same loop inside a function that makes calls runs
// about four times slower (BenchmarkRange224RGB with GOOS=js GOARCH=wasm in
// Node.js: 1.40 GB/s so, 0.36 GB/s inlined into Range). It stops early once
// it has seen both 0 and 255, which photographs and drawings often reach in
// their first few rows: the table summarises each row that scrolls into view.
//
//go:noinline
func rangeUint8(vals []uint8) (mn, mx uint8) {
	mn, mx = vals[0], vals[0]
	for len(vals) > 0 {
		n := min(len(vals), 4096)
		for _, b := range vals[:n] {
			mn, mx = min(mn, b), max(mx, b)
		}
		if mn == 0 && mx == 255 {
			break
		}
		vals = vals[n:]
	}
	return mn, mx
}

// Preview draws t, viewed as its Picture, into an RGBA image at most
// MaxPreviewSide pixels on each side. uint8 values are drawn as they are;
// other value types are scaled linearly from the tensor's own min..max to
// 0..255 (all equal values draw as 0). Null, NaN and infinite elements draw as
// transparent black. A Gray or single-channel image sets R=G=B; RGB sets alpha
// 255.
func Preview(t tensorext.Tensor, l Picture) *image.RGBA {
	return PreviewIn(t, l, MaxPreviewSide, MaxPreviewSide)
}

// PreviewIn is Preview into at most maxW×maxH pixels (each at most
// MaxPreviewSide; 0 or less: MaxPreviewSide), sampled down (nearest
// neighbour) with its aspect ratio kept, at the size imagebytes.FitIn
// gives.
func PreviewIn(t tensorext.Tensor, l Picture, maxW, maxH int) *image.RGBA {
	get, ok := tensorext.Float64Reader(t.Values)
	if !ok {
		return nil
	}
	h, w := t.Shape[l.H], t.Shape[l.W]
	ow, oh := imagebytes.FitIn(w, h, side(maxW), side(maxH))
	img := image.NewRGBA(image.Rect(0, 0, ow, oh))
	scale, offset := levelScale(t)
	channels := 1
	cstride := 0
	if l.Channel >= 0 {
		channels, cstride = t.Shape[l.Channel], t.Strides[l.Channel]
	}
	if v, isU8 := t.Values.(*array.Uint8); isU8 && v.NullN() == 0 {
		previewUint8(img, v.Uint8Values(), t, l, channels, cstride)
		return img
	}
	nulls := t.Values.NullN() > 0
	level := func(pos int) (uint8, bool) {
		if nulls && t.Values.IsNull(pos) {
			return 0, false
		}
		v := get(pos)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		v = (v - offset) * scale
		return uint8(math.Max(0, math.Min(255, math.Round(v)))), true
	}
	for y := 0; y < oh; y++ {
		sy := y * h / oh
		for x := 0; x < ow; x++ {
			sx := x * w / ow
			base := t.Offset + sy*t.Strides[l.H] + sx*t.Strides[l.W]
			px := img.Pix[y*img.Stride+x*4 : y*img.Stride+x*4+4 : y*img.Stride+x*4+4]
			switch channels {
			case 3, 4:
				valid := true
				for c := 0; c < channels; c++ {
					v, ok := level(base + c*cstride)
					valid = valid && ok
					px[c] = v
				}
				if channels == 3 {
					px[3] = 255
				}
				if !valid {
					px[0], px[1], px[2], px[3] = 0, 0, 0, 0
				}
			default:
				v, ok := level(base)
				if ok {
					px[0], px[1], px[2], px[3] = v, v, v, 255
				}
			}
		}
	}
	return img
}

// levelScale is how PreviewIn maps t's values to grey levels, level =
// (v - offset) * scale: uint8 as they are; any other value type from its
// finite range (Range) onto 0..255, a constant tensor to 0.
func levelScale(t tensorext.Tensor) (scale, offset float64) {
	if t.ValueType().ID() == arrow.UINT8 {
		return 1, 0
	}
	lo, hi, ok := Range(t)
	switch {
	case ok && hi > lo:
		return 255 / (hi - lo), lo
	case ok:
		return 0, lo
	}
	return 1, 0
}

// previewUint8 draws uint8 values without nulls exactly: the fast path for
// the common image case, with no per-element function calls.
func previewUint8(img *image.RGBA, vals []uint8, t tensorext.Tensor, l Picture, channels, cstride int) {
	h, w := t.Shape[l.H], t.Shape[l.W]
	ow, oh := img.Bounds().Dx(), img.Bounds().Dy()
	hs, ws := t.Strides[l.H], t.Strides[l.W]
	// The offset of each output row's and column's source, computed once:
	// no division per pixel.
	rows := make([]int, oh)
	for y := range rows {
		rows[y] = t.Offset + (y*h/oh)*hs
	}
	if channels == 3 && cstride == 1 && ws == 3 && ow == w {
		// Interleaved RGB drawn at its own size (most images): each row
		// is one run of bytes.
		for y, row := range rows {
			rgbToRGBA(img.Pix[y*img.Stride:y*img.Stride+4*ow], vals[row:row+3*ow])
		}
		return
	}
	cols := make([]int, ow)
	for x := range cols {
		cols[x] = (x * w / ow) * ws
	}
	drawUint8(img.Pix, img.Stride, vals, rows, cols, channels, cstride)
}

// rgbToRGBA copies RGB pixels from src to opaque RGBA pixels in dst. Its loop
// has no bounds checks, so (like rangeUint8) it calls nothing.
//
//go:noinline
func rgbToRGBA(dst, src []uint8) {
	for len(src) >= 3 && len(dst) >= 4 {
		dst[0], dst[1], dst[2], dst[3] = src[0], src[1], src[2], 255
		src, dst = src[3:], dst[4:]
	}
}

// drawUint8 copies the pixels at vals[rows[y]+cols[x]] (channels of them,
// cstride apart) into pix. Like rangeUint8 it is a function of its own that
// calls nothing, for Go's WebAssembly backend.
//
//go:noinline
func drawUint8(pix []uint8, stride int, vals []uint8, rows, cols []int, channels, cstride int) {
	for y, row := range rows {
		px := pix[y*stride : y*stride+4*len(cols)]
		for x, col := range cols {
			base := row + col
			p := px[4*x : 4*x+4 : 4*x+4]
			switch channels {
			case 3:
				p[0], p[1], p[2], p[3] = vals[base], vals[base+cstride], vals[base+2*cstride], 255
			case 4:
				p[0], p[1], p[2], p[3] = vals[base], vals[base+cstride], vals[base+2*cstride], vals[base+3*cstride]
			default:
				g := vals[base]
				p[0], p[1], p[2], p[3] = g, g, g, 255
			}
		}
	}
}

// contiguous reports whether t's elements fill Values[Offset:Offset+Len]
// in row-major order.
func contiguous(t tensorext.Tensor) bool {
	s := 1
	for k := len(t.Shape) - 1; k >= 0; k-- {
		if t.Shape[k] != 1 && t.Strides[k] != s {
			return false
		}
		s *= t.Shape[k]
	}
	return true
}

// Fit returns the size, in pixels, of the preview of a w × h picture:
// imagebytes.FitIn(w, h, MaxPreviewSide, MaxPreviewSide), the picture's own
// size when both sides are at most MaxPreviewSide, else scaled down with
// its aspect ratio kept (the other side rounded down, at least 1).
func Fit(w, h int) (int, int) { return imagebytes.FitIn(w, h, MaxPreviewSide, MaxPreviewSide) }

// side is a preview's largest side: n, within 1..MaxPreviewSide
// (MaxPreviewSide for 0 or less).
func side(n int) int {
	if n <= 0 || n > MaxPreviewSide {
		return MaxPreviewSide
	}
	return n
}

// StripPreview draws a 1-D numeric tensor as a strip: one row of grey
// pixels, one per element (at most MaxPreviewSide, the tensor scaled
// down by nearest element), scaled from the tensor's min..max to 0..255
// as Preview does. It returns nil for another number of dimensions, a
// value type that is not numeric, or no elements.
func StripPreview(t tensorext.Tensor) *image.RGBA {
	if t.NDim() != 1 || t.Shape[0] == 0 || !tensorext.IsNumeric(t.Values) {
		return nil
	}
	row := tensorext.Tensor{Values: t.Values, Offset: t.Offset, Shape: []int{1, t.Shape[0]}, Strides: []int{0, t.Strides[0]}}
	return Preview(row, Picture{H: 0, W: 1, Channel: -1, Kind: Gray})
}
