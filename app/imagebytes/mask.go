package imagebytes

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// MaskDimNames are the dimension names of the class-id tensors DecodeMask
// returns: rows, then columns. Package overlay's MaskAxes (through package
// picture's RowNames and ColumnNames) reads them as height and width.
var MaskDimNames = []string{"height", "width"}

// ErrNotMask is wrapped by the errors MaskConfig and DecodeMask return for
// images whose pixels are not read as class ids: truecolour PNGs, grey PNGs
// with an alpha channel, lossy formats, GIF and WebP. Their text names the
// reason, for example "PNG is RGB: it holds colours, not class ids (a
// class-id mask is a palette or grey PNG)".
var ErrNotMask = errors.New("not a class-id mask")

type notMaskError struct{ msg string }

func (e *notMaskError) Error() string { return e.msg }
func (e *notMaskError) Unwrap() error { return ErrNotMask }

// MaskInfo describes a class-id mask from its PNG header.
//
// Source: the PNG Specification, Second Edition (W3C Recommendation 2003,
// ISO/IEC 15948:2004): §11.2.2 IHDR (colour type 0 is greyscale, 3
// indexed-colour; bit depths 1, 2, 4, 8 and 16 for greyscale, up to 8 for
// indexed-colour), §11.2.3 PLTE (1 to 256 entries of red, green and blue,
// one byte each), §11.3.2.1 tRNS (an alpha byte per leading palette entry;
// for greyscale, one grey level that is transparent) and §7.1 (16-bit
// samples are stored most significant byte first).
type MaskInfo struct {
	Width, Height int
	// BitDepth is the header's bits per sample or palette index: 1, 2, 4,
	// 8 or 16 (16 for grey only).
	BitDepth int
	// Paletted reports an indexed-colour PNG (colour type 3, PIL's "P"
	// mode, PASCAL VOC's masks): the class ids are the palette indices.
	// Otherwise the PNG is greyscale (colour type 0, with or without a
	// tRNS level) and the ids are the grey samples.
	Paletted bool
	// Palette is, for a paletted PNG, the colour of each index as straight
	// RGBA, as image/png reads it: PLTE's entries in order, each with the
	// alpha tRNS gives it (255 where tRNS gives none); a legend
	// can show the file's own colours with it. Nil for grey. Pixels may hold
	// indices at or past len(Palette): the spec calls them an error, but
	// image/png (like libpng) decodes them, and DecodeMask keeps them as
	// ids.
	Palette []color.NRGBA
}

// ValueType returns the Arrow type of the ids DecodeMask returns: uint16
// for 16-bit grey, else uint8.
func (m MaskInfo) ValueType() arrow.DataType {
	if m.BitDepth == 16 {
		return arrow.PrimitiveTypes.Uint16
	}
	return arrow.PrimitiveTypes.Uint8
}

// Mask is an encoded image decoded as class ids (DecodeMask).
type Mask struct {
	MaskInfo
	// IDs is the Height×Width tensor of class ids, row-major, with
	// MaskDimNames, over one *array.Uint8 (palette indices, grey of 1 to 8
	// bits) or *array.Uint16 (16-bit grey) without nulls.
	IDs tensorext.Tensor
}

// MaskConfig reads whether the encoded image b holds class ids, and their
// size and type, from its header alone (as Config does; the palette is the
// most it allocates). Only PNGs do: indexed-colour (the ids are palette
// indices) and greyscale (the ids are the stored samples), at any bit depth.
// It returns ErrUnknownFormat for bytes Sniff does not recognise, the
// decoder's error for a broken header, and an error wrapping ErrNotMask,
// whose text says why, for a truecolour PNG (with or without alpha), a grey
// PNG with an alpha channel, a JPEG or lossy WebP (lossy: their values only
// approximate what was encoded), a GIF or a lossless WebP. It never panics.
func MaskConfig(b []byte) (MaskInfo, error) {
	mi, _, err := maskConfig(b)
	return mi, err
}

