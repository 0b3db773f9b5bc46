"""Builds and renders one room from a spec written by render-rooms.ts.

    blender -b --factory-startup --python room_scene.py -- --spec spec.json --out DIR [--passes beauty,empty,labels,layout]

Writes into DIR:
  beauty.png   Cycles, CPU, with furniture
  empty.png    the same room, camera, light and noise seed, furniture hidden
  labels.png   8-bit grey, pixel value = class id of what the camera sees (walls by orientation, windows, doors, furniture)
  layout.png   8-bit grey, class ids of the room's shell alone (floor, ceiling, walls, blocks; no openings, no furniture)
  blender.json Blender's own projection of the spec's check points, its camera, and timings

The label maps come from a second set of objects with flat emission materials (value = class id / 255), rendered with
one sample per pixel, a 0.01-pixel box filter, no bounces, the 'Raw' view transform and no dither: every pixel is the
class of the surface hit by the ray through its centre, with no blending.

World: metres, Z up, the room's interior is [0, width] x [0, depth] x [0, height], less the spec's blocks (full-height
solid parts of the building standing in corners: an L-shaped room is the box minus one). See README.md.
"""

import argparse
import json
import math
import os
import sys
import time

import bpy
from bpy_extras.object_utils import world_to_camera_view
from mathutils import Matrix, Vector

WALLS = ("north", "east", "south", "west")
OUTWARD = {"north": (0, 1, 0), "east": (1, 0, 0), "south": (0, -1, 0), "west": (-1, 0, 0)}
CLASS = {
    "floor": 1,
    "ceiling": 2,
    "wall-left": 3,
    "wall-front": 4,
    "wall-right": 5,
    "wall-back": 6,
    "window": 7,
    "door": 8,
    "furniture": 9,
}
FRAME_WIDTH = 0.05
# Frames and door leaves sit inside the wall's thickness (outward offsets from the inner plane), so nothing of an
# opening protrudes into the room: its image is exactly the image of its rectangle on the inner plane.
FRAME_DEPTH = (0.04, 0.11)
LEAF_DEPTH = (0.06, 0.10)


def parse_args():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="room_scene.py")
    p.add_argument("--spec", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--passes", default="beauty,empty,labels,layout")
    p.add_argument("--samples", type=int, default=None, help="override the spec's sample count")
    p.add_argument("--threads", type=int, default=0, help="render threads (0: all cores)")
    return p.parse_args(argv)


# ----------------------------------------------------------------------------------------------------------------
# Small helpers


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lin(rgb):
    return tuple(srgb_to_linear(c) for c in rgb) + (1.0,)


def wall_label(wall, yaw_deg):
    bearing = {"north": 0.0, "east": 90.0, "south": 180.0, "west": 270.0}[wall]
    rel = (bearing - yaw_deg) % 360.0
    if rel >= 180.0:
        rel -= 360.0
    if -45.0 <= rel < 45.0:
        return "front"
    if 45.0 <= rel < 135.0:
        return "right"
    if -135.0 <= rel < -45.0:
        return "left"
    return "back"


def new_collection(scene, name):
    col = bpy.data.collections.new(name)
    scene.collection.children.link(col)
    return col


def add_mesh(name, verts, faces, material, col):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    mesh.materials.append(material)
    ob = bpy.data.objects.new(name, mesh)
    col.objects.link(ob)
    return ob


BOX_FACES = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]


def box_geometry(mn, mx, offset=0):
    x0, y0, z0 = mn
    x1, y1, z1 = mx
    verts = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    faces = [tuple(i + offset for i in f) for f in BOX_FACES]
    return verts, faces


