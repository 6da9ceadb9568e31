// gen_tensor_message.mjs — writes js_tensor_message.arrow: one Arrow IPC
// Tensor message, byte for byte the layout Arrow C++'s ipc::WriteTensor
// (pyarrow.ipc.write_tensor) gives, built with npm `flatbuffers` (the
// library apache-arrow JS itself uses) from the schemas in apache/arrow
// format/Message.fbs, Tensor.fbs and Schema.fbs. No JS Arrow library writes
// Tensor messages, so the flatbuffer tables are assembled here slot by slot.
//
// Regenerate:   cd testdata && npm ci && node gen_tensor_message.mjs
//
// The tensor is what numpy calls np.asfortranarray(x) of a uint8 image x of
// shape (H, W, C) = (4, 6, 3), dim names H, W, C: column-major, so its byte
// strides are (1, 4, 24) and element (h, w, c) lies at byte h + 4w + 24c.
// Its value is (40h + 20w + 90c + 7) mod 256. tensorview reads the strides
// as physical shape [3, 6, 4] (C, W, H) with permutation [2, 1, 0]; the
// logical shape is [4, 6, 3] (H, W, C), the image as written.

import { Builder } from 'flatbuffers';
import { writeFileSync } from 'node:fs';

const H = 4, W = 6, C = 3;
export const value = (h, w, c) => (40 * h + 20 * w + 90 * c + 7) % 256;

const body = new Uint8Array(H * W * C);
for (let h = 0; h < H; h++)
  for (let w = 0; w < W; w++)
    for (let c = 0; c < C; c++) body[h + H * w + H * W * c] = value(h, w, c);

const b = new Builder(512);
// Schema.fbs: table Int { bitWidth: int; is_signed: bool; }
b.startObject(2);
b.addFieldInt32(0, 8, 0);
b.addFieldInt8(1, 0, 0); // unsigned
const intType = b.endObject();
// Tensor.fbs: table TensorDim { size: long; name: string; }
const dims = [['H', H], ['W', W], ['C', C]].map(([name, size]) => {
  const n = b.createString(name);
  b.startObject(2);
  b.addFieldInt64(0, BigInt(size), 0n);
  b.addFieldOffset(1, n, 0);
  return b.endObject();
});
b.startVector(4, dims.length, 4);
for (let i = dims.length - 1; i >= 0; i--) b.addOffset(dims[i]);
const shape = b.endVector();
const strides = [1, H, H * W]; // bytes, one per dimension
b.startVector(8, strides.length, 8);
for (let i = strides.length - 1; i >= 0; i--) b.addInt64(BigInt(strides[i]));
const stridesVec = b.endVector();
// table Tensor { type: Type; shape: [TensorDim]; strides: [long]; data: Buffer; }
b.startObject(5);
b.addFieldInt8(0, 2, 0); // Type union: Int
b.addFieldOffset(1, intType, 0);
b.addFieldOffset(2, shape, 0);
b.addFieldOffset(3, stridesVec, 0);
b.prep(8, 16); // struct Buffer { offset: long; length: long; }, inline
b.writeInt64(BigInt(body.length));
b.writeInt64(0n);
b.addFieldStruct(4, b.offset(), 0);
const tensor = b.endObject();
// Message.fbs: table Message { version; header_type; header; bodyLength; }
b.startObject(5);
b.addFieldInt16(0, 4, 0); // MetadataVersion V5
b.addFieldInt8(1, 4, 0); // MessageHeader: Tensor
b.addFieldOffset(2, tensor, 0);
b.addFieldInt64(3, BigInt(body.length), 0n);
b.finish(b.endObject());
const meta = b.asUint8Array();

// Continuation marker, metadata length, metadata padded so that prefix and
// metadata end on a 64-byte boundary (Arrow C++'s kTensorAlignment), body.
const padded = Math.ceil((8 + meta.length) / 64) * 64 - 8;
const out = new Uint8Array(8 + padded + body.length);
const view = new DataView(out.buffer);
view.setUint32(0, 0xFFFFFFFF, true);
view.setInt32(4, padded, true);
out.set(meta, 8);
out.set(body, 8 + padded);
writeFileSync(new URL('js_tensor_message.arrow', import.meta.url), out);
console.log(`js_tensor_message.arrow: ${out.length} bytes`);
