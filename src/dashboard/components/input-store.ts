/**
 * The photos this browser sent from the playground, by job id, so a job's page can show its before image: the service
 * keeps an uploaded input only until its job settles. Kept in IndexedDB, the latest KEEP only; a browser that refuses
 * storage (private windows of some browsers) just shows no before image.
 */
const KEEP = 20;
const STORE = 'inputs';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open('roomcraft-dashboard', 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

export async function keepInput(jobId: string, image: Blob): Promise<void> {
  try {
    const db = await open();
    const write = db.transaction(STORE, 'readwrite');
    const store = write.objectStore(STORE);
    store.put({ image, at: Date.now() }, jobId);
    const all = store.getAll();
    const keys = store.getAllKeys();
    await done(write);
    const entries = (all.result as { at: number }[]).map((entry, i) => ({ at: entry.at, key: keys.result[i]! }));
    const stale = entries.sort((a, b) => b.at - a.at).slice(KEEP);
    if (stale.length > 0) {
      const prune = db.transaction(STORE, 'readwrite');
      for (const entry of stale) prune.objectStore(STORE).delete(entry.key);
      await done(prune);
    }
    db.close();
  } catch {
    // No storage: the job's page will say the input is not kept.
  }
}

export async function keptInput(jobId: string): Promise<Blob | undefined> {
  try {
    const db = await open();
    const read = db.transaction(STORE).objectStore(STORE).get(jobId);
    const value = await new Promise<{ image: Blob } | undefined>((resolve, reject) => {
      read.onsuccess = () => resolve(read.result as { image: Blob } | undefined);
      read.onerror = () => reject(read.error);
    });
    db.close();
    return value?.image;
  } catch {
    return undefined;
  }
}
