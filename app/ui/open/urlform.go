package open

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// URLForm opens a file by its address: in the top bar an "Open URL…"
// button that unfolds into the form, on the empty page the form itself.
// Submitting goes to "?url=<address>", so the address bar holds the file's
// URL (a link to share) and the Viewer opens it from there.
type URLForm struct {
	app.Compo
	Compact bool // fold into a button until asked for

	open  bool
	value string
}

// Render draws the button or the form.
func (f *URLForm) Render() app.UI {
	if !f.Compact {
		return f.form()
	}
	// The button stays in the page while the form shows (hidden), so the
	// focus can move from it to the form's input.
	return app.Div().Class("url-open").Body(
		app.Button().Type("button").Class("open-url").Attr("data-action", "open-url").Hidden(f.open).Text("Open URL…").
			OnClick(func(ctx app.Context, e app.Event) {
				f.open = true
				ctx.Defer(func(app.Context) {
					if in := f.JSValue().Call("querySelector", "input"); in.Truthy() {
						in.Call("focus")
					}
				})
			}),
		app.If(f.open, f.form),
	)
}

func (f *URLForm) form() app.UI {
	return app.Form().Class("url-form").Attr("data-role", "url-form").OnSubmit(f.submit).Body(
		app.Label().For("file-url").Class("url-label").Text("Open a URL:"),
		app.Input().ID("file-url").Type("url").Attr("data-role", "url-input").Placeholder("https://…/data.arrow").
			Required(true).Value(f.value).AutoComplete(true).
			OnInput(func(ctx app.Context, e app.Event) { f.value = ctx.JSSrc().Get("value").String(); ctx.PreventUpdate() }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if e.Get("key").String() == "Escape" && f.Compact {
					f.open = false
					return
				}
				ctx.PreventUpdate()
			}),
		app.Button().Type("submit").Class("open-url-go").Attr("data-action", "open-url-go").Text("Open"),
	)
}

func (f *URLForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if f.value == "" {
		return
	}
	u := *app.Window().URL()
	u.RawQuery, u.Fragment = urlQuery(f.value)[1:], ""
	f.open, f.value = false, ""
	ctx.NavigateTo(&u)
}
