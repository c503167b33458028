#!/usr/bin/env python3
"""Writes the USD test fixtures (and the USD benchmark scene) with usd-core.

    Tools/make-usd-fixtures.py OUT_DIR            # test fixtures under OUT_DIR/project
    Tools/make-usd-fixtures.py --bench OUT_DIR    # OUT_DIR/bench/Scene.usda: ~3,000 prims, 60 layers

The geometry is chosen so that the expected values can be derived by hand (they are written out
in Tests/SpatialCheckTests/USDImportTests.swift); usd-core itself is the second oracle
(Tools/usd-oracle.py). Needs `pip install usd-core`.
"""
import os
import sys
import shutil
import zipfile

from pxr import Usd, UsdGeom, Sdf, UsdUtils

RCP_HEADER = '''#usda 1.0
(
    customLayerData = {
        string creator = "Reality Composer Pro Version 2.0 (494.60.2)"
    }
    defaultPrim = "%s"
    metersPerUnit = %s
    upAxis = "%s"
)
'''


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def cm_zup_layer():
    """A centimetre, Z-up layer in RCP style: nested transforms, an interactive knob whose Collider
    box (12 cm) is larger than its mesh (a 6 cm sphere), Anchoring, Accessibility, a custom
    component, an invisible prim, a faded prim and an xformOpOrder entry that is not authored."""
    return RCP_HEADER % ("Root", "0.01", "Z") + '''
def Xform "Root"
{
    double3 xformOp:translate = (100, 200, 0)
    float xformOp:rotateZ = 90
    uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateZ"]

    def RealityKitComponent "Anchoring"
    {
        uniform token info:id = "RealityKit.Anchoring"

        def RealityKitStruct "descriptor"
        {
            token type = "Plane"
            token alignment = "horizontal"
        }
    }

    def Xform "Table"
    {
        double3 xformOp:translate = (0, 0, 75)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:orient"]

        def Cube "Top"
        {
            double size = 1
            float3 xformOp:scale = (80, 120, 4)
            uniform token[] xformOpOrder = ["xformOp:scale"]
        }

        def Sphere "Knob"
        {
            double radius = 3
            double3 xformOp:translate = (10, 0, 5)
            uniform token[] xformOpOrder = ["xformOp:translate"]

            def RealityKitComponent "InputTarget"
            {
                bool allowsDirectInput = 1
                bool allowsIndirectInput = 0
                uniform token info:id = "RealityKit.InputTarget"
            }

            def RealityKitComponent "Collider"
            {
                uint group = 1
                uniform token info:id = "RealityKit.Collider"
                uint mask = 4294967295
                token type = "Default"

                def RealityKitStruct "Shape"
                {
                    float3 extent = (12, 12, 12)
                    token shapeType = "Box"

                    def RealityKitStruct "pose"
                    {
                        float3 position = (0, 0, 2)
                    }
                }
            }

            def RealityKitComponent "Accessibility"
            {
                uniform token info:id = "RealityKit.Accessibility"
                bool isEnabled = 1
                string label = "Volume knob"
            }

            def RealityKitCustomComponent "MyGame_Comfort"
            {
                uniform token info:id = "MyGame.Comfort"
                float requiredAt = 2.5
                token region = "table"
            }
        }

        def Cube "Ghost" (
            doc = "invisible: no geometry"
        )
        {
            token visibility = "invisible"
            double size = 500
        }

        def Cube "Faded"
        {
            double size = 4

            def RealityKitComponent "HierarchicalFade"
            {
                uniform token info:id = "RealityKit.HierarchicalFade"
                float opacity = 0
            }
        }

        def Cube "Shelf"
        {
            double size = 10
            double3 xformOp:translate = (0, 0, -50)
            uniform token[] xformOpOrder = ["xformOp:translate"]
        }
    }
}
'''


def part_layer(out):
    """A referenced .usdc in metres, Y-up: a 0.5 m cube standing on its origin."""
    tmp = Sdf.Layer.CreateAnonymous(".usda")
    tmp.ImportFromString(RCP_HEADER % ("Lamp", "1", "Y") + '''
def Xform "Lamp"
{
    def Cube "Shade"
    {
        double size = 0.5
        double3 xformOp:translate = (0, 0.25, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
}
''')
    tmp.Export(out)