func maskConfig(b []byte) (MaskInfo, Info, error) {
	info, cm, err := config(b)
	if err != nil {
		return MaskInfo{}, info, err
	}
	notMask := func(format string, a ...any) (MaskInfo, Info, error) {
		return MaskInfo{}, info, &notMaskError{fmt.Sprintf(format, a...) + " (a class-id mask is a palette or grey PNG)"}
	}
	switch {
	case info.Format == JPEG:
		return notMask("JPEG is lossy: its pixel values are approximations, not exact class ids")
	case info.Format == WebP && !info.Lossless:
		return notMask("this WebP is lossy: its pixel values are approximations, not exact class ids")
	case info.Format == WebP:
		return notMask("WebP holds colours, not class ids")
	case info.Format != PNG:
		return notMask("%s is not read as class ids", info.Format)
	}
	// Config succeeded, so IHDR is complete at offset 8 and its colour
	// type and bit depth are a valid pair.
	colorType, depth := b[25], int(b[24])
	mi := MaskInfo{Width: info.Width, Height: info.Height, BitDepth: depth}
	switch colorType {
	case 0:
		return mi, info, nil
	case 2:
		return notMask("PNG is RGB: it holds colours, not class ids")
	case 3:
		p, ok := cm.(color.Palette)
		if !ok {
			return MaskInfo{}, info, fmt.Errorf("PNG: no palette in an indexed-colour header")
		}
		mi.Paletted = true
		mi.Palette = make([]color.NRGBA, len(p))
		for i, c := range p {
			mi.Palette[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		return mi, info, nil
	case 4:
		return notMask("PNG is grey with alpha: a mask has one sample a pixel, no alpha channel")
	}
	return notMask("PNG is RGBA: it holds colours, not class ids")
}

// DecodeMask decodes the encoded image b as a mask of class ids: the values
// stored in the file, not the colours they stand for.
//   - A paletted PNG gives its palette indices, uint8, and Palette their
//     colours (1, 2 and 4-bit indices unpacked to one byte each).
//   - A grey PNG gives its samples as stored: uint8 for 1 to 8 bits (a
//     1-bit mask is 0 and 1, not the 0 and 255 Decode shows; image/png's
//     scaling to 8 bits is undone exactly), uint16 for 16 bits (exact, not
//     reduced to the high byte as Decode does). A tRNS grey level changes
//     nothing: its pixels keep their id.
//
// The tensor, Mask.IDs, has shape [Height, Width], strides [Width, 1] and
// MaskDimNames, so package overlay reads it as ClassIDs (KindOf) with
// MaskAxes 0 and 1. It holds the decoder's own pixels where their layout
// allows (palette indices, 8-bit grey, 16-bit grey converted in place), so
// a mask costs the decoder's picture alone: 1 byte a pixel, 2 for 16-bit
// grey (4 and 8 for grey with tRNS, which image/png decodes as RGBA, plus
// the tensor).
//
// Errors: those of MaskConfig, checked from the header before anything
// is decoded (an error wrapping ErrNotMask for images that hold colours or
// are lossy); then, as for Decode, images past lim (zero fields are the
// DefaultLimits) are refused from their header with an error wrapping
// ErrTooLarge that names the declared size, and broken or truncated data
// gives the decoder's error ("PNG: …"). It never panics.
func DecodeMask(b []byte, lim Limits) (Mask, error) {
	mi, info, err := maskConfig(b)
	if err != nil {
		return Mask{}, err
	}
	img, info, err := decodeChecked(b, info, lim)
	if err != nil {
		return Mask{}, err
	}
	w, h := info.Width, info.Height
	vals, err := maskValues(img, mi, w, h)
	if err != nil {
		return Mask{}, fmt.Errorf("PNG: %w", err)
	}
	return Mask{MaskInfo: mi, IDs: tensorext.Tensor{
		Values:   vals,
		Shape:    []int{h, w},
		Strides:  []int{w, 1},
		DimNames: append([]string(nil), MaskDimNames...),
	}}, nil
}

// maskValues returns the ids of the decoded w×h picture img, whose header
// is mi, as one array.
func maskValues(img image.Image, mi MaskInfo, w, h int) (arrow.Array, error) {
	// image/png scales 1, 2 and 4-bit grey to 8 bits by multiplying by
	// 255, 85 and 17 (the PNG spec's left bit replication); dividing undoes
	// it exactly.
	scale := map[int]byte{1: 0xff, 2: 0x55, 4: 0x11}[mi.BitDepth]
	var pix []byte
	switch m := img.(type) {
	case *image.Paletted:
		if mi.Paletted {
			pix = rows(m.Pix, m.Stride, w, h)
		}
	case *image.Gray:
		if !mi.Paletted && mi.BitDepth <= 8 {
			pix = rows(m.Pix, m.Stride, w, h)
			if scale != 0 {
				for i, v := range pix {
					pix[i] = v / scale
				}
			}
		}
	case *image.Gray16:
		if !mi.Paletted && mi.BitDepth == 16 {
			pix = rows(m.Pix, m.Stride, 2*w, h)
			for i := 0; i+1 < len(pix); i += 2 {
				binary.NativeEndian.PutUint16(pix[i:], binary.BigEndian.Uint16(pix[i:]))
			}
		}
	case *image.NRGBA: // grey of 1 to 8 bits with a tRNS level: R = G = B
		if !mi.Paletted && mi.BitDepth <= 8 {
			pix = make([]byte, w*h)
			for y := range h {
				src := m.Pix[y*m.Stride:][:4*w]
				for x := range w {
					pix[y*w+x] = src[4*x]
					if scale != 0 {
						pix[y*w+x] /= scale
					}
				}
			}
		}
	case *image.NRGBA64: // 16-bit grey with a tRNS level
		if !mi.Paletted && mi.BitDepth == 16 {
			pix = make([]byte, 2*w*h)
			for y := range h {
				src := m.Pix[y*m.Stride:][:8*w]
				for x := range w {
					binary.NativeEndian.PutUint16(pix[2*(y*w+x):], binary.BigEndian.Uint16(src[8*x:]))
				}
			}
		}
	}
	if pix == nil {
		return nil, fmt.Errorf("decoded a %T for a %d-bit %s header", img, mi.BitDepth, map[bool]string{true: "paletted", false: "grey"}[mi.Paletted])
	}
	dt, n := mi.ValueType(), w*h
	data := array.NewData(dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(pix)}, nil, 0, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

// rows returns the h rows of rowBytes bytes that start every stride bytes
// of pix as one slice: pix itself when they are contiguous, else a copy.
func rows(pix []byte, stride, rowBytes, h int) []byte {
	if stride == rowBytes {
		return pix[:rowBytes*h]
	}
	out := make([]byte, rowBytes*h)
	for y := range h {
		copy(out[y*rowBytes:(y+1)*rowBytes], pix[y*stride:])
	}
	return out
}
