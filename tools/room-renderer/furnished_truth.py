"""Renders a room of the room renderer with our furniture in it: the known answer of the staging benchmark.

    blender -b --factory-startup -noaudio --python-exit-code 1 -P furnished_truth.py -- \
        --room DIR --pieces PIECES.json [--out DIR] [--passes truth,mask] [--samples N] [--threads N]

DIR is a room folder written by render-rooms.ts (it needs spec.json). PIECES.json holds our pieces in the format of
RenderScene.pieces (src/repositories/blender/render-scene.ts): a list, or an object with a `pieces` list, of
{ name, matrix, parts: [{ name, vertices, faces, material, grain }], materials }, the matrix (row-major 4x4) placing
the piece in the ROOM RENDERER's world (metres, Z up, the room's interior [0, width] x [0, depth] x [0, height]).

The room is built by room_scene.py's own `build` (the same walls, openings, materials, camera, sun, sky, portals and
fill light, its furniture boxes hidden as for empty.png) and the pieces by furniture_scene.py's own `add_pieces` (the
same meshes and materials as the staging engine renders). Both scripts are imported as modules (their entry points
run only as __main__), so nothing is copied. Writes into --out (default: the room folder):

  truth.png        the room with our pieces, rendered exactly as room_scene.py renders empty.png (Cycles, same
                   samples, noise seed, bounces, Filmic view, exposure and dither): where the pieces change nothing,
                   the pixels are those of empty.png
  piece-mask.png   8-bit grey, 255 where the ray through the pixel centre hits a piece, 0 elsewhere (rendered like
                   the label passes: one sample, a 0.01-pixel box filter, no bounces, Raw view, no dither; the room's
                   surfaces occlude)
  empty-check.png  (pass `empty`, for checking) the room without pieces from this script: should equal empty.png
  furnished-truth.json   timings, samples, Blender version, piece pixel count
"""

import argparse
import importlib.util
import json
import os
import sys
import time

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOM_SCENE = os.path.join(HERE, "room_scene.py")
FURNITURE_SCENE = os.path.normpath(os.path.join(HERE, "..", "..", "src", "repositories", "blender", "furniture_scene.py"))
PREFIX = "furnished_truth.py"


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog=PREFIX)
    p.add_argument("--room", required=True, help="room folder holding spec.json")
    p.add_argument("--pieces", required=True, help="JSON: our pieces (RenderScene.pieces), room-renderer world")
    p.add_argument("--out", default=None, help="output folder (default: the room folder)")
    p.add_argument("--passes", default="truth,mask", help="truth, mask, empty (comma-separated)")
    p.add_argument("--samples", type=int, default=None, help="override the spec's sample count (default: the spec's, as empty.png)")
    p.add_argument("--threads", type=int, default=0, help="render threads (0: all cores)")
    p.add_argument("--furniture-script", default=FURNITURE_SCENE, help="furniture_scene.py to take the materials from")
    return p.parse_args(argv)


def load_script(path, name):
    """A Blender script as a module: its entry point runs only as __main__, so importing it runs nothing."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def flat_emission(value, name):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nt = mat.node_tree
    for n in list(nt.nodes):
        nt.nodes.remove(n)
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    em = nt.nodes.new("ShaderNodeEmission")
    em.inputs["Color"].default_value = (value, value, value, 1.0)
    em.inputs["Strength"].default_value = 1.0
    nt.links.new(em.outputs["Emission"], out.inputs["Surface"])
    return mat


def swap_materials(objects, material):
    """Every material slot of the mesh objects set to `material`; returns what to restore."""
    saved = []
    for ob in objects:
        if ob.type != "MESH":
            continue
        mats = list(ob.data.materials)
        saved.append((ob, mats))
        for i in range(len(mats)):
            ob.data.materials[i] = material
    return saved


def restore_materials(saved):
    for ob, mats in saved:
        for i, m in enumerate(mats):
            ob.data.materials[i] = m


def count_mask_pixels(path):
    img = bpy.data.images.load(path, check_existing=False)
    try:
        w, h = img.size
        px = [0.0] * (4 * w * h)
        img.pixels.foreach_get(px)
        return sum(1 for i in range(0, len(px), 4) if px[i] > 0.5)
    finally:
        bpy.data.images.remove(img)


def main():
    args = parse_args()
    out = args.out or args.room
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(args.room, "spec.json")) as f:
        spec = json.load(f)
    with open(args.pieces) as f:
        pieces = json.load(f)
    if isinstance(pieces, dict):
        pieces = pieces.get("pieces")
    if not isinstance(pieces, list) or not pieces:
        raise ValueError("%s holds no pieces" % args.pieces)
    passes = [p for p in args.passes.split(",") if p]
    for name in passes:
        if name not in ("truth", "mask", "empty"):
            raise ValueError("unknown pass %r" % name)

    room = load_script(ROOM_SCENE, "room_scene")
    furniture = load_script(args.furniture_script, "furniture_scene")

    t0 = time.time()
    ctx = room.build(spec)
    scene = ctx["scene"]
    if args.threads > 0:
        scene.render.threads_mode = "FIXED"
        scene.render.threads = args.threads
    pieces_col = room.new_collection(scene, "pieces")
    try:
        parts = furniture.add_pieces({"pieces": pieces}, pieces_col)
    except furniture.SceneError as e:
        raise ValueError("pieces: %s" % e)
    ctx["collections"]["pieces"] = pieces_col
    timings = {"build": time.time() - t0}
    cpu = {}
    samples = args.samples if args.samples is not None else spec["render"]["samples"]

    for name in passes:
        if name == "truth":
            room.set_beauty(ctx, spec, samples)
            room.show(ctx, {"beauty", "pieces"})
            timings[name], cpu[name] = room.render(scene, os.path.join(out, "truth.png"))
        elif name == "empty":
            room.set_beauty(ctx, spec, samples)
            room.show(ctx, {"beauty"})
            timings[name], cpu[name] = room.render(scene, os.path.join(out, "empty-check.png"))
        else:
            # The pieces white, the room's box black (it occludes whatever of a piece were behind a wall), on the
            # label passes' settings: the piece hit by the ray through each pixel centre, nothing blended.
            white = flat_emission(1.0, "mask-piece")
            black = flat_emission(0.0, "mask-room")
            saved = swap_materials(pieces_col.all_objects, white) + swap_materials(ctx["collections"]["layout"].all_objects, black)
            try:
                room.set_labels(ctx)
                room.show(ctx, {"layout", "pieces"})
                timings[name], cpu[name] = room.render(scene, os.path.join(out, "piece-mask.png"))
            finally:
                restore_materials(saved)

    report = {
        "blenderVersion": bpy.app.version_string,
        "samples": samples,
        "passes": passes,
        "parts": parts,
        "timings": timings,
        "cpuSeconds": cpu,
    }
    if "mask" in passes:
        report["piecePixels"] = count_mask_pixels(os.path.join(out, "piece-mask.png"))
    with open(os.path.join(out, "furnished-truth.json"), "w") as f:
        json.dump(report, f, indent=1)


try:
    main()
except Exception as e:
    import traceback

    traceback.print_exc()
    sys.stderr.write("%s: error: %s: %s\n" % (PREFIX, type(e).__name__, e))
    sys.stderr.flush()
    sys.exit(1)
