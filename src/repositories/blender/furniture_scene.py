"""Renders the staging engine's furniture into a photo's camera: the Blender side of blender-renderer.ts.

    blender -b --factory-startup --python-exit-code 1 -P furniture_scene.py -- SCENE.json OUTDIR

SCENE.json is a RenderScene (render-scene.ts). Writes into OUTDIR:
  pieces.f32   region height x width x 4 float32, premultiplied linear RGBA of the pieces, rows top to bottom
  shadow.f32   region height x width x 3 float32, Cycles' Shadow Catcher pass (the factor the photo is multiplied by;
               1 where the pieces change nothing), rows top to bottom
  albedo.f32, normal.f32 (x 3), depth.f32 (x 1)
               Cycles' denoising feature passes, the guides of our own denoiser, rows top to bottom
  meta.json    { width, height, lightScale, timings, blenderVersion }

Colour: every number in and out is scene-linear Rec.709. The passes come out of the compositor as 32-bit float
OpenEXR (a float format: no view transform is baked in) and are read back with bpy.data.images.load as Non-Color
data, so nothing converts them; the view transform is still set to Standard with no look, exposure 0 and no dither
so that nothing display-referred can leak in. Material colours are sRGB hex, converted to linear here; the photo
(an sRGB PNG) is decoded to linear by Blender's colour management ('sRGB' input colour space).

Camera: OpenCV pinhole (x right, y down, z forward, x_cam = R (X - C), u = f x/z + cx, v = f y/z + cy) turned into
Blender's: sensor fit HORIZONTAL (so the lens shift is in units of the image width), lens = f * 36 / width,
shift_x = (width / 2 - cx) / width, shift_y = (cy - height / 2) / width; camera-to-world rotation with the columns
R row 0, -R row 1, -R row 2 (Blender's camera looks down its -Z with +Y up).

Surfaces: every one is a shadow catcher (a holdout is one too, and is_holdout): a catcher already hides the pieces
behind it, and real geometry that were not a catcher would cast its own shadow into the pass. Calibration renders the
empty room small, the surfaces white to camera rays and their real albedo to every other ray.

No numpy: Debian's Blender runs the system Python, which may not have it; the standard library's array does.

Exits with status 1 and a line 'furniture_scene.py: error: ...' on stderr on any error.
"""

import glob
import json
import math
import os
import resource
import statistics
import sys
import time
from array import array

import bpy
from mathutils import Matrix, Vector

PREFIX = "furniture_scene.py"
LUMA = (0.2126, 0.7152, 0.0722)
# Calibration renders at this fraction of the image size, with at most this many samples.
CALIBRATION_FACTOR = 1 / 8
CALIBRATION_SAMPLES = 16
# The photo divided by its irradiance is an albedo; a real surface reflects less than all of its light, and clipped
# highlights (windows, lamps) would otherwise turn the catchers into light amplifiers.
MAX_ALBEDO = 0.9
NEUTRAL_ALBEDO = 0.5


DEFAULT_ADAPTIVE_THRESHOLD = 0.01
# The denoiser's guides (pass name in Blender, file prefix and .f32 name here, channels written).
GUIDE_PASSES = ("Denoising Albedo", "Denoising Normal", "Denoising Depth")
GUIDE_FILES = ("albedo", "normal", "depth")
GUIDE_CHANNELS = (3, 3, 1)


class SceneError(Exception):
    pass


# ----------------------------------------------------------------------------------------------------------------
# Input helpers


def srgb_to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def hex_linear(value, what):
    if not isinstance(value, str) or len(value) != 7 or value[0] != "#":
        raise SceneError("%s: not an sRGB hex colour: %r" % (what, value))
    try:
        rgb = [int(value[i : i + 2], 16) / 255.0 for i in (1, 3, 5)]
    except ValueError:
        raise SceneError("%s: not an sRGB hex colour: %r" % (what, value))
    return tuple(srgb_to_linear(c) for c in rgb)


MAX_MATERIAL_ALBEDO = 0.85


def rgba(rgb):
    return (rgb[0], rgb[1], rgb[2], 1.0)


def scaled(rgb, k):
    return tuple(min(1.0, c * k) for c in rgb)


