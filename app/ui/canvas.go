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
	pix := app.Window().Get("Uint8ClampedArray").New(len(img.Pix))
	app.CopyBytesToJS(pix, img.Pix)
	data := app.Window().Get("ImageData").New(pix, b.Dx(), b.Dy())
	canvas.Call("getContext", "2d").Call("putImageData", data, 0, 0)
}
