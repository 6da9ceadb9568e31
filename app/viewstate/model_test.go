package viewstate

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// browser plays the page's history for a Model: it applies the Model's
// effects as a browser would, except that a Back and the timers wait for
// the test to deliver them, so that tests can interleave them with user
// actions in every order.
type browser struct {
	t       *testing.T
	m       *Model
	entries []entry
	at      int
	pops    int   // history.back() calls not yet delivered
	timers  []int // generations of scheduled writes not yet fired
	waits   []int // traversal timeouts not yet fired
	opened  []string
	posts   []Post
}

type entry struct {
	query string
	step  bool
}

const base = "https://example.org/tensorview/"

func newBrowser(t *testing.T, query string) *browser {
	b := &browser{t: t, m: NewModel(base + query), entries: []entry{{query: query}}}
	b.do(Link{Query: query})
	return b
}

// openedBrowser is a page loaded from the link "?url=data/x.arrow" with
// that file (x.arrow: 6 rows, a field "image") open.
func openedBrowser(t *testing.T) *browser {
	b := newBrowser(t, "?url=data/x.arrow")
	b.open("x.arrow", base+"data/x.arrow")
	return b
}

// do applies a to the Model and runs its effects.
func (b *browser) do(a Action) {
	b.t.Helper()
	for _, e := range b.m.Do(a) {
		switch e := e.(type) {
		case Replace:
			b.entries[b.at] = entry{e.Query, e.Step}
		case Push:
			b.entries = append(b.entries[:b.at+1], entry{e.Query, true})
			b.at++
		case Back:
			b.pops++
		case Schedule:
			b.timers = append(b.timers, e.Gen)
		case WaitTraversal:
			b.waits = append(b.waits, e.Gen)
		case Post:
			b.posts = append(b.posts, e)
		case OpenURL:
			b.opened = append(b.opened, e.URL)
		default:
			b.t.Fatalf("unknown effect %T", e)
		}
	}
}

// deliver lets the browser carry out the Model's Backs.
func (b *browser) deliver() {
	for b.pops > 0 {
		b.pops--
		b.move(-1)
	}
}

// fire fires the scheduled writes' timers.
func (b *browser) fire() {
	ts := b.timers
	b.timers = nil
	for _, g := range ts {
		b.do(Flush{Gen: g})
	}
}

// move is the browser going n entries back (n < 0) or forward, with its
// popstate.
func (b *browser) move(n int) {
	b.t.Helper()
	if b.at+n < 0 || b.at+n >= len(b.entries) {
		return
	}
	b.at += n
	e := b.entries[b.at]
	b.do(PopState{Query: e.query, Step: e.step})
}

// open is a file opened by the page (for an OpenURL, or dropped).
func (b *browser) open(name, url string) {
	b.do(FileOpened{Name: name, URL: url, Has: func(field string, row int64) bool {
		return field != "missing" && row < 6
	}})
}

// address is the current entry's query.
func (b *browser) address() string { return b.entries[b.at].query }

// shows is the inspector shown as "field/row", or "" when closed.
func (b *browser) shows() string {
	if in := b.m.State().Inspector; in != nil {
		return fmt.Sprintf("%s/%d", in.Field, in.Row)
	}
	return ""
}

// addressShows is the inspector the current entry names, as shows.
func (b *browser) addressShows() string {
	s := parseQuery(b.address())
	if in := s.Inspector; in != nil {
		return fmt.Sprintf("%s/%d", in.Field, in.Row)
	}
	return ""
}

// settle delivers everything pending.
func (b *browser) settle() {
	for b.pops > 0 || len(b.timers) > 0 {
		b.deliver()
		b.fire()
	}
}

// check is the page settled on want (the inspector shown and named by
// the address).
func (b *browser) check(when, want string) {
	b.t.Helper()
	b.settle()
	if got := b.shows(); got != want {
		b.t.Errorf("%s: shows %q, want %q", when, got, want)
	}
	if got := b.addressShows(); got != want {
		b.t.Errorf("%s: address %q names %q, want %q", when, b.address(), got, want)
	}
	if !b.m.Settled() {
		b.t.Errorf("%s: not settled", when)
	}
}

