package imagebytes

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeGIF(t testing.TB, g *gif.GIF) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t testing.TB, m image.Image, q int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pixels returns the tensor's values, checking its shape, names, strides
// and that it is one contiguous *array.Uint8.
func pixels(t *testing.T, ten tensorext.Tensor, h, w, c int) []byte {
	t.Helper()
	if !slices.Equal(ten.Shape, []int{h, w, c}) || !slices.Equal(ten.Strides, []int{w * c, c, 1}) ||
		!slices.Equal(ten.DimNames, []string{"height", "width", "channel"}) || ten.Offset != 0 || ten.Permutation != nil {
		t.Fatalf("tensor shape %v strides %v names %v offset %d perm %v, want [%d %d %d] row-major height,width,channel",
			ten.Shape, ten.Strides, ten.DimNames, ten.Offset, ten.Permutation, h, w, c)
	}
	if err := ten.Check(); err != nil {
		t.Fatal(err)
	}
	v, ok := ten.Values.(*array.Uint8)
	if !ok || v.Len() != h*w*c || v.NullN() != 0 {
		t.Fatalf("values %T len %d, want *array.Uint8 of %d", ten.Values, ten.Values.Len(), h*w*c)
	}
	return v.Uint8Values()
}

// gray16 is a 3×2 16-bit gray image; its high bytes are 0x12 0x34 0x56 / 0x78 0x9a 0xff.
func gray16() *image.Gray16 {
	m := image.NewGray16(image.Rect(0, 0, 3, 2))
	for i, v := range []uint16{0x1200, 0x34ff, 0x5680, 0x7801, 0x9a9a, 0xffff} {
		m.SetGray16(i%3, i/3, color.Gray16{Y: v})
	}
	return m
}

// withChunk inserts a chunk (type and data, CRC computed) into a PNG right
// after IHDR.
func withChunk(b []byte, typ string, data []byte) []byte {
	const ihdrEnd = 8 + 8 + 13 + 4
	return slices.Concat(b[:ihdrEnd], pngChunk(typ, data), b[ihdrEnd:])
}

func TestSniff(t *testing.T) {
	png1 := encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	for _, tc := range []struct {
		b    []byte
		want Format
	}{
		{png1, PNG},
		{[]byte("\x89PNG\r\n\x1a\n"), PNG},
		{[]byte("\x89PNG\r\n\x1a"), None}, // truncated signature
		{[]byte{0xff, 0xd8, 0xff, 0xe0}, JPEG},
		{[]byte{0xff, 0xd8}, None},
		{[]byte("GIF89a...."), GIF},
		{[]byte("GIF87a"), GIF},
		{[]byte("GIF88a"), None},
		{[]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), WebP},
		{[]byte("RIFF\x00\x00\x00\x00WAVEfmt "), None},
		{[]byte("RIFF\x00\x00\x00\x00WEB"), None},
		{[]byte("image.png"), None},
		{nil, None},
		{readTestdata(t, "video-001.lossy.webp"), WebP},
	} {
		if got := Sniff(tc.b); got != tc.want {
			t.Errorf("Sniff(%q) = %q, want %q", tc.b[:min(len(tc.b), 16)], got, tc.want)
		}
	}
}