def add_block(name, block, H, wall_materials, col):
    """A block: a closed box from the floor to the ceiling, each side painted like the wall it faces like (a side whose
    outward normal is -X is looked at towards +X, like the east wall). Its sides on the walls, floor and ceiling are
    hidden; they touch those faces back to back."""
    (x0, y0), (x1, y1) = block["min"], block["max"]
    verts, faces = box_geometry((x0, y0, 0.0), (x1, y1, H))
    ob = add_mesh(name, verts, faces, wall_materials["north"], col)
    slots = {"north": 0}
    for wall in ("east", "south", "west"):
        ob.data.materials.append(wall_materials[wall])
        slots[wall] = len(ob.data.materials) - 1
    for poly in ob.data.polygons:
        n = poly.normal
        if abs(n.x) > 0.5:
            poly.material_index = slots["east" if n.x < 0 else "west"]
        elif abs(n.y) > 0.5:
            poly.material_index = slots["north" if n.y < 0 else "south"]
    return ob


def add_boxes(name, boxes, material, col):
    """One mesh object holding several axis-aligned boxes [(min, max), ...]."""
    verts, faces = [], []
    for mn, mx in boxes:
        v, f = box_geometry(mn, mx, len(verts))
        verts += v
        faces += f
    return add_mesh(name, verts, faces, material, col)


class Room:
    def __init__(self, spec):
        r = spec["room"]
        self.W, self.D, self.H, self.t = r["width"], r["depth"], r["height"], r["wallThickness"]
        self.blocks = r.get("blocks") or []

    def block_faces(self, block):
        """A block's faces towards the room as (wall, plane, u0, u1), as spec.ts's blockFaces: each named after the wall it
        is parallel to and faces the same way as (the face at min x is looked at towards +x, like the east wall)."""
        (x0, y0), (x1, y1) = block["min"], block["max"]
        faces = []
        if x0 > 0:
            faces.append(("east", x0, y0, y1))
        if x1 < self.W:
            faces.append(("west", x1, y0, y1))
        if y0 > 0:
            faces.append(("north", y0, x0, x1))
        if y1 < self.D:
            faces.append(("south", y1, x0, x1))
        return faces

    def floor_centroid(self):
        """The centroid of the floor (the box less its blocks), written as the box's centre plus a shift that is exactly
        zero without blocks. Clear of a block covering at most half the width and depth (the generator's)."""
        area = self.W * self.D
        cut = dx = dy = 0.0
        for b in self.blocks:
            (x0, y0), (x1, y1) = b["min"], b["max"]
            a = (x1 - x0) * (y1 - y0)
            cut += a
            dx += a * (self.W / 2 - (x0 + x1) / 2)
            dy += a * (self.D / 2 - (y0 + y1) / 2)
        return self.W / 2 + dx / (area - cut), self.D / 2 + dy / (area - cut)

    def length(self, wall):
        return self.W if wall in ("north", "south") else self.D

    def wall_box(self, wall, u0, u1, z0, z1, n0, n1):
        """A box in a wall's frame: u along the wall (world x or y), z height, n outward offset from the inner plane."""
        W, D = self.W, self.D
        if wall == "north":
            return (u0, D + n0, z0), (u1, D + n1, z1)
        if wall == "south":
            return (u0, -n1, z0), (u1, -n0, z1)
        if wall == "east":
            return (W + n0, u0, z0), (W + n1, u1, z1)
        return (-n1, u0, z0), (-n0, u1, z1)

    def wall_point(self, wall, u, z):
        if wall == "north":
            return (u, self.D, z)
        if wall == "south":
            return (u, 0.0, z)
        if wall == "east":
            return (self.W, u, z)
        return (0.0, u, z)

    def wall_quad(self, wall, u0, u1, z0, z1):
        """A rectangle on the wall's inner plane, wound so that its normal points into the room."""
        return self.face_quad(wall, lambda u, z: self.wall_point(wall, u, z), u0, u1, z0, z1)

    def block_quad(self, wall, plane, u0, u1):
        """A block's face from the floor to the ceiling, wound so that its normal points into the room."""
        at = (lambda u, z: (u, plane, z)) if wall in ("north", "south") else (lambda u, z: (plane, u, z))
        return self.face_quad(wall, at, u0, u1, 0.0, self.H)

    @staticmethod
    def face_quad(wall, at, u0, u1, z0, z1):
        a, b, c, d = at(u0, z0), at(u1, z0), at(u1, z1), at(u0, z1)
        # u increases to the right seen from inside for north and west walls (and the faces that look like them).
        return [a, b, c, d] if wall in ("north", "west") else [b, a, d, c]

    def wall_cells(self, wall, openings, u_start, u_end):
        """The wall's rectangle [u_start, u_end] x [0, H] cut by its openings into cells; cells inside openings are left out."""
        own = [o for o in openings if o["wall"] == wall]
        us = sorted({u_start, u_end, *[o["u0"] for o in own], *[o["u1"] for o in own]})
        zs = sorted({0.0, self.H, *[o["z0"] for o in own], *[o["z1"] for o in own]})
        cells = []
        for i in range(len(us) - 1):
            for j in range(len(zs) - 1):
                uc, zc = (us[i] + us[i + 1]) / 2, (zs[j] + zs[j + 1]) / 2
                if any(o["u0"] < uc < o["u1"] and o["z0"] < zc < o["z1"] for o in own):
                    continue
                cells.append((us[i], us[i + 1], zs[j], zs[j + 1]))
        return cells