def number(value, what, minimum=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SceneError("%s must be a finite number, got %r" % (what, value))
    if minimum is not None and value < minimum:
        raise SceneError("%s must be at least %s, got %r" % (what, minimum, value))
    return float(value)


def vec3(value, what):
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise SceneError("%s must be 3 numbers" % what)
    return Vector([number(v, what) for v in value])


def clamp01(x):
    return max(0.0, min(1.0, x))


# ----------------------------------------------------------------------------------------------------------------
# Shader node helpers


class Tree:
    """A material's node tree with small helpers; inputs take a constant or an output socket."""

    def __init__(self, name):
        self.mat = bpy.data.materials.new(name)
        self.mat.use_nodes = True
        self.nt = self.mat.node_tree
        for n in list(self.nt.nodes):
            self.nt.nodes.remove(n)
        self.out = self.node("ShaderNodeOutputMaterial")
        self._coords = None

    def node(self, kind, **props):
        n = self.nt.nodes.new(kind)
        for k, v in props.items():
            setattr(n, k, v)
        return n

    def set(self, socket, value):
        if isinstance(value, bpy.types.NodeSocket):
            self.nt.links.new(value, socket)
        else:
            socket.default_value = value

    def coords(self):
        if self._coords is None:
            self._coords = self.node("ShaderNodeTexCoord")
        return self._coords

    def math(self, op, a, b=0.0, c=0.0, clamp=False):
        n = self.node("ShaderNodeMath", operation=op, use_clamp=clamp)
        self.set(n.inputs[0], a)
        self.set(n.inputs[1], b)
        self.set(n.inputs[2], c)
        return n.outputs[0]

    def mix(self, fac, a, b, blend="MIX"):
        n = self.node("ShaderNodeMixRGB", blend_type=blend)
        self.set(n.inputs["Fac"], fac)
        self.set(n.inputs["Color1"], rgba(a) if isinstance(a, tuple) and len(a) == 3 else a)
        self.set(n.inputs["Color2"], rgba(b) if isinstance(b, tuple) and len(b) == 3 else b)
        return n.outputs["Color"]

    def map_range(self, value, from_min, from_max, to_min=0.0, to_max=1.0, clamp=True):
        n = self.node("ShaderNodeMapRange", clamp=clamp)
        self.set(n.inputs["Value"], value)
        n.inputs["From Min"].default_value = from_min
        n.inputs["From Max"].default_value = from_max
        self.set(n.inputs["To Min"], to_min)
        self.set(n.inputs["To Max"], to_max)
        return n.outputs["Result"]

    def mapping(self, vector, scale=(1.0, 1.0, 1.0), location=(0.0, 0.0, 0.0), rotation=(0.0, 0.0, 0.0)):
        n = self.node("ShaderNodeMapping", vector_type="POINT")
        self.set(n.inputs["Vector"], vector)
        n.inputs["Location"].default_value = location
        n.inputs["Rotation"].default_value = rotation
        n.inputs["Scale"].default_value = scale
        return n.outputs["Vector"]

    def noise(self, vector, scale, detail=2.0, roughness=0.5, distortion=0.0):
        n = self.node("ShaderNodeTexNoise", noise_dimensions="3D")
        self.set(n.inputs["Vector"], vector)
        n.inputs["Scale"].default_value = scale
        n.inputs["Detail"].default_value = detail
        n.inputs["Roughness"].default_value = roughness
        n.inputs["Distortion"].default_value = distortion
        return n.outputs["Fac"]

    def voronoi(self, vector, scale, feature="F1", randomness=1.0):
        n = self.node("ShaderNodeTexVoronoi", voronoi_dimensions="3D", feature=feature, distance="EUCLIDEAN")
        self.set(n.inputs["Vector"], vector)
        n.inputs["Scale"].default_value = scale
        n.inputs["Randomness"].default_value = randomness
        return n.outputs["Distance"]

    def wave(self, vector, scale, kind="BANDS", direction="X", distortion=0.0, detail=2.0, detail_scale=1.0, profile="SIN"):
        n = self.node("ShaderNodeTexWave", wave_type=kind, wave_profile=profile)
        if kind == "BANDS":
            n.bands_direction = direction
        else:
            n.rings_direction = direction
        self.set(n.inputs["Vector"], vector)
        n.inputs["Scale"].default_value = scale
        n.inputs["Distortion"].default_value = distortion
        n.inputs["Detail"].default_value = detail
        n.inputs["Detail Scale"].default_value = detail_scale
        return n.outputs["Fac"]

    def bump(self, height, strength, distance, normal=None):
        n = self.node("ShaderNodeBump")
        self.set(n.inputs["Height"], height)
        n.inputs["Strength"].default_value = strength
        n.inputs["Distance"].default_value = distance
        if normal is not None:
            self.set(n.inputs["Normal"], normal)
        return n.outputs["Normal"]

    def principled(self, color, roughness, **inputs):
        p = self.node("ShaderNodeBsdfPrincipled")
        p.distribution = "GGX"
        p.subsurface_method = "RANDOM_WALK"
        self.set(p.inputs["Base Color"], rgba(color) if isinstance(color, tuple) and len(color) == 3 else color)
        self.set(p.inputs["Roughness"], roughness)
        for name, value in inputs.items():
            self.set(p.inputs[name.replace("_", " ")], value)
        return p

    def output(self, shader_socket):
        self.nt.links.new(shader_socket, self.out.inputs["Surface"])
        return self.mat


def wave_scale(period):
    """Scale of a Wave texture whose bands or rings repeat every `period` metres (Blender: n = 20 * scale * x)."""
    return 2.0 * math.pi / 20.0 / max(period, 1e-5)


def grain_space(t, grain):
    """Object coordinates with the part's grain axis as X (the other two follow cyclically)."""
    sep = t.node("ShaderNodeSeparateXYZ")
    t.set(sep.inputs[0], t.coords().outputs["Object"])
    order = {"x": ("X", "Y", "Z"), "y": ("Y", "Z", "X"), "z": ("Z", "X", "Y")}[grain]
    comb = t.node("ShaderNodeCombineXYZ")
    for i, axis in enumerate(order):
        t.set(comb.inputs[i], sep.outputs[axis])
    return comb.outputs[0]


def variation(t, vector, scale, amount, detail=2.0):
    """A grey factor 1 +- amount from a noise texture."""
    return t.map_range(t.noise(vector, scale, detail=detail), 0.3, 0.7, 1.0 - amount, 1.0 + amount, clamp=False)


def tint(t, color, factor):
    """color (tuple or socket) multiplied by a scalar factor socket."""
    n = t.node("ShaderNodeMixRGB", blend_type="MULTIPLY")
    n.inputs["Fac"].default_value = 1.0
    t.set(n.inputs["Color1"], rgba(color) if isinstance(color, tuple) else color)
    t.set(n.inputs["Color2"], (factor, factor, factor, 1.0) if isinstance(factor, (int, float)) else factor)
    return n.outputs["Color"]


def weave_height(t, g, pitch):
    """Plain weave: threads along and across the grain, over and under in a checker; a height in 0..1."""
    along = t.wave(g, wave_scale(pitch), "BANDS", "Y", distortion=0.3, detail=1.0)
    across = t.wave(g, wave_scale(pitch), "BANDS", "X", distortion=0.3, detail=1.0)
    checker = t.node("ShaderNodeTexChecker")
    t.set(checker.inputs["Vector"], g)
    checker.inputs["Scale"].default_value = 1.0 / pitch
    checker.inputs["Color1"].default_value = (1, 1, 1, 1)
    checker.inputs["Color2"].default_value = (0, 0, 0, 1)
    return t.math("ADD", t.math("MULTIPLY", checker.outputs["Fac"], along), t.math("MULTIPLY", t.math("SUBTRACT", 1.0, checker.outputs["Fac"]), across))


# ----------------------------------------------------------------------------------------------------------------
# Materials per kind


SECONDARY_FACTOR = {"wood": 0.55, "marble": 0.45, "stone": 0.75, "concrete": 0.8, "rattan": 0.5, "rug": 0.5, "leather": 0.7, "leaf": 0.6, "soil": 0.6}
DEFAULT_SCALE = {
    "wood": 0.012,
    "fabric": 0.0015,
    "boucle": 0.004,
    "velvet": 0.0015,
    "leather": 0.01,
    "marble": 0.25,
    "stone": 0.1,
    "concrete": 0.05,
    "rattan": 0.012,
    "rug": 0.004,
    "leaf": 0.05,
    "soil": 0.02,
}
KINDS = (
    "wood painted-wood lacquer fabric boucle velvet leather metal marble stone concrete rattan ceramic glass mirror leaf soil rug plastic"
).split()


def build_material(spec, grain, name, bounds):
    what = "material %s" % name
    if not isinstance(spec, dict):
        raise SceneError("%s is not an object" % what)
    kind = spec.get("kind")
    if kind not in KINDS:
        raise SceneError("%s: unknown kind %r" % (what, kind))
    # No real paint or fabric reflects more than about 85 % (fresh white paint); a pure #FFFFFF would glow.
    base = tuple(min(c, MAX_MATERIAL_ALBEDO) for c in hex_linear(spec.get("color"), what + " color"))
    sec = hex_linear(spec["secondary"], what + " secondary") if spec.get("secondary") else scaled(base, SECONDARY_FACTOR.get(kind, 0.6))
    rough = clamp01(number(spec.get("roughness", 0.5), what + " roughness"))
    size = number(spec.get("scale") or DEFAULT_SCALE.get(kind, 0.01), what + " scale", 1e-5)
    t = Tree(name)
    co = t.coords().outputs["Object"]
    g = grain_space(t, grain or "x")

    if kind == "wood":
        # Growth rings around the grain axis, their centre off the part's axis, bent by a slow noise into a
        # flat-sawn figure on faces along the grain (end grain on the ends); their width varies from ring to ring;
        # fine fibre streaks stretched along the grain; a slow tone variation along the board.
        gv = t.mapping(g, location=(0.0, 0.31 * 7, -0.17 * 7))
        bend = t.node("ShaderNodeTexNoise", noise_dimensions="3D")
        t.set(bend.inputs["Vector"], t.mapping(g, scale=(0.25, 1.0, 1.0)))
        bend.inputs["Scale"].default_value = 3.0
        bend.inputs["Detail"].default_value = 3.0
        warped = t.node("ShaderNodeVectorMath", operation="MULTIPLY_ADD")
        t.set(warped.inputs[0], bend.outputs["Color"])
        warped.inputs[1].default_value = (0.0, size * 4.0, size * 4.0)
        t.set(warped.inputs[2], gv)
        rings = t.wave(warped.outputs["Vector"], wave_scale(size), "RINGS", "X", distortion=3.0, detail=3.0, detail_scale=0.4, profile="SAW")
        # A saw profile: early wood fading into a sharp latewood line; a noise makes some rings darker than others.
        late = t.math("POWER", rings, 3.0)
        ringtone = t.map_range(t.noise(warped.outputs["Vector"], 1.0 / (size * 3.0), detail=1.0), 0.3, 0.7, 0.5, 1.0)
        late = t.math("MULTIPLY", late, ringtone)
        fibres = t.noise(t.mapping(g, scale=(0.04, 1.0, 1.0)), 0.6 / size, detail=2.0)
        fibre = t.map_range(fibres, 0.35, 0.75, 0.0, 1.0)
        fac = t.math("ADD", t.math("MULTIPLY", late, 0.75), t.math("MULTIPLY", fibre, 0.25), clamp=True)
        color = tint(t, t.mix(fac, base, sec), variation(t, t.mapping(g, scale=(0.3, 1.0, 1.0)), 2.5, 0.08))
        r = t.map_range(fac, 0.0, 1.0, rough * 0.92, min(1.0, rough * 1.12 + 0.02))
        normal = t.bump(t.math("ADD", late, t.math("MULTIPLY", fibre, 0.5)), 0.06, 0.0004)
        p = t.principled(color, r, Specular=0.3, Normal=normal)
    elif kind in ("painted-wood", "lacquer"):
        color = tint(t, base, variation(t, co, 4.0, 0.02))
        if kind == "painted-wood":
            # Brush strokes along the grain, only in the surface's sheen.
            strokes = t.noise(t.mapping(g, scale=(0.05, 1.0, 1.0)), 300.0, detail=2.0)
            p = t.principled(color, t.map_range(strokes, 0.3, 0.7, rough * 0.9, min(1.0, rough * 1.1)), Specular=0.4, Normal=t.bump(strokes, 0.02, 0.0003))
        else:
            p = t.principled(color, rough, Specular=0.5, Clearcoat=0.5, Clearcoat_Roughness=min(0.08, rough * 0.5))
    elif kind in ("fabric", "velvet"):
        weave = weave_height(t, g, size)
        fuzz = t.noise(co, 1.0 / (size * 0.7), detail=3.0)
        height = t.math("ADD", t.math("MULTIPLY", weave, 0.7), t.math("MULTIPLY", fuzz, 0.3))
        color = tint(t, tint(t, base, t.map_range(height, 0.0, 1.0, 0.9, 1.05)), variation(t, co, 6.0, 0.04))
        if kind == "fabric":
            p = t.principled(color, rough, Specular=0.3, Sheen=0.5, Sheen_Tint=0.5, Normal=t.bump(height, 0.25, 0.0005))
        else:
            p = t.principled(color, rough, Specular=0.1, Sheen=1.0, Sheen_Tint=0.3, Normal=t.bump(fuzz, 0.08, 0.0003))
            velvet = t.node("ShaderNodeBsdfVelvet")
            t.set(velvet.inputs["Color"], color)
            velvet.inputs["Sigma"].default_value = 0.6
            mix = t.node("ShaderNodeMixShader")
            mix.inputs["Fac"].default_value = 0.3
            t.nt.links.new(p.outputs["BSDF"], mix.inputs[1])
            t.nt.links.new(velvet.outputs["BSDF"], mix.inputs[2])
            return t.output(mix.outputs["Shader"])
    elif kind == "boucle":
        loops = t.voronoi(t.mapping(co, location=(0.1, 0.2, 0.3)), 1.0 / size, "F1", 1.0)
        loops2 = t.voronoi(co, 1.6 / size, "F1", 1.0)
        height = t.math("SUBTRACT", 1.0, t.math("MINIMUM", t.math("MULTIPLY", loops, 1.4), t.math("MULTIPLY", loops2, 1.2)), clamp=True)
        fuzz = t.noise(co, 3.0 / size, detail=2.0)
        h = t.math("ADD", t.math("MULTIPLY", height, 0.8), t.math("MULTIPLY", fuzz, 0.2))
        color = tint(t, tint(t, base, t.map_range(h, 0.0, 1.0, 0.72, 1.04)), variation(t, co, 5.0, 0.03))
        p = t.principled(color, max(rough, 0.85), Specular=0.25, Sheen=0.4, Sheen_Tint=0.5, Normal=t.bump(h, 0.6, 0.002))
    elif kind == "leather":
        pebble = t.voronoi(co, 1.0 / size, "F1", 1.0)
        pores = t.noise(co, 4.0 / size, detail=1.0)
        height = t.math("ADD", t.math("MULTIPLY", pebble, 0.8), t.math("MULTIPLY", pores, 0.2))
        blotch = t.noise(co, 8.0, detail=3.0)
        color = t.mix(t.map_range(blotch, 0.35, 0.7, 0.0, 0.6), base, sec)
        color = tint(t, color, t.map_range(pebble, 0.0, 1.0, 1.03, 0.92))
        r = t.map_range(blotch, 0.3, 0.7, max(0.0, rough - 0.06), min(1.0, rough + 0.06))
        p = t.principled(color, r, Specular=0.4, Sheen=0.1, Normal=t.bump(height, 0.15, 0.0006))
    elif kind == "metal":
        inputs = {"Metallic": 1.0}
        if spec.get("brushed"):
            streaks = t.noise(t.mapping(g, scale=(0.01, 1.0, 1.0)), 1500.0, detail=2.0)
            r = t.map_range(streaks, 0.3, 0.7, max(0.02, rough - 0.08), min(1.0, rough + 0.08))
            axis = t.node("ShaderNodeVectorTransform", vector_type="VECTOR", convert_from="OBJECT", convert_to="WORLD")
            axis.inputs[0].default_value = {"x": (1, 0, 0), "y": (0, 1, 0), "z": (0, 0, 1)}[grain or "x"]
            inputs.update(Anisotropic=0.7, Tangent=axis.outputs[0], Normal=t.bump(streaks, 0.02, 0.0002))
        else:
            r = t.map_range(t.noise(co, 20.0, detail=2.0), 0.3, 0.7, max(0.0, rough - 0.03), min(1.0, rough + 0.03))
        p = t.principled(base, r, **inputs)
    elif kind == "marble":
        # Ridged noise: veins where a distorted noise crosses its middle value, thin and branching; a second, finer
        # network fainter; a cloudy body between the two colours.
        def veins(vector, scale, width):
            n = t.noise(vector, scale, detail=6.0, roughness=0.55, distortion=0.4)
            ridge = t.math("ABSOLUTE", t.math("SUBTRACT", n, 0.5))
            return t.map_range(ridge, 0.0, width, 1.0, 0.0)

        main = veins(t.mapping(co, scale=(1.0, 0.7, 1.4)), 0.8 / size, 0.02)
        fine = veins(t.mapping(co, location=(3.1, 1.7, 0.4)), 2.5 / size, 0.012)
        fac = t.math("ADD", main, t.math("MULTIPLY", fine, 0.45), clamp=True)
        cloud = t.noise(co, 1.5 / size, detail=4.0)
        body = t.mix(t.map_range(cloud, 0.35, 0.75, 0.0, 0.15), base, sec)
        color = t.mix(t.math("MULTIPLY", fac, 0.85), body, sec)
        p = t.principled(color, rough, Specular=0.5, Clearcoat=0.3, Clearcoat_Roughness=0.05)
    elif kind in ("stone", "concrete"):
        blotch = t.noise(co, 1.0 / size, detail=5.0, roughness=0.6)
        speck = t.voronoi(co, (8.0 if kind == "stone" else 25.0) / size * 0.1, "F1", 1.0)
        pores = t.math("LESS_THAN", speck, 0.08)
        fac = t.map_range(blotch, 0.3, 0.72, 0.0, 1.0 if kind == "stone" else 0.5)
        color = tint(t, t.mix(fac, base, sec), t.map_range(pores, 0.0, 1.0, 1.0, 0.8))
        height = t.math("SUBTRACT", blotch, t.math("MULTIPLY", pores, 0.5))
        p = t.principled(color, rough, Specular=0.4, Normal=t.bump(height, 0.06 if kind == "stone" else 0.1, 0.001))
    elif kind == "rattan":
        weave = weave_height(t, g, size)
        strands = t.noise(t.mapping(g, scale=(0.05, 1.0, 1.0)), 2.0 / size, detail=2.0)
        height = t.math("ADD", t.math("MULTIPLY", weave, 0.85), t.math("MULTIPLY", strands, 0.15))
        color = t.mix(t.map_range(height, 0.15, 0.75, 1.0, 0.0), base, sec)
        color = tint(t, color, variation(t, co, 6.0, 0.05))
        p = t.principled(color, rough, Specular=0.4, Normal=t.bump(height, 0.5, 0.002))
    elif kind in ("ceramic", "plastic"):
        color = tint(t, base, variation(t, co, 5.0, 0.015))
        if kind == "ceramic":
            p = t.principled(color, rough, Specular=0.5, Clearcoat=1.0, Clearcoat_Roughness=0.03)
        else:
            p = t.principled(color, rough, Specular=0.5)
    elif kind == "glass":
        tint_color = tuple(0.85 + 0.15 * c for c in base)
        p = t.principled(tint_color, min(rough, 0.1), Transmission=1.0, IOR=1.45, Specular=0.5)
    elif kind == "mirror":
        p = t.principled(scaled(base, 1.0), 0.02, Metallic=1.0)
    elif kind == "leaf":
        patches = t.noise(co, 1.0 / size, detail=3.0)
        color = t.mix(t.map_range(patches, 0.3, 0.7, 0.0, 0.8), base, sec)
        veins = t.math("POWER", t.wave(g, wave_scale(size * 0.3), "BANDS", "X", distortion=2.0, detail=1.0), 8.0)
        p = t.principled(color, rough, Specular=0.35, Normal=t.bump(veins, 0.1, 0.0005))
        translucent = t.node("ShaderNodeBsdfTranslucent")
        t.set(translucent.inputs["Color"], tint(t, color, 0.8))
        mix = t.node("ShaderNodeMixShader")
        mix.inputs["Fac"].default_value = 0.25
        t.nt.links.new(p.outputs["BSDF"], mix.inputs[1])
        t.nt.links.new(translucent.outputs["BSDF"], mix.inputs[2])
        return t.output(mix.outputs["Shader"])
    elif kind == "soil":
        clods = t.noise(co, 1.0 / size, detail=6.0, roughness=0.7)
        grains = t.voronoi(co, 3.0 / size, "F1", 1.0)
        height = t.math("ADD", clods, t.math("MULTIPLY", grains, 0.4))
        color = t.mix(t.map_range(height, 0.4, 1.1, 0.0, 1.0), base, sec)
        p = t.principled(color, max(rough, 0.9), Specular=0.2, Normal=t.bump(height, 0.5, 0.003))
    elif kind == "rug":
        weave = weave_height(t, g, size)
        pile = t.noise(co, 1.0 / size, detail=2.0)
        height = t.math("ADD", t.math("MULTIPLY", weave, 0.6), t.math("MULTIPLY", pile, 0.4))
        motif = rug_pattern(t, co, spec.get("pattern") or "plain", bounds)
        color = t.mix(motif, base, sec) if motif is not None else rgba(base)
        color = tint(t, tint(t, color, t.map_range(height, 0.0, 1.0, 0.85, 1.05)), variation(t, co, 3.0, 0.04))
        p = t.principled(color, max(rough, 0.8), Specular=0.25, Sheen=0.5, Sheen_Tint=0.5, Normal=t.bump(height, 0.3, 0.001))
    else:  # pragma: no cover (KINDS is checked above)
        raise SceneError("%s: unhandled kind %r" % (what, kind))
    return t.output(p.outputs["BSDF"])


def rug_pattern(t, co, pattern, bounds):
    """A 0..1 motif factor (1 = secondary colour) over the rug's top, from its bounds in the piece frame, or None."""
    if pattern == "plain":
        return None
    (x0, y0, _), (x1, y1, _) = bounds
    sep = t.node("ShaderNodeSeparateXYZ")
    t.set(sep.inputs[0], co)
    x, y = sep.outputs["X"], sep.outputs["Y"]
    # Distance to the nearest side of the rug, metres.
    edge = t.math(
        "MINIMUM",
        t.math("MINIMUM", t.math("SUBTRACT", x, x0), t.math("SUBTRACT", x1, x)),
        t.math("MINIMUM", t.math("SUBTRACT", y, y0), t.math("SUBTRACT", y1, y)),
    )
    short = max(0.2, min(x1 - x0, y1 - y0))
    band0, band1 = 0.05 * short, 0.11 * short

    def between(v, a, b):
        return t.math("MULTIPLY", t.math("GREATER_THAN", v, a), t.math("LESS_THAN", v, b))

    border = between(edge, band0, band1)
    if pattern == "border":
        return border
    if pattern == "stripes":
        # Stripes across the rug's length, a period of a sixth of its length, a third of it the secondary colour.
        along_x = (x1 - x0) >= (y1 - y0)
        length = (x1 - x0) if along_x else (y1 - y0)
        period = max(0.05, length / 6.0)
        phase = t.math("FRACT", t.math("DIVIDE", x if along_x else y, period))
        return between(phase, 0.33, 0.67)
    # Geometric: a lattice of diamonds inside a border.
    diamond = t.node("ShaderNodeTexChecker")
    t.set(diamond.inputs["Vector"], t.mapping(co, rotation=(0.0, 0.0, math.pi / 4)))
    diamond.inputs["Scale"].default_value = 1.0 / max(0.05, short / 8.0)
    inner = t.math("GREATER_THAN", edge, band1 + 0.03 * short)
    return t.math("MAXIMUM", border, t.math("MULTIPLY", inner, t.math("MULTIPLY", diamond.outputs["Fac"], 1.0)))


def albedo(t, photo_image, irradiance):
    """The catchers' albedo: the photo projected from the camera, divided by its irradiance (linear), or grey."""
    if photo_image is None:
        return rgba((NEUTRAL_ALBEDO,) * 3)
    tex = t.node("ShaderNodeTexImage", image=photo_image, extension="EXTEND", interpolation="Linear", projection="FLAT")
    t.nt.links.new(t.coords().outputs["Window"], tex.inputs["Vector"])
    div = t.node("ShaderNodeVectorMath", operation="SCALE")
    t.nt.links.new(tex.outputs["Color"], div.inputs[0])
    div.inputs["Scale"].default_value = 1.0 / irradiance
    cap = t.node("ShaderNodeVectorMath", operation="MINIMUM")
    t.nt.links.new(div.outputs["Vector"], cap.inputs[0])
    cap.inputs[1].default_value = (MAX_ALBEDO,) * 3
    return cap.outputs["Vector"]


def diffuse(t, color):
    d = t.node("ShaderNodeBsdfDiffuse")
    t.set(d.inputs["Color"], color)
    d.inputs["Roughness"].default_value = 0.0
    return d.outputs["BSDF"]


def catcher_material(photo_image, irradiance, name):
    t = Tree(name)
    return t.output(diffuse(t, albedo(t, photo_image, irradiance)))


def calibration_material(photo_image, irradiance, name):
    """White (albedo 1) to camera rays, the surface's real albedo to every other ray: a white card's brightness under
    the room's real interreflections."""
    t = Tree(name)
    path = t.node("ShaderNodeLightPath")
    mix = t.node("ShaderNodeMixShader")
    t.nt.links.new(path.outputs["Is Camera Ray"], mix.inputs["Fac"])
    t.nt.links.new(diffuse(t, albedo(t, photo_image, irradiance)), mix.inputs[1])
    t.nt.links.new(diffuse(t, (1.0, 1.0, 1.0, 1.0)), mix.inputs[2])
    return t.output(mix.outputs["Shader"])


# ----------------------------------------------------------------------------------------------------------------
# Scene


def new_collection(scene, name):
    col = bpy.data.collections.new(name)
    scene.collection.children.link(col)
    return col


def setup_camera(scene, spec):
    W, H = spec["width"], spec["height"]
    c = spec.get("camera")
    if not isinstance(c, dict):
        raise SceneError("camera is missing")
    f = number(c.get("focal"), "camera.focal", 1e-6)
    cx = number(c.get("cx"), "camera.cx")
    cy = number(c.get("cy"), "camera.cy")
    R = c.get("rotation")
    if not isinstance(R, list) or len(R) != 9:
        raise SceneError("camera.rotation must be 9 numbers (row-major 3x3)")
    R = [number(v, "camera.rotation") for v in R]
    C = vec3(c.get("position"), "camera.position")
    rows = [Vector(R[0:3]), Vector(R[3:6]), Vector(R[6:9])]
    bx, by, bz = rows[0], -rows[1], -rows[2]
    m = Matrix(
        (
            (bx[0], by[0], bz[0], C[0]),
            (bx[1], by[1], bz[1], C[1]),
            (bx[2], by[2], bz[2], C[2]),
            (0.0, 0.0, 0.0, 1.0),
        )
    )
    if abs(m.to_3x3().determinant() - 1.0) > 1e-3:
        raise SceneError("camera.rotation is not a rotation (determinant %.6f)" % Matrix((rows[0], rows[1], rows[2])).determinant())
    data = bpy.data.cameras.new("camera")
    data.type = "PERSP"
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36.0
    data.lens = f * 36.0 / W
    # With a horizontal sensor fit Blender measures the shift in image widths; +x moves the frame right, +y up.
    data.shift_x = (W / 2.0 - cx) / W
    data.shift_y = (cy - H / 2.0) / W
    data.clip_start = 0.05
    data.clip_end = 100.0
    cam = bpy.data.objects.new("camera", data)
    scene.collection.objects.link(cam)
    cam.matrix_world = m
    scene.camera = cam
    return cam


def polygon_mesh(name, points):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(p) for p in points], [], [tuple(range(len(points)))])
    mesh.update()
    return mesh


