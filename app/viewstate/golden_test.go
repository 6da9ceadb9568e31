package viewstate

import (
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/addresses.golden from the current code")

const goldenFile = "addresses.golden"

// TestGolden reads generated addresses (valid, partly valid and nonsense)
// and plays generated action sequences through the Model, and compares
// what it got with testdata/addresses.golden byte for byte: each address
// with the State Parse reads and the queries Encode writes back, each
// sequence with every action's effects and the final state.
// go test -run TestGolden -update rewrites the file.
func TestGolden(t *testing.T) {
	var out strings.Builder
	g := &gen{seed: 0x9e3779b97f4a7c15}
	out.WriteString("# addresses: query | Parse | Encode(nil) | Encode(cache kept) | Encode(Parse(Encode)), = when the same\n")
	for i := range 1200 {
		raw := g.address(i)
		q, err := url.ParseQuery(raw)
		if err != nil {
			fmt.Fprintf(&out, "A %s\n  error %v\n", raw, err)
			continue
		}
		s := Parse(q)
		enc := s.Encode(nil)
		again, _ := url.ParseQuery(enc)
		enc2 := Parse(again).Encode(nil)
		if enc2 == enc {
			enc2 = "="
		}
		fmt.Fprintf(&out, "A %s\n  S %s\n  E %s\n  K %s\n  2 %s\n", raw, describe(s), enc,
			s.Encode(url.Values{"cache": {"64"}, "f": {"old"}}), enc2)
	}
	out.WriteString("# sequences: action -> effects; final state\n")
	for i := range 400 {
		g.sequence(&out, i)
	}
	path := filepath.Join("testdata", goldenFile)
	if *update {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for k := 0; k < len(gl) && k < len(wl); k++ {
			if gl[k] != wl[k] {
				t.Fatalf("line %d differs:\n got %s\nwant %s", k+1, gl[k], wl[k])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}

// gen is a deterministic generator (splitmix64) of addresses and actions.
type gen struct{ seed uint64 }

func (g *gen) next() uint64 {
	g.seed += 0x9e3779b97f4a7c15
	z := g.seed
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (g *gen) n(k int) int { return int(g.next() % uint64(k)) }

func (g *gen) pick(vs ...string) string { return vs[g.n(len(vs))] }

// params are the address parameters and values to draw from, nonsense
// included.
var params = []struct {
	key    string
	values []string
}{
	{"url", []string{"data/x.arrow", "https://h.org/a.arrow", "other.parquet", "https://s3.example/a?X-Sig=a&b=c d", "", "%zz"}},
	{"urls", []string{"https://example.com/list.txt", ""}},
	{"hf", []string{"owner/name", ""}},
	{"config", []string{"default"}},
	{"split", []string{"test", "train"}},
	{"row", []string{"0", "17", "-4", "x", "3"}},
	{"schema", []string{"1", "0", "yes"}},
	{"embed", []string{"1", "0"}},
	{"origin", []string{"https://docs.example", ""}},
	{"sort", []string{"score", "-mean(emb)", ""}},
	{"filter", []string{"label = 'cat' and score > 0.9", ""}},
	{"thumbmask", []string{"image:annotation", "", "b:x:y", "a,1:m"}},
	{"cache", []string{"64"}},
	{"f", []string{"image", "t", "", "x@1", "target"}},
	{"r", []string{"0", "1", "4", "-1", "x", "2"}},
	{"phys", []string{"1", "0"}},
	{"y", []string{"0", "1", "3", "-1", "nan"}},
	{"x", []string{"0", "2", "1", "-2", ""}},
	{"ch", []string{"-1", "0", "2", "-2", "z"}},
	{"i", []string{"0,2,0,0", "0,0", "1,-2", ",,", "3", ""}},
	{"flip", []string{"y", "x", "yx", "xy", "zz", ""}},
	{"cmap", []string{"magma", "gray", ""}},
	{"range", []string{"p1-99", "minmax", ""}},
	{"zoom", []string{"2.5", "1", "64", "65", "0.5", "NaN", "1e9", "3.14159"}},
	{"pan", []string{"-10.5,3", "1,inf", ",", "0,0", "12.34,-5.67", "1e7,0", "x"}},
	{"overlay", []string{"annotation", "", "mask", "pred"}},
	{"opacity", []string{"70", "0", "100", "101", "-1", "x"}},
	{"outline", []string{"1", "yes", "0"}},
	{"hide", []string{"0,2,-1", "", "1,x", "255", "0"}},
	{"boxes", []string{"objects", "", "width"}},
	{"boxfmt", []string{"xyxy", "cxcywhn", "voc", ""}},
	{"vs", []string{"prediction", "target@0", "run@2@1", "a@b", "a@b@7", "pred@", "pred@-1", "pred@+1", "@1", "", "image@4"}},
	{"tol", []string{"0.03125", "1e-3", "-1", "inf", "NaN", "0", "x"}},
	{"swipe", []string{"40", "0", "100", "101", "x"}},
}

// seeds are addresses written by hand: the tests' and the fuzz seeds.
var seeds = []string{
	"url=https://h.org/a.arrow&row=17&schema=1&f=t&r=1&y=3&x=2&ch=-1&i=0,2,0,0&flip=yx&cmap=magma&range=p1-99&zoom=2.5&pan=-10.5,3",
	"f=&r=-1&i=,,&zoom=NaN&pan=,",
	"embed=1&origin=https://docs.example&url=%zz",
	"f=image&r=0&boxes=objects&boxfmt=xyxy&overlay=&hide=",
	"f=t&r=3&vs=a@b@7&tol=1e-3&swipe=40",
	"f=t&r=3&vs=run@2@3&tol=-0",
	"url=u&row=-4&f=t&r=x&y=1&x=nan&i=1,-2&zoom=1e9&pan=1,inf&flip=zz&opacity=101&outline=yes&hide=1,x",
	"url=b.arrow&url=a.arrow&row=3",
	"hf=owner%2Fname&split=test&f=image&r=4",
	"urls=https%3A%2F%2Fexample.com%2Flist.txt",
	"",
	"url=a.arrow",
}

// address is the i-th generated address's raw query.
func (g *gen) address(i int) string {
	if i < len(seeds) {
		return seeds[i]
	}
	var parts []string
	inspector := g.n(4) != 0
	for _, p := range params {
		chance := 4
		if p.key == "f" && inspector {
			chance = 1
		}
		if g.n(chance) != 0 {
			continue
		}
		for range 1 + g.n(2)*g.n(2) { // sometimes repeated
			parts = append(parts, p.key+"="+url.QueryEscape(g.pick(p.values...)))
		}
	}
	for k := len(parts) - 1; k > 0; k-- { // in any order
		j := g.n(k + 1)
		parts[k], parts[j] = parts[j], parts[k]
	}
	return strings.Join(parts, "&")
}

// sequence plays the i-th generated action sequence through a Model.
func (g *gen) sequence(out *strings.Builder, i int) {
	start := g.pick("?url=data/x.arrow", "?url=data/x.arrow&embed=1&origin=https://docs.example",
		"?url=data/x.arrow&f=image&r=2&cmap=magma", "", "?cache=64&url=data/x.arrow&row=3&schema=1")
	fmt.Fprintf(out, "Q %d start %q\n", i, start)
	d := &driver{out: out, m: NewModel(base + start), entries: []entry{{query: start}}}
	d.do(Link{Query: start})
	if start != "" {
		d.do(fileOpened("x.arrow", base+"data/x.arrow"))
	}
	for range 4 + g.n(24) {
		d.do(g.action(d))
	}
	fmt.Fprintf(out, "  final %s settled=%v entry=%q\n", describe(d.m.State()), d.m.Settled(), d.entries[d.at].query)
}

func fileOpened(name, u string) FileOpened {
	return FileOpened{Name: name, URL: u, Has: func(field string, row int64) bool { return field != "missing" && row < 6 }}
}

// action is a generated action; nil for a browser move or a timer, which
// the driver carries out itself.
func (g *gen) action(d *driver) Action {
	row := int64(g.n(4))
	switch g.n(17) {
	case 0:
		return ScrollRow{Row: int64(g.n(30))}
	case 1:
		return SetSchema{Open: g.n(2) == 0}
	case 2:
		return SetQuery{Sort: g.pick("", "score", "-mean(emb)"), Filter: g.pick("", "score > 1")}
	case 3:
		return SetThumbMasks{Has: g.n(2) == 0, On: [][]string{nil, {"image:mask"}, {"a:b", "c:d"}}[g.n(3)]}
	case 4, 5:
		return OpenInspector{Field: g.pick("image", "missing", "t"), Row: row, Vs: g.pick("", "", "mask", "image"), VsRow: int64(g.n(3))}
	case 6, 7:
		q, _ := url.ParseQuery("f=x&" + g.address(len(seeds)+g.n(1000)))
		in := *Parse(q).Inspector
		in.Field, in.Row = g.pick("image", "image", "t"), row
		if cur := d.m.State().Inspector; cur != nil && g.n(3) != 0 {
			in.Field, in.Row = cur.Field, cur.Row
		}
		return InspectorChanged{Inspector: in}
	case 8:
		return CloseInspector{}
	case 9:
		return SetNested{Levels: [][]Level{nil, {{Field: "x", Row: 1}}}[g.n(2)]}
	case 10:
		return Link{Query: g.pick("?url=data/x.arrow&f=image&r=1", "?url=data/y.arrow", "?row=4&url=data/x.arrow", "")}
	case 11:
		q := g.address(len(seeds) + g.n(1000))
		return PopState{Query: "?" + q, Step: g.n(2) == 0}
	case 12:
		if n := len(d.opened); n > 0 && g.n(3) != 0 {
			u := d.m.resolve(d.opened[n-1])
			return fileOpened(filepath.Base(u), u)
		}
		return fileOpened("dropped.arrow", "")
	case 13:
		d.flush()
	case 14:
		d.deliver()
	case 15:
		d.move(1 - 2*g.n(2))
	case 16:
		for _, w := range d.waits {
			d.do(TraversalLost{Gen: w})
		}
		d.waits = nil
	}
	return nil
}

// driver is a browser's history for a Model, as browser (model_test.go),
// writing every action and its effects.
type driver struct {
	out     *strings.Builder
	m       *Model
	entries []entry
	at      int
	pops    int
	timers  []int
	waits   []int
	opened  []string
}

func (d *driver) do(a Action) {
	if a == nil {
		return
	}
	fmt.Fprintf(d.out, "  %s ->", describeAction(a))
	for _, e := range d.m.Do(a) {
		fmt.Fprintf(d.out, " %T%+v", e, e)
		switch e := e.(type) {
		case Replace:
			d.entries[d.at] = entry{e.Query, e.Step}
		case Push:
			d.entries = append(d.entries[:d.at+1], entry{e.Query, true})
			d.at++
		case Back:
			d.pops++
		case Schedule:
			d.timers = append(d.timers, e.Gen)
		case WaitTraversal:
			d.waits = append(d.waits, e.Gen)
		case OpenURL:
			d.opened = append(d.opened, e.URL)
		}
	}
	d.out.WriteString("\n")
}

func (d *driver) flush() {
	ts := d.timers
	d.timers = nil
	for _, g := range ts {
		d.do(Flush{Gen: g})
	}
}

func (d *driver) deliver() {
	for d.pops > 0 {
		d.pops--
		d.move(-1)
	}
}

func (d *driver) move(n int) {
	if d.at+n < 0 || d.at+n >= len(d.entries) {
		return
	}
	d.at += n
	e := d.entries[d.at]
	d.do(PopState{Query: e.query, Step: e.step})
}

func describeAction(a Action) string {
	switch a := a.(type) {
	case InspectorChanged:
		return "InspectorChanged{" + describeInspector(&a.Inspector) + "}"
	case FileOpened:
		return fmt.Sprintf("FileOpened{%s %s %v}", a.Name, a.URL, a.Schema)
	}
	return fmt.Sprintf("%T%+v", a, a)
}

// describe writes s field by field, each group of the inspector only when
// the address has it.
func describe(s State) string {
	t := fmt.Sprintf("url=%q row=%d schema=%v embed=%v origin=%q sort=%q filter=%q", s.URL, s.Row, s.Schema, s.Embed, s.Origin, s.Sort, s.Filter)
	if s.HasThumbMasks {
		t += fmt.Sprintf(" thumbmask=%q", s.ThumbMasks)
	}
	if len(s.Nested) > 0 {
		t += fmt.Sprintf(" nested=%v", s.Nested)
	}
	if s.Inspector != nil {
		t += " inspector{" + describeInspector(s.Inspector) + "}"
	}
	return t
}

func describeInspector(in *Inspector) string {
	v := in.View
	t := fmt.Sprintf("%q/%d phys=%v", in.Field, in.Row, v.Physical)
	if a := v.Axes; a != nil {
		t += fmt.Sprintf(" axes=%d,%d,%d", a.Y, a.X, a.Channel)
	}
	t += fmt.Sprintf(" i=%v flip=%v,%v cmap=%q range=%q zoom=%v pan=%v,%v", v.Index, v.FlipY, v.FlipX, v.Colormap, v.Range, v.Zoom, v.PanX, v.PanY)
	m := in.Mask
	if m == nil {
		m = &Mask{}
	}
	if m.Column != nil {
		t += fmt.Sprintf(" overlay=%q", *m.Column)
	}
	if m.Opacity != nil {
		t += fmt.Sprintf(" opacity=%d", *m.Opacity)
	}
	t += fmt.Sprintf(" outline=%v", m.Outline)
	if m.Hidden != nil {
		t += fmt.Sprintf(" hide=%v", *m.Hidden)
	}
	if b := in.Boxes; b != nil {
		if b.Column != nil {
			t += fmt.Sprintf(" boxes=%q", *b.Column)
		}
		if b.Format != "" {
			t += fmt.Sprintf(" boxfmt=%q", b.Format)
		}
	}
	if c := in.Compare; c != nil {
		t += fmt.Sprintf(" vs=%q@%d tol=%v", c.Field, c.Row, c.Tol)
		if c.Swipe != nil {
			t += fmt.Sprintf(" swipe=%d", *c.Swipe)
		}
	}
	return t
}
