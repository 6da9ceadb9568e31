package viewstate

import (
	"net/url"
	"reflect"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name  string
		state State
		query string
	}{
		{"a file", State{URL: "https://h.org/d/a.arrow"}, "url=https://h.org/d/a.arrow"},
		{"a signed URL keeps its own query escaped", State{URL: "https://s3.example/a?X-Sig=a&b=c d"},
			"url=https://s3.example/a%3FX-Sig%3Da%26b%3Dc+d"},
		{"row and schema", State{URL: "u", Row: 17, Schema: true}, "row=17&schema=1&url=u"},
		{"sort and filter", State{URL: "u", Sort: "-mean(emb)", Filter: "label = 'cat' and score > 0.9", Row: 3},
			"filter=label+%3D+%27cat%27+and+score+%3E+0.9&row=3&sort=-mean%28emb%29&url=u"},
		{"a mask over thumbnails", State{URL: "u", HasThumbMasks: true, ThumbMasks: []string{"image:annotation"}},
			"thumbmask=image:annotation&url=u"},
		{"masks over thumbnails, in order, names with , and :", State{URL: "u", HasThumbMasks: true, ThumbMasks: []string{"b:x:y", "a,1:m"}},
			"thumbmask=b:x:y&thumbmask=a,1:m&url=u"},
		{"thumbnails without masks", State{URL: "u", HasThumbMasks: true}, "thumbmask=&url=u"},
		{"embed", State{URL: "u", Embed: true, Origin: "https://docs.example"}, "embed=1&origin=https://docs.example&url=u"},
		{"inspector, defaults", State{URL: "u", Inspector: &Inspector{Field: "image", Row: 3}}, "f=image&r=3&url=u"},
		{"inspector, everything", State{Row: 5, Inspector: &Inspector{Field: "t", Row: 1, View: View{Physical: true, Axes: &Axes{Y: 3, X: 2, Channel: -1},
			Index: []int{0, 2, 0, 0}, FlipY: true, FlipX: true, Colormap: "magma", Range: "p1-99", Zoom: 2.5, PanX: -10.5, PanY: 3}}},
			"ch=-1&cmap=magma&f=t&flip=yx&i=0,2,0,0&pan=-10.5,3.0&phys=1&r=1&range=p1-99&row=5&x=2&y=3&zoom=2.500"},
		{"inspector, overlay", State{URL: "u", Inspector: &Inspector{Field: "image", Row: 2, Mask: &Mask{Column: ptr("annotation")}}},
			"f=image&overlay=annotation&r=2&url=u"},
		{"inspector, overlay turned off", State{URL: "u", Inspector: &Inspector{Field: "image", Mask: &Mask{Column: ptr("")}}},
			"f=image&overlay=&r=0&url=u"},
		{"inspector, overlay's style", State{URL: "u", Inspector: &Inspector{Field: "image", Mask: &Mask{Column: ptr("mask"),
			Opacity: ptr(70), Outline: true, Hidden: &[]int64{0, 2, -1}}}},
			"f=image&hide=0,2,-1&opacity=70&outline=1&overlay=mask&r=0&url=u"},
		{"inspector, every class shown", State{URL: "u", Inspector: &Inspector{Field: "image", Mask: &Mask{Column: ptr("mask"),
			Opacity: ptr(0), Hidden: &[]int64{}}}},
			"f=image&hide=&opacity=0&overlay=mask&r=0&url=u"},
		{"inspector, boxes and their format", State{URL: "u", Inspector: &Inspector{Field: "image", Row: 4, Boxes: &Boxes{Column: ptr("objects"), Format: "xyxy"}}},
			"boxes=objects&boxfmt=xyxy&f=image&r=4&url=u"},
		{"inspector, boxes turned off", State{URL: "u", Inspector: &Inspector{Field: "image", Boxes: &Boxes{Column: ptr("")}}},
			"boxes=&f=image&r=0&url=u"},
		{"inspector, a format for the default boxes", State{URL: "u", Inspector: &Inspector{Field: "image", Boxes: &Boxes{Format: "cxcywhn"}}},
			"boxfmt=cxcywhn&f=image&r=0&url=u"},
		{"compared with a column of the same row", State{URL: "u", Inspector: &Inspector{Field: "target", Row: 4, Compare: &Compare{Field: "prediction", Row: 4}}},
			"f=target&r=4&url=u&vs=prediction"},
		{"compared with another row, a tolerance, swiped", State{URL: "u", Inspector: &Inspector{Field: "target", Row: 4,
			Compare: &Compare{Field: "target", Row: 0, Tol: 0.03125, Swipe: ptr(40)}}},
			"f=target&r=4&swipe=40&tol=0.03125&url=u&vs=target@0"},
		{"compared with a field whose name ends in @ and digits", State{URL: "u", Inspector: &Inspector{Field: "t", Row: 1, Compare: &Compare{Field: "run@2", Row: 1}}},
			"f=t&r=1&url=u&vs=run@2@1"},
		{"compared with a field named with @", State{URL: "u", Inspector: &Inspector{Field: "t", Row: 1, Compare: &Compare{Field: "a@b", Row: 1}}},
			"f=t&r=1&url=u&vs=a@b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.state.Encode(nil)
			if got != c.query {
				t.Errorf("Encode = %q, want %q", got, c.query)
			}
			q, err := url.ParseQuery(got)
			if err != nil {
				t.Fatal(err)
			}
			if back := Parse(q); !reflect.DeepEqual(back, c.state) {
				t.Errorf("Parse(Encode) = %+v (inspector %+v), want %+v (inspector %+v)", back, back.Inspector, c.state, c.state.Inspector)
			}
		})
	}
}

