//go:build !purego

#include "textflag.h"

// AVX2 kernels of shuffle_amd64.go: split nc interleaved channels into nc
// streams (deint) or merge nc streams into interleaved channels (int), 32
// bytes of each stream per iteration. Each 128-bit lane holds 16*nc bytes of
// the interleaved side: lane 0 the iteration's first 16*nc bytes, lane 1 the
// next. VPSHUFB shuffles within a lane, so output register k is the OR of
// VPSHUFB(input c, mask[k*nc+c]) over the nc inputs (shuffleMasks builds the
// masks; a mask byte 0x80 gives 0).

// LOADLANES loads 16 bytes at lo and 16 at hi into the two lanes of y (x is
// y's low half).
#define LOADLANES(lo, hi, x, y) \
	VMOVDQU lo, x; \
	VINSERTI128 $1, hi, y, y

// STORELANES stores y's low lane at lo and its high lane at hi.
#define STORELANES(y, x, lo, hi) \
	VMOVDQU x, lo; \
	VEXTRACTI128 $1, y, hi

// MIX2/MIX3/MIX4 set Y7 to the OR of the shuffles of Y0..Y(nc-1) by the
// masks m0..m(nc-1) (registers or memory), using Y6 as scratch.
#define MIX2(m0, m1) \
	VPSHUFB m0, Y0, Y7; \
	VPSHUFB m1, Y1, Y6; \
	VPOR Y6, Y7, Y7

#define MIX3(m0, m1, m2) \
	MIX2(m0, m1); \
	VPSHUFB m2, Y2, Y6; \
	VPOR Y6, Y7, Y7

#define MIX4(m0, m1, m2, m3) \
	MIX3(m0, m1, m2); \
	VPSHUFB m3, Y3, Y6; \
	VPOR Y6, Y7, Y7

// func deint2AVX2(d0, d1, src *byte, iters int, masks *byte)
TEXT ·deint2AVX2(SB), NOSPLIT, $0-40
	MOVQ d0+0(FP), R8
	MOVQ d1+8(FP), R9
	MOVQ src+16(FP), SI
	MOVQ iters+24(FP), CX
	MOVQ masks+32(FP), AX
	VMOVDQU 0(AX), Y8
	VMOVDQU 32(AX), Y9
	VMOVDQU 64(AX), Y10
	VMOVDQU 96(AX), Y11
	TESTQ CX, CX
	JZ deint2done

deint2loop:
	LOADLANES(0(SI), 32(SI), X0, Y0)
	LOADLANES(16(SI), 48(SI), X1, Y1)
	MIX2(Y8, Y9)
	VMOVDQU Y7, 0(R8)
	MIX2(Y10, Y11)
	VMOVDQU Y7, 0(R9)
	ADDQ $64, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ deint2loop

deint2done:
	VZEROUPPER
	RET

// func deint3AVX2(d0, d1, d2, src *byte, iters int, masks *byte)
TEXT ·deint3AVX2(SB), NOSPLIT, $0-48
	MOVQ d0+0(FP), R8
	MOVQ d1+8(FP), R9
	MOVQ d2+16(FP), R10
	MOVQ src+24(FP), SI
	MOVQ iters+32(FP), CX
	MOVQ masks+40(FP), AX
	VMOVDQU 0(AX), Y8
	VMOVDQU 32(AX), Y9
	VMOVDQU 64(AX), Y10
	VMOVDQU 96(AX), Y11
	VMOVDQU 128(AX), Y12
	VMOVDQU 160(AX), Y13
	VMOVDQU 192(AX), Y14
	VMOVDQU 224(AX), Y15
	VMOVDQU 256(AX), Y5
	TESTQ CX, CX
	JZ deint3done

deint3loop:
	LOADLANES(0(SI), 48(SI), X0, Y0)
	LOADLANES(16(SI), 64(SI), X1, Y1)
	LOADLANES(32(SI), 80(SI), X2, Y2)
	MIX3(Y8, Y9, Y10)
	VMOVDQU Y7, 0(R8)
	MIX3(Y11, Y12, Y13)
	VMOVDQU Y7, 0(R9)
	MIX3(Y14, Y15, Y5)
	VMOVDQU Y7, 0(R10)
	ADDQ $96, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	DECQ CX
	JNZ deint3loop

deint3done:
	VZEROUPPER
	RET

// func deint4AVX2(d0, d1, d2, d3, src *byte, iters int, masks *byte)
TEXT ·deint4AVX2(SB), NOSPLIT, $0-56
	MOVQ d0+0(FP), R8
	MOVQ d1+8(FP), R9
	MOVQ d2+16(FP), R10
	MOVQ d3+24(FP), R11
	MOVQ src+32(FP), SI
	MOVQ iters+40(FP), CX
	MOVQ masks+48(FP), AX
	TESTQ CX, CX
	JZ deint4done