// samples holds one encoded image per header rule, with its Info.
func samples(t testing.TB) []struct {
	name string
	b    []byte
	info Info
} {
	gray := image.NewGray(image.Rect(0, 0, 4, 3))
	rgb := image.NewRGBA(image.Rect(0, 0, 5, 2))
	for i := range rgb.Pix {
		rgb.Pix[i] = 255
	}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	nrgba.Pix[3] = 10
	opaquePal := image.NewPaletted(image.Rect(0, 0, 3, 3), color.Palette{color.RGBA{1, 2, 3, 255}, color.RGBA{4, 5, 6, 255}})
	alphaPal := image.NewPaletted(image.Rect(0, 0, 3, 3), color.Palette{color.NRGBA{1, 2, 3, 255}, color.NRGBA{4, 5, 6, 128}})
	nrgba64 := image.NewNRGBA64(image.Rect(0, 0, 2, 1))
	nrgba64.SetNRGBA64(0, 0, color.NRGBA64{1 << 8, 2 << 8, 3 << 8, 4 << 8})
	grayPNG := encodePNG(t, gray)
	rgbPNG := encodePNG(t, rgb)
	colour := image.NewYCbCr(image.Rect(0, 0, 16, 8), image.YCbCrSubsampleRatio420)
	pal := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{255, 0, 0, 255}}
	g := func(tr bool, r image.Rectangle) []byte {
		p := pal
		if tr {
			p = color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{}}
		}
		return encodeGIF(t, &gif.GIF{Image: []*image.Paletted{image.NewPaletted(r, p)}, Delay: []int{0},
			Config: image.Config{ColorModel: p, Width: 6, Height: 4}})
	}
	return []struct {
		name string
		b    []byte
		info Info
	}{
		{"png gray", grayPNG, Info{PNG, 4, 3, 1, 8, true}},
		{"png gray tRNS", withChunk(grayPNG, "tRNS", []byte{0, 0}), Info{PNG, 4, 3, 4, 8, true}},
		{"png gray16", encodePNG(t, gray16()), Info{PNG, 3, 2, 1, 16, true}},
		{"png rgb", rgbPNG, Info{PNG, 5, 2, 3, 8, true}},
		{"png rgb tRNS", withChunk(rgbPNG, "tRNS", []byte{0, 255, 0, 255, 0, 255}), Info{PNG, 5, 2, 4, 8, true}},
		{"png rgba", encodePNG(t, nrgba), Info{PNG, 2, 2, 4, 8, true}},
		{"png rgba16", encodePNG(t, nrgba64), Info{PNG, 2, 1, 4, 16, true}},
		{"png palette", encodePNG(t, opaquePal), Info{PNG, 3, 3, 3, 8, true}},
		{"png palette alpha", encodePNG(t, alphaPal), Info{PNG, 3, 3, 4, 8, true}},
		{"jpeg gray", encodeJPEG(t, gray, 90), Info{JPEG, 4, 3, 1, 8, false}},
		{"jpeg colour", encodeJPEG(t, colour, 90), Info{JPEG, 16, 8, 3, 8, false}},
		{"gif opaque", g(false, image.Rect(0, 0, 6, 4)), Info{GIF, 6, 4, 3, 8, true}},
		{"gif transparent", g(true, image.Rect(0, 0, 6, 4)), Info{GIF, 6, 4, 4, 8, true}},
		{"gif part frame", g(false, image.Rect(1, 1, 6, 4)), Info{GIF, 6, 4, 4, 8, true}},
		{"webp lossless", readTestdata(t, "gopher-doc.8bpp.lossless.webp"), Info{WebP, 75, 100, 3, 8, true}},
		{"webp lossless alpha", readTestdata(t, "gopher-doc.with-alpha.lossless.webp"), Info{WebP, 75, 100, 4, 8, true}},
		{"webp lossy", readTestdata(t, "video-001.lossy.webp"), Info{WebP, 150, 103, 3, 8, false}},
		{"webp lossy alpha", readTestdata(t, "yellow_rose.lossy-with-alpha.webp"), Info{WebP, 400, 301, 4, 8, false}},
	}
}

func TestConfig(t *testing.T) {
	for _, s := range samples(t) {
		got, err := Config(s.b)
		if err != nil || got != s.info {
			t.Errorf("%s: Config = %+v, %v, want %+v", s.name, got, err, s.info)
			continue
		}
		// Decode agrees with the header.
		ten, err := Decode(s.b, DefaultLimits)
		if err != nil {
			t.Errorf("%s: Decode: %v", s.name, err)
			continue
		}
		pixels(t, ten, s.info.Height, s.info.Width, s.info.Channels)
	}
	for _, tc := range []struct {
		info Info
		want string
	}{
		{Info{PNG, 640, 480, 3, 8, true}, "PNG 640×480 RGB"},
		{Info{PNG, 64, 64, 4, 16, true}, "PNG 64×64 RGBA 16-bit"},
		{Info{JPEG, 3840, 2160, 1, 8, false}, "JPEG 3840×2160 gray"},
	} {
		if got := tc.info.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
	if _, err := Config([]byte("hello")); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Config(hello) = %v, want ErrUnknownFormat", err)
	}
	b := samples(t)[0].b
	if _, err := Config(b[:20]); err == nil || !strings.HasPrefix(err.Error(), "PNG: ") {
		t.Errorf("Config(truncated PNG) = %v, want a PNG error", err)
	}
}

