package grid

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
)

// Masks over the grid's thumbnails ("shown in the row
// thumbnails (toggle per pair)"), in plain Go: which mask each image
// column's thumbnails show (thumbPairs), which of those are on
// (thumbMasksOf, from the address's thumbmask=; thumbMaskAddress back),
// and one row's masks blended over its thumbnails (withMasks). package
// overlay holds the rules: the pairing (overlay.Pairs), the colours and
// the blend (overlay.Layer, overlay.Over).

// withMasks blends into the image cells of a row (cells, as summary.In
// gives them for row of f) the masks drawn, each read for the row and
// drawn as the inspector draws it by default (overlay.DefaultStyle:
// opacity 0.5, class 0 hidden, the VOC palette), scaled to the thumbnail
// by nearest neighbour (overlay.Layer: thumbnail pixel (x, y) shows mask
// element (y·H/h, x·W/w), the rule by which the thumbnail samples the
// image). A tensor's preview gets the mask blended in; an encoded image's
// thumbnail, which the page decodes, gets the layer to blend once drawn
// (summary.Tensor.Mask). A mask that cannot be read, is null, or is not
// the image's size in this row leaves the thumbnail as it is and says why
// (summary.Tensor.MaskNote). Only the rows drawn are read, one mask each.
func withMasks(f *decode.File, row int64, cells []summary.Cell, drawn []session.ThumbMask) {
	for _, m := range drawn {
		if !m.On || m.Image >= len(cells) || cells[m.Image].Tensor == nil {
			continue
		}
		t := cells[m.Image].Tensor
		w, h, pw, ph, ok := boxes.ThumbGeometry(t)
		if !ok {
			continue
		}
		shown := *t
		shown.MaskOf = m.MaskField
		s := overlay.DefaultStyle()
		layer, err := thumbLayer(f, row, m, w, h, pw, ph, s)
		switch {
		case err != nil:
			shown.MaskNote = err.Error()
		case t.Image != nil:
			shown.Mask, shown.MaskOpacity = layer, s.Opacity
		default:
			blended := &image.RGBA{Pix: slices.Clone(t.Preview.Pix), Stride: t.Preview.Stride, Rect: t.Preview.Rect}
			overlay.Over(blended, layer, s.Opacity)
			shown.Preview = blended
		}
		cells[m.Image].Tensor = &shown
	}
}

// thumbLayer reads pair m's mask in row and paints it at the thumbnail's
// size, pw×ph, in style s (with void 255 hidden where it is void,
// overlay.HasVoid); the image is w×h (width × height), and the mask must
// be as large.
func thumbLayer(f *decode.File, row int64, m session.ThumbMask, w, h, pw, ph int, s overlay.Style) (*image.RGBA, error) {
	t, src, err := masks.Tensor(f, row, m.Mask)
	if err != nil {
		return nil, err
	}
	if overlay.KindOf(t.ValueType()) == overlay.ClassIDs {
		// PASCAL VOC's void (255) is hidden as in the inspector.
		counts, err := overlay.CountClasses(t, s.Threshold)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.MaskField, err)
		}
		s = s.For(overlay.HasVoid(src, counts, overlay.SchemaClassNames(f.Schema.Metadata(), m.MaskField)))
	}
	l := t.Logical()
	hd, wd, err := overlay.MaskAxes(l.Shape, l.DimNames)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.MaskField, err)
	}
	if mh, mw := l.Shape[hd], l.Shape[wd]; mh != h || mw != w {
		return nil, fmt.Errorf("%s is %d×%d but %s is %d×%d (height × width)", m.MaskField, mh, mw, m.ImageField, h, w)
	}
	layer, err := overlay.Layer(t, s, pw, ph)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", m.MaskField, strings.TrimPrefix(err.Error(), "overlay: "))
	}
	return layer, nil
}