// TestCloseThenOpen closes the inspector (Escape or ×, or the browser's
// Back) and opens another tensor with the Model's Back, its popstate, the
// inspector's report and the scheduled writes in every order: the last
// tensor opened shows, the address names it, Back closes it, Forward
// reopens it.
func TestCloseThenOpen(t *testing.T) {
	// Each step is one event: the user's actions and the browser's.
	steps := map[string]func(b *browser){
		"report0": func(b *browser) {
			b.do(InspectorChanged{Inspector{Field: "image", Row: 0, View: View{Axes: &Axes{Y: 0, X: 1, Channel: 2}, Colormap: "gray"}}})
		},
		"report1": func(b *browser) {
			b.do(InspectorChanged{Inspector{Field: "image", Row: 1, View: View{Axes: &Axes{Y: 0, X: 1, Channel: 2}, Colormap: "viridis"}}})
		},
		"close": func(b *browser) { b.do(CloseInspector{}) },
		"open1": func(b *browser) { b.do(OpenInspector{Field: "image", Row: 1}) },
		"pop":   func(b *browser) { b.deliver() },
		"timer": func(b *browser) { b.fire() },
		"row":   func(b *browser) { b.do(ScrollRow{Row: 3}) },
	}
	orders := [][]string{
		{"close", "pop", "open1"},
		{"close", "open1", "pop"},
		{"close", "open1", "report1", "pop"},
		{"close", "open1", "report1", "timer", "pop"},
		{"close", "open1", "pop", "report1", "timer"},
		{"report0", "close", "open1", "timer", "pop"},
		{"report0", "close", "timer", "open1", "pop"},
		{"report0", "close", "open1", "report0", "pop", "timer"},
		{"report0", "close", "open1", "pop", "report0", "timer", "report1"},
		{"report0", "row", "close", "open1", "row", "timer", "pop", "report1", "timer"},
		{"close", "open1", "row", "pop", "timer"},
	}
	for _, order := range orders {
		t.Run(strings.Join(order, ","), func(t *testing.T) {
			b := openedBrowser(t)
			b.do(OpenInspector{Field: "image", Row: 0})
			for _, s := range order {
				steps[s](b)
			}
			b.check("after "+strings.Join(order, ","), "image/1")
			b.move(-1)
			b.check("Back", "")
			b.move(+1)
			b.check("Forward", "image/1")
			if in := b.m.State().Inspector; in.View.Colormap != "" && in.View.Colormap != "viridis" {
				t.Errorf("Forward restores colormap %q, want row 1's", in.View.Colormap)
			}
			b.move(-1)
			b.check("Back again", "")
			if len(b.entries) != 2 {
				t.Errorf("history %v, want 2 entries", b.entries)
			}
		})
	}
}

// TestOpenCompared: a tensor opened compared with another (two cells
// selected in the grid) is one step whose address holds vs=: a column of
// the same row by name, another row as field@row; Back closes it.
func TestOpenCompared(t *testing.T) {
	for _, c := range []struct {
		open OpenInspector
		vs   string
	}{
		{OpenInspector{Field: "image", Row: 2, Vs: "mask", VsRow: 2}, "mask"},
		{OpenInspector{Field: "image", Row: 2, Vs: "image", VsRow: 4}, "image@4"},
		{OpenInspector{Field: "image", Row: 0, Vs: "mask", VsRow: 3}, "mask@3"},
	} {
		b := openedBrowser(t)
		b.do(c.open)
		want := fmt.Sprintf("%s/%d", c.open.Field, c.open.Row)
		b.check("opened", want)
		q, err := url.ParseQuery(strings.TrimPrefix(b.address(), "?"))
		if err != nil || q.Get("vs") != c.vs {
			t.Errorf("%+v: address %q, want vs=%s", c.open, b.address(), c.vs)
		}
		if in := parseQuery(b.address()).Inspector; in == nil || in.Compare == nil || in.Compare.Field != c.open.Vs || in.Compare.Row != c.open.VsRow {
			t.Errorf("%+v: the address reads back as %+v", c.open, in)
		}
		b.move(-1)
		b.check("Back", "")
	}
}

// TestBrowserBackThenOpen: the browser's own Back closes the inspector,
// and a tensor opened after it is a new step.
func TestBrowserBackThenOpen(t *testing.T) {
	b := openedBrowser(t)
	b.do(OpenInspector{Field: "image", Row: 0})
	b.do(InspectorChanged{Inspector{Field: "image", Row: 0, View: View{Axes: &Axes{Y: 1, X: 0, Channel: -1}}}})
	b.move(-1)
	b.check("Back", "")
	b.do(OpenInspector{Field: "image", Row: 1})
	b.check("open row 1", "image/1")
	b.move(-1)
	b.check("Back", "")
	b.move(+1)
	b.check("Forward", "image/1")
}

