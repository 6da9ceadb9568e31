package ui

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// Colorbar shows a colormap from the range's low to high end, with the
// colours of the special values explained.
type Colorbar struct {
	app.Compo
	Colormap string
	Range    inspect.Range
}

// Render draws the bar.
func (c *Colorbar) Render() app.UI {
	cm, _ := inspect.ColormapByName(c.Colormap)
	stops := make([]string, 0, 9)
	for i := 0; i <= 8; i++ {
		rgb := cm.LUT[min(255, i*32)]
		stops = append(stops, fmt.Sprintf("rgb(%d,%d,%d)", rgb.R, rgb.G, rgb.B))
	}
	return app.Div().Class("colorbar").Attr("data-role", "colorbar").Body(
		app.Span().Class("cb-min").Text(formatFloat(c.Range.Min)),
		app.Div().Class("cb-ramp").Style("background", "linear-gradient(to right,"+strings.Join(stops, ",")+")"),
		app.Span().Class("cb-max").Text(formatFloat(c.Range.Max)),
		app.Span().Class("cb-legend").Text("NaN, +Inf, −Inf and null have their own colours"),
	)
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// StatsPanel shows the statistics of one tensor.
type StatsPanel struct {
	app.Compo
	Stats     inspect.Stats
	Shape     []int // as displayed
	ValueType string
}

// Render draws the panel.
func (p *StatsPanel) Render() app.UI {
	s := p.Stats
	rows := [][2]string{
		{"shape", tensorext.FormatShape(p.Shape)},
		{"value type", p.ValueType},
		{"count", strconv.Itoa(s.Count)},
		{"nulls", strconv.Itoa(s.Nulls)},
		{"NaN", strconv.Itoa(s.NaN)},
		{"+Inf / −Inf", fmt.Sprintf("%d / %d", s.PosInf, s.NegInf)},
		{"min", formatFloat(s.Min)},
		{"max", formatFloat(s.Max)},
		{"mean", formatFloat(s.Mean)},
		{"std", formatFloat(s.Std)},
	}
	return app.Section().Class("stats").Attr("data-role", "stats").
		Attr("data-min", formatFloat(s.Min)).Attr("data-max", formatFloat(s.Max)).Attr("data-nan", s.NaN).Body(
		app.H3().Text("Statistics"),
		statsList(rows),
		histogram(s.Hist, s.HistMin, s.HistMax),
	)
}

// statsList is a definition list of name/value rows.
func statsList(rows [][2]string) app.UI {
	return app.Dl().Body(app.Range(rows).Slice(func(i int) app.UI {
		return app.Div().Body(app.Dt().Text(rows[i][0]), app.Dd().Text(rows[i][1]))
	}))
}

// histogram draws counts as bars.
func histogram(hist []int, lo, hi float64) app.UI {
	peak := 1
	for _, c := range hist {
		peak = max(peak, c)
	}
	return app.Div().Class("histogram").Attr("data-role", "histogram").
		Title(fmt.Sprintf("%d bins from %s to %s", len(hist), formatFloat(lo), formatFloat(hi))).Body(
		app.Range(hist).Slice(func(i int) app.UI {
			return app.Div().Class("bar").Style("height", fmt.Sprintf("%.1f%%", 100*float64(hist[i])/float64(peak))).Title(strconv.Itoa(hist[i]))
		}),
	)
}

// ExportPanel offers the tensor as a .npy file, the picture as a PNG and,
// for small tensors, the values on the clipboard. Name is the files' base
// name.
type ExportPanel struct {
	app.Compo
	Tensor tensorext.Tensor
	Image  *image.RGBA // nil when there is no picture
	Name   string

	note    string // what the last action did
	forName string // the tensor the note is about
}

// Render draws the panel.
func (p *ExportPanel) Render() app.UI {
	if p.forName != p.Name {
		p.note, p.forName = "", p.Name
	}
	t := p.Tensor
	return app.Section().Class("exports").Body(
		app.H3().Text("Export"),
		app.Button().Type("button").Attr("data-action", "download-npy").Text("Download .npy").
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if err := inspect.WriteNPY(&buf, t); err != nil {
					p.note = "cannot export: " + err.Error()
					return
				}
				download(p.Name+".npy", "application/octet-stream", buf.Bytes())
			}),
		app.Button().Type("button").Attr("data-action", "download-png").Text("Download view as PNG").Disabled(p.Image == nil).
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if p.Image == nil || png.Encode(&buf, p.Image) != nil {
					return
				}
				download(p.Name+".png", "image/png", buf.Bytes())
			}),
		app.If(t.Len() <= 4096, func() app.UI {
			return app.Button().Type("button").Attr("data-action", "copy-values").Text("Copy values").
				OnClick(func(ctx app.Context, e app.Event) {
					app.Window().Get("navigator").Get("clipboard").Call("writeText", t.String())
					p.note = "copied"
				})
		}),
		app.If(p.note != "", func() app.UI { return app.P().Class("note").Attr("aria-live", "polite").Text(p.note) }),
		app.If(npyNote(t) != "", func() app.UI {
			return app.P().Class("note").Attr("data-role", "npy-note").Text(npyNote(t))
		}),
	)
}

// npyNote says how the .npy file holds t's values when NumPy has no dtype
// for them (bfloat16), else "".
func npyNote(t tensorext.Tensor) string {
	if t.Values == nil {
		return ""
	}
	return inspect.NPYNote(t.ValueType())
}

// safeName keeps letters, digits, '-', '_' and '.', replacing the rest
// with '_'.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}

// download hands bytes to the browser as a file download.
func download(name, mime string, data []byte) {
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	blob := app.Window().Get("Blob").New([]any{u8}, map[string]any{"type": mime})
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	a := app.Window().Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	// Revoke later: the download reads the URL after this returns.
	revoke := app.Window().Get("URL").Get("revokeObjectURL").Call("bind", app.Window().Get("URL"))
	app.Window().Call("setTimeout", revoke, 60000, url)
}
