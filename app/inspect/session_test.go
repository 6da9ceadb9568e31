package inspect

import (
	"image"
	"image/color"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestSessionOpens: a new session shows the logical view with the default
// view, the MinMax range of the picture and the default colormap, and the
// whole tensor's statistics.
func TestSessionOpens(t *testing.T) {
	for _, c := range []struct {
		name      string
		s         *Session
		view      View
		rng       Range
		colormap  string
		size      image.Point
		count     int
		renderErr string
	}{
		{"2-D float", NewSession(fixed(t, arrow.PrimitiveTypes.Float64, []int{2, 3}, nil, nil, []float64{0, 1, 2, 3, 4, 5}), 8),
			View{Y: 0, X: 1, Channel: -1, Index: []int{0, 0}}, Range{0, 5}, "viridis", image.Pt(3, 2), 6, ""},
		{"negative and positive values: coolwarm, symmetric", NewSession(fixed(t, arrow.PrimitiveTypes.Float64, []int{1, 3}, nil, nil, []float64{-1, 0, 3}), 8),
			View{Y: 0, X: 1, Channel: -1, Index: []int{0, 0}}, Range{-3, 3}, "coolwarm", image.Pt(3, 1), 3, ""},
		{"HWC image", NewSession(fixed(t, arrow.PrimitiveTypes.Uint8, []int{2, 2, 3}, nil, []string{"H", "W", "C"}, make([]uint8, 12)), 8),
			View{Y: 0, X: 1, Channel: 2, Index: []int{0, 0, 0}}, Range{0, 0}, "viridis", image.Pt(2, 2), 12, ""},
		// Physical [2,3,4] with permutation [2,0,1]: the logical view is [4,2,3].
		{"permuted: logical view", NewSession(fixed(t, arrow.PrimitiveTypes.Int32, []int{2, 3, 4}, []int{2, 0, 1}, nil, make([]int32, 24)), 8),
			View{Y: 1, X: 2, Channel: -1, Index: []int{0, 0, 0}}, Range{0, 0}, "viridis", image.Pt(3, 2), 24, ""},
		{"1-D: no picture", NewSession(fixed(t, arrow.PrimitiveTypes.Float32, []int{4}, nil, nil, []float32{1, 2, 3, 4}), 8),
			View{Y: -1, X: -1, Channel: -1, Index: []int{0}}, Range{}, "", image.Point{}, 4, "inspect: a 1-D tensor has no 2-D picture; need at least 2 dimensions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			if !viewEqual(s.View, c.view) || s.Range != c.rng || s.Colormap != c.colormap || s.Stats.Count != c.count || s.Physical || s.RangeMode != MinMax {
				t.Errorf("view %+v range %v colormap %q count %d physical %v mode %q\nwant view %+v range %v colormap %q count %d",
					s.View, s.Range, s.Colormap, s.Stats.Count, s.Physical, s.RangeMode, c.view, c.rng, c.colormap, c.count)
			}
			if c.renderErr != "" {
				if s.RenderErr == nil || s.RenderErr.Error() != c.renderErr || s.Image != nil {
					t.Errorf("render error %v, image %v; want %q and no image", s.RenderErr, s.Image != nil, c.renderErr)
				}
				return
			}
			if s.RenderErr != nil || s.Image == nil || s.Image.Bounds().Size() != c.size {
				t.Errorf("image %v, error %v; want %v", s.Image, s.RenderErr, c.size)
			}
		})
	}
}

func viewEqual(a, b View) bool {
	return a.Y == b.Y && a.X == b.X && a.Channel == b.Channel && slices.Equal(a.Index, b.Index) && a.FlipX == b.FlipX && a.FlipY == b.FlipY
}

