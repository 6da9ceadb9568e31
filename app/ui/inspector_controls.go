package ui

import (
	"fmt"
	"math"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/tensorext"
)

// InspectorControls are the inspector's controls: the picture's axes and
// channel dimension, swap and flips, the layout toggle, a slider per other
// dimension, the colormap and the range. It shows a snapshot of an
// inspect.Session and hands every change to OnCommand as a session command.
type InspectorControls struct {
	app.Compo
	Shown     tensorext.Tensor // the tensor as displayed (Session.Shown)
	View      inspect.View
	Physical  bool
	Colormap  string
	RangeMode string
	Manual    inspect.Range
	Channels  []int // Session.ChannelChoices
	Sliders   []int // Session.Sliders
	OnCommand func(ctx app.Context, cmd func(*inspect.Session) bool)
}

// Render draws the controls.
func (c *InspectorControls) Render() app.UI {
	t := c.Shown
	dims := make([]int, t.NDim())
	for k := range dims {
		dims[k] = k
	}
	layout := "logical layout"
	if c.Physical {
		layout = "physical layout"
	}
	return app.Div().Class("controls").Body(
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Rows (Y) "), c.axisSelect("axis-y", dims, c.View.Y, (*inspect.Session).SetAxisY)),
			app.Label().Body(app.Text("Columns (X) "), c.axisSelect("axis-x", dims, c.View.X, (*inspect.Session).SetAxisX)),
			app.Label().Body(app.Text("Channels "), c.channelSelect()),
			c.button("swap-axes", "Swap axes", nil, (*inspect.Session).SwapAxes),
			c.button("flip-y", "Flip rows", &c.View.FlipY, (*inspect.Session).FlipRows),
			c.button("flip-x", "Flip columns", &c.View.FlipX, (*inspect.Session).FlipColumns),
			app.Label().Class("toggle").Body(
				app.Input().Type("checkbox").Attr("data-role", "layout-toggle").Checked(c.Physical).OnChange(func(ctx app.Context, e app.Event) {
					physical := ctx.JSSrc().Get("checked").Bool()
					c.OnCommand(ctx, func(s *inspect.Session) bool { s.SetPhysical(physical); return true })
				}),
				app.Text(" physical layout"),
			),
			app.Span().Class("layout").Attr("data-role", "layout").Text(layout+": shape "+tensorext.FormatShape(t.Shape)+kit.NamesSuffix(t.DimNames)),
		),
		app.Range(c.Sliders).Slice(func(i int) app.UI { return c.slider(c.Sliders[i]) }),
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Colormap "), c.colormapSelect()),
			app.Label().Body(app.Text("Range "), c.rangeSelect()),
			app.If(c.RangeMode == inspect.Manual, func() app.UI {
				return app.Span().Body(
					c.rangeInput("range-min", c.Manual.Min, func(r *inspect.Range, v float64) { r.Min = v }),
					app.Text(" to "),
					c.rangeInput("range-max", c.Manual.Max, func(r *inspect.Range, v float64) { r.Max = v }),
				)
			}),
		),
	)
}

// button is a push button running cmd; pressed, when not nil, is shown as
// its aria-pressed state.
func (c *InspectorControls) button(action, label string, pressed *bool, cmd func(*inspect.Session)) app.UI {
	b := app.Button().Type("button").Attr("data-action", action)
	if pressed != nil {
		b = b.Attr("aria-pressed", *pressed)
	}
	return b.Text(label).OnClick(func(ctx app.Context, e app.Event) {
		c.OnCommand(ctx, func(s *inspect.Session) bool { cmd(s); return true })
	})
}

// selected reads the integer value of the select or input that fired.
func selected(ctx app.Context) (int, bool) {
	k, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	return k, err == nil
}