// TestForwardRestoresSettings: Forward reopens the inspector with the
// settings it had when it was closed (they were written before the Back).
func TestForwardRestoresSettings(t *testing.T) {
	b := openedBrowser(t)
	b.do(OpenInspector{Field: "image", Row: 2})
	b.do(InspectorChanged{Inspector{Field: "image", Row: 2, View: View{Axes: &Axes{Y: 1, X: 0, Channel: -1}, Colormap: "magma", Zoom: 4}}})
	b.do(CloseInspector{}) // before the timer: the write is flushed first
	b.check("closed", "")
	b.move(+1)
	b.check("Forward", "image/2")
	if v := b.m.State().Inspector.View; v.Colormap != "magma" || v.Zoom != 4 || v.Axes == nil || v.Axes.Y != 1 {
		t.Errorf("Forward restores %+v, want magma, zoom 4, y 1", v)
	}
}

// TestSchemaThenOpen: closing the schema panel then opening a tensor at
// once; Back closes the tensor only, and the panel stays closed.
func TestSchemaThenOpen(t *testing.T) {
	b := newBrowser(t, "?url=data/x.arrow&schema=1")
	b.open("x.arrow", base+"data/x.arrow")
	if !b.m.State().Schema {
		t.Fatal("the link's schema panel is closed")
	}
	b.do(SetSchema{Open: false})
	b.do(OpenInspector{Field: "image", Row: 4})
	b.check("open", "image/4")
	b.move(-1)
	b.check("Back", "")
	if b.m.State().Schema || strings.Contains(b.address(), "schema") {
		t.Errorf("Back reopened the schema panel: %q", b.address())
	}
	// The schema panel opened and closed around an inspector's Back.
	b.do(OpenInspector{Field: "image", Row: 0})
	b.do(SetSchema{Open: true})
	b.do(CloseInspector{})
	b.do(SetSchema{Open: false})
	b.check("closed", "")
	if b.m.State().Schema || strings.Contains(b.address(), "schema") {
		t.Errorf("schema panel %v, address %q: want closed", b.m.State().Schema, b.address())
	}
}

// TestQuery: a sort or filter applied replaces the current entry (Back
// leaves the file's view, as for the schema panel) and starts the rows
// from the result's first; a link's sort and filter reach the file it
// opens, the inspector opened from the result keeps them on its entry and
// Back returns to the result.
func TestQuery(t *testing.T) {
	b := openedBrowser(t)
	b.do(ScrollRow{Row: 4})
	b.do(SetQuery{Sort: "-score", Filter: "label = 'cat'"})
	b.settle()
	want := "?filter=label+%3D+%27cat%27&sort=-score&url=data/x.arrow"
	if b.address() != want || len(b.entries) != 1 || b.m.State().Row != 0 {
		t.Errorf("after SetQuery: address %q (%d entries), row %d; want %q in place, row 0", b.address(), len(b.entries), b.m.State().Row, want)
	}
	if b.do(SetQuery{Sort: "-score", Filter: "label = 'cat'"}); len(b.timers) > 0 || b.address() != want {
		t.Error("the same query again wrote the address")
	}
	b.do(ScrollRow{Row: 2})
	b.do(OpenInspector{Field: "image", Row: 5})
	b.check("inspector from the result", "image/5")
	if s := parseQuery(b.address()); s.Sort != "-score" || s.Filter != "label = 'cat'" || s.Row != 2 {
		t.Errorf("the inspector's entry %q lost the result's view", b.address())
	}
	b.move(-1)
	b.check("Back", "")
	if st := b.m.State(); st.Sort != "-score" || st.Filter != "label = 'cat'" {
		t.Errorf("Back: sort %q, filter %q", st.Sort, st.Filter)
	}
	b.do(SetQuery{})
	b.settle()
	if strings.Contains(b.address(), "sort") || strings.Contains(b.address(), "filter") {
		t.Errorf("cleared: address %q", b.address())
	}

	// A link in a fresh page.
	b = newBrowser(t, "?url=data/x.arrow&sort=-mean(emb)&filter=score+%3E+1&row=7")
	b.open("x.arrow", base+"data/x.arrow")
	if st := b.m.State(); st.Sort != "-mean(emb)" || st.Filter != "score > 1" || st.Row != 7 {
		t.Errorf("link: %+v", st)
	}
	// A dropped file takes a link's query too.
	b = newBrowser(t, "?sort=id")
	b.open("dropped.arrow", "")
	if st := b.m.State(); st.Sort != "id" {
		t.Errorf("a dropped file after a link of sort=id: %+v", st)
	}
}

