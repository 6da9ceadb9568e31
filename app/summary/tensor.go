package summary

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/tensorext"
)

// InlineValues is the largest tensor whose values a cell lists.
const InlineValues = 16

// Tensor summarises one tensor for its cell.
type Tensor struct {
	Shape           []int // physical
	LogicalShape    []int
	DimNames        []string // physical order; nil if unnamed
	LogicalDimNames []string
	ValueType       string
	Len             int    // elements
	Values          string // the values in logical order, for tensors of at most InlineValues elements
	Min, Max        string // empty when there is no finite numeric value
	// Preview is the tensor drawn as an image, at most the box asked for
	// (In, SummarizeIn), or nil; PreviewKind says what it shows.
	Preview     *image.RGBA
	PreviewKind raster.Kind
	// Image is set for an encoded image (PNG, JPEG, GIF, WebP bytes): the
	// shape above comes from its header, and its thumbnail (PreviewKind)
	// is drawn from Image.Bytes by the page rather than held in Preview.
	Image *Encoded
	// Boxes are detection boxes the page draws over the preview (or the
	// encoded image's thumbnail), in its pixels, in order; BoxesOf names
	// the column they come from. Package summary sets none: app/ui adds
	// them from a column of boxes in the same row.
	Boxes   []Mark
	BoxesOf string
	// MaskOf names the column of a segmentation mask drawn over the
	// preview (or the encoded image's thumbnail), and MaskNote says why it
	// is not drawn in this row ("" when it is). A tensor's Preview has the
	// mask blended in already; an encoded image's thumbnail, which the
	// page decodes, gets Mask blended over it once drawn: the mask's class
	// colours at the thumbnail's size, opaque where a class is drawn and
	// transparent elsewhere (overlay.Layer), blended at MaskOpacity
	// (overlay.Over). Package summary sets none: app/ui adds them from a
	// mask column of the same row.
	MaskOf, MaskNote string
	Mask             *image.RGBA
	MaskOpacity      float64
}

// Mark is a rectangle drawn over a preview: the ring of Rect's pixels
// (Rect.Min inclusive, Rect.Max exclusive) Width pixels wide (0 is 1), in
// Color.
type Mark struct {
	Rect  image.Rectangle
	Color color.RGBA
	Width int
}

// tensorSummary is the cell of v, a value of a tensor column: its
// summary, or null, or the error that stops it from being read with the
// value's text.
func tensorSummary(v decode.Value, maxW, maxH int) Cell {
	t, err := v.Tensor()
	if errors.Is(err, tensorext.ErrNullTensor) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	if err != nil {
		storage := v.Array
		if ext, ok := storage.(array.ExtensionArray); ok {
			storage = ext.Storage()
		}
		return Cell{Err: err.Error(), Text: truncate(valueStr(storage, v.Index))}
	}
	if err := t.Check(); err != nil {
		return Cell{Err: err.Error(), Text: truncate(valueStr(v.Array, v.Index))}
	}
	return Cell{Tensor: SummarizeIn(t, maxW, maxH)}
}

// Summarize describes a tensor view: shapes, names, value range and, when it
// looks like an image in its logical layout, a preview at most
// raster.MaxPreviewSide pixels a side.
func Summarize(t tensorext.Tensor) *Tensor {
	return SummarizeIn(t, raster.MaxPreviewSide, raster.MaxPreviewSide)
}

// SummarizeIn is Summarize with a preview of at most maxW×maxH pixels (at
// most raster.MaxPreviewSide on each side).
func SummarizeIn(t tensorext.Tensor, maxW, maxH int) *Tensor {
	tc := &Tensor{
		Shape:           t.Shape,
		LogicalShape:    t.LogicalShape(),
		DimNames:        t.DimNames,
		LogicalDimNames: t.LogicalDimNames(),
		ValueType:       t.ValueType().String(),
		Len:             t.Len(),
	}
	if lo, hi, ok := raster.Range(t); ok {
		tc.Min, tc.Max = formatNumber(lo, t.ValueType()), formatNumber(hi, t.ValueType())
	}
	logical := t.Logical()
	if tc.Len <= InlineValues {
		tc.Values = logical.String()
	}
	if l, ok := raster.FindPicture(logical.Shape, logical.DimNames, t.ValueType()); ok {
		tc.Preview = raster.PreviewIn(logical, l, maxW, maxH)
		tc.PreviewKind = l.Kind
	} else if tc.Len > InlineValues && logical.NDim() == 1 {
		// An embedding too long to list: a strip of its values.
		if tc.Preview = raster.StripPreview(logical); tc.Preview != nil {
			tc.PreviewKind = raster.Strip
		}
	}
	return tc
}

// formatNumber formats a tensor's minimum or maximum for the table: exact
// integers for integer and boolean types, else 6 significant digits of the
// value as float32 (float16, float32, and types implementing
// tensorext.FloatType that float32 holds, such as Lance's bfloat16) or
// float64.
func formatNumber(v float64, dt arrow.DataType) string {
	dt = tensorext.StandardType(dt)
	if arrow.IsInteger(dt.ID()) || dt.ID() == arrow.BOOL {
		if math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	bits := 64
	if dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT16 {
		bits = 32
	}
	return strconv.FormatFloat(v, 'g', 6, bits)
}

// ValuesText lists a tensor's values in its view order, nested like
// Tensor.String for tensors of up to 10000 elements, else flat, cut after
// about max characters.
func ValuesText(t tensorext.Tensor, max int) string {
	if t.Len() <= 10000 {
		return Truncate(t.String(), max)
	}
	var b strings.Builder
	b.WriteString(fmt.Sprintf("%d values, first ones in order: ", t.Len()))
	t.Positions(func(pos int) bool {
		b.WriteString(t.ValueStr(pos))
		b.WriteByte(' ')
		return b.Len() < max
	})
	b.WriteString("…")
	return b.String()
}
