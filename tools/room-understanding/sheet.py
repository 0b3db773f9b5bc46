"""Contact sheets of images and label maps (PNG through Pillow)."""
import numpy as np
import torch
from PIL import Image

# Visible classes: floor, ceiling, wall, window, door, furniture, rug, art, clutter.
VISIBLE_PALETTE = np.array([[60, 140, 255], [255, 210, 60], [200, 200, 200], [70, 230, 230], [255, 140, 0],
                            [220, 50, 50], [150, 80, 200], [50, 180, 80], [250, 100, 200]], dtype=np.uint8)
# Layout classes: floor, ceiling, wall-left, wall-front, wall-right.
LAYOUT_PALETTE = np.array([[60, 140, 255], [255, 210, 60], [255, 70, 70], [70, 210, 70], [210, 70, 255]], dtype=np.uint8)


def colourise(labels, palette):
    labels = labels.cpu().numpy()
    out = np.zeros(labels.shape + (3,), dtype=np.uint8)
    valid = labels < len(palette)
    out[valid] = palette[labels[valid]]
    return out


def save_sheet(path, images, *label_maps, palettes=(VISIBLE_PALETTE, LAYOUT_PALETTE, LAYOUT_PALETTE, LAYOUT_PALETTE)):
    """One row per image: the image, then each label map in colour."""
    rows = []
    for i in range(images.shape[0]):
        img = (images[i].permute(1, 2, 0).clamp(0, 1).cpu().numpy() * 255).astype(np.uint8)
        panels = [img] + [colourise(m[i], palettes[k]) for k, m in enumerate(label_maps)]
        rows.append(np.concatenate([np.pad(p, ((2, 2), (2, 2), (0, 0))) for p in panels], 1))
    Image.fromarray(np.concatenate(rows, 0)).save(path)
