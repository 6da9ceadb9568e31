package imagebytes

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"testing"
)

// photo4K encodes a 3840×2160 JPEG (quality 85, 4:2:0, as image/jpeg
// writes) of smooth gradients with a fine texture, about the detail of a
// photograph.
func photo4K(b *testing.B) []byte {
	m := image.NewRGBA(image.Rect(0, 0, 3840, 2160))
	for y := range 2160 {
		for x := range 3840 {
			n := uint8((x*7 + y*13 + x*y) % 23)
			m.SetRGBA(x, y, color.RGBA{uint8(x/16) + n, uint8(y/9) + n, uint8((x+y)/24) + n, 255})
		}
	}
	return encodeJPEG(b, m, 85)
}

func BenchmarkDecode4KJPEG(b *testing.B) {
	src := photo4K(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(src, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPreview4KJPEG(b *testing.B) {
	src := photo4K(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := DecodePreview(src, 256, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJPEGDecoder4K is image/jpeg.Decode alone on the same file: the
// part of BenchmarkDecode4KJPEG that is not this package's conversion.
func BenchmarkJPEGDecoder4K(b *testing.B) {
	src := photo4K(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := jpeg.Decode(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFormats decodes one image per format and reports ns/pixel, the
// constants of Info.EstimatedDecode.
func BenchmarkFormats(b *testing.B) {
	photo := image.NewRGBA(image.Rect(0, 0, 1024, 768))
	for y := range 768 {
		for x := range 1024 {
			n := uint8((x*7 + y*13 + x*y) % 23)
			photo.SetRGBA(x, y, color.RGBA{uint8(x/4) + n, uint8(y/3) + n, uint8((x+y)/8) + n, 255})
		}
	}
	pal := image.NewPaletted(photo.Rect, palette256())
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 251)
	}
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"JPEG", encodeJPEG(b, photo, 85)},
		{"PNG-RGB", encodePNG(b, photo)},
		{"GIF", encodeGIF(b, &gif.GIF{Image: []*image.Paletted{pal}, Delay: []int{0}})},
		{"WebP-lossy", readTestdata(b, "yellow_rose.lossy-with-alpha.webp")},
		{"WebP-lossless", readTestdata(b, "gopher-doc.with-alpha.lossless.webp")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			info, err := Config(tc.src)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := Decode(tc.src, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(info.Pixels()), "ns/px")
		})
	}
}

func palette256() color.Palette {
	p := make(color.Palette, 256)
	for i := range p {
		p[i] = color.RGBA{uint8(i), uint8(i * 3), uint8(i * 7), 255}
	}
	return p
}
