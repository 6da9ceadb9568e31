//go:build !wasm

package grid

import (
	"image"
	"math"
	"reflect"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/internal/testkit"
)

// vocOf are the PASCAL VOC devkit's colours of the fixtures' classes
// (VOClabelcolormap.m: 1 aeroplane, 2 bicycle, 3 bird, 7 car).
var vocOf = map[int][3]int{1: {128, 0, 0}, 2: {0, 128, 0}, 3: {128, 128, 0}, 7: {128, 128, 128}}

// maskThumbnail is what a w×h thumbnail of the fixtures' picture (pixel (y,
// x) = (12x + 20, 16y + 30, 100 + x + y); masks_expected.json) shows with
// the mask blended as the thumbnails draw it: pixel (x, y) is picture and
// mask pixel (y·H/h, x·W/w), blended where its class is not 0 as
// floor((1 − 0.5)·img + 0.5·colour + 0.5); masked false: the picture alone.
func maskThumbnail(e testkit.Masks, w, h int, masked bool) []uint8 {
	out := make([]uint8, 0, 4*w*h)
	for y := range h {
		for x := range w {
			sy, sx := y*e.Height/h, x*e.Width/w
			c := e.Mask[sy*e.Width+sx]
			for k := range 3 {
				v := e.Image[(sy*e.Width+sx)*3+k]
				if masked && c != 0 {
					v = int(math.Floor(0.5*float64(v) + 0.5*float64(vocOf[c][k]) + 0.5))
				}
				out = append(out, uint8(v))
			}
			out = append(out, 255)
		}
	}
	return out
}

// maskPixels is the mask's layer at the picture's size: the class colour,
// opaque, where the class is not 0; transparent elsewhere.
func maskPixels(e testkit.Masks) []uint8 {
	out := make([]uint8, 0, 4*len(e.Mask))
	for _, c := range e.Mask {
		if c == 0 {
			out = append(out, 0, 0, 0, 0)
			continue
		}
		out = append(out, uint8(vocOf[c][0]), uint8(vocOf[c][1]), uint8(vocOf[c][2]), 255)
	}
	return out
}

// rowCells summarises row of f within box, with masks.
func rowCells(f *decode.File, row int64, box [2]int, masks []session.ThumbMask) []summary.Cell {
	cells := make([]summary.Cell, len(f.Fields()))
	for i := range cells {
		cells[i] = summary.In(f, row, i, box[0], box[1])
	}
	withMasks(f, row, cells, masks)
	return cells
}

