/**
 * The protobuf wire format, write side only, for the handful of field kinds an ONNX model needs.
 * Output is kept as a list of chunks so that a 30 MB weight blob is copied once, in `finish`.
 */
export class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private pending: number[] = [];
  private flushedLength = 0;

  get length(): number {
    return this.flushedLength + this.pending.length;
  }

  /** int32, int64, enum and bool fields. Negative numbers take ten bytes, as protobuf's int64 does. */
  varint(field: number, value: number): void {
    this.tag(field, 0);
    this.rawVarint(value);
  }

  float(field: number, value: number): void {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.pending.push(...bytes);
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2);
    this.rawVarint(value.length);
    this.append(value);
  }

  /** Repeated int64 in packed form, which parsers of proto2 files accept as well. */
  packedVarints(field: number, values: readonly number[]): void {
    const inner = new ProtoWriter();
    for (const value of values) inner.rawVarint(value);
    this.embed(field, inner);
  }

  message(field: number, build: (writer: ProtoWriter) => void): void {
    const inner = new ProtoWriter();
    build(inner);
    this.embed(field, inner);
  }

  finish(): Uint8Array {
    this.flush();
    const out = new Uint8Array(this.flushedLength);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private embed(field: number, inner: ProtoWriter): void {
    this.tag(field, 2);
    this.rawVarint(inner.length);
    inner.flush();
    for (const chunk of inner.chunks) this.append(chunk);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(field * 8 + wireType);
  }

  private rawVarint(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`varint ${value} is not a safe integer`);
    let rest = BigInt.asUintN(64, BigInt(value));
    while (rest > 0x7fn) {
      this.pending.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.pending.push(Number(rest));
  }

  private append(bytes: Uint8Array): void {
    // Small pieces stay in `pending`; only large ones are worth a chunk of their own.
    if (bytes.length < 256) {
      for (const byte of bytes) this.pending.push(byte);
      return;
    }
    this.flush();
    this.chunks.push(bytes);
    this.flushedLength += bytes.length;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(Uint8Array.from(this.pending));
    this.flushedLength += this.pending.length;
    this.pending = [];
  }
}
