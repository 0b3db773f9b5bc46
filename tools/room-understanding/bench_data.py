"""Time the data engine per batch: scene parameters (CPU), packing into arrays (CPU), ray-casting (the device).

    OMP_NUM_THREADS=1 python3 bench_data.py --batch 8 --height 128 --width 160 --threads 1
    python3 bench_data.py --batch 48 --workers 12 --loader-batches 40    # on a GPU machine, also the worker pipeline

Scenes come from seed 1; the render is timed with the device synchronised before and after (render_s), and until
render returns without waiting for the device (render_host_s: the host's share, launching kernels). On a CUDA machine
the packed batch is pinned, as the loader pins it, and the last round runs under torch.cuda.set_sync_debug_mode('warn'):
`syncs` counts the operations that made the host wait for the device (0 is the aim: then the host runs ahead).
"""
import argparse
import json
import time
import warnings

import torch

import synth


def sync(device):
    if device.type == 'cuda':
        torch.cuda.synchronize()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--batch', type=int, default=8)
    p.add_argument('--height', type=int, default=128)
    p.add_argument('--width', type=int, default=160)
    p.add_argument('--repeats', type=int, default=3)
    p.add_argument('--threads', type=int, default=0, help='torch CPU threads (0: leave as is)')
    p.add_argument('--l-share', type=float, default=0.0)
    p.add_argument('--workers', type=int, default=0, help='also time batches coming out of this many loader workers')
    p.add_argument('--loader-batches', type=int, default=20)
    p.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    args = p.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    bank = synth.NoiseBank(device)
    has_pack = hasattr(synth, 'pack')
    out = {'device': torch.cuda.get_device_name(0) if device.type == 'cuda' else 'cpu', 'threads': torch.get_num_threads(),
           'batch': args.batch, 'size': [args.height, args.width], 'torch': torch.__version__}
    kw = {'l_share': args.l_share} if args.l_share else {}
    t_scene, t_pack, t_render, t_host = [], [], [], []
    syncs = None
    for r in range(args.repeats + 2):
        t0 = time.perf_counter()
        scenes = [synth.scene(1, r * args.batch + i, **kw) for i in range(args.batch)]
        t1 = time.perf_counter()
        packed = synth.pack(scenes) if has_pack else scenes
        if has_pack and device.type == 'cuda':
            packed = torch.from_numpy(packed).pin_memory()
        t2 = time.perf_counter()
        sync(device)
        debug = device.type == 'cuda' and r == args.repeats + 1
        if debug:
            torch.cuda.set_sync_debug_mode('warn')
        t3 = time.perf_counter()
        with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter('always')
            image, visible, layout = synth.render(packed, args.height, args.width, device, bank)
            t_returned = time.perf_counter()
        sync(device)
        t4 = time.perf_counter()
        if debug:
            torch.cuda.set_sync_debug_mode(0)
            syncs = sum('synchroniz' in str(w.message) for w in caught)
        elif r:  # the first round warms up
            t_scene.append(t1 - t0)
            t_pack.append(t2 - t1)
            t_render.append(t4 - t3)
            t_host.append(t_returned - t3)
    mean = lambda xs: round(sum(xs) / len(xs), 4)
    out.update({'scenes_s': mean(t_scene), 'pack_s': mean(t_pack), 'render_s': mean(t_render), 'render_host_s': mean(t_host)})
    if syncs is not None:
        out['syncs'] = syncs
    if args.workers:
        loader = synth.loader(1, args.batch, args.workers, device, l_share=args.l_share)
        it = iter(loader)
        next(it)
        t0 = time.perf_counter()
        for _ in range(args.loader_batches):
            packed = next(it)
            with torch.no_grad():
                synth.render(packed, args.height, args.width, device, bank)
        sync(device)
        out['loader_workers'] = args.workers
        out['loader_render_s_per_batch'] = round((time.perf_counter() - t0) / args.loader_batches, 4)
    print(json.dumps(out))


if __name__ == '__main__':
    main()