// TestSessionCommands runs the inspector's commands one after another on a
// 3-D float tensor [2,3,5] (T,Y,X) with values 0..29 and checks the state
// and the picture after each.
func TestSessionCommands(t *testing.T) {
	vals := make([]float64, 30)
	for i := range vals {
		vals[i] = float64(i)
	}
	s := NewSession(fixed(t, arrow.PrimitiveTypes.Float64, []int{2, 3, 5}, nil, []string{"T", "Y", "X"}, vals), 8)
	// The default shows Y × X (the named dims) at T = 0: values 0..14.
	check := func(step string, view View, size image.Point, rng Range) {
		t.Helper()
		if !viewEqual(s.View, view) || s.Image == nil || s.Image.Bounds().Size() != size || s.Range != rng {
			t.Errorf("%s: view %+v, image %v, range %v; want %+v, %v, %v", step, s.View, s.Image.Bounds(), s.Range, view, size, rng)
		}
	}
	check("open", View{Y: 1, X: 2, Channel: -1, Index: []int{0, 0, 0}}, image.Pt(5, 3), Range{0, 14})
	if got := s.Sliders(); !slices.Equal(got, []int{0}) {
		t.Errorf("sliders %v, want [0]", got)
	}
	for _, bad := range [][2]int{{0, 2}, {0, -1}, {1, 1}, {0, 0}} { // out of range, not a slider, unchanged
		if s.SetIndex(bad[0], bad[1]) {
			t.Errorf("SetIndex(%d, %d) = true", bad[0], bad[1])
		}
	}
	if !s.SetIndex(0, 1) {
		t.Fatal("SetIndex(0, 1) = false")
	}
	check("T = 1", View{Y: 1, X: 2, Channel: -1, Index: []int{1, 0, 0}}, image.Pt(5, 3), Range{15, 29})
	if !s.SetAxisY(2) { // X's dimension: the two swap
		t.Fatal("SetAxisY(2) = false")
	}
	check("Y = X's dim", View{Y: 2, X: 1, Channel: -1, Index: []int{1, 0, 0}}, image.Pt(3, 5), Range{15, 29})
	s.SwapAxes()
	s.FlipRows()
	check("swap, flip rows", View{Y: 1, X: 2, Channel: -1, Index: []int{1, 0, 0}, FlipY: true}, image.Pt(5, 3), Range{15, 29})
	// Flipped rows: the top-left pixel is T=1, Y=2, X=0: value 25.
	if got := s.Image.RGBAAt(0, 0); got != colourOf(t, s, 25) {
		t.Errorf("top-left pixel %v, want the colour of 25 (%v)", got, colourOf(t, s, 25))
	}
	s.FlipRows()
	s.FlipColumns()
	if !s.View.FlipX || s.View.FlipY {
		t.Errorf("flips %+v", s.View)
	}
	s.FlipColumns()
	if s.SetAxisX(3) || s.SetAxisY(-1) {
		t.Error("an axis out of range was taken")
	}
	if !s.SetAxisX(0) { // T as columns: Y stays rows, the slider moves to X
		t.Fatal("SetAxisX(0) = false")
	}
	// Pixel (x, y) is T = x, Y = y, X = 0: value 15x + 5y.
	check("X = T", View{Y: 1, X: 0, Channel: -1, Index: []int{1, 0, 0}}, image.Pt(2, 3), Range{0, 25})
	if got := s.Sliders(); !slices.Equal(got, []int{2}) {
		t.Errorf("sliders %v, want [2]", got)
	}

	// Colormaps and ranges.
	if s.SetColormap("jet") || s.Colormap != "viridis" {
		t.Errorf("unknown colormap taken: %q", s.Colormap)
	}
	if !s.SetColormap("GREY") || s.Colormap != "gray" {
		t.Errorf("colormap %q, want gray", s.Colormap)
	}
	if s.SetRangeMode("bogus") || s.RangeMode != MinMax {
		t.Errorf("range mode %q", s.RangeMode)
	}
	if !s.SetRangeMode(Manual) || s.Manual != (Range{0, 25}) || s.Range != (Range{0, 25}) {
		t.Errorf("manual mode: manual %v range %v, want both {0 25}", s.Manual, s.Range)
	}
	if s.SetManual(Range{math.NaN(), 1}) || s.SetManual(Range{0, math.Inf(1)}) {
		t.Error("a non-finite manual bound was taken")
	}
	if !s.SetManual(Range{4, 12}) || s.Range != (Range{4, 12}) {
		t.Errorf("range %v, want {4 12}", s.Range)
	}
	if got, want := s.Image.RGBAAt(0, 1), colourOf(t, s, 5); got != want {
		t.Errorf("pixel (0,1) (value 5) = %v, want %v", got, want)
	}
	if !s.SetRangeMode(P1to99) || s.RangeMode != P1to99 {
		t.Errorf("range mode %q", s.RangeMode)
	}
	// numpy.percentile([0,5,10,15,20,25], [1, 99]) = [0.25, 24.75]
	if math.Abs(s.Range.Min-0.25) > 1e-9 || math.Abs(s.Range.Max-24.75) > 1e-9 {
		t.Errorf("p1-99 range %v, want {0.25 24.75}", s.Range)
	}
}

