package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// OverlayControls choose the mask drawn over the inspector's picture and
// how: the column (none or one of the masks offered), the opacity, outline
// only, the legend (Legend); and say why nothing is drawn. It shows a
// snapshot of the inspector's overlayState and hands every change to
// OnChange as a command on it.
type OverlayControls struct {
	app.Compo
	Choices  []masks.Choice
	Chosen   int // index in Choices, -1 for none
	Opacity  float64
	Outline  bool
	Legend   []overlay.LegendItem
	Unnamed  []int64 // classes present that the file's names do not name
	Names    int     // how many class names the file gives
	Off      string  // why the mask chosen is not drawn
	Note     string  // a link's overlay that did not apply
	OnChange func(ctx app.Context, cmd func(*overlayState) bool)
}

// Render draws the controls; nothing when no column can be drawn.
func (c *OverlayControls) Render() app.UI {
	if len(c.Choices) == 0 {
		return app.Div().Class("overlay-controls").Hidden(true)
	}
	pct := int(math.Round(c.Opacity * 100))
	reason := ""
	if c.Chosen >= 0 {
		reason = c.Choices[c.Chosen].Reason
	}
	return app.Div().Class("overlay-controls").Attr("data-role", "overlay").Body(
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Overlay "), c.select_()),
			app.If(c.Chosen >= 0, func() app.UI {
				return app.Span().Class("overlay-style").Body(
					app.Label().For("overlay-opacity").Text("Opacity"),
					app.Input().Type("range").ID("overlay-opacity").Attr("data-role", "overlay-opacity").
						Min(0).Max(100).Step(1).Value(pct).OnInput(c.onOpacity),
					app.Span().Class("overlay-pct").Attr("data-role", "overlay-pct").Text(fmt.Sprintf("%d%%", pct)),
					app.Label().Class("toggle").Body(
						app.Input().Type("checkbox").Attr("data-role", "overlay-outline").Checked(c.Outline).OnChange(c.onOutline),
						app.Text(" outline only"),
					),
				)
			}),
		),
		app.If(reason != "", func() app.UI {
			return app.P().Class("note").Attr("data-role", "overlay-reason").Text(reason)
		}),
		app.If(c.Off != "" || c.Note != "", func() app.UI {
			return app.P().Class("overlay-note").Role("status").Attr("data-role", "overlay-note").Text(joinSentences(c.Off, c.Note))
		}),
		app.If(len(c.Legend) > 0, func() app.UI {
			return &Legend{Items: c.Legend, OnToggle: func(ctx app.Context, id int64) {
				c.OnChange(ctx, func(o *overlayState) bool { return o.toggleClass(id) })
			}}
		}),
		app.If(len(c.Unnamed) > 0 && len(c.Legend) > 0, func() app.UI {
			return app.P().Class("note").Attr("data-role", "legend-note").Text(unnamedNote(c.Unnamed, c.Names))
		}),
	)
}

// unnamedNote says which classes of a mask the file's names do not name:
// "Classes 7 and 300 are past the file's 4 class names: shown by id."
func unnamedNote(ids []int64, names int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	list, verb := s[0], "is"
	if len(s) > 1 {
		list, verb = strings.Join(s[:len(s)-1], ", ")+" and "+s[len(s)-1], "are"
	}
	noun := "Class"
	if len(s) > 1 {
		noun = "Classes"
	}
	return fmt.Sprintf("%s %s %s not among the file's %s: shown by id.", noun, list, verb, kit.Plural(names, "class name", "class names"))
}

// joinSentences joins the non-empty ones with a space.
func joinSentences(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

func (c *OverlayControls) select_() app.UI {
	return app.Select().Attr("data-role", "overlay-select").OnChange(func(ctx app.Context, e app.Event) {
		if i, ok := selected(ctx); ok {
			c.OnChange(ctx, func(o *overlayState) bool { return o.choose(i) })
		}
	}).Body(
		app.Option().Value(-1).Selected(c.Chosen < 0).Text("none"),
		app.Range(c.Choices).Slice(func(i int) app.UI {
			return app.Option().Value(i).Selected(i == c.Chosen).Text(c.Choices[i].Field)
		}),
	)
}

func (c *OverlayControls) onOpacity(ctx app.Context, e app.Event) {
	v, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil {
		ctx.PreventUpdate()
		return
	}
	c.OnChange(ctx, func(o *overlayState) bool { return o.setOpacity(float64(v) / 100) })
}

func (c *OverlayControls) onOutline(ctx app.Context, e app.Event) {
	on := ctx.JSSrc().Get("checked").Bool()
	c.OnChange(ctx, func(o *overlayState) bool { return o.setOutline(on) })
}
