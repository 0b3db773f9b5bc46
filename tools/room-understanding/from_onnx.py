"""Rebuild trainable weights from an exported model, so training can continue from the committed ONNX file.

    /usr/bin/python3 from_onnx.py ../../models/room-understanding.onnx OUT/start.pt
    python3 train.py --init OUT/start.pt ...

The export folds each batch norm into the convolution before it (W' = W·γ/σ, b' = β − μ·γ/σ), so the file holds no
batch-norm parameters. Each convolution of RoomNet gets W', and its batch norm is set so that it passes b' through
unchanged on a calibration batch of procedural rooms: in training mode a batch norm subtracts the batch's mean and
divides by its spread, so γ is set to that spread and β to that mean plus b'. The running statistics are set to the
same mean and spread, so the rebuilt network answers as the file does in evaluation mode, whatever the batch (checked
at the end on rooms of another seed).
"""
import argparse

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

import synth
from model import RoomNet


def folded_convolutions(path):
    """Weights and biases of the file's convolutions, in the order the graph runs them."""
    model = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = []
    for node in model.graph.node:
        if node.op_type == 'Conv':
            weight = init[node.input[1]]
            bias = init[node.input[2]] if len(node.input) > 2 else np.zeros(weight.shape[0], np.float32)
            convs.append((weight, bias))
    return convs


def load_folded(net, folded):
    """Put the file's folded weights into RoomNet's convolutions; returns each batch norm with the folded bias it must
    pass through (in RoomNet every bias-free convolution is followed by one)."""
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    if len(folded) != len(convs):
        raise SystemExit(f'{len(folded)} convolutions in the file, {len(convs)} in RoomNet')
    norm_after = {}
    for module in net.modules():
        if isinstance(module, nn.Sequential):
            children = list(module.children())
            for a, b in zip(children, children[1:]):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    norm_after[a] = b
    biases = {}
    for conv, (weight, bias) in zip(convs, folded):
        if tuple(conv.weight.shape) != weight.shape:
            raise SystemExit(f'shape {tuple(conv.weight.shape)} in RoomNet against {weight.shape} in the file')
        conv.weight.data = torch.from_numpy(weight.copy())
        if conv.bias is not None:
            conv.bias.data = torch.from_numpy(bias.copy())
        else:
            biases[norm_after[conv]] = torch.from_numpy(bias.copy())
    return biases


def main():
    p = argparse.ArgumentParser()
    p.add_argument('onnx')
    p.add_argument('out')
    p.add_argument('--height', type=int, default=256)
    p.add_argument('--width', type=int, default=320)
    p.add_argument('--count', type=int, default=16)
    args = p.parse_args()
    torch.manual_seed(0)
    net = RoomNet()
    folded = folded_convolutions(args.onnx)
    pending = load_folded(net, folded)

    def calibrate(norm, inputs):
        x = inputs[0]
        mean = x.mean(dim=(0, 2, 3))
        var = x.var(dim=(0, 2, 3), unbiased=False)
        spread = (var + norm.eps).sqrt()
        norm.weight.data = spread.clone()
        norm.bias.data = mean + pending[norm]
        norm.running_mean.data = mean.clone()
        norm.running_var.data = var.clone()

    hooks = [norm.register_forward_pre_hook(calibrate) for norm in pending]
    bank = synth.NoiseBank(torch.device('cpu'))
    image, _, _ = synth.render(synth.pack([synth.scene(7, i) for i in range(args.count)]), args.height, args.width, torch.device('cpu'), bank, torch.Generator().manual_seed(0))
    net.train()
    with torch.no_grad():
        net(image)
    for hook in hooks:
        hook.remove()

    # The rebuilt network against the folded one, on rooms of another seed: evaluation mode must match exactly.
    check, _, _ = synth.render(synth.pack([synth.scene(11, i) for i in range(4)]), args.height, args.width, torch.device('cpu'), bank, torch.Generator().manual_seed(1))
    net.eval()
    # The file's network in evaluation mode: each batch norm only adds its folded bias (running variance 1 − eps).
    folded_net = RoomNet()
    for norm, bias in load_folded(folded_net, folded).items():
        norm.running_mean.data.zero_()
        norm.running_var.data.fill_(1 - norm.eps)
        norm.weight.data.fill_(1)
        norm.bias.data = bias
    folded_net.eval()
    with torch.no_grad():
        ours = net(check)
        theirs = folded_net(check)
    worst = max(float((a - b).abs().max()) for a, b in zip(ours, theirs))
    scale = max(float(b.abs().max()) for b in theirs)
    # Rounding grows with the size of the outputs (a longer-trained network answers with larger logits): compare
    # against it, not against a fixed number.
    print(f'largest difference from the folded network: {worst:.2e} (outputs up to {scale:.1f})')
    if worst > 5e-4 * max(1.0, scale):
        raise SystemExit('the rebuilt network does not answer as the file does')
    torch.save(net.state_dict(), args.out)
    print(f'wrote {args.out}')


if __name__ == '__main__':
    main()