func TestDecodePNG(t *testing.T) {
	// 8-bit gray: values as they are.
	gray := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(gray.Pix, []byte{0, 1, 2, 128, 254, 255})
	ten, err := Decode(encodePNG(t, gray), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 2, 3, 1); !slices.Equal(got, []byte{0, 1, 2, 128, 254, 255}) {
		t.Errorf("gray: %v", got)
	}
	if l, ok := picture.Find(ten.LogicalShape(), ten.LogicalDimNames(), ten.ValueType()); !ok || l != (picture.Axes{H: 0, W: 1, Channel: 2, Preview: true}) {
		t.Errorf("picture.Find = %+v %v, want H 0, W 1, Channel 2, Preview", l, ok)
	}

	// 16-bit gray: the high byte.
	ten, err = Decode(encodePNG(t, gray16()), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 2, 3, 1); !slices.Equal(got, []byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xff}) {
		t.Errorf("gray16: %x", got)
	}

	// Gray with tRNS 0x0005: that level is transparent, others opaque.
	gray.Pix[1] = 5
	ten, err = Decode(withChunk(encodePNG(t, gray), "tRNS", []byte{0, 5}), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{0, 0, 0, 255, 5, 5, 5, 0, 2, 2, 2, 255, 128, 128, 128, 255, 254, 254, 254, 255, 255, 255, 255, 255}
	if got := pixels(t, ten, 2, 3, 4); !slices.Equal(got, want) {
		t.Errorf("gray tRNS: %v\nwant %v", got, want)
	}

	// Opaque RGB (image/png writes truecolour without alpha).
	rgb := image.NewRGBA(image.Rect(0, 0, 2, 2))
	copy(rgb.Pix, []byte{10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255, 100, 110, 120, 255})
	ten, err = Decode(encodePNG(t, rgb), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 2, 2, 3); !slices.Equal(got, []byte{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120}) {
		t.Errorf("rgb: %v", got)
	}

	// Straight alpha stays straight, including colour under alpha 0.
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(nrgba.Pix, []byte{200, 100, 50, 0, 1, 2, 3, 128})
	ten, err = Decode(encodePNG(t, nrgba), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 1, 2, 4); !slices.Equal(got, nrgba.Pix) {
		t.Errorf("rgba: %v, want %v", got, nrgba.Pix)
	}

	// 16-bit RGBA: high bytes, straight.
	n64 := image.NewNRGBA64(image.Rect(0, 0, 1, 1))
	n64.SetNRGBA64(0, 0, color.NRGBA64{0x1234, 0x5678, 0x9abc, 0xdef0})
	ten, err = Decode(encodePNG(t, n64), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 1, 1, 4); !slices.Equal(got, []byte{0x12, 0x56, 0x9a, 0xde}) {
		t.Errorf("rgba16: %x", got)
	}

	// Paletted: opaque → RGB, with a translucent entry → RGBA.
	p := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.NRGBA{1, 2, 3, 255}, color.NRGBA{40, 50, 60, 255}})
	p.Pix[1] = 1
	ten, err = Decode(encodePNG(t, p), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 1, 2, 3); !slices.Equal(got, []byte{1, 2, 3, 40, 50, 60}) {
		t.Errorf("palette: %v", got)
	}
	p.Palette[1] = color.NRGBA{40, 50, 60, 128}
	ten, err = Decode(encodePNG(t, p), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 1, 2, 4); !slices.Equal(got, []byte{1, 2, 3, 255, 40, 50, 60, 128}) {
		t.Errorf("palette alpha: %v", got)
	}
}

