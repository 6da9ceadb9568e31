package inspect

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// benchView shows index 2 of dimension 0 of a [4,1024,1024] tensor.
var benchView = View{Y: 1, X: 2, Channel: -1, Index: []int{2, 0, 0}}

// benchValues returns 4×1024×1024 pseudo-random values in 0..1.
func benchValues() []float32 {
	vals := make([]float32, 4*1024*1024)
	x := uint32(1)
	for i := range vals {
		x = x*1664525 + 1013904223
		vals[i] = float32(x>>8) / (1 << 24)
	}
	return vals
}

func benchRender(b *testing.B, perm []int) {
	ten := fixed(b, arrow.PrimitiveTypes.Float32, []int{4, 1024, 1024}, perm, nil, benchValues()).Logical()
	v := benchView
	cm, _ := ColormapByName("viridis")
	r := Range{0, 1}
	dst, err := RenderInto(nil, ten, v, cm, r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := RenderInto(dst, ten, v, cm, r); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(1024*1024), "ns/pixel")
}

// BenchmarkRender1024Float32 draws a contiguous 1024×1024 float32 slice
// (index 2 of dimension 0 of a [4,1024,1024] tensor) with viridis, reusing
// the image (RenderInto).
func BenchmarkRender1024Float32(b *testing.B) { benchRender(b, nil) }

// BenchmarkRender1024Float32Permuted draws the same slice from a tensor
// whose logical view is the transpose of its storage (permutation [0 2 1]):
// X has stride 1024, so every pixel reads a different cache line.
func BenchmarkRender1024Float32Permuted(b *testing.B) { benchRender(b, []int{0, 2, 1}) }

// BenchmarkRender1024Float32New is Render allocating a new image each time.
func BenchmarkRender1024Float32New(b *testing.B) {
	ten := fixed(b, arrow.PrimitiveTypes.Float32, []int{4, 1024, 1024}, nil, nil, benchValues()).Logical()
	v := benchView
	cm, _ := ColormapByName("viridis")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Render(ten, v, cm, Range{0, 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAutoRange1024P1to99 computes the 1st–99th percentile range of
// the same slice.
func BenchmarkAutoRange1024P1to99(b *testing.B) {
	ten := fixed(b, arrow.PrimitiveTypes.Float32, []int{4, 1024, 1024}, nil, nil, benchValues()).Logical()
	v := benchView
	b.ReportAllocs()
	for b.Loop() {
		AutoRange(ten, v, P1to99)
	}
}