// TestThumbMasks: the masks the thumbnails show are written in place at
// once; a link's reach the file it opens, a dropped file's too; another
// file opened starts from its default.
func TestThumbMasks(t *testing.T) {
	b := openedBrowser(t)
	b.do(SetThumbMasks{Has: true})
	b.settle()
	if want := "?thumbmask=&url=data/x.arrow"; b.address() != want || len(b.entries) != 1 {
		t.Errorf("off: address %q (%d entries), want %q in place", b.address(), len(b.entries), want)
	}
	if b.do(SetThumbMasks{Has: true}); len(b.timers) > 0 {
		t.Error("the same masks again scheduled a write")
	}
	b.do(SetThumbMasks{Has: true, On: []string{"image:mask"}})
	b.settle()
	if want := "?thumbmask=image:mask&url=data/x.arrow"; b.address() != want {
		t.Errorf("on: address %q, want %q", b.address(), want)
	}
	b.do(OpenInspector{Field: "image", Row: 1})
	b.check("inspector", "image/1")
	if s := parseQuery(b.address()); !s.HasThumbMasks || !reflect.DeepEqual(s.ThumbMasks, []string{"image:mask"}) {
		t.Errorf("the inspector's entry %q lost the thumbnails' masks", b.address())
	}
	b.move(-1)
	b.check("Back", "")
	b.do(SetThumbMasks{})
	b.settle()
	if strings.Contains(b.address(), "thumbmask") {
		t.Errorf("default: address %q", b.address())
	}

	b = newBrowser(t, "?url=data/x.arrow&thumbmask=")
	b.open("x.arrow", base+"data/x.arrow")
	if st := b.m.State(); !st.HasThumbMasks || st.ThumbMasks != nil {
		t.Errorf("link: %+v", st)
	}
	b.open("y.arrow", base+"data/y.arrow")
	if st := b.m.State(); st.HasThumbMasks {
		t.Errorf("another file: %+v, want the default", st)
	}
	b = newBrowser(t, "?thumbmask=img:seg")
	b.open("dropped.arrow", "")
	if st := b.m.State(); !reflect.DeepEqual(st.ThumbMasks, []string{"img:seg"}) {
		t.Errorf("a dropped file after a link of thumbmask=img:seg: %+v", st)
	}
}

// TestOpenCloseDuringTraversal: a tensor opened and closed again before
// the Model's Back has landed leaves no entry behind.
func TestOpenCloseDuringTraversal(t *testing.T) {
	b := openedBrowser(t)
	b.do(OpenInspector{Field: "image", Row: 0})
	b.do(CloseInspector{})
	b.do(OpenInspector{Field: "image", Row: 1})
	b.do(CloseInspector{})
	b.check("settled", "")
	if len(b.entries) != 2 || b.at != 0 {
		t.Errorf("history %v at %d, want the file's entry and row 0's forward", b.entries, b.at)
	}
}

// TestStaleReport: a report of the inspector closed since is ignored.
func TestStaleReport(t *testing.T) {
	b := openedBrowser(t)
	b.do(OpenInspector{Field: "image", Row: 0})
	b.do(CloseInspector{})
	b.do(OpenInspector{Field: "image", Row: 1})
	b.do(InspectorChanged{Inspector{Field: "image", Row: 0, View: View{Colormap: "gray"}}})
	b.check("stale report", "image/1")
	if in := b.m.State().Inspector; in.View.Colormap != "" {
		t.Errorf("row 1 took row 0's report: %+v", in)
	}
}