# ----------------------------------------------------------------------------------------------------------------
# Materials


class Materials:
    def __init__(self):
        self.cache = {}

    def get(self, spec):
        key = json.dumps(spec, sort_keys=True)
        if key not in self.cache:
            self.cache[key] = build_material(spec, "m%d" % len(self.cache))
        return self.cache[key]


def _nodes(name):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nt = mat.node_tree
    for n in list(nt.nodes):
        nt.nodes.remove(n)
    out = nt.nodes.new("ShaderNodeOutputMaterial")
    return mat, nt, out


def _object_coords(nt):
    return nt.nodes.new("ShaderNodeTexCoord").outputs["Object"]


def _scaled_noise(nt, vector, scale, amount, detail=3.0):
    """A grey factor around 1 with +-amount variation, from a noise texture."""
    noise = nt.nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = scale
    noise.inputs["Detail"].default_value = detail
    nt.links.new(vector, noise.inputs["Vector"])
    m = nt.nodes.new("ShaderNodeMath")
    m.operation = "MULTIPLY_ADD"  # (fac - 0.5) * 2 * amount + 1 == fac * 2a + (1 - a)
    nt.links.new(noise.outputs["Fac"], m.inputs[0])
    m.inputs[1].default_value = 2 * amount
    m.inputs[2].default_value = 1 - amount
    return m.outputs[0]


def _multiply(nt, color_socket_or_value, factor_socket):
    mix = nt.nodes.new("ShaderNodeMixRGB")
    mix.blend_type = "MULTIPLY"
    mix.inputs["Fac"].default_value = 1.0
    if isinstance(color_socket_or_value, tuple):
        mix.inputs["Color1"].default_value = color_socket_or_value
    else:
        nt.links.new(color_socket_or_value, mix.inputs["Color1"])
    nt.links.new(factor_socket, mix.inputs["Color2"])
    return mix.outputs["Color"]


def _principled(nt, out, color, roughness):
    bsdf = nt.nodes.new("ShaderNodeBsdfPrincipled")
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Specular"].default_value = 0.3
    nt.links.new(color, bsdf.inputs["Base Color"])
    nt.links.new(bsdf.outputs["BSDF"], out.inputs["Surface"])


def _grain(nt, vector, along_y=False):
    """Wood grain: stretched wave bands with distortion, as a factor 0.85..1."""
    wave = nt.nodes.new("ShaderNodeTexWave")
    wave.wave_type = "BANDS"
    wave.bands_direction = "Y" if not along_y else "X"
    wave.inputs["Scale"].default_value = 4.0
    wave.inputs["Distortion"].default_value = 6.0
    wave.inputs["Detail"].default_value = 3.0
    nt.links.new(vector, wave.inputs["Vector"])
    m = nt.nodes.new("ShaderNodeMapRange")
    m.inputs["To Min"].default_value = 0.85
    m.inputs["To Max"].default_value = 1.0
    nt.links.new(wave.outputs["Fac"], m.inputs["Value"])
    return m.outputs["Result"]


