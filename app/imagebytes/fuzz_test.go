package imagebytes

import (
	"errors"
	"image"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// FuzzDecode feeds any bytes to Config, Decode and DecodePreview: none may
// panic; Decode and DecodePreview succeed or fail together; a tensor has the
// shape Config declares and passes Check; a preview fits its side; and a
// preview of an image that fits is the tensor's pixels as straight RGBA.
// MaskConfig and DecodeMask are checked against them (checkMask).
func FuzzDecode(f *testing.F) {
	for _, s := range samples(f) {
		f.Add(s.b)
	}
	for _, b := range bombs(f) {
		f.Add(b)
	}
	for _, m := range maskCases(f) {
		f.Add(m.b)
	}
	lim := Limits{MaxPixels: 1 << 16, MaxBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, b []byte) {
		info, cerr := Config(b)
		ten, err := Decode(b, lim)
		checkMask(t, b, lim, ten, err)
		const side = 16
		p, pinfo, perr := DecodePreview(b, side, lim)
		if (err == nil) != (perr == nil) {
			t.Fatalf("Decode: %v, DecodePreview: %v", err, perr)
		}
		if err != nil {
			if errors.Is(err, ErrTooLarge) && info.Pixels() <= lim.MaxPixels && len(b) <= lim.MaxBytes {
				t.Fatalf("%v for %+v", err, info)
			}
			return
		}
		if cerr != nil || pinfo != info {
			t.Fatalf("Config %+v, %v; preview's %+v", info, cerr, pinfo)
		}
		h, w, c := info.Height, info.Width, info.Channels
		if len(ten.Shape) != 3 || ten.Shape[0] != h || ten.Shape[1] != w || ten.Shape[2] != c || ten.Check() != nil {
			t.Fatalf("tensor %v for %+v: %v", ten.Shape, info, ten.Check())
		}
		pix := ten.Values.(*array.Uint8).Uint8Values()
		if len(pix) != h*w*c {
			t.Fatalf("%d values for %v", len(pix), ten.Shape)
		}
		pw, ph := FitIn(w, h, side, side)
		if p.Bounds() != image.Rect(0, 0, pw, ph) {
			t.Fatalf("preview %v of %d×%d", p.Bounds(), w, h)
		}
		if w > side || h > side {
			return
		}
		for i := range h * w {
			got, want := p.Pix[4*i:4*i+4], [4]byte{255, 255, 255, 255}
			for k := range c {
				want[k] = pix[c*i+k]
			}
			if c == 1 {
				want[1], want[2] = want[0], want[0]
			}
			if want[3] == 0 {
				want = [4]byte{}
			}
			if [4]byte(got) != want {
				t.Fatalf("preview pixel %d = %v, tensor %v", i, got, want)
			}
		}
	})
}

// checkMask: MaskConfig and DecodeMask never panic; DecodeMask fails with
// MaskConfig's error when the header is no mask, else exactly when Decode
// fails; a mask has MaskConfig's MaskInfo, Config's size, passes Check, and
// each id is what Decode shows for its pixel: the palette's colour (opaque
// black past the palette, as image/png extends it), or the grey level
// scaled to 8 bits (16-bit: the high byte).
func checkMask(t *testing.T, b []byte, lim Limits, ten tensorext.Tensor, derr error) {
	mi, cerr := MaskConfig(b)
	m, err := DecodeMask(b, lim)
	if cerr != nil {
		if err == nil || err.Error() != cerr.Error() || errors.Is(err, ErrNotMask) != errors.Is(cerr, ErrNotMask) {
			t.Fatalf("MaskConfig: %v, DecodeMask: %v", cerr, err)
		}
		return
	}
	if (err == nil) != (derr == nil) || errors.Is(err, ErrNotMask) {
		t.Fatalf("DecodeMask: %v, Decode: %v", err, derr)
	}
	if err != nil {
		return
	}
	if m.Width != mi.Width || m.Height != mi.Height || m.BitDepth != mi.BitDepth || m.Paletted != mi.Paletted ||
		!slices.Equal(m.Palette, mi.Palette) || mi.Paletted != (mi.Palette != nil) {
		t.Fatalf("DecodeMask's %+v, MaskConfig's %+v", m.MaskInfo, mi)
	}
	h, w, c := ten.Shape[0], ten.Shape[1], ten.Shape[2]
	if mi.Height != h || mi.Width != w || !slices.Equal(m.IDs.Shape, []int{h, w}) || !slices.Equal(m.IDs.Strides, []int{w, 1}) ||
		!slices.Equal(m.IDs.DimNames, MaskDimNames) || m.IDs.Check() != nil || m.IDs.Values.Len() != h*w || m.IDs.Values.NullN() != 0 ||
		!arrow.TypeEqual(m.IDs.ValueType(), mi.ValueType()) {
		t.Fatalf("mask %v %v %s for %+v: %v", m.IDs.Shape, m.IDs.DimNames, m.IDs.ValueType(), mi, m.IDs.Check())
	}
	pix := ten.Values.(*array.Uint8).Uint8Values()
	id := func(i int) int { return int(m.IDs.Values.(*array.Uint8).Value(i)) }
	if mi.BitDepth == 16 {
		id = func(i int) int { return int(m.IDs.Values.(*array.Uint16).Value(i)) }
	}
	for i := range h * w {
		v, got := id(i), pix[c*i:c*i+c]
		if mi.Paletted {
			want := [4]byte{0, 0, 0, 255}
			if v < len(mi.Palette) {
				p := mi.Palette[v]
				want = [4]byte{p.R, p.G, p.B, p.A}
			}
			if !slices.Equal(got, want[:c]) {
				t.Fatalf("pixel %d: id %d, palette colour %v, Decode %v", i, v, want[:c], got)
			}
			continue
		}
		want := v
		switch mi.BitDepth {
		case 16:
			want = v >> 8
		case 1, 2, 4:
			if v >= 1<<mi.BitDepth {
				t.Fatalf("pixel %d: id %d at %d bits", i, v, mi.BitDepth)
			}
			want = v * 255 / (1<<mi.BitDepth - 1)
		}
		if int(got[0]) != want {
			t.Fatalf("pixel %d: id %d (%d bits), Decode %v", i, v, mi.BitDepth, got)
		}
	}
}
