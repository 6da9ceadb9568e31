package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// ThumbPair is a mask column drawn over an image column's thumbnails.
type ThumbPair struct {
	Image, Mask           int // columns
	ImageField, MaskField string
	Reason                string // overlay.Pair.Reason
}

// Key names the pair in the address: "<image field>:<mask field>".
func (p ThumbPair) Key() string { return p.ImageField + ":" + p.MaskField }

// ThumbMask is a pair and whether its mask is drawn.
type ThumbMask struct {
	ThumbPair
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
			c.Shape, c.DimNames, c.ValueType = FieldTensor(fld.Tensor)
			if a, ok := picture.Find(c.Shape, c.DimNames, c.ValueType); ok && a.Preview {
				c.Image = true
			}
		}
	}
	return cols
}

// ThumbPairs returns the mask drawn over each image column's thumbnails:
// the pair overlay.Pairs suggests for it (the best-ranked mask named like
// one; the inspector's default by the same rule), the columns described
// by their types (fileColumns), in column order. Sizes the types do not
// give are checked row by row (withMasks).
func ThumbPairs(f *decode.File) []ThumbPair {
	cols := fileColumns(f)
	var out []ThumbPair
	for _, p := range overlay.Pairs(cols) {
		if p.Suggested {
			out = append(out, ThumbPair{Image: p.Image, Mask: p.Mask, ImageField: cols[p.Image].Name, MaskField: cols[p.Mask].Name, Reason: p.Reason})
		}
	}
	return out
}

// ThumbMasksOf returns pairs with whether each is drawn: every one when
// the address does not say (has false), else those it names in on (keys,
// "image:mask"; names of no pair are ignored).
func ThumbMasksOf(pairs []ThumbPair, has bool, on []string) []ThumbMask {
	out := make([]ThumbMask, len(pairs))
	for i, p := range pairs {
		out[i] = ThumbMask{ThumbPair: p, On: !has || slices.Contains(on, p.Key())}
	}
	return out
}

// ThumbMaskAddress returns what the address says of masks: nothing (has
// false) when every one is drawn, the default; else the keys of those
// drawn, in column order (none: every one off).
func ThumbMaskAddress(masks []ThumbMask) (has bool, on []string) {
	for _, m := range masks {
		if m.On {
			on = append(on, m.Key())
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
func Toggled(masks []ThumbMask, key string) ([]ThumbMask, bool) {
	out := slices.Clone(masks)
	for i := range out {
		if out[i].Key() == key {
			out[i].On = !out[i].On
			return out, true
		}
	}
	return out, false
}

// MasksKey says which masks are drawn, for the cells kept (cellKey).
func MasksKey(masks []ThumbMask) string {
	var b strings.Builder
	for _, m := range masks {
		if m.On {
			fmt.Fprintf(&b, "%d:%d,", m.Image, m.Mask)
		}
	}
	return b.String()
}

// FieldTensor describes a tensor column from its type: logical shape (-1
// where it varies), dim names and value type; nothing for a dialect whose
// number of dimensions only a row tells.
func FieldTensor(tf *decode.TensorField) (shape []int, names []string, vt arrow.DataType) {
	if tf.Value == nil || (tf.Shape == nil && tf.NDim < 0) {
		return nil, nil, nil
	}
	t := tensorext.Tensor{Shape: tf.Shape, DimNames: tf.DimNames, Permutation: tf.Permutation}
	if t.Shape == nil {
		t.Shape = make([]int, tf.NDim)
		for k := range t.Shape {
			t.Shape[k] = -1
		}
	}
	if t.DimNames != nil && len(t.DimNames) != len(t.Shape) {
		t.DimNames = nil
	}
	if t.Permutation != nil && len(t.Permutation) != len(t.Shape) {
		t.Permutation = nil
	}
	return t.LogicalShape(), t.LogicalDimNames(), tf.Value
}
