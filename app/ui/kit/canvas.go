package kit

import (
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/overlay"
)

// PutImage draws img onto the canvas element at its own size, one canvas
// pixel per image pixel (the canvas is resized to img's bounds when they
// differ); an empty image or a missing canvas draws nothing. Previews and
// the inspector's picture both draw this way.
func PutImage(canvas app.Value, img *image.RGBA) {
	var data, c2d app.Value
	PutImageData(canvas, img, &data, &c2d)
}

// PutImageData is putImage reusing *data, an ImageData of the same size
// from an earlier call, if any (it is replaced by a new one otherwise):
// allocating the JavaScript arrays for each image costs more than
// filling them; and *c2d, the canvas's 2D context from an earlier call on
// the same canvas, if any (asking for it costs a call into the browser's
// DOM each time).
func PutImageData(canvas app.Value, img *image.RGBA, data, c2d *app.Value) {
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

// BlendMask blends layer, a mask's colours at the thumbnail's size
// (overlay.Layer), over what the canvas shows (an encoded image's
// thumbnail as the browser drew it) at opacity, in Go (overlay.Over, the
// blend's formula exactly: the canvas's pixels are read back and put
// again; exact for opaque pictures, as a canvas keeps translucent ones
// premultiplied), then says so: data-mask=<of>. A nil layer draws
// nothing and leaves data-mask out.
func BlendMask(canvas app.Value, layer *image.RGBA, opacity float64, of string) {
	if !canvas.Truthy() {
		return
	}
	if layer == nil {
		MarkMask(canvas, "")
		return
	}
	w, h := min(canvas.Get("width").Int(), layer.Bounds().Dx()), min(canvas.Get("height").Int(), layer.Bounds().Dy())
	if w <= 0 || h <= 0 {
		MarkMask(canvas, "")
		return
	}
	c2d := canvas.Call("getContext", "2d")
	data := c2d.Call("getImageData", 0, 0, w, h)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	app.CopyBytesToGo(img.Pix, data.Get("data"))
	overlay.Over(img, layer, opacity)
	app.CopyBytesToJS(data.Get("data"), img.Pix)
	c2d.Call("putImageData", data, 0, 0)
	MarkMask(canvas, of)
}

// MarkMask says on a preview canvas which mask is blended into it
// (data-mask), or that none is ("").
func MarkMask(canvas app.Value, of string) {
	if !canvas.Truthy() {
		return
	}
	if of == "" {
		canvas.Call("removeAttribute", "data-mask")
		return
	}
	canvas.Call("setAttribute", "data-mask", of)
}
