package open

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/listing"
)

// HFForm opens a Hugging Face dataset by its name ("owner/name", or the
// address of its page on the Hub): submitting goes to "?hf=<name>" (with
// config and split when the address names them), which the Viewer opens
// as one table of the split's Parquet shards.
type HFForm struct {
	app.Compo
	value string
	err   string
}

// Render draws the form.
func (f *HFForm) Render() app.UI {
	return app.Form().Class("url-form hf-form").Attr("data-role", "hf-form").OnSubmit(f.submit).Body(
		app.Label().For("hf-dataset").Class("url-label").Text("Open a Hugging Face dataset:"),
		app.Input().ID("hf-dataset").Type("text").Attr("data-role", "hf-input").Placeholder("owner/name").
			Required(true).Value(f.value).Aria("invalid", f.err != "").Aria("describedby", "hf-error").
			AutoComplete(false).Attr("spellcheck", "false").
			OnInput(func(ctx app.Context, e app.Event) { f.value = ctx.JSSrc().Get("value").String(); ctx.PreventUpdate() }),
		app.Button().Type("submit").Class("open-url-go").Attr("data-action", "open-hf-go").Text("Open"),
		app.If(f.err != "", func() app.UI {
			return app.P().ID("hf-error").Class("form-error").Role("alert").Text(f.err)
		}),
	)
}

func (f *HFForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ref, err := listing.ParseDataset(f.value)
	if err != nil {
		f.err = err.Error()
		return
	}
	q := url.Values{"hf": {ref.Dataset}}
	for k, v := range map[string]string{"config": ref.Config, "split": ref.Split, "hub": ref.Hub} {
		if v != "" && !(k == "hub" && v == listing.DefaultHub) {
			q.Set(k, v)
		}
	}
	u := *app.Window().URL()
	u.RawQuery, u.Fragment = q.Encode(), ""
	f.value, f.err = "", ""
	ctx.NavigateTo(&u)
}
