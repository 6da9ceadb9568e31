package imagebytes

import (
	"bytes"
	"fmt"
	"image"
	"image/color"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// DimNames are the dimension names of the tensors Decode returns, which
// package layout reads as height, width and colour channels.
var DimNames = []string{"height", "width", "channel"}

// Decode decodes the encoded image b into a Height×Width×Channels uint8
// tensor (Info.Channels: 1 gray, 3 RGB, 4 RGB and straight alpha), row-major
// with DimNames, over one *array.Uint8 that holds the pixels once. 16-bit
// samples keep their high byte; an animated GIF gives its first frame, drawn
// on the logical screen. Images past lim (see Limits; zero fields are the
// defaults) are refused from their header before any pixel is decoded, with
// an error wrapping ErrTooLarge that names the declared size. It returns
// ErrUnknownFormat for bytes that are no image Sniff knows, the decoder's
// error for broken data, and never panics.
func Decode(b []byte, lim Limits) (tensorext.Tensor, error) {
	img, info, err := decodeImage(b, lim)
	if err != nil {
		return tensorext.Tensor{}, err
	}
	w, h, c := info.Width, info.Height, info.Channels
	pix := reuse(img, info)
	if m, ok := img.(*image.YCbCr); ok && pix == nil && c == 3 && m.Rect == image.Rect(0, 0, w, h) {
		pix = make([]byte, h*w*c) // a colour JPEG or lossy WebP: no RGBA row between
		span := ycbcrSpan(m, nil, 0, 3)
		for y := range h {
			span(y, 0, w, pix[y*w*c:(y+1)*w*c])
		}
	}
	if pix == nil {
		pix = make([]byte, h*w*c)
		read := rowReader(img, w, c)
		row := make([]byte, 4*w)
		for y := range h {
			dst := pix[y*w*c : (y+1)*w*c]
			if c == 4 {
				read(y, dst)
				continue
			}
			read(y, row)
			pack(dst, row, c)
		}
	}
	buf := memory.NewBufferBytes(pix)
	data := array.NewData(arrow.PrimitiveTypes.Uint8, len(pix), []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer data.Release()
	return tensorext.Tensor{
		Values:   array.NewUint8Data(data),
		Shape:    []int{h, w, c},
		Strides:  []int{w * c, c, 1},
		DimNames: append([]string(nil), DimNames...),
	}, nil
}

// decodeImage reads the header, checks the limits and decodes b with its
// format's decoder; the picture returned lies within Info's canvas.
func decodeImage(b []byte, lim Limits) (image.Image, Info, error) {
	info, err := Config(b)
	if err != nil {
		return nil, info, err
	}
	return decodeChecked(b, info, lim)
}

// decodeChecked is decodeImage for an image whose header Config has read
// as hdr.
func decodeChecked(b []byte, hdr Info, lim Limits) (img image.Image, info Info, err error) {
	info = hdr
	if err := CheckLimits(b, info, lim); err != nil {
		return nil, info, err
	}
	defer func() {
		if r := recover(); r != nil {
			img, err = nil, fmt.Errorf("%s: decoding: %v", info.Format, r)
		}
	}()
	img, err = codecs[info.Format].decode(bytes.NewReader(b))
	if err != nil {
		return nil, info, fmt.Errorf("%s: %w", info.Format, err)
	}
	canvas := image.Rect(0, 0, info.Width, info.Height)
	if bd := img.Bounds(); bd != canvas && (info.Format != GIF || !bd.In(canvas)) {
		return nil, info, fmt.Errorf("%s: decoded %v, the header declares %d×%d", info.Format, bd, info.Width, info.Height)
	}
	return img, info, nil
}

// reuse returns the decoder's own pixels when they already are the
// tensor's layout (a gray JPEG or PNG, an RGBA WebP lossless or PNG), so
// that the picture is held once; else nil.
func reuse(img image.Image, info Info) []byte {
	w, h := info.Width, info.Height
	canvas := image.Rect(0, 0, w, h)
	switch m := img.(type) {
	case *image.Gray:
		if info.Channels == 1 && m.Rect == canvas && m.Stride == w && len(m.Pix) == w*h {
			return m.Pix
		}
	case *image.NRGBA:
		if info.Channels == 4 && m.Rect == canvas && m.Stride == 4*w && len(m.Pix) == 4*w*h {
			return m.Pix
		}
	}
	return nil
}

// pack writes the first c channels of each RGBA pixel of row to dst.
func pack(dst, row []byte, c int) {
	switch c {
	case 1:
		for x := range len(dst) {
			dst[x] = row[4*x]
		}
	case 3:
		for x := range len(dst) / 3 {
			copy(dst[3*x:3*x+3], row[4*x:4*x+3])
		}
	}
}

// rowReader returns a function that writes row y of the w-pixel-wide canvas
// as straight (non-premultiplied) RGBA, 4 bytes a pixel, to dst (len 4w):
// canvas pixels outside img's bounds are transparent black. For channels
// 1 and 3 alpha is set to 255; for 1, the image is gray (R = G = B).
func rowReader(img image.Image, w, channels int) func(y int, dst []byte) {
	b := img.Bounds()
	x0, x1 := max(b.Min.X, 0), min(b.Max.X, w)
	full := x0 == 0 && x1 == w
	span := spanReader(img)
	return func(y int, dst []byte) {
		if !full || y < b.Min.Y || y >= b.Max.Y {
			clear(dst)
		}
		if y >= b.Min.Y && y < b.Max.Y && x0 < x1 {
			span(y, x0, x1, dst)
		}
		if channels < 4 {
			for i := 3; i < len(dst); i += 4 {
				dst[i] = 255
			}
		}
	}
}

// spanReader returns a function writing pixels x0..x1-1 of row y (all
// within img's bounds) as straight RGBA to dst[4*x0:4*x1].
func spanReader(img image.Image) func(y, x0, x1 int, dst []byte) {
	switch m := img.(type) {
	case *image.Gray:
		return func(y, x0, x1 int, dst []byte) {
			src := m.Pix[m.PixOffset(x0, y):]
			for x := x0; x < x1; x++ {
				v := src[x-x0]
				d := dst[4*x : 4*x+4 : 4*x+4]
				d[0], d[1], d[2], d[3] = v, v, v, 255
			}
		}
	case *image.Gray16:
		return func(y, x0, x1 int, dst []byte) {
			src := m.Pix[m.PixOffset(x0, y):]
			for x := x0; x < x1; x++ {
				v := src[2*(x-x0)] // high byte
				d := dst[4*x : 4*x+4 : 4*x+4]
				d[0], d[1], d[2], d[3] = v, v, v, 255
			}
		}
	case *image.NRGBA:
		return func(y, x0, x1 int, dst []byte) {
			i := m.PixOffset(x0, y)
			copy(dst[4*x0:4*x1], m.Pix[i:i+4*(x1-x0)])
		}
	case *image.NRGBA64:
		return func(y, x0, x1 int, dst []byte) {
			src := m.Pix[m.PixOffset(x0, y):]
			for x := x0; x < x1; x++ {
				s := src[8*(x-x0) : 8*(x-x0)+8 : 8*(x-x0)+8]
				d := dst[4*x : 4*x+4 : 4*x+4]
				d[0], d[1], d[2], d[3] = s[0], s[2], s[4], s[6]
			}
		}
	case *image.RGBA:
		return rgbaSpans(m)
	case *image.Paletted:
		return palettedSpans(m)
	case *image.YCbCr:
		return ycbcrReader(m, nil, 0)
	case *image.NYCbCrA:
		return ycbcrReader(&m.YCbCr, m.A, m.AStride)
	case *image.CMYK:
		return cmykSpans(m)
	}
	return func(y, x0, x1 int, dst []byte) {
		for x := x0; x < x1; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			d := dst[4*x : 4*x+4 : 4*x+4]
			d[0], d[1], d[2], d[3] = c.R, c.G, c.B, c.A
		}
	}
}

// rgbaSpans is spanReader for premultiplied RGBA: opaque pixels are
// copied, the others converted to straight alpha.
func rgbaSpans(m *image.RGBA) func(y, x0, x1 int, dst []byte) {
	return func(y, x0, x1 int, dst []byte) {
		src := m.Pix[m.PixOffset(x0, y):]
		for x := x0; x < x1; x++ {
			s := src[4*(x-x0) : 4*(x-x0)+4 : 4*(x-x0)+4]
			d := dst[4*x : 4*x+4 : 4*x+4]
			if s[3] == 255 {
				copy(d, s)
				continue
			}
			c := color.NRGBAModel.Convert(color.RGBA{s[0], s[1], s[2], s[3]}).(color.NRGBA)
			d[0], d[1], d[2], d[3] = c.R, c.G, c.B, c.A
		}
	}
}

// palettedSpans is spanReader for a paletted image, through a 256-entry
// lookup table of its palette as straight RGBA.
func palettedSpans(m *image.Paletted) func(y, x0, x1 int, dst []byte) {
	var lut [256][4]byte // indices past the palette stay transparent black
	for i, c := range m.Palette {
		if i < 256 && c != nil {
			n := color.NRGBAModel.Convert(c).(color.NRGBA)
			lut[i] = [4]byte{n.R, n.G, n.B, n.A}
		}
	}
	return func(y, x0, x1 int, dst []byte) {
		src := m.Pix[m.PixOffset(x0, y):]
		for x := x0; x < x1; x++ {
			copy(dst[4*x:4*x+4], lut[src[x-x0]][:])
		}
	}
}

// cmykSpans is spanReader for CMYK, converted as color.CMYKToRGB does;
// every pixel is opaque.
func cmykSpans(m *image.CMYK) func(y, x0, x1 int, dst []byte) {
	return func(y, x0, x1 int, dst []byte) {
		src := m.Pix[m.PixOffset(x0, y):]
		for x := x0; x < x1; x++ {
			s := src[4*(x-x0) : 4*(x-x0)+4 : 4*(x-x0)+4]
			d := dst[4*x : 4*x+4 : 4*x+4]
			d[0], d[1], d[2] = color.CMYKToRGB(s[0], s[1], s[2], s[3])
			d[3] = 255
		}
	}
}

// ycbcrReader converts with JFIF's full-range BT.601 matrix (as browsers
// do for JPEG and WebP), exactly as color.YCbCrToRGB does, indexing the
// chroma planes as image.YCbCr.COffset does; a is the alpha plane of an
// NYCbCrA, or nil.
func ycbcrReader(m *image.YCbCr, a []byte, aStride int) func(y, x0, x1 int, dst []byte) {
	return ycbcrSpan(m, a, aStride, 4)
}

// ycbcrSpan writes pixels x0..x1-1 of row y as n bytes each (3: RGB, 4:
// RGBA) at dst[n*x:]. The integer arithmetic is color.YCbCrToRGB's (JFIF
// coefficients ×65536, Y' scaled by 0x10101), with each chroma sample's
// terms computed once for the pixels that share it.
func ycbcrSpan(m *image.YCbCr, a []byte, aStride int, n int) func(y, x0, x1 int, dst []byte) {
	hs, vs := 0, 0 // log2 of the horizontal and vertical chroma subsampling
	switch m.SubsampleRatio {
	case image.YCbCrSubsampleRatio422:
		hs = 1
	case image.YCbCrSubsampleRatio420:
		hs, vs = 1, 1
	case image.YCbCrSubsampleRatio440:
		vs = 1
	case image.YCbCrSubsampleRatio411:
		hs = 2
	case image.YCbCrSubsampleRatio410:
		hs, vs = 2, 1
	}
	// x and y are >= 0 here, so shifts equal COffset's divisions for them.
	cx0, cy0 := m.Rect.Min.X/(1<<hs), m.Rect.Min.Y/(1<<vs)
	return func(y, x0, x1 int, dst []byte) {
		yrow := m.Y[m.YOffset(x0, y):][:x1-x0]
		ci := (y>>vs - cy0) * m.CStride
		cb, cr := m.Cb[ci:], m.Cr[ci:]
		var arow []byte
		if a != nil {
			arow = a[(y-m.Rect.Min.Y)*aStride+(x0-m.Rect.Min.X):][:x1-x0]
		}
		out := dst[n*x0 : n*x1]
		last := -1
		var rc, gc, bc int32
		// Indexing without subslices keeps the loop short for WebAssembly.
		for i, j := 0, 0; i < len(yrow) && j+n-1 < len(out); i, j = i+1, j+n {
			if c := (x0+i)>>hs - cx0; c != last {
				last = c
				cb1, cr1 := int32(cb[c])-128, int32(cr[c])-128
				rc, gc, bc = 91881*cr1, -22554*cb1-46802*cr1, 116130*cb1
			}
			yy1 := int32(yrow[i]) * 0x10101
			out[j] = clamp16(yy1 + rc)
			out[j+1] = clamp16(yy1 + gc)
			out[j+2] = clamp16(yy1 + bc)
			if n == 4 {
				out[j+3] = 255
				if arow != nil {
					out[j+3] = arow[i]
				}
			}
		}
	}
}

// clamp16 is v>>16 clamped to 0..255, as in color.YCbCrToRGB.
func clamp16(v int32) uint8 {
	if uint32(v)&0xff000000 == 0 {
		return uint8(v >> 16)
	}
	return uint8(^(v >> 31))
}
