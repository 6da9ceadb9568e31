// Package netshape emulates a network between a test's or a benchmark's
// HTTP servers and the browser that reads from them: one link of a given
// rate that the bodies of all the responses it carries share, and a
// latency before each request is answered. The e2e tests
// (TENSORVIEW_HF_NET) and bench/browser (BENCH_NET) both shape their
// servers with it.
//
// Entry points: Shape (a rate and a latency; Parse reads "40Mbit,20ms"),
// Link (Wrap a handler behind the shape; Send paces bytes written by other
// means; Writer sends a body through the link in Chunk pieces).
package netshape