def scene_layer(compensated=True):
    """The root: metres, Y-up; references the centimetre Z-up layer (compensated by a 0.01 scale and
    a −90° X rotation, or not), the usdc part, a variant with a prim, a payload, a deactivated prim."""
    room_xform = ('''        float xformOp:rotateX = -90
        float3 xformOp:scale = (0.01, 0.01, 0.01)
        uniform token[] xformOpOrder = ["xformOp:rotateX", "xformOp:scale"]
''' if compensated else "")
    return RCP_HEADER % ("World", "1", "Y") + '''
def Xform "World" (
    variants = {
        string mode = "night"
    }
    prepend variantSets = "mode"
)
{
    def Xform "Room" (
        prepend references = @cm_zup.usda@
    )
    {
''' + room_xform + '''
        over "Table"
        {
            over "Shelf" (
                active = false
            )
            {
            }
        }
    }

    def Xform "Lamp" (
        prepend references = @part.usdc@
    )
    {
        double3 xformOp:translate = (2, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }

    def Xform "Crate" (
        prepend payload = @payload.usda@
    )
    {
        double3 xformOp:translate = (-2, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }

    variantSet "mode" = {
        "day" {
        }
        "night" {
            def Cube "NightLight"
            {
                double size = 0.2
                double3 xformOp:translate = (0, 3, 0)
                uniform token[] xformOpOrder = ["xformOp:translate"]
            }
        }
    }
}
'''


def payload_layer():
    return RCP_HEADER % ("Crate", "1", "Y") + '''
def Xform "Crate"
{
    def Cube "Box"
    {
        double size = 0.4
        double3 xformOp:translate = (0, 0.2, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
}
'''


def animated_layer():
    """24 time codes per second, 48 codes: a cube moving 1 m along +X over 2 s."""
    return '''#usda 1.0
(
    defaultPrim = "Mover"
    metersPerUnit = 1
    upAxis = "Y"
    startTimeCode = 0
    endTimeCode = 48
    timeCodesPerSecond = 24
)

def Xform "Mover"
{
    double3 xformOp:translate.timeSamples = {
        0: (0, 0, 0),
        24: (0.5, 0, 0),
        48: (1, 0, 0),
    }
    uniform token[] xformOpOrder = ["xformOp:translate"]

    def Cube "Body"
    {
        double size = 0.2
    }
}
'''


def inputs_layer():
    """InputTarget wiring: Lone has no Collider anywhere (no input in RealityKit), Grouped's
    InputTarget covers its Body, which has the Collider (fine), Split has the Collider on the
    parent and the InputTarget on the child Body (the child has no collision shape)."""
    target = ('        def RealityKitComponent "InputTarget"\n        {\n'
              '            uniform token info:id = "RealityKit.InputTarget"\n        }\n')
    collider = ('        def RealityKitComponent "Collider"\n        {\n'
                '            uniform token info:id = "RealityKit.Collider"\n'
                '            def RealityKitStruct "Shape"\n            {\n'
                '                float3 extent = (0.1, 0.1, 0.1)\n                token shapeType = "Box"\n'
                '            }\n        }\n')
    def xform(name, x, own, body):
        return ('    def Xform "%s"\n    {\n        double3 xformOp:translate = (%g, 0, 0)\n'
                '        uniform token[] xformOpOrder = ["xformOp:translate"]\n%s'
                '        def Cube "Body"\n        {\n            double size = 0.1\n%s        }\n    }\n'
                % (name, x, own, body.replace("\n        ", "\n            ").replace("        def", "            def", 1)))
    return ('#usda 1.0\n(\n    defaultPrim = "Root"\n    metersPerUnit = 1\n    upAxis = "Y"\n)\n'
            'def Xform "Root"\n{\n' + xform("Lone", 0, target, "") + xform("Grouped", 0.5, target, collider)
            + xform("Split", 1, collider, target) + '}\n')


