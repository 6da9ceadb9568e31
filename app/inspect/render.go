package inspect

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// MaxImagePixels is the largest picture Render draws, in pixels (width ×
// height): 16384², the largest canvas area browsers allow.
const MaxImagePixels = 16384 * 16384

// Range is the span of values a picture's colour scale covers, in the
// tensor's value units: Min maps to the lowest colour and Max to the
// highest. Both must be finite. When Max <= Min the scale is a step: values
// up to Min take the lowest colour, larger values the highest.
type Range struct{ Min, Max float64 }

// Symmetric returns the range centred on 0 that contains r:
// {-m, m} with m = max(|Min|, |Max|), for diverging colormaps.
func (r Range) Symmetric() Range {
	m := math.Max(math.Abs(r.Min), math.Abs(r.Max))
	return Range{-m, m}
}

// Render draws the picture v selects from t: one pixel per element, width
// the size of dimension v.X, height the size of v.Y (see View for
// orientation and flips). It is RenderInto with a new image.
//
// Without a Channel, element value f is drawn as cm.LUT[i] with
// i = floor(256*(f-r.Min)/(r.Max-r.Min)) clamped to 0..255 (so r.Min is entry
// 0 and r.Max entry 255, as matplotlib bins values).
//
// With a Channel of size 3 (RGB) or 4 (RGBA), each channel value f is drawn
// as round(255*(f-r.Min)/(r.Max-r.Min)) clamped to 0..255, without a
// colormap; uint8 values with Range{0, 255} are drawn exactly, as are floats
// in 0..1 with Range{0, 1} up to rounding. RGB pixels are opaque. The
// returned Pix holds straight (non-premultiplied) alpha, as canvas ImageData
// expects, unlike image.RGBA's documented premultiplied convention; that
// matters only for RGBA pictures with alpha below 255.
//
// Elements with no place on the scale take cm's fixed colours (defaults
// NaNColor magenta, PosInfColor white, NegInfColor black, NullColor
// transparent); a colour pixel takes them when any of its channels is null,
// else NaN, else +Inf, else -Inf, in that order of precedence.
//
// Booleans read as 0 and 1; every integer type, float16/32/64 and arrays
// implementing tensorext.Float64Source (Lance's bfloat16) are read as
// float64 (int64/uint64 beyond 2^53 lose precision). Render returns an
// error for an invalid view (View.Validate), another value type, a Range
// bound that is not finite, a picture larger than MaxImagePixels, or a
// tensor whose strides reach outside its values.
func Render(t tensorext.Tensor, v View, cm Colormap, r Range) (*image.RGBA, error) {
	return RenderInto(nil, t, v, cm, r)
}

// RenderInto is Render drawing into dst, which it resizes to the picture's
// bounds (origin 0,0) and returns; dst's pixel memory is reused when its
// capacity suffices, so repeated renders of same-sized pictures allocate
// nothing. dst may be nil. On error dst is unchanged.
func RenderInto(dst *image.RGBA, t tensorext.Tensor, v View, cm Colormap, r Range) (*image.RGBA, error) {
	if err := v.Validate(t); err != nil {
		return dst, err
	}
	if err := drawable(t); err != nil {
		return dst, err
	}
	if math.IsNaN(r.Min) || math.IsInf(r.Min, 0) || math.IsNaN(r.Max) || math.IsInf(r.Max, 0) {
		return dst, fmt.Errorf("inspect: range %g..%g must have finite bounds", r.Min, r.Max)
	}
	g := v.geom(t)
	if g.w > 0 && g.h > MaxImagePixels/g.w {
		return dst, fmt.Errorf("inspect: a %d×%d picture exceeds %d pixels", g.w, g.h, MaxImagePixels)
	}
	if err := t.Check(); err != nil {
		return dst, err
	}
	n := 4 * g.w * g.h
	if dst == nil || cap(dst.Pix) < n {
		dst = image.NewRGBA(image.Rect(0, 0, g.w, g.h))
	} else {
		dst.Pix, dst.Stride, dst.Rect = dst.Pix[:n], 4*g.w, image.Rect(0, 0, g.w, g.h)
	}
	var p painter
	p.init(dst, g, validityOf(t.Values), &cm, r)
	switch a := t.Values.(type) {
	case *array.Uint8:
		draw(&p, numReader[uint8](a.Uint8Values()))
	case *array.Int8:
		draw(&p, numReader[int8](a.Int8Values()))
	case *array.Uint16:
		draw(&p, numReader[uint16](a.Uint16Values()))
	case *array.Int16:
		draw(&p, numReader[int16](a.Int16Values()))
	case *array.Uint32:
		draw(&p, numReader[uint32](a.Uint32Values()))
	case *array.Int32:
		draw(&p, numReader[int32](a.Int32Values()))
	case *array.Uint64:
		draw(&p, numReader[uint64](a.Uint64Values()))
	case *array.Int64:
		draw(&p, numReader[int64](a.Int64Values()))
	case *array.Float16:
		draw(&p, halfReader(a.Values()))
	case *array.Float32:
		draw(&p, numReader[float32](a.Float32Values()))
	case *array.Float64:
		draw(&p, numReader[float64](a.Float64Values()))
	case *array.Boolean:
		draw(&p, boolOf(a))
	default: // a tensorext.Float64Source (drawable checked IsNumeric)
		at, _ := tensorext.Float64Reader(a)
		draw(&p, funcReader(at))
	}
	return dst, nil
}

