"""Procedural rooms rendered on the fly, with exact labels: the data engine of the room-understanding network.

A scene is a box room (walls, floor, ceiling), or with --l-share an L (the box less a full-height block in a corner in
front of the camera), with openings, skirting, wall art, rugs, furniture made of boxes and
clutter, lit by its windows (area lights seen as soft glow and sun patches), ceiling lights and an ambient term with
corner darkening, then photographed: exposure, tone curve, white balance, vignetting, lens distortion, blur, noise and
chromatic aberration. The scene is drawn on the CPU (numpy, seeded) and packed with the rest of its batch into one
array (`pack`; in `loader` worker processes while training), the pixels are ray-cast on the GPU (torch) from that
array in one copy and batched tensor operations, so a training run sees a new room in every sample.

Every scene depends only on (seed, index, l_share): `scene(seed, i)` is the same room on any machine, and
`scene(seed, i, l_share)` is that room whenever its own shape stream leaves it a box. check_determinism.py checks this
against an earlier synth.py.

Labels:
  visible  per pixel, what the ray through it hits first (VISIBLE_CLASSES)
  layout   per pixel, the room's face behind everything (LAYOUT_CLASSES), walls named by the camera as the
           room renderer names them (tools/room-renderer/README.md): front within 45° of the view's bearing, then right,
           left; the wall behind the camera is IGNORE.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
import torch.utils.data

VISIBLE_CLASSES = ['floor', 'ceiling', 'wall', 'window', 'door', 'furniture', 'rug', 'art', 'clutter']
LAYOUT_CLASSES = ['floor', 'ceiling', 'wall-left', 'wall-front', 'wall-right']
IGNORE = 255

V_FLOOR, V_CEILING, V_WALL, V_WINDOW, V_DOOR, V_FURNITURE, V_RUG, V_ART, V_CLUTTER = range(9)

# Room faces: 0 floor (z=0), 1 ceiling (z=H), 2 west (x=0), 3 east (x=W), 4 south (y=0), 5 north (y=D).
WALL_BEARING = {2: 270.0, 3: 90.0, 4: 180.0, 5: 0.0}

# Material kinds, evaluated procedurally on the GPU.
M_PAINT, M_PLANKS, M_TILES, M_CARPET, M_CONCRETE, M_BRICK, M_STRIPES, M_FABRIC, M_WOOD, M_PICTURE, M_SKY = range(11)

MAX_BOXES = 48
MAX_OPENINGS = 6
SLOTS = 8  # boxes tested together in render (tensors of batch x pixels x SLOTS x 3)
SHAPE_STREAM = 0x4c  # the room's shape comes from the random stream (seed, index, SHAPE_STREAM)


def _srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float32)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


@dataclass
class Material:
    kind: int
    colour_a: tuple  # linear RGB
    colour_b: tuple
    scale: float = 1.0  # metres per pattern unit (plank width, tile size, brick height, stripe width)
    along: int = 0  # 0: pattern runs along the surface's first axis, 1: along the second
    noise: float = 0.05


@dataclass
class Scene:
    width: float
    depth: float
    height: float
    camera: np.ndarray  # position (3,)
    yaw: float  # degrees, bearing of the view from +Y toward +X
    pitch: float
    roll: float
    hfov: float
    distortion: float  # k1 of a radial model on normalised coordinates (negative: barrel)
    surfaces: list  # 6 Materials (floor, ceiling, west, east, south, north)
    skirting: tuple  # (height m, linear RGB)
    openings: list  # (wall face, kind 'window'|'door'|'arch', u0, u1, z0, z1, frame RGB, leaf Material or None)
    boxes: list  # (min (3,), max (3,), visible class, Material)
    lights: dict = field(default_factory=dict)
    photo: dict = field(default_factory=dict)
    block: tuple | None = None  # an L-shaped room: the full-height block (x0, y0, x1, y1) standing in a corner


def _paint(rng, light=True):
    if light and rng.random() < 0.75:
        base = np.array([rng.uniform(0.72, 0.97)] * 3) * (1 + rng.normal(0, 0.04, 3))
    else:
        hue = rng.uniform(0, 1)
        base = _hsv(hue, rng.uniform(0.05, 0.5), rng.uniform(0.3, 0.9))
    return np.clip(base, 0, 1)


def _hsv(h, s, v):
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    return np.array([(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i])


def _wood_colour(rng):
    return _hsv(rng.uniform(0.04, 0.11), rng.uniform(0.35, 0.75), rng.uniform(0.2, 0.85))


def _material(rng, kind, a, b=None, scale=1.0, along=0, noise=0.05):
    b = a * rng.uniform(0.75, 0.95) if b is None else b
    return Material(kind, tuple(_srgb_to_linear(a)), tuple(_srgb_to_linear(b)), scale, along, noise)


def _floor_material(rng):
    r = rng.random()
    if r < 0.55:
        c = _wood_colour(rng)
        return _material(rng, M_PLANKS, c, c * rng.uniform(0.55, 0.85), rng.uniform(0.08, 0.22), int(rng.random() < 0.5), 0.15)
    if r < 0.75:
        c = _paint(rng, light=rng.random() < 0.6)
        return _material(rng, M_TILES, c, c * rng.uniform(0.5, 0.9), rng.uniform(0.3, 0.9), 0, 0.06)
    if r < 0.9:
        return _material(rng, M_CARPET, _hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.3, 0.8)), None, 1, 0, 0.12)
    return _material(rng, M_CONCRETE, np.array([rng.uniform(0.4, 0.75)] * 3), None, 1, 0, 0.1)


def _wall_material(rng, base):
    r = rng.random()
    if r < 0.8:
        return _material(rng, M_PAINT, base, None, 1, 0, rng.uniform(0.01, 0.05))
    if r < 0.88:
        return _material(rng, M_STRIPES, base, base * rng.uniform(0.75, 0.95), rng.uniform(0.03, 0.3), 0, 0.03)
    if r < 0.94:
        return _material(rng, M_BRICK, _hsv(rng.uniform(0.0, 0.08), rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)), np.array([0.8, 0.78, 0.75]), rng.uniform(0.06, 0.08), 0, 0.12)
    if r < 0.97:
        c = _wood_colour(rng)
        return _material(rng, M_PLANKS, c, c * 0.7, rng.uniform(0.08, 0.2), 1, 0.12)
    return _material(rng, M_CONCRETE, np.array([rng.uniform(0.5, 0.8)] * 3), None, 1, 0, 0.08)


def _soft_material(rng):
    r = rng.random()
    if r < 0.45:
        return _material(rng, M_FABRIC, _hsv(rng.uniform(0, 1), rng.uniform(0, 0.6), rng.uniform(0.15, 0.9)), None, 1, 0, 0.1)
    if r < 0.75:
        c = _wood_colour(rng)
        return _material(rng, M_WOOD, c, c * 0.7, rng.uniform(0.02, 0.06), int(rng.random() < 0.5), 0.1)
    if r < 0.9:
        return _material(rng, M_PAINT, _paint(rng, light=rng.random() < 0.5), None, 1, 0, 0.02)
    return _material(rng, M_PAINT, np.array([rng.uniform(0.03, 0.2)] * 3), None, 1, 0, 0.02)


def scene(seed: int, index: int, l_share: float = 0.0) -> Scene:
    """Room `index` of `seed`. With l_share > 0, that share of rooms are L-shaped: a second random stream (never the
    main one) decides the shape and draws the block, so every room it leaves a box is the box room of l_share 0."""
    rng = np.random.default_rng([seed, index])
    W = rng.uniform(2.6, 7.5)
    D = rng.uniform(2.6, 8.5)
    H = rng.uniform(2.3, 3.6)
    wall_base = _paint(rng)
    walls = [_wall_material(rng, wall_base) for _ in range(4)]
    if rng.random() < 0.7:  # most rooms: one paint everywhere
        walls = [walls[0]] * 4
    if rng.random() < 0.12:  # an accent wall
        walls[rng.integers(4)] = _wall_material(rng, _paint(rng, light=False))
    ceiling = _material(rng, M_PAINT, np.clip(_paint(rng) * 0.3 + np.array([0.93] * 3) * 0.7, 0, 1), None, 1, 0, 0.02)
    if rng.random() < 0.06:
        c = _wood_colour(rng)
        ceiling = _material(rng, M_PLANKS, c, c * 0.7, rng.uniform(0.1, 0.2), 0, 0.1)
    surfaces = [_floor_material(rng), ceiling] + walls
    skirting_colour = np.array([0.92] * 3) if rng.random() < 0.6 else (_wood_colour(rng) if rng.random() < 0.5 else wall_base * 0.85)
    skirting = (rng.uniform(0.0, 0.2) if rng.random() < 0.8 else 0.0, tuple(_srgb_to_linear(skirting_colour)))

    # Openings on the walls.
    openings = []
    for face in (2, 3, 4, 5):
        length = D if face in (2, 3) else W
        n = rng.choice([0, 1, 1, 2, 2, 3], p=[0.25, 0.2, 0.2, 0.15, 0.1, 0.1])
        taken = []
        for _ in range(n):
            r = rng.random()
            kind = 'window' if r < 0.62 else ('door' if r < 0.9 else 'arch')
            if kind == 'window':
                w = rng.uniform(0.5, min(3.0, length - 0.4))
                z0 = rng.uniform(0.0, 1.1) if rng.random() > 0.15 else 0.0
                z1 = min(H - 0.05, z0 + rng.uniform(0.8, 2.4))
                if z0 == 0.0:
                    kind = 'glassdoor'
            elif kind == 'door':
                w = rng.uniform(0.7, 1.0) if rng.random() < 0.8 else rng.uniform(1.2, 1.8)
                z0, z1 = 0.0, min(H - 0.05, rng.uniform(1.98, 2.4))
            else:
                w = rng.uniform(0.9, min(2.8, length - 0.4))
                z0, z1 = 0.0, min(H - 0.02, rng.uniform(2.0, 2.7))
            if w > length - 0.3:
                continue
            u0 = rng.uniform(0.15, length - w - 0.15)
            if any(u0 < b + 0.15 and u0 + w + 0.15 > a for a, b in taken):
                continue
            taken.append((u0, u0 + w))
            frame = tuple(_srgb_to_linear(np.array([0.93] * 3) if rng.random() < 0.7 else _wood_colour(rng) * 0.8 if rng.random() < 0.5 else np.array([0.1] * 3)))
            leaf = None
            if kind == 'door':
                leaf = _soft_material(rng) if rng.random() < 0.4 else _material(rng, M_PAINT, np.array([rng.uniform(0.8, 0.97)] * 3), None, 1, 0, 0.02)
            openings.append((face, kind, u0, u0 + w, z0, z1, frame, leaf, rng.uniform(0, 1)))
    openings = openings[:MAX_OPENINGS]

    # Camera: photographers stand near a wall or in a corner and look across the room toward its far side.
    margin = 0.3
    back = int(rng.integers(4))  # the wall behind the photographer: west, east, south, north
    off = rng.uniform(margin, max(margin + 0.01, min(1.6, 0.35 * (W if back < 2 else D))))
    along = margin + (rng.beta(0.5, 0.5) if rng.random() < 0.6 else rng.uniform(0, 1)) * ((D if back < 2 else W) - 2 * margin)
    cx, cy = [(off, along), (W - off, along), (along, off), (along, D - off)][back]
    cz = rng.uniform(0.9, min(1.8, H - 0.3))
    toward = math.degrees(math.atan2(W / 2 - cx, D / 2 - cy))
    yaw = toward + rng.normal(0, 25)
    pitch = rng.normal(-4, 6)
    pitch = float(np.clip(pitch, -25, 15))
    roll = float(rng.normal(0, 1.2))
    hfov = rng.uniform(50, 100)
    distortion = float(rng.uniform(-0.06, 0.01)) if rng.random() < 0.4 and hfov < 85 else 0.0

    boxes = []
    box_piece = []  # which piece (a sofa, a picture) each box belongs to: an L removes whole pieces
    piece = [0]

    def add(lo, hi, cls, mat):
        lo, hi = np.array(lo, dtype=np.float32), np.array(hi, dtype=np.float32)
        cam = np.array([cx, cy, cz])
        if np.all(cam > lo - 0.15) and np.all(cam < hi + 0.15):
            return False
        if len(boxes) < MAX_BOXES:
            boxes.append((lo, hi, cls, mat))
            box_piece.append(piece[0])
        return True

    def wall_free(face, u0, u1, z_top):
        for (f, kind, a, b, z0, z1, *_rest) in openings:
            if f == face and u0 < b + 0.05 and u1 > a - 0.05 and z0 < z_top:
                return False
        return True

    # Rug.
    if rng.random() < 0.4:
        rw, rd = rng.uniform(1.2, min(3.5, W - 0.4)), rng.uniform(1.0, min(3.0, D - 0.4))
        x0, y0 = rng.uniform(0.2, W - rw - 0.2), rng.uniform(0.2, D - rd - 0.2)
        rug = _material(rng, M_CARPET if rng.random() < 0.5 else M_STRIPES, _hsv(rng.uniform(0, 1), rng.uniform(0, 0.6), rng.uniform(0.2, 0.9)), None, rng.uniform(0.05, 0.3), 0, 0.15)
        add((x0, y0, 0.0), (x0 + rw, y0 + rd, rng.uniform(0.005, 0.02)), V_RUG, rug)

    # Furniture pieces: against walls (sofas, beds, cabinets, bookcases) or free (tables, chairs, armchairs).
    furnished = rng.random() < 0.75
    pieces = rng.integers(1, 9) if furnished else 0
    for _ in range(pieces):
        piece[0] += 1
        kind = rng.choice(['sofa', 'bed', 'cabinet', 'tall', 'table', 'chair', 'armchair', 'lamp', 'plant'])
        mat = _soft_material(rng)
        against = kind in ('sofa', 'bed', 'cabinet', 'tall') or rng.random() < 0.3
        if kind == 'sofa':
            w, d, h = rng.uniform(1.5, 2.6), rng.uniform(0.8, 1.0), rng.uniform(0.7, 0.9)
        elif kind == 'bed':
            w, d, h = rng.uniform(1.0, 2.0), rng.uniform(1.9, 2.2), rng.uniform(0.45, 0.65)
        elif kind == 'cabinet':
            w, d, h = rng.uniform(0.6, 2.2), rng.uniform(0.35, 0.6), rng.uniform(0.5, 1.0)
        elif kind == 'tall':
            w, d, h = rng.uniform(0.6, 2.0), rng.uniform(0.3, 0.65), rng.uniform(1.6, min(2.3, H - 0.1))
        elif kind == 'table':
            w, d, h = rng.uniform(0.6, 2.0), rng.uniform(0.6, 1.1), rng.uniform(0.4, 0.78)
        elif kind == 'chair':
            w, d, h = rng.uniform(0.4, 0.55), rng.uniform(0.45, 0.55), rng.uniform(0.8, 1.0)
        elif kind == 'armchair':
            w, d, h = rng.uniform(0.7, 1.0), rng.uniform(0.75, 0.95), rng.uniform(0.7, 0.95)
        elif kind == 'lamp':
            w, d, h = rng.uniform(0.3, 0.5), rng.uniform(0.3, 0.5), rng.uniform(1.2, 1.7)
        else:
            w, d, h = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7), rng.uniform(0.5, 1.6)
        turned = rng.random() < 0.5
        if turned:
            w, d = d, w
        if w > W - 0.3 or d > D - 0.3:
            continue
        if against:
            face = int(rng.integers(2, 6))
            if face == 2:
                x0, y0 = 0.0, rng.uniform(0, D - d)
            elif face == 3:
                x0, y0 = W - w, rng.uniform(0, D - d)
            elif face == 4:
                x0, y0 = rng.uniform(0, W - w), 0.0
            else:
                x0, y0 = rng.uniform(0, W - w), D - d
        else:
            x0, y0 = rng.uniform(0.2, W - w - 0.2), rng.uniform(0.2, D - d - 0.2)
        x1, y1 = x0 + w, y0 + d
        if kind == 'sofa' or kind == 'armchair':
            seat = h * rng.uniform(0.5, 0.6)
            arm = rng.uniform(0.1, 0.22)
            legs = rng.uniform(0.0, 0.15)
            back_axis = 0 if w < d else 1  # the back along the longer side, at the wall-most edge
            add((x0, y0, legs), (x1, y1, seat), V_FURNITURE, mat)
            if back_axis == 1:
                by = (y1 - 0.2, y1) if y1 > D / 2 else (y0, y0 + 0.2)
                add((x0, by[0], seat), (x1, by[1], h), V_FURNITURE, mat)
                add((x0, y0, seat), (x0 + arm, y1, seat + rng.uniform(0.1, 0.25)), V_FURNITURE, mat)
                add((x1 - arm, y0, seat), (x1, y1, seat + rng.uniform(0.1, 0.25)), V_FURNITURE, mat)
            else:
                bx = (x1 - 0.2, x1) if x1 > W / 2 else (x0, x0 + 0.2)
                add((bx[0], y0, seat), (bx[1], y1, h), V_FURNITURE, mat)
            if legs > 0.03:
                pass  # legs are hidden in the shadow; the gap under the seat shows the floor
        elif kind == 'bed':
            add((x0, y0, 0.0), (x1, y1, h * 0.55), V_FURNITURE, _soft_material(rng))
            duvet = _material(rng, M_FABRIC, _paint(rng, light=rng.random() < 0.7), None, 1, 0, 0.08)
            add((x0 + 0.02, y0 + 0.02, h * 0.55), (x1 - 0.02, y1 - 0.02, h), V_FURNITURE, duvet)
            if w < d:
                hy = (y1 - 0.08, y1) if y1 > D / 2 else (y0, y0 + 0.08)
                add((x0, hy[0], 0.0), (x1, hy[1], h + rng.uniform(0.3, 0.7)), V_FURNITURE, mat)
            else:
                hx = (x1 - 0.08, x1) if x1 > W / 2 else (x0, x0 + 0.08)
                add((hx[0], y0, 0.0), (hx[1], y1, h + rng.uniform(0.3, 0.7)), V_FURNITURE, mat)
        elif kind in ('table', 'chair'):
            top = rng.uniform(0.025, 0.06)
            seat = h if kind == 'table' else rng.uniform(0.42, 0.48)
            add((x0, y0, seat - top), (x1, y1, seat), V_FURNITURE, mat)
            leg = rng.uniform(0.03, 0.07)
            for (lx, ly) in ((x0, y0), (x1 - leg, y0), (x0, y1 - leg), (x1 - leg, y1 - leg)):
                add((lx, ly, 0.0), (lx + leg, ly + leg, seat - top), V_FURNITURE, mat)
            if kind == 'chair':
                add((x0, y0, seat), (x1, y0 + 0.05, h), V_FURNITURE, mat)
        elif kind == 'lamp':
            cxl, cyl = (x0 + x1) / 2, (y0 + y1) / 2
            add((cxl - 0.02, cyl - 0.02, 0.0), (cxl + 0.02, cyl + 0.02, h - 0.3), V_FURNITURE, _material(rng, M_PAINT, np.array([0.1] * 3)))
            add((x0, y0, h - 0.3), (x1, y1, h), V_FURNITURE, _material(rng, M_FABRIC, np.array([0.95, 0.92, 0.85]), None, 1, 0, 0.03))
        elif kind == 'plant':
            pot = rng.uniform(0.25, 0.4)
            add((x0 + 0.05, y0 + 0.05, 0.0), (x1 - 0.05, y1 - 0.05, pot), V_FURNITURE, _material(rng, M_PAINT, _paint(rng, light=rng.random() < 0.5)))
            green = _material(rng, M_FABRIC, _hsv(rng.uniform(0.22, 0.38), rng.uniform(0.4, 0.8), rng.uniform(0.15, 0.5)), None, 1, 0, 0.6)
            add((x0, y0, pot), (x1, y1, h), V_FURNITURE, green)
        else:  # cabinet or tall storage: a carcass with fronts
            legs = rng.uniform(0.0, 0.15) if kind == 'cabinet' else 0.0
            add((x0, y0, legs), (x1, y1, h), V_FURNITURE, mat)

    # Wall art, mirrors and shelves above eye level.
    for _ in range(rng.integers(0, 4)):
        piece[0] += 1
        face = int(rng.integers(2, 6))
        length = D if face in (2, 3) else W
        aw, ah = rng.uniform(0.3, min(1.6, length - 0.3)), rng.uniform(0.3, 1.1)
        u0 = rng.uniform(0.1, length - aw - 0.1)
        z0 = rng.uniform(0.9, max(0.95, H - ah - 0.2))
        if not wall_free(face, u0, u0 + aw, H):
            continue
        t = rng.uniform(0.02, 0.05)
        pic = _material(rng, M_PICTURE, _hsv(rng.uniform(0, 1), rng.uniform(0, 0.8), rng.uniform(0.2, 0.9)), _hsv(rng.uniform(0, 1), rng.uniform(0, 0.8), rng.uniform(0.2, 0.9)), rng.uniform(0.05, 0.4), 0, 0.3)
        if face == 2:
            add((0.0, u0, z0), (t, u0 + aw, z0 + ah), V_ART, pic)
        elif face == 3:
            add((W - t, u0, z0), (W, u0 + aw, z0 + ah), V_ART, pic)
        elif face == 4:
            add((u0, 0.0, z0), (u0 + aw, t, z0 + ah), V_ART, pic)
        else:
            add((u0, D - t, z0), (u0 + aw, D, z0 + ah), V_ART, pic)

    # Clutter on the floor: boxes, bags, toys, clothes.
    for _ in range(rng.integers(0, 10) if rng.random() < 0.4 else 0):
        piece[0] += 1
        s = rng.uniform(0.08, 0.5)
        w, d, h = s * rng.uniform(0.5, 1.5), s * rng.uniform(0.5, 1.5), s * rng.uniform(0.2, 1.2)
        x0, y0 = rng.uniform(0.05, W - w - 0.05), rng.uniform(0.05, D - d - 0.05)
        add((x0, y0, 0.0), (x0 + w, y0 + d, h), V_CLUTTER, _soft_material(rng) if rng.random() < 0.5 else _material(rng, M_PAINT, _hsv(rng.uniform(0, 1), rng.uniform(0.2, 1), rng.uniform(0.2, 1))))

    # Ceiling fixtures (labelled furniture: they are not the ceiling's surface).
    for _ in range(rng.integers(0, 3)):
        piece[0] += 1
        s = rng.uniform(0.1, 0.5)
        x0, y0 = rng.uniform(0.2, W - s - 0.2), rng.uniform(0.2, D - s - 0.2)
        add((x0, y0, H - rng.uniform(0.03, 0.4)), (x0 + s, y0 + s, H), V_FURNITURE, _material(rng, M_PAINT, np.array([rng.uniform(0.1, 0.95)] * 3)))

    # Light: window glow, a sun patch through one window, ceiling lights, ambient.
    windows = [o for o in openings if o[1] in ('window', 'glassdoor')]
    sun = None
    if windows and rng.random() < 0.35:
        o = windows[rng.integers(len(windows))]
        face = o[0]
        inward = {2: (1, 0), 3: (-1, 0), 4: (0, 1), 5: (0, -1)}[face]
        elev = math.radians(rng.uniform(15, 55))
        side = rng.uniform(-0.8, 0.8)
        horiz = np.array([inward[0] + side * inward[1], inward[1] + side * inward[0]])
        horiz = horiz / np.linalg.norm(horiz)
        sun = (np.array([horiz[0] * math.cos(elev), horiz[1] * math.cos(elev), -math.sin(elev)]), openings.index(o), rng.uniform(2.0, 6.0))
    lights = {
        'ambient': rng.uniform(0.25, 0.6),
        'ambient_faces': rng.uniform(0.8, 1.2, 6),
        'window_power': rng.uniform(0.5, 3.0) if windows else 0.0,
        'sun': sun,
        'ceiling_lights': [(rng.uniform(0.5, W - 0.5), rng.uniform(0.5, D - 0.5), H - 0.05, rng.uniform(0.1, 0.8)) for _ in range(rng.integers(0, 4))],
        'colour': tuple(_hsv(rng.uniform(0.05, 0.6), rng.uniform(0, 0.12), 1.0)),
        'corner_shade': rng.uniform(0.1, 0.45),
    }
    photo = {
        'exposure': rng.uniform(0.7, 2.2),
        'curve': rng.uniform(0.6, 1.4),  # tone curve shoulder
        'white_balance': tuple(1 + rng.normal(0, 0.05, 3)),
        'saturation': rng.uniform(0.7, 1.25),
        'vignette': rng.uniform(0, 0.35),
        'blur': rng.uniform(0, 1.2) if rng.random() < 0.5 else 0.0,
        'noise': rng.uniform(0, 0.03),
        'aberration': int(rng.integers(0, 2)) if rng.random() < 0.3 else 0,
        'flip': bool(rng.random() < 0.5),
    }
    room = Scene(W, D, H, np.array([cx, cy, cz]), float(yaw), pitch, roll, hfov, distortion, surfaces, skirting, openings, boxes, lights, photo)
    if l_share > 0:
        shape_rng = np.random.default_rng([seed, index, SHAPE_STREAM])
        if shape_rng.random() < l_share:
            block = _draw_block(shape_rng, room)
            if block is not None:
                _carve_block(room, block, box_piece)
    return room


# ---------------------------------------------------------------------------------------------------------------
# L-shaped rooms: the box less a full-height block standing in one of its corners, as tools/room-renderer draws them
# (README "L-shaped rooms"): a corner in front of the camera, each side 25–50 % of the room's width / depth with legs
# of floor at least 1.5 m wide, the camera 0.4 m or more from its faces, the block covering 5–35 % of the view, the
# floor and two walls still in view. A block face takes the class and paint of the wall it faces like.

BLOCK_SIDE = (0.25, 0.5)
BLOCK_MIN_LEG = 1.5
BLOCK_CLEARANCE = 0.4
BLOCK_FRACTION = (0.05, 0.35)


def _view_rays(room, nx=40, ny=32, width=320, height=256):
    """Unit rays (nx * ny, 3) over a 320 x 256 view of the room's camera (no distortion; the mirror changes nothing)."""
    focal = width / 2 / math.tan(math.radians(room.hfov) / 2)
    xs = ((np.arange(nx) + 0.5) / nx * width - width / 2) / focal
    ys = ((np.arange(ny) + 0.5) / ny * height - height / 2) / focal
    xn, yn = np.meshgrid(xs, ys)
    cam = np.stack([xn.ravel(), yn.ravel(), np.ones(nx * ny)], -1)
    d = cam @ _rotation(room)
    return d / np.linalg.norm(d, axis=1, keepdims=True)