func TestDecodeGIF(t *testing.T) {
	pal := color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}}
	// Frame 1 covers (1,0)-(3,2) of a 3×2 screen with index 0 transparent;
	// frame 2 (ignored) covers all.
	f1 := image.NewPaletted(image.Rect(1, 0, 3, 2), pal)
	copy(f1.Pix, []byte{1, 0, 2, 1})
	f2 := image.NewPaletted(image.Rect(0, 0, 3, 2), pal)
	for i := range f2.Pix {
		f2.Pix[i] = 2
	}
	tr := color.Palette{color.RGBA{}, pal[1], pal[2]}
	f1.Palette = tr
	b := encodeGIF(t, &gif.GIF{Image: []*image.Paletted{f1, f2}, Delay: []int{10, 10},
		Config: image.Config{ColorModel: tr, Width: 3, Height: 2}})
	info, err := Config(b)
	if err != nil || info != (Info{GIF, 3, 2, 4, 8, true}) {
		t.Fatalf("Config = %+v, %v", info, err)
	}
	ten, err := Decode(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{
		0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 0, 0, // (0,0) outside the frame; index 1; index 0 transparent
		0, 0, 0, 0, 0, 0, 255, 255, 255, 0, 0, 255,
	}
	if got := pixels(t, ten, 2, 3, 4); !slices.Equal(got, want) {
		t.Errorf("gif: %v\nwant %v", got, want)
	}
	// An opaque full-screen GIF is RGB.
	f2.Palette = pal
	b = encodeGIF(t, &gif.GIF{Image: []*image.Paletted{f2}, Delay: []int{0}})
	ten, err = Decode(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pixels(t, ten, 2, 3, 3); !slices.Equal(got, bytes.Repeat([]byte{0, 0, 255}, 6)) {
		t.Errorf("opaque gif: %v", got)
	}
}

// TestDecodeJPEG compares with the decoder's own YCbCr planes converted by
// color.YCbCrToRGB through image.YCbCr's own indexing (exact), and with the
// encoded pixels within a tolerance (JPEG is lossy: the encoder quantises
// DCT coefficients and subsamples chroma 4:2:0, so only closeness can be
// checked against the source).
func TestDecodeJPEG(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 37, 21))
	for y := range 21 {
		for x := range 37 {
			src.SetRGBA(x, y, color.RGBA{uint8(x * 6), uint8(y * 11), uint8(100 + x + y), 255})
		}
	}
	b := encodeJPEG(t, src, 95)
	ten, err := Decode(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := pixels(t, ten, 21, 37, 3)
	m, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	ycc := m.(*image.YCbCr)
	var sumErr, n int
	for y := range 21 {
		for x := range 37 {
			c := ycc.YCbCrAt(x, y)
			r, g, bb := color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
			i := 3 * (y*37 + x)
			if got[i] != r || got[i+1] != g || got[i+2] != bb {
				t.Fatalf("(%d,%d) = %v, decoder's YCbCr gives %v", x, y, got[i:i+3], []byte{r, g, bb})
			}
			s := src.RGBAAt(x, y)
			for k, v := range []uint8{s.R, s.G, s.B} {
				sumErr += abs(int(got[i+k]) - int(v))
				n++
			}
		}
	}
	if mean := float64(sumErr) / float64(n); mean > 3 {
		t.Errorf("mean absolute error against the source %.2f, want ≤ 3 at quality 95", mean)
	}
	// Gray JPEG: one channel, the decoder's Gray pixels.
	gray := image.NewGray(image.Rect(0, 0, 9, 9))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i * 3)
	}
	b = encodeJPEG(t, gray, 90)
	ten, err = Decode(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	mg, _ := jpeg.Decode(bytes.NewReader(b))
	got = pixels(t, ten, 9, 9, 1)
	for y := range 9 {
		if row := mg.(*image.Gray).Pix[y*mg.(*image.Gray).Stride:][:9]; !slices.Equal(got[9*y:9*y+9], row) {
			t.Errorf("gray jpeg row %d = %v, the decoder's %v", y, got[9*y:9*y+9], row)
		}
	}
}