// painter holds what the drawing loops need, colours packed as
// little-endian uint32 (R in the low byte), as they are stored in Pix.
type painter struct {
	pix    []byte
	stride int
	g      geometry
	valid  validity
	lut    [256]uint32
	nan    uint32
	posInf uint32
	negInf uint32
	null   uint32
	min    float64 // Range.Min
	lo     float64 // Range.Min, or +Inf for a step so that mapScalar's fast path never applies
	scale  float64 // 256/(Max-Min) for the colormap, 255/(Max-Min) for channels
	step   bool    // Max <= Min: a step at Min
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

func (p *painter) init(dst *image.RGBA, g geometry, valid validity, cm *Colormap, r Range) {
	*p = painter{pix: dst.Pix, stride: dst.Stride, g: g, valid: valid,
		nan: pack(cm.NaN), posInf: pack(cm.PosInf), negInf: pack(cm.NegInf), null: pack(cm.Null),
		min: r.Min, step: !(r.Max > r.Min)}
	for i, c := range cm.LUT {
		p.lut[i] = pack(c)
	}
	levels := 256.0
	if g.channels > 1 {
		levels = 255
	}
	if !p.step {
		p.scale = levels / (r.Max - r.Min)
		if math.IsInf(r.Max-r.Min, 0) { // the span overflows float64: halve it
			p.scale = levels / 2 / (r.Max/2 - r.Min/2)
		}
		if math.IsInf(p.scale, 0) { // Max-Min too small to divide by
			p.step = true
		}
	}
	p.lo = p.min
	if p.step {
		p.lo, p.scale = math.Inf(1), 1
	}
}

// edgeColour is the colour of a non-null value outside the fast path of
// mapScalar: NaN, infinities, values out of range and step ranges.
func (p *painter) edgeColour(f float64) uint32 {
	switch {
	case f != f:
		return p.nan
	case f > math.MaxFloat64:
		return p.posInf
	case f < -math.MaxFloat64:
		return p.negInf
	case p.step && f > p.min, !p.step && (f-p.min)*p.scale >= 255:
		return p.lut[255]
	}
	return p.lut[0]
}

// Precedence of the fixed colours of a colour pixel.
const (
	okRank = iota
	negInfRank
	posInfRank
	nanRank
	nullRank
)

// level returns the 0..255 level of a channel value and its special rank.
func (p *painter) level(f float64) (uint8, int) {
	switch {
	case f != f:
		return 0, nanRank
	case f > math.MaxFloat64:
		return 0, posInfRank
	case f < -math.MaxFloat64:
		return 0, negInfRank
	}
	if p.step {
		if f > p.min {
			return 255, okRank
		}
		return 0, okRank
	}
	s := (f-p.min)*p.scale + 0.5
	switch {
	case s < 1:
		return 0, okRank
	case s >= 255:
		return 255, okRank
	}
	return uint8(s), okRank
}

// chunk is the number of elements gathered into a float64 buffer at a
// time: type-specific code only gathers, and the colour mapping runs on
// plain float64s, inlined, for every value type.
const chunk = 256

// draw runs the scalar or colour loop for the value reader r, row by row.
// (Walking a transposed view by columns instead, so that reads follow
// memory, measured slower: the writes then stride through Pix.)
func draw[R reader](p *painter, r R) {
	if p.g.channels > 1 {
		drawChannels(p, r)
	} else {
		drawScalar(p, r)
	}
}

// scratch holds the gather buffers: pooled, because buffers passed to a
// type parameter's method escape to the heap.
var scratch = sync.Pool{New: func() any { return new([4][chunk]float64) }}

func drawScalar[R reader](p *painter, r R) {
	bufs := scratch.Get().(*[4][chunk]float64)
	defer scratch.Put(bufs)
	buf, g := &bufs[0], p.g
	for y := 0; y < g.h; y++ {
		pos, o := g.base+y*g.sy, y*p.stride
		for x := 0; x < g.w; x += chunk {
			fs := buf[:min(chunk, g.w-x)]
			r.gather(fs, pos, g.sx)
			p.mapScalar(fs, pos, g.sx, o)
			pos += len(fs) * g.sx
			o += 4 * len(fs)
		}
	}
}

// mapScalar writes the colours of the values fs, read from positions pos,
// pos+sx, ..., to the pixels at Pix offset o, o+4, ....
func (p *painter) mapScalar(fs []float64, pos, sx, o int) {
	lo, scale, lut, pix := p.lo, p.scale, &p.lut, p.pix
	if p.valid.bits == nil {
		for _, f := range fs {
			var c uint32
			if s := (f - lo) * scale; s >= 0 && s < 255 {
				c = lut[int(s)]
			} else {
				c = p.edgeColour(f)
			}
			binary.LittleEndian.PutUint32(pix[o:], c)
			o += 4
		}
		return
	}
	for _, f := range fs {
		var c uint32
		switch s := (f - lo) * scale; {
		case p.valid.null(pos):
			c = p.null
		case s >= 0 && s < 255:
			c = lut[int(s)]
		default:
			c = p.edgeColour(f)
		}
		binary.LittleEndian.PutUint32(pix[o:], c)
		o += 4
		pos += sx
	}
}

func drawChannels[R reader](p *painter, r R) {
	buf := scratch.Get().(*[4][chunk]float64)
	defer scratch.Put(buf)
	g := p.g
	for y := 0; y < g.h; y++ {
		pos, o := g.base+y*g.sy, y*p.stride
		for x := 0; x < g.w; x += chunk {
			n := min(chunk, g.w-x)
			for c := 0; c < g.channels; c++ {
				r.gather(buf[c][:n], pos+c*g.sc, g.sx)
			}
			p.mapChannels(buf, n, pos, o)
			pos += n * g.sx
			o += 4 * n
		}
	}
}

// mapChannels writes n colour pixels from the gathered channel values, read
// from positions pos, pos+sx, ..., to Pix offsets o, o+4, ....
func (p *painter) mapChannels(buf *[4][chunk]float64, n, pos, o int) {
	nc, sc := p.g.channels, p.g.sc
	for i := 0; i < n; i++ {
		px := p.pix[o : o+4 : o+4]
		px[3] = 255
		rank := okRank
		for c := 0; c < nc; c++ {
			if p.valid.null(pos + c*sc) {
				rank = nullRank
				break
			}
			l, k := p.level(buf[c][i])
			px[c] = l
			rank = max(rank, k)
		}
		switch rank {
		case nullRank:
			binary.LittleEndian.PutUint32(px, p.null)
		case nanRank:
			binary.LittleEndian.PutUint32(px, p.nan)
		case posInfRank:
			binary.LittleEndian.PutUint32(px, p.posInf)
		case negInfRank:
			binary.LittleEndian.PutUint32(px, p.negInf)
		}
		pos += p.g.sx
		o += 4
	}
}
