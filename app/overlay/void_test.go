package overlay

import (
	"image/color"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func counted(ids ...int64) []ClassCount {
	out := make([]ClassCount, len(ids))
	for i, id := range ids {
		out[i] = ClassCount{ID: id, Pixels: 1}
	}
	return out
}

// TestHasVoid: the rule that reads 255 as void.
func TestHasVoid(t *testing.T) {
	four := []string{"background", "aeroplane", "bicycle", "bird"}
	many := make([]string, 256)
	for _, c := range []struct {
		name   string
		src    IDSource
		counts []ClassCount
		names  []string
		want   bool
	}{
		{"VOC palette PNG", PaletteIDs, counted(0, 1, 15, 255), nil, true},
		{"VOC palette PNG, background and void only", PaletteIDs, counted(0, 255), nil, true},
		{"palette PNG with high ids", PaletteIDs, counted(0, 230, 255), nil, true},
		{"palette PNG without 255", PaletteIDs, counted(0, 1, 15), nil, false},
		{"palette PNG naming 255", PaletteIDs, counted(0, 1, 255), many, false},
		{"Cityscapes trainIds", Uint8IDs, counted(0, 1, 2, 13, 18, 255), nil, true},
		{"COCO-Stuff ids up to 181", Uint8IDs, counted(0, 181, 255), nil, true},
		{"uint8 with four names", Uint8IDs, counted(0, 3, 255), four, true},
		{"binary 0 and 255", Uint8IDs, counted(0, 255), nil, false},
		{"binary, foreground only", Uint8IDs, counted(255), nil, false},
		{"a grey picture", Uint8IDs, counted(0, 3, 120, 201, 254, 255), nil, false},
		{"levels up to 200", Uint8IDs, counted(0, 100, 200, 255), nil, false},
		{"levels below 200", Uint8IDs, counted(0, 100, 199, 255), nil, true},
		{"uint8 without 255", Uint8IDs, counted(0, 1, 2), nil, false},
		{"uint16: 255 is a class", OtherIDs, counted(0, 1, 255), nil, false},
		{"nothing", Uint8IDs, nil, nil, false},
	} {
		if got := HasVoid(c.src, c.counts, c.names); got != c.want {
			t.Errorf("%s: HasVoid = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestVoidStyleAndLegend: void hidden by default, shown with ShowVoid, its
// label; the blend leaves void pixels as they are; unnamed ids.
func TestVoidStyleAndLegend(t *testing.T) {
	s := DefaultStyle()
	if d := s.For(true); !reflect.DeepEqual(d.Hidden, map[int64]bool{0: true, 255: true}) || len(s.Hidden) != 1 {
		t.Errorf("void hidden: %v (style's own %v)", d.Hidden, s.Hidden)
	}
	if d := s.For(false); !reflect.DeepEqual(d.Hidden, map[int64]bool{0: true}) {
		t.Errorf("no void: %v", d.Hidden)
	}
	s.ShowVoid = true
	if d := s.For(true); !reflect.DeepEqual(d.Hidden, map[int64]bool{0: true}) {
		t.Errorf("void shown: %v", d.Hidden)
	}
	if d := (Style{}).For(true); !reflect.DeepEqual(d.Hidden, map[int64]bool{255: true}) {
		t.Errorf("nil Hidden: %v", d.Hidden)
	}

	mask := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{1, 4}, nil, nil, []uint8{0, 1, 255, 255})
	counts, _ := CountClasses(mask, 0.5)
	names := []string{"background", "aeroplane"}
	items := DefaultStyle().Legend(counts, names, true)
	want := []LegendItem{
		{ID: 0, Name: "background", Label: `0 "background"`, Color: VOC(0), Pixels: 1, Hidden: true},
		{ID: 1, Name: "aeroplane", Label: `1 "aeroplane"`, Color: VOC(1), Pixels: 1},
		{ID: 255, Name: "void", Label: "255 (void)", Color: VOC(255), Pixels: 2, Hidden: true, Void: true},
	}
	if !reflect.DeepEqual(items, want) {
		t.Errorf("legend\n%+v\nwant\n%+v", items, want)
	}
	if items := DefaultStyle().Legend(counts, names, false); items[2].Label != "255" || items[2].Hidden || items[2].Void {
		t.Errorf("255 as a class: %+v", items[2])
	}

	// Blend at opacity 1 over white: void left white, class 1 painted.
	white := color.RGBA{255, 255, 255, 255}
	dst := filled(4, 1, white)
	if err := Blend(dst, mask, Style{Opacity: 1, Hidden: map[int64]bool{0: true}}.For(true)); err != nil {
		t.Fatal(err)
	}
	if got := []color.RGBA{at(dst, 0, 0), at(dst, 1, 0), at(dst, 2, 0), at(dst, 3, 0)}; !reflect.DeepEqual(got, []color.RGBA{white, {128, 0, 0, 255}, white, white}) {
		t.Errorf("blend %v", got)
	}

	if got := MaskLabel(names, true, 255); got != "255 (void)" {
		t.Errorf("MaskLabel = %q", got)
	}
	if got := MaskLabel(names, false, 300); got != "300" {
		t.Errorf("MaskLabel = %q", got)
	}
	for _, c := range []struct {
		ids   []int64
		names []string
		void  bool
		want  []int64
	}{
		{[]int64{-1, 0, 1, 2, 255, 300, 70000}, names, true, []int64{-1, 2, 300, 70000}},
		{[]int64{0, 1, 255}, names, false, []int64{255}},
		{[]int64{0, 1, 255}, nil, false, nil},
		{[]int64{0, 1}, names, false, nil},
	} {
		if got := Unnamed(counted(c.ids...), c.names, c.void); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Unnamed(%v, %v) = %v, want %v", c.ids, c.void, got, c.want)
		}
	}
}