def make_fixtures(out):
    p = os.path.join(out, "project")
    if os.path.exists(p):
        shutil.rmtree(p)
    os.makedirs(p)
    write(os.path.join(p, "cm_zup.usda"), cm_zup_layer())
    part_layer(os.path.join(p, "part.usdc"))
    write(os.path.join(p, "payload.usda"), payload_layer())
    write(os.path.join(p, "scene.usda"), scene_layer(True))
    write(os.path.join(p, "uncompensated.usda"), scene_layer(False))
    write(os.path.join(p, "animated.usda"), animated_layer())
    write(os.path.join(p, "inputs.usda"), inputs_layer())
    # A scene with no time range of its own that references the animated layer (as a Reality
    # Composer Pro scene referencing an animated USDZ often is): its samples are its timeline.
    write(os.path.join(p, "referencing.usda"),
          '#usda 1.0\n(\n    defaultPrim = "Shelf"\n    metersPerUnit = 1\n    upAxis = "Y"\n)\n'
          'def Xform "Shelf"\n{\n    double3 xformOp:translate = (0, 1, 0)\n'
          '    uniform token[] xformOpOrder = ["xformOp:translate"]\n\n'
          '    def Xform "Product" (\n        prepend references = @animated.usda@\n    )\n    {\n    }\n}\n')
    # A usdz package of the whole scene (layers and the usdc inside).
    UsdUtils.CreateNewUsdzPackage(Sdf.AssetPath(os.path.join(p, "scene.usda")), os.path.join(p, "package.usdz"))

    # Hostile and messy files.
    h = os.path.join(p, "hostile")
    os.makedirs(h)
    data = open(os.path.join(p, "part.usdc"), "rb").read()
    open(os.path.join(h, "truncated.usdc"), "wb").write(data[: len(data) // 2])
    open(os.path.join(h, "corrupt.usdz"), "wb").write(b"PK\x03\x04" + b"\x00\xff" * 200)
    write(os.path.join(h, "syntax.usda"), '#usda 1.0\ndef Xform "A"\n{\n    float3 xformOp:translate = (1, 2\n}\n')
    piece = '#usda 1.0\n(\n    metersPerUnit = %s\n    upAxis = "%s"\n)\ndef Xform "Root"\n{\n    def Xform "%s"\n    {\n' \
            '        float3 xformOp:%s = %s\n        uniform token[] xformOpOrder = ["xformOp:%s"]\n\n' \
            '        def Cube "Mesh"\n        {\n            double size = 0.1\n        }\n    }\n}\n'
    write(os.path.join(h, "nan.usda"), piece % ("1", "Y", "NaNPiece", "translate", "(nan, 0, 0)", "translate"))
    write(os.path.join(h, "infscale.usda"), piece % ("1", "Y", "Giant", "scale", "(inf, inf, inf)", "scale"))
    write(os.path.join(h, "mpu0.usda"), piece % ("0", "Y", "Flat", "translate", "(0, 0, 0)", "translate"))
    write(os.path.join(h, "upx.usda"), piece % ("1", "X", "Sideways", "translate", "(0, 0, 0)", "translate"))
    cycle = '#usda 1.0\n(\n    defaultPrim = "%s"\n)\ndef Xform "%s" (\n    prepend references = @%s@\n)\n{\n    def Cube "Box%s"\n    {\n    }\n}\n'
    write(os.path.join(h, "cycle_a.usda"), cycle % ("A", "A", "cycle_b.usda", "A"))
    write(os.path.join(h, "cycle_b.usda"), cycle % ("B", "B", "cycle_a.usda", "B"))
    write(os.path.join(h, "missing_ref.usda"), '#usda 1.0\ndef Xform "W"\n{\n    def Cube "Here"\n    {\n    }\n    def Xform "Gone" (\n        prepend references = @not_there.usda@\n    )\n    {\n    }\n}\n')
    # Confinement: the root used by the tests is `project`; these reach outside it or into .git.
    write(os.path.join(out, "outside.usda"), '#usda 1.0\ndef Cube "Outside"\n{\n}\n')
    write(os.path.join(h, "escape", "deep", "escape.usda"),
          '#usda 1.0\n(\n    subLayers = [@../../../../outside.usda@]\n)\ndef Cube "Inside"\n{\n}\n')
    write(os.path.join(h, "escape_in_variant.usda"),
          '#usda 1.0\ndef Xform "W" (\n    variants = { string v = "a" }\n    prepend variantSets = "v"\n)\n{\n    variantSet "v" = {\n        "a" (prepend references = @../../outside.usda@) {\n        }\n    }\n}\n')
    write(os.path.join(p, ".git", "secret.usda"), '#usda 1.0\ndef Cube "Secret"\n{\n}\n')
    write(os.path.join(h, "gitref.usda"), '#usda 1.0\ndef Xform "W" (\n    prepend references = @../.git/secret.usda@\n)\n{\n}\n')
    try:
        os.symlink(os.path.join(out, "outside.usda"), os.path.join(h, "link.usda"))
    except OSError:
        pass
    write(os.path.join(h, "symlinked.usda"), '#usda 1.0\ndef Xform "W" (\n    prepend references = @link.usda@\n)\n{\n}\n')
    # A Reality Composer Pro asset folder with two top-level scenes; Knob.usda beside them is a
    # layer Scene.usda references (/Root/Mount), not a scene of its own.
    rk = os.path.join(p, "Content.rkassets")
    write(os.path.join(rk, "Scene.usda"), RCP_HEADER % ("Root", "1", "Y") + '\ndef Xform "Root"\n{\n    def Cube "Block"\n    {\n        double size = 0.3\n    }\n\n    def Xform "Mount" (\n        prepend references = @Knob.usda@\n    )\n    {\n    }\n}\n')
    write(os.path.join(rk, "Knob.usda"), RCP_HEADER % ("Knob", "1", "Y") + '\ndef Xform "Knob"\n{\n    def Cylinder "Cap"\n    {\n        double radius = 0.02\n        double height = 0.01\n    }\n}\n')
    write(os.path.join(rk, "Immersive.usda"), RCP_HEADER % ("Root", "1", "Y") + '\ndef Xform "Root"\n{\n    def Sphere "Ball"\n    {\n        double radius = 0.5\n        double3 xformOp:translate = (0, 1, -3)\n        uniform token[] xformOpOrder = ["xformOp:translate"]\n    }\n}\n')
    write(os.path.join(rk, "Materials", "Unused.usda"), '#usda 1.0\n')
    make_prims(p)


def anchoring(kind, indent="        "):
    return (indent + 'def RealityKitComponent "Anchoring"\n' + indent + '{\n'
            + indent + '    uniform token info:id = "RealityKit.Anchoring"\n'
            + indent + '    def RealityKitStruct "descriptor"\n' + indent + '    {\n'
            + indent + '        token type = "%s"\n' % kind + indent + '    }\n' + indent + '}\n')


def make_prims(p):
    """prims/Game.usda: three instances of Token.usda (each an interactive 2 cm `Body` with a 1 cm
    Collider sphere, so the three entities are Body, Body~2, Body~3 at /Root/Inst_1..3/Body, 1 m in
    front of a standing eye, each too small a target), a piece anchored to a plane
    (/Root/TablePiece) and one to an object (/Root/Statue). hostile/infcollider.usda and
    nancollider.usda: Collider sphere radius inf, Box extent with a NaN."""
    d = os.path.join(p, "prims")
    write(os.path.join(d, "Token.usda"), RCP_HEADER % ("Token", "1", "Y") + '''
def Xform "Token"
{
    def Cube "Body"
    {
        double size = 0.02

        def RealityKitComponent "InputTarget"
        {
            uniform token info:id = "RealityKit.InputTarget"
        }

        def RealityKitComponent "Collider"
        {
            uniform token info:id = "RealityKit.Collider"

            def RealityKitStruct "Shape"
            {
                float radius = 0.01
                token shapeType = "Sphere"
            }
        }
    }
}
''')
    text = RCP_HEADER % ("Root", "1", "Y") + 'def Xform "Root"\n{\n'
    for i, x in enumerate([-0.3, 0, 0.3]):
        text += ('    def Xform "Inst_%d" (\n        prepend references = @Token.usda@\n    )\n    {\n'
                 '        double3 xformOp:translate = (%g, 1.6, -1)\n'
                 '        uniform token[] xformOpOrder = ["xformOp:translate"]\n    }\n') % (i + 1, x)
    for name, kind, x in [("TablePiece", "Plane", -0.5), ("Statue", "Object", 0.5)]:
        text += ('    def Xform "%s"\n    {\n        double3 xformOp:translate = (%g, 1.2, -1.5)\n'
                 '        uniform token[] xformOpOrder = ["xformOp:translate"]\n%s'
                 '        def Cube "Mesh"\n        {\n            double size = 0.2\n        }\n    }\n') % (name, x, anchoring(kind))
    text += "}\n"
    write(os.path.join(d, "Game.usda"), text)
    collider = RCP_HEADER % ("Root", "1", "Y") + '''
def Xform "Root"
{
    def Xform "P"
    {
        def Cube "Mesh"
        {
            double size = 0.05
        }

        def RealityKitComponent "InputTarget"
        {
            uniform token info:id = "RealityKit.InputTarget"
        }

        def RealityKitComponent "Collider"
        {
            uniform token info:id = "RealityKit.Collider"

            def RealityKitStruct "Shape"
            {
                %s
            }
        }
    }
}
'''
    write(os.path.join(p, "hostile", "infcollider.usda"), collider % 'float radius = inf\n                token shapeType = "Sphere"')
    write(os.path.join(p, "hostile", "nancollider.usda"), collider % 'float3 extent = (0.1, nan, 0.1)\n                token shapeType = "Box"')


def make_bench(out, layers=60, prims_per_layer=50):
    """~3,000 prims in `layers` layers (half usdc, half usda) referenced from one RCP-style root."""
    b = os.path.join(out, "bench")
    if os.path.exists(b):
        shutil.rmtree(b)
    os.makedirs(os.path.join(b, "parts"))
    refs = []
    for i in range(layers - 1):
        text = RCP_HEADER % ("Part", "1", "Y") + 'def Xform "Part"\n{\n'
        for k in range(prims_per_layer // 2):
            text += ('    def Xform "G%d"\n    {\n        double3 xformOp:translate = (%g, %g, 0)\n'
                     '        uniform token[] xformOpOrder = ["xformOp:translate"]\n'
                     '        def Cube "C"\n        {\n            double size = 0.05\n        }\n    }\n') % (k, k * 0.1, i * 0.1)
        text += "}\n"
        name = "part%02d.%s" % (i, "usdc" if i % 2 == 0 else "usda")
        layer = Sdf.Layer.CreateAnonymous(".usda")
        layer.ImportFromString(text)
        layer.Export(os.path.join(b, "parts", name))
        refs.append(name)
    text = RCP_HEADER % ("Root", "1", "Y") + 'def Xform "Root"\n{\n'
    for i, name in enumerate(refs):
        text += ('    def Xform "P%02d" (\n        prepend references = @parts/%s@\n    )\n    {\n'
                 '        double3 xformOp:translate = (0, 0, %g)\n'
                 '        uniform token[] xformOpOrder = ["xformOp:translate"]\n'
                 '        def RealityKitComponent "InputTarget"\n        {\n'
                 '            uniform token info:id = "RealityKit.InputTarget"\n        }\n    }\n') % (i, name, -i * 0.5)
    text += "}\n"
    write(os.path.join(b, "Scene.usda"), text)
    stage = Usd.Stage.Open(os.path.join(b, "Scene.usda"))
    count = len(list(stage.TraverseAll()))
    print("bench: %d prims, %d layers" % (count, len(stage.GetUsedLayers())))


def main(argv):
    if len(argv) == 3 and argv[1] == "--bench":
        make_bench(argv[2])
    elif len(argv) == 2 and not argv[1].startswith("-"):
        make_fixtures(argv[1])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
