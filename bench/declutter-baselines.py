#!/usr/bin/python3
"""Classical inpainting baselines for the declutter benchmark (OpenCV 4.6, Debian's python3-opencv).

Run with Debian's interpreter (/usr/bin/python3), not a pyenv/venv python, since cv2 comes from apt:

  One job:
    /usr/bin/python3 bench/declutter-baselines.py IMAGE MASK OUTDIR [--methods telea,ns,shiftmap]
  Many jobs (one process, no start-up cost per job): a JSON list on stdin,
    echo '[{"image": "a.png", "mask": "a-mask.png", "out": "/tmp/a"}, ...]' \
      | /usr/bin/python3 bench/declutter-baselines.py --jobs [--methods ...]
    (a job may carry its own "methods": ["telea", ...]).
  Self-check on a synthetic image (each method fills the hole and changes nothing else):
    /usr/bin/python3 bench/declutter-baselines.py --self-test

IMAGE: any image OpenCV reads (decoded as 8-bit BGR; cv2.imread applies EXIF orientation, but best pass a PNG
already decoded/oriented by sharp so that coordinates match bench/data/declutter-holes.json). MASK: an image of the
same size, read as 8-bit grey; pixels > 127 are the hole (so 255 = hole, 0 = keep; a 0/1 mask is also accepted when
its maximum is 1). Writes OUTDIR/telea.png, OUTDIR/ns.png, OUTDIR/shiftmap.png (8-bit RGB PNG, same size) and prints
one JSON line per job on stdout:

  {"image": ..., "width": W, "height": H, "holePixels": N,
   "ms": {"telea": 812.3, "ns": 790.1, "shiftmap": 20534.2},         # wall time of the inpainting call alone
   "outputs": {"telea": "OUTDIR/telea.png", ...},
   "changedOutsideHole": {"telea": 0, "ns": 0, "shiftmap": 1234}}     # pixels outside the hole the raw call changed

Every written result is composited: original pixels outside the hole, the method's pixels inside, so the outputs
differ from IMAGE only inside the hole whatever the method did ("changedOutsideHole" reports what it did before
that; Telea and NS touch nothing outside, ShiftMap does through its Lab round trip).

Methods:
  telea     cv2.inpaint(img, mask, 5, cv2.INPAINT_TELEA)  (mask non-zero = hole, radius 5)
  ns        cv2.inpaint(img, mask, 5, cv2.INPAINT_NS)     (Navier-Stokes, radius 5)
  shiftmap  cv2.xphoto.inpaint(lab, valid, dst, cv2.xphoto.INPAINT_SHIFTMAP) - NOTE the mask convention is the
            OPPOSITE of cv2.inpaint: non-zero = valid (known) pixels, 0 = hole. It expects CIELab input (first channel
            intensity), so the image goes BGR -> Lab -> inpaint -> BGR. dst must be a preallocated array.
  fsr_fast  cv2.xphoto.inpaint(bgr, valid, dst, cv2.xphoto.INPAINT_FSR_FAST) (optional, not in the default set;
            same mask convention as shiftmap; very slow on large holes)
"""
import json
import os
import sys
import time

import cv2
import numpy as np

DEFAULT_METHODS = ["telea", "ns", "shiftmap"]
RADIUS = 5


def _inpaint(method, bgr, hole):
    """Returns the raw result of one method. hole: uint8, 255 = hole, 0 = keep."""
    if method == "telea":
        return cv2.inpaint(bgr, hole, RADIUS, cv2.INPAINT_TELEA)
    if method == "ns":
        return cv2.inpaint(bgr, hole, RADIUS, cv2.INPAINT_NS)
    valid = np.where(hole > 0, 0, 255).astype(np.uint8)
    if method == "shiftmap":
        lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
        dst = np.zeros_like(lab)
        cv2.xphoto.inpaint(lab, valid, dst, cv2.xphoto.INPAINT_SHIFTMAP)
        return cv2.cvtColor(dst, cv2.COLOR_Lab2BGR)
    if method == "fsr_fast":
        dst = np.zeros_like(bgr)
        cv2.xphoto.inpaint(bgr, valid, dst, cv2.xphoto.INPAINT_FSR_FAST)
        return dst
    raise ValueError(f"unknown method {method!r}")