// TestWithMasksTensor: masks_tensor.arrow's uint8 image tensor gets its
// mask blended into its preview, exactly, at its own size and sampled
// down (nearest neighbour, the preview's rule); row 1's null mask leaves
// the preview as it is and says why; a mask turned off draws nothing.
func TestWithMasksTensor(t *testing.T) {
	e := testkit.ReadMasks(t)
	f := decodetest.Open(t, "masks_tensor.arrow")
	img := decodetest.Column(t, f, "image")
	on := session.ThumbMasksOf(session.ThumbPairs(f), false, nil)
	for _, c := range []struct {
		box  [2]int
		w, h int
	}{
		{[2]int{94, 68}, 16, 12}, // the picture's own size
		{[2]int{8, 8}, 8, 6},     // halved
		{[2]int{5, 5}, 5, 3},     // rows 0, 4, 8; columns 0, 3, 6, 9, 12
		{[2]int{11, 9}, 11, 8},   // uneven: columns x·16/11, rows y·12/8
	} {
		tn := rowCells(f, 0, c.box, on)[img].Tensor
		if b := tn.Preview.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Fatalf("box %v: preview %v, want %d×%d", c.box, b, c.w, c.h)
		}
		if tn.MaskOf != "mask" || tn.MaskNote != "" || maskDrawn(tn) != "mask" || tn.Mask != nil {
			t.Errorf("box %v: mask of %q, note %q, drawn %q, layer %v", c.box, tn.MaskOf, tn.MaskNote, maskDrawn(tn), tn.Mask != nil)
		}
		if want := maskThumbnail(e, c.w, c.h, true); !reflect.DeepEqual(tn.Preview.Pix, want) {
			t.Errorf("box %v: preview\n%v\nwant\n%v", c.box, tn.Preview.Pix, want)
		}
		plain := rowCells(f, 0, c.box, nil)[img].Tensor
		if want := maskThumbnail(e, c.w, c.h, false); !reflect.DeepEqual(plain.Preview.Pix, want) || plain.MaskOf != "" {
			t.Errorf("box %v: without masks the preview is not the picture's", c.box)
		}
	}
	// (x 3, y 3) at the picture's size: stored (56, 78, 106), class 1.
	if got := maskThumbnail(e, 16, 12, true)[(3*16+3)*4:][:3]; !reflect.DeepEqual(got, []uint8{92, 39, 53}) {
		t.Errorf("the formula's pixel (3, 3) = %v, want [92 39 53]", got)
	}

	tn := rowCells(f, 1, [2]int{94, 68}, on)[img].Tensor
	if tn.MaskNote != "mask is null in this row" || maskDrawn(tn) != "" || !reflect.DeepEqual(tn.Preview.Pix, maskThumbnail(e, 16, 12, false)) {
		t.Errorf("row 1: note %q, drawn %q; the preview should be the picture's", tn.MaskNote, maskDrawn(tn))
	}
	if got := cellTitle("image", 1, tn); got != "Inspect image, row 1 (Ctrl+click: select to compare). No mask over the thumbnail: mask is null in this row." {
		t.Errorf("row 1: title %q", got)
	}

	off := session.ThumbMasksOf(session.ThumbPairs(f), true, nil)
	tn = rowCells(f, 0, [2]int{94, 68}, off)[img].Tensor
	if tn.MaskOf != "" || tn.MaskNote != "" || !reflect.DeepEqual(tn.Preview.Pix, maskThumbnail(e, 16, 12, false)) {
		t.Errorf("off: mask of %q, note %q; the preview should be the picture's", tn.MaskOf, tn.MaskNote)
	}
}

// TestWithMasksEncoded: masks_hf.arrow's image PNG gets its annotation's
// layer (a grey PNG of class ids) to blend over the thumbnail the page
// decodes; row 1's annotation of another size and row 2's null one say
// why and draw nothing. masks_named.arrow's 2-D List of class ids too.
func TestWithMasksEncoded(t *testing.T) {
	e := testkit.ReadMasks(t)
	f := decodetest.Open(t, "masks_hf.arrow")
	img := decodetest.Column(t, f, "image")
	on := session.ThumbMasksOf(session.ThumbPairs(f), false, nil)
	tn := rowCells(f, 0, [2]int{54, 38}, on)[img].Tensor
	if tn.Image == nil || tn.Mask == nil || maskDrawn(tn) != "annotation" || tn.MaskOpacity != 0.5 {
		t.Fatalf("row 0: image %v, layer %v, drawn %q, opacity %g", tn.Image != nil, tn.Mask != nil, maskDrawn(tn), tn.MaskOpacity)
	}
	if b := tn.Mask.Bounds(); b != image.Rect(0, 0, tn.Image.PreviewW, tn.Image.PreviewH) || !reflect.DeepEqual(tn.Mask.Pix, maskPixels(e)) {
		t.Errorf("row 0: layer %v (thumbnail %d×%d) is not the mask's colours", b, tn.Image.PreviewW, tn.Image.PreviewH)
	}
	for row, want := range map[int64]string{
		1: "annotation is 6×8 but image is 12×16 (height × width)",
		2: "annotation is null in this row",
	} {
		tn := rowCells(f, row, [2]int{54, 38}, on)[img].Tensor
		if tn.MaskNote != want || tn.Mask != nil || maskDrawn(tn) != "" {
			t.Errorf("row %d: note %q, layer %v; want %q, none", row, tn.MaskNote, tn.Mask != nil, want)
		}
	}

	named := decodetest.Open(t, "masks_named.arrow")
	tn = rowCells(named, 0, [2]int{54, 38}, session.ThumbMasksOf(session.ThumbPairs(named), false, nil))[decodetest.Column(t, named, "image")].Tensor
	if tn.Mask == nil || maskDrawn(tn) != "label" || !reflect.DeepEqual(tn.Mask.Pix, maskPixels(e)) {
		t.Errorf("masks_named: drawn %q; the layer is not the mask's colours", maskDrawn(tn))
	}
}
