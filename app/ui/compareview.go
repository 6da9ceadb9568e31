package ui

import (
	"fmt"
	"image"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/tensorext"
)

// The inspector's comparison view: A and B side by side (or swiped) and
// A − B, one inspect.View and one camera driving every pane; the panes
// say the camera's pan and zoom (data-pan "x,y", data-zoom), which a drag
// or pinch under way updates with every move (SliceView.follow).

// controls are the inspector's controls on its session.
func (in *Inspector) controls() app.UI {
	s := in.session
	return &InspectorControls{Shown: s.Shown(), View: s.View, Physical: s.Physical, Colormap: s.Colormap,
		RangeMode: s.RangeMode, Manual: s.Manual, Channels: s.ChannelChoices(), Sliders: s.Sliders(), OnCommand: in.command}
}

// compareCommand applies a change to the comparison (CompareControls,
// DiffStats).
func (in *Inspector) compareCommand(ctx app.Context, cmd func(*compareState) bool) {
	if in.cmp == nil || !cmd(in.cmp) {
		ctx.PreventUpdate()
		return
	}
	in.report(ctx)
}

// compareControls choose what to compare with, and say why nothing is
// compared.
func (in *Inspector) compareControls() app.UI {
	c := in.cmp
	if c == nil {
		return &CompareControls{}
	}
	problem := joinSentences(c.cmp.Problem, c.note)
	if c.on() && c.cmp.Problem == "" && in.session.Physical {
		problem = "Comparisons show the logical layout: untick “physical layout” to see A − B."
	}
	return &CompareControls{Choices: c.choices, Chosen: c.choice(), Row: c.b.Row, Rows: c.rows, Swipe: c.swipe,
		Shown: in.comparing() && in.session.Image != nil, Problem: problem, OnChange: in.compareCommand}
}

// comparing reports whether the inspector shows a comparison (of
// pictures, or of tensors that have none: their statistics).
func (in *Inspector) comparing() bool {
	s := in.session
	return in.cmp.ok() && s != nil && !s.Physical
}

// compareBody draws A, B and A − B, their statistics and exports.
func (in *Inspector) compareBody() app.UI {
	s, c := in.session, in.cmp
	t := s.Shown()
	p := c.pictures(s)
	d := c.cmp.Diff
	a, b := "A: "+c.a.String(), "B: "+c.b.String()
	return app.Div().Class("inspector-body").Body(
		app.Div().Class("inspector-main").Body(
			in.controls(),
			in.compareControls(),
			app.If(p.Err != "", func() app.UI {
				return app.P().Class("render-error").Role("status").Text(p.Err)
			}),
			app.If(s.RenderErr != nil, func() app.UI {
				// No picture (a 1-D tensor): A − B as numbers.
				return app.Div().Body(
					app.P().Class("render-error").Role("status").Text(s.RenderErr.Error()),
					app.Pre().Class("values").Attr("data-role", "diff-values").Text(summary.ValuesText(d.D, maxValuesText)),
				)
			}),
			app.If(p.A != nil && p.Swiped == nil, func() app.UI {
				return app.Div().Class("compare-panes").Attr("data-role", "compare-panes").Attr("data-mode", "side").
					Attr("data-pan", panText(in.cam)).Attr("data-zoom", exact(in.cam.Scale())).Body(
					in.comparePane("a", a, t, p.A),
					in.comparePane("b", b, c.cmp.B, p.B),
					in.comparePane("diff", "A − B", d.D, p.D),
				)
			}),
			// Swiped, the panes are in another element (a section, not a
			// div): go-app mounts them anew, and each measures the width
			// its column has now, as the other mode's panes did theirs
			// (one camera needs panes of one size).
			app.If(p.Swiped != nil, func() app.UI { return in.swipePanes(t, p) }),
			app.If(p.A != nil && s.View.Channel < 0, func() app.UI {
				return app.Div().Class("compare-bar").Attr("data-role", "ab-colorbar").Body(
					app.Span().Class("bar-label").Text("A, B"),
					&Colorbar{Colormap: s.Colormap, Range: p.Range},
				)
			}),
			app.If(p.A != nil, func() app.UI {
				return app.Div().Class("compare-bar").Attr("data-role", "diff-colorbar").Body(
					app.Span().Class("bar-label").Text("A − B"),
					&Colorbar{Colormap: overlay.DiffColormap().Name, Range: d.Range()},
				)
			}),
		),
		app.Aside().Class("inspector-side").Body(
			&DiffStats{Diff: d, DimNames: t.DimNames, OnChange: in.compareCommand, OnGoto: func(ctx app.Context) {
				in.command(ctx, func(s *inspect.Session) bool { return c.gotoMax(s) })
			}},
			&DiffExport{D: d.D, Image: p.D, Name: fmt.Sprintf("%s-row%d-minus-%s-row%d", safeName(c.a.Field), c.a.Row, safeName(c.b.Field), c.b.Row)},
			&StatsPanel{Stats: s.Stats, Shape: t.Shape, ValueType: t.ValueType().String()},
		),
	)
}

// swipePanes are the compare view's panes in swipe mode: A left of the
// swipe's position and B right of it in one pane, beside A − B.
func (in *Inspector) swipePanes(t tensorext.Tensor, p comparePictures) app.UI {
	s, c := in.session, in.cmp
	d := c.cmp.Diff
	return app.Section().Class("compare-panes").Attr("data-role", "compare-panes").Attr("data-mode", "swipe").
		Attr("data-pan", panText(in.cam)).Attr("data-zoom", exact(in.cam.Scale())).Body(
		app.Div().Class("compare-pane").Attr("data-side", "swipe").Role("group").Aria("label", "A | B").Body(
			app.P().Class("pane-caption").Text(fmt.Sprintf("A | B: %s left of %d%%, %s right", c.a, c.swipe, c.b)),
			app.Label().Class("swipe").Body(app.Text("Swipe "),
				app.Input().Type("range").Attr("data-role", "swipe").Min(0).Max(100).Step(1).Value(c.swipe).
					OnInput(func(ctx app.Context, e app.Event) {
						if v, ok := selected(ctx); ok {
							in.compareCommand(ctx, func(c *compareState) bool { return c.setSwipe(v) })
						}
					}, app.EventScope("swipe"))),
			&SliceView{Tensor: t, View: s.View, Img: p.Swiped, Start: in.cam, Also: c.probe(s, "a"), Shared: true},
		),
		in.comparePane("diff", "A − B", d.D, p.D),
	)
}

// comparePane is one pane of the compare view: the picture img of tensor
// t (A, B or A − B) under its caption, panned and zoomed with the others.
func (in *Inspector) comparePane(side, caption string, t tensorext.Tensor, img *image.RGBA) app.UI {
	s, c := in.session, in.cmp
	return app.Div().Class("compare-pane").Attr("data-side", side).Role("group").Aria("label", caption).Body(
		app.P().Class("pane-caption").Text(caption),
		&SliceView{Tensor: t, View: s.View, Img: img, Start: in.cam, Also: c.probe(s, side), Shared: true},
	)
}