func TestEncodeKeepsOthers(t *testing.T) {
	keep := url.Values{"cache": {"64"}, "row": {"99"}, "f": {"old"}}
	if got := (State{URL: "u"}).Encode(keep); got != "cache=64&url=u" {
		t.Errorf("Encode = %q, want the cache parameter kept and the old view dropped", got)
	}
	if keep.Get("row") != "99" {
		t.Error("Encode changed the values passed in")
	}
}

func TestParseVs(t *testing.T) {
	for _, c := range []struct {
		query string
		field string
		row   int64
		tol   float64
		swipe int // -1: none
	}{
		{"f=t&r=3&vs=pred", "pred", 3, 0, -1},
		{"f=t&r=3&vs=pred@3", "pred", 3, 0, -1},
		{"f=t&r=3&vs=t@0", "t", 0, 0, -1},
		{"f=t&r=3&vs=t@12&tol=1e-3&swipe=0", "t", 12, 0.001, 0},
		{"f=t&r=3&vs=pred@", "pred@", 3, 0, -1},          // no row after @: a name
		{"f=t&r=3&vs=pred@-1", "pred@-1", 3, 0, -1},      // no row: a name
		{"f=t&r=3&vs=pred@%2B1", "pred@+1", 3, 0, -1},    // no row: a name
		{"f=t&r=3&vs=a@b@7", "a@b", 7, 0, -1},            // the last @ decides
		{"f=t&r=3&vs=p&tol=-1&swipe=101", "p", 3, 0, -1}, // out of range: left out
		{"f=t&r=3&vs=p&tol=inf&swipe=x", "p", 3, 0, -1},
		{"f=t&r=3&vs=p&tol=NaN", "p", 3, 0, -1},
		{"f=t&r=3&tol=0.5&swipe=50", "", 0, 0, -1}, // no vs: no tolerance, no swipe
		{"f=t&r=3&vs=", "", 0, 0, -1},
		{"f=t&r=3&vs=@1", "", 0, 0, -1}, // no field
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		cmp := Parse(q).Inspector.Compare
		if (cmp == nil) != (c.field == "") {
			t.Errorf("%s: compare %+v, want field %q", c.query, cmp, c.field)
			continue
		}
		if cmp == nil {
			cmp = &Compare{}
		}
		swipe := -1
		if cmp.Swipe != nil {
			swipe = *cmp.Swipe
		}
		if cmp.Field != c.field || cmp.Row != c.row || cmp.Tol != c.tol || swipe != c.swipe {
			t.Errorf("%s: vs %q row %d tol %g swipe %d, want %q %d %g %d", c.query, cmp.Field, cmp.Row, cmp.Tol, swipe, c.field, c.row, c.tol, c.swipe)
		}
	}
}

func TestParseIgnoresNonsense(t *testing.T) {
	q, _ := url.ParseQuery("url=u&row=-4&f=t&r=x&y=1&x=nan&i=1,-2&zoom=1e9&pan=1,inf&flip=zz&opacity=101&outline=yes&hide=1,x")
	s := Parse(q)
	want := State{URL: "u", Inspector: &Inspector{Field: "t"}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Parse = %+v (inspector %+v), want %+v (inspector %+v)", s, s.Inspector, want, want.Inspector)
	}
}

// TestDatasetAddress: several url parameters, urls or hf name a dataset,
// kept in order through Parse and Encode.
func TestDatasetAddress(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"url=b.arrow&url=a.arrow&row=3", "row=3&url=b.arrow&url=a.arrow"},
		{"hf=owner%2Fname&split=test&f=image&r=4", "f=image&hf=owner/name&r=4&split=test"},
		{"urls=https%3A%2F%2Fexample.com%2Flist.txt", "urls=https://example.com/list.txt"},
		{"url=a.arrow", "url=a.arrow"},
	} {
		q, _ := url.ParseQuery(tt.in)
		s := Parse(q)
		if got := s.Encode(nil); got != tt.want {
			t.Errorf("%s: Encode = %s, want %s", tt.in, got, tt.want)
		}
		_, isSet := DatasetParams(s.URL)
		if isSet != (tt.in != "url=a.arrow") {
			t.Errorf("%s: URL %q names a dataset: %v", tt.in, s.URL, isSet)
		}
	}
}
