//go:build !wasm

package ui

import (
	"slices"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/open"
)

// TestInspectorNative mounts the inspector in go-app's test engine on the
// rgb column of testdata/js_images.arrow (uint8 [4,3,3], dims H,W,C, written
// by apache-arrow JS): it opens a session in RGB, titles the dialog with the
// field and row, applies commands, opens another row and shows the error of
// a null tensor.
func TestInspectorNative(t *testing.T) {
	f := decodetest.Open(t, "js_images.arrow")
	e := app.NewTestEngine()
	in := &Inspector{File: f, Col: decodetest.Column(t, f, "rgb"), Row: 0}
	if err := e.Load(in); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	s := in.session
	if s == nil {
		t.Fatalf("no session: %s", in.err)
	}
	if s.View.Channel != 2 || s.View.Y != 0 || s.View.X != 1 || s.Image == nil || s.Image.Bounds().Dx() != 3 || s.Image.Bounds().Dy() != 4 {
		t.Errorf("view %+v, image %v: want H×W = 4×3 in RGB", s.View, s.Image.Bounds())
	}
	// Row 0's first pixel is (0, 0, 255), as js_expected.json says.
	if c := s.Image.RGBAAt(0, 0); c.R != 0 || c.G != 0 || c.B != 255 || c.A != 255 {
		t.Errorf("pixel (0,0) = %v, want 0,0,255", c)
	}
	// backdrop > dialog > header > title > text
	if err := app.Match(app.Text("rgb, row 0"), in, 0, 0, 0, 0, 0); err != nil {
		t.Error(err)
	}
	// A command: the channel dimension becomes a slider.
	if !in.apply(func(s *inspect.Session) bool { return s.SetChannel(-1) }) || !slices.Equal(s.Sliders(), []int{2}) {
		t.Errorf("after SetChannel(-1): sliders %v, want [2]", s.Sliders())
	}
	if in.apply(func(s *inspect.Session) bool { return s.SetChannel(0) }) {
		t.Error("SetChannel(0) applied: dimension 0 is the picture's rows")
	}

	// Another row: a new session; row 1's first pixel is (0, 255, 0).
	in.Row = 1
	in.load()
	if in.session == s || in.session == nil || in.session.View.Channel != 2 {
		t.Fatalf("row 1: session %p (was %p), err %q", in.session, s, in.err)
	}
	if c := in.session.Image.RGBAAt(0, 0); c.R != 0 || c.G != 255 || c.B != 0 {
		t.Errorf("row 1 pixel (0,0) = %v, want 0,255,0", c)
	}
	// Row 2 is null: no session, the error in an alert.
	in.Row = 2
	in.load()
	if in.session != nil || in.err != "this tensor is null" {
		t.Errorf("null row: session %v, err %q", in.session != nil, in.err)
	}
	if err := app.Match(app.P().Class("alert").Role("alert"), in.Render(), 0, 1); err != nil {
		t.Error(err)
	}
	if err := app.Match(app.Text("this tensor is null"), in.Render(), 0, 1, 0); err != nil {
		t.Error(err)
	}
}

// TestStatsPanelNative renders the statistics of a tensor with the exact
// values of its data-* hooks and rows.
func TestStatsPanelNative(t *testing.T) {
	f := decodetest.Open(t, "js_images.arrow")
	ten, err := f.Tensor(1, decodetest.Column(t, f, "gray")) // [2,4] float32 10, 10.5, ..., 13.5
	if err != nil {
		t.Fatal(err)
	}
	p := &StatsPanel{Stats: inspect.ComputeStats(ten, 4), Shape: ten.Shape, ValueType: ten.ValueType().String()}
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	want := app.Section().Class("stats").Attr("data-role", "stats").Attr("data-min", "10").Attr("data-max", "13.5").Attr("data-nan", 0)
	if err := app.Match(want, p, 0); err != nil {
		t.Error(err)
	}
	// section > dl > a row > dd > its text (Match compares an element's
	// tag and attributes, a text node its text)
	for row, want := range map[int]string{0: "[2,4]", 1: "float32", 2: "8", 6: "10", 7: "13.5", 8: "11.75"} {
		if err := app.Match(app.Text(want), p, 0, 1, row, 1, 0); err != nil {
			t.Errorf("row %d: %v", row, err)
		}
	}
}

// TestViewerNative renders the page in go-app's test engine: a refused
// file's alert names the file and the one still shown.
func TestViewerNative(t *testing.T) {
	f := decodetest.Open(t, "js_images.arrow")
	v := &Viewer{opener: open.Opener{Status: open.Status{State: open.StateError, Loading: "bad.arrow", ErrText: "not an Arrow IPC file or stream"}}}
	v.session().Do(session.Opened{File: f})
	e := app.NewTestEngine()
	if err := e.Load(v); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	// viewer > second messages box > alert > strong, span, span
	for k, want := range []string{"Cannot open bad.arrow. ", "not an Arrow IPC file or stream", " Still showing js_images.arrow."} {
		if err := app.Match(app.Text(want), v, 0, 3, 0, k, 0); err != nil {
			t.Errorf("alert part %d: %v", k, err)
		}
	}
}

// TestThemeCycle: the toggle goes system → light → dark → system, and an
// unknown remembered value starts from the system's.
func TestThemeCycle(t *testing.T) {
	got := []string{}
	for th, i := "", 0; i < 4; i++ {
		got = append(got, themeLabel(th))
		th = nextTheme(th)
	}
	want := []string{"Theme: system", "Theme: light", "Theme: dark", "Theme: system"}
	if !slices.Equal(got, want) {
		t.Errorf("cycle %q, want %q", got, want)
	}
	if nextTheme("sepia") != "" {
		t.Error("an unknown theme does not restart the cycle")
	}
}