def _cast_shell(room, d, block):
    """Per ray: the room face it meets (0 floor, 1 ceiling, 2-5 walls; a block face counts as the wall it faces like)
    and whether that is the block."""
    C = room.camera
    size = np.array([room.width, room.depth, room.height])
    dsafe = np.where(np.abs(d) < 1e-6, 1e-6, d)
    t_axes = (np.where(d > 0, size, 0.0) - C) / dsafe
    axis = t_axes.argmin(1)
    t_room = t_axes.min(1)
    positive = d[np.arange(len(d)), axis] > 0
    face = np.where(axis == 2, positive.astype(int), np.where(axis == 0, 2, 4) + positive)
    bmin, bmax = np.array(block[0:2]), np.array(block[2:4])
    ta = (bmin - C[:2]) / dsafe[:, :2]
    tb = (bmax - C[:2]) / dsafe[:, :2]
    near = np.minimum(ta, tb)
    b_near, b_axis = near.max(1), near.argmax(1)
    b_far = np.maximum(ta, tb).min(1)
    on_block = (b_near < b_far) & (b_near > 0) & (b_near < t_room)
    entering = d[np.arange(len(d)), b_axis] > 0
    face = np.where(on_block, np.where(b_axis == 0, 2, 4) + entering, face)
    return face, on_block


