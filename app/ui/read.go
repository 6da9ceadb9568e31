package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fileBlob is a browser Blob to open, with its name and size.
type fileBlob struct {
	Name string
	Blob app.Value
	Size int64
}

// readFile hands a browser File to the Viewer, which reads it lazily.
func readFile(ctx app.Context, file app.Value) {
	ctx.NewActionWithValue(actionOpen, fileBlob{Name: file.Get("name").String(), Blob: file, Size: int64(file.Get("size").Float())})
}

// fetchFile downloads a file shipped with the site and opens it.
func fetchFile(ctx app.Context, name, url string) {
	ctx.NewActionWithValue(actionLoading, name)
	then(app.Window().Call("fetch", url), func(resp app.Value) {
		if !resp.Get("ok").Bool() {
			ctx.NewActionWithValue(actionFail, "could not download "+name+": HTTP "+resp.Get("status").String())
			return
		}
		then(resp.Call("blob"), func(blob app.Value) {
			ctx.NewActionWithValue(actionOpen, fileBlob{Name: name, Blob: blob, Size: int64(blob.Get("size").Float())})
		}, func(reason string) {
			ctx.NewActionWithValue(actionFail, "could not download "+name+": "+reason)
		})
	}, func(reason string) {
		ctx.NewActionWithValue(actionFail, "could not download "+name+": "+reason)
	})
}

// then calls ok with a promise's value or fail with its rejection (go-app's
// Value.Then reports no rejection). The callbacks must not block.
func then(promise app.Value, ok func(app.Value), fail func(reason string)) {
	var okFn, failFn app.Func
	release := func() {
		okFn.Release()
		failFn.Release()
	}
	okFn = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		ok(args[0])
		return nil
	})
	failFn = app.FuncOf(func(this app.Value, args []app.Value) any {
		defer release()
		reason := "unknown error"
		if len(args) > 0 && args[0].Truthy() {
			reason = args[0].Call("toString").String()
		}
		fail(reason)
		return nil
	})
	promise.Call("then", okFn, failFn)
}