// TestYCbCrRatios checks the row reader's chroma indexing for every
// subsampling ratio and an odd origin against image.YCbCr.YCbCrAt.
func TestYCbCrRatios(t *testing.T) {
	for _, ratio := range []image.YCbCrSubsampleRatio{
		image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420,
		image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410,
	} {
		r := image.Rect(3, 1, 14, 8)
		m := image.NewNYCbCrA(r, ratio)
		for i := range m.Y {
			m.Y[i] = uint8(i * 7)
		}
		for i := range m.Cb {
			m.Cb[i], m.Cr[i] = uint8(i*13+5), uint8(200-i*3)
		}
		for i := range m.A {
			m.A[i] = uint8(i * 5)
		}
		read := rowReader(m, 14, 4)
		row := make([]byte, 4*14)
		for y := range 8 {
			read(y, row)
			for x := range 14 {
				want := [4]byte{}
				if (image.Point{x, y}).In(r) {
					c := m.NYCbCrAAt(x, y)
					want[0], want[1], want[2] = color.YCbCrToRGB(c.Y, c.Cb, c.Cr)
					want[3] = c.A
				}
				if got := [4]byte(row[4*x : 4*x+4]); got != want {
					t.Fatalf("%v (%d,%d) = %v, want %v", ratio, x, y, got, want)
				}
			}
		}
	}
}

// TestDecodeWebP compares with the PNG twins of golang.org/x/image's test
// data: lossless files pixel for pixel; lossy ones with their Y, Cb, Cr (and
// A) planes converted by color.YCbCrToRGB at 4:2:0.
func TestDecodeWebP(t *testing.T) {
	for _, tc := range []struct{ webp, png string }{
		{"gopher-doc.8bpp.lossless.webp", "gopher-doc.8bpp.png"},
		{"gopher-doc.with-alpha.lossless.webp", "gopher-doc.with-alpha.png"},
	} {
		ten, err := Decode(readTestdata(t, tc.webp), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		twin, err := png.Decode(bytes.NewReader(readTestdata(t, tc.png)))
		if err != nil {
			t.Fatal(err)
		}
		h, w, c := ten.Shape[0], ten.Shape[1], ten.Shape[2]
		if twin.Bounds() != image.Rect(0, 0, w, h) {
			t.Fatalf("%s: %v, twin %v", tc.webp, ten.Shape, twin.Bounds())
		}
		got := pixels(t, ten, h, w, c)
		for y := range h {
			for x := range w {
				n := color.NRGBAModel.Convert(twin.At(x, y)).(color.NRGBA)
				want := []byte{n.R, n.G, n.B, n.A}
				if c == 3 && n.A != 255 {
					t.Fatalf("%s: RGB, but the twin has alpha %d at (%d,%d)", tc.webp, n.A, x, y)
				}
				if i := c * (y*w + x); !bytes.Equal(got[i:i+c], want[:c]) {
					t.Fatalf("%s (%d,%d) = %v, twin %v", tc.webp, x, y, got[i:i+c], want[:c])
				}
			}
		}
	}
	for _, tc := range []struct {
		webp  string
		alpha bool
	}{
		{"video-001.lossy.webp", false},
		{"yellow_rose.lossy-with-alpha.webp", true},
	} {
		twinName := tc.webp + ".ycbcr.png"
		if tc.alpha {
			twinName = tc.webp + ".nycbcra.png"
		}
		ten, err := Decode(readTestdata(t, tc.webp), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		twin, err := png.Decode(bytes.NewReader(readTestdata(t, twinName)))
		if err != nil {
			t.Fatal(err)
		}
		planes := twin.(*image.Gray)
		h, w, c := ten.Shape[0], ten.Shape[1], ten.Shape[2]
		if c != map[bool]int{false: 3, true: 4}[tc.alpha] {
			t.Fatalf("%s: %d channels", tc.webp, c)
		}
		got := pixels(t, ten, h, w, c)
		w2, h2 := (w+1)/2, (h+1)/2
		at := func(x, y int) uint8 { return planes.GrayAt(x, y).Y }
		for y := range h {
			for x := range w {
				r, g, b := color.YCbCrToRGB(at(x, y), at(x/2, h+y/2), at(w2+x/2, h+y/2))
				want := []byte{r, g, b}
				if tc.alpha {
					want = append(want, at(x, h+h2+y))
				}
				if i := c * (y*w + x); !bytes.Equal(got[i:i+c], want) {
					t.Fatalf("%s (%d,%d) = %v, twin planes %v", tc.webp, x, y, got[i:i+c], want)
				}
			}
		}
	}
}

// bombs returns images whose headers declare huge sizes.
func bombs(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	// PNG: IHDR width and height 100000, CRC recomputed.
	b := resized(encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1))), 100000, 100000)
	out["PNG declares 100000×100000 pixels (10.0 G), more than the 40 M this viewer decodes"] = b
	// GIF: logical screen 65535×65535.
	b = encodeGIF(t, &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black})}, Delay: []int{0}})
	binary.LittleEndian.PutUint16(b[6:], 65535)
	binary.LittleEndian.PutUint16(b[8:], 65535)
	out["GIF declares 65535×65535 pixels (4.3 G), more than the 40 M this viewer decodes"] = b
	// JPEG: SOF0 height and width 65000.
	b = encodeJPEG(t, image.NewGray(image.Rect(0, 0, 8, 8)), 90)
	sof := bytes.Index(b, []byte{0xff, 0xc0})
	binary.BigEndian.PutUint16(b[sof+5:], 65000)
	binary.BigEndian.PutUint16(b[sof+7:], 65000)
	out["JPEG declares 65000×65000 pixels (4.2 G), more than the 40 M this viewer decodes"] = b
	// WebP lossless: 14-bit width-1 and height-1 both 16383.
	b = bytes.Clone(readTestdata(t, "gopher-doc.8bpp.lossless.webp"))
	v := binary.LittleEndian.Uint32(b[21:])
	binary.LittleEndian.PutUint32(b[21:], v&^(1<<28-1)|16383|16383<<14)
	out["WebP declares 16384×16384 pixels (268.4 M), more than the 40 M this viewer decodes"] = b
	return out
}

