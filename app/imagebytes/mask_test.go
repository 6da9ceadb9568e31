package imagebytes

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/overlay"
)

// pngChunk returns a PNG chunk: length, type, data and CRC (PNG spec §5.3).
func pngChunk(typ string, data []byte) []byte {
	c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	c = append(c, typ...)
	c = append(c, data...)
	return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(c[4:]))
}

// rawPNG builds a non-interlaced PNG from its IHDR fields and scanlines,
// each already packed (PNG spec §7.2), written with filter type 0 into one
// zlib-compressed IDAT: for what image/png's encoder never writes (grey of
// 1, 2 or 4 bits, grey with alpha) and for broken pixel data.
func rawPNG(t testing.TB, w, h int, depth, colourType byte, lines ...[]byte) []byte {
	t.Helper()
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	for _, l := range lines {
		if _, err := zw.Write(append([]byte{0}, l...)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, colourType, 0, 0, 0)
	return slices.Concat([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr), pngChunk("IDAT", z.Bytes()), pngChunk("IEND", nil))
}

// packBits packs samples of depth bits (1, 2 or 4) into a scanline, most
// significant bits first (PNG spec §7.2).
func packBits(depth int, samples ...int) []byte {
	out := make([]byte, (len(samples)*depth+7)/8)
	for i, s := range samples {
		bit := i * depth
		out[bit/8] |= byte(s) << (8 - depth - bit%8)
	}
	return out
}

// resized returns a copy of a PNG whose IHDR declares w×h, CRC recomputed.
func resized(b []byte, w, h uint32) []byte {
	b = bytes.Clone(b)
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// idsOf returns a mask's ids, checking the tensor's shape, strides, names,
// value type and that it is one contiguous array without nulls.
func idsOf(t *testing.T, m Mask) []int {
	t.Helper()
	ten, h, w := m.IDs, m.Height, m.Width
	if !slices.Equal(ten.Shape, []int{h, w}) || !slices.Equal(ten.Strides, []int{w, 1}) ||
		!slices.Equal(ten.DimNames, []string{"height", "width"}) || ten.Offset != 0 || ten.Permutation != nil {
		t.Fatalf("tensor shape %v strides %v names %v offset %d perm %v, want [%d %d] row-major height,width",
			ten.Shape, ten.Strides, ten.DimNames, ten.Offset, ten.Permutation, h, w)
	}
	if err := ten.Check(); err != nil {
		t.Fatal(err)
	}
	if ten.Values.Len() != h*w || ten.Values.NullN() != 0 || !arrow.TypeEqual(ten.ValueType(), m.ValueType()) {
		t.Fatalf("values %s len %d nulls %d, want %s of %d", ten.ValueType(), ten.Values.Len(), ten.Values.NullN(), m.ValueType(), h*w)
	}
	var out []int
	switch v := ten.Values.(type) {
	case *array.Uint8:
		for _, x := range v.Uint8Values() {
			out = append(out, int(x))
		}
	case *array.Uint16:
		for _, x := range v.Uint16Values() {
			out = append(out, int(x))
		}
	default:
		t.Fatalf("values %T", ten.Values)
	}
	return out
}

// vocLike is a 256-entry palette whose index 255 is PASCAL VOC's "void"
// colour (224, 224, 192), as VOC's masks and PIL's "P" mode write it.
func vocLike() color.Palette {
	p := make(color.Palette, 256)
	for i := range p {
		p[i] = color.NRGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255}
	}
	p[255] = color.NRGBA{224, 224, 192, 255}
	return p
}

func nrgbas(p color.Palette) []color.NRGBA {
	out := make([]color.NRGBA, len(p))
	for i, c := range p {
		out[i] = c.(color.NRGBA)
	}
	return out
}

// maskCases are encoded masks and the ids and MaskInfo DecodeMask gives.
func maskCases(t testing.TB) []struct {
	name string
	b    []byte
	info MaskInfo
	ids  []int
} {
	voc := image.NewPaletted(image.Rect(0, 0, 4, 3), vocLike())
	copy(voc.Pix, []byte{0, 0, 1, 255, 0, 15, 15, 255, 254, 255, 255, 2})
	// 3 entries: image/png writes 2-bit indices and a tRNS chunk.
	small := color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{40, 50, 60, 128}, color.NRGBA{1, 2, 3, 0}}
	two := image.NewPaletted(image.Rect(0, 0, 5, 1), small)
	copy(two.Pix, []byte{0, 1, 2, 1, 0})
	binary1 := image.NewPaletted(image.Rect(0, 0, 9, 2), color.Palette{color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 255, 255, 255}})
	for i := range binary1.Pix {
		binary1.Pix[i] = uint8(i % 3 % 2)
	}
	gray := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(gray.Pix, []byte{0, 1, 2, 128, 254, 255})
	g16 := image.NewGray16(image.Rect(0, 0, 3, 2))
	for i, v := range []uint16{0, 255, 256, 1000, 0x1234, 65535} {
		g16.SetGray16(i%3, i/3, color.Gray16{Y: v})
	}
	return []struct {
		name string
		b    []byte
		info MaskInfo
		ids  []int
	}{
		{"palette 256 with void 255", encodePNG(t, voc), MaskInfo{4, 3, 8, true, nrgbas(vocLike())},
			[]int{0, 0, 1, 255, 0, 15, 15, 255, 254, 255, 255, 2}},
		{"palette 2-bit tRNS", encodePNG(t, two), MaskInfo{5, 1, 2, true, nrgbas(small)}, []int{0, 1, 2, 1, 0}},
		{"palette 1-bit", encodePNG(t, binary1), MaskInfo{9, 2, 1, true, nrgbas(binary1.Palette)},
			[]int{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0}},
		{"grey 8", encodePNG(t, gray), MaskInfo{3, 2, 8, false, nil}, []int{0, 1, 2, 128, 254, 255}},
		{"grey 8 tRNS", withChunk(encodePNG(t, gray), "tRNS", []byte{0, 2}), MaskInfo{3, 2, 8, false, nil}, []int{0, 1, 2, 128, 254, 255}},
		{"grey 16", encodePNG(t, g16), MaskInfo{3, 2, 16, false, nil}, []int{0, 255, 256, 1000, 0x1234, 65535}},
		{"grey 16 tRNS", withChunk(encodePNG(t, g16), "tRNS", []byte{0x03, 0xe8}), MaskInfo{3, 2, 16, false, nil}, []int{0, 255, 256, 1000, 0x1234, 65535}},
		// A binary mask as PIL's mode "1" saves it: 1-bit grey, 0 and 1.
		{"grey 1-bit", rawPNG(t, 10, 2, 1, 0, packBits(1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1), packBits(1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1)),
			MaskInfo{10, 2, 1, false, nil}, []int{0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1}},
		{"grey 1-bit tRNS", withChunk(rawPNG(t, 3, 1, 1, 0, packBits(1, 1, 0, 1)), "tRNS", []byte{0, 1}),
			MaskInfo{3, 1, 1, false, nil}, []int{1, 0, 1}},
		{"grey 2-bit", rawPNG(t, 5, 1, 2, 0, packBits(2, 3, 2, 1, 0, 3)), MaskInfo{5, 1, 2, false, nil}, []int{3, 2, 1, 0, 3}},
		{"grey 4-bit", rawPNG(t, 3, 2, 4, 0, packBits(4, 0, 15, 7), packBits(4, 9, 1, 14)), MaskInfo{3, 2, 4, false, nil}, []int{0, 15, 7, 9, 1, 14}},
	}
}

