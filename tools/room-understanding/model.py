"""The room-understanding network: a compact residual U-Net with three heads.

  visible  logits of VISIBLE_CLASSES (what each pixel shows)
  layout   logits of LAYOUT_CLASSES (the room's face behind everything: floor, ceiling, left, front, right wall)
  edges    logit of the layout's boundaries (the lines where two faces of the room meet)

Input: an sRGB image in [0, 1], NCHW, any size divisible by 32 (the service runs it at 384 px on the longer side).
Plain convolutions, batch norm and ReLU only, so onnxruntime runs it fast on a CPU.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from synth import LAYOUT_CLASSES, VISIBLE_CLASSES


def conv_bn(cin, cout, stride=1, dilation=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Residual(nn.Module):
    def __init__(self, channels, dilation=1):
        super().__init__()
        self.a = conv_bn(channels, channels, dilation=dilation)
        self.b = nn.Sequential(nn.Conv2d(channels, channels, 3, 1, dilation, dilation, bias=False), nn.BatchNorm2d(channels))

    def forward(self, x):
        return F.relu(x + self.b(self.a(x)))


def stage(cin, cout, blocks, dilation=1):
    return nn.Sequential(conv_bn(cin, cout, stride=2), *[Residual(cout, dilation) for _ in range(blocks)])


class Up(nn.Module):
    def __init__(self, cin, cskip, cout):
        super().__init__()
        self.fuse = nn.Sequential(conv_bn(cin + cskip, cout), conv_bn(cout, cout))

    def forward(self, x, skip):
        x = F.interpolate(x, size=skip.shape[-2:], mode='bilinear', align_corners=False)
        return self.fuse(torch.cat([x, skip], 1))


class RoomNet(nn.Module):
    def __init__(self, widths=(32, 48, 96, 160, 192)):
        super().__init__()
        w0, w1, w2, w3, w4 = widths
        self.stem = nn.Sequential(conv_bn(3, w0, stride=2), conv_bn(w0, w0))  # 1/2
        self.s1 = stage(w0, w1, 1)  # 1/4
        self.s2 = stage(w1, w2, 2)  # 1/8
        self.s3 = stage(w2, w3, 2)  # 1/16
        self.s4 = stage(w3, w4, 2, dilation=2)  # 1/32
        # Which wall is left, front or right is a question about the whole view: a global summary joins the bottleneck.
        self.context = nn.Sequential(nn.Conv2d(w4, w4, 1), nn.ReLU(inplace=True))
        self.u3 = Up(w4, w3, 128)
        self.u2 = Up(128, w2, 96)
        self.u1 = Up(96, w1, 64)
        self.u0 = Up(64, w0, 48)
        self.visible = nn.Conv2d(48, len(VISIBLE_CLASSES), 1)
        self.layout = nn.Conv2d(48, len(LAYOUT_CLASSES), 1)
        self.edges = nn.Conv2d(48, 1, 1)

    def forward(self, image):
        x = (image - 0.45) / 0.25
        x0 = self.stem(x)
        x1 = self.s1(x0)
        x2 = self.s2(x1)
        x3 = self.s3(x2)
        x4 = self.s4(x3)
        x4 = x4 + self.context(x4.mean(dim=(2, 3), keepdim=True))
        y = self.u0(self.u1(self.u2(self.u3(x4, x3), x2), x1), x0)
        size = image.shape[-2:]
        up = lambda t: F.interpolate(t, size=size, mode='bilinear', align_corners=False)
        return up(self.visible(y)), up(self.layout(y)), up(self.edges(y))
