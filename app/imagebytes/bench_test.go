package imagebytes

import (
	"bytes"
	"image"
	"image/color"
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
