#!/usr/bin/env python3
"""Writes the malformed-scene corpus to Tests/Corpus/hostile-scenes/ (deterministic: run it again and
git shows no change). Every file must make `spatialcheck validate FILE` exit 2 with an error naming
the file, quickly and without a crash; HostileSceneCorpusTests checks exactly that.

Files that reference `links/...` expect the test to create `links -> ../outside` (a symlink that
leaves the scene's folder) and `../outside/secret.gltf` holding SECRET-CANARY-1234; the canary must
never appear in the tool's output.

Usage: Tools/make-hostile-scenes.py [OUTDIR]
"""
import copy
import json
import math
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) > 2 or (len(sys.argv) == 2 and sys.argv[1].startswith("-")):
    # `--help` (or any option) is not a folder to write into.
    sys.stdout.write(__doc__)
    sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Tests", "Corpus", "hostile-scenes")

NAN, INF, NINF, BIG = object(), object(), object(), object()


def base():
    return {
        "format": "spatialscene/1",
        "name": "hostile base",
        "platform": "visionOS",
        "immersion": "shared",
        "frameRate": 90,
        "duration": 2,
        "units": {"pointAngle": 0.0671, "fixedPointSize": 0.00117},
        "viewer": {
            "posture": "standing", "eyeHeight": 1.6, "ipd": 0.063, "fieldOfView": [90, 70], "motion": "none",
            "path": [{"t": 0, "position": [0, 1.6, 0], "rotation": {"yaw": 0, "pitch": 0, "roll": 0}},
                     {"t": 2, "position": [0, 1.6, -0.5], "quaternion": [0, 0, 0, 1]}],
        },
        "entities": [
            {"id": "win", "kind": "window", "position": [0, 1.5, -2], "size": [1280, 720], "scaleMode": "dynamic",
             "interactive": True, "primary": True, "visible": True, "facing": "viewer", "scale": 1,
             "elements": [{"id": "play", "role": "button", "frame": [10, 10, 60, 60], "depth": 0, "fontSize": 17,
                           "label": "Play", "interactive": True, "primary": False, "visible": True}]},
            {"id": "vol", "kind": "volume", "position": [1, 1.5, -2], "size": [0.5, 0.5, 0.5], "scaleMode": "fixed",
             "rotation": {"yaw": 10, "pitch": 0, "roll": 0}, "scale": [1, 1, 1], "anchor": "world",
             "children": [{"id": "g", "kind": "group", "position": [0, 0.1, 0]}]},
            {"id": "txt", "kind": "text", "placement": {"distance": 2, "azimuth": -20, "elevation": 0},
             "fontSize": 20, "string": "hello",
             "animation": {"keyframes": [{"t": 0, "position": [-1, 1.5, -2], "scale": 1},
                                         {"t": 1, "position": [-1, 1.6, -2], "rotation": {"yaw": 5}}],
                           "loop": False, "speed": 1}},
            {"id": "env", "kind": "environment", "groundPlane": True, "range": [120, 360]},
        ],
        "events": [{"t": 1, "action": "hide", "entity": "txt"},
                   {"t": 1.5, "action": "setImmersion", "style": "mixed", "trigger": "user"},
                   {"t": 1.8, "action": "recenter"}],
    }


