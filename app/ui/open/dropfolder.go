package open

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxDropFiles bounds the files a dropped folder is read for: a dataset
// of more shards is opened by a list of links.
const maxDropFiles = 100000

// droppedEntries returns the file system entries of a drop
// (DataTransfer.items' webkitGetAsEntry, which must be called during the
// drop event), and whether one is a folder.
func droppedEntries(dt app.Value) (entries []app.Value, folder bool) {
	items := dt.Get("items")
	if !items.Truthy() {
		return nil, false
	}
	for i := range items.Length() {
		it := items.Index(i)
		if it.Get("kind").String() != "file" || !it.Get("webkitGetAsEntry").Truthy() {
			continue
		}
		if e := it.Call("webkitGetAsEntry"); e.Truthy() {
			entries = append(entries, e)
			folder = folder || e.Get("isDirectory").Bool()
		}
	}
	return entries, folder
}

// readEntries reads the files of dropped entries, folders walked depth
// first (a directory reader answers in pages: it is asked until it gives
// none), then hands them to readFiles. It runs in its own goroutine: the
// browser answers by callbacks.
func readEntries(ctx app.Context, entries []app.Value) {
	var names []string
	var files []app.Value
	var failed []string
	var walk func(e app.Value)
	walk = func(e app.Value) {
		if len(files) >= maxDropFiles {
			return
		}
		path := strings.TrimPrefix(e.Get("fullPath").String(), "/")
		if e.Get("isFile").Bool() {
			f, err := await(func(ok, fail app.Func) { e.Call("file", ok, fail) })
			if err != nil {
				failed = append(failed, path)
				return
			}
			names, files = append(names, path), append(files, f) // a File's name lacks its folder
			return
		}
		r := e.Call("createReader")
		for {
			page, err := await(func(ok, fail app.Func) { r.Call("readEntries", ok, fail) })
			if err != nil || page.Length() == 0 {
				if err != nil {
					failed = append(failed, path)
				}
				return
			}
			for i := range page.Length() {
				walk(page.Index(i))
			}
		}
	}
	for _, e := range entries {
		walk(e)
	}
	if len(files) == 0 {
		ActionOpenFailed.Send(ctx, OpenFailure{What: "the dropped folder", Why: "it holds no files"})
		return
	}
	ctx.Dispatch(func(ctx app.Context) { openFiles(ctx, names, files, failed, true) })
}

// await calls start with a callback for the value and one for an error,
// and waits for either.
func await(start func(ok, fail app.Func)) (app.Value, error) {
	type answer struct {
		v   app.Value
		err error
	}
	ch := make(chan answer, 1)
	var ok, fail app.Func
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		ch <- answer{v: args[0]}
		return nil
	})
	fail = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "cannot be read"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Get("message").String()
		}
		ch <- answer{err: errString(msg)}
		return nil
	})
	start(ok, fail)
	a := <-ch
	ok.Release()
	fail.Release()
	return a.v, a.err
}

// errString is an error of the browser's words.
type errString string

func (e errString) Error() string { return string(e) }