// colourOf is the colour the session's colormap gives value f.
func colourOf(t *testing.T, s *Session, f float64) color.RGBA {
	t.Helper()
	cm, ok := ColormapByName(s.Colormap)
	if !ok {
		t.Fatalf("colormap %q", s.Colormap)
	}
	return cm.LUT[expectIndex(f, s.Range)]
}

// TestSessionChannels: a colour image opens with its channel dimension;
// the channel can be dropped (a slider appears) and taken back; making the
// channel dimension an axis makes the picture scalar.
func TestSessionChannels(t *testing.T) {
	s := NewSession(fixed(t, arrow.PrimitiveTypes.Uint8, []int{2, 5, 3}, nil, []string{"H", "W", "C"}, make([]uint8, 30)), 8)
	if s.View.Channel != 2 || !slices.Equal(s.ChannelChoices(), []int{2}) || len(s.Sliders()) != 0 {
		t.Fatalf("channel %d, choices %v, sliders %v", s.View.Channel, s.ChannelChoices(), s.Sliders())
	}
	if s.SetChannel(0) || s.SetChannel(5) {
		t.Error("a dimension that cannot be colour channels was taken")
	}
	if !s.SetChannel(-1) || !slices.Equal(s.Sliders(), []int{2}) {
		t.Errorf("no channel: sliders %v, want [2]", s.Sliders())
	}
	if !s.SetChannel(2) || s.View.Channel != 2 {
		t.Errorf("channel %d, want 2", s.View.Channel)
	}
	if !s.SetAxisX(2) || s.View.Channel != -1 || s.View.X != 2 || s.View.Y != 0 {
		t.Errorf("X = C: view %+v, want Y 0 X 2 no channel", s.View)
	}
	if s.Image == nil || s.Image.Bounds().Size() != image.Pt(3, 2) {
		t.Errorf("image %v, want 3×2", s.Image.Bounds())
	}
}

// TestSessionPhysical: the physical layout of a permuted tensor shows the
// stored shape and dim_names, and starts from its own default view.
func TestSessionPhysical(t *testing.T) {
	// Physical [2,3,4] (A,B,C), permutation [2,0,1]: logical [4,2,3] (C,A,B).
	s := NewSession(fixed(t, arrow.PrimitiveTypes.Int16, []int{2, 3, 4}, []int{2, 0, 1}, []string{"A", "B", "C"}, make([]int16, 24)), 8)
	if got := s.Shown(); !slices.Equal(got.Shape, []int{4, 2, 3}) || !slices.Equal(got.DimNames, []string{"C", "A", "B"}) {
		t.Errorf("logical %v %v", got.Shape, got.DimNames)
	}
	s.SetIndex(0, 3)
	s.SetPhysical(true)
	if got := s.Shown(); !slices.Equal(got.Shape, []int{2, 3, 4}) || !slices.Equal(got.DimNames, []string{"A", "B", "C"}) || got.Permutation != nil {
		t.Errorf("physical %v %v %v", got.Shape, got.DimNames, got.Permutation)
	}
	if !viewEqual(s.View, View{Y: 1, X: 2, Channel: -1, Index: []int{0, 0, 0}}) || s.Image.Bounds().Size() != image.Pt(4, 3) {
		t.Errorf("physical view %+v image %v", s.View, s.Image.Bounds())
	}
	s.SetPhysical(false)
	if !slices.Equal(s.Shown().Shape, []int{4, 2, 3}) || s.View.Index[0] != 0 {
		t.Errorf("back to logical: %v, index %v", s.Shown().Shape, s.View.Index)
	}
}
