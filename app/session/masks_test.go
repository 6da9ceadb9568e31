package session

import (
	"github.com/tensorview/tensorview/app/decode/decodetest"
	"reflect"
	"testing"
)

func TestThumbPairs(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"masks_tensor.arrow", []string{"image:mask"}}, // pred is named like a mask too, but ranks below (probabilities)
		{"masks_hf.arrow", []string{"image:annotation"}},
		{"masks_named.arrow", []string{"image:label"}}, // a 2-D List of ClassLabel (a dialect)
		{"js_big.arrow", []string{"image:mask"}},       // sizes vary: checked row by row
		{"boxes_hf.arrow", nil},
		{"compare.arrow", nil},
		{"js_images.arrow", nil},
	} {
		var got []string
		for _, p := range ThumbPairs(decodetest.Open(t, c.file)) {
			got = append(got, p.Key())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: pairs %q, want %q", c.file, got, c.want)
		}
	}
}

func TestThumbMaskAddress(t *testing.T) {
	pairs := []ThumbPair{{Image: 0, Mask: 1, ImageField: "image", MaskField: "annotation"}, {Image: 2, Mask: 3, ImageField: "rgb", MaskField: "seg"}}
	on := func(m []ThumbMask) []bool {
		var out []bool
		for _, x := range m {
			out = append(out, x.On)
		}
		return out
	}
	for _, c := range []struct {
		name    string
		has     bool
		on      []string
		want    []bool
		toggle  string
		wantHas bool
		wantOn  []string
	}{
		{"default: all on; one off", false, nil, []bool{true, true}, "rgb:seg", true, []string{"image:annotation"}},
		{"none on; one on", true, nil, []bool{false, false}, "image:annotation", true, []string{"image:annotation"}},
		{"the last off turned on: the default", true, []string{"image:annotation"}, []bool{true, false}, "rgb:seg", false, nil},
		{"names of no pair are ignored", true, []string{"rgb:seg", "image:mask"}, []bool{false, true}, "rgb:seg", true, nil},
	} {
		m := ThumbMasksOf(pairs, c.has, c.on)
		if got := on(m); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: on %v, want %v", c.name, got, c.want)
		}
		next, ok := Toggled(m, c.toggle)
		if !ok {
			t.Fatalf("%s: no pair %q", c.name, c.toggle)
		}
		if on(m)[0] != c.want[0] || on(m)[1] != c.want[1] {
			t.Errorf("%s: toggleMask changed its input", c.name)
		}
		has, list := ThumbMaskAddress(next)
		if has != c.wantHas || !reflect.DeepEqual(list, c.wantOn) {
			t.Errorf("%s: after toggling %s: address %v %q, want %v %q", c.name, c.toggle, has, list, c.wantHas, c.wantOn)
		}
		if back := on(ThumbMasksOf(pairs, has, list)); !reflect.DeepEqual(back, on(next)) {
			t.Errorf("%s: the address reads back as %v, want %v", c.name, back, on(next))
		}
	}
	if _, ok := Toggled(ThumbMasksOf(pairs, false, nil), "image:seg"); ok {
		t.Error("toggled a pair that is not offered")
	}
	if a, b := MasksKey(ThumbMasksOf(pairs, false, nil)), MasksKey(ThumbMasksOf(pairs, true, []string{"rgb:seg"})); a == b {
		t.Errorf("masksKey %q for both", a)
	}
}
