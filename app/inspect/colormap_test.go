package inspect

import (
	"fmt"
	"image/color"
	"testing"
)

func hexOf(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Published values: matplotlib.colors.to_hex(cmap(x)) for the first, middle
// (x = 0.5, entry 128) and last entries; coolwarm against Moreland's table.
func TestColormapKnownValues(t *testing.T) {
	for _, c := range []struct {
		name             string
		first, mid, last string
	}{
		{"viridis", "#440154", "#21918c", "#fde725"},
		{"magma", "#000004", "#b73779", "#fcfdbf"},
		{"inferno", "#000004", "#bc3754", "#fcffa4"},
		{"plasma", "#0d0887", "#cc4778", "#f0f921"},
		{"turbo", "#30123b", "#a4fc3c", "#7a0403"},
		{"gray", "#000000", "#808080", "#ffffff"},
		{"coolwarm", "#3b4cc0", "#dddcdc", "#b40426"},
	} {
		cm, ok := ColormapByName(c.name)
		if !ok {
			t.Fatalf("no colormap %q", c.name)
		}
		if got := hexOf(cm.LUT[0]); got != c.first {
			t.Errorf("%s(0) = %s, want %s", c.name, got, c.first)
		}
		if got := hexOf(cm.LUT[255]); got != c.last {
			t.Errorf("%s(1) = %s, want %s", c.name, got, c.last)
		}
		if got := hexOf(cm.At(0.5)); got != c.mid && c.name != "coolwarm" {
			t.Errorf("%s(0.5) = %s, want %s", c.name, got, c.mid)
		}
		for i, e := range cm.LUT {
			if e.A != 255 {
				t.Errorf("%s entry %d not opaque", c.name, i)
			}
		}
		if cm.NaN != NaNColor || cm.PosInf != PosInfColor || cm.NegInf != NegInfColor || cm.Null != NullColor {
			t.Errorf("%s special colours", c.name)
		}
	}
	// coolwarm is computed (Moreland's Msh interpolation): compare with his
	// published table (CoolWarmFloat33) to within 2/255.
	cw, _ := ColormapByName("coolwarm")
	near := func(a, b uint8) bool { return int(a)-int(b) <= 2 && int(b)-int(a) <= 2 }
	for _, c := range []struct {
		f       float64
		r, g, b uint8
	}{
		{0.25, 141, 176, 254}, // 0.5530, 0.6889, 0.9954
		{0.5, 221, 221, 221},  // 0.8654, 0.8654, 0.8654
		{0.75, 244, 154, 123}, // 0.9577, 0.6035, 0.4838
	} {
		got := cw.LUT[int(c.f*255+0.5)]
		if !near(got.R, c.r) || !near(got.G, c.g) || !near(got.B, c.b) {
			t.Errorf("coolwarm(%g) = %v, want about (%d, %d, %d)", c.f, got, c.r, c.g, c.b)
		}
	}
	if !cw.Diverging {
		t.Error("coolwarm not marked diverging")
	}
}

func TestColormapByName(t *testing.T) {
	for _, n := range []string{"gray", "Grey", " VIRIDIS ", "magma", "inferno", "turbo", "coolwarm", "plasma"} {
		if _, ok := ColormapByName(n); !ok {
			t.Errorf("%q not found", n)
		}
	}
	if _, ok := ColormapByName("jet"); ok {
		t.Error("jet found")
	}
	if len(Colormaps) != 7 {
		t.Errorf("%d colormaps", len(Colormaps))
	}
	if DefaultColormap(Range{-1, 2}).Name != "coolwarm" || DefaultColormap(Range{0, 2}).Name != "viridis" {
		t.Error("DefaultColormap")
	}
	if (Range{-1, 3}).Symmetric() != (Range{-3, 3}) {
		t.Error("Symmetric")
	}
}

func TestColormapAt(t *testing.T) {
	cm, _ := ColormapByName("viridis")
	for _, c := range []struct {
		f float64
		i int
	}{{-1, 0}, {0, 0}, {1.0 / 256, 1}, {0.5, 128}, {255.0 / 256, 255}, {1, 255}, {7, 255}} {
		if got := cm.At(c.f); got != cm.LUT[c.i] {
			t.Errorf("At(%g) = %v, want entry %d", c.f, got, c.i)
		}
	}
}
