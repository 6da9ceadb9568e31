package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// readFile reads a browser File (or Blob with a name) whole and sends it to
// the Viewer. It never blocks: the bytes arrive in a promise callback.
func readFile(ctx app.Context, file app.Value) {
	name := file.Get("name").String()
	ctx.NewActionWithValue(actionLoading, name)
	readBuffer(ctx, name, file.Call("arrayBuffer"))
}

// readBuffer waits for a promise of an ArrayBuffer and sends its bytes to
// the Viewer as a file of the given name, or the rejection as an error.
func readBuffer(ctx app.Context, name string, promise app.Value) {
	var ok, fail app.Func
	release := func() {
		ok.Release()
		fail.Release()
	}
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		buf := app.Window().Get("Uint8Array").New(args[0])
		data := make([]byte, buf.Length())
		app.CopyBytesToGo(data, buf)
		ctx.NewActionWithValue(actionOpen, fileBytes{Name: name, Data: data})
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		msg := "the browser could not read the file"
		if len(args) > 0 && args[0].Truthy() {
			msg += ": " + args[0].Call("toString").String()
		}
		ctx.NewActionWithValue(actionFail, msg)
		return nil
	})
	promise.Call("then", ok, fail)
}

// fetchFile downloads a file shipped with the site and opens it.
func fetchFile(ctx app.Context, name, url string) {
	ctx.NewActionWithValue(actionLoading, name)
	var ok, fail app.Func
	release := func() {
		ok.Release()
		fail.Release()
	}
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		resp := args[0]
		if !resp.Get("ok").Bool() {
			ctx.NewActionWithValue(actionFail, "could not download "+name+": HTTP "+resp.Get("status").String())
			return nil
		}
		readBuffer(ctx, name, resp.Call("arrayBuffer"))
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		ctx.NewActionWithValue(actionFail, "could not download "+name)
		return nil
	})
	app.Window().Call("fetch", url).Call("then", ok, fail)
}