deint4loop:
	LOADLANES(0(SI), 64(SI), X0, Y0)
	LOADLANES(16(SI), 80(SI), X1, Y1)
	LOADLANES(32(SI), 96(SI), X2, Y2)
	LOADLANES(48(SI), 112(SI), X3, Y3)
	MIX4(0(AX), 32(AX), 64(AX), 96(AX))
	VMOVDQU Y7, 0(R8)
	MIX4(128(AX), 160(AX), 192(AX), 224(AX))
	VMOVDQU Y7, 0(R9)
	MIX4(256(AX), 288(AX), 320(AX), 352(AX))
	VMOVDQU Y7, 0(R10)
	MIX4(384(AX), 416(AX), 448(AX), 480(AX))
	VMOVDQU Y7, 0(R11)
	ADDQ $128, SI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNZ deint4loop

deint4done:
	VZEROUPPER
	RET

// func int2AVX2(dst, s0, s1 *byte, iters int, masks *byte)
TEXT ·int2AVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ s0+8(FP), R8
	MOVQ s1+16(FP), R9
	MOVQ iters+24(FP), CX
	MOVQ masks+32(FP), AX
	VMOVDQU 0(AX), Y8
	VMOVDQU 32(AX), Y9
	VMOVDQU 64(AX), Y10
	VMOVDQU 96(AX), Y11
	TESTQ CX, CX
	JZ int2done

int2loop:
	VMOVDQU 0(R8), Y0
	VMOVDQU 0(R9), Y1
	MIX2(Y8, Y9)
	STORELANES(Y7, X7, 0(DI), 32(DI))
	MIX2(Y10, Y11)
	STORELANES(Y7, X7, 16(DI), 48(DI))
	ADDQ $64, DI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ int2loop

int2done:
	VZEROUPPER
	RET

// func int3AVX2(dst, s0, s1, s2 *byte, iters int, masks *byte)
TEXT ·int3AVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ s0+8(FP), R8
	MOVQ s1+16(FP), R9
	MOVQ s2+24(FP), R10
	MOVQ iters+32(FP), CX
	MOVQ masks+40(FP), AX
	VMOVDQU 0(AX), Y8
	VMOVDQU 32(AX), Y9
	VMOVDQU 64(AX), Y10
	VMOVDQU 96(AX), Y11
	VMOVDQU 128(AX), Y12
	VMOVDQU 160(AX), Y13
	VMOVDQU 192(AX), Y14
	VMOVDQU 224(AX), Y15
	VMOVDQU 256(AX), Y5
	TESTQ CX, CX
	JZ int3done

int3loop:
	VMOVDQU 0(R8), Y0
	VMOVDQU 0(R9), Y1
	VMOVDQU 0(R10), Y2
	MIX3(Y8, Y9, Y10)
	STORELANES(Y7, X7, 0(DI), 48(DI))
	MIX3(Y11, Y12, Y13)
	STORELANES(Y7, X7, 16(DI), 64(DI))
	MIX3(Y14, Y15, Y5)
	STORELANES(Y7, X7, 32(DI), 80(DI))
	ADDQ $96, DI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	DECQ CX
	JNZ int3loop

int3done:
	VZEROUPPER
	RET

// func int4AVX2(dst, s0, s1, s2, s3 *byte, iters int, masks *byte)
TEXT ·int4AVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ s0+8(FP), R8
	MOVQ s1+16(FP), R9
	MOVQ s2+24(FP), R10
	MOVQ s3+32(FP), R11
	MOVQ iters+40(FP), CX
	MOVQ masks+48(FP), AX
	TESTQ CX, CX
	JZ int4done

int4loop:
	VMOVDQU 0(R8), Y0
	VMOVDQU 0(R9), Y1
	VMOVDQU 0(R10), Y2
	VMOVDQU 0(R11), Y3
	MIX4(0(AX), 32(AX), 64(AX), 96(AX))
	STORELANES(Y7, X7, 0(DI), 64(DI))
	MIX4(128(AX), 160(AX), 192(AX), 224(AX))
	STORELANES(Y7, X7, 16(DI), 80(DI))
	MIX4(256(AX), 288(AX), 320(AX), 352(AX))
	STORELANES(Y7, X7, 32(DI), 96(DI))
	MIX4(384(AX), 416(AX), 448(AX), 480(AX))
	STORELANES(Y7, X7, 48(DI), 112(DI))
	ADDQ $128, DI
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNZ int4loop

int4done:
	VZEROUPPER
	RET
