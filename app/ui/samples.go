package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Sample is an example file shipped with the site under /web/samples/.
type Sample struct {
	File, Title string
}

// SampleFiles are the examples offered on the page; they are written by
// npm's apache-arrow (testdata/gen_js.mjs), not by Go.
var SampleFiles = []Sample{
	{"js_big.arrow", "64 images, embeddings and masks"},
	{"js_images.arrow", "RGB, CHW and grayscale tensors"},
	{"js_permuted.arrow", "a permuted 3-D tensor"},
	{"js_variable.arrow", "variable shape tensors"},
}

// Samples offers the sample files as links.
type Samples struct {
	app.Compo
}

// Render draws the links.
func (s *Samples) Render() app.UI {
	return app.P().Class("samples").Body(
		app.Text("Try a sample: "),
		app.Range(SampleFiles).Slice(func(i int) app.UI {
			smp := SampleFiles[i]
			// A button, not a link: go-app routes link clicks inside the app.
			return app.Button().Type("button").Class("link").Attr("data-sample", smp.File).Title(smp.Title).
				OnClick(func(ctx app.Context, e app.Event) {
					fetchFile(ctx, smp.File, ctx.ResolveStaticResource("/web/samples/"+smp.File))
				}, app.EventScope(smp.File)).
				Text(smp.File)
		}),
	)
}
