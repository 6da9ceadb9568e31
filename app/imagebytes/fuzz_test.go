package imagebytes

import (
	"errors"
	"image"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// FuzzDecode feeds any bytes to Config, Decode and DecodePreview: none may
// panic; Decode and DecodePreview succeed or fail together; a tensor has the
// shape Config declares and passes Check; a preview fits its side; and a
// preview of an image that fits is the tensor's pixels as straight RGBA.
func FuzzDecode(f *testing.F) {
	for _, s := range samples(f) {
		f.Add(s.b)
	}
	for _, b := range bombs(f) {
		f.Add(b)
	}
	lim := Limits{MaxPixels: 1 << 16, MaxBytes: 1 << 20}
	f.Fuzz(func(t *testing.T, b []byte) {
		info, cerr := Config(b)
		ten, err := Decode(b, lim)
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