def _draw_block(rng, room, attempts=40):
    """An L's block (x0, y0, x1, y1) for the room's camera, or None when `attempts` draws fail."""
    W, D = room.width, room.depth
    C = room.camera
    R = _rotation(room)
    focal = 160 / math.tan(math.radians(room.hfov) / 2)
    ahead = lambda p: float((np.asarray(p) - C) @ R[2])
    corners = [(cx, cy) for cx in (0, 1) for cy in (0, 1) if ahead((cx * W, cy * D, C[2])) > 0]
    if not corners:
        return None
    d = _view_rays(room)

    def side(length):
        lo, hi = BLOCK_SIDE[0] * length, min(BLOCK_SIDE[1] * length, length - BLOCK_MIN_LEG)
        return rng.uniform(lo, hi) if lo <= hi else None

    for _ in range(attempts):
        cx, cy = corners[int(rng.integers(len(corners)))]
        sx, sy = side(W), side(D)
        if sx is None or sy is None:
            continue
        x0, x1 = (0.0, sx) if cx == 0 else (W - sx, W)
        y0, y1 = (0.0, sy) if cy == 0 else (D - sy, D)
        c = BLOCK_CLEARANCE
        if x0 - c < C[0] < x1 + c and y0 - c < C[1] < y1 + c:
            continue
        # The block's own corner in the room (the L's inner vertical edge) in front of the camera and within the
        # image's width.
        inner = (np.array([x1 if cx == 0 else x0, y1 if cy == 0 else y0, C[2]]) - C) @ R.T
        if inner[2] <= 0 or abs(focal * inner[0] / inner[2]) > 160:
            continue
        block = (float(x0), float(y0), float(x1), float(y1))
        face, on_block = _cast_shell(room, d, block)
        if not BLOCK_FRACTION[0] <= on_block.mean() <= BLOCK_FRACTION[1]:
            continue
        free = ~on_block
        walls = sum(((face == f) & free).mean() >= 0.02 for f in (2, 3, 4, 5))
        if walls >= 2 and ((face == 0) & free).mean() >= 0.03:
            return block
    return None


