package ui

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/app/summary"
)

// Masks over the grid's thumbnails (issue 28 item 1: "shown in the row
// thumbnails (toggle per pair)"), in plain Go: which mask each image
// column's thumbnails show (thumbPairs), which of those are on
// (thumbMasksOf, from the address's thumbmask=; thumbMaskAddress back),
// and one row's masks blended over its thumbnails (withMasks). package
// overlay holds the rules: the pairing (overlay.Pairs), the colours and
// the blend (overlay.Layer, overlay.Over).

// thumbPair is a mask column drawn over an image column's thumbnails.
type thumbPair struct {
	Image, Mask           int // columns
	ImageField, MaskField string
	Reason                string // overlay.Pair.Reason
}

// key names the pair in the address: "<image field>:<mask field>".
func (p thumbPair) key() string { return p.ImageField + ":" + p.MaskField }

// thumbMask is a pair and whether its mask is drawn.
type thumbMask struct {
	thumbPair
	On bool
}

// fileColumns describes every column of f for the pairing rule from its
// type alone, the same for every row: a column of encoded images as an
// image of unknown size (its rows' headers tell), a tensor column by its
// logical shape (-1 where it varies), dim names and value type, as a
// picture when the table previews it as one; others by name only.
func fileColumns(f *decode.File) []overlay.Column {
	fields := f.Fields()
	cols := make([]overlay.Column, len(fields))
	for i, fld := range fields {
		c := &cols[i]
		c.Name = fld.Name
		switch {
		case fld.Images:
			c.Image, c.Encoded, c.ValueType = true, true, arrow.PrimitiveTypes.Uint8
		case fld.Tensor != nil:
			c.Shape, c.DimNames, c.ValueType = fieldTensor(fld.Tensor)
			if a, ok := picture.Find(c.Shape, c.DimNames, c.ValueType); ok && a.Preview {
				c.Image = true
			}
		}
	}
	return cols
}

// thumbPairs returns the mask drawn over each image column's thumbnails:
// the pair overlay.Pairs suggests for it (the best-ranked mask named like
// one; the inspector's default by the same rule), the columns described
// by their types (fileColumns), in column order. Sizes the types do not
// give are checked row by row (withMasks).
func thumbPairs(f *decode.File) []thumbPair {
	cols := fileColumns(f)
	var out []thumbPair
	for _, p := range overlay.Pairs(cols) {
		if p.Suggested {
			out = append(out, thumbPair{Image: p.Image, Mask: p.Mask, ImageField: cols[p.Image].Name, MaskField: cols[p.Mask].Name, Reason: p.Reason})
		}
	}
	return out
}

// thumbMasksOf returns pairs with whether each is drawn: every one when
// the address does not say (has false), else those it names in on (keys,
// "image:mask"; names of no pair are ignored).
func thumbMasksOf(pairs []thumbPair, has bool, on []string) []thumbMask {
	out := make([]thumbMask, len(pairs))
	for i, p := range pairs {
		out[i] = thumbMask{thumbPair: p, On: !has || slices.Contains(on, p.key())}
	}
	return out
}

// thumbMaskAddress returns what the address says of masks: nothing (has
// false) when every one is drawn, the default; else the keys of those
// drawn, in column order (none: every one off).
func thumbMaskAddress(masks []thumbMask) (has bool, on []string) {
	for _, m := range masks {
		if m.On {
			on = append(on, m.key())
		} else {
			has = true
		}
	}
	if !has {
		return false, nil
	}
	return true, on
}

// toggleMask returns masks with the pair named key (thumbPair.key) turned
// on or off, and whether there is one.
func toggleMask(masks []thumbMask, key string) ([]thumbMask, bool) {
	out := slices.Clone(masks)
	for i := range out {
		if out[i].key() == key {
			out[i].On = !out[i].On
			return out, true
		}
	}
	return out, false
}

// masksKey says which masks are drawn, for the cells kept (cellKey).
func masksKey(masks []thumbMask) string {
	var b strings.Builder
	for _, m := range masks {
		if m.On {
			fmt.Fprintf(&b, "%d:%d,", m.Image, m.Mask)
		}
	}
	return b.String()
}

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
func withMasks(f *decode.File, row int64, cells []summary.Cell, masks []thumbMask) {
	for _, m := range masks {
		if !m.On || m.Image >= len(cells) || cells[m.Image].Tensor == nil {
			continue
		}
		t := cells[m.Image].Tensor
		w, h, pw, ph, ok := thumbGeometry(t)
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
func thumbLayer(f *decode.File, row int64, m thumbMask, w, h, pw, ph int, s overlay.Style) (*image.RGBA, error) {
	t, src, err := maskTensor(f, row, m.Mask)
	if err != nil {
		return nil, err
	}
	if overlay.KindOf(t.ValueType()) == overlay.ClassIDs {
		// PASCAL VOC's void (255) is hidden as in the inspector.
		counts, err := overlay.CountClasses(t, s.Threshold)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.MaskField, err)
		}
		s = s.For(overlay.HasVoid(src, counts, maskNames(f, m.MaskField)))
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
