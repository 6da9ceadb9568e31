package grid

import (
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

func TestGridActOf(t *testing.T) {
	for _, c := range []struct {
		k    keyPress
		want gridAct
	}{
		{keyPress{Key: "ArrowDown"}, actMove},
		{keyPress{Key: "End", Ctrl: true}, actMove},
		{keyPress{Key: "PageUp"}, actMove},
		{keyPress{Key: "Enter"}, actOpen},
		{keyPress{Key: " "}, actOpen},
		{keyPress{Key: " ", Shift: true}, actSelect},
		{keyPress{Key: "Escape"}, actClear},
		{keyPress{Key: "a"}, actNone},
		{keyPress{Key: "/"}, actNone},
		{keyPress{Key: "Tab"}, actNone},
	} {
		if got := gridActOf(c.k); got != c.want {
			t.Errorf("gridActOf(%+v) = %d, want %d", c.k, got, c.want)
		}
	}
}

func TestCellActOf(t *testing.T) {
	tensor := decode.FieldInfo{Name: "image", Tensor: &decode.TensorField{}}
	images := decode.FieldInfo{Name: "png", Images: true}
	nested := decode.FieldInfo{Name: "turtle", Nested: true}
	plain := decode.FieldInfo{Name: "id"}
	shown := &summary.Cell{Tensor: &summary.Tensor{}}
	null := &summary.Cell{Null: true}
	text := &summary.Cell{Text: "3"}
	batch := &summary.Cell{Nested: &summary.Nested{}}
	for _, c := range []struct {
		name string
		act  gridAct
		f    decode.FieldInfo
		cell *summary.Cell
		want cellAct
	}{
		{"Enter on a tensor", actOpen, tensor, shown, cellInspect},
		{"Enter on an image", actOpen, images, shown, cellInspect},
		{"Enter on a null tensor", actOpen, tensor, null, cellNone},
		{"Enter on text", actOpen, plain, text, cellNone},
		{"Enter on a nested batch", actOpen, nested, batch, cellNested},
		{"Enter on a tensor being read", actOpen, tensor, nil, cellInspect},
		{"Enter on a nested batch being read", actOpen, nested, nil, cellNested},
		{"Enter on text being read", actOpen, plain, nil, cellNone},
		{"Shift+Space on a tensor", actSelect, tensor, shown, cellSelect},
		{"Shift+Space on a null tensor", actSelect, tensor, null, cellSelect},
		{"Shift+Space on a null text", actSelect, plain, null, cellNone},
		{"Shift+Space on a tensor being read", actSelect, tensor, nil, cellNone},
		{"a move", actMove, tensor, shown, cellNone},
	} {
		if got := cellActOf(c.act, c.f, c.cell); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestRouteOf: the keys of Escape, ArrowDown, Enter pressed in a row with
// the inspector open go, in turn, to the close, the grid and the grid,
// wherever the browser's focus is at that moment.
func TestRouteOf(t *testing.T) {
	dialog := KeyTarget{InInspector: true}
	cell := KeyTarget{InGrid: true}
	body := KeyTarget{}
	for _, c := range []struct {
		name                  string
		k                     keyPress
		at                    KeyTarget
		inspecting, returning bool
		want                  keyRoute
	}{
		{"Escape in the dialog", keyPress{Key: "Escape"}, dialog, true, false, RouteClose},
		{"Escape in a field of the dialog", keyPress{Key: "Escape"}, KeyTarget{InInspector: true, Control: true}, true, false, RouteClose},
		{"Escape on the body, inspecting", keyPress{Key: "Escape"}, body, true, false, RouteClose},
		{"ArrowDown in the dialog", keyPress{Key: "ArrowDown"}, dialog, true, false, RoutePass},
		{"ArrowDown on a cell behind the dialog", keyPress{Key: "ArrowDown"}, cell, true, false, RouteDrop},
		{"Enter on a cell behind the dialog", keyPress{Key: "Enter"}, cell, true, true, RouteDrop},
		{"a letter on a cell behind the dialog", keyPress{Key: "j"}, cell, true, false, RoutePass},
		{"ArrowDown in the closing dialog", keyPress{Key: "ArrowDown"}, dialog, false, true, RouteGrid},
		{"Enter in the closing dialog", keyPress{Key: "Enter"}, dialog, false, true, RouteGrid},
		{"Enter on the body, returning", keyPress{Key: "Enter"}, body, false, true, RouteGrid},
		{"Enter on a button, returning", keyPress{Key: "Enter"}, KeyTarget{Control: true}, false, true, RoutePass},
		{"ArrowDown on a cell, returning", keyPress{Key: "ArrowDown"}, cell, false, true, RoutePass},
		{"ArrowDown on a cell", keyPress{Key: "ArrowDown"}, cell, false, false, RoutePass},
		{"ArrowDown on the body", keyPress{Key: "ArrowDown"}, body, false, false, RoutePass},
		{"Escape on a cell", keyPress{Key: "Escape"}, cell, false, false, RoutePass},
	} {
		if got := RouteOf(c.k, c.at, c.inspecting, c.returning); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
