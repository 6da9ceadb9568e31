package grid

import (
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/internal/perfmark"
)

// Preview draws an image into a canvas whose intrinsic size is the image's
// own size, one canvas pixel per image pixel; CSS scales it for display.
// The table's previews are drawn at most as large as they show
// (RowsTable.cells), so that the page copies only the pixels it shows.
type Preview struct {
	app.Compo
	Img   *image.RGBA
	Kind  string         // "rgb", "rgba", "gray" or "strip"
	Marks []summary.Mark // boxes drawn over it (drawMarks)
	// MaskOf names the mask blended into Img (thumbmaskplan.go), "" for
	// none: the canvas says it (data-mask) once drawn.
	MaskOf string

	data app.Value // the ImageData drawn last, reused for the next image of its size
	c2d  app.Value // the canvas's 2D context (the canvas stays while the component does)
}

// OnMount draws the image once the canvas exists; nothing to render again
// (go-app would render the preview, its row, the table and the page).
func (p *Preview) OnMount(ctx app.Context) {
	ctx.PreventUpdate()
	p.draw()
}

// OnUpdate redraws after the canvas has taken its new size.
func (p *Preview) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { p.draw() }) }

// Render draws the canvas element.
func (p *Preview) Render() app.UI {
	b := p.Img.Bounds()
	return app.Canvas().Class("preview").Attr("data-preview", p.Kind).Width(b.Dx()).Height(b.Dy())
}

func (p *Preview) draw() {
	kit.PutImageData(p.JSValue(), p.Img, &p.data, &p.c2d)
	kit.MarkMask(p.JSValue(), p.MaskOf)
	drawMarks(p.JSValue(), p.Marks)
	perfmark.Mark("preview-drawn")
}
