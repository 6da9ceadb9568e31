package inspect

import (
	"image"
	"math"
	"slices"

	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// Manual is the range mode of a Session whose range is typed by hand
// (Session.SetManual); MinMax and P1to99 fit the range to the picture.
const Manual = "manual"

// RangeModes are the range modes a Session offers, in menu order, with a
// label each.
var RangeModes = []struct{ Mode, Label string }{
	{MinMax, "min to max"},
	{P1to99, "1st to 99th percentile"},
	{Manual, "typed by hand"},
}

// Session is the state of the inspector on one tensor and the commands that
// change it: which layout is shown (the logical view, or the physical one),
// the View, the colormap, the range mode and the picture they give. Every
// command redraws the picture, so the exported fields always describe what
// is on screen; a command that cannot apply (a dimension out of range, an
// unknown colormap, a non-finite bound) changes nothing and returns false.
//
// The fields are read-only for callers: change them through the methods. A
// Session is used by one goroutine (the UI's); it holds the tensor passed
// to NewSession and its picture, and copies no values.
type Session struct {
	tensor tensorext.Tensor // as read: the physical layout with its permutation

	// Physical is true when the physical layout is shown (the tensor's
	// shape, strides and dim_names as stored, permutation ignored), false
	// for the logical view (tensorext.Tensor.Logical).
	Physical bool
	// View selects the picture from Shown(); dimension numbers are in its
	// order.
	View View
	// Colormap is the name of the colormap of a scalar picture (one of
	// Colormaps); DefaultColormap's choice for the range until set.
	Colormap string
	// RangeMode is MinMax, P1to99 or Manual.
	RangeMode string
	// Manual is the range typed by hand, used in Manual mode.
	Manual Range
	// Range is the range in effect: fitted (symmetric about 0 for a
	// diverging colormap) or Manual.
	Range Range
	// Image is the picture (one pixel per element), nil when it cannot be
	// drawn; RenderErr then says why.
	Image     *image.RGBA
	RenderErr error
	// Stats summarises the whole tensor (not only the picture), with
	// histogram bins given to NewSession.
	Stats Stats
}

// NewSession opens a session on t in its logical view with the default
// view (DefaultView), the MinMax range and the default colormap, and
// computes the tensor's statistics with bins histogram bins.
func NewSession(t tensorext.Tensor, bins int) *Session {
	s := &Session{tensor: t, RangeMode: MinMax}
	s.Stats = ComputeStats(t, bins)
	s.reset()
	return s
}

// Shown is the tensor as displayed: its logical view, or with Physical its
// physical layout (permutation dropped).
func (s *Session) Shown() tensorext.Tensor {
	if s.Physical {
		t := s.tensor
		t.Permutation = nil
		return t
	}
	return s.tensor.Logical()
}

// SetPhysical shows the physical layout (true) or the logical view (false)
// and starts again from the default view of what is shown.
func (s *Session) SetPhysical(physical bool) {
	s.Physical = physical
	s.reset()
}

func (s *Session) reset() {
	s.View = DefaultView(s.Shown())
	s.Colormap = ""
	s.render()
}

// SetAxisY shows dimension k as the picture's rows. When k was the columns'
// dimension the two swap; when it was the channel dimension, the picture
// becomes scalar.
func (s *Session) SetAxisY(k int) bool { return s.setAxis(k, &s.View.Y, &s.View.X) }

// SetAxisX shows dimension k as the picture's columns, as SetAxisY does
// for rows.
func (s *Session) SetAxisX(k int) bool { return s.setAxis(k, &s.View.X, &s.View.Y) }

// setAxis makes k the dimension of axis, swapping with other when k was
// other's.
func (s *Session) setAxis(k int, axis, other *int) bool {
	if !s.axis(k) {
		return false
	}
	if k == *other {
		*other = *axis
	}
	*axis = k
	s.render()
	return true
}

// axis checks k is a dimension and frees it from the channel role.
func (s *Session) axis(k int) bool {
	if k < 0 || k >= s.Shown().NDim() {
		return false
	}
	if k == s.View.Channel {
		s.View.Channel = -1
	}
	return true
}

// SwapAxes exchanges the rows' and the columns' dimensions.
func (s *Session) SwapAxes() {
	s.View.X, s.View.Y = s.View.Y, s.View.X
	s.render()
}

// FlipRows mirrors the picture vertically (View.FlipY).
func (s *Session) FlipRows() { s.View.FlipY = !s.View.FlipY; s.render() }

// FlipColumns mirrors the picture horizontally (View.FlipX).
func (s *Session) FlipColumns() { s.View.FlipX = !s.View.FlipX; s.render() }

// ChannelChoices are the dimensions that can be shown as colour channels:
// those of size 3 or 4 other than the rows' and columns'.
func (s *Session) ChannelChoices() []int {
	t := s.Shown()
	var dims []int
	for k, n := range t.Shape {
		if picture.ColourChannels(n) && k != s.View.Y && k != s.View.X {
			dims = append(dims, k)
		}
	}
	return dims
}

// SetChannel shows dimension k (one of ChannelChoices) as colour channels,
// or with k = -1 a colormapped scalar picture.
func (s *Session) SetChannel(k int) bool {
	if k != -1 && !slices.Contains(s.ChannelChoices(), k) {
		return false
	}
	s.View.Channel = k
	s.render()
	return true
}

// Sliders are the dimensions a slider moves along: all but the rows',
// columns' and channel dimensions, in order.
func (s *Session) Sliders() []int {
	var dims []int
	for k := range s.Shown().NDim() {
		if k != s.View.Y && k != s.View.X && k != s.View.Channel {
			dims = append(dims, k)
		}
	}
	return dims
}

// SetIndex moves the slider of dimension k to position i (0 <= i <
// Shown().Shape[k]). It returns false, changing nothing, for a position out
// of range, a dimension that has no slider, or the position it already has.
func (s *Session) SetIndex(k, i int) bool {
	t := s.Shown()
	if !slices.Contains(s.Sliders(), k) || i < 0 || i >= t.Shape[k] || i == s.View.Index[k] {
		return false
	}
	s.View.Index[k] = i
	s.render()
	return true
}

// SetColormap selects a colormap by name (one of Colormaps, matched as
// ColormapByName does).
func (s *Session) SetColormap(name string) bool {
	cm, ok := ColormapByName(name)
	if !ok {
		return false
	}
	s.Colormap = cm.Name
	s.render()
	return true
}

// SetRangeMode selects MinMax, P1to99 or Manual. Switching to Manual starts
// from the range in effect.
func (s *Session) SetRangeMode(mode string) bool {
	switch mode {
	case MinMax, P1to99:
	case Manual:
		if s.RangeMode != Manual {
			s.Manual = s.Range
		}
	default:
		return false
	}
	s.RangeMode = mode
	s.render()
	return true
}

// SetManual sets the range typed by hand (used in Manual mode); both
// bounds must be finite.
func (s *Session) SetManual(r Range) bool {
	if !finite(r.Min) || !finite(r.Max) {
		return false
	}
	s.Manual = r
	s.render()
	return true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// render redraws the picture after any change of view, colormap or range.
func (s *Session) render() {
	t := s.Shown()
	s.Image, s.RenderErr = nil, nil
	if err := s.View.Validate(t); err != nil {
		s.RenderErr = err
		return
	}
	if s.RangeMode == Manual {
		s.Range = s.Manual
	} else {
		s.Range = AutoRange(t, s.View, s.RangeMode)
	}
	if s.Colormap == "" {
		s.Colormap = DefaultColormap(s.Range).Name
	}
	cm, _ := ColormapByName(s.Colormap)
	if cm.Diverging && s.RangeMode != Manual {
		s.Range = s.Range.Symmetric()
	}
	s.Image, s.RenderErr = Render(t, s.View, cm, s.Range)
	if s.RenderErr != nil {
		s.Image = nil
	}
}