func TestLimits(t *testing.T) {
	for want, b := range bombs(t) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(b, Limits{})
		_, _, perr := DecodePreview(b, 256, DefaultLimits)
		runtime.ReadMemStats(&after)
		if err == nil || err.Error() != want || !errors.Is(err, ErrTooLarge) {
			t.Errorf("Decode: %v\nwant %s", err, want)
		}
		if perr == nil || perr.Error() != want {
			t.Errorf("DecodePreview: %v\nwant %s", perr, want)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
			t.Errorf("%s: refusing allocated %d bytes", want, n)
		}
	}
	checkSmallLimits(t, encodePNG(t, image.NewGray(image.Rect(0, 0, 4, 4))), func(b []byte, l Limits) error {
		_, err := Decode(b, l)
		return err
	})
	if got := round(DefaultLimits.MaxPixels) + " " + round(int64(DefaultLimits.MaxBytes)); got != "40 M 67.1 M" {
		t.Errorf("defaults print as %q", got)
	}
}

// checkSmallLimits checks decode of b, a 4×4 PNG, against a 15 and a 16
// pixel limit and a 10 byte limit.
func checkSmallLimits(t *testing.T, b []byte, decode func([]byte, Limits) error) {
	t.Helper()
	if err := decode(b, Limits{MaxPixels: 15}); err == nil || err.Error() != "PNG declares 4×4 pixels (16), more than the 15 this viewer decodes" {
		t.Errorf("MaxPixels 15: %v", err)
	}
	if err := decode(b, Limits{MaxPixels: 16}); err != nil {
		t.Errorf("MaxPixels 16: %v", err)
	}
	if err := decode(b, Limits{MaxBytes: 10}); !errors.Is(err, ErrTooLarge) || err.Error() != "PNG is "+decimal(int64(len(b)))+" bytes, more than the 10 this viewer decodes" {
		t.Errorf("MaxBytes 10: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	if _, err := Decode([]byte("plain text"), Limits{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("text: %v", err)
	}
	b := encodePNG(t, image.NewGray(image.Rect(0, 0, 40, 40)))
	if _, err := Decode(b[:len(b)-20], Limits{}); err == nil || !strings.HasPrefix(err.Error(), "PNG: ") {
		t.Errorf("truncated PNG: %v", err)
	}
	if _, _, err := DecodePreview(b, 0, Limits{}); err == nil {
		t.Error("DecodePreview with side 0 succeeded")
	}
}

func TestPreview(t *testing.T) {
	// 4×2 RGB to side 2: 2×1, each the rounded mean of a 2×2 block.
	rgb := image.NewRGBA(image.Rect(0, 0, 4, 2))
	copy(rgb.Pix, []byte{
		0, 0, 0, 255, 10, 20, 30, 255, 100, 100, 100, 255, 200, 200, 200, 255,
		1, 1, 1, 255, 10, 20, 31, 255, 0, 0, 0, 255, 255, 255, 255, 255,
	})
	p, info, err := DecodePreview(encodePNG(t, rgb), 2, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// (0+10+1+10)/4 = 5.25 → 5; (0+20+1+20)/4 = 10.25 → 10; (0+30+1+31)/4 = 15.5 → 16
	// (100+200+0+255)/4 = 138.75 → 139
	want := []byte{5, 10, 16, 255, 139, 139, 139, 255}
	if p.Bounds() != image.Rect(0, 0, 2, 1) || !slices.Equal(p.Pix, want) || info != (Info{PNG, 4, 2, 3, 8, true}) {
		t.Errorf("2×2 blocks: %v %v %+v, want %v", p.Bounds(), p.Pix, info, want)
	}

	// 3×1 gray to side 2: 2×1 with fractional weights 2/3 and 1/3.
	g := image.NewGray(image.Rect(0, 0, 3, 1))
	copy(g.Pix, []byte{0, 90, 255})
	p, _, err = DecodePreview(encodePNG(t, g), 2, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	// (2·0 + 1·90)/3 = 30; (1·90 + 2·255)/3 = 200
	if want := []byte{30, 30, 30, 255, 200, 200, 200, 255}; !slices.Equal(p.Pix, want) {
		t.Errorf("3→2: %v, want %v", p.Pix, want)
	}

	// Alpha: colour is averaged premultiplied, so a transparent pixel adds
	// no colour; the mean alpha 127.5 rounds to 128.
	n := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	copy(n.Pix, []byte{255, 0, 0, 255, 0, 0, 255, 0})
	p, _, err = DecodePreview(encodePNG(t, n), 1, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{255, 0, 0, 128}; !slices.Equal(p.Pix, want) {
		t.Errorf("alpha: %v, want %v", p.Pix, want)
	}

	// An image that fits is copied as it is (straight alpha).
	copy(n.Pix, []byte{255, 0, 0, 255, 7, 8, 9, 100})
	p, _, err = DecodePreview(encodePNG(t, n), 2, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Pix, n.Pix) {
		t.Errorf("fits: %v, want %v", p.Pix, n.Pix)
	}

	// Sizes follow FitIn, the rule package raster fits its previews with
	// too: the width first (257×258 is 256×256).
	for _, tc := range [][4]int{{3840, 2160, 256, 144}, {2160, 3840, 144, 256}, {1000, 1, 256, 1}, {256, 100, 256, 100}, {513, 512, 256, 255}, {257, 258, 256, 256}} {
		if w, h := FitIn(tc[0], tc[1], 256, 256); w != tc[2] || h != tc[3] {
			t.Errorf("FitIn(%d, %d, 256, 256) = %d×%d, want %d×%d", tc[0], tc[1], w, h, tc[2], tc[3])
		}
	}
	if w, h := FitIn(224, 224, 94, 68); w != 68 || h != 68 {
		t.Errorf("FitIn(224, 224, 94, 68) = %d×%d, want 68×68", w, h)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestYCbCrExact checks ycbcrSpan's arithmetic against color.YCbCrToRGB for
// every (Y, Cb, Cr): one 4:4:4 image of 256×256 (Y, Cb) per Cr.
func TestYCbCrExact(t *testing.T) {
	m := image.NewYCbCr(image.Rect(0, 0, 256, 256), image.YCbCrSubsampleRatio444)
	for i := range m.Y {
		m.Y[i], m.Cb[i] = uint8(i), uint8(i>>8)
	}
	for _, n := range []int{3, 4} {
		span := ycbcrSpan(m, nil, 0, n)
		row := make([]byte, n*256)
		for cr := range 256 {
			for i := range m.Cr {
				m.Cr[i] = uint8(cr)
			}
			for y := range 256 {
				span(y, 0, 256, row)
				for x := range 256 {
					r, g, b := color.YCbCrToRGB(uint8(x), uint8(y), uint8(cr))
					if d := row[n*x:]; d[0] != r || d[1] != g || d[2] != b || (n == 4 && d[3] != 255) {
						t.Fatalf("n %d Y %d Cb %d Cr %d: %v, want %d %d %d", n, x, y, cr, d[:n], r, g, b)
					}
				}
			}
		}
	}
}

// TestPreviewYCbCr compares the YCbCr planes' preview with the RGB area
// average of the same decoded pixels (downscale over Decode's rows). They
// differ where a channel clips, so the image is kept away from clipping;
// the planes' averages are rounded to 8 bits before the conversion, which
// multiplies Cb by 1.772 for blue, so Y's and Cb's roundings can add up to
// 2 per channel (measured: 2 at 4:4:4, 4:2:2 and 4:2:0).
func TestPreviewYCbCr(t *testing.T) {
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422} {
		m := image.NewYCbCr(image.Rect(0, 0, 300, 170), ratio)
		for y := range 170 {
			for x := range 300 {
				m.Y[m.YOffset(x, y)] = uint8(60 + (x*y)%97 + x/10)
				c := m.COffset(x, y)
				m.Cb[c], m.Cr[c] = uint8(110+(x/3)%30), uint8(120+(y/2)%25)
			}
		}
		got := downscaleYCbCr(m, 64, 36)
		want := downscale(rowReader(m, 300, 3), 300, 170, 64, true)
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%v: %v, want %v", ratio, got.Bounds(), want.Bounds())
		}
		worst := 0
		for i := range got.Pix {
			worst = max(worst, abs(int(got.Pix[i])-int(want.Pix[i])))
		}
		if worst > 2 {
			t.Errorf("%v: differs from the RGB average by up to %d", ratio, worst)
		}
	}
	// Through DecodePreview: a colour JPEG takes this path.
	src := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for i := range src.Pix {
		src.Pix[i] = uint8(80 + i%90)
	}
	p, info, err := DecodePreview(encodeJPEG(t, src, 90), 16, Limits{})
	if err != nil || p.Bounds() != image.Rect(0, 0, 16, 12) || info.Channels != 3 {
		t.Fatalf("%v %v %+v", p.Bounds(), err, info)
	}
}

func TestEstimatedDecode(t *testing.T) {
	for _, tc := range []struct {
		info Info
		want time.Duration
	}{
		{Info{Format: JPEG, Width: 3840, Height: 2160, Channels: 3}, 414720 * time.Microsecond},
		{Info{Format: WebP, Width: 100, Height: 100, Channels: 4}, 1500 * time.Microsecond},
		{Info{Format: WebP, Width: 100, Height: 100, Channels: 4, Lossless: true}, 2 * time.Millisecond},
		{Info{}, 0},
	} {
		if got := tc.info.EstimatedDecode(); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.info, got, tc.want)
		}
	}
	info := Info{Format: PNG, Width: 10, Height: 10, Channels: 4, BitDepth: 16}
	if info.DecodedBytes() != 400 || info.PeakBytes() != 800+400 {
		t.Errorf("DecodedBytes %d PeakBytes %d", info.DecodedBytes(), info.PeakBytes())
	}
}