// TestLinks: a link restores its whole view whether its url= is absolute
// or relative, in any order of its parameters and with any of them left
// out; the address keeps the link's form of the file's URL.
func TestLinks(t *testing.T) {
	for _, c := range []struct {
		link, want string
		row        int64
		axes       bool
	}{
		{"?url=data/x.arrow&f=image&r=1&y=0&x=1", "image/1", 0, true},
		{"?url=" + base + "data/x.arrow&f=image&r=1&y=0&x=1", "image/1", 0, true},
		{"?r=1&x=1&y=0&f=image&url=data/x.arrow", "image/1", 0, true},
		{"?url=./data/x.arrow&f=image&r=3", "image/3", 0, false},
		{"?url=/tensorview/data/x.arrow&row=5&f=image", "image/0", 5, false},
		{"?url=data/x.arrow&f=missing&r=1", "", 0, false},
		{"?url=data/x.arrow&f=image&r=99", "", 0, false},
	} {
		t.Run(c.link, func(t *testing.T) {
			b := newBrowser(t, c.link)
			if len(b.opened) != 1 {
				t.Fatalf("opened %v, want the link's file", b.opened)
			}
			b.open("x.arrow", base+"data/x.arrow")
			b.check("opened", c.want)
			st := b.m.State()
			if st.Row != c.row {
				t.Errorf("row %d, want %d", st.Row, c.row)
			}
			if in := st.Inspector; in != nil && (in.View.Axes != nil) != c.axes {
				t.Errorf("axes %v, want %v", in.View.Axes, c.axes)
			}
			if u := parseQuery(b.address()).URL; u != parseQuery(c.link).URL {
				t.Errorf("address url %q, want the link's %q", u, parseQuery(c.link).URL)
			}
		})
	}
}

// TestLinkOtherFile: a link's view is not applied to another file opened
// first, and a popstate to another file's entry opens that file with its
// view.
func TestLinkOtherFile(t *testing.T) {
	b := newBrowser(t, "?url=data/x.arrow&f=image&r=1")
	b.open("y.arrow", base+"data/y.arrow") // typed or dropped meanwhile
	b.check("other file", "")
	b.do(Link{Query: "?url=data/z.arrow&row=4"}) // a sample clicked: go-app pushed it
	b.entries = append(b.entries, entry{query: "?url=data/z.arrow&row=4"})
	b.at++
	b.open("z.arrow", base+"data/z.arrow")
	if b.m.State().Row != 4 {
		t.Errorf("row %d, want 4", b.m.State().Row)
	}
	b.move(-1)
	if got := b.opened[len(b.opened)-1]; got != base+"data/y.arrow" {
		t.Errorf("Back opens %q, want y.arrow", got)
	}
}

// TestReloadedStep: a page reloaded on an inspector's entry the Model
// pushed closes it by going Back; one loaded from a link replaces it.
func TestReloadedStep(t *testing.T) {
	b := newBrowser(t, "?url=data/x.arrow")
	b.entries = []entry{{query: "?url=data/x.arrow"}, {query: "?url=data/x.arrow&f=image&r=2", step: true}}
	b.at = 1
	b.m = NewModel(base)
	b.do(Link{Query: b.address(), Step: true})
	b.open("x.arrow", base+"data/x.arrow")
	b.check("reloaded", "image/2")
	b.do(CloseInspector{})
	b.check("closed", "")
	if b.at != 0 {
		t.Errorf("at entry %d, want the one before the inspector", b.at)
	}

	l := newBrowser(t, "?url=data/x.arrow&f=image&r=2")
	l.open("x.arrow", base+"data/x.arrow")
	l.do(CloseInspector{})
	l.check("closed", "")
	if len(l.entries) != 1 {
		t.Errorf("history %v, want the link's one entry", l.entries)
	}
}

// TestStaleTimer: a scheduled write made stale by a step writes nothing.
func TestStaleTimer(t *testing.T) {
	b := openedBrowser(t)
	b.do(ScrollRow{Row: 7})
	old := b.timers
	b.timers = nil
	b.do(OpenInspector{Field: "image", Row: 0})
	if got := parseQuery(b.entries[0].query).Row; got != 7 {
		t.Errorf("the file's entry has row %d, want 7 (flushed before the push)", got)
	}
	b.do(CloseInspector{})
	b.deliver()
	before := append([]entry(nil), b.entries...)
	for _, g := range old {
		b.do(Flush{Gen: g})
	}
	if fmt.Sprint(before) != fmt.Sprint(b.entries) {
		t.Errorf("a stale timer wrote %v over %v", b.entries, before)
	}
}

