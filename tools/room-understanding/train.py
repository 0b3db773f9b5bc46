"""Train the room-understanding network on procedural rooms rendered on the fly, evaluate it on a held-out seed and
export it to ONNX.

    python3 train.py --minutes 8 --batch 48 --out OUT          # a CUDA GPU (the committed model)
    python3 train.py --minutes 20 --batch 4 --height 128 --width 160 --out OUT   # this 2-core CPU, a smaller schedule
    python3 train.py --minutes 0 --init W.pt --out OUT    # only evaluate (and export) weights W

Training scenes come from seed --seed (scene i of step s is scene(seed, s * batch + i, l_share)), drawn and packed by
--workers loader processes ahead of the training loop; evaluation scenes from --eval-seed, never trained on. The learning rate follows the elapsed share of --minutes (warm-up, then cosine), so the
same command fits its time on any machine. Writes OUT/room-understanding.onnx, OUT/log.json (the schedule, the
hardware, the losses and the held-out figures) and OUT/held-out.png (image | visible | layout, truth then prediction).
"""
import argparse
import json
import math
import os
import platform
import time

import numpy as np
import torch
import torch.nn.functional as F

import synth
from model import RoomNet


def edge_target(layout):
    """1 where the layout's face changes within one pixel (the wall behind the camera counts as a face)."""
    lab = layout.float().unsqueeze(1)
    mx = F.max_pool2d(lab, 3, 1, 1)
    mn = -F.max_pool2d(-lab, 3, 1, 1)
    return (mx != mn).float()


def losses(outputs, visible, layout):
    pv, pl, pe = outputs
    lv = F.cross_entropy(pv.float(), visible)
    ll = F.cross_entropy(pl.float(), layout, ignore_index=synth.IGNORE)
    target = edge_target(layout)
    le = F.binary_cross_entropy_with_logits(pe.float(), target, pos_weight=torch.full((), 8.0, device=pe.device))
    return lv, ll, le


def confusion(pred, truth, classes, ignore=synth.IGNORE):
    keep = truth != ignore
    idx = truth[keep] * classes + pred[keep]
    return torch.bincount(idx, minlength=classes * classes).reshape(classes, classes).cpu().double()


def miou(conf):
    inter = conf.diag()
    union = conf.sum(0) + conf.sum(1) - inter
    present = conf.sum(1) > 0
    return float((inter[present] / union[present]).mean()), [float(x) for x in (inter / union.clamp(min=1))]


@torch.no_grad()
def evaluate(net, bank, args, device, count=256, sheet_path=None):
    net.eval()
    cv = torch.zeros(len(synth.VISIBLE_CLASSES), len(synth.VISIBLE_CLASSES), dtype=torch.float64)
    cl = torch.zeros(len(synth.LAYOUT_CLASSES), len(synth.LAYOUT_CLASSES), dtype=torch.float64)
    wrong = total = 0
    by_shape = {'box': [0, 0, 0], 'l': [0, 0, 0]}  # scenes, wrong layout pixels, pixels
    step = min(args.batch, 32)
    for start in range(0, count, step):
        g = torch.Generator(device=device).manual_seed(start)
        scenes = [synth.scene(args.eval_seed, start + i, args.l_share) for i in range(step)]
        image, visible, layout = synth.render(synth.pack(scenes), args.height, args.width, device, bank, g)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == 'cuda'):
            pv, pl, _ = net(image)
        pv, pl = pv.argmax(1), pl.argmax(1)
        cv += confusion(pv, visible, len(synth.VISIBLE_CLASSES))
        cl += confusion(pl, layout, len(synth.LAYOUT_CLASSES))
        keep = layout != synth.IGNORE
        wrong += int(((pl != layout) & keep).sum())
        total += int(keep.sum())
        for k, s in enumerate(scenes):
            counts = by_shape['box' if s.block is None else 'l']
            counts[0] += 1
            counts[1] += int(((pl[k] != layout[k]) & keep[k]).sum())
            counts[2] += int(keep[k].sum())
        if sheet_path and start == 0:
            from sheet import LAYOUT_PALETTE, VISIBLE_PALETTE, save_sheet
            n = min(8, step)
            save_sheet(sheet_path, image[:n], visible[:n], pv[:n], layout[:n], pl[:n],
                       palettes=(VISIBLE_PALETTE, VISIBLE_PALETTE, LAYOUT_PALETTE, LAYOUT_PALETTE))
    net.train()
    vm, vper = miou(cv)
    lm, lper = miou(cl)
    return {'scenes': count, 'visible_miou': vm, 'visible_iou': dict(zip(synth.VISIBLE_CLASSES, vper)),
            'layout_miou': lm, 'layout_iou': dict(zip(synth.LAYOUT_CLASSES, lper)), 'layout_pixel_error': wrong / max(total, 1),
            'l_rooms': by_shape['l'][0], 'layout_pixel_error_box': by_shape['box'][1] / max(by_shape['box'][2], 1),
            'layout_pixel_error_l': by_shape['l'][1] / max(by_shape['l'][2], 1)}


