package grid

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// The masks over the grid's thumbnails (in plain Go
// thumbmaskplan.go): the button of an image column's header that turns its
// mask on and off, and the Viewer's side: the masks of the level shown,
// and a toggle written into the address (thumbmask=) for the file, kept
// with the level for a nested record batch (whose view is not in the
// address).

// ActionThumbMask turns a mask over thumbnails on or off: the pair's key
// (thumbPair.key).
const ActionThumbMask kit.Action[string] = "tv/thumb-mask"

// maskToggle is the button of an image column's header that turns the
// mask over its thumbnails on and off (aria-pressed: drawn), or nil for a
// column without one.
func (h *ColumnHead) maskToggle() app.UI {
	m := h.Mask
	if m == nil {
		return nil
	}
	key, title := m.Key(), "Draw "+m.MaskField+" over the thumbnails of "+m.ImageField
	if m.On {
		title = m.MaskField + " is drawn over the thumbnails of " + m.ImageField + ": press to hide it"
	}
	// "mask: annotation", or "mask" alone in a narrow header (the style
	// sheet hides the field's part): the label names it.
	return app.Button().Type("button").Class("mask-toggle").Attr("data-action", "toggle-mask").Attr("data-mask", m.MaskField).
		Aria("pressed", m.On).Aria("label", "mask: "+m.MaskField).Title(title).Body(
		app.Span().Class("mask-word").Text("mask"),
		app.Span().Class("mask-field").Text(": "+m.MaskField),
	).OnClick(func(ctx app.Context, e app.Event) { ActionThumbMask.Send(ctx, key) },
		// go-app keeps a handler whose scope is the same (closures of one
		// literal compare equal): another pair in this place must replace
		// it.
		app.EventScope("mask-"+key))
}

// maskOf is the mask over column c's thumbnails, nil if none.
func maskOf(masks []session.ThumbMask, c int) *session.ThumbMask {
	for i := range masks {
		if masks[i].Image == c {
			return &masks[i]
		}
	}
	return nil
}
