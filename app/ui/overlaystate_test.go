//go:build !wasm

package ui

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/viewstate"
)

// TestOverlayState: the default drawn, a link's overlay, what the address
// says, hiding a class, the picture cached until something changes.
func TestOverlayState(t *testing.T) {
	f := decodetest.Open(t, "masks_tensor.arrow")
	image := decodetest.Column(t, f, "image")
	ten, _ := f.Tensor(0, image)
	s := inspect.NewSession(ten, 8)
	o := newOverlay(f, 0, image, overlay.Style{})
	if st := addressOf(o); o.field() != "mask" || st != (overlayAddress{HasOverlay: true, Overlay: "mask"}) {
		t.Errorf("default: drawn %q, address %+v; want mask", o.field(), st)
	}
	img, m, off := o.picture(s)
	if img == s.Image || m.Values == nil || off != "" {
		t.Fatalf("no blend: %v", off)
	}
	if again, _, _ := o.picture(s); again != img {
		t.Error("the same picture blended twice")
	}
	if !o.toggleClass(1) || !o.style.Hidden[1] || !o.style.Hidden[0] {
		t.Errorf("hidden after toggling 1: %v", o.style.Hidden)
	}
	o.setOpacity(0.7)
	o.setOutline(true)
	if st := addressOf(o); st != (overlayAddress{HasOverlay: true, Overlay: "mask", HasOpacity: true, Opacity: 70, Outline: true, HasHidden: true, Hidden: "[0 1]"}) {
		t.Errorf("styled: address %+v", st)
	}
	// The link's style, applied to a new inspector, is the same style.
	if s := linkStyle(overlay.Style{}, o.address()); s.Opacity != 0.7 || !s.Outline || !maps.Equal(s.Hidden, o.style.Hidden) {
		t.Errorf("linkStyle %+v, want %+v", s, o.style)
	}
	o.setOpacity(0.5)
	o.setOutline(false)
	items := o.legend()
	if len(items) != 5 || !items[0].Hidden || !items[1].Hidden || items[2].Hidden || items[4].Label != "7" {
		t.Errorf("legend %+v", items)
	}
	if again, _, _ := o.picture(s); again == img {
		t.Error("not blended again after a change")
	}
	o.restore("")
	if st := addressOf(o); o.field() != "" || st != (overlayAddress{HasOverlay: true}) {
		t.Errorf("none from a link: drawn %q, address %+v", o.field(), st)
	}
	if img, _, off := o.picture(s); img != s.Image || off != "" {
		t.Error("none: the picture is not the session's")
	}
	o.restore("nope")
	if o.note != "The link's overlay “nope” is no mask of this image." {
		t.Errorf("note %q", o.note)
	}
	o.restore("pred")
	if o.field() != "pred" || o.note != "" {
		t.Errorf("pred: drawn %q note %q", o.field(), o.note)
	}
	// A row whose mask is of another size says so, and keeps the picture.
	f = decodetest.Open(t, "masks_hf.arrow")
	image = decodetest.Column(t, f, "image")
	ten, _ = f.Tensor(1, image)
	s = inspect.NewSession(ten, 8)
	o = newOverlay(f, 1, image, overlay.Style{})
	if st := addressOf(o); st != (overlayAddress{}) || o.field() != "" {
		t.Errorf("row 1: drawn %q by default, address %+v", o.field(), st)
	}
	o.restore("annotation")
	if img, _, off := o.picture(s); img != s.Image || off != "No overlay: annotation is 6×8 but image is 12×16 (height × width)." {
		t.Errorf("row 1: %q", off)
	}
}

// overlayAddress is what overlayState.address writes, comparable.
type overlayAddress struct {
	HasOverlay         bool
	Overlay            string
	HasOpacity         bool
	Opacity            int
	Outline, HasHidden bool
	Hidden             string
}

func addressOf(o *overlayState) overlayAddress {
	var a overlayAddress
	m := o.address()
	if m == nil {
		return a
	}
	if m.Column != nil {
		a.HasOverlay, a.Overlay = true, *m.Column
	}
	if m.Opacity != nil {
		a.HasOpacity, a.Opacity = true, *m.Opacity
	}
	a.Outline = m.Outline
	if m.Hidden != nil {
		a.HasHidden, a.Hidden = true, fmt.Sprint(*m.Hidden)
	}
	return a
}