def build_material(spec, name):
    mat, nt, out = _nodes(name)
    coords = _object_coords(nt)
    kind = spec["type"]
    if kind == "paint":
        factor = _scaled_noise(nt, coords, 6.0, spec["noise"])
        fine = _scaled_noise(nt, coords, 40.0, spec["noise"] * 0.4, detail=1.0)
        color = _multiply(nt, _multiply(nt, lin(spec["color"]), factor), fine)
        _principled(nt, out, color, spec["roughness"])
    elif kind in ("planks", "tiles"):
        vector = coords
        if kind == "planks" and spec["along"] == "y":
            mapping = nt.nodes.new("ShaderNodeMapping")
            mapping.inputs["Rotation"].default_value = (0.0, 0.0, math.pi / 2)
            nt.links.new(coords, mapping.inputs["Vector"])
            vector = mapping.outputs["Vector"]
        brick = nt.nodes.new("ShaderNodeTexBrick")
        brick.inputs["Color1"].default_value = lin(spec["colors"][0])
        brick.inputs["Color2"].default_value = lin(spec["colors"][1])
        brick.inputs["Scale"].default_value = 1.0
        brick.inputs["Mortar Smooth"].default_value = 0.0
        if kind == "planks":
            brick.offset = 0.37
            brick.offset_frequency = 1
            brick.inputs["Mortar"].default_value = lin(spec["gap"])
            brick.inputs["Mortar Size"].default_value = 0.002
            brick.inputs["Brick Width"].default_value = spec["plankLength"]
            brick.inputs["Row Height"].default_value = spec["plankWidth"]
            brick.inputs["Bias"].default_value = 0.0
        else:
            brick.offset = 0.0
            brick.inputs["Mortar"].default_value = lin(spec["grout"])
            brick.inputs["Mortar Size"].default_value = spec["groutWidth"]
            brick.inputs["Brick Width"].default_value = spec["size"]
            brick.inputs["Row Height"].default_value = spec["size"]
        nt.links.new(vector, brick.inputs["Vector"])
        color = brick.outputs["Color"]
        if kind == "planks":
            color = _multiply(nt, color, _grain(nt, vector))
        color = _multiply(nt, color, _scaled_noise(nt, coords, 3.0, 0.04))
        _principled(nt, out, color, spec["roughness"])
    elif kind == "wood":
        color = _multiply(nt, lin(spec["color"]), _grain(nt, coords))
        _principled(nt, out, color, spec["roughness"])
    else:
        raise ValueError("unknown material type %r" % kind)
    return mat


def emission_material(class_id):
    mat, nt, out = _nodes("label-%d" % class_id)
    em = nt.nodes.new("ShaderNodeEmission")
    # (id + 0.25) / 255 survives both rounding and truncation to 8 bits as id.
    v = (class_id + 0.25) / 255.0
    em.inputs["Color"].default_value = (v, v, v, 1.0)
    em.inputs["Strength"].default_value = 1.0
    nt.links.new(em.outputs["Emission"], out.inputs["Surface"])
    return mat


# ----------------------------------------------------------------------------------------------------------------
# Scene