func TestDecodeMask(t *testing.T) {
	for _, tc := range maskCases(t) {
		mi, err := MaskConfig(tc.b)
		if err != nil {
			t.Errorf("%s: MaskConfig: %v", tc.name, err)
			continue
		}
		m, err := DecodeMask(tc.b, Limits{})
		if err != nil {
			t.Errorf("%s: DecodeMask: %v", tc.name, err)
			continue
		}
		for _, got := range []MaskInfo{mi, m.MaskInfo} {
			if got.Width != tc.info.Width || got.Height != tc.info.Height || got.BitDepth != tc.info.BitDepth ||
				got.Paletted != tc.info.Paletted || !slices.Equal(got.Palette, tc.info.Palette) {
				t.Errorf("%s: MaskInfo %+v, want %+v", tc.name, got, tc.info)
			}
		}
		if ids := idsOf(t, m); !slices.Equal(ids, tc.ids) {
			t.Errorf("%s: ids %v, want %v", tc.name, ids, tc.ids)
		}
		wantType := arrow.PrimitiveTypes.Uint8
		if tc.info.BitDepth == 16 {
			wantType = arrow.PrimitiveTypes.Uint16
		}
		if !arrow.TypeEqual(m.IDs.ValueType(), wantType) {
			t.Errorf("%s: %s ids, want %s", tc.name, m.IDs.ValueType(), wantType)
		}
	}
}

