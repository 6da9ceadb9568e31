//go:build !wasm

package grid

import "testing"

// TestRowKind: a file without previews shows text rows; with previews,
// the preview size chosen, medium until a valid one is.
func TestRowKind(t *testing.T) {
	for _, c := range []struct {
		preview  rowKind
		previews bool
		want     rowKind
		rowH     int
	}{
		{"", false, kindText, 36},
		{kindLarge, false, kindText, 36},
		{"", true, kindMedium, 84},
		{kindSmall, true, kindSmall, 52},
		{kindLarge, true, kindLarge, 164},
		{kindText, true, kindMedium, 84}, // text is not a preview size
		{"huge", true, kindMedium, 84},   // a value remembered by another build
	} {
		g := tableGeometry{preview: c.preview}
		if got := g.kind(c.previews); got != c.want || g.rowH(c.previews) != c.rowH {
			t.Errorf("%q, previews %v: %q of %d px, want %q of %d px", c.preview, c.previews, got, g.rowH(c.previews), c.want, c.rowH)
		}
	}
	for _, k := range previewSizes {
		if !k.isPreviewSize() {
			t.Errorf("%q is offered but not a preview size", k)
		}
	}
}

// TestMeasured: the table's height is the default until the container is
// measured; a measure that changes nothing, or of a container not laid out,
// says so.
func TestMeasured(t *testing.T) {
	var g tableGeometry
	if g.height() != viewHeight {
		t.Errorf("unmeasured height %d, want %d", g.height(), viewHeight)
	}
	for _, c := range []struct {
		h, w    int
		changed bool
		height  int
	}{
		{0, 800, false, viewHeight}, // not laid out
		{400, 800, true, 400},
		{400, 800, false, 400},
		{400, 600, true, 400}, // narrower
		{-1, 600, false, 400},
	} {
		if got := g.measured(c.h, c.w); got != c.changed || g.height() != c.height {
			t.Errorf("measured %d×%d: changed %v, height %d; want %v, %d", c.h, c.w, got, g.height(), c.changed, c.height)
		}
	}
	if g.viewW != 600 {
		t.Errorf("width %d, want 600", g.viewW)
	}
}

// TestPreviewBox: previews are drawn at their displayed size in device
// pixels; text rows and an unknown pixel ratio set no limit.
func TestPreviewBox(t *testing.T) {
	for _, c := range []struct {
		kind rowKind
		dpr  float64
		want [2]int
	}{
		{kindSmall, 1, [2]int{54, 38}},
		{kindMedium, 2, [2]int{188, 136}},
		{kindLarge, 1.5, [2]int{297, 222}},
		{kindMedium, 1.25, [2]int{118, 85}}, // rounded up
		{kindText, 2, [2]int{}},
		{kindSmall, 0, [2]int{}},
	} {
		if got := PreviewBox(c.kind, c.dpr); got != c.want {
			t.Errorf("%q at %v: %v, want %v", c.kind, c.dpr, got, c.want)
		}
	}
	g := tableGeometry{dpr: 2, preview: kindSmall}
	if g.box(true) != [2]int{108, 76} || g.box(false) != [2]int{} {
		t.Errorf("small previews at 2×: %v, text: %v", g.box(true), g.box(false))
	}
}