def build(spec):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    room = Room(spec)
    W, D, H, t = room.W, room.D, room.H, room.t
    yaw = spec["camera"]["yawDeg"]
    openings = spec["openings"]
    mats = Materials()

    beauty = new_collection(scene, "beauty")
    furniture = new_collection(scene, "furniture")
    labels = new_collection(scene, "labels")
    label_furniture = new_collection(scene, "label-furniture")
    layout = new_collection(scene, "layout")

    # --- Beauty: slabs with real holes, frames, door leaves.
    add_boxes("floor", [((-t, -t, -t), (W + t, D + t, 0.0))], mats.get(spec["materials"]["floor"]), beauty)
    add_boxes("ceiling", [((-t, -t, H), (W + t, D + t, H + t))], mats.get(spec["materials"]["ceiling"]), beauty)
    for wall in WALLS:
        u_start, u_end = (-t, W + t) if wall in ("north", "south") else (0.0, D)
        cells = room.wall_cells(wall, openings, u_start, u_end)
        boxes = [room.wall_box(wall, u0, u1, z0, z1, 0.0, t) for (u0, u1, z0, z1) in cells]
        add_boxes("wall-" + wall, boxes, mats.get(spec["materials"]["walls"][wall]), beauty)
    wall_materials = {wall: mats.get(spec["materials"]["walls"][wall]) for wall in WALLS}
    for i, b in enumerate(room.blocks):
        add_block("block-%d" % i, b, H, wall_materials, beauty)
    frame_mat = mats.get(spec["materials"]["frame"])
    door_mat = mats.get(spec["materials"]["door"])
    fw = FRAME_WIDTH
    n0, n1 = FRAME_DEPTH
    for o in openings:
        w, u0, u1, z0, z1 = o["wall"], o["u0"], o["u1"], o["z0"], o["z1"]
        bars = [(u0, u0 + fw, z0, z1), (u1 - fw, u1, z0, z1), (u0 + fw, u1 - fw, z1 - fw, z1)]
        if o["kind"] == "window":
            bars.append((u0 + fw, u1 - fw, z0, z0 + fw))
            # Mullion and transom as boxes that touch but never overlap (coplanar overlapping faces shade black).
            zt = z0 + 0.68 * (z1 - z0) if z1 - z0 > 1.3 else None
            if zt is not None:
                bars.append((u0 + fw, u1 - fw, zt - fw / 2, zt + fw / 2))
            if u1 - u0 > 1.0:
                um = (u0 + u1) / 2
                spans = [(z0 + fw, z1 - fw)] if zt is None else [(z0 + fw, zt - fw / 2), (zt + fw / 2, z1 - fw)]
                bars += [(um - fw / 2, um + fw / 2, a, b) for (a, b) in spans]
        add_boxes("frame-" + o["id"], [room.wall_box(w, a, b, c, d, n0, n1) for (a, b, c, d) in bars], frame_mat, beauty)
        if o["kind"] == "door":
            add_boxes("leaf-" + o["id"], [room.wall_box(w, u0 + fw, u1 - fw, 0.0, z1 - fw, *LEAF_DEPTH)], door_mat, beauty)
    for item in spec["furniture"]:
        for i, b in enumerate(item["boxes"]):
            add_boxes("%s-%d" % (item["id"], i), [(tuple(b["min"]), tuple(b["max"]))], mats.get(b["material"]), furniture)

    # --- Lights (in the beauty collection).
    sun_spec = spec["light"]["sun"]
    az, el = math.radians(sun_spec["azimuthDeg"]), math.radians(sun_spec["elevationDeg"])
    to_sun = Vector((math.cos(el) * math.sin(az), math.cos(el) * math.cos(az), math.sin(el)))
    sun_data = bpy.data.lights.new("sun", "SUN")
    sun_data.energy = sun_spec["strength"]
    sun_data.angle = math.radians(sun_spec["angleDeg"])
    sun = bpy.data.objects.new("sun", sun_data)
    sun.rotation_euler = (-to_sun).to_track_quat("-Z", "Y").to_euler()
    beauty.objects.link(sun)
    fill_spec = spec["light"]["fill"]
    fill_data = bpy.data.lights.new("fill", "POINT")
    fill_data.energy = fill_spec["power"]
    fill_data.shadow_soft_size = fill_spec["size"]
    fill = bpy.data.objects.new("fill", fill_data)
    fill.location = (*room.floor_centroid(), H - 0.5)
    fill.visible_camera = False
    beauty.objects.link(fill)
    for o in openings:
        if o["kind"] != "window":
            continue
        portal_data = bpy.data.lights.new("portal-" + o["id"], "AREA")
        portal_data.shape = "RECTANGLE"
        portal_data.size = o["u1"] - o["u0"]
        portal_data.size_y = o["z1"] - o["z0"]
        portal_data.cycles.is_portal = True
        portal = bpy.data.objects.new("portal-" + o["id"], portal_data)
        centre = Vector(room.wall_point(o["wall"], (o["u0"] + o["u1"]) / 2, (o["z0"] + o["z1"]) / 2))
        outward = Vector(OUTWARD[o["wall"]])
        portal.location = centre + outward * (t + 0.01)
        portal.rotation_euler = (-outward).to_track_quat("-Z", "Y").to_euler()
        beauty.objects.link(portal)

    sky_world = bpy.data.worlds.new("sky")
    sky_world.use_nodes = True
    bg = sky_world.node_tree.nodes["Background"]
    sky = sky_world.node_tree.nodes.new("ShaderNodeTexSky")
    sky.sky_type = "HOSEK_WILKIE"
    sky.turbidity = spec["light"]["sky"]["turbidity"]
    sky.ground_albedo = 0.3
    sky.sun_direction = to_sun
    sky_world.node_tree.links.new(sky.outputs["Color"], bg.inputs["Color"])
    bg.inputs["Strength"].default_value = spec["light"]["sky"]["strength"]
    # The default 1024 importance map costs seconds per render; the windows' portals do the sky sampling anyway.
    sky_world.cycles.sampling_method = "MANUAL"
    sky_world.cycles.sample_map_resolution = 256
    black_world = bpy.data.worlds.new("black")
    black_world.use_nodes = True
    black_world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.0

    # --- Labels: the inner surfaces only, with flat emission per class. A block's faces stand in front of the floor,
    # ceiling and walls they hide and take the class of the wall they face like.
    em = {}

    def emission(class_id):
        if class_id not in em:
            em[class_id] = emission_material(class_id)
        return em[class_id]

    floor_quad = [(0.0, 0.0, 0.0), (0.0, D, 0.0), (W, D, 0.0), (W, 0.0, 0.0)]  # normal +Z after winding below
    ceiling_quad = [(0.0, 0.0, H), (W, 0.0, H), (W, D, H), (0.0, D, H)]
    for col, with_openings in ((labels, True), (layout, False)):
        suffix = "-labels" if with_openings else "-layout"
        add_mesh("floor" + suffix, [floor_quad[0], floor_quad[3], floor_quad[2], floor_quad[1]], [(0, 1, 2, 3)], emission(CLASS["floor"]), col)
        add_mesh("ceiling" + suffix, [ceiling_quad[0], ceiling_quad[3], ceiling_quad[2], ceiling_quad[1]], [(0, 1, 2, 3)], emission(CLASS["ceiling"]), col)
        for wall in WALLS:
            cls = emission(CLASS["wall-" + wall_label(wall, yaw)])
            cells = room.wall_cells(wall, openings if with_openings else [], 0.0, room.length(wall))
            verts, faces = [], []
            for (u0, u1, z0, z1) in cells:
                faces.append(tuple(range(len(verts), len(verts) + 4)))
                verts += room.wall_quad(wall, u0, u1, z0, z1)
            add_mesh(wall + suffix, verts, faces, cls, col)
        for i, b in enumerate(room.blocks):
            for (wall, plane, u0, u1) in room.block_faces(b):
                quad = room.block_quad(wall, plane, u0, u1)
                add_mesh("block-%d-%s%s" % (i, wall, suffix), quad, [(0, 1, 2, 3)], emission(CLASS["wall-" + wall_label(wall, yaw)]), col)
        if with_openings:
            for o in openings:
                quad = room.wall_quad(o["wall"], o["u0"], o["u1"], o["z0"], o["z1"])
                add_mesh(o["id"] + suffix, quad, [(0, 1, 2, 3)], emission(CLASS[o["kind"]]), col)
    for item in spec["furniture"]:
        for i, b in enumerate(item["boxes"]):
            add_boxes("%s-%d-labels" % (item["id"], i), [(tuple(b["min"]), tuple(b["max"]))], emission(CLASS["furniture"]), label_furniture)

    # --- Camera: Blender's own camera model, set from yaw/pitch/roll as Euler rotations (independent of the driver's
    # rotation matrix, which the check points compare against).
    c = spec["camera"]
    cam_data = bpy.data.cameras.new("camera")
    cam_data.type = "PERSP"
    cam_data.sensor_fit = "HORIZONTAL"
    cam_data.sensor_width = 36.0
    cam_data.lens = (cam_data.sensor_width / 2) / math.tan(math.radians(c["hfovDeg"]) / 2)
    cam_data.shift_x = cam_data.shift_y = 0.0
    cam_data.clip_start = 0.01
    cam_data.clip_end = 200.0
    cam = bpy.data.objects.new("camera", cam_data)
    scene.collection.objects.link(cam)
    cam.matrix_world = (
        Matrix.Translation(Vector(c["position"]))
        @ Matrix.Rotation(math.radians(-c["yawDeg"]), 4, "Z")
        @ Matrix.Rotation(math.radians(90.0 + c["pitchDeg"]), 4, "X")
        @ Matrix.Rotation(math.radians(c["rollDeg"]), 4, "Z")
    )
    scene.camera = cam

    r = scene.render
    r.engine = "CYCLES"
    r.resolution_x = spec["image"]["width"]
    r.resolution_y = spec["image"]["height"]
    r.resolution_percentage = 100
    r.pixel_aspect_x = r.pixel_aspect_y = 1.0
    r.use_border = False
    r.film_transparent = False
    r.image_settings.file_format = "PNG"
    r.image_settings.color_depth = "8"
    r.image_settings.compression = 15
    scene.cycles.device = "CPU"
    scene.cycles.use_denoising = False  # Debian's Blender has no OpenImageDenoise: rendering fails otherwise
    scene.cycles.use_preview_denoising = False
    scene.cycles.use_adaptive_sampling = False

    return {
        "scene": scene,
        "camera": cam,
        "collections": {"beauty": beauty, "furniture": furniture, "labels": labels, "label-furniture": label_furniture, "layout": layout},
        "worlds": {"sky": sky_world, "black": black_world},
    }