def emit(v):
    """YAML flow style (a superset of JSON) with YAML's spellings of NaN and infinity."""
    if v is NAN:
        return ".nan"
    if v is INF:
        return ".inf"
    if v is NINF:
        return "-.inf"
    if v is BIG:
        return "1e999"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(emit(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + emit(x) for k, x in v.items()) + "}"
    raise TypeError(v)


def doc(d):
    lines = []
    for k, v in d.items():
        if k in ("entities", "events") and isinstance(v, list):
            lines.append(f"{k}:")
            lines += [f"  - {emit(x)}" for x in v]
        else:
            lines.append(f"{k}: {emit(v)}")
    return "\n".join(lines) + "\n"


files = {}


def add(name, content):
    assert name not in files, name
    files[name] = content if isinstance(content, bytes) else content.encode("utf-8")


def walk(v, path=()):
    """Every (path, value) below v."""
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from walk(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from walk(x, path + (i,))


def setp(d, path, value):
    d = copy.deepcopy(d)
    cur = d
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return d


def slug(path):
    return "-".join(str(p) for p in path) or "root"


B = base()
# Numbers whose sign or size is free (angles, positions, depth) accept huge values, so "huge"
# mutations go to fields with a range or a product that overflows.
BOUNDED = {"frameRate", "duration", "pointAngle", "fixedPointSize", "eyeHeight", "ipd", "fieldOfView", "t", "size",
           "fontSize", "distance", "speed", "frame", "scale", "quaternion", "range"}

# 1. Non-finite numbers in every numeric field.
for path, v in list(walk(B)):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        for tag, bad in (("nan", NAN), ("inf", INF), ("ninf", NINF), ("1e999", BIG)):
            add(f"nonfinite-{tag}-{slug(path)}.scene.yaml", "# non-finite number\n" + doc(setp(B, path, bad)))

# 2. Wrong types at every key: strings get a list, numbers a string, booleans a number,
#    lists a mapping, mappings a number.
for path, v in list(walk(B)):
    if not path or isinstance(path[-1], int) and not isinstance(v, (dict, list)) and not isinstance(v, (int, float)):
        continue
    if isinstance(v, bool):
        bad = 1
    elif isinstance(v, (int, float)):
        bad = "twelve"
    elif isinstance(v, str):
        bad = ["not", "a", "string"]
    elif isinstance(v, list):
        bad = {"a": 1}
    else:
        bad = 7
    add(f"wrongtype-{slug(path)}.scene.yaml", "# wrong type\n" + doc(setp(B, path, bad)))

# 3. Bad enum values.
for path, v in list(walk(B)):
    if isinstance(v, str) and path and path[-1] in ("platform", "immersion", "posture", "motion", "kind",
                                                    "scaleMode", "facing", "anchor", "role", "action", "style",
                                                    "trigger", "format"):
        add(f"badenum-{slug(path)}.scene.yaml", doc(setp(B, path, v + "x")))

# 4. Unknown keys at every mapping.
for path, v in list(walk(B)):
    if isinstance(v, dict):
        add(f"unknownkey-{slug(path)}.scene.yaml", doc(setp(B, path + ("colour",), 1) if path else {**B, "colour": 1}))

# 5. Huge numbers where they overflow a limit or a product.
for path, v in list(walk(B)):
    if isinstance(v, (int, float)) and not isinstance(v, bool) and any(p in BOUNDED for p in path if isinstance(p, str)):
        add(f"huge-{slug(path)}.scene.yaml", doc(setp(B, path, 1e308)))
add("huge-frames-duration.scene.yaml", doc({**B, "duration": 100000}))
add("huge-frames-rate.scene.yaml", doc({**B, "frameRate": 9000, "duration": 1000}))
add("huge-frames-viewer-path.scene.yaml", doc(setp(B, ("viewer", "path", 1, "t"), 1e12) | {"duration": None} if False else
                                              {k: v for k, v in setp(B, ("viewer", "path", 1, "t"), 1e12).items() if k != "duration"}))
add("huge-frames-slow-animation.scene.yaml", doc({k: v for k, v in setp(B, ("entities", 2, "animation", "speed"), 1e-300).items() if k != "duration"}))
add("sexagesimal-overflow.scene.yaml", "format: spatialscene/1\nframeRate: 1:1:1:1:1:1:1:1:1:1:1:1:1\nentities: []\n")
add("huge-framerate.scene.yaml", "format: spatialscene/1\nframeRate: 20000\nentities: []\n")
add("huge-int-overflow.scene.yaml", "format: spatialscene/1\nframeRate: 99999999999999999999999999999999999\nentities: []\n")
add("negative-scale.scene.yaml", doc(setp(B, ("entities", 1, "scale"), -1)))
add("zero-scale.scene.yaml", doc(setp(B, ("entities", 1, "scale"), [1, 0, 1])))
add("zero-size-volume.scene.yaml", doc(setp(B, ("entities", 1, "size"), [0, 0, 0])))
add("zero-size-window.scene.yaml", doc(setp(B, ("entities", 0, "size"), [0, 720])))
add("zero-quaternion.scene.yaml", doc(setp(B, ("viewer", "path", 1, "quaternion"), [0, 0, 0, 0])))
add("coincident-keyframes.scene.yaml", doc(setp(B, ("entities", 2, "animation", "keyframes", 1, "t"), 0)))
add("coincident-viewer-keys.scene.yaml", doc(setp(B, ("viewer", "path", 1, "t"), 0)))
add("decreasing-viewer-keys.scene.yaml", doc(setp(B, ("viewer", "path", 0, "t"), 5)))
add("empty-keyframes.scene.yaml", doc(setp(B, ("entities", 2, "animation", "keyframes"), [])))
add("dynamic-at-eye.scene.yaml", doc(setp(B, ("entities", 0, "position"), [0, 1.6, 0])))

# 6. Huge arrays (kept to a few hundred KB each).
add("hugearray-position.scene.yaml", doc(setp(B, ("entities", 0, "position"), list(range(50000)))))
add("hugearray-fieldofview.scene.yaml", doc(setp(B, ("viewer", "fieldOfView"), [90] * 50000)))
add("hugearray-events.scene.yaml", doc({**B, "events": [{"t": 1, "action": "recenter", "bad": 1}] * 3000}))
add("hugearray-string.scene.yaml", doc(setp(B, ("entities", 2, "string"), "x" * 70000)))
add("hugearray-key.scene.yaml", doc(setp(B, ("units", "k" * 70000), 1)))
add("very-long-line.scene.yaml", doc(setp(B, ("name",), "n" * 20000)) + "bogus: " + "y" * 30000 + "\n")
add("very-long-id.scene.yaml", doc(setp(B, ("entities", 0, "id"), "w" * 5000 + "/")))
add("very-long-unknown-key.scene.yaml", doc({**B, "k" * 50000: 1}))

# 7. Deep nesting.
add("deep-flow-list.scene.yaml", "format: spatialscene/1\nentities: " + "[" * 100000 + "]" * 100000 + "\n")
add("deep-flow-map.scene.yaml", "format: spatialscene/1\nname: " + "{a: " * 20000 + "1" + "}" * 20000 + "\n")
add("deep-block.scene.yaml", "format: spatialscene/1\nunits:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(200)) + " " * 201 + "x: 1\n")
add("deep-children.scene.yaml", "format: spatialscene/1\nentities:\n  - " +
    "{id: g, kind: group, children: [" * 80 + "{id: leaf, kind: group}" + "]}" * 80 + "\n")
add("deep-json.scene.json", '{"format": "spatialscene/1", "entities": ' + "[" * 5000 + "]" * 5000 + "}\n")
add("deep-unclosed.scene.yaml", "format: spatialscene/1\nentities: " + "[" * 5000 + "\n")

# 8. Alias bombs and cyclic-looking references.
bomb = ["format: spatialscene/1", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for i in range(1, 10):
    bomb.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
add("alias-bomb-values.scene.yaml", "\n".join(bomb) + "\n")
bomb2 = ["format: spatialscene/1", "name: &n0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
for i in range(1, 9):
    bomb2.append(f"units{i}: &n{i} [" + ", ".join([f"*n{i - 1}"] * 9) + "]")
add("alias-bomb-unknown-keys.scene.yaml", "\n".join(bomb2) + "\n")
add("alias-bomb-keys.scene.yaml", "format: spatialscene/1\na: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\n? *c\n: 1\n")
add("alias-as-flow-key.scene.yaml", "format: spatialscene/1\nx: &x {a: 1}\ny: {*x : 2}\n")
for i, tail in enumerate(["x: [*a8,?*a8]", "x: {*a8}", "x: {[*a8]}", "x: {a: 1,\n  {b: *a8}}"]):
    add(f"alias-bomb-flow-key-{i}.scene.yaml", "\n".join(bomb[:10]) + "\n" + tail + "\n")
add("alias-undefined.scene.yaml", "format: spatialscene/1\nentities: *nothing\n")
add("alias-self.scene.yaml", "format: spatialscene/1\nentities: &e [*e]\n")
add("alias-entities-duplicate-ids.scene.yaml", "format: spatialscene/1\nx: &w {id: w, kind: group}\nentities: [*w, *w, *w]\n")
add("alias-bomb-entities.scene.yaml", "format: spatialscene/1\nentities:\n  - &g0 {id: a, kind: group, children: []}\n" +
    "".join(f"  - &g{i} {{id: a{i}, kind: group, children: [*g{i - 1}, *g{i - 1}, *g{i - 1}]}}\n" for i in range(1, 13)))
add("cyclic-event-self.scene.yaml", doc({**B, "events": [{"t": 1, "action": "hide", "entity": "events"}]}))
add("cyclic-path-ref.scene.yaml", doc({**B, "events": [{"t": 1, "action": "show", "entity": "vol/g/vol"}]}))
add("cyclic-child-same-path.scene.yaml", "format: spatialscene/1\nentities:\n  - {id: a, kind: group, children: [{id: a, kind: group, children: [{id: a, kind: group}, {id: a, kind: group}]}]}\n")

# 9. Path escapes and missing assets. (`links` is a symlink the test creates.)
canary_comment = "# SECRET-CANARY-1234 must never be printed\n"
for i, asset in enumerate(["../outside/secret.gltf", "../../etc/passwd", "../../../../../../../../etc/shadow", "/etc/passwd",
                           "/etc/hostname", "links/secret.gltf", "links/../links/secret.gltf", "./../outside/./secret.gltf",
                           "sub/../../outside/secret.gltf", "//etc//passwd", "links/missing.glb", "/proc/self/environ",
                           "/dev/zero", "/dev/stdin", "../outside"]):
    add(f"pathescape-{i:02d}.scene.yaml", canary_comment + doc({**B, "entities": B["entities"] + [
        {"id": "m", "kind": "model", "asset": asset, "position": [0, 0, -3]}]}))
    add(f"pathescape-env-{i:02d}.scene.json", json.dumps({"format": "spatialscene/1", "entities": [
        {"id": "e", "kind": "environment", "asset": asset}]}) + "\n")
for i, asset in enumerate(["missing.glb", "sub/missing.gltf", "", "missing dir/", ".", "nul\u0000byte.glb", "new\nline.glb"]):
    add(f"missingasset-{i:02d}.scene.yaml", doc({**B, "entities": [{"id": "m", "kind": "model", "asset": asset}]}))

# 10. Syntax errors, encodings, garbage.
add("empty.scene.yaml", b"")
add("only-whitespace.scene.yaml", b"   \n\n\t\n")
add("only-comment.scene.yaml", b"# nothing here\n")
add("empty.scene.json", b"")
add("null-document.scene.yaml", b"~\n")
add("scalar-document.scene.yaml", b"hello\n")
add("list-document.scene.yaml", b"- format: spatialscene/1\n")
add("json-trailing-comma.scene.json", b'{"format": "spatialscene/1", "frameRate": [90,], "entities": [],}\n')
add("json-nan-literal.scene.json", b'{"format": "spatialscene/1", "frameRate": NaN, "entities": []}\n')
add("json-infinity-literal.scene.json", b'{"format": "spatialscene/1", "duration": Infinity, "entities": []}\n')
add("json-unterminated.scene.json", b'{"format": "spatialscene/1", "entities": [')
add("json-single-quotes.scene.json", b"{'format': 'spatialscene/2'}\n")
add("yaml-tab-indent.scene.yaml", b"format: spatialscene/1\nviewer:\n\tposture: standing\n")
add("yaml-bad-indent.scene.yaml", b"format: spatialscene/1\nviewer:\n  posture: standing\n eyeHeight: 1\n")
add("yaml-unclosed-quote.scene.yaml", b'format: "spatialscene/1\nentities: []\n')
add("yaml-unclosed-flow.scene.yaml", b"format: spatialscene/1\nentities: [{id: a, kind: group\n")
add("yaml-duplicate-key.scene.yaml", b"format: spatialscene/1\nname: a\nname: b\nentities: []\n")
add("yaml-duplicate-key-nested.scene.yaml", b"format: spatialscene/1\nentities:\n  - {id: a, id: b, kind: group}\n")
add("yaml-multi-document.scene.yaml", b"format: spatialscene/1\nentities: []\n---\nformat: spatialscene/1\n")
add("yaml-directive.scene.yaml", b"%YAML 9.9\n---\nformat: spatialscene/1\n")
add("yaml-bad-escape.scene.yaml", b'format: spatialscene/1\nname: "\\q"\n')
add("yaml-tag-binary.scene.yaml", b"format: spatialscene/1\nname: !!binary AAAA\nframeRate: !!str 90\n")
add("yaml-custom-tag.scene.yaml", b"format: spatialscene/1\nframeRate: !python/object 90\n")
add("yaml-complex-key.scene.yaml", b"format: spatialscene/1\n? [a, b]\n: 1\n")
add("yaml-anchor-only.scene.yaml", b"&a\n")
add("yaml-control-char.scene.yaml", b"format: spatialscene/1\nname: a\x07b\n")
add("yaml-escape-sequence-value.scene.yaml", b'format: spatialscene/1\nplatform: "\\e[31mvisionOS\\e[0m\\n::error::forged"\n')
add("yaml-forged-line-key.scene.yaml", b'format: spatialscene/1\n"x\\n::error file=a::forged\\u001b[2J": 1\n')
add("yaml-rtl-override.scene.yaml", "format: spatialscene/1\nimmersion: \"full\u202egnp.exe\"\n".encode())
add("bom-utf8-error.scene.yaml", b"\xef\xbb\xbfformat: spatialscene/1\nbogus: 1\n")
add("bom-utf8-middle.scene.yaml", b"format: spatialscene/1\n\xef\xbb\xbfbogus: 1\n")
add("bom-utf16le.scene.yaml", "format: spatialscene/1\nbogus: 1\n".encode("utf-16"))
add("bom-utf16be.scene.yaml", b"\xfe\xff" + "format: spatialscene/1\n".encode("utf-16-be"))
add("bom-utf32.scene.yaml", "format: spatialscene/1\n".encode("utf-32"))
add("crlf-error.scene.yaml", doc(setp(B, ("immersion",), "fulll")).replace("\n", "\r\n").encode())
add("cr-only.scene.yaml", b"format: spatialscene/1\rbogus: 1\r")
add("mixed-newlines.scene.yaml", b"format: spatialscene/1\r\nviewer: {posture: sitting}\nentities: []\r")
add("nul-bytes.scene.yaml", b"format: spatialscene/1\nname: a\x00b\n")
add("invalid-utf8.scene.yaml", b"format: spatialscene/1\nname: \xc3\x28\xff\xfe\n")
add("overlong-utf8.scene.yaml", b"format: spatialscene/1\nname: \xc0\xaf\n")
add("surrogate-utf8.scene.yaml", b"format: spatialscene/1\nname: \xed\xa0\x80\n")
rng = random.Random(8)
for i in range(12):
    add(f"garbage-binary-{i:02d}.scene.yaml", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4000))))
for i in range(6):
    chars = "{}[]:,-?&*!|>'\"%@`#\n \t" + "abc019."
    add(f"garbage-yamlish-{i:02d}.scene.yaml", "".join(rng.choice(chars) for _ in range(rng.randrange(10, 3000))))
add("garbage-glb-as-scene.scene.yaml", b"glTF\x02\x00\x00\x00" + bytes(range(256)) * 4)
add("garbage-png-as-scene.scene.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
add("truncated.scene.yaml", doc(B)[: doc(B).index('"elements"') + 20].encode())
add("truncated-json.scene.json", json.dumps(B)[:300].encode())

# 11. Duplicate ids and structural conflicts.
add("dup-id-top.scene.yaml", doc({**B, "entities": B["entities"] + [{"id": "win", "kind": "group"}]}))
add("dup-id-element.scene.yaml", doc(setp(B, ("entities", 0, "elements"), B["entities"][0]["elements"] * 2)))
add("dup-id-child.scene.yaml", doc(setp(B, ("entities", 1, "children"), [{"id": "g", "kind": "group"}] * 2)))
add("bad-id-chars.scene.yaml", doc(setp(B, ("entities", 0, "id"), "a/b")))
add("empty-id.scene.yaml", doc(setp(B, ("entities", 0, "id"), "")))
add("both-rotation-quaternion.scene.yaml", doc(setp(B, ("entities", 1, "quaternion"), [0, 0, 0, 1])))
add("both-position-placement.scene.yaml", doc(setp(B, ("entities", 2, "position"), [0, 1, -1])))
add("both-fontsize-height.scene.yaml", doc(setp(B, ("entities", 2, "height"), 0.1)))
add("child-anchor.scene.yaml", doc(setp(B, ("entities", 1, "children", 0, "anchor"), "head")))
add("child-placement.scene.yaml", doc(setp(B, ("entities", 1, "children", 0, "placement"), {"distance": 1})))
add("volume-without-size.scene.yaml", doc({**B, "entities": [{"id": "v", "kind": "volume"}]}))
add("text-without-string.scene.yaml", doc({**B, "entities": [{"id": "t", "kind": "text", "height": 0.1}]}))
add("model-without-asset.scene.yaml", doc({**B, "entities": [{"id": "m", "kind": "model"}]}))
add("clip-without-asset.scene.yaml", doc(setp(B, ("entities", 1, "animation"), {"clip": "Walk"})))
add("keyframes-and-clip.scene.yaml", doc(setp(B, ("entities", 2, "animation", "clip"), "Walk")))
add("event-unknown-entity.scene.yaml", doc({**B, "events": [{"t": 1, "action": "show", "entity": "nobody"}]}))
add("event-missing-style.scene.yaml", doc({**B, "events": [{"t": 1, "action": "setImmersion"}]}))
add("missing-format.scene.yaml", doc({k: v for k, v in B.items() if k != "format"}))
add("format-v2.scene.yaml", doc({**B, "format": "spatialscene/2"}))
add("range-wrong-count.scene.yaml", doc(setp(B, ("entities", 3, "range"), [1, 2, 3])))
add("fov-out-of-range.scene.yaml", doc(setp(B, ("viewer", "fieldOfView"), [0, 500])))
add("pointangle-too-big.scene.yaml", doc(setp(B, ("units", "pointAngle"), 5)))
# Degenerate scales and point sizes: positive, but below the documented lower bounds (world scale
# 10^-9, pointAngle 0.0005, fixedPointSize 0.00001; docs/security.md §2.2).
add("tiny-scale-subnormal.scene.yaml", doc(setp(B, ("entities", 1, "scale"), 5e-324)))
add("tiny-scale-nested.scene.yaml", doc(setp(setp(B, ("entities", 1, "scale"), 1e-5), ("entities", 1, "children", 0, "scale"), 1e-5)))
add("tiny-scale-keyframe.scene.yaml", doc(setp(B, ("entities", 2, "animation", "keyframes", 1, "scale"), 1e-300)))
add("pointangle-subnormal.scene.yaml", doc(setp(B, ("units", "pointAngle"), 5e-324)))
add("pointangle-tiny.scene.yaml", doc(setp(B, ("units", "pointAngle"), 1e-300)))
add("fixedpointsize-subnormal.scene.yaml", doc(setp(B, ("units", "fixedPointSize"), 5e-324)))
add("fixedpointsize-too-big.scene.yaml", doc(setp(B, ("units", "fixedPointSize"), 1)))

if os.path.isdir(OUT):
    shutil.rmtree(OUT)
os.makedirs(OUT)
for name, content in sorted(files.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(content)
print(f"wrote {len(files)} files, {sum(len(c) for c in files.values())} bytes, to {OUT}")
