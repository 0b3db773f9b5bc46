import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDetectorSession, type DetectorSession, type DetectorSessionOptions } from './detector-session.js';

/**
 * Networks we train ourselves (tools/, docs/models/) ship in the repository's models/ folder, not through npm: no
 * download, no install step. Both src/ and the compiled dist/ sit two levels below the folder that holds it.
 */
export const TRAINED_MODELS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../models');

export function trainedModelPath(name: string): string {
  return path.join(TRAINED_MODELS_DIR, `${name}.onnx`);
}

export async function isTrainedModelPresent(name: string): Promise<boolean> {
  return fs.access(trainedModelPath(name)).then(
    () => true,
    () => false,
  );
}

export async function openTrainedModel(name: string, options: DetectorSessionOptions = {}): Promise<DetectorSession> {
  return createDetectorSession(await fs.readFile(trainedModelPath(name)), options);
}
