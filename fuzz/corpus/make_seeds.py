#!/usr/bin/env python3
"""Writes the fuzz seed corpus: tiny valid inputs that get each parser past its syntax checks.

Every reader's fuzz target starts from these (fuzz/corpus/<target>/). The glTF seeds are one small
skinned, animated, textured model (two joints, a strip of four triangles, LINEAR/STEP/CUBICSPLINE
channels, an embedded PNG) as .gltf with data-URI buffers and as .glb with a BIN chunk, and the same
model with a morph target (default and animated weights) and a KHR_materials_pbrSpecularGlossiness
material. Rerun after changing a seed; the output is deterministic.
"""
import base64
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png(width, height, color_type, bit_depth, rows, palette=None):
    """A PNG with no filtering; `rows` are the raw scanline bytes without the filter byte."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + r for r in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
    if palette:
        out += chunk(b"PLTE", palette)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


TEXTURE = png(2, 2, 6, 8, [bytes([255, 0, 0, 255, 0, 255, 0, 255]), bytes([0, 0, 255, 255, 255, 255, 255, 128])])
IMAGES = {
    "rgba_2x2.png": TEXTURE,
    "gray_3x1.png": png(3, 1, 0, 8, [bytes([0, 128, 255])]),
    "rgb16_1x1.png": png(1, 1, 2, 16, [bytes([1, 2, 3, 4, 5, 6])]),
    "palette_2x1.png": png(2, 1, 3, 8, [bytes([0, 1])], palette=bytes([255, 0, 0, 0, 0, 255])),
    "gray_alpha_1x2.png": png(1, 2, 4, 8, [bytes([10, 200]), bytes([20, 100])]),
}


class Buffer:
    """Packs accessor data into one binary buffer with 4-byte aligned views."""

    def __init__(self):
        self.data = b""
        self.views = []
        self.accessors = []

    def view(self, payload, stride=None):
        self.data += b"\x00" * (-len(self.data) % 4)
        v = {"buffer": 0, "byteOffset": len(self.data), "byteLength": len(payload)}
        if stride:
            v["byteStride"] = stride
        self.data += payload
        self.views.append(v)
        return len(self.views) - 1

    def accessor(self, view, ctype, count, kind, offset=0, **extra):
        a = {"bufferView": view, "byteOffset": offset, "componentType": ctype, "count": count, "type": kind}
        a.update(extra)
        self.accessors.append(a)
        return len(self.accessors) - 1


FLOAT, USHORT, UBYTE = 5126, 5123, 5121


def floats(values):
    return struct.pack("<%df" % len(values), *values)


def model(textured, binary, morph_spec_gloss=False):
    b = Buffer()
    positions = [(-0.5, 0, 0), (0.5, 0, 0), (-0.5, 1, 0), (0.5, 1, 0), (-0.5, 2, 0), (0.5, 2, 0)]
    # Positions and normals interleaved (byteStride 24) so strided reads are exercised.
    interleaved = b"".join(floats(p + (0, 0, 1)) for p in positions)
    pn = b.view(interleaved, stride=24)
    pos = b.accessor(pn, FLOAT, 6, "VEC3", min=[-0.5, 0, 0], max=[0.5, 2, 0])
    nrm = b.accessor(pn, FLOAT, 6, "VEC3", offset=12)
    uv = b.accessor(b.view(floats([0, 0, 1, 0, 0, 0.5, 1, 0.5, 0, 1, 1, 1])), FLOAT, 6, "VEC2")
    joints = b.accessor(b.view(bytes([0, 1, 0, 0] * 2 + [1, 0, 0, 0] * 4)), UBYTE, 6, "VEC4")
    weights = b.accessor(b.view(floats([1, 0, 0, 0] * 2 + [0.5, 0.5, 0, 0] * 2 + [1, 0, 0, 0] * 2)), FLOAT, 6,
                         "VEC4")
    indices = b.accessor(b.view(struct.pack("<12H", 0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4)), USHORT, 12, "SCALAR")
    ibm = b.accessor(b.view(floats([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] +
                                   [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1])), FLOAT, 2, "MAT4")
    times = b.accessor(b.view(floats([0, 1])), FLOAT, 2, "SCALAR", min=[0], max=[1])
    rot = b.accessor(b.view(floats([0, 0, 0, 1, 0, 0, 0.7071, 0.7071])), FLOAT, 2, "VEC4")
    move = b.accessor(b.view(floats([0, 0, 0, 0, 0.5, 0])), FLOAT, 2, "VEC3")
    grow = b.accessor(b.view(floats([0, 0, 0, 1, 1, 1, 0, 0, 0] + [0, 0, 0, 2, 2, 2, 0, 0, 0])), FLOAT, 6, "VEC3")
    attributes = {"POSITION": pos, "NORMAL": nrm, "JOINTS_0": joints, "WEIGHTS_0": weights}
    primitive = {"attributes": attributes, "indices": indices}
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"name": "scene_root", "children": [1]},
            {"name": "armature", "children": [2, 3]},
            {"name": "body", "mesh": 0, "skin": 0},
            {"name": "hip", "translation": [0, 0, 0], "children": [4]},
            {"name": "spine", "translation": [0, 1, 0], "rotation": [0, 0, 0, 1]},
        ],
        "meshes": [{"name": "strip", "primitives": [primitive]}],
        "skins": [{"inverseBindMatrices": ibm, "joints": [3, 4]}],
        "animations": [{
            "name": "bend",
            "channels": [
                {"sampler": 0, "target": {"node": 4, "path": "rotation"}},
                {"sampler": 1, "target": {"node": 3, "path": "translation"}},
                {"sampler": 2, "target": {"node": 4, "path": "scale"}},
            ],
            "samplers": [
                {"input": times, "output": rot, "interpolation": "LINEAR"},
                {"input": times, "output": move, "interpolation": "STEP"},
                {"input": times, "output": grow, "interpolation": "CUBICSPLINE"},
            ],
        }],
    }
    if textured:
        attributes["TEXCOORD_0"] = uv
        primitive["material"] = 0
        doc["materials"] = [{"name": "skin", "doubleSided": True,
                             "pbrMetallicRoughness": {"baseColorFactor": [1, 0.8, 0.6, 1], "baseColorTexture": {"index": 0}}}]
        doc["samplers"] = [{}]
        doc["textures"] = [{"sampler": 0, "source": 0}]
        if binary:
            doc["images"] = [{"bufferView": b.view(TEXTURE), "mimeType": "image/png"}]
        else:
            doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(TEXTURE).decode()}]
    if morph_spec_gloss:
        # One morph target lifting the top two corners, at weight 0.5 (the node's) and animated.
        lift = b.accessor(b.view(floats([0, 0, 0] * 4 + [0, 0.5, 0] * 2)), FLOAT, 6, "VEC3", min=[0, 0, 0],
                          max=[0, 0.5, 0])
        bend = b.accessor(b.view(floats([0.2, 0, 0] * 6)), FLOAT, 6, "VEC3")
        primitive["targets"] = [{"POSITION": lift, "NORMAL": bend}]
        doc["meshes"][0]["weights"] = [0.25]
        doc["nodes"][2]["weights"] = [0.5]
        weights = b.accessor(b.view(floats([0, 1])), FLOAT, 2, "SCALAR")
        anim = doc["animations"][0]
        anim["samplers"].append({"input": times, "output": weights, "interpolation": "LINEAR"})
        anim["channels"].append({"sampler": len(anim["samplers"]) - 1, "target": {"node": 2, "path": "weights"}})
        if textured:
            material = doc["materials"][0]
            material["extensions"] = {"KHR_materials_pbrSpecularGlossiness": {
                "diffuseFactor": [0.9, 0.7, 0.5, 1], "diffuseTexture": {"index": 0, "texCoord": 0},
                "specularFactor": [0.2, 0.2, 0.2], "glossinessFactor": 0.5}}
            doc["extensionsUsed"] = ["KHR_materials_pbrSpecularGlossiness"]
            doc["extensionsRequired"] = ["KHR_materials_pbrSpecularGlossiness"]
    doc["accessors"] = b.accessors
    doc["bufferViews"] = b.views
    b.data += b"\x00" * (-len(b.data) % 4)
    if binary:
        doc["buffers"] = [{"byteLength": len(b.data)}]
    else:
        doc["buffers"] = [{"byteLength": len(b.data),
                           "uri": "data:application/octet-stream;base64," + base64.b64encode(b.data).decode()}]
    return doc, b.data


def glb(doc, data):
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(data), 0x004E4942) + data
    return struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks


def kit():
    """An avatar kit: the skinned strip on two skins with the same joints, an item (by name) on the second,
    a rigid copy under the spine joint with an item slot in its extras."""
    doc, data = model(textured=True, binary=True)
    doc["skins"].append(dict(doc["skins"][0]))
    doc["nodes"][1]["children"] += [5]
    doc["nodes"].append({"name": "item_cape", "mesh": 0, "skin": 1})
    doc["nodes"][4]["children"] = [6]
    doc["nodes"].append({"name": "badge", "mesh": 0, "translation": [0, 0.1, 0.05],
                         "extras": {"item": "badge", "slot": "chest"}})
    return doc, data


def plant():
    """A plant as exporters write it: Leaf_LOD0 (a textured, alpha-tested quad with a colour-only stem
    triangle), Leaf_LOD1 (the quad) and a Leaf_Billboard node, with an embedded 2x2 RGBA PNG."""
    data = b""
    views, accessors = [], []

    def add(raw, component, count, kind, target, **extra):
        nonlocal data
        data += b"\0" * (-len(data) % 4)
        views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(raw), "target": target})
        data += raw
        accessors.append(dict({"bufferView": len(views) - 1, "componentType": component, "count": count,
                               "type": kind}, **extra))
        return len(accessors) - 1

    quad = [(-0.5, 0, 0), (0.5, 0, 0), (0.5, 1, 0), (-0.5, 1, 0)]
    pos = add(b"".join(floats(p) for p in quad), 5126, 4, "VEC3", 34962, min=[-0.5, 0, 0], max=[0.5, 1, 0])
    nrm = add(floats([0, 0, 1] * 4), 5126, 4, "VEC3", 34962)
    uv = add(floats([0, 1, 1, 1, 1, 0, 0, 0]), 5126, 4, "VEC2", 34962)
    idx = add(struct.pack("<6H", 0, 1, 2, 0, 2, 3) + b"\0\0", 5123, 6, "SCALAR", 34963)
    stem = add(floats([0, 0, 0.1, 0.1, 0, 0.1, 0, 0.5, 0.1]), 5126, 3, "VEC3", 34962, min=[0, 0, 0.1],
               max=[0.1, 0.5, 0.1])
    image = png(2, 2, 6, 8, [bytes([40, 160, 40, 255, 0, 0, 0, 0]), bytes([0, 0, 0, 0, 60, 180, 50, 255])])
    data += b"\0" * (-len(data) % 4)
    views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(image)})
    data += image
    data += b"\0" * (-len(data) % 4)  # the BIN chunk ends on a 4-byte boundary
    leaf = {"attributes": {"POSITION": pos, "NORMAL": nrm, "TEXCOORD_0": uv}, "indices": idx, "material": 0}
    doc = {
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": [{"name": "Leaf_LOD0", "mesh": 0}, {"name": "Leaf_LOD1", "mesh": 1},
                  {"name": "Leaf_Billboard", "mesh": 1, "scale": [1, 1.5, 1]}],
        "meshes": [{"primitives": [leaf, {"attributes": {"POSITION": stem}, "material": 1}]},
                   {"primitives": [leaf]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}, "alphaMode": "MASK",
                       "alphaCutoff": 0.4},
                      {"pbrMetallicRoughness": {"baseColorFactor": [0.4, 0.3, 0.2, 1]}}],
        "textures": [{"source": 0}],
        "images": [{"bufferView": len(views) - 1, "mimeType": "image/png"}],
        "bufferViews": views,
        "accessors": accessors,
        "buffers": [{"byteLength": len(data)}],
    }
    return doc, data


def vox(scene_graph):
    """A MagicaVoxel file: two small models, an RGBA palette, one emissive MATL entry, and (with
    `scene_graph`) nTRN/nGRP/nSHP nodes with a rotation and translations plus a LAYR chunk."""

    def chunk(kind, content, children=b""):
        return kind + struct.pack("<ii", len(content), len(children)) + content + children

    def string(text):
        return struct.pack("<i", len(text)) + text

    def dict_(pairs):
        return struct.pack("<i", len(pairs)) + b"".join(string(k) + string(v) for k, v in pairs)

    body = chunk(b"SIZE", struct.pack("<iii", 2, 2, 2))
    body += chunk(b"XYZI", struct.pack("<I", 3) + bytes([0, 0, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3]))
    body += chunk(b"SIZE", struct.pack("<iii", 1, 1, 3))
    body += chunk(b"XYZI", struct.pack("<I", 2) + bytes([0, 0, 0, 2, 0, 0, 2, 2]))
    if scene_graph:
        body += chunk(b"nTRN", struct.pack("<i", 0) + dict_([]) + struct.pack("<iiii", 1, -1, -1, 1) + dict_([]))
        body += chunk(b"nGRP", struct.pack("<i", 1) + dict_([]) + struct.pack("<iii", 2, 2, 4))
        body += chunk(b"nTRN", struct.pack("<i", 2) + dict_([(b"_name", b"ell")]) + struct.pack("<iiii", 3, -1, 0, 1)
                      + dict_([(b"_t", b"1 1 1")]))
        body += chunk(b"nSHP", struct.pack("<i", 3) + dict_([]) + struct.pack("<ii", 1, 0) + dict_([]))
        body += chunk(b"nTRN", struct.pack("<i", 4) + dict_([]) + struct.pack("<iiii", 5, -1, 0, 1)
                      + dict_([(b"_r", b"17"), (b"_t", b"6 0 1")]))
        body += chunk(b"nSHP", struct.pack("<i", 5) + dict_([]) + struct.pack("<ii", 1, 1) + dict_([]))
        body += chunk(b"LAYR", struct.pack("<i", 0) + dict_([]) + struct.pack("<i", -1))
    palette = b"".join(bytes([(i * 37) & 255, (i * 91) & 255, (i * 13) & 255, 255]) for i in range(256))
    body += chunk(b"RGBA", palette)
    body += chunk(b"MATL", struct.pack("<i", 3) + dict_([(b"_type", b"_emit"), (b"_emit", b"1")]))
    return b"VOX " + struct.pack("<i", 200 if scene_graph else 150) + chunk(b"MAIN", b"", body)


def write(target, name, payload):
    folder = os.path.join(HERE, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(payload if isinstance(payload, bytes) else payload.encode())


def main():
    doc, _ = model(textured=True, binary=False)
    write("gltf", "skin_textured.gltf", json.dumps(doc, separators=(",", ":")))
    write("glb", "skin_textured.glb", glb(*model(textured=True, binary=True)))
    doc, _ = model(textured=True, binary=False, morph_spec_gloss=True)
    write("gltf", "morph_spec_gloss.gltf", json.dumps(doc, separators=(",", ":")))
    write("avatar_kit", "morph_spec_gloss.glb", glb(*model(textured=True, binary=True, morph_spec_gloss=True)))
    write("plant_gltf", "leaf.glb", glb(*plant()))
    write("avatar_kit", "strip_kit.glb", glb(*kit()))
    write("vox", "two_models_graph.vox", vox(scene_graph=True))
    write("vox", "two_models_flat.vox", vox(scene_graph=False))
    for name, data in IMAGES.items():
        write("gltf_image", name, data)
    # Structure-aware glTF edits: a few edit scripts (see gltf_fields_fuzz.cpp for the format).
    write("gltf_fields", "no_edit", b"")
    write("gltf_fields", "small_ints", bytes([0, 3, 0, 7, 0, 0, 0, 0, 9, 0, 1, 0, 0, 0]))
    write("instance_csv", "mixed.csv",
          "type,x,y,z,yaw,scale,r,g,b\n# a comment\ntree,1.5,0,2,90,1.2,90,140,70\r\n\n"
          "1,-3e2,4.25,0.5,-45,0.8,0,0,255\ngrass,10,0,-10,0,1,110,160,70\n")
    write("bench_anchors", "anchors.json", json.dumps({
        "format": "myriad-benchmark-anchors", "version": 1,
        "machines": {"vm": "2 vCPUs"},
        "anchors": {"core.octa_pack_ns": {"value": 78.8, "unit": "ns", "date": "2026-11-30", "machine": "vm",
                                          "command": "myriad bench core", "note": "median"},
                    "voxel.mesh_ms": {"value": 3, "unit": "ms", "date": "2026-11-30", "machine": "vm",
                                      "command": "myriad bench voxel"}}}, indent=1))


if __name__ == "__main__":
    main()
