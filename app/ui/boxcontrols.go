package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// BoxControls choose the column of detection boxes drawn over the
// inspector's picture and their format, and say what became of the boxes:
// the format's reason (stated by the file, guessed, or chosen), the counts
// of boxes drawn, clipped, outside the image and invalid, each box not
// drawn with why, and why none is drawn. It shows a snapshot of the
// inspector's boxState and hands every change to OnChange as a command
// on it.
type BoxControls struct {
	app.Compo
	Choices  []boxes.Choice
	Chosen   int // index in Choices, -1 for none
	Layer    boxes.Layer
	User     bool // the format is the user's choice
	Drawn    int  // boxes on the picture
	Off      string
	Note     string
	OnChange func(ctx app.Context, cmd func(*boxState) bool)
}

// Render draws the controls; nothing when no column of boxes is offered.
func (c *BoxControls) Render() app.UI {
	if len(c.Choices) == 0 {
		return app.Div().Class("box-controls").Hidden(true)
	}
	l := c.Layer
	placed := l.Raw != nil && l.Format != overlay.UnknownFormat
	return app.Div().Class("box-controls").Attr("data-role", "box-controls").Body(
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Boxes "), c.columnSelect()),
			app.If(placed, func() app.UI { return app.Label().Body(app.Text("Format "), c.formatSelect()) }),
		),
		app.If(placed, func() app.UI {
			return app.P().Class("note").Attr("data-role", "box-format-reason").Attr("data-format", l.Format.String()).
				Attr("data-guess", l.Auto.String()).Text(formatReason(l, c.User))
		}),
		app.If(placed && l.Err == "", func() app.UI { return c.counts() }),
		app.If(placed && len(l.Placed.Errors) > 0, func() app.UI {
			errs := l.Placed.Errors
			return app.Ul().Class("box-errors").Attr("data-role", "box-errors").Aria("label", "Boxes not drawn").Body(
				app.Range(errs).Slice(func(i int) app.UI {
					return app.Li().Attr("data-box", errs[i].Index).Text(errs[i].Error())
				}),
			)
		}),
		app.If(c.Off != "" || c.Note != "", func() app.UI {
			return app.P().Class("overlay-note").Role("status").Attr("data-role", "box-note").Text(joinSentences(c.Off, c.Note))
		}),
	)
}

// formatReason says which format the boxes are placed in and why.
func formatReason(l boxes.Layer, user bool) string {
	switch {
	case user:
		return fmt.Sprintf("Format %s, as chosen; the file's would be %s (%s).", l.Format, l.Auto, autoWhy(l))
	case l.Stated:
		return fmt.Sprintf("Format %s, %s.", l.Format, l.AutoWhy)
	}
	return fmt.Sprintf("Format %s, guessed: %s.", l.Format, l.AutoWhy)
}

func autoWhy(l boxes.Layer) string {
	if l.Stated {
		return l.AutoWhy
	}
	return "guessed: " + l.AutoWhy
}

// counts says how many boxes were drawn and what became of the others.
func (c *BoxControls) counts() app.UI {
	p := c.Layer.Placed
	parts := []string{kit.Plural(c.Drawn, "box", "boxes") + " drawn"}
	if n := len(p.Boxes); n != c.Drawn { // the picture cannot take them
		parts[0] = kit.Plural(n, "box", "boxes") + " on the image, not drawn"
	}
	if p.Clipped > 0 {
		parts = append(parts, fmt.Sprintf("%d clipped at the image's edges", p.Clipped))
	}
	if p.Outside > 0 {
		parts = append(parts, fmt.Sprintf("%d outside the image", p.Outside))
	}
	if p.Invalid > 0 {
		parts = append(parts, fmt.Sprintf("%d invalid", p.Invalid))
	}
	return app.P().Class("box-counts").Attr("data-role", "box-counts").
		Attr("data-drawn", c.Drawn).Attr("data-clipped", p.Clipped).Attr("data-outside", p.Outside).Attr("data-invalid", p.Invalid).
		Text(fmt.Sprintf("%s of %d: %s.", c.Layer.Field, len(c.Layer.Raw), strings.Join(parts, ", ")))
}

func (c *BoxControls) columnSelect() app.UI {
	return app.Select().Attr("data-role", "box-select").OnChange(func(ctx app.Context, e app.Event) {
		if i, ok := selected(ctx); ok {
			c.OnChange(ctx, func(b *boxState) bool { return b.choose(i) })
		}
	}).Body(
		app.Option().Value(-1).Selected(c.Chosen < 0).Text("none"),
		app.Range(c.Choices).Slice(func(i int) app.UI {
			return app.Option().Value(i).Selected(i == c.Chosen).Text(c.Choices[i].Column.Name)
		}),
	)
}

func (c *BoxControls) formatSelect() app.UI {
	return app.Select().Attr("data-role", "box-format").OnChange(func(ctx app.Context, e app.Event) {
		if f, ok := overlay.ParseBoxFormat(ctx.JSSrc().Get("value").String()); ok {
			c.OnChange(ctx, func(b *boxState) bool { return b.setFormat(f) })
		}
	}).Body(
		app.Range(boxes.Formats).Slice(func(i int) app.UI {
			f := boxes.Formats[i]
			return app.Option().Value(f.Format.String()).Selected(f.Format == c.Layer.Format).Text(f.Label)
		}),
	)
}