def add_surfaces(scene, spec, col, photo_image, irradiance):
    surfaces = []
    for i, s in enumerate(spec.get("surfaces") or []):
        name = str(s.get("name") or "surface-%d" % i)
        pts = s.get("polygon")
        if not isinstance(pts, list) or len(pts) < 3:
            raise SceneError("surface %s: polygon needs at least 3 points" % name)
        pts = [vec3(p, "surface %s polygon" % name) for p in pts]
        role = s.get("role")
        if role not in ("catcher", "holdout"):
            raise SceneError("surface %s: role must be 'catcher' or 'holdout', got %r" % (name, role))
        mat = catcher_material(photo_image, irradiance, "surface-" + name)
        mesh = polygon_mesh("surface-" + name, pts)
        mesh.materials.append(mat)
        ob = bpy.data.objects.new("surface-" + name, mesh)
        col.objects.link(ob)
        # Both roles are real geometry of the photo, so both are shadow catchers: a catcher already hides the pieces
        # behind it, and a holdout that were not one would count as CG and cast its own shadow, which the photo
        # already has, into the Shadow Catcher pass. A holdout is in addition a holdout (alpha 0 in any case).
        ob.is_shadow_catcher = True
        ob.is_holdout = role == "holdout"
        surfaces.append({"object": ob, "role": role, "material": mat, "calibration": calibration_material(photo_image, irradiance, "calibration-" + name)})
    return surfaces