def save_half(net, path):
    """Half-precision weights for fine-tuning later (the ONNX file keeps full precision)."""
    state = {k: v.detach().to('cpu', copy=True) for k, v in net.state_dict().items()}
    torch.save({k: v.half() if v.is_floating_point() else v for k, v in state.items()}, path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--minutes', type=float, default=8.0)
    p.add_argument('--batch', type=int, default=48)
    p.add_argument('--height', type=int, default=256)
    p.add_argument('--width', type=int, default=320)
    p.add_argument('--lr', type=float, default=3e-3)
    p.add_argument('--seed', type=int, default=1)
    p.add_argument('--eval-seed', type=int, default=999)
    p.add_argument('--eval-count', type=int, default=256)
    p.add_argument('--workers', type=int, default=max(1, min(12, (os.cpu_count() or 2) - 2)), help='loader processes drawing and packing batches (0: in the training process)')
    p.add_argument('--l-share', type=float, default=0.3, help='share of rooms drawn as L-shapes (training and held-out); about 85 %% of them find a block, the rest stay boxes')
    p.add_argument('--init', help='start from these weights (a state dict, e.g. an earlier run\'s room-understanding-fp16.pt)')
    p.add_argument('--checkpoint-minutes', type=float, default=2.0, help='write the weights this often while training, so a run cut short (a lent machine taken back) still leaves them')
    p.add_argument('--out', required=True)
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    torch.manual_seed(args.seed)
    if device.type == 'cuda':
        torch.backends.cudnn.benchmark = True
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    bank = synth.NoiseBank(device)
    net = RoomNet().to(device).to(memory_format=torch.channels_last)
    if args.init:
        state = torch.load(args.init, map_location='cpu')
        net.load_state_dict({k: v.float() if v.is_floating_point() else v for k, v in state.items()})
    params = sum(p.numel() for p in net.parameters())
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    log = {'args': vars(args), 'parameters': params, 'device': torch.cuda.get_device_name(0) if device.type == 'cuda' else platform.processor() or 'cpu',
           'torch': torch.__version__, 'steps': [], 'started': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}
    print(f'{params / 1e6:.2f} M parameters on {log["device"]}', flush=True)

    # Loader workers draw and pack the next batches (numpy, pinned memory) while the device renders and trains.
    source = iter(synth.loader(args.seed, args.batch, args.workers, device, l_share=args.l_share))
    g = torch.Generator(device=device).manual_seed(args.seed)
    sync = torch.cuda.synchronize if device.type == 'cuda' else (lambda: None)
    weights_path = os.path.join(args.out, 'room-understanding-fp16.pt')
    t0 = time.time()
    last_checkpoint = t0
    step = 0
    seen = seen_l = 0
    while budget > 0:  # --minutes 0: evaluate and export the --init weights as they are
        elapsed = time.time() - t0
        share = elapsed / budget
        if share >= 1:
            break
        lr = args.lr * min(1.0, share / 0.05) * 0.5 * (1 + math.cos(math.pi * min(1.0, share)))
        for group in opt.param_groups:
            group['lr'] = lr
        timed = step % 25 == 5  # every 25th step is timed part by part, the device synchronised between parts
        if timed:
            sync()
        tick = time.time()
        packed = next(source)
        tick_batch = time.time()
        portrait = step % 4 == 3
        h, w = (args.width, args.height) if portrait else (args.height, args.width)
        with torch.no_grad():
            image, visible, layout = synth.render(packed, h, w, device, bank, g)
        if timed:
            sync()
        tick_render = time.time()
        image = image.contiguous(memory_format=torch.channels_last)
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=device.type == 'cuda'):
            outputs = net(image)
        lv, ll, le = losses(outputs, visible, layout)
        loss = lv + ll + 0.5 * le
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 2.0)
        opt.step()
        if timed:
            sync()
            timing = {'step': step, 'wait_batch_s': round(tick_batch - tick, 3), 'render_s': round(tick_render - tick_batch, 3), 'network_s': round(time.time() - tick_render, 3)}
            log.setdefault('timings', []).append(timing)
            print(json.dumps(timing), flush=True)
        step += 1
        seen += args.batch
        seen_l += int((packed[:, synth.FIELD['block'][0]] > 0.5).sum())  # host memory: no wait on the device
        if step % 25 == 0 or step == 1:
            entry = {'step': step, 'seconds': round(elapsed, 1), 'scenes': seen, 'lr': lr, 'visible': float(lv.detach()), 'layout': float(ll.detach()), 'edges': float(le.detach())}
            log['steps'].append(entry)
            print(json.dumps(entry), flush=True)
        if time.time() - last_checkpoint >= args.checkpoint_minutes * 60:
            save_half(net, weights_path)
            last_checkpoint = time.time()
    del source
    if budget > 0:
        save_half(net, weights_path)
    log['train_seconds'] = round(time.time() - t0, 1)
    log['train_steps'] = step
    log['train_scenes'] = seen
    log['train_l_rooms'] = seen_l
    log['held_out'] = evaluate(net, bank, args, device, args.eval_count, os.path.join(args.out, 'held-out.png'))
    print(json.dumps(log['held_out']), flush=True)

    net.eval().float().to(memory_format=torch.contiguous_format)
    cpu_net = net.to('cpu')
    dummy = torch.rand(1, 3, 288, 384)
    path = os.path.join(args.out, 'room-understanding.onnx')
    export_kwargs = dict(input_names=['image'], output_names=['visible', 'layout', 'edges'], opset_version=17,
                         dynamic_axes={'image': {2: 'height', 3: 'width'}, 'visible': {2: 'height', 3: 'width'},
                                       'layout': {2: 'height', 3: 'width'}, 'edges': {2: 'height', 3: 'width'}})
    try:
        try:
            torch.onnx.export(cpu_net, dummy, path, dynamo=False, **export_kwargs)
        except TypeError:  # torch before 2.5 has no dynamo argument
            torch.onnx.export(cpu_net, dummy, path, **export_kwargs)
    except Exception as error:  # the weights are saved: export them with `--minutes 0 --init` where the exporter works
        log['export_error'] = repr(error)
        print(f'export failed: {error!r}', flush=True)
    save_half(cpu_net, weights_path)
    log['finished'] = time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
    with open(os.path.join(args.out, 'log.json'), 'w') as f:
        json.dump(log, f, indent=1)
    if 'export_error' not in log:
        print(f'wrote {path}', flush=True)


if __name__ == '__main__':
    main()
