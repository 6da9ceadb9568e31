// Package corsfetch is a remote.Fetcher over net/http that sees responses
// as a page's fetch does across origins, for native tests of code that runs
// in the page (app/remote, app/listing) against test servers such as
// internal/hubfake: it sends Origin and no header but a single Range; it
// follows redirects only when each redirect response allows the origin
// (the Fetch standard's CORS check, per hop, with the origin serialized as
// "null" after a redirect from one cross origin to another); a response
// that does not allow the origin is a *remote.CORSError; of the response
// headers, only the CORS-safelisted ones and those named by
// Access-Control-Expose-Headers are visible; Response.URL is the address
// that answered.
//
// Entry point: Fetcher (its zero value works: origin http://page.test).
package corsfetch