def add_lights(spec, col):
    lights = []
    for i, l in enumerate(spec.get("lights") or []):
        kind = l.get("kind")
        what = "light %d" % i
        color = vec3(l.get("color"), what + " color")
        if kind == "area":
            centre = vec3(l.get("center"), what + " center")
            direction = vec3(l.get("direction"), what + " direction")
            up = vec3(l.get("up"), what + " up")
            if direction.length < 1e-9:
                raise SceneError("%s: direction is zero" % what)
            z = -direction.normalized()  # an area light shines down its local -Z
            y = up - z * up.dot(z)
            if y.length < 1e-9:
                raise SceneError("%s: up is parallel to direction" % what)
            y.normalize()
            x = y.cross(z)
            data = bpy.data.lights.new("light-%d" % i, "AREA")
            data.shape = "RECTANGLE"
            data.size = number(l.get("width"), what + " width", 1e-4)
            data.size_y = number(l.get("height"), what + " height", 1e-4)
            data.energy = number(l.get("power"), what + " power", 0.0)
            ob = bpy.data.objects.new("light-%d" % i, data)
            ob.matrix_world = Matrix(
                ((x[0], y[0], z[0], centre[0]), (x[1], y[1], z[1], centre[1]), (x[2], y[2], z[2], centre[2]), (0.0, 0.0, 0.0, 1.0))
            )
        elif kind == "sun":
            toward = vec3(l.get("toward"), what + " toward")
            if toward.length < 1e-9:
                raise SceneError("%s: toward is zero" % what)
            data = bpy.data.lights.new("light-%d" % i, "SUN")
            data.angle = math.radians(number(l.get("angle"), what + " angle", 0.0))
            data.energy = number(l.get("strength"), what + " strength", 0.0)
            ob = bpy.data.objects.new("light-%d" % i, data)
            # A sun shines down its local -Z: +Z points toward the sun.
            ob.rotation_euler = toward.normalized().to_track_quat("Z", "Y").to_euler()
        else:
            raise SceneError("%s: unknown kind %r" % (what, kind))
        data.color = tuple(max(0.0, v) for v in color)
        data.cycles.cast_shadow = True
        ob.visible_camera = False  # the pieces pass holds the pieces only; reflections of the light stay
        # A light that stands for diffuse light (the room behind the camera) lights but is not mirrored: a bright
        # panel in every glossy front would wash out dark polished wood.
        ob.visible_glossy = bool(l.get("glossy", True))
        col.objects.link(ob)
        lights.append(data)
    return lights