// TestMaskOverlay checks that package overlay reads the masks as class ids
// at their pixels, and draws a paletted mask in the file's own colours.
func TestMaskOverlay(t *testing.T) {
	for _, tc := range maskCases(t) {
		m, err := DecodeMask(tc.b, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		l := m.IDs.Logical()
		if k := overlay.KindOf(l.ValueType()); k != overlay.ClassIDs {
			t.Errorf("%s: KindOf = %v", tc.name, k)
		}
		if h, w, err := overlay.MaskAxes(l.Shape, l.DimNames); h != 0 || w != 1 || err != nil {
			t.Errorf("%s: MaskAxes = %d, %d, %v", tc.name, h, w, err)
		}
		for i, want := range tc.ids {
			if id, ok := overlay.MaskValue(m.IDs, 0.5, i/m.Width, i%m.Width); !ok || id != int64(want) {
				t.Fatalf("%s: MaskValue(%d, %d) = %d %v, want %d", tc.name, i/m.Width, i%m.Width, id, ok, want)
			}
		}
	}
	cases := maskCases(t)
	m, err := DecodeMask(cases[0].b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	counts, err := overlay.CountClasses(m.IDs, 0.5)
	if err != nil || len(counts) != 6 || counts[5].ID != 255 || counts[5].Pixels != 4 {
		t.Errorf("CountClasses = %+v, %v; want 6 classes, 255 on 4 pixels", counts, err)
	}
	// The file's palette as the overlay's, at opacity 1 with nothing
	// hidden: each pixel takes its index's colour.
	pal := func(id int64) color.RGBA {
		c := m.Palette[id]
		return color.RGBA{c.R, c.G, c.B, 255}
	}
	dst := image.NewRGBA(image.Rect(0, 0, 4, 3))
	if err := overlay.Blend(dst, m.IDs, overlay.Style{Opacity: 1, Palette: pal}); err != nil {
		t.Fatal(err)
	}
	if got := dst.RGBAAt(3, 0); got != (color.RGBA{224, 224, 192, 0}) { // alpha is left as it was
		t.Errorf("pixel (3, 0) = %v, want VOC void (224, 224, 192)", got)
	}
	if got := dst.RGBAAt(1, 1); got != (color.RGBA{15, 240, 105, 0}) {
		t.Errorf("pixel (1, 1) = %v, want index 15's (15, 240, 105)", got)
	}
}

// TestDecodeMaskPastPalette: an index past PLTE's entries (an error by the
// spec, decoded by image/png) stays an id, and Palette keeps PLTE's length.
func TestDecodeMaskPastPalette(t *testing.T) {
	// 8-bit indices 0, 1, 200 and a PLTE of 2 entries.
	b := withChunk(rawPNG(t, 3, 1, 8, 3, []byte{0, 1, 200}), "PLTE", []byte{9, 9, 9, 7, 7, 7})
	m, err := DecodeMask(b, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []color.NRGBA{{9, 9, 9, 255}, {7, 7, 7, 255}}; !slices.Equal(m.Palette, want) {
		t.Errorf("palette %v, want %v", m.Palette, want)
	}
	if ids := idsOf(t, m); !slices.Equal(ids, []int{0, 1, 200}) {
		t.Errorf("ids %v, want 0 1 200", ids)
	}
}

func TestDecodeMaskErrors(t *testing.T) {
	rgb := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range rgb.Pix {
		rgb.Pix[i] = 255
	}
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	nrgba.Pix[3] = 10
	n64 := image.NewNRGBA64(image.Rect(0, 0, 1, 1))
	gray := image.NewGray(image.Rect(0, 0, 8, 8))
	grayMask := encodePNG(t, image.NewGray(image.Rect(0, 0, 40, 40)))
	const hint = " (a class-id mask is a palette or grey PNG)"
	for _, tc := range []struct {
		name string
		b    []byte
		want string
		is   error
	}{
		{"png rgb", encodePNG(t, rgb), "PNG is RGB: it holds colours, not class ids" + hint, ErrNotMask},
		{"png rgba", encodePNG(t, nrgba), "PNG is RGBA: it holds colours, not class ids" + hint, ErrNotMask},
		{"png rgba16", encodePNG(t, n64), "PNG is RGBA: it holds colours, not class ids" + hint, ErrNotMask},
		{"png grey alpha", rawPNG(t, 1, 1, 8, 4, []byte{3, 255}), "PNG is grey with alpha: a mask has one sample a pixel, no alpha channel" + hint, ErrNotMask},
		{"jpeg grey", encodeJPEG(t, gray, 100), "JPEG is lossy: its pixel values are approximations, not exact class ids" + hint, ErrNotMask},
		{"gif", encodeGIF(t, &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 2, 2), color.Palette{color.Black})}, Delay: []int{0}}),
			"GIF is not read as class ids" + hint, ErrNotMask},
		{"webp lossless", readTestdata(t, "gopher-doc.8bpp.lossless.webp"), "WebP holds colours, not class ids" + hint, ErrNotMask},
		{"webp lossy", readTestdata(t, "video-001.lossy.webp"), "this WebP is lossy: its pixel values are approximations, not exact class ids" + hint, ErrNotMask},
		{"text", []byte("plain text"), ErrUnknownFormat.Error(), ErrUnknownFormat},
		{"truncated header", grayMask[:20], "PNG: ", nil},
		{"truncated data", grayMask[:len(grayMask)-20], "PNG: ", nil},
		{"short pixel data", rawPNG(t, 4, 4, 8, 0, make([]byte, 4), make([]byte, 4)), "PNG: png: invalid format: not enough pixel data", nil},
		{"bomb", resized(grayMask, 100000, 100000), "PNG declares 100000×100000 pixels (10.0 G), more than the 40 M this viewer decodes", ErrTooLarge},
		{"palette bomb", resized(encodePNG(t, image.NewPaletted(image.Rect(0, 0, 1, 1), vocLike())), 1<<31-1, 3),
			"PNG declares 2147483647×3 pixels (6.4 G), more than the 40 M this viewer decodes", ErrTooLarge},
		// 4×4 declared, 16 MiB of zero rows in the IDAT: image/png reads
		// the 4 rows it needs and refuses the rest without inflating it.
		{"inflation bomb", rawPNG(t, 4, 4, 8, 0, make([]byte, 16<<20)), "PNG: png: invalid format: too much pixel data", nil},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := DecodeMask(tc.b, Limits{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: %v\nwant %q (%v)", tc.name, err, tc.want, tc.is)
		}
		if tc.is != ErrNotMask && errors.Is(err, ErrNotMask) {
			t.Errorf("%s: %v wraps ErrNotMask", tc.name, err)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
			t.Errorf("%s: refusing allocated %d bytes", tc.name, n)
		}
		// MaskConfig tells the same from the header, when it can.
		if _, cerr := MaskConfig(tc.b); (tc.is == ErrNotMask || tc.is == ErrUnknownFormat) && (cerr == nil || cerr.Error() != err.Error()) {
			t.Errorf("%s: MaskConfig: %v, DecodeMask: %v", tc.name, cerr, err)
		}
	}
	// The limits, as Decode applies them.
	checkSmallLimits(t, encodePNG(t, image.NewPaletted(image.Rect(0, 0, 4, 4), vocLike())), func(b []byte, l Limits) error {
		_, err := DecodeMask(b, l)
		return err
	})
}
