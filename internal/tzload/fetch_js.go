//go:build js && wasm

package tzload

import (
	"fmt"
	"syscall/js"
	"time"
)

// FetchURL returns a Loader.Fetch that GETs ref (resolved against the
// page's document.baseURI; "web/tzdata.zip") with the browser's fetch and
// returns its body. An HTTP status other than 200 or a network failure is an
// error, and so is a fetch not done within timeout (then aborted). It must
// not be called from a JavaScript callback (js.FuncOf), which cannot wait
// for the fetch's own.
func FetchURL(ref string, timeout time.Duration) func() ([]byte, error) {
	return func() ([]byte, error) {
		u := js.Global().Get("URL").New(ref, js.Global().Get("document").Get("baseURI")).Call("toString").String()
		abort := js.Global().Get("AbortController").New()
		type result struct {
			body []byte
			err  error
		}
		done := make(chan result, 1)
		var onBody, onResponse, onError js.Func
		onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
			msg := "failed"
			if len(args) > 0 {
				msg = js.Global().Get("String").Invoke(args[0]).String()
			}
			done <- result{err: fmt.Errorf("%s: %s", u, msg)}
			return nil
		})
		onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
			b := make([]byte, args[0].Get("byteLength").Int())
			js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(args[0]))
			done <- result{body: b}
			return nil
		})
		onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
			resp := args[0]
			if st := resp.Get("status").Int(); st != 200 {
				done <- result{err: fmt.Errorf("%s: HTTP status %d", u, st)}
				return nil
			}
			resp.Call("arrayBuffer").Call("then", onBody).Call("catch", onError)
			return nil
		})
		defer onError.Release()
		defer onBody.Release()
		defer onResponse.Release()
		opts := js.Global().Get("Object").New()
		opts.Set("signal", abort.Get("signal"))
		js.Global().Call("fetch", u, opts).Call("then", onResponse).Call("catch", onError)
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		select {
		case r := <-done:
			return r.body, r.err
		case <-timer.C:
			abort.Call("abort")
			<-done // the promise's rejection, so that the functions are released after it
			return nil, fmt.Errorf("%s: no answer within %s", u, timeout)
		}
	}
}