def setup_world(scene, spec):
    amb = spec.get("ambient") or {"color": [0, 0, 0], "strength": 0}
    world = bpy.data.worlds.new("ambient")
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = rgba(tuple(max(0.0, v) for v in vec3(amb.get("color"), "ambient.color")))
    bg.inputs["Strength"].default_value = number(amb.get("strength"), "ambient.strength", 0.0)
    # A uniform colour: BSDF sampling finds it as well as any importance map, at no set-up cost.
    world.cycles.sampling_method = "NONE"
    scene.world = world
    return bg


def add_pieces(spec, col):
    count = 0
    for pi, piece in enumerate(spec.get("pieces") or []):
        pname = str(piece.get("name") or "piece-%d" % pi)
        m = piece.get("matrix")
        if not isinstance(m, list) or len(m) != 16:
            raise SceneError("piece %s: matrix must be 16 numbers (row-major 4x4)" % pname)
        m = [number(v, "piece %s matrix" % pname) for v in m]
        root = bpy.data.objects.new("piece-" + pname, None)
        col.objects.link(root)
        root.matrix_world = Matrix((m[0:4], m[4:8], m[8:12], m[12:16]))
        materials = piece.get("materials") or {}
        cache = {}
        for qi, part in enumerate(piece.get("parts") or []):
            qname = "%s/%s" % (pname, part.get("name") or qi)
            flat = part.get("vertices")
            faces = part.get("faces")
            if not isinstance(flat, list) or len(flat) % 3 != 0 or not flat:
                raise SceneError("part %s: vertices must be a non-empty flat list of x, y, z" % qname)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in flat):
                raise SceneError("part %s: vertices must be finite numbers" % qname)
            verts = [(float(flat[i]), float(flat[i + 1]), float(flat[i + 2])) for i in range(0, len(flat), 3)]
            if not isinstance(faces, list) or not faces:
                raise SceneError("part %s: faces must be a non-empty list" % qname)
            n = len(verts)
            for f in faces:
                if not isinstance(f, list) or len(f) < 3 or any((not isinstance(i, int)) or i < 0 or i >= n for i in f):
                    raise SceneError("part %s: a face has fewer than 3 vertices or an index out of range" % qname)
            key = part.get("material")
            if key not in materials:
                raise SceneError("part %s: material %r is not in the piece's materials" % (qname, key))
            grain = part.get("grain") or "x"
            if grain not in ("x", "y", "z"):
                raise SceneError("part %s: grain must be x, y or z" % qname)
            lo = tuple(min(v[k] for v in verts) for k in range(3))
            hi = tuple(max(v[k] for v in verts) for k in range(3))
            spec_m = materials[key]
            cache_key = (key, grain) if not (isinstance(spec_m, dict) and spec_m.get("kind") == "rug") else (key, grain, qi)
            if cache_key not in cache:
                cache[cache_key] = build_material(spec_m, grain, "%s/%s" % (pname, key), (lo, hi))
            mesh = bpy.data.meshes.new(qname)
            mesh.from_pydata(verts, [], [tuple(f) for f in faces])
            mesh.validate(clean_customdata=False)
            mesh.polygons.foreach_set("use_smooth", [True] * len(mesh.polygons))
            mesh.use_auto_smooth = True
            mesh.auto_smooth_angle = math.radians(35.0)
            mesh.update()
            mesh.materials.append(cache[cache_key])
            ob = bpy.data.objects.new(qname, mesh)
            col.objects.link(ob)
            ob.parent = root
            count += 1
    return count


