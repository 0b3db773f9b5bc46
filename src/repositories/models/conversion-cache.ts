import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { HashChecks } from './hash-checks.js';
import { writeFileAtomically } from './write-atomically.js';

/** Turns a model's verified source files into the bytes of an ONNX model (e.g. TF.js layers → ONNX). */
export type ConversionProducer = (files: string[]) => Promise<Uint8Array>;

/** Kept beside each conversion: the bytes are trusted only while they still hash to this. */
interface ConversionRecord {
  converterId: string;
  sha256: string;
  createdAt: string;
}

/** A converter id names the converter and its version, and becomes a file name. */
const CONVERTER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Conversions of installed models, one folder per model: `<converterId>.onnx` with `<converterId>.json` (its
 * sha256). A conversion is reused while the file hashes to its record; a new converter id, a missing or altered
 * file means it is produced again, and conversions by other converter ids are deleted as stale. Concurrent calls
 * in one process share one production; across processes the last writer wins with identical bytes.
 */
export class ConversionCache {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly hashChecks: HashChecks) {}

  get(directory: string, converterId: string, sources: string[], produce: ConversionProducer): Promise<string> {
    if (!CONVERTER_ID.test(converterId) || converterId.includes('..')) throw new Error(`invalid converter id "${converterId}"`);
    const target = path.join(directory, `${converterId}.onnx`);
    let pending = this.inFlight.get(target);
    if (!pending) {
      pending = this.reuseOrProduce(directory, converterId, target, sources, produce).finally(() => this.inFlight.delete(target));
      this.inFlight.set(target, pending);
    }
    return pending;
  }

  private async reuseOrProduce(
    directory: string,
    converterId: string,
    target: string,
    sources: string[],
    produce: ConversionProducer,
  ): Promise<string> {
    const recordPath = path.join(directory, `${converterId}.json`);
    const record = await readRecord(recordPath);
    if (record?.converterId === converterId && (await this.hashChecks.matches(target, record.sha256))) return target;

    const bytes = await produce(sources);
    await fsp.mkdir(directory, { recursive: true });
    await writeFileAtomically(target, bytes);
    const written: ConversionRecord = { converterId, sha256: sha256Of(bytes), createdAt: new Date().toISOString() };
    await this.hashChecks.remember(target, written.sha256);
    await writeFileAtomically(recordPath, `${JSON.stringify(written, null, 2)}\n`);
    await removeOthers(directory, [target, recordPath]);
    return target;
  }
}

function sha256Of(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

async function readRecord(file: string): Promise<ConversionRecord | undefined> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8')) as ConversionRecord;
  } catch {
    return undefined;
  }
}

/** Conversions by earlier converter ids; temporary files of writes in progress elsewhere are left alone. */
async function removeOthers(directory: string, keep: string[]): Promise<void> {
  for (const entry of await fsp.readdir(directory)) {
    const file = path.join(directory, entry);
    if (!keep.includes(file) && !entry.endsWith('.tmp')) await fsp.rm(file, { force: true });
  }
}
