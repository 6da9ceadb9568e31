package ui

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/compare"
	"github.com/tensorview/tensorview/tensorext"
)

// CompareControls choose the tensor the inspected one (A) is compared with
// (B): a column of the same row, A's column in another row, or any other
// column (which says how it differs); B's row; side by side or swiped; and
// say why nothing is compared. It shows a snapshot of the inspector's
// compareState and hands every change to OnChange as a command on it.
type CompareControls struct {
	app.Compo
	Choices  []compare.Choice
	Chosen   int   // index in Choices, -1 for none
	Row      int64 // B's row
	Rows     int64
	Swipe    int  // -1: side by side
	Shown    bool // A − B is shown (the mode applies)
	Problem  string
	OnChange func(ctx app.Context, cmd func(*compareState) bool)
}

// Render draws the controls; nothing when there is nothing to compare with.
func (c *CompareControls) Render() app.UI {
	if len(c.Choices) == 0 {
		return app.Div().Class("compare-controls").Hidden(true)
	}
	reason := ""
	if c.Chosen >= 0 {
		reason = c.Choices[c.Chosen].Reason
	}
	var good, other []int
	for i, ch := range c.Choices {
		if ch.Compatible {
			good = append(good, i)
		} else {
			other = append(other, i)
		}
	}
	option := func(i int) app.UI {
		ch := c.Choices[i]
		text := ch.Field
		if ch.Self {
			text += " (another row)"
		}
		return app.Option().Value(i).Selected(i == c.Chosen).Text(text)
	}
	return app.Div().Class("compare-controls").Attr("data-role", "compare").Body(
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Compare with "),
				app.Select().Attr("data-role", "compare-select").OnChange(c.onSelect).Body(
					app.Option().Value(-1).Selected(c.Chosen < 0).Text("nothing"),
					app.Range(good).Slice(func(k int) app.UI { return option(good[k]) }),
					app.If(len(other) > 0, func() app.UI {
						return app.OptGroup().Label("Other shapes or value types").Body(
							app.Range(other).Slice(func(k int) app.UI { return option(other[k]) }),
						)
					}),
				),
			),
			app.If(c.Chosen >= 0, func() app.UI {
				return app.Label().Body(app.Text("row "),
					app.Input().Type("number").Class("index").Attr("data-role", "compare-row").Min(0).Max(max(0, c.Rows-1)).
						Value(c.Row).OnChange(c.onRow, app.EventScope("compare-row")))
			}),
			app.If(c.Shown, func() app.UI {
				return app.Label().Body(app.Text("Show "),
					app.Select().Attr("data-role", "compare-mode").OnChange(c.onMode).Body(
						app.Option().Value("side").Selected(c.Swipe < 0).Text("side by side"),
						app.Option().Value("swipe").Selected(c.Swipe >= 0).Text("swipe A | B"),
					))
			}),
		),
		app.If(reason != "", func() app.UI {
			return app.P().Class("note").Attr("data-role", "compare-reason").Text(reason)
		}),
		app.If(c.Problem != "", func() app.UI {
			return app.P().Class("overlay-note").Role("status").Attr("data-role", "compare-note").Text(c.Problem)
		}),
	)
}

func (c *CompareControls) onSelect(ctx app.Context, e app.Event) {
	i, ok := selected(ctx)
	if !ok || i >= len(c.Choices) {
		ctx.PreventUpdate()
		return
	}
	col := -1
	if i >= 0 {
		col = c.Choices[i].Col
	}
	c.OnChange(ctx, func(s *compareState) bool { return s.choose(col) })
}

func (c *CompareControls) onRow(ctx app.Context, e app.Event) {
	row, err := strconv.ParseInt(ctx.JSSrc().Get("value").String(), 10, 64)
	if err != nil {
		ctx.PreventUpdate()
		return
	}
	c.OnChange(ctx, func(s *compareState) bool { return s.setRow(row) })
}

func (c *CompareControls) onMode(ctx app.Context, e app.Event) {
	pct := -1
	if ctx.JSSrc().Get("value").String() == "swipe" {
		pct = 50
	}
	c.OnChange(ctx, func(s *compareState) bool { return s.setSwipe(pct) })
}

// DiffStats shows the statistics of A − B (overlay.Difference) and the
// tolerance of its count of differing elements; the attributes hold the
// exact numbers (strconv's shortest 'g').
type DiffStats struct {
	app.Compo
	Diff     overlay.Difference
	DimNames []string // the logical dimensions' names, for where the max is
	OnChange func(ctx app.Context, cmd func(*compareState) bool)
	OnGoto   func(ctx app.Context) // show the element of the largest |A − B|
}