def setup_render(scene, spec):
    r = scene.render
    r.engine = "CYCLES"
    r.resolution_x = spec["width"]
    r.resolution_y = spec["height"]
    r.resolution_percentage = 100
    r.pixel_aspect_x = r.pixel_aspect_y = 1.0
    r.film_transparent = True
    r.dither_intensity = 0.0
    r.use_compositing = True
    r.use_sequencer = False
    r.use_persistent_data = False
    threads = int(number(spec.get("threads", 0), "threads", 0))
    if threads > 0:
        r.threads_mode = "FIXED"
        r.threads = threads
    else:
        r.threads_mode = "AUTO"
    cy = scene.cycles
    cy.device = "CPU"
    cy.feature_set = "SUPPORTED"
    cy.samples = int(number(spec.get("samples"), "samples", 1))
    cy.seed = int(number(spec.get("seed", 0), "seed")) % 2147483647
    cy.use_animated_seed = False
    # Adaptive sampling stops a pixel once its noise estimate is under the threshold; 0 renders every sample everywhere
    # (a reference render).
    threshold = number(spec.get("adaptiveThreshold", DEFAULT_ADAPTIVE_THRESHOLD), "adaptiveThreshold", 0.0)
    cy.use_adaptive_sampling = threshold > 0
    cy.adaptive_threshold = threshold if threshold > 0 else DEFAULT_ADAPTIVE_THRESHOLD
    cy.use_denoising = False  # Debian's Blender has no OpenImageDenoise
    cy.use_preview_denoising = False
    cy.max_bounces = 4
    cy.diffuse_bounces = 3
    cy.glossy_bounces = 3
    cy.transmission_bounces = 4
    cy.transparent_max_bounces = 8
    cy.volume_bounces = 0
    cy.sample_clamp_direct = 0.0
    cy.sample_clamp_indirect = 3.0  # no denoiser: clamping indirect light is what keeps fireflies out
    cy.caustics_reflective = False
    cy.caustics_refractive = False
    cy.blur_glossy = 1.0
    cy.pixel_filter_type = "BLACKMAN_HARRIS"
    cy.filter_width = 1.5
    vs = scene.view_settings
    vs.view_transform = "Standard"
    vs.look = "None"
    vs.exposure = 0.0
    vs.gamma = 1.0
    scene.display_settings.display_device = "sRGB"
    vl = scene.view_layers[0]
    vl.use_pass_combined = True
    vl.cycles.use_pass_shadow_catcher = True
    # Feature passes that guide our own denoiser (src/vision/feature-denoise.ts): albedo, normal and depth of what
    # each pixel sees first, nearly noise-free at any sample count. Storing them needs no denoiser in this build.
    vl.cycles.denoising_store_passes = True
    return vl