def show(ctx, names):
    for name, col in ctx["collections"].items():
        col.hide_render = name not in names


def set_beauty(ctx, spec, samples):
    scene = ctx["scene"]
    cy = scene.cycles
    rs = spec["render"]
    cy.samples = samples
    cy.seed = rs["seed"]
    cy.max_bounces = rs["maxBounces"]
    cy.diffuse_bounces = rs["diffuseBounces"]
    cy.glossy_bounces = rs["glossyBounces"]
    cy.transmission_bounces = 0
    cy.volume_bounces = 0
    cy.transparent_max_bounces = 2
    cy.sample_clamp_direct = 0.0
    cy.sample_clamp_indirect = 0.3  # without a denoiser, clamping indirect light is what keeps fireflies out
    cy.caustics_reflective = False
    cy.caustics_refractive = False
    cy.blur_glossy = 1.0
    cy.pixel_filter_type = "BLACKMAN_HARRIS"
    cy.filter_width = 1.5
    scene.world = ctx["worlds"]["sky"]
    vs = scene.view_settings
    vs.view_transform = "Filmic"
    vs.look = "Medium High Contrast"
    vs.exposure = rs["exposure"]
    vs.gamma = 1.0
    scene.render.dither_intensity = 1.0
    scene.render.image_settings.color_mode = "RGB"


