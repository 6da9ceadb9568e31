package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// specimenFaces are the font sizes and weights (web/style.css's
// .type-specimen rules) of the text on a file's first screen that the empty
// page does not show: the top bar's facts and buttons, the rows' title,
// header, indexes, cells and tensor summaries.
var specimenFaces = []string{
	"b120", "b110", "b100", "r90", "b90", "r85", "b85", "i85", "r80", "r78", "b78",
}

// typeSpecimen is a line of text in each of specimenFaces, laid out but not
// shown (visibility: hidden, no size), on the empty page. The browser
// resolves each font face the first time a page lays out text in it; on
// Linux that is a synchronous round trip to the browser process per face
// (FontCache::GetFontPlatformData), which took 50–150 ms of the first file
// frame's style and layout on a busy machine. The specimen has them
// resolved while the page waits for a file.
func typeSpecimen() app.UI {
	return app.Div().Class("type-specimen").Aria("hidden", true).Body(
		app.Range(specimenFaces).Slice(func(i int) app.UI {
			return app.Span().Class("face-" + specimenFaces[i]).Text("Rows (≈0123456789) loading… [3×224×224] uint8 ×")
		}),
	)
}