// BoxList lists the boxes drawn over the picture, each with its colour,
// label (index and class name) and pixel corners: pointing at one or
// focusing it draws its box wider, pressing it keeps it so.
type BoxList struct {
	app.Compo
	Boxes     []boxes.Label // in index order
	Corners   []string      // each box's corners on the image, as text
	Highlight int
	Pinned    int
	OnChange  func(ctx app.Context, cmd func(*boxState) bool)
}

// Render draws the list.
func (l *BoxList) Render() app.UI {
	return app.Section().Class("box-list").Body(
		app.H3().Text(fmt.Sprintf("Boxes (%d)", len(l.Boxes))),
		app.Ul().Attr("data-role", "boxes").Attr("data-count", len(l.Boxes)).Aria("label", "Boxes drawn (point at or press one to highlight it)").Body(
			app.Range(l.Boxes).Slice(func(i int) app.UI {
				b := l.Boxes[i]
				scope := app.EventScope("box-" + strconv.Itoa(b.Index))
				set := func(k int) func(app.Context, app.Event) {
					return func(ctx app.Context, e app.Event) {
						l.OnChange(ctx, func(s *boxState) bool { return s.setHover(k) })
					}
				}
				btn := app.Button().Type("button").Attr("data-box", b.Index).Aria("pressed", b.Index == l.Pinned)
				if b.Index == l.Highlight {
					btn = btn.Class("lit")
				}
				return app.Li().Body(
					btn.OnMouseEnter(set(b.Index), scope).OnMouseLeave(set(-1), scope).
						OnFocus(set(b.Index), scope).OnBlur(set(-1), scope).
						OnClick(func(ctx app.Context, e app.Event) {
							l.OnChange(ctx, func(s *boxState) bool { return s.togglePin(b.Index) })
						}, scope).Body(
						app.Span().Class("swatch").Aria("hidden", "true").
							Style("background", fmt.Sprintf("rgb(%d,%d,%d)", b.Color.R, b.Color.G, b.Color.B)),
						app.Span().Class("box-label").Text(b.Text),
						app.Span().Class("box-corners").Text(l.Corners[i]),
					),
				)
			}),
		),
	)
}

// cornersText is a placed box's corners for the list: "x 4–14, y 3–11",
// "(clipped)" after one cut at the image's edges.
func cornersText(b overlay.Box) string {
	s := fmt.Sprintf("x %s–%s, y %s–%s", num(b.X0), num(b.X1), num(b.Y0), num(b.Y1))
	if b.Clipped {
		s += " (clipped)"
	}
	return s
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// labelLayer draws the boxes' labels over the picture's viewport: each at
// its box's top left corner on the picture (k CSS pixels a picture pixel,
// the picture's top left corner at pan), or ending at its top right corner
// in the picture's right half, above the box when there is room.
// They repeat the list's text (BoxList), hence hidden from assistive
// technology.
func labelLayer(labels []boxes.Label, pan inspect.Point, k float64) app.UI {
	if len(labels) == 0 {
		return nil
	}
	return app.Div().Class("box-labels").Aria("hidden", "true").Body(
		app.Range(labels).Slice(func(i int) app.UI {
			b := labels[i]
			x, y := pan.X+b.X*k, pan.Y+b.Y*k
			cls := "box-tag"
			if b.Right {
				x, cls = pan.X+b.XEnd*k, cls+" right"
			}
			if y >= 16 {
				cls += " above"
			}
			if b.Highlight {
				cls += " lit"
			}
			return app.Span().Class(cls).Attr("data-role", "box-label").Attr("data-box", b.Index).
				Style("left", fmt.Sprintf("%.1fpx", x)).Style("top", fmt.Sprintf("%.1fpx", y)).
				Style("background", fmt.Sprintf("rgb(%d,%d,%d)", b.Color.R, b.Color.G, b.Color.B)).Style("color", b.Ink).
				Text(b.Text)
		}),
	)
}

// boxCommand applies a change to the boxes (BoxControls, BoxList).
func (in *Inspector) boxCommand(ctx app.Context, cmd func(*boxState) bool) {
	if in.bx == nil || !cmd(in.bx) {
		ctx.PreventUpdate()
		return
	}
	in.report(ctx)
}

// boxParts are the inspector's box components for the picture drawn
// (boxState.picture first): the controls, and the list when boxes are
// drawn (nil otherwise).
func (in *Inspector) boxParts(labels []boxes.Label, off string) (controls, list app.UI) {
	b := in.bx
	controls = &BoxControls{Choices: b.choices, Chosen: b.chosen, Layer: b.layer, User: b.format != overlay.UnknownFormat,
		Drawn: b.drawn(), Off: off, Note: b.note, OnChange: in.boxCommand}
	if b.chosen < 0 || off != "" {
		return controls, nil
	}
	corners := make([]string, len(b.layer.Placed.Boxes))
	for i, p := range b.layer.Placed.Boxes {
		corners[i] = cornersText(p)
	}
	return controls, &BoxList{Boxes: labels, Corners: corners, Highlight: b.highlight(), Pinned: b.pinned, OnChange: in.boxCommand}
}