def set_labels(ctx):
    scene = ctx["scene"]
    cy = scene.cycles
    cy.samples = 1
    cy.seed = 0
    cy.max_bounces = 0
    cy.diffuse_bounces = cy.glossy_bounces = cy.transmission_bounces = cy.volume_bounces = 0
    cy.transparent_max_bounces = 0
    cy.sample_clamp_direct = cy.sample_clamp_indirect = 0.0
    cy.pixel_filter_type = "BOX"
    cy.filter_width = 0.01
    scene.world = ctx["worlds"]["black"]
    vs = scene.view_settings
    vs.view_transform = "Raw"
    vs.look = "None"
    vs.exposure = 0.0
    vs.gamma = 1.0
    scene.render.dither_intensity = 0.0
    scene.render.image_settings.color_mode = "BW"


def render(scene, path):
    """Renders and saves one pass; returns (wall seconds, CPU seconds of all threads)."""
    scene.render.filepath = path
    t0, c0 = time.time(), time.process_time()
    bpy.ops.render.render(write_still=True)
    return time.time() - t0, time.process_time() - c0


def camera_report(ctx, spec):
    """Blender's own projection of the spec's check points (frame coordinates scaled to pixels, v down)."""
    scene, cam = ctx["scene"], ctx["camera"]
    width, height = spec["image"]["width"], spec["image"]["height"]
    points = []
    for p in spec["checkPoints"]:
        ndc = world_to_camera_view(scene, cam, Vector(p["world"]))
        points.append({"id": p["id"], "pixel": [ndc.x * width, (1.0 - ndc.y) * height], "depth": ndc.z})
    m = cam.matrix_world
    # Blender's camera looks down its local -Z with +Y up: world->camera rows (x right, y down, z forward).
    rot = m.to_3x3()
    right, up, back = rot.col[0], rot.col[1], rot.col[2]
    cd = cam.data
    return {
        "blenderVersion": bpy.app.version_string,
        "camera": {
            "lens": cd.lens,
            "sensorWidth": cd.sensor_width,
            "sensorFit": cd.sensor_fit,
            "angleX": cd.angle_x,
            "fx": cd.lens / cd.sensor_width * width,
            "matrixWorld": [list(row) for row in m],
            "rotationWorldToCamera": [list(right), list(-up), list(-back)],
        },
        "points": points,
    }


