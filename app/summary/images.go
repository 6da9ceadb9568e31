package summary

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/app/raster"
)

// Encoded is an image held as encoded bytes in a cell (PNG, JPEG, GIF or
// WebP, told by their magic numbers): what its header says, its bytes and
// the size of the thumbnail the table draws of it. The viewer decodes
// thumbnails with the browser's decoders (off the page's thread) and the
// full tensor, for the inspector, with package imagebytes.
type Encoded struct {
	Info  imagebytes.Info
	Bytes []byte // shares the record batch's buffer: read-only
	// PreviewW, PreviewH are the thumbnail's size in pixels: the image's
	// own, or scaled to at most raster.MaxPreviewSide a side (raster.Fit).
	PreviewW, PreviewH int
}

// encodedCell is the cell of v, a value of an image column, when its
// bytes are an encoded image (ok false otherwise: the cell shows its value
// as text).
func encodedCell(v decode.Value) (c Cell, ok bool) {
	b, info, err := v.Encoded()
	switch {
	case err != nil:
		return Cell{Err: err.Error()}, true
	case b == nil:
		return Cell{}, false
	}
	w, h := raster.Fit(info.Width, info.Height)
	return Cell{Tensor: imageCell(&Encoded{Info: info, Bytes: b, PreviewW: w, PreviewH: h})}, true
}

// imageCell summarises the encoded image e: its tensor's shape (height ×
// width × channels, uint8) from the header, and what the thumbnail needs.
func imageCell(e *Encoded) *Tensor {
	shape := []int{e.Info.Height, e.Info.Width, e.Info.Channels}
	kind := raster.RGB
	switch e.Info.Channels {
	case 1:
		kind = raster.Gray
	case 4:
		kind = raster.RGBA
	}
	return &Tensor{
		Shape: shape, LogicalShape: shape, DimNames: imagebytes.DimNames, LogicalDimNames: imagebytes.DimNames,
		ValueType: arrow.PrimitiveTypes.Uint8.String(), Len: e.Info.Height * e.Info.Width * e.Info.Channels,
		PreviewKind: kind, Image: e,
	}
}
