// Package httpmeter counts the body bytes an HTTP handler writes: the test
// servers and the browser benchmark use it to tell how much of a file a
// viewer transferred.
//
// Entry points: Meter (Wrap a handler; Read and Reset the bytes and
// requests it served), Writer (the http.ResponseWriter that counts).
package httpmeter