def main():
    args = parse_args()
    with open(args.spec) as f:
        spec = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    ctx = build(spec)
    scene = ctx["scene"]
    if args.threads > 0:
        scene.render.threads_mode = "FIXED"
        scene.render.threads = args.threads
    timings = {"build": time.time() - t0}
    cpu = {}
    samples = args.samples if args.samples is not None else spec["render"]["samples"]
    passes = [p for p in args.passes.split(",") if p]
    for name in passes:
        path = os.path.join(args.out, name + ".png")
        if name == "beauty":
            set_beauty(ctx, spec, samples)
            show(ctx, {"beauty", "furniture"})
        elif name == "empty":
            set_beauty(ctx, spec, samples)
            show(ctx, {"beauty"})
        elif name == "labels":
            set_labels(ctx)
            show(ctx, {"labels", "label-furniture"})
        elif name == "layout":
            set_labels(ctx)
            show(ctx, {"layout"})
        else:
            raise ValueError("unknown pass %r" % name)
        timings[name], cpu[name] = render(scene, path)
    report = camera_report(ctx, spec)
    report["timings"] = timings
    report["cpuSeconds"] = cpu
    report["samples"] = samples
    with open(os.path.join(args.out, "blender.json"), "w") as f:
        json.dump(report, f, indent=1)


# Run as a script (blender -P); another Blender script may import this one for its functions.
if __name__ == "__main__":
    try:
        main()
    except Exception:
        import traceback

        traceback.print_exc()
        sys.exit(1)
