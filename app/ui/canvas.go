package ui

import (
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// putImage draws img onto the canvas element at its own size, one canvas
// pixel per image pixel (the canvas is resized to img's bounds when they
// differ); an empty image or a missing canvas draws nothing. Previews and
// the inspector's picture both draw this way.
func putImage(canvas app.Value, img *image.RGBA) {
	var data, c2d app.Value
	putImageData(canvas, img, &data, &c2d)
}

// putImageData is putImage reusing *data, an ImageData of the same size
// from an earlier call, if any (it is replaced by a new one otherwise):
// allocating the JavaScript arrays for each image costs more than
// filling them; and *c2d, the canvas's 2D context from an earlier call on
// the same canvas, if any (asking for it costs a call into the browser's
// DOM each time).
func putImageData(canvas app.Value, img *image.RGBA, data, c2d *app.Value) {
	if !canvas.Truthy() || img == nil {
		return
	}
	b := img.Bounds()
	if b.Empty() {
		return
	}
	if canvas.Get("width").Int() != b.Dx() || canvas.Get("height").Int() != b.Dy() {
		canvas.Set("width", b.Dx())
		canvas.Set("height", b.Dy())
	}
	d := *data
	if d == nil || !d.Truthy() || d.Get("width").Int() != b.Dx() || d.Get("height").Int() != b.Dy() {
		d = app.Window().Get("ImageData").New(b.Dx(), b.Dy())
		*data = d
	}
	app.CopyBytesToJS(d.Get("data"), img.Pix)
	if *c2d == nil || !(*c2d).Truthy() {
		*c2d = canvas.Call("getContext", "2d")
	}
	(*c2d).Call("putImageData", d, 0, 0)
}
