package grid

import (
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/open"
	"github.com/tensorview/tensorview/internal/perfmark"
)

// ImagePreview draws the thumbnail of an encoded image (PNG, JPEG, GIF,
// WebP) held in a cell. The browser decodes and scales it
// (createImageBitmap, off the page's thread, with colour-space conversion
// off so the pixels are the file's own), so a column of large photos
// scrolls without the wasm decoding them; where the browser refuses the
// bytes, imagebytes.DecodePreview decodes the thumbnail in Go. The
// inspector decodes the full image in Go (imagebytes.Decode). The canvas
// is the thumbnail's size (summary.Encoded.PreviewW × PreviewH) and carries
// data-preview like other previews, and data-image-format.
type ImagePreview struct {
	app.Compo
	Image *summary.Encoded
	Kind  string         // "rgb", "rgba" or "gray"
	Queue *thumbQueue    // the table's decoding budget (nil: decode at once)
	Marks []summary.Mark // boxes drawn over the thumbnail (drawMarks)
	// Mask is a mask's layer blended over the thumbnail once drawn, at
	// MaskOpacity (blendMask); MaskOf names its column (nil, "": none).
	Mask        *image.RGBA
	MaskOpacity float64
	MaskOf      string

	shown     *summary.Encoded // the image drawn, or being decoded, on the canvas
	shownMask *image.RGBA      // the mask blended over it
}

// OnMount starts decoding once the canvas exists.
func (p *ImagePreview) OnMount(ctx app.Context) { p.draw(ctx) }

// OnUpdate starts again when the cell shows another image (go-app reuses
// components by position), or the image with another mask or none (go-app
// sets only the fields whose values differ: an image summarised again is
// the same image).
func (p *ImagePreview) OnUpdate(ctx app.Context) {
	if p.shown != p.Image || p.shownMask != p.Mask {
		ctx.Defer(p.draw)
	}
}

// Render draws the canvas element.
func (p *ImagePreview) Render() app.UI {
	return app.Canvas().Class("preview").Attr("data-preview", p.Kind).Attr("data-image-format", string(p.Image.Info.Format)).
		Width(p.Image.PreviewW).Height(p.Image.PreviewH)
}

func (p *ImagePreview) draw(ctx app.Context) {
	e := p.Image
	p.shown, p.shownMask = e, p.Mask
	// The decode ends after the row may have scrolled out of view: the
	// component is then dismounted (its JSValue unusable) and draws
	// nothing.
	current := func() bool { return p.Mounted() && p.shown == e }
	p.Queue.run(current, func(done func()) { p.decode(ctx, e, current, done) })
}

// decode has the browser decode e's thumbnail and draws it while current,
// then calls done.
func (p *ImagePreview) decode(ctx app.Context, e *summary.Encoded, current func() bool, done func()) {
	u8 := app.Window().Get("Uint8Array").New(len(e.Bytes))
	app.CopyBytesToJS(u8, e.Bytes)
	blob := app.Window().Get("Blob").New([]any{u8})
	opts := map[string]any{"premultiplyAlpha": "none", "colorSpaceConversion": "none"}
	if e.PreviewW != e.Info.Width || e.PreviewH != e.Info.Height {
		opts["resizeWidth"], opts["resizeHeight"], opts["resizeQuality"] = e.PreviewW, e.PreviewH, "high"
	}
	perfmark.Mark("thumb-decode")
	open.Then(app.Window().Call("createImageBitmap", blob, opts), func(bmp app.Value) {
		defer done()
		if current() {
			if canvas := p.JSValue(); canvas.Truthy() {
				canvas.Call("getContext", "2d").Call("drawImage", bmp, 0, 0)
				perfmark.Mark("thumb-drawn")
				kit.BlendMask(canvas, p.Mask, p.MaskOpacity, p.MaskOf)
				drawMarks(canvas, p.Marks)
			}
		}
		bmp.Call("close")
	}, func(string) {
		// The browser cannot decode it: decode the thumbnail in Go.
		ctx.Async(func() {
			defer done()
			img, _, err := imagebytes.DecodePreview(e.Bytes, raster.MaxPreviewSide, imagebytes.DefaultLimits)
			ctx.Dispatch(func(app.Context) {
				if !current() {
					return
				}
				if err != nil {
					p.JSValue().Call("setAttribute", "data-preview-error", err.Error())
					return
				}
				kit.PutImage(p.JSValue(), img)
				kit.BlendMask(p.JSValue(), p.Mask, p.MaskOpacity, p.MaskOf)
				drawMarks(p.JSValue(), p.Marks)
			})
		})
	})
}