func (c *InspectorControls) axisSelect(role string, dims []int, current int, set func(*inspect.Session, int) bool) app.UI {
	return app.Select().Attr("data-role", role).OnChange(func(ctx app.Context, e app.Event) {
		if k, ok := selected(ctx); ok {
			c.OnCommand(ctx, func(s *inspect.Session) bool { return set(s, k) })
		}
	}).Body(
		app.Range(dims).Slice(func(i int) app.UI {
			return app.Option().Value(dims[i]).Selected(dims[i] == current).Text(inspect.DimLabel(c.Shown, dims[i]))
		}),
	)
}

func (c *InspectorControls) channelSelect() app.UI {
	return app.Select().Attr("data-role", "channel").OnChange(func(ctx app.Context, e app.Event) {
		if k, ok := selected(ctx); ok {
			c.OnCommand(ctx, func(s *inspect.Session) bool { return s.SetChannel(k) })
		}
	}).Body(
		app.Option().Value(-1).Selected(c.View.Channel < 0).Text("none (colormap)"),
		app.Range(c.Channels).Slice(func(i int) app.UI {
			return app.Option().Value(c.Channels[i]).Selected(c.Channels[i] == c.View.Channel).Text(inspect.DimLabel(c.Shown, c.Channels[i]))
		}),
	)
}

// slider moves along dimension k: a labelled range input and a number box.
func (c *InspectorControls) slider(k int) app.UI {
	t := c.Shown
	id := fmt.Sprintf("dim-%d", k)
	set := func(ctx app.Context, e app.Event) {
		v, ok := selected(ctx)
		if !ok {
			ctx.PreventUpdate()
			return
		}
		c.OnCommand(ctx, func(s *inspect.Session) bool { return s.SetIndex(k, v) })
	}
	index := 0
	if k < len(c.View.Index) {
		index = c.View.Index[k]
	}
	return app.Div().Class("slider").Body(
		app.Label().For(id).Text(inspect.DimLabel(t, k)),
		app.Input().Type("range").ID(id).Attr("data-dim", k).Min(0).Max(t.Shape[k]-1).Value(index).
			Aria("label", "index along "+inspect.DimLabel(t, k)).OnInput(set, app.EventScope(id)),
		app.Input().Type("number").Class("index").Attr("data-dim-index", k).Min(0).Max(t.Shape[k]-1).Value(index).
			Aria("label", "index along "+inspect.DimLabel(t, k)).OnChange(set, app.EventScope(id)),
	)
}

func (c *InspectorControls) colormapSelect() app.UI {
	return app.Select().Attr("data-role", "colormap").OnChange(func(ctx app.Context, e app.Event) {
		name := ctx.JSSrc().Get("value").String()
		c.OnCommand(ctx, func(s *inspect.Session) bool { return s.SetColormap(name) })
	}).Body(
		app.Range(inspect.Colormaps).Slice(func(i int) app.UI {
			name := inspect.Colormaps[i].Name
			return app.Option().Value(name).Selected(name == c.Colormap).Text(name)
		}),
	)
}

func (c *InspectorControls) rangeSelect() app.UI {
	return app.Select().Attr("data-role", "range-mode").OnChange(func(ctx app.Context, e app.Event) {
		mode := ctx.JSSrc().Get("value").String()
		c.OnCommand(ctx, func(s *inspect.Session) bool { return s.SetRangeMode(mode) })
	}).Body(
		app.Range(inspect.RangeModes).Slice(func(i int) app.UI {
			m := inspect.RangeModes[i]
			return app.Option().Value(m.Mode).Selected(m.Mode == c.RangeMode).Text(m.Label)
		}),
	)
}

func (c *InspectorControls) rangeInput(role string, v float64, set func(*inspect.Range, float64)) app.UI {
	return app.Input().Type("number").Attr("step", "any").Attr("data-role", role).Value(formatFloat(v)).
		OnChange(func(ctx app.Context, e app.Event) {
			f, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return
			}
			c.OnCommand(ctx, func(s *inspect.Session) bool {
				r := s.Manual
				set(&r, f)
				return s.SetManual(r)
			})
		}, app.EventScope(role))
}