def setup_compositor(scene, view_layer):
    scene.use_nodes = True
    nt = scene.node_tree
    for n in list(nt.nodes):
        nt.nodes.remove(n)
    rl = nt.nodes.new("CompositorNodeRLayers")
    rl.scene = scene
    rl.layer = view_layer.name
    comp = nt.nodes.new("CompositorNodeComposite")
    comp.use_alpha = True
    nt.links.new(rl.outputs["Image"], comp.inputs["Image"])
    out = nt.nodes.new("CompositorNodeOutputFile")
    fmt = out.format
    fmt.file_format = "OPEN_EXR"
    fmt.color_depth = "32"
    fmt.color_mode = "RGBA"
    fmt.exr_codec = "ZIP"
    out.file_slots.clear()
    out.file_slots.new("pieces_")
    out.file_slots.new("shadow_")
    if "Shadow Catcher" not in rl.outputs:
        raise SceneError("this Blender has no Shadow Catcher pass (Blender 3.0 or later is needed)")
    nt.links.new(rl.outputs["Image"], out.inputs[0])
    nt.links.new(rl.outputs["Shadow Catcher"], out.inputs[1])
    for i, name in enumerate(GUIDE_PASSES):
        socket = rl.outputs.get(name)
        if socket is None or not socket.enabled:
            raise SceneError("this Blender has no %s pass" % name)
        out.file_slots.new(GUIDE_FILES[i] + "_")
        nt.links.new(socket, out.inputs[2 + i])
    return out


def render_into(scene, out_node, directory):
    os.makedirs(directory, exist_ok=True)
    out_node.base_path = directory
    t0 = time.time()
    bpy.ops.render.render(write_still=False)
    seconds = time.time() - t0

    def find(prefix):
        found = sorted(glob.glob(os.path.join(directory, prefix + "*.exr")))
        if not found:
            raise SceneError("Blender wrote no %s EXR (the render failed?)" % prefix)
        return found[-1]

    return seconds, find("pieces_"), find("shadow_"), [find(name + "_") for name in GUIDE_FILES]


class Pixels:
    """Float RGBA pixels, rows top to bottom."""

    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    def channels(self, n):
        """The first n channels, interleaved, as a float32 array."""
        if n == 4:
            return self.data
        out = array("f", bytes(4 * n * self.width * self.height))
        for c in range(n):
            out[c::n] = self.data[c::4]
        return out


def read_exr(path):
    """An EXR's float RGBA as stored (no colour conversion: Non-Color data), flipped to rows top to bottom."""
    img = bpy.data.images.load(path, check_existing=False)
    try:
        img.colorspace_settings.name = "Non-Color"
        w, h = img.size
        if w == 0 or h == 0:
            raise SceneError("could not read %s" % path)
        buf = array("f", bytes(4 * w * h * 4))
        img.pixels.foreach_get(buf)
    finally:
        bpy.data.images.remove(img)
    row = 4 * w
    flipped = array("f", bytes(4 * w * h * 4))
    for y in range(h):
        src = (h - 1 - y) * row
        flipped[y * row : (y + 1) * row] = buf[src : src + row]
    return Pixels(w, h, flipped)


def region_of(spec):
    W, H = spec["width"], spec["height"]
    reg = spec.get("region")
    if reg is None:
        return 0, 0, W, H
    x0, y0, x1, y1 = (int(number(reg.get(k), "region." + k)) for k in ("x0", "y0", "x1", "y1"))
    if not (0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H):
        raise SceneError("region %r is empty or outside the %dx%d image" % (reg, W, H))
    return x0, y0, x1, y1


def set_border(scene, spec, region):
    W, H = spec["width"], spec["height"]
    x0, y0, x1, y1 = region
    r = scene.render
    if (x0, y0, x1, y1) == (0, 0, W, H):
        r.use_border = False
        r.use_crop_to_border = False
        return
    r.use_border = True
    r.use_crop_to_border = True
    # Blender turns the fractions back into pixels by truncation (border * size): a quarter pixel keeps a float
    # rounding from losing one, and stays on the same pixel were it rounded instead. Blender's y runs up.
    r.border_min_x = min(1.0, (x0 + 0.25) / W)
    r.border_max_x = min(1.0, (x1 + 0.25) / W)
    r.border_min_y = min(1.0, (H - y1 + 0.25) / H)
    r.border_max_y = min(1.0, (H - y0 + 0.25) / H)


