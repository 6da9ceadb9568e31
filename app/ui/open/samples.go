package open

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

// Samples offers the sample files as links that open them by URL
// ("?url=web/samples/<file>"), so they can be shared.
type Samples struct {
	app.Compo
}

// Render draws the links.
func (s *Samples) Render() app.UI {
	return app.P().Class("samples").Body(
		app.Text("Try a sample: "),
		app.Range(SampleFiles).Slice(func(i int) app.UI {
			smp := SampleFiles[i]
			return app.A().Class("link").Attr("data-sample", smp.File).Title(smp.Title).
				Href(urlQuery("web/samples/" + smp.File)).Text(smp.File)
		}),
	)
}
