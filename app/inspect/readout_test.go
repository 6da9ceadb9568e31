package inspect

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

func TestValueAt(t *testing.T) {
	// Physical [2,3,4] int32 = 100*i + 10*j + k, permutation [2,0,1]:
	// logical shape [4,2,3], logical (a,b,c) = physical (b,c,a).
	phys := make([]int32, 24)
	for i := 0; i < 2; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 4; k++ {
				phys[i*12+j*4+k] = int32(100*i + 10*j + k)
			}
		}
	}
	l := fixed(t, arrow.PrimitiveTypes.Int32, []int{2, 3, 4}, []int{2, 0, 1}, nil, phys).Logical()
	for _, flip := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		v := View{Y: 0, X: 2, Channel: -1, Index: []int{0, 1, 0}, FlipY: flip[0], FlipX: flip[1]}
		for y := 0; y < 4; y++ {
			for x := 0; x < 3; x++ {
				a, c := y, x
				if v.FlipY {
					a = 3 - y
				}
				if v.FlipX {
					c = 2 - x
				}
				idx, text, ok := ValueAt(l, v, x, y)
				wantIdx := []int{a, 1, c}
				want := fmt.Sprint(100*1 + 10*c + a) // physical (b, c, a) = (1, c, a)
				if !ok || !reflect.DeepEqual(idx, wantIdx) || text != want {
					t.Errorf("flip %v (%d,%d): %v %q %v, want %v %q", flip, x, y, idx, text, ok, wantIdx, want)
				}
				// The rendered pixel agrees with the readout.
				img := mustRender(t, l, v, gray256(), Range{0, 256})
				if got := fmt.Sprint(px(img, x, y).R); got != want {
					t.Errorf("flip %v (%d,%d): pixel %s, readout %s", flip, x, y, got, want)
				}
			}
		}
	}
	for _, p := range [][2]int{{-1, 0}, {0, -1}, {3, 0}, {0, 4}} {
		if idx, text, ok := ValueAt(l, View{Y: 0, X: 2, Channel: -1}, p[0], p[1]); ok || idx != nil || text != "" {
			t.Errorf("outside %v: %v %q %v", p, idx, text, ok)
		}
	}
	if _, _, ok := ValueAt(l, View{Y: 0, X: 0, Channel: -1}, 0, 0); ok {
		t.Error("invalid view")
	}

	// Text: nulls, NaN, float16 exactly (a subnormal arrow-go misreads),
	// booleans, colour pixels.
	nul := withNulls(t, arrow.PrimitiveTypes.Float64, []int{1, 3}, []float64{1.5, 0, math.NaN()}, map[int]bool{1: true})
	for x, want := range []string{"1.5", "(null)", "NaN"} {
		if _, text, _ := ValueAt(nul, View{Y: 0, X: 1, Channel: -1}, x, 0); text != want {
			t.Errorf("text %d = %q, want %q", x, text, want)
		}
	}
	h := fixed(t, arrow.FixedWidthTypes.Float16, []int{1, 3}, nil, nil, []float16.Num{half(0x0001), half(0x3555), half(0xfc00)})
	for x, want := range []string{"5.9604645e-08", "0.33325195", "-Inf"} {
		if _, text, _ := ValueAt(h, View{Y: 0, X: 1, Channel: -1}, x, 0); text != want {
			t.Errorf("float16 text %d = %q, want %q", x, text, want)
		}
	}
	b := fixed(t, arrow.FixedWidthTypes.Boolean, []int{1, 2}, nil, nil, []bool{true, false})
	if _, text, _ := ValueAt(b, View{Y: 0, X: 1, Channel: -1}, 1, 0); text != "false" {
		t.Errorf("bool text %q", text)
	}
	rgb := fixed(t, arrow.PrimitiveTypes.Uint8, []int{2, 1, 3}, nil, nil, []uint8{1, 2, 3, 4, 5, 6})
	idx, text, ok := ValueAt(rgb, View{Y: 0, X: 1, Channel: 2}, 0, 1)
	if !ok || !reflect.DeepEqual(idx, []int{1, 0, -1}) || text != "[4 5 6]" {
		t.Errorf("rgb: %v %q %v", idx, text, ok)
	}
}

func TestNeighbourhood(t *testing.T) {
	vals := make([]int32, 12)
	for i := range vals {
		vals[i] = int32(i)
	}
	ten := fixed(t, arrow.PrimitiveTypes.Int32, []int{3, 4}, nil, nil, vals)
	got := Neighbourhood(ten, View{Y: 0, X: 1, Channel: -1}, 0, 1, 1)
	want := [][]string{{"", "0", "1"}, {"", "4", "5"}, {"", "8", "9"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// Flipped X: image column 0 is tensor column 3.
	got = Neighbourhood(ten, View{Y: 0, X: 1, Channel: -1, FlipX: true}, 0, 0, 1)
	want = [][]string{{"", "", ""}, {"", "3", "2"}, {"", "7", "6"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flipped: got %q, want %q", got, want)
	}
	if got := Neighbourhood(ten, View{Y: 0, X: 1, Channel: -1}, 3, 2, 0); !reflect.DeepEqual(got, [][]string{{"11"}}) {
		t.Errorf("radius 0: %q", got)
	}
	for _, c := range []struct{ x, y, r int }{{4, 0, 1}, {0, 0, -1}, {0, 0, MaxNeighbourhoodRadius + 1}} {
		if got := Neighbourhood(ten, View{Y: 0, X: 1, Channel: -1}, c.x, c.y, c.r); got != nil {
			t.Errorf("%v: %q", c, got)
		}
	}
}
