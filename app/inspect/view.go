package inspect

import (
	"fmt"

	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// View selects a 2-D picture from an n-D tensor. Its dimension numbers are
// dimensions of the tensor it is used with, in that tensor's own order
// (usually the logical view, tensorext.Tensor.Logical); the tensor's
// Permutation field is not consulted.
//
// Image pixel (x, y) shows the element whose index is Index with entry X set
// to x (W-1-x when FlipX, W being the size of X) and entry Y set to y (H-1-y
// when FlipY); with a Channel, the pixel's colour channels are the elements
// along Channel.
type View struct {
	// Y and X are the dimensions shown as image rows (top to bottom) and
	// columns (left to right); they must differ.
	Y, X int
	// Channel is the dimension shown as colour channels (size 3 for RGB, 4
	// for RGBA), or -1 for a colormapped scalar picture. Beware that the
	// zero value, 0, names dimension 0: set -1 explicitly.
	Channel int
	// Index is the position along every dimension (NDim entries; nil means
	// all zeros). The entries for Y, X and Channel are ignored.
	Index []int
	// FlipY and FlipX mirror the picture vertically and horizontally.
	FlipY, FlipX bool
}

// DefaultView returns the view an inspector opens a tensor with (dimension
// numbers in t's own order, Index all zeros, no flips): the picture that
// package picture finds (picture.Find, the rule the table's previews follow
// too), with its channel dimension as colour channels when it has 3 or 4;
// a channel dimension of size 1 gets a slider. A tensor with fewer than 2
// dimensions has no picture: Y and X are then -1 and Validate reports why;
// a tensor whose values are not numeric is shown as its last two
// dimensions.
func DefaultView(t tensorext.Tensor) View {
	n := t.NDim()
	v := View{Y: -1, X: -1, Channel: -1, Index: make([]int, n)}
	if n < 2 {
		return v
	}
	l, ok := picture.Find(t.Shape, t.DimNames, t.ValueType())
	if !ok {
		v.Y, v.X = n-2, n-1
		return v
	}
	v.Y, v.X = l.H, l.W
	if l.Colour(t.Shape) {
		v.Channel = l.Channel
	}
	return v
}

// Validate reports why v cannot be used with t, or nil: t must have at least
// 2 dimensions and consistent Shape and Strides; Y and X must be distinct
// dimensions of t; Channel must be -1 or another dimension of size 3 or 4;
// Index must be nil or have NDim entries, each other than those of Y, X and
// Channel within [0, size) of its dimension. The value type is not checked
// here (Render does).
func (v View) Validate(t tensorext.Tensor) error {
	n := t.NDim()
	if n < 2 {
		return fmt.Errorf("inspect: a %d-D tensor has no 2-D picture; need at least 2 dimensions", n)
	}
	if len(t.Strides) != n {
		return fmt.Errorf("inspect: tensor has %d strides for %d dimensions", len(t.Strides), n)
	}
	if t.Values == nil {
		return fmt.Errorf("inspect: tensor has no values")
	}
	dim := func(role string, d int) error {
		if d < 0 || d >= n {
			return fmt.Errorf("inspect: %s dimension %d out of range [0, %d)", role, d, n)
		}
		return nil
	}
	if err := dim("Y", v.Y); err != nil {
		return err
	}
	if err := dim("X", v.X); err != nil {
		return err
	}
	if v.Y == v.X {
		return fmt.Errorf("inspect: Y and X are both dimension %d%s", v.Y, dimLabel(t, v.Y))
	}
	if v.Channel != -1 {
		if err := dim("Channel", v.Channel); err != nil {
			return fmt.Errorf("%w (or -1 for none)", err)
		}
		if v.Channel == v.Y || v.Channel == v.X {
			return fmt.Errorf("inspect: Channel dimension %d%s is also Y or X", v.Channel, dimLabel(t, v.Channel))
		}
		if s := t.Shape[v.Channel]; !picture.ColourChannels(s) {
			return fmt.Errorf("inspect: Channel dimension %d%s has size %d; colour channels need 3 (RGB) or 4 (RGBA)", v.Channel, dimLabel(t, v.Channel), s)
		}
	}
	if v.Index != nil && len(v.Index) != n {
		return fmt.Errorf("inspect: index has %d entries for a %d-D tensor", len(v.Index), n)
	}
	for d := 0; d < n; d++ {
		if t.Shape[d] < 0 {
			return fmt.Errorf("inspect: dimension %d%s has negative size %d", d, dimLabel(t, d), t.Shape[d])
		}
		if d == v.Y || d == v.X || d == v.Channel {
			continue
		}
		i := 0
		if v.Index != nil {
			i = v.Index[d]
		}
		if i < 0 || i >= t.Shape[d] {
			return fmt.Errorf("inspect: index %d out of range [0, %d) for dimension %d%s", i, t.Shape[d], d, dimLabel(t, d))
		}
	}
	return nil
}

// DimLabel names dimension k of t as the inspector's controls show it:
// "2: C (3)" (index, dim_name when there is one, size).
func DimLabel(t tensorext.Tensor, k int) string {
	name := ""
	if k < len(t.DimNames) && t.DimNames[k] != "" {
		name = " " + t.DimNames[k]
	}
	return fmt.Sprintf("%d:%s (%d)", k, name, t.Shape[k])
}

// dimLabel returns ` ("name")` for a named dimension, else "".
func dimLabel(t tensorext.Tensor, d int) string {
	if len(t.DimNames) == t.NDim() && d >= 0 && d < len(t.DimNames) && t.DimNames[d] != "" {
		return fmt.Sprintf(" (%q)", t.DimNames[d])
	}
	return ""
}

// geometry is where a valid view's pixels are in t.Values: pixel (x, y) of a
// w×h picture is the element at base + y*sy + x*sx, channel c at + c*sc.
type geometry struct {
	w, h, channels int
	base           int
	sx, sy, sc     int
}

// geom computes the geometry of a valid view (flips applied).
func (v View) geom(t tensorext.Tensor) geometry {
	g := geometry{w: t.Shape[v.X], h: t.Shape[v.Y], channels: 1, sx: t.Strides[v.X], sy: t.Strides[v.Y]}
	g.base = t.Offset
	for d := range t.Shape {
		if d == v.Y || d == v.X || d == v.Channel || v.Index == nil {
			continue
		}
		g.base += v.Index[d] * t.Strides[d]
	}
	if v.Channel >= 0 {
		g.channels, g.sc = t.Shape[v.Channel], t.Strides[v.Channel]
	}
	if g.w == 0 || g.h == 0 {
		// An empty tensor: an empty picture, whatever the other side's
		// size (a [1e9, 0] tensor must not loop a billion times).
		g.w, g.h = 0, 0
	}
	if v.FlipX && g.w > 0 {
		g.base += (g.w - 1) * g.sx
		g.sx = -g.sx
	}
	if v.FlipY && g.h > 0 {
		g.base += (g.h - 1) * g.sy
		g.sy = -g.sy
	}
	return g
}

// index returns the tensor index of image pixel (x, y), which must be inside
// the picture; the Channel entry is -1.
func (v View) index(t tensorext.Tensor, x, y int) []int {
	idx := make([]int, t.NDim())
	if v.Index != nil {
		copy(idx, v.Index)
	}
	if v.FlipX {
		x = t.Shape[v.X] - 1 - x
	}
	if v.FlipY {
		y = t.Shape[v.Y] - 1 - y
	}
	idx[v.X], idx[v.Y] = x, y
	if v.Channel >= 0 {
		idx[v.Channel] = -1
	}
	return idx
}
