package kit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Focus moves the keyboard focus to the element sel names, if shown,
// without scrolling to it.
func Focus(sel string) {
	if el := app.Window().Get("document").Call("querySelector", sel); el.Truthy() {
		el.Call("focus", map[string]any{"preventScroll": true})
	}
}
