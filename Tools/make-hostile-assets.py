#!/usr/bin/env python3
"""Writes the hostile-assets corpus: malformed or hostile 3D files derived from the shared assets.

    Tools/make-hostile-assets.py [--assets ../shared/assets] [--out Tests/Fixtures/hostile-assets]

Deterministic (seeded): running it twice writes identical bytes. Every file is meant to go through
spatialcheck's ISOLATED importer (a worker process), which must turn each into either a loaded
asset or a Diagnostic naming the file; some of them crash or exhaust assimp in-process, so never
feed them to the in-process importer from a test. See the corpus README for sources and licenses.
"""
import argparse
import base64
import json
import os
import random
import shutil
import struct
import sys

SEED = 20261121
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--assets", default=os.environ.get("SPATIALCHECK_SHARED_ASSETS",
                                                       os.path.join(os.path.dirname(ROOT), "shared", "assets")))
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests", "Fixtures", "hostile-assets"))
    args = ap.parse_args()
    rng = random.Random(SEED)
    out = args.out
    os.makedirs(out, exist_ok=True)
    # Remove previously generated files, keep the README.
    for name in os.listdir(out):
        if name in ("README.md", "LICENSES", ".gitattributes"):
            continue
        p = os.path.join(out, name)
        shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)

    def src(rel):
        with open(os.path.join(args.assets, rel), "rb") as f:
            return f.read()

    written = []

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        written.append(name)

    def flip(data, n, start=0):
        b = bytearray(data)
        for _ in range(n):
            i = rng.randrange(start, len(b))
            b[i] ^= 1 << rng.randrange(8)
        return bytes(b)

    box_gltf = src("gltf-box-animated/BoxAnimated.gltf")              # CC-BY-4.0, Cesium
    box_glb = src("glb-box-textured/BoxTextured.glb")                  # CC-BY-4.0 (TM), Cesium
    cube_stl = src("stl-20mm-xyz-cube-mm/20mm-xyz-cube.stl")          # MIT, trimesh
    ascii_stl = src("stl-two-solids-ascii/triangle_with_two_solids.stl")  # BSD-3, assimp
    wuson = src("ply-wuson/Wuson.ply")                                 # BSD-3, assimp
    spider_obj = src("obj-spider-mtl-textures/spider.obj")             # BSD-3, assimp
    teapot = src("dae-teapot-instancenodes-inch/teapot_instancenodes.DAE")  # BSD-3, assimp
    fbx = src("fbx-global-settings-units/global_settings.fbx")         # BSD-3, assimp
    cameras = json.loads(src("gltf-cameras/Cameras.gltf"))             # CC0, Khronos/javagl
    square_bin = src("gltf-cameras/simpleSquare.bin")

    # License texts the derivatives must carry (BSD-3-Clause, MIT); CC-BY/CC0 are linked from the README.
    os.makedirs(os.path.join(out, "LICENSES"), exist_ok=True)
    for lic in ["assimp-LICENSE.txt", "trimesh-LICENSE.md"]:
        shutil.copyfile(os.path.join(args.assets, "LICENSES", lic), os.path.join(out, "LICENSES", lic))

    # --- zero-byte files -------------------------------------------------------------------
    for ext in ["gltf", "glb", "obj", "ply", "stl", "fbx", "dae"]:
        put(f"zero-bytes.{ext}", b"")

    # --- a directory named like an asset ----------------------------------------------------
    os.makedirs(os.path.join(out, "directory.glb"), exist_ok=True)
    with open(os.path.join(out, "directory.glb", "README.md"), "w") as f:
        f.write("A directory named like an asset; the importer must say it is not a file.\n")
    written.append("directory.glb/")

    # --- truncated -------------------------------------------------------------------------
    for frac in [0.1, 0.5, 0.9]:
        put(f"truncated-{int(frac * 100)}pct-BoxAnimated.gltf", box_gltf[: int(len(box_gltf) * frac)])
    for cut in [11, 20, 1000, len(box_glb) // 2, len(box_glb) - 1]:
        put(f"truncated-{cut}-BoxTextured.glb", box_glb[:cut])
    for cut in [80, 84, 84 + 50 * 40 + 17, len(cube_stl) - 1]:
        put(f"truncated-{cut}-20mm-cube.stl", cube_stl[:cut])
    header_end = wuson.index(b"end_header\n") + len(b"end_header\n")
    put("truncated-header-only-Wuson.ply", wuson[:header_end])
    put("truncated-mid-header-Wuson.ply", wuson[: header_end // 2])
    body = wuson[header_end:]
    put("truncated-100-lines-Wuson.ply", wuson[:header_end] + b"\n".join(body.split(b"\n")[:100]))
    put("truncated-30pct-teapot.dae", teapot[: int(len(teapot) * 0.3)])
    put("truncated-27-global_settings.fbx", fbx[:27])
    put("truncated-40pct-global_settings.fbx", fbx[: int(len(fbx) * 0.4)])
    lines = spider_obj.split(b"\n")
    put("truncated-mid-face-spider.obj", b"\n".join(lines[: len(lines) // 3]) + b"\nf 1/1 2/")

    # --- bit-flipped -----------------------------------------------------------------------
    for i in range(3):
        put(f"bitflip-{i}-BoxTextured.glb", flip(box_glb, 8 + 8 * i))
    for i in range(2):
        put(f"bitflip-{i}-20mm-cube.stl", flip(cube_stl, 12, start=80))
    put("bitflip-0-global_settings.fbx", flip(fbx, 40))
    put("bitflip-0-teapot.dae", flip(teapot, 30))
    put("bitflip-0-BoxAnimated.gltf", flip(box_gltf, 25))
    put("bitflip-header-Wuson.ply", flip(wuson[:header_end], 6) + body[:4000])

    # --- wrong magic -----------------------------------------------------------------------
    put("wrong-magic-BoxTextured.glb", b"gLTF" + box_glb[4:])
    put("wrong-version-99-BoxTextured.glb", box_glb[:4] + struct.pack("<I", 99) + box_glb[8:])
    put("wrong-magic-global_settings.fbx", b"Kaydara FBX Binarx" + fbx[18:])
    put("wrong-magic-Wuson.ply", b"plx" + wuson[3:4000])
    put("solid-header-binary-body-20mm-cube.stl", b"solid " + cube_stl[6:])

    # --- huge declared counts --------------------------------------------------------------
    ply_head = wuson[:header_end].replace(b"element vertex 11184", b"element vertex 4000000000")
    put("huge-vertex-count-ascii.ply", ply_head + body[:2000])
    ply_bin = (b"ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\n"
               b"property float y\nproperty float z\nelement face 1\nproperty list uchar uint vertex_indices\n"
               b"end_header\n") + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    put("huge-vertex-count-binary.ply", ply_bin)
    ply_face = (b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                b"property float z\nelement face 4000000000\nproperty list uint uint vertex_indices\nend_header\n"
                + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<I", 0xFFFFFFF0) + b"\0" * 64)
    put("huge-face-list-binary.ply", ply_face)
    put("huge-triangle-count-20mm-cube.stl", cube_stl[:80] + struct.pack("<I", 0xFFFFFFFF) + cube_stl[84:])
    put("huge-triangle-count-header-only.stl", cube_stl[:80] + struct.pack("<I", 0x7FFFFFFF))
    obj_head = b"\n".join(l for l in lines[:400] if l.startswith(b"v ") or l.startswith(b"#"))
    put("absurd-indices.obj", obj_head + b"\nf 1 2 2147483647\nf -2147483648 1 2\nf 4294967296 1 2\n")
    put("absurd-negative-index.obj", obj_head + b"\nf -1 -2 -99999999\n")
    put("huge-float-array-count-teapot.dae",
        teapot.replace(b'count="', b'count="4000000000" x-was="', 3))
    gl = json.loads(json.dumps(cameras))
    gl["buffers"] = [{"uri": "data:application/octet-stream;base64," + base64.b64encode(square_bin).decode(),
                      "byteLength": len(square_bin)}]
    base_gltf = gl
    g = json.loads(json.dumps(base_gltf))
    for a in g["accessors"]:
        a["count"] = 4000000000
    put("huge-accessor-count.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["buffers"][0]["byteLength"] = 2 ** 40
    put("huge-buffer-bytelength.gltf", dump(g))
    glb_json_len = struct.unpack("<I", box_glb[12:16])[0]
    put("huge-chunk-length-BoxTextured.glb", box_glb[:12] + struct.pack("<I", 0xFFFFFFF0) + box_glb[16:])
    bin_off = 20 + glb_json_len
    put("huge-bin-chunk-length-BoxTextured.glb",
        box_glb[:bin_off] + struct.pack("<I", 0x7FFFFFF0) + box_glb[bin_off + 4:])

    # --- real assimp 5.2 crashers (found by fuzzing mutated Wuson-style PLYs) ------------------
    # A binary PLY whose vertex element lacks z (or has a property of an unknown type) makes
    # assimp 5.2's PLY loader dereference a missing property: SIGSEGV.
    comment = wuson.split(b"\n")[2] + b"\n"  # "Created by Blender3D 247 - ..."
    verts = b"".join(struct.pack("<3f", i * 0.1, i * 0.2, i * 0.3) for i in range(8))
    faces = b"".join(struct.pack("<B3i", 3, i, i + 1, i + 2) for i in range(4))

    def crash_ply(props):
        return (b"ply\nformat binary_little_endian 1.0\n" + comment + b"element vertex 8\n" + props
                + b"element face 4\nproperty list uchar int vertex_indices\nend_header\n" + verts + faces)
    put("segv-missing-z-binary.ply", crash_ply(b"property float x\nproperty float y\n"))
    put("segv-unknown-type-binary.ply", crash_ply(b"property float x\nproperty floab z\nproperty float y\n"))

    # --- NaN / infinite vertices -----------------------------------------------------------
    nan_ply = wuson[:header_end].replace(b"element vertex 11184", b"element vertex 3").replace(
        b"element face 3732", b"element face 1")
    nan_ply += (b"nan 0 0 0 0 1 0 0\n0 inf 0 0 0 1 0 0\n0 0 -inf 0 0 1 0 0\n3 0 1 2\n")
    put("nan-vertices-ascii.ply", nan_ply)
    put("nan-vertices.obj", b"# derived from assimp spider.obj\nv nan 0 0\nv 0 inf 0\nv 0 0 -inf\nv 1e999 0 0\nf 1 2 3\nf 2 3 4\n")
    nan_tri = struct.pack("<3f", 0, 0, 1) + struct.pack("<9f", float("nan"), 0, 0, float("inf"), 1, 0, 0, float("-inf"), 0) + b"\0\0"
    put("nan-vertices-binary.stl", cube_stl[:80] + struct.pack("<I", 1) + nan_tri)
    g = json.loads(json.dumps(base_gltf))
    g["nodes"][0]["translation"] = [1e999, 0, 0]  # json dumps as Infinity; make it 1e999 below
    put("inf-translation.gltf", dump(g).replace(b"Infinity", b"1e999"))
    g = json.loads(json.dumps(base_gltf))
    g["nodes"][0]["matrix"] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]
    g["nodes"][0].pop("rotation", None)
    put("singular-matrix.gltf", dump(g))

    # --- cyclic glTF hierarchies -----------------------------------------------------------
    g = json.loads(json.dumps(base_gltf))
    g["nodes"][0]["children"] = [1]
    g["nodes"][1]["children"] = [0]
    put("cycle-two-nodes.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["nodes"][0]["children"] = [1]
    g["nodes"][1]["children"] = [2]
    g["nodes"][2]["children"] = [0]
    put("cycle-three-nodes.gltf", dump(g))
    g = json.loads(box_gltf)
    g["nodes"][-1].setdefault("children", []).append(0)
    put("cycle-BoxAnimated.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["nodes"][1]["children"] = [0]
    g["nodes"][2]["children"] = [0]
    put("shared-child-diamond.gltf", dump(g))

    # --- glTF buffers / views / accessors pointing outside ---------------------------------
    g = json.loads(json.dumps(base_gltf))
    for v in g["bufferViews"]:
        v["byteOffset"] = 1 << 30
    put("bufferview-offset-outside.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    for a in g["accessors"]:
        a["byteOffset"] = 4096
    put("accessor-offset-outside.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["accessors"][0]["bufferView"] = 99
    g["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 77
    put("accessor-index-outside.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["buffers"][0] = {"uri": "../../../../../../etc/passwd", "byteLength": 60}
    put("buffer-uri-etc-passwd.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["buffers"][0] = {"uri": "does-not-exist.bin", "byteLength": 60}
    put("buffer-uri-missing.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(square_bin[:7]).decode()
    put("buffer-data-uri-short.gltf", dump(g))
    g = json.loads(json.dumps(base_gltf))
    g["scenes"][0]["nodes"] = [0, 5, -1, 2 ** 31]
    put("scene-node-index-outside.gltf", dump(g))

    # --- deeply nested glTF nodes ----------------------------------------------------------
    for depth in [300, 5000]:
        g = json.loads(json.dumps(base_gltf))
        nodes = [{"children": [i + 1]} for i in range(depth)]
        nodes.append({"mesh": 0})
        g["nodes"] = nodes
        g["scenes"] = [{"nodes": [0]}]
        g.pop("cameras", None)
        put(f"deep-nesting-{depth}.gltf", dump(g, compact=True))

    # --- path traversal --------------------------------------------------------------------
    put("mtllib-etc-passwd.obj", b"mtllib ../../../etc/passwd\nusemtl root\n" + obj_head + b"\nf 1 2 3\n")
    put("mtllib-absolute-etc-passwd.obj", b"mtllib /etc/passwd\n" + obj_head + b"\nf 1 2 3\n")
    g = json.loads(json.dumps(base_gltf))
    g["images"] = [{"uri": "../../../etc/passwd"}]
    g["textures"] = [{"source": 0}]
    put("image-uri-etc-passwd.gltf", dump(g))

    # --- other hostile constructs ----------------------------------------------------------
    laughs = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lolololololololololol">\n'
              + b"".join(b'<!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                         for i in range(1, 10))
              + b"]>\n")
    teapot_body = teapot[teapot.index(b"<COLLADA"):]
    put("billion-laughs-teapot.dae", laughs + teapot_body.replace(b"<author>", b"<author>&lol9;", 1))
    put("binary-garbage.glb", bytes(rng.randrange(256) for _ in range(4096)))
    put("binary-garbage.ply", b"ply\n" + bytes(rng.randrange(256) for _ in range(4096)))
    put("binary-garbage.fbx", fbx[:27] + bytes(rng.randrange(256) for _ in range(4096)))
    put("not-json.gltf", b"{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [" + b"[" * 20000)
    put("ascii-stl-unterminated.stl", ascii_stl.replace(b"endsolid", b"", 2)[: len(ascii_stl) - 30])

    total = 0
    count = 0
    for dirpath, _, files in os.walk(out):
        for f in files:
            if dirpath == out and f == "README.md" or os.path.basename(dirpath) == "LICENSES":
                continue
            total += os.path.getsize(os.path.join(dirpath, f))
    count = len(written)
    print(f"wrote {count} hostile assets ({total} bytes) to {out}")
    if total >= 2 * 1024 * 1024:
        sys.exit("corpus is 2 MB or more; keep it small")


def dump(obj, compact=False):
    if compact:
        return json.dumps(obj, separators=(",", ":")).encode()
    return json.dumps(obj, indent=1).encode()


if __name__ == "__main__":
    main()
