//go:build !amd64 || purego

package tensorext

// Without the AVX2 kernels of shuffle_amd64.s (other architectures, the
// WebAssembly build, or the purego build tag), iterate.go's portable loops do
// all the work.

// useAVX2 is always false here.
var useAVX2 = false

func deinterleaveVec(dst, src []byte, w, nc, n int) int { return 0 }

func interleaveVec(dst, src []byte, w, nc, n, step int) int { return 0 }
