package imagebytes

import "time"

// wasmNsPerPixel is the time Decode takes per pixel in WebAssembly, by
// format: BenchmarkFormats under Node.js 20 (GOOS=js GOARCH=wasm, go test
// -exec go_js_wasm_exec) on this project's shared 2-core build machine,
// best of 3, rounded up: JPEG 43 (1024×768, quality 85, 4:2:0), PNG 39
// (8-bit RGB), GIF 48, WebP lossy 136 (with alpha); a 3840×2160 JPEG took
// 328 ms (40 ns/px). PNG varies with colour type, depth and compression,
// JPEG with quality, so these are estimates for scheduling, not promises.
var wasmNsPerPixel = map[Format]float64{
	JPEG: 50,
	PNG:  50,
	GIF:  55,
	WebP: 150,
}

// wasmNsPerLosslessPixel is WebP lossless (VP8L): 86 to 166 ns/px measured
// on a simple drawing; photographs cost more, so the estimate is generous.
const wasmNsPerLosslessPixel = 200

// EstimatedDecode estimates how long Decode (or DecodePreview, within
// about 10%) takes for this image in the browser's WebAssembly, from the
// header alone, so that the viewer can spread decoding over frames (for
// example, decode while the estimates of the cells decoded so far in a
// frame stay under 8 ms, and never more than one large image a frame).
// Native code is 2 to 4 times faster. Zero for an Info without a known
// format.
func (i Info) EstimatedDecode() time.Duration {
	ns := wasmNsPerPixel[i.Format]
	if i.Format == WebP && i.Lossless {
		ns = wasmNsPerLosslessPixel
	}
	return time.Duration(ns * float64(i.Pixels()))
}
