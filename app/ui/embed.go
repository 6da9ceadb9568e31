package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/ui/open"
)

// Embed mode (?embed=1) shows only the viewer, for an iframe in a
// documentation page, with an "Open in tensorview" link to the same view on
// the full page. A host page talks to it with postMessage:
//
//	into the iframe: {type: "tensorview:open", url}            open a file by URL
//	                 {type: "tensorview:open", name, data}     data: ArrayBuffer or Blob
//	out of it:       {type: "tensorview:ready"}                once it listens
//	                 {type: "tensorview:state", state, file, link}
//	                     after every change of the view (a file opened, posted ones
//	                     too): state, the view's query; file, the name of the file
//	                     shown; link, the full page's address
//
// Messages are taken only from the window that embeds the page
// (event.source === window.parent) and, when ?origin= is given, only from
// that origin; messages out go to window.parent, to that origin only when
// given ("*" otherwise). The page never reads or writes anything of the
// host page.

// handleMessages listens to the host page and says it is ready.
func (l *location) handleMessages(ctx app.Context) {
	win := app.Window()
	parent, ok := embedder()
	if !ok {
		return // not in a frame
	}
	listen := app.FuncOf(func(this app.Value, args []app.Value) any {
		e := args[0]
		if !e.Get("source").Equal(parent) {
			return nil
		}
		if o := l.v.st().Origin; o != "" && e.Get("origin").String() != o {
			return nil
		}
		data := e.Get("data")
		if !data.Truthy() || data.Type() != app.TypeObject || data.Get("type").String() != "tensorview:open" {
			return nil
		}
		if u := data.Get("url"); u.Type() == app.TypeString {
			raw := u.String()
			ctx.Dispatch(func(ctx app.Context) { l.v.opener.OpenURL(ctx, raw) })
			return nil
		}
		name := "data.arrow"
		if n := data.Get("name"); n.Type() == app.TypeString && n.String() != "" {
			name = n.String()
		}
		blob := data.Get("data")
		if blob.Truthy() && !blob.InstanceOf(win.Get("Blob")) {
			if !blob.InstanceOf(win.Get("ArrayBuffer")) && !win.Get("ArrayBuffer").Call("isView", blob).Bool() {
				return nil
			}
			blob = win.Get("Blob").New([]any{blob})
		}
		if blob.Truthy() {
			open.ActionOpen.Send(ctx, open.BlobSource(name, blob))
		}
		return nil
	})
	win.Call("addEventListener", "message", listen)
	l.post(map[string]any{"type": "tensorview:ready"})
}

// embedder is the window that embeds the page in a frame; ok is false at
// the top level.
func embedder() (parent app.Value, ok bool) {
	win := app.Window()
	parent = win.Get("parent")
	return parent, parent.Truthy() && !parent.Equal(win.JSValue())
}

// post sends a message to the embedding page, if any.
func (l *location) post(msg map[string]any) {
	parent, ok := embedder()
	if !ok {
		return
	}
	target := "*"
	if o := l.v.st().Origin; o != "" {
		target = o
	}
	parent.Call("postMessage", msg, target)
}