def _carve_block(room, block, box_piece):
    """Make the box room an L: openings only on the walls' uncovered parts (0.3 m or more from the block), pieces
    (every box of a sofa, a picture) standing within 2 cm of the block removed, ceiling lights above it removed."""
    x0, y0, x1, y1 = block
    W, D = room.width, room.depth
    covered = {}  # wall face -> the span (u) the block covers
    if x0 == 0.0:
        covered[2] = (y0, y1)
    if x1 == W:
        covered[3] = (y0, y1)
    if y0 == 0.0:
        covered[4] = (x0, x1)
    if y1 == D:
        covered[5] = (x0, x1)
    kept = [k for k, o in enumerate(room.openings)
            if not (o[0] in covered and o[2] < covered[o[0]][1] + 0.3 and o[3] > covered[o[0]][0] - 0.3)]
    sun = room.lights['sun']
    if sun is not None:
        room.lights['sun'] = (sun[0], kept.index(sun[1]), sun[2]) if sun[1] in kept else None
    room.openings = [room.openings[k] for k in kept]
    gap = 0.02
    inside = lambda lo, hi: lo[0] < x1 + gap and hi[0] > x0 - gap and lo[1] < y1 + gap and hi[1] > y0 - gap
    gone = {box_piece[k] for k, (lo, hi, _, _) in enumerate(room.boxes) if inside(lo, hi)}
    room.boxes = [b for k, b in enumerate(room.boxes) if box_piece[k] not in gone]
    room.lights['ceiling_lights'] = [l for l in room.lights['ceiling_lights']
                                     if not (x0 - 0.3 < l[0] < x1 + 0.3 and y0 - 0.3 < l[1] < y1 + 0.3)]
    room.block = block


# ---------------------------------------------------------------------------------------------------------------
# GPU rendering.