def read_inputs(image_path, mask_path):
    bgr = cv2.imread(image_path, cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError(f"cannot read image {image_path}")
    mask = cv2.imread(mask_path, cv2.IMREAD_GRAYSCALE)
    if mask is None:
        raise ValueError(f"cannot read mask {mask_path}")
    if mask.shape != bgr.shape[:2]:
        raise ValueError(f"mask {mask.shape[1]}x{mask.shape[0]} does not match image {bgr.shape[1]}x{bgr.shape[0]}")
    threshold = 0 if mask.max() == 1 else 127
    hole = np.where(mask > threshold, 255, 0).astype(np.uint8)
    return bgr, hole


def run_job(image_path, mask_path, out_dir, methods):
    bgr, hole = read_inputs(image_path, mask_path)
    os.makedirs(out_dir, exist_ok=True)
    inside = hole > 0
    report = {
        "image": image_path,
        "width": int(bgr.shape[1]),
        "height": int(bgr.shape[0]),
        "holePixels": int(inside.sum()),
        "ms": {},
        "outputs": {},
        "changedOutsideHole": {},
    }
    for method in methods:
        start = time.perf_counter()
        raw = _inpaint(method, bgr, hole)
        report["ms"][method] = round((time.perf_counter() - start) * 1000, 1)
        report["changedOutsideHole"][method] = int(np.any(raw != bgr, axis=2)[~inside].sum())
        result = bgr.copy()
        result[inside] = raw[inside]
        path = os.path.join(out_dir, f"{method}.png")
        cv2.imwrite(path, result)
        report["outputs"][method] = path
    return report


def self_test():
    """A vertical step edge with a square hole across it: every method must fill the hole (change it) and the
    composited output must equal the input outside the hole; the edge should be roughly continued."""
    import tempfile

    h, w = 120, 160
    rng = np.random.default_rng(1)
    img = np.where(np.arange(w)[None, :] < 80, 60, 190).astype(np.float32)
    img = np.repeat(img, h, axis=0) + rng.normal(0, 4, (h, w))
    bgr = np.clip(np.stack([img, img * 0.9, img * 0.8], axis=2), 0, 255).astype(np.uint8)
    hole = np.zeros((h, w), np.uint8)
    hole[40:80, 60:100] = 255
    damaged = bgr.copy()
    damaged[hole > 0] = (0, 0, 255)  # a red "object" where the hole is
    tmp = tempfile.mkdtemp(prefix="declutter-baselines-")
    cv2.imwrite(os.path.join(tmp, "in.png"), damaged)
    cv2.imwrite(os.path.join(tmp, "mask.png"), hole)
    report = run_job(os.path.join(tmp, "in.png"), os.path.join(tmp, "mask.png"), tmp, DEFAULT_METHODS + ["fsr_fast"])
    ok = True
    for method, path in report["outputs"].items():
        out = cv2.imread(path, cv2.IMREAD_COLOR)
        outside_same = bool(np.array_equal(out[hole == 0], damaged[hole == 0]))
        red_left = int(((out[..., 2] > 200) & (out[..., 0] < 50) & (hole > 0)).sum())
        left = float(out[45:75, 62:78, 0].mean())  # should be dark (~60)
        right = float(out[45:75, 82:98, 0].mean())  # should be bright (~190)
        passed = outside_same and red_left == 0 and left < right
        ok = ok and passed
        print(json.dumps({"method": method, "outsideUnchanged": outside_same, "redPixelsLeft": red_left,
                          "leftOfEdge": round(left, 1), "rightOfEdge": round(right, 1), "ms": report["ms"][method],
                          "changedOutsideHoleRaw": report["changedOutsideHole"][method], "pass": passed}))
    return 0 if ok else 1


def main(argv):
    methods = DEFAULT_METHODS
    if "--methods" in argv:
        i = argv.index("--methods")
        methods = [m for m in argv[i + 1].split(",") if m]
        argv = argv[:i] + argv[i + 2:]
    if argv == ["--self-test"]:
        return self_test()
    if argv == ["--jobs"]:
        for job in json.load(sys.stdin):
            report = run_job(job["image"], job["mask"], job["out"], job.get("methods", methods))
            print(json.dumps(report), flush=True)
        return 0
    if len(argv) == 3:
        print(json.dumps(run_job(argv[0], argv[1], argv[2], methods)))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
