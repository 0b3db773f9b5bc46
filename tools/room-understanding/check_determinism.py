"""Check that the data engine still draws and renders the same rooms as a reference version of synth.py.

    OMP_NUM_THREADS=1 python3 check_determinism.py                 # against the last synth.py before packed batches
    python3 check_determinism.py --against HEAD~3 --count 8 --device cuda

Loads the reference synth.py from git (`git show REV:tools/room-understanding/synth.py`), draws scenes of a seed with
both, and checks: the packed scene parameters are bit-identical; rendered with the same noise generator, the visible
and layout maps are identical and the images agree within --tolerance (the contact-shadow product is taken in
another order, so the last bits of a few pixels may differ); with --l-share, every scene the shape stream leaves a box
is the reference's scene, in parameters and in pixels; batches out of the loader workers are the same arrays.
Exits 1 on any difference.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import synth  # noqa: E402

REFERENCE = '04cd7d62eefab4d15d8627896bd0f267e425bd9b'  # synth.py before packed batches and L rooms


def load_reference(rev):
    text = subprocess.run(['git', 'show', f'{rev}:tools/room-understanding/synth.py'], cwd=HERE, check=True,
                          capture_output=True, text=True).stdout
    path = os.path.join(tempfile.mkdtemp(), 'synth_reference.py')
    with open(path, 'w') as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location('synth_reference', path)
    module = importlib.util.module_from_spec(spec)
    sys.modules['synth_reference'] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def compare(tag, ref, new, keep=None, tolerance=1e-3):
    """ref, new: (image, visible, layout); keep: the batch rows to compare (all when None)."""
    rows = slice(None) if keep is None else torch.as_tensor(keep)
    failures = []
    for name, a, b in (('visible', ref[1], new[1]), ('layout', ref[2], new[2])):
        differ = int((a[rows] != b[rows]).sum())
        if differ:
            failures.append(f'{name}: {differ} pixels differ')
    image_diff = float((ref[0][rows] - new[0][rows]).abs().max()) if ref[0][rows].numel() else 0.0
    if image_diff > tolerance:
        failures.append(f'image: max difference {image_diff:.2e} > {tolerance:.0e}')
    print(f'{tag}: labels {"identical" if not any(f.startswith(("visible", "layout")) for f in failures) else "DIFFER"}, '
          f'image max difference {image_diff:.2e}')
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--against', default=REFERENCE)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--starts', type=int, nargs='+', default=[0, 5000])
    p.add_argument('--count', type=int, default=6)
    p.add_argument('--height', type=int, default=128)
    p.add_argument('--width', type=int, default=160)
    p.add_argument('--l-share', type=float, default=0.5, help='also check the box rooms of a set with this share of L rooms')
    p.add_argument('--tolerance', type=float, default=1e-3)
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--device', default='cpu')
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    ref = load_reference(args.against)
    bank_ref, bank_new = ref.NoiseBank(device), synth.NoiseBank(device)
    failures = []
    for start in args.starts:
        indices = range(start, start + args.count)
        ref_scenes = [ref.scene(args.seed, i) for i in indices]
        new_scenes = [synth.scene(args.seed, i) for i in indices]
        same = np.array_equal(synth.pack(ref_scenes), synth.pack(new_scenes))
        print(f'seed {args.seed} scenes {start}-{start + args.count - 1}: parameters {"identical" if same else "DIFFER"}')
        if not same:
            failures.append(f'scenes from {start}: parameters differ')
        g = lambda: torch.Generator(device=device).manual_seed(start)
        with torch.no_grad():
            out_ref = ref.render(ref_scenes, args.height, args.width, device, bank_ref, g())
            out_new = synth.render(synth.pack(new_scenes), args.height, args.width, device, bank_new, g())
            failures += [f'scenes from {start}: {f}' for f in compare('  rendered', out_ref, out_new, tolerance=args.tolerance)]
            if args.l_share > 0 and 'l_share' in synth.scene.__code__.co_varnames:
                mixed = [synth.scene(args.seed, i, args.l_share) for i in indices]
                boxes = [k for k, s in enumerate(mixed) if s.block is None]
                rows_same = all(np.array_equal(synth.pack([mixed[k]]), synth.pack([ref_scenes[k]])) for k in boxes)
                print(f'  with {args.l_share:.0%} L rooms: {len(indices) - len(boxes)} L, {len(boxes)} boxes, '
                      f'box parameters {"identical" if rows_same else "DIFFER"}')
                if not rows_same:
                    failures.append(f'scenes from {start}: box rooms of the L set differ')
                out_mixed = synth.render(synth.pack(mixed), args.height, args.width, device, bank_new, g())
                failures += [f'scenes from {start}, L set: {f}' for f in compare('  its box rooms rendered', out_ref, out_mixed, boxes, args.tolerance)]
    # The loader's workers hand over the same arrays as packing in this process.
    loader = synth.loader(args.seed, args.count, 2, 'cpu')
    it = iter(loader)
    for step in range(2):
        got = next(it).numpy()
        want = synth.pack([synth.scene(args.seed, step * args.count + i) for i in range(args.count)])
        if not np.array_equal(got, want):
            failures.append(f'loader batch {step} differs')
    print(f'loader (2 workers): {"identical" if not any(f.startswith("loader") for f in failures) else "DIFFERS"}')
    del it
    if failures:
        print('FAILED:\n  ' + '\n  '.join(failures))
        sys.exit(1)
    print('OK')


if __name__ == '__main__':
    main()
