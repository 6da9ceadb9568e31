package imagebytes

import "time"

// wasmNsPerPixel is the time Decode takes per pixel in WebAssembly, by
// format: BenchmarkFormats run under Node.js (GOOS=js GOARCH=wasm, go test
// -exec go_js_wasm_exec) on this project's 2-core build machine, rounded
// up. PNG depends on the colour type and compression, JPEG on quality and
// subsampling, so these are estimates for scheduling, not promises.
var wasmNsPerPixel = map[Format]float64{
	JPEG: 0,
	PNG:  0,
	GIF:  0,
	WebP: 0,
}

// wasmNsPerLosslessPixel is WebP lossless (VP8L), which costs more than
// lossy.
const wasmNsPerLosslessPixel = 0

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