// TestInspectorOverlayLink mounts the inspector on a link's state: the
// overlay and its style named there are applied, and reported back.
func TestInspectorOverlayLink(t *testing.T) {
	f := decodetest.Open(t, "masks_tensor.arrow")
	e := app.NewTestEngine()
	link := &viewstate.Inspector{Field: "image", Mask: &viewstate.Mask{Column: ptr("pred"), Opacity: ptr(30), Hidden: &[]int64{}}}
	in := &Inspector{File: f, Col: decodetest.Column(t, f, "image"), Row: 0, Restore: link}
	if err := e.Load(in); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if in.ov == nil || in.ov.field() != "pred" || in.ov.style.Opacity != 0.3 || len(in.ov.style.Hidden) != 0 {
		t.Fatalf("overlay %+v", in.ov)
	}
	if got := addressOf(in.ov); got != (overlayAddress{HasOverlay: true, Overlay: "pred", HasOpacity: true, Opacity: 30, HasHidden: true, Hidden: "[]"}) {
		t.Errorf("reported %+v", got)
	}
}

// TestVoidOverlay: masks_voc.arrow's paletted mask has a void 255, hidden
// by default and listed as "void"; shown from the legend, the address says
// so and a link gives it back; the binary foreground keeps 255 as a class;
// hiding class 0's default shown writes the rest.
func TestVoidOverlay(t *testing.T) {
	f := decodetest.Open(t, "masks_voc.arrow")
	image := decodetest.Column(t, f, "image")
	o := newOverlay(f, 0, image, overlay.Style{})
	if got := masks.Fields(o.choices); !reflect.DeepEqual(got, []string{"mask", "foreground"}) || o.field() != "mask" {
		t.Fatalf("choices %q, drawn %q", got, o.field())
	}
	if !o.layer.Void {
		t.Fatal("the VOC mask's 255 is not void")
	}
	legendOf := func(o *overlayState) string {
		var s []string
		for _, it := range o.legend() {
			s = append(s, fmt.Sprintf("%s:%v", it.Label, !it.Hidden))
		}
		return strings.Join(s, " ")
	}
	legend := func() string { return legendOf(o) }
	if got, want := legend(), "0:false 1:true 15:true 255 (void):false"; got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	if st := addressOf(o); st.HasHidden {
		t.Errorf("default address %+v", st)
	}
	o.toggleClass(overlay.VoidID)
	if got, want := legend(), "0:false 1:true 15:true 255 (void):true"; got != want || !o.style.ShowVoid {
		t.Errorf("void shown: %q, want %q", got, want)
	}
	st := addressOf(o)
	if st.Hidden != "[0]" || !st.HasHidden {
		t.Errorf("void shown: address %+v", st)
	}
	o2 := newOverlay(f, 0, image, linkStyle(overlay.Style{}, o.address()))
	if got := legendOf(o2); got != "0:false 1:true 15:true 255 (void):true" || addressOf(o2) != st {
		t.Errorf("the link: %q, %+v", got, addressOf(o2))
	}
	o.toggleClass(overlay.VoidID)
	o.toggleClass(0)
	if got, want := legend(), "0:true 1:true 15:true 255 (void):false"; got != want {
		t.Errorf("0 shown, void hidden: %q, want %q", got, want)
	}
	if st := addressOf(o); st.Hidden != "[255]" {
		t.Errorf("0 shown: address %+v", st)
	}

	// The binary foreground: 0 and 255, 255 a class.
	o.choose(1)
	if o.layer.Void {
		t.Error("the binary mask's 255 is void")
	}
	if got, want := legend(), "0:true 255:true"; got != want {
		t.Errorf("foreground legend %q, want %q", got, want)
	}
}

// TestWideIDs: ids past 255 and past the names are drawn in their own
// colours, listed, and the unnamed ones said.
func TestWideIDs(t *testing.T) {
	f := decodetest.Open(t, "masks_wide.arrow")
	image := decodetest.Column(t, f, "image")
	o := newOverlay(f, 0, image, overlay.Style{})
	if got := masks.Fields(o.choices); !reflect.DeepEqual(got, []string{"label", "instances"}) || o.field() != "label" {
		t.Fatalf("choices %q, drawn %q", got, o.field())
	}
	var labels []string
	for _, it := range o.legend() {
		labels = append(labels, it.Label)
	}
	if want := []string{`0 "background"`, `1 "road"`, `2 "car"`, "300", "70000"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("legend %q, want %q", labels, want)
	}
	if got := unnamedNote(o.unnamed(), len(o.layer.Names)); got != "Classes 300 and 70000 are not among the file's 4 class names: shown by id." {
		t.Errorf("note %q", got)
	}
	o.choose(1)
	labels = nil
	for _, it := range o.legend() {
		labels = append(labels, it.Label)
		if it.Color != overlay.VOC(it.ID) {
			t.Errorf("%d: colour %v", it.ID, it.Color)
		}
	}
	if want := []string{"0", "7", "255", "26000", "26001"}; !reflect.DeepEqual(labels, want) || o.layer.Void || o.unnamed() != nil {
		t.Errorf("instances: legend %q (void %v, unnamed %v)", labels, o.layer.Void, o.unnamed())
	}
	if got := unnamedNote([]int64{7}, 1); got != "Class 7 is not among the file's 1 class name: shown by id." {
		t.Errorf("note %q", got)
	}
}