def calibrate(ctx, spec, workdir):
    """Median over the samples of target / rendered luminance of a white empty room; 1 without samples."""
    cal = spec.get("calibration")
    if not cal:
        return 1.0, 0
    samples = cal.get("samples") or []
    if not samples:
        return 1.0, 0
    scene = ctx["scene"]
    r = scene.render
    W, H = spec["width"], spec["height"]
    saved = {
        "x": r.resolution_x,
        "y": r.resolution_y,
        "film": r.film_transparent,
        "border": r.use_border,
        "samples": scene.cycles.samples,
    }
    rx = max(4, int(round(W * CALIBRATION_FACTOR)))
    ry = max(4, int(round(H * CALIBRATION_FACTOR)))
    r.resolution_x, r.resolution_y = rx, ry
    r.film_transparent = False
    r.use_border = False
    scene.cycles.samples = min(saved["samples"], CALIBRATION_SAMPLES)
    ctx["pieces"].hide_render = True
    for s in ctx["surfaces"]:
        ob = s["object"]
        ob.is_shadow_catcher = False
        ob.is_holdout = False
        ob.data.materials[0] = s["calibration"]
    try:
        _, path, _, _ = render_into(scene, ctx["out"], os.path.join(workdir, "calibration"))
        img = read_exr(path)

        def lum(x, y):
            i = 4 * (y * img.width + x)
            return LUMA[0] * img.data[i] + LUMA[1] * img.data[i + 1] + LUMA[2] * img.data[i + 2]

        ratios = []
        for i, smp in enumerate(samples):
            x = number(smp.get("x"), "calibration sample %d x" % i)
            y = number(smp.get("y"), "calibration sample %d y" % i)
            target = number(smp.get("target"), "calibration sample %d target" % i)
            if not (0 <= x < W and 0 <= y < H) or target <= 0:
                continue
            px = min(rx - 1, int(x * rx / W))
            py = min(ry - 1, int(y * ry / H))
            # A 3x3 mean: at an eighth of the size and few samples one pixel is noisy.
            block = [lum(i, j) for j in range(max(0, py - 1), min(img.height, py + 2)) for i in range(max(0, px - 1), min(img.width, px + 2))]
            value = sum(block) / len(block)
            if value > 1e-6:
                ratios.append(target / value)
        scale = float(statistics.median(ratios)) if ratios else 1.0
    finally:
        r.resolution_x, r.resolution_y = saved["x"], saved["y"]
        r.film_transparent = saved["film"]
        r.use_border = saved["border"]
        scene.cycles.samples = saved["samples"]
        ctx["pieces"].hide_render = False
        for s in ctx["surfaces"]:
            ob = s["object"]
            ob.is_shadow_catcher = True
            ob.is_holdout = s["role"] == "holdout"
            ob.data.materials[0] = s["material"]
    for light in ctx["lights"]:
        light.energy *= scale
    ctx["background"].inputs["Strength"].default_value *= scale
    return scale, len(ratios)


def peak_memory_mib():
    """Blender's own peak resident set. getrusage's ru_maxrss survives exec on Linux: it would also count the memory of
    the Node process Blender was forked from (hundreds of MiB). /proc/self/status's VmHWM is this program's alone."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # KiB
    except OSError:
        pass
    # Linux reports the peak resident set in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_spec(path):
    with open(path) as f:
        spec = json.load(f)
    if not isinstance(spec, dict):
        raise SceneError("the scene is not a JSON object")
    for k in ("width", "height"):
        v = spec.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise SceneError("%s must be a positive integer, got %r" % (k, v))
    return spec


def main():
    argv = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
    if len(argv) != 2:
        raise SceneError("usage: blender -b --factory-startup --python-exit-code 1 -P furniture_scene.py -- SCENE.json OUTDIR")
    scene_path, outdir = argv
    t0 = time.time()
    spec = load_spec(scene_path)
    os.makedirs(outdir, exist_ok=True)
    region = region_of(spec)

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    view_layer = setup_render(scene, spec)
    setup_camera(scene, spec)
    photo_image, irradiance = None, 1.0
    photo = spec.get("photo")
    if photo:
        path = photo.get("path")
        irradiance = number(photo.get("irradiance"), "photo.irradiance", 1e-9)
        if not isinstance(path, str) or not os.path.isfile(path):
            raise SceneError("photo.path %r is not a file" % (path,))
        try:
            photo_image = bpy.data.images.load(path, check_existing=False)
        except RuntimeError as e:
            raise SceneError("could not load the photo %s: %s" % (path, e))
        photo_image.colorspace_settings.name = "sRGB"
        photo_image.alpha_mode = "NONE"
    room = new_collection(scene, "room")
    lights_col = new_collection(scene, "lights")
    pieces = new_collection(scene, "pieces")
    ctx = {
        "scene": scene,
        "surfaces": add_surfaces(scene, spec, room, photo_image, irradiance),
        "lights": add_lights(spec, lights_col),
        "background": setup_world(scene, spec),
        "pieces": pieces,
    }
    add_pieces(spec, pieces)
    ctx["out"] = setup_compositor(scene, view_layer)
    timings = {"build": time.time() - t0}

    t1 = time.time()
    work = os.path.join(outdir, "exr")
    light_scale, used = calibrate(ctx, spec, work)
    timings["calibration"] = time.time() - t1

    set_border(scene, spec, region)
    timings["render"], pieces_path, shadow_path, guide_paths = render_into(scene, ctx["out"], os.path.join(work, "final"))

    t2 = time.time()
    x0, y0, x1, y1 = region
    pieces_px = read_exr(pieces_path)
    shadow_px = read_exr(shadow_path)
    want = (y1 - y0, x1 - x0)
    for label, px in (("pieces", pieces_px), ("shadow", shadow_px)):
        if (px.height, px.width) != want:
            raise SceneError("the %s pass is %dx%d, the region %dx%d" % (label, px.width, px.height, want[1], want[0]))
    if sys.byteorder != "little":
        raise SceneError("the raw passes are written little-endian; this machine is big-endian")
    with open(os.path.join(outdir, "pieces.f32"), "wb") as f:
        pieces_px.channels(4).tofile(f)
    with open(os.path.join(outdir, "shadow.f32"), "wb") as f:
        shadow_px.channels(3).tofile(f)
    for name, channels, path in zip(GUIDE_FILES, GUIDE_CHANNELS, guide_paths):
        px = read_exr(path)
        if (px.height, px.width) != want:
            raise SceneError("the %s pass is %dx%d, the region %dx%d" % (name, px.width, px.height, want[1], want[0]))
        with open(os.path.join(outdir, name + ".f32"), "wb") as f:
            px.channels(channels).tofile(f)
    for d in ("calibration", "final"):
        for f in glob.glob(os.path.join(work, d, "*.exr")):
            os.remove(f)
        if os.path.isdir(os.path.join(work, d)):
            os.rmdir(os.path.join(work, d))
    if os.path.isdir(work):
        os.rmdir(work)
    timings["read"] = time.time() - t2
    timings["total"] = time.time() - t0
    meta = {
        "width": want[1],
        "height": want[0],
        "lightScale": light_scale,
        "calibrationSamples": used,
        "timings": timings,
        "blenderVersion": bpy.app.version_string,
        "peakMemoryMiB": peak_memory_mib(),
    }
    with open(os.path.join(outdir, "meta.json"), "w") as f:
        json.dump(meta, f)


# Run as a script (blender -P); another Blender script may import this one for its functions.
if __name__ == "__main__":
    try:
        main()
    except SceneError as e:
        sys.stderr.write("%s: error: %s\n" % (PREFIX, e))
        sys.stderr.flush()
        sys.exit(1)
    except Exception as e:
        import traceback

        traceback.print_exc()
        sys.stderr.write("%s: error: %s: %s\n" % (PREFIX, type(e).__name__, e))
        sys.stderr.flush()
        sys.exit(1)