// TestTraversalLost: a Back whose popstate never comes still lets the
// Model write, once its timeout fires.
func TestTraversalLost(t *testing.T) {
	b := openedBrowser(t)
	b.do(OpenInspector{Field: "image", Row: 0})
	b.do(CloseInspector{})
	b.pops = 0 // the browser dropped it
	b.do(ScrollRow{Row: 2})
	if b.m.Settled() {
		t.Fatal("settled while waiting for the traversal")
	}
	for _, g := range b.waits {
		b.do(TraversalLost{Gen: g})
	}
	b.fire()
	if !b.m.Settled() || parseQuery(b.address()).Row != 2 {
		t.Errorf("settled %v, address %q: want row 2 written", b.m.Settled(), b.address())
	}
}

// TestEmbed: an embedded page never pushes nor goes Back, and tells its
// host every change of the view, a file it posted included.
func TestEmbed(t *testing.T) {
	b := newBrowser(t, "?embed=1&origin=https://docs.example")
	b.open("posted.arrow", "")
	if len(b.posts) == 0 || b.posts[len(b.posts)-1].File != "posted.arrow" {
		t.Fatalf("posts %v, want one for the posted file", b.posts)
	}
	b.do(OpenInspector{Field: "image", Row: 1})
	b.do(CloseInspector{})
	if len(b.entries) != 1 || b.pops != 0 {
		t.Errorf("embed history %v, backs %d: want one entry, no Back", b.entries, b.pops)
	}
	b.do(ScrollRow{Row: 3})
	n := len(b.posts)
	b.fire()
	if len(b.posts) != n+1 || !strings.Contains(b.posts[n].Query, "row=3") {
		t.Errorf("posts %v, want one with row=3 after the write", b.posts[n:])
	}
	if !strings.Contains(b.posts[n].Query, "embed=1") {
		t.Errorf("post %q lacks the embed parameters", b.posts[n].Query)
	}
}

// TestNested: an inspector in a nested record batch is not in the address
// and is closed in place.
func TestNested(t *testing.T) {
	b := newBrowser(t, "?url=data/t.arrow")
	b.open("t.arrow", base+"data/t.arrow")
	b.do(SetNested{Levels: []Level{{Field: "value", Row: 2}}})
	b.do(OpenInspector{Field: "x", Row: 0})
	if len(b.entries) != 1 || b.addressShows() != "" {
		t.Errorf("nested inspector wrote %v", b.entries)
	}
	b.do(CloseInspector{})
	b.check("closed", "")
}

// TestKeepsUnowned: parameters the State does not own stay in the address.
func TestKeepsUnowned(t *testing.T) {
	b := newBrowser(t, "?url=data/x.arrow&cache=64")
	b.open("x.arrow", base+"data/x.arrow")
	b.do(OpenInspector{Field: "image", Row: 0})
	if !strings.Contains(b.address(), "cache=64") {
		t.Errorf("address %q lost cache=64", b.address())
	}
}

// FuzzModel plays any sequence of user actions, Backs, Forwards, popstates
// and timers through the Model: once everything pending is delivered, the
// page is settled and the address names the inspector shown.
func FuzzModel(f *testing.F) {
	f.Add([]byte{3, 4, 7, 3, 5, 6, 1})
	f.Add([]byte{3, 2, 4, 8, 3, 9, 0, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		b := openedBrowser(t)
		for i, op := range ops {
			switch op % 10 {
			case 0:
				b.do(ScrollRow{Row: int64(i)})
			case 1:
				b.do(SetSchema{Open: i%2 == 0})
			case 2:
				b.do(InspectorChanged{Inspector{Field: "image", Row: int64(op/10) % 3, View: View{Colormap: "gray"}}})
			case 3:
				b.do(OpenInspector{Field: "image", Row: int64(op/10) % 3})
			case 4:
				b.do(CloseInspector{})
			case 5:
				b.deliver()
			case 6:
				b.fire()
			case 7:
				b.move(-1)
			case 8:
				b.move(+1)
			case 9:
				for _, g := range b.waits {
					b.do(TraversalLost{Gen: g})
				}
				b.waits = nil
			}
		}
		b.settle()
		if b.shows() != b.addressShows() || !b.m.Settled() {
			t.Fatalf("after %v: shows %q, address %q names %q, settled %v", ops, b.shows(), b.address(), b.addressShows(), b.m.Settled())
		}
	})
}