class NoiseBank:
    """Smooth noise textures (sums of octaves), sampled with wrap-around at any scale: the grain of every material."""

    def __init__(self, device, size=256, count=8, seed=0):
        g = torch.Generator().manual_seed(seed)
        bank = []
        for _ in range(count):
            tex = torch.zeros(1, 1, size, size)
            amp = 1.0
            for cells in (4, 8, 16, 32, 64, 128):
                lattice = torch.rand(1, 1, cells, cells, generator=g)
                # Wrap the lattice so the texture tiles.
                lattice = torch.cat([lattice, lattice[:, :, :1]], 2)
                lattice = torch.cat([lattice, lattice[:, :, :, :1]], 3)
                up = F.interpolate(lattice, size=(size + size // cells, size + size // cells), mode='bicubic', align_corners=True)
                tex += amp * up[:, :, :size, :size]
                amp *= 0.6
            tex = (tex - tex.mean()) / tex.std()
            bank.append(tex)
        self.bank = torch.cat(bank, 0).to(device)  # (count, 1, size, size)
        self.count = count

    def sample(self, which, u, v):
        """which: (B,) long; u, v: (B, N) in texture units (1 = one tile). Returns (B, N) ~ N(0, 1)."""
        tex = self.bank[which]
        grid = torch.stack([torch.remainder(u, 1.0) * 2 - 1, torch.remainder(v, 1.0) * 2 - 1], -1).unsqueeze(1)
        return F.grid_sample(tex, grid, mode='bilinear', padding_mode='border', align_corners=False)[:, 0, 0]


def _hash(*xs):
    """A float in [0, 1) from integer-valued tensors (per plank, tile, brick colour)."""
    h = torch.zeros_like(xs[0], dtype=torch.float32)
    for k, x in enumerate(xs):
        h = h + x.float() * (12.9898 + 65.233 * k)
    return torch.frac(torch.sin(h) * 43758.5453).abs()


def _lerp(a, b, t):
    return a + (b - a) * t.unsqueeze(-1)


def shade_material(noise, params, u, v):
    """Albedo (B, N, 3) of materials given per pixel: params is a dict of (B, N, ...) tensors gathered per pixel."""
    kind = params['kind']
    a, b = params['a'], params['b']
    scale = params['scale'].clamp(min=1e-3)
    along = params['along'] > 0.5
    nz = params['noise']
    # One noise texture per scene; materials differ by an offset into it.
    which = torch.arange(kind.shape[0], device=kind.device) % noise.count
    offset = params['bank'].float() * 0.37
    pu = torch.where(along, v, u) + offset
    pv = torch.where(along, u, v) + offset * 1.7
    fine = noise.sample(which, pu * 1.3, pv * 1.3)
    coarse = noise.sample((which + 3) % noise.count, pu * 0.15, pv * 0.15)
    out = a * (1 + (nz * 0.5 * fine + nz * 0.5 * coarse).unsqueeze(-1))

    # Planks: rows across `scale`, staggered joints, colour per plank, grain stretched along the row, dark gaps.
    row = torch.floor(pv / scale)
    plank_len = scale * 8
    col = torch.floor(pu / plank_len + _hash(row) * 3)
    t = _hash(row, col)
    grain = noise.sample((which + 1) % noise.count, pu * 0.25, pv * 4.0)
    planks = _lerp(a, b, t) * (1 + 0.18 * grain).unsqueeze(-1)
    edge_v = torch.minimum(torch.remainder(pv, scale), scale - torch.remainder(pv, scale))
    edge_u = torch.minimum(torch.remainder(pu / plank_len + _hash(row) * 3, 1.0), 1 - torch.remainder(pu / plank_len + _hash(row) * 3, 1.0)) * plank_len
    gap = ((edge_v < 0.003) | (edge_u < 0.003)).float().unsqueeze(-1)
    planks = planks * (1 - 0.6 * gap)
    out = torch.where((kind == M_PLANKS).unsqueeze(-1), planks, out)
    wood = a * (1 + 0.2 * grain).unsqueeze(-1)
    out = torch.where((kind == M_WOOD).unsqueeze(-1), wood, out)

    # Tiles and bricks: a grid with grout.
    ti, tj = torch.floor(pu / scale), torch.floor(pv / scale)
    tile = _lerp(a, a * 0.9, _hash(ti, tj)) * (1 + 0.04 * fine).unsqueeze(-1)
    gu = torch.minimum(torch.remainder(pu, scale), scale - torch.remainder(pu, scale))
    gv = torch.minimum(torch.remainder(pv, scale), scale - torch.remainder(pv, scale))
    grout = ((gu < 0.004) | (gv < 0.004)).float().unsqueeze(-1)
    out = torch.where((kind == M_TILES).unsqueeze(-1), tile * (1 - grout) + b * grout, out)
    brow = torch.floor(v / scale)
    bu = u / (scale * 3) + 0.5 * torch.remainder(brow, 2)
    brick = a * (0.8 + 0.4 * _hash(brow, torch.floor(bu))).unsqueeze(-1) * (1 + 0.1 * fine).unsqueeze(-1)
    mortar = ((torch.remainder(v, scale) < 0.01) | (torch.remainder(bu, 1.0) * scale * 3 < 0.01)).float().unsqueeze(-1)
    out = torch.where((kind == M_BRICK).unsqueeze(-1), brick * (1 - mortar) + b * mortar, out)

    # Stripes (wallpaper, striped rugs).
    stripe = (torch.sin(pu / scale * math.pi) > 0).float()
    out = torch.where((kind == M_STRIPES).unsqueeze(-1), _lerp(a, b, stripe) * (1 + 0.03 * fine).unsqueeze(-1), out)
    # Carpet and fabric: fine grain.
    fab = a * (1 + nz.unsqueeze(-1) * noise.sample((which + 2) % noise.count, pu * 6, pv * 6).unsqueeze(-1) + 0.5 * nz.unsqueeze(-1) * coarse.unsqueeze(-1))
    out = torch.where(((kind == M_CARPET) | (kind == M_FABRIC)).unsqueeze(-1), fab, out)
    # Pictures: two colours in blobs.
    blobs = torch.sigmoid(4 * noise.sample((which + 4) % noise.count, u / scale * 0.2, v / scale * 0.2))
    out = torch.where((kind == M_PICTURE).unsqueeze(-1), _lerp(a, b, blobs) * (1 + 0.2 * fine).unsqueeze(-1), out)
    return out.clamp(0.0, 1.0)


# ---------------------------------------------------------------------------------------------------------------
# Packing: every scene of a batch as one row of numbers, built on the CPU (in loader workers while training), copied
# to the device once per batch. Stored as float64 so that values the renderer needs in double precision (the focal
# length's tangent) arrive exactly; everything else is rounded to float32 on the device, as torch.tensor did before.

MATERIAL_SLOTS = 7 + MAX_BOXES + MAX_OPENINGS  # 6 room faces, skirting, the boxes, the door leaves
_FIELDS = [
    ('camera', 3), ('size', 3), ('yaw', 1), ('tan_half', 1), ('k1', 1), ('flip', 1), ('R', 9), ('skirt_h', 1),
    ('ops', MAX_OPENINGS * 10), ('n_ops', 1),
    ('boxes', MAX_BOXES * 7), ('n_boxes', 1), ('box_order', 1), ('box_unorder', 1),
    ('casters', MAX_BOXES * 6), ('n_casters', 1), ('caster_order', 1), ('caster_unorder', 1),
    ('m_kind', MATERIAL_SLOTS), ('m_a', MATERIAL_SLOTS * 3), ('m_b', MATERIAL_SLOTS * 3), ('m_scale', MATERIAL_SLOTS),
    ('m_along', MATERIAL_SLOTS), ('m_noise', MATERIAL_SLOTS),
    ('ambient', 1), ('ambient_faces', 6), ('corner_shade', 1), ('window_power', 1), ('sun', 10), ('lamps', 12),
    ('n_lamps', 1), ('colour', 3),
    ('exposure', 1), ('curve', 1), ('saturation', 1), ('vignette', 1), ('blur', 1), ('noise', 1), ('aberration', 1),
    ('white_balance', 3),
    ('block', 5),  # an L's block: 1 when present, x0, y0, x1, y1
]
FIELD = {}
_offset = 0
for _name, _n in _FIELDS:
    FIELD[_name] = (_offset, _offset + _n)
    _offset += _n
PACK_WIDTH = _offset
_OPENING_KINDS = {'window': 0, 'glassdoor': 1, 'door': 2, 'arch': 3}
_PAD_MATERIAL = Material(M_PAINT, (0, 0, 0), (0, 0, 0))
_GREY_LEAF = Material(M_PAINT, (0.5,) * 3, (0.5,) * 3)


def _rotation(s):
    """Rows: camera x (right), y (down), z (forward) in world coordinates."""
    yaw, pitch, roll = math.radians(s.yaw), math.radians(s.pitch), math.radians(s.roll)
    fwd = np.array([math.sin(yaw) * math.cos(pitch), math.cos(yaw) * math.cos(pitch), math.sin(pitch)])
    right = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    up = np.cross(right, fwd)
    r2 = right * math.cos(roll) + up * math.sin(roll)
    u2 = -right * math.sin(roll) + up * math.cos(roll)
    return np.stack([r2, -u2, fwd])


def pack(scenes) -> np.ndarray:
    """The batch as a (B, PACK_WIDTH) float64 array: all the per-scene Python work of a render, done ahead."""
    B = len(scenes)
    out = np.zeros((B, PACK_WIDTH), dtype=np.float64)

    def put(name, b, values):
        lo, hi = FIELD[name]
        out[b, lo:hi] = np.asarray(values, dtype=np.float64).reshape(-1)

    n_boxes = np.zeros(B, dtype=np.int64)
    n_casters = np.zeros(B, dtype=np.int64)
    for b, s in enumerate(scenes):
        put('camera', b, s.camera)
        put('size', b, (s.width, s.depth, s.height))
        put('yaw', b, s.yaw)
        put('tan_half', b, math.tan(math.radians(s.hfov) / 2))
        put('k1', b, s.distortion)
        put('flip', b, float(s.photo['flip']))
        put('R', b, _rotation(s))
        put('skirt_h', b, s.skirting[0])
        rows = [(f, _OPENING_KINDS[k], u0, u1, z0, z1, *fr, sd) for (f, k, u0, u1, z0, z1, fr, leaf, sd) in s.openings]
        rows += [(-1, 0, 0, 0, 0, 0, 0, 0, 0, 0)] * (MAX_OPENINGS - len(rows))
        put('ops', b, rows)
        put('n_ops', b, len(s.openings))
        rows = [(*lo, *hi, cls) for (lo, hi, cls, _) in s.boxes]
        rows += [(0, 0, 0, 0, 0, 0, -1)] * (MAX_BOXES - len(rows))
        put('boxes', b, np.asarray(rows, dtype=np.float32))
        n_boxes[b] = len(s.boxes)
        # Boxes that cast a contact shadow on the floor: standing (bottom below 0.2 m, compared in float32 as the
        # renderer compares), not rugs.
        casters = [(*lo, *hi) for (lo, hi, cls, _) in s.boxes if np.float32(lo[2]) < np.float32(0.2) and cls != V_RUG]
        n_casters[b] = len(casters)
        if casters:
            lo_c, hi_c = FIELD['casters']
            out[b, lo_c:lo_c + 6 * len(casters)] = np.asarray(casters, dtype=np.float32).reshape(-1)
        mats = list(s.surfaces)
        mats.append(Material(M_PAINT, s.skirting[1], s.skirting[1], 1, 0, 0.01))
        mats += [m for (_, _, _, m) in s.boxes]
        mats += [_PAD_MATERIAL] * (MAX_BOXES - len(s.boxes))
        mats += [o[7] if o[7] is not None else _GREY_LEAF for o in s.openings]
        mats += [_PAD_MATERIAL] * (MAX_OPENINGS - len(s.openings))
        put('m_kind', b, [m.kind for m in mats])
        put('m_a', b, np.asarray([m.colour_a for m in mats], dtype=np.float32))
        put('m_b', b, np.asarray([m.colour_b for m in mats], dtype=np.float32))
        put('m_scale', b, [m.scale for m in mats])
        put('m_along', b, [float(m.along) for m in mats])
        put('m_noise', b, [m.noise for m in mats])
        lights = s.lights
        put('ambient', b, lights['ambient'])
        put('ambient_faces', b, lights['ambient_faces'])
        put('corner_shade', b, lights['corner_shade'])
        put('window_power', b, lights['window_power'])
        row = [0.0] * 10
        if lights['sun'] is not None:
            sdir, oi, power = lights['sun']
            (f, kind, u0, u1, z0, z1, *_r) = s.openings[oi]
            axis = 0 if f in (2, 3) else 1
            plane = 0.0 if f in (2, 4) else (s.width if f == 3 else s.depth)
            toward = -np.asarray(sdir, dtype=np.float32)
            if abs(float(toward[axis])) >= 1e-4:
                row = [*toward, float(axis), plane, u0, u1, z0, z1, power]
        put('sun', b, np.asarray(row, dtype=np.float32))
        lamps = [list(l) for l in lights['ceiling_lights']]
        put('lamps', b, lamps + [[0.0, 0.0, 1.0, 0.0]] * (3 - len(lamps)))
        put('n_lamps', b, len(lamps))
        put('colour', b, lights['colour'])
        photo = s.photo
        for key in ('exposure', 'curve', 'saturation', 'vignette', 'blur', 'noise', 'aberration', 'white_balance'):
            put(key, b, photo[key])
        block = getattr(s, 'block', None)
        if block is not None:
            put('block', b, (1.0, *block))
    # Scenes sorted by their number of boxes (most first), so that box slot k is tested on a prefix of the batch.
    for name, counts in (('box', n_boxes), ('caster', n_casters)):
        order = np.argsort(-counts, kind='stable')
        out[:, FIELD[f'{name}_order'][0]] = order
        out[:, FIELD[f'{name}_unorder'][0]] = np.argsort(order, kind='stable')
    out[:, FIELD['n_boxes'][0]] = n_boxes
    out[:, FIELD['n_casters'][0]] = n_casters
    return out


def _scene(seed, index, l_share):
    return scene(seed, index, l_share) if l_share else scene(seed, index)


class _Batches(torch.utils.data.Dataset):
    """Packed batch `step`: scenes step * batch ... step * batch + batch - 1 of the seed."""

    def __init__(self, seed, batch, l_share=0.0, first_step=0):
        self.seed, self.batch, self.l_share, self.first_step = seed, batch, l_share, first_step

    def __len__(self):
        return 10 ** 9

    def __getitem__(self, step):
        start = (self.first_step + step) * self.batch
        return torch.from_numpy(pack([_scene(self.seed, start + i, self.l_share) for i in range(self.batch)]))


def loader(seed, batch, workers, device, l_share=0.0, first_step=0, prefetch=4):
    """Packed batches 0, 1, 2, ... of a seed, built by `workers` processes ahead of the training loop, in pinned memory
    on a CUDA machine (so render's copy to the device runs asynchronously)."""
    kwargs = dict(batch_size=None, shuffle=False, num_workers=workers, pin_memory=torch.device(device).type == 'cuda')
    if workers > 0:
        kwargs.update(prefetch_factor=prefetch, persistent_workers=False)
    return torch.utils.data.DataLoader(_Batches(seed, batch, l_share, first_step), **kwargs)


# ---------------------------------------------------------------------------------------------------------------
# Rendering a packed batch.


def _gather(table, index):
    """table: (B, M, ...) ; index: (B, N) -> (B, N, ...)"""
    out = {}
    for k, t in table.items():
        if t.dim() == 2:
            out[k] = torch.gather(t, 1, index)
        else:
            out[k] = torch.gather(t, 1, index.unsqueeze(-1).expand(-1, -1, t.shape[-1]))
    return out


def _camera_rays(field, tan_half, height, width, device):
    """field: the packed batch's float32 fields on the device; tan_half: (B, 1) float64."""
    B = tan_half.shape[0]
    ys, xs = torch.meshgrid(torch.arange(height, device=device, dtype=torch.float32) + 0.5, torch.arange(width, device=device, dtype=torch.float32) + 0.5, indexing='ij')
    xs, ys = xs.reshape(-1), ys.reshape(-1)
    # width / 2 / tan(hfov / 2) divided in double precision and then rounded, as the scalar Python did it.
    focal = (torch.full_like(tan_half, width / 2) / tan_half).float()
    xn = (xs.unsqueeze(0) - width / 2) / focal
    yn = (ys.unsqueeze(0) - height / 2) / focal
    k1 = field('k1')
    # The photo is distorted: a pixel at distorted radius r_d sees the ray at r_u with r_d = r_u (1 + k1 r_u^2).
    rd2 = xn * xn + yn * yn
    factor = 1 / (1 + k1 * rd2)
    for _ in range(3):
        ru2 = rd2 * factor * factor
        factor = 1 / (1 + k1 * ru2)
    xn, yn = xn * factor, yn * factor
    flip = 1.0 - 2.0 * field('flip')
    xn = xn * flip
    R = field('R').view(B, 3, 3)
    cam = torch.stack([xn, yn, torch.ones_like(xn)], -1)  # (B, N, 3)
    d = torch.einsum('bnk,bkw->bnw', cam, R)
    d = d / d.norm(dim=-1, keepdim=True)
    return d


_CONSTANTS = {}


def _constant(device, name):
    """Small tables, copied to the device once: torch.tensor(..., device='cuda') is a blocking copy that waits for
    everything queued on the GPU, so a render must not make one."""
    key = (str(device), name)
    if key not in _CONSTANTS:
        rows = {'normals': [[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]],
                'inward': [[0, 0, 0], [0, 0, 0], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]]}[name]
        _CONSTANTS[key] = torch.tensor(rows, device=device, dtype=torch.float32)
    return _CONSTANTS[key]


def render(scenes, height, width, device, noise: NoiseBank, generator: torch.Generator | None = None):
    """Ray-cast a batch: a list of Scenes, or a batch packed by `pack` (numpy, or a CPU tensor, pinned for an
    asynchronous copy). Returns image (B,3,H,W) in [0,1], visible (B,H,W) and layout (B,H,W) long."""
    if isinstance(scenes, np.ndarray):
        packed = torch.from_numpy(scenes)
    elif isinstance(scenes, torch.Tensor):
        packed = scenes
    else:
        packed = torch.from_numpy(pack(scenes))
    host = packed.numpy() if packed.device.type == 'cpu' else packed.cpu().numpy()
    device = torch.device(device)
    pk64 = packed.to(device, non_blocking=True)  # the batch's one copy to the device
    pk = pk64.float()

    def field(name):
        lo, hi = FIELD[name]
        return pk[:, lo:hi]

    def host_field(name):
        return host[:, FIELD[name][0]]

    B = pk.shape[0]
    N = height * width
    d = _camera_rays(field, pk64[:, FIELD['tan_half'][0]:FIELD['tan_half'][1]], height, width, device)
    o = field('camera').unsqueeze(1)  # (B,1,3)
    size = field('size').unsqueeze(1)
    eps = 1e-6
    # Room: the ray leaves through one of six planes.
    dsafe = torch.where(d.abs() < eps, torch.full_like(d, eps), d)
    far = torch.where(d > 0, size, torch.zeros_like(size))
    t_axes = (far - o) / dsafe  # (B,N,3)
    t_axes = torch.where(d.abs() < eps, torch.full_like(t_axes, 1e9), t_axes)
    t_room, axis = t_axes.min(-1)
    positive = torch.gather(d, 2, axis.unsqueeze(-1)).squeeze(-1) > 0
    # face: axis 2 → floor (0) or ceiling (1); axis 0 → west (2) / east (3); axis 1 → south (4) / north (5)
    face = torch.where(axis == 2, positive.long(), torch.where(axis == 0, 2 + positive.long(), 4 + positive.long()))
    # An L's block: full height, so only its x and y slabs can stop a ray before it leaves the box. A face of it takes
    # the face number (class, paint) of the wall it is parallel to and faces like: entered travelling +x, east.
    any_block = bool((host_field('block') > 0.5).any())
    on_block = None
    if any_block:
        blk = field('block')
        has_block = blk[:, 0:1] > 0.5
        bmin, bmax = blk[:, 1:3].unsqueeze(1), blk[:, 3:5].unsqueeze(1)  # (B,1,2)
        ta = (bmin - o[..., 0:2]) / dsafe[..., 0:2]
        tb = (bmax - o[..., 0:2]) / dsafe[..., 0:2]
        b_near, b_axis = torch.minimum(ta, tb).max(-1)
        b_far = torch.maximum(ta, tb).min(-1).values
        on_block = has_block & (b_near < b_far) & (b_near > 0) & (b_near < t_room)
        entering = torch.gather(d, 2, b_axis.unsqueeze(-1)).squeeze(-1) > 0
        b_face = torch.where(b_axis == 0, 2 + entering.long(), 4 + entering.long())
        t_room = torch.where(on_block, b_near, t_room)
        face = torch.where(on_block, b_face, face)
    p_room = o + t_room.unsqueeze(-1) * d

    # Layout labels: floor, ceiling, walls by bearing relative to the view.
    layout = torch.where(face <= 1, face, torch.full_like(face, IGNORE))
    yaw = field('yaw')
    flipped = field('flip') > 0.5
    for f, bearing in WALL_BEARING.items():
        rel = torch.remainder(bearing - yaw + 180, 360) - 180
        name = torch.where(rel < -135, IGNORE, torch.where(rel < -45, 2, torch.where(rel < 45, 3, torch.where(rel < 135, 4, IGNORE))))
        # A mirrored photo swaps left and right.
        name = torch.where(flipped & (name == 2), torch.full_like(name, 4), torch.where(flipped & (name == 4), torch.full_like(name, 2), name))
        layout = torch.where(face == f, name.expand(-1, N), layout)

    # Surface coordinates (u along the surface, v across / up) and normals of the room hit.
    x, y, z = p_room[..., 0], p_room[..., 1], p_room[..., 2]
    u = torch.where(face <= 1, x, torch.where(face <= 3, y, x))
    v = torch.where(face <= 1, y, z)
    normal_table = _constant(device, 'normals')
    normal = normal_table[face]
    material = face.clone()
    visible = torch.where(face == 0, V_FLOOR, torch.where(face == 1, V_CEILING, V_WALL)).long()
    skirt_h = field('skirt_h')
    on_wall = face >= 2
    material = torch.where(on_wall & (z < skirt_h), torch.full_like(material, 6), material)

    # Openings: windows and glass doors show the outside, doors their leaf, arches a room beyond; frames around them.
    # Slots past the batch's most openings are padding (face -1) and change nothing, so they are skipped.
    outside = torch.zeros(B, N, dtype=torch.bool, device=device)
    beyond = torch.zeros(B, N, dtype=torch.bool, device=device)
    frame_colour = torch.zeros(B, N, 3, device=device)
    is_frame = torch.zeros(B, N, dtype=torch.bool, device=device)
    sky_seed = torch.zeros(B, N, device=device)
    ops = field('ops').view(B, MAX_OPENINGS, 10)
    n_ops = int(host_field('n_ops').max()) if B else 0
    for k in range(n_ops):
        f, kind, u0, u1, z0, z1 = [ops[:, k, j].unsqueeze(1) for j in range(6)]
        fr = ops[:, k, 6:9].unsqueeze(1)
        sd = ops[:, k, 9].unsqueeze(1)
        inside = (face == f.long()) & (u >= u0) & (u <= u1) & (z >= z0) & (z <= z1)
        fw = 0.06
        core = inside & (u >= u0 + fw) & (u <= u1 - fw) & (z <= z1 - fw) & ((z >= z0 + fw) | (z0 < 0.01))
        frame = inside & ~core
        # Window muntins: a grid of bars.
        panes_u = torch.clamp(torch.round((u1 - u0) / 0.7), 1, 4)
        panes_z = torch.clamp(torch.round((z1 - z0) / 0.9), 1, 3)
        lu = torch.remainder((u - u0) / (u1 - u0) * panes_u, 1.0)
        lz = torch.remainder((z - z0) / (z1 - z0) * panes_z, 1.0)
        bars = (torch.minimum(lu, 1 - lu) * (u1 - u0) / panes_u < 0.02) | (torch.minimum(lz, 1 - lz) * (z1 - z0) / panes_z < 0.02)
        glass = (kind <= 1) & (sd > 0.3)
        frame = frame | (core & bars & glass)
        core = core & ~(bars & glass)
        is_window = kind == 0
        cls = torch.where(is_window, V_WINDOW, V_DOOR).long().expand(-1, N)
        visible = torch.where(inside, cls, visible)
        is_frame = is_frame | frame
        frame_colour = torch.where(frame.unsqueeze(-1), fr.expand(-1, N, -1), frame_colour)
        outside = outside | (core & (kind <= 1))
        beyond = beyond | (core & (kind == 3))
        material = torch.where(core & (kind == 2), torch.full_like(material, 7 + MAX_BOXES + k), material)
        sky_seed = torch.where(core, sd.expand(-1, N), sky_seed)

    # Boxes: slab test against each, nearest hit before the room's face. Box slots k .. k + SLOTS - 1 are tested only on
    # the scenes that have more than k boxes: the batch is taken in the packed order (most boxes first), so those are a
    # prefix of it, and the work is about the boxes there are rather than batch x MAX_BOXES.
    boxes = field('boxes').view(B, MAX_BOXES, 7)
    lo, hi, bcls = boxes[:, :, 0:3], boxes[:, :, 3:6], boxes[:, :, 6]
    inv = 1 / dsafe  # (B,N,3)
    counts = host_field('n_boxes').astype(np.int64)
    order_host = host_field('box_order').astype(np.int64)
    sorted_counts = counts[order_host]
    t_box = torch.full((B, N), 1e9, device=device)
    which = torch.zeros((B, N), dtype=torch.long, device=device)
    axis_b = torch.zeros((B, N), dtype=torch.long, device=device)
    if B and sorted_counts[0] > 0:
        order = field('box_order')[:, 0].long()
        o_s, inv_s, lo_s, hi_s, cls_s = o[order], inv[order], lo[order], hi[order], bcls[order]
        for k in range(0, int(sorted_counts[0]), SLOTS):
            n = int((sorted_counts > k).sum())
            g = min(SLOTS, MAX_BOXES - k)
            t1 = (lo_s[:n, k:k + g].unsqueeze(1) - o_s[:n].unsqueeze(2)) * inv_s[:n].unsqueeze(2)  # (n,N,g,3)
            t2 = (hi_s[:n, k:k + g].unsqueeze(1) - o_s[:n].unsqueeze(2)) * inv_s[:n].unsqueeze(2)
            t_near, near_axis = torch.minimum(t1, t2).max(-1)
            t_far = torch.maximum(t1, t2).min(-1).values
            hit = (t_near <= t_far) & (t_near > 0) & (cls_s[:n, k:k + g] >= 0).unsqueeze(1)
            t_near = torch.where(hit, t_near, torch.full_like(t_near, 1e9))
            t_slot, slot = t_near.min(-1)
            # The first box wins a tie, as min over all the boxes picked it.
            closer = t_slot < t_box[:n]
            t_box[:n] = torch.where(closer, t_slot, t_box[:n])
            which[:n] = torch.where(closer, slot + k, which[:n])
            axis_b[:n] = torch.where(closer, torch.gather(near_axis, 2, slot.unsqueeze(-1)).squeeze(-1), axis_b[:n])
        unorder = field('box_unorder')[:, 0].long()
        t_box, which, axis_b = t_box[unorder], which[unorder], axis_b[unorder]
    box_hit = t_box < t_room
    p_box = o + t_box.clamp(max=1e3).unsqueeze(-1) * d
    sign = -torch.sign(torch.gather(d, 2, axis_b.unsqueeze(-1)).squeeze(-1))
    n_box = F.one_hot(axis_b, 3).float() * sign.unsqueeze(-1)
    bu = torch.where(axis_b == 0, p_box[..., 1], p_box[..., 0])
    bv = torch.where(axis_b == 2, p_box[..., 1], p_box[..., 2])
    cls_hit = torch.gather(bcls, 1, which).long()
    visible = torch.where(box_hit, cls_hit, visible)
    material = torch.where(box_hit, 7 + which, material)
    normal = torch.where(box_hit.unsqueeze(-1), n_box, normal)
    p = torch.where(box_hit.unsqueeze(-1), p_box, p_room)
    u = torch.where(box_hit, bu, u)
    v = torch.where(box_hit, bv, v)
    outside = outside & ~box_hit
    beyond = beyond & ~box_hit
    is_frame = is_frame & ~box_hit

    # Albedo.
    M = MATERIAL_SLOTS
    bank = (torch.arange(B, device=device).unsqueeze(1) * 7 + torch.arange(M, device=device).unsqueeze(0)) % 23
    table = {'kind': field('m_kind').long(), 'a': field('m_a').view(B, M, 3), 'b': field('m_b').view(B, M, 3),
             'scale': field('m_scale'), 'along': field('m_along'), 'noise': field('m_noise'), 'bank': bank}
    albedo = shade_material(noise, _gather(table, material), u, v)
    albedo = torch.where(is_frame.unsqueeze(-1), frame_colour, albedo)

    # Irradiance.
    amb = field('ambient')
    amb_faces = field('ambient_faces')
    up_facing = normal[..., 2]
    # Ambient: brighter on surfaces facing up, with the room's own per-face variation.
    irr = amb * (1 + 0.15 * up_facing)
    irr = irr * torch.where(box_hit, torch.ones_like(irr), torch.gather(amb_faces, 1, face))
    # Corner darkening: the distance from the point to the nearest perpendicular room surface.
    Wt, Dt, Ht = size[..., 0], size[..., 1], size[..., 2]
    dx = torch.minimum(p[..., 0], Wt - p[..., 0])
    dy = torch.minimum(p[..., 1], Dt - p[..., 1])
    dz = torch.minimum(p[..., 2], Ht - p[..., 2])
    big = torch.full_like(dx, 1e3)
    corner = torch.where(face <= 1, torch.minimum(dx, dy), torch.where(face <= 3, torch.minimum(dy, dz), torch.minimum(dx, dz)))
    if any_block:
        # Where the box's walls, floor and ceiling meet the block: the distance to it seen from above.
        gx = torch.maximum(bmin[..., 0] - p[..., 0], p[..., 0] - bmax[..., 0]).clamp(min=0)
        gy = torch.maximum(bmin[..., 1] - p[..., 1], p[..., 1] - bmax[..., 1]).clamp(min=0)
        corner = torch.where(has_block & ~on_block, torch.minimum(corner, torch.sqrt(gx * gx + gy * gy)), corner)
    corner = torch.where(box_hit, big, corner)
    shade = field('corner_shade')
    irr = irr * (1 - shade * torch.exp(-corner / 0.35))
    # Contact shadows of the standing boxes on the floor (and furniture bottoms), a running product over the casters,
    # each slot on the prefix of the batch (in its packed order) that has it.
    floorish = (p[..., 2] < 0.02) & ~box_hit
    c_counts = host_field('n_casters').astype(np.int64)[host_field('caster_order').astype(np.int64)]
    if B and c_counts[0] > 0:
        c_order = field('caster_order')[:, 0].long()
        p_s = p[c_order]
        casters = field('casters').view(B, MAX_BOXES, 6)[c_order]
        lit_share = torch.ones(B, N, device=device)
        for k in range(0, int(c_counts[0]), SLOTS):
            n = int((c_counts > k).sum())
            c = casters[:n, None, k:k + SLOTS]  # (n,1,g,6); padding slots are empty boxes at 0, of height 0: no shadow
            px, py = p_s[:n, :, 0:1], p_s[:n, :, 1:2]
            gx = torch.maximum(c[..., 0] - px, px - c[..., 3]).clamp(min=0)  # (n,N,g)
            gy = torch.maximum(c[..., 1] - py, py - c[..., 4]).clamp(min=0)
            gd = torch.sqrt(gx * gx + gy * gy)
            height_k = (c[..., 5] - c[..., 2]).clamp(max=1.0)
            occl = 0.55 * height_k * torch.exp(-gd / (0.08 + 0.15 * height_k))
            lit_share[:n] = lit_share[:n] * torch.prod(1 - occl.clamp(0, 0.9), -1)
        occl = 1 - lit_share[field('caster_unorder')[:, 0].long()]
        irr = irr * torch.where(floorish, 1 - occl, torch.ones_like(occl))

    # Window glow: each window a soft area light on the room side.
    wp = field('window_power')
    inward_table = _constant(device, 'inward')
    for k in range(n_ops):
        f = ops[:, k, 0].long()
        valid = (f >= 2) & (ops[:, k, 1] <= 1)
        fidx = f.clamp(min=0)
        uc = (ops[:, k, 2] + ops[:, k, 3]) / 2
        zc = (ops[:, k, 4] + ops[:, k, 5]) / 2
        area = (ops[:, k, 3] - ops[:, k, 2]) * (ops[:, k, 5] - ops[:, k, 4])
        cxw = torch.where(fidx == 2, torch.zeros_like(uc), torch.where(fidx == 3, size[:, 0, 0], uc))
        cyw = torch.where(fidx <= 3, uc, torch.where(fidx == 4, torch.zeros_like(uc), size[:, 0, 1]))
        c = torch.stack([cxw, cyw, zc], -1).unsqueeze(1)
        nw = inward_table[fidx].unsqueeze(1)
        to = c - p
        dist2 = (to * to).sum(-1) + 0.3 * area.unsqueeze(1)
        l = to / dist2.sqrt().unsqueeze(-1)
        e = (-(l * nw).sum(-1)).clamp(min=0) * (l * normal).sum(-1).clamp(min=0) * area.unsqueeze(1) / dist2
        irr = irr + torch.where(valid.unsqueeze(1), wp * e, torch.zeros_like(e))
    # Sun patches: a point is sunlit when the ray toward the sun leaves through the sun's window (power 0 without a
    # sun) and, in an L, does not pass through the block on its way.
    sun = field('sun')  # (B, 10)
    toward = sun[:, 0:3].unsqueeze(1)
    on_x = sun[:, 3:4] < 0.5  # the window's wall is west or east: its plane is x = const
    plane, su0, su1, sz0, sz1, power = [sun[:, k:k + 1] for k in range(4, 10)]
    p_axis = torch.where(on_x, p[..., 0], p[..., 1])
    t_axis = torch.where(on_x, toward[..., 0], toward[..., 1])
    t_axis = torch.where(t_axis.abs() < 1e-4, torch.ones_like(t_axis), t_axis)
    t = (plane - p_axis) / t_axis
    q = p + t.unsqueeze(-1) * toward
    qu = torch.where(on_x, q[..., 1], q[..., 0])
    lit = (t > 0) & (qu > su0 + 0.06) & (qu < su1 - 0.06) & (q[..., 2] > sz0 + 0.06) & (q[..., 2] < sz1 - 0.06)
    if any_block:
        tw = toward[..., 0:2]
        tw = torch.where(tw.abs() < eps, torch.full_like(tw, eps), tw)
        sa = (bmin - p[..., 0:2]) / tw
        sb = (bmax - p[..., 0:2]) / tw
        s_near = torch.minimum(sa, sb).max(-1).values
        s_far = torch.maximum(sa, sb).min(-1).values
        shadowed = has_block & (s_near < s_far) & (s_far > 1e-4) & (s_near < t)
        lit = lit & ~shadowed
    cosine = (normal * toward).sum(-1).clamp(min=0)
    irr = irr + power * lit.float() * cosine * (~outside).float()
    # Ceiling lights: up to three per scene, padded with lights of power 0 (slots no scene uses are skipped).
    lamps = field('lamps').view(B, 3, 4)
    for k in range(int(host_field('n_lamps').max()) if B else 0):
        to = lamps[:, k, 0:3].unsqueeze(1) - p
        dist2 = (to * to).sum(-1) + 0.2
        irr = irr + lamps[:, k, 3:4] * (to * normal).sum(-1).clamp(min=0) / dist2.pow(1.5)
    light_colour = field('colour').unsqueeze(1)
    radiance = albedo * irr.unsqueeze(-1) * light_colour

    # The view outside: a bright sky over greenery or buildings; the room beyond an arch is dimmer.
    ray_up = d[..., 2]
    horizon_noise = noise.sample(torch.arange(B, device=device) % noise.count, torch.atan2(d[..., 0], d[..., 1]) * 0.5 + sky_seed, sky_seed)
    sky = torch.stack([0.8 + 0.2 * ray_up, 0.88 + 0.1 * ray_up, torch.ones_like(ray_up)], -1) * (4.0 + 8 * sky_seed).unsqueeze(-1)
    # Trees or facades below a noisy skyline; often the view is simply blown out.
    grey = (sky_seed > 0.6).float().unsqueeze(-1)
    green = torch.stack([0.15 + 0.1 * horizon_noise, 0.25 + 0.1 * horizon_noise, 0.1 + 0.05 * horizon_noise], -1).clamp(min=0.02)
    green = (green * (1 - grey) + (0.35 + 0.1 * horizon_noise).unsqueeze(-1).clamp(min=0.05) * grey) * (3.0 + 4 * sky_seed).unsqueeze(-1)
    ground = ray_up < -0.05 + 0.15 * horizon_noise
    view = torch.where(ground.unsqueeze(-1), green, sky)
    radiance = torch.where(outside.unsqueeze(-1), view, radiance)
    other = albedo.mean(-1, keepdim=True) * 0.3 + 0.05
    radiance = torch.where(beyond.unsqueeze(-1), other.expand(-1, -1, 3) * (1 + 0.1 * horizon_noise.unsqueeze(-1)), radiance)

    image = radiance.reshape(B, height, width, 3).permute(0, 3, 1, 2)
    # Whether any scene is blurred, decided on the host (float32, as on the device) so the device is not waited on.
    any_blur = bool((host_field('blur').astype(np.float32) > 0).any())
    image = photograph(field, image, generator, any_blur)
    return image, visible.reshape(B, height, width), layout.reshape(B, height, width)


def photograph(field, linear, generator=None, any_blur=True):
    """Exposure, tone curve, white balance, saturation, vignetting, blur, chromatic aberration, noise; sRGB out.
    field(name) gives the packed batch's (B, n) float32 columns on the device."""
    device = linear.device
    B, _, H, W = linear.shape
    col = lambda key: field(key).reshape(B, 1, 1, 1)
    x = linear * col('exposure')
    wb = field('white_balance').reshape(B, 3, 1, 1)
    x = x * wb
    shoulder = col('curve')
    x = x * (1 + x / (shoulder * 4) ** 2) / (1 + x)  # Reinhard with a white point: windows clip, rooms keep contrast
    x = x.clamp(0, 1) ** (1 / 2.2)
    grey = x.mean(1, keepdim=True)
    x = grey + (x - grey) * col('saturation')
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, H, device=device), torch.linspace(-1, 1, W, device=device), indexing='ij')
    r2 = (xx * xx * (W / max(H, W)) ** 2 + yy * yy * (H / max(H, W)) ** 2)
    x = x * (1 - col('vignette') * r2.view(1, 1, H, W))
    blur = field('blur').reshape(B)
    if any_blur:
        k = torch.arange(-3, 4, device=device, dtype=torch.float32)
        sigma = blur.clamp(min=0.3).view(B, 1)
        kernel = torch.exp(-0.5 * (k.view(1, -1) / sigma) ** 2)
        kernel = kernel / kernel.sum(1, keepdim=True)
        kernel = torch.where((blur > 0).view(B, 1), kernel, F.one_hot(torch.full((B,), 3, device=device), 7).float())
        xb = x.reshape(1, B * 3, H, W)
        kh = kernel.repeat_interleave(3, 0).view(B * 3, 1, 1, 7)
        xb = F.conv2d(F.pad(xb, (3, 3, 0, 0), mode='replicate'), kh, groups=B * 3)
        xb = F.conv2d(F.pad(xb, (0, 0, 3, 3), mode='replicate'), kh.view(B * 3, 1, 7, 1), groups=B * 3)
        x = xb.view(B, 3, H, W)
    # Chromatic aberration: red and blue shifted one pixel apart on the scenes that have it.
    shifted = (col('aberration') > 0).view(B, 1, 1)
    x = torch.stack([torch.where(shifted, torch.roll(x[:, 0], 1, 2), x[:, 0]), x[:, 1], torch.where(shifted, torch.roll(x[:, 2], -1, 2), x[:, 2])], 1)
    noise = torch.randn(x.shape, device=device, generator=generator) if generator is not None else torch.randn_like(x)
    x = x + noise * col('noise') * (0.3 + x.clamp(0, 1).sqrt())
    return x.clamp(0, 1)


def batch(seed, start, count, height, width, device, noise, generator=None, l_share=0.0):
    scenes = [_scene(seed, start + i, l_share) for i in range(count)]
    return render(pack(scenes), height, width, device, noise, generator)


if __name__ == '__main__':
    import argparse
    import sys

    parser = argparse.ArgumentParser(description='Render a contact sheet of synthetic rooms (image | visible | layout).')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--count', type=int, default=8)
    parser.add_argument('--height', type=int, default=240)
    parser.add_argument('--width', type=int, default=320)
    parser.add_argument('--l-share', type=float, default=0.0, help='share of L-shaped rooms')
    parser.add_argument('--out', required=True)
    args = parser.parse_args()
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    bank = NoiseBank(device)
    image, visible, layout = batch(args.seed, 0, args.count, args.height, args.width, device, bank, l_share=args.l_share)
    from sheet import save_sheet
    save_sheet(args.out, image, visible, layout)
    print(f'wrote {args.out}', file=sys.stderr)
