package viewstate

import (
	"net/url"
	"reflect"
	"strconv"
	"testing"
)

// FuzzParse reads any address query (links are typed, edited and shared):
// Parse never fails, and what it reads survives Encode and Parse again.
func FuzzParse(f *testing.F) {
	f.Add("url=https://h.org/a.arrow&row=17&schema=1&f=t&r=1&y=3&x=2&ch=-1&i=0,2,0,0&flip=yx&cmap=magma&range=p1-99&zoom=2.5&pan=-10.5,3")
	f.Add("f=&r=-1&i=,,&zoom=NaN&pan=,")
	f.Add("embed=1&origin=https://docs.example&url=%zz")
	f.Add("f=image&r=0&boxes=objects&boxfmt=xyxy&overlay=&hide=")
	f.Add("f=t&r=3&vs=a@b@7&tol=1e-3&swipe=40")
	f.Add("f=t&r=3&vs=run@2@3&tol=-0")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		s := Parse(q)
		again, err := url.ParseQuery(s.Encode(nil))
		if err != nil {
			t.Fatalf("Encode wrote a query that does not parse: %v", err)
		}
		if back := Parse(again); !reflect.DeepEqual(normal(back), normal(s)) {
			t.Fatalf("Parse(Encode(Parse(%q))) = %+v %+v, want %+v %+v", raw, back, back.Inspector, s, s.Inspector)
		}
	})
}

// normal drops what Encode leaves out on purpose: an origin without embed,
// all-zero slider positions, zoom 1, rounding of
// zoom and pan to what the address keeps.
func normal(s State) State {
	if !s.Embed {
		s.Origin = ""
	}
	if in := s.Inspector; in != nil {
		c := *in
		v := &c.View
		if allZero(v.Index) {
			v.Index = nil
		}
		if v.Zoom <= 1 {
			v.Zoom = 0
		}
		v.Zoom, v.PanX, v.PanY = kept(v.Zoom, 3), kept(v.PanX, 1), kept(v.PanY, 1)
		s.Inspector = &c
	}
	return s
}

// kept is f as the address keeps it, with prec decimals.
func kept(f float64, prec int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', prec, 64), 64)
	return v
}