// exact is f as the attributes hold it.
func exact(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// Render draws the panel.
func (p *DiffStats) Render() app.UI {
	d := p.Diff
	rows := [][2]string{
		{"mean |A − B|", formatFloat(d.MeanAbs)},
		{"RMSE", formatFloat(d.RMSE)},
	}
	if !math.IsNaN(d.PSNR) {
		psnr := formatFloat(d.PSNR) + " dB"
		if math.IsInf(d.PSNR, 1) {
			psnr = "∞ (equal)"
		}
		rows = append(rows, [2]string{"PSNR", psnr + " (peak " + formatFloat(d.Peak) + ")"})
	}
	rows = append(rows, [2]string{"differing", fmt.Sprintf("%d of %d", d.Differing, d.Count)})
	if skipped := d.Count - d.Compared; skipped > 0 {
		rows = append(rows, [2]string{"not compared", notCompared(d)})
	}
	where := ""
	if d.MaxIndex != nil {
		where = "at " + indexText(d.MaxIndex, p.DimNames)
	}
	sec := app.Section().Class("stats diff-stats").Attr("data-role", "diff-stats").
		Attr("data-max-abs", exact(d.MaxAbs)).Attr("data-mean-abs", exact(d.MeanAbs)).Attr("data-rmse", exact(d.RMSE)).
		Attr("data-differing", d.Differing).Attr("data-count", d.Count).Attr("data-compared", d.Compared).
		Attr("data-tol", exact(d.Tol)).Attr("data-max-index", tensorext.JoinShape(d.MaxIndex))
	if !math.IsNaN(d.PSNR) {
		sec = sec.Attr("data-psnr", exact(d.PSNR))
	}
	return sec.Body(
		app.H3().Text("A − B"),
		app.Dl().Body(
			app.Div().Body(app.Dt().Text("max |A − B|"), app.Dd().Body(
				app.Text(formatFloat(d.MaxAbs)+" "),
				app.If(where != "", func() app.UI {
					return app.Span().Attr("data-role", "max-where").Body(
						app.Text(where+" "),
						app.Button().Type("button").Class("link").Attr("data-action", "goto-max").Text("show").
							OnClick(func(ctx app.Context, e app.Event) { p.OnGoto(ctx) }),
					)
				}),
			)),
			app.Range(rows).Slice(func(i int) app.UI {
				return app.Div().Body(app.Dt().Text(rows[i][0]), app.Dd().Text(rows[i][1]))
			}),
		),
		app.Label().Class("diff-tol").Body(
			app.Text("differing beyond |A − B| > "),
			app.Input().Type("number").Attr("data-role", "diff-tol").Attr("step", "any").Min(0).Value(exact(d.Tol)).
				OnChange(p.onTol, app.EventScope("diff-tol")),
		),
	)
}

func (p *DiffStats) onTol(ctx app.Context, e app.Event) {
	f, err := strconv.ParseFloat(strings.TrimSpace(ctx.JSSrc().Get("value").String()), 64)
	if err != nil {
		ctx.PreventUpdate()
		return
	}
	p.OnChange(ctx, func(s *compareState) bool { return s.setTol(f) })
}

// notCompared says which elements the statistics leave out, and why.
func notCompared(d overlay.Difference) string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(d.OneNull, "null on one side")
	add(d.BothNull, "null on both")
	add(d.OneNaN, "NaN on one side")
	add(d.BothNaN, "NaN on both")
	add(d.OtherInf, "infinite on one side")
	add(d.SameInf, "equal infinities")
	return strings.Join(parts, ", ")
}

// indexText writes an index with the dimensions' names: "[slice=3, H=7, W=4]".
func indexText(idx []int, names []string) string {
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = strconv.Itoa(i)
		if k < len(names) && names[k] != "" {
			parts[k] = names[k] + "=" + parts[k]
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// DiffExport offers A − B as a .npy file (float64, NaN where a side is NaN;
// NumPy has no nulls, so a difference with null elements is refused with
// inspect.WriteNPY's reason) and its picture as a PNG.
type DiffExport struct {
	app.Compo
	D     tensorext.Tensor
	Image *image.RGBA // nil when there is no picture
	Name  string      // the files' base name
	note  string
}

// Render draws the panel.
func (p *DiffExport) Render() app.UI {
	return app.Section().Class("exports").Attr("data-role", "diff-export").Body(
		app.H3().Text("Export A − B"),
		app.Button().Type("button").Attr("data-action", "download-diff-npy").Text("Download A − B (.npy)").
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if err := inspect.WriteNPY(&buf, p.D); err != nil {
					p.note = "cannot export: " + err.Error()
					return
				}
				download(p.Name+".npy", "application/octet-stream", buf.Bytes())
			}),
		app.Button().Type("button").Attr("data-action", "download-diff-png").Text("Download A − B as PNG").Disabled(p.Image == nil).
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if p.Image == nil || png.Encode(&buf, p.Image) != nil {
					return
				}
				download(p.Name+".png", "image/png", buf.Bytes())
			}),
		app.If(p.note != "", func() app.UI { return app.P().Class("note").Attr("aria-live", "polite").Text(p.note) }),
	)
}
