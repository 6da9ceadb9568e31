package imagebytes

import (
	"bytes"
	"image"
	"image/jpeg"
	"testing"
)

func decoded4K(b *testing.B) *image.YCbCr {
	m, err := jpeg.Decode(bytes.NewReader(photo4K(b)))
	if err != nil {
		b.Fatal(err)
	}
	return m.(*image.YCbCr)
}

// The parts of Decode and DecodePreview on a decoded 4K JPEG: the YCbCr to
// RGB conversion, the RGBA area filter (the path for other images) and the
// per-plane filter colour JPEGs take, and allocating the tensor.
func BenchmarkConvert4K(b *testing.B) {
	m := decoded4K(b)
	pix := make([]byte, 3840*2160*3)
	span := ycbcrSpan(m, nil, 0, 3)
	b.ResetTimer()
	for b.Loop() {
		for y := range 2160 {
			span(y, 0, 3840, pix[y*3840*3:(y+1)*3840*3])
		}
	}
}

func BenchmarkDownscale4K(b *testing.B) {
	m := decoded4K(b)
	read := rowReader(m, 3840, 3)
	b.ResetTimer()
	for b.Loop() {
		downscale(read, 3840, 2160, 256, true)
	}
}

func BenchmarkAlloc4K(b *testing.B) {
	for b.Loop() {
		pix := make([]byte, 3840*2160*3)
		pix[len(pix)-1] = 1
	}
}

func BenchmarkPreviewPlanes4K(b *testing.B) {
	m := decoded4K(b)
	b.ResetTimer()
	for b.Loop() {
		downscaleYCbCr(m, 256, 144)
	}
}
