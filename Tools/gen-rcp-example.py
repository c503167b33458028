#!/usr/bin/env python3
"""Writes the Reality Composer Pro-style content of the USD example scenes (needs usd-core).

    Tools/gen-rcp-example.py            # rewrites Scenes/assets/rcp-mixer{,-tight}/

Each folder is what an Xcode visionOS template's `RealityKitContent.rkassets` would hold for a
small mixing-desk app: `Scene.usda` (the volume: a desk with a row of gain knobs and a fader),
`Immersive.usda` (the immersive space: a stage with speakers and a cue light), `Knobs.usdc` (a
referenced binary layer with the knobs: InputTarget, Collider, Accessibility) and `Fader_cm.usda`
(a layer authored in centimetres, Z-up, referenced with a compensating 0.01 scale and −90° X
rotation, as RCP users do when they import a DCC asset). The output is committed; rerun the
script after changing it and then `Tools/update-goldens rcp-mixer rcp-mixer-tight`.

rcp-mixer-tight: 2.4 cm knobs (2 cm tall) 3.2 cm apart, a 2.4 cm fader handle (a faithful copy
                 of a hardware desk).
rcp-mixer:       8 cm knobs (4 cm tall) 11 cm apart, an 8 cm fader handle (sized for eyes).
"""
import os
import shutil

from pxr import Sdf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = '''#usda 1.0
(
    customLayerData = {
        string creator = "Reality Composer Pro Version 2.0 (494.60.2)"
    }
    defaultPrim = "%s"
    metersPerUnit = %s
    upAxis = "%s"
)
'''


def knob(name, x, radius, height, label):
    return '''
    def Cylinder "%s"
    {
        uniform token axis = "Y"
        double height = %g
        double radius = %g
        float3 xformOp:translate = (%g, %g, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]

        def RealityKitComponent "InputTarget"
        {
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
                float3 extent = (%g, %g, %g)
                token shapeType = "Box"

                def RealityKitStruct "pose"
                {
                    float3 position = (0, 0, 0)
                }
            }
        }

        def RealityKitComponent "Accessibility"
        {
            uniform token info:id = "RealityKit.Accessibility"
            bool isEnabled = 1
            string label = "%s"
        }
    }
''' % (name, height, radius, x, height / 2, 2 * radius, height, 2 * radius, label)


def knobs_layer(radius, height, spacing):
    text = HEADER % ("KnobRow", "1", "Y") + '\ndef Xform "KnobRow"\n{'
    for i in range(4):
        text += knob("Gain%d" % (i + 1), (i - 1.5) * spacing, radius, height, "Gain, channel %d" % (i + 1))
    return text + "}\n"


def fader_layer(handle_cm):
    # Centimetres, Z-up: a 4 × 20 cm track along −Y (away from the player) and a handle on it.
    return HEADER % ("Fader", "0.01", "Z") + '''
def Xform "Fader"
{
    def Cube "Track"
    {
        double size = 1
        float3 xformOp:scale = (4, 20, 1)
        float3 xformOp:translate = (0, 0, 0.5)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
    }

    def Cube "Handle"
    {
        double size = %g
        float3 xformOp:translate = (0, 4, %g)
        uniform token[] xformOpOrder = ["xformOp:translate"]

        def RealityKitComponent "InputTarget"
        {
            uniform token info:id = "RealityKit.InputTarget"
        }

        def RealityKitComponent "Collider"
        {
            uniform token info:id = "RealityKit.Collider"

            def RealityKitStruct "Shape"
            {
                float3 extent = (%g, %g, %g)
                token shapeType = "Box"
            }
        }

        def RealityKitComponent "Accessibility"
        {
            uniform token info:id = "RealityKit.Accessibility"
            string label = "Master volume"
        }
    }
}
''' % (handle_cm, 1 + handle_cm / 2, handle_cm, handle_cm, handle_cm)


def scene_layer(fader_x):
    return HEADER % ("Root", "1", "Y") + '''
def Xform "Root"
{
    def Cube "Desk"
    {
        double size = 1
        float3 xformOp:scale = (0.7, 0.04, 0.35)
        float3 xformOp:translate = (0, 0.02, 0)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
    }

    def Xform "Knobs" (
        prepend references = @Knobs.usdc@
    )
    {
        float3 xformOp:translate = (-0.08, 0.04, 0.06)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }

    def Xform "Fader" (
        prepend references = @Fader_cm.usda@
    )
    {
        float3 xformOp:translate = (%g, 0.04, 0.02)
        float xformOp:rotateX = -90
        float3 xformOp:scale = (0.01, 0.01, 0.01)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateX", "xformOp:scale"]
    }

    def RealityKitComponent "GroundingShadow"
    {
        bool enableIBLShadow = 1
        bool enableMeshShadow = 1
        uniform token info:id = "RealityKit.GroundingShadow"
    }
}
''' % fader_x


def immersive_layer():
    return HEADER % ("Root", "1", "Y") + '''
def Xform "Root"
{
    def RealityKitComponent "Anchoring"
    {
        uniform token info:id = "RealityKit.Anchoring"

        def RealityKitStruct "descriptor"
        {
            matrix4d transform = ( (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1) )
        }
    }

    def Cylinder "Stage"
    {
        uniform token axis = "Y"
        double height = 0.1
        double radius = 2
        float3 xformOp:translate = (0, 0.05, -4)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }

    def Cube "SpeakerLeft"
    {
        double size = 1
        float3 xformOp:scale = (0.5, 1.2, 0.5)
        float3 xformOp:translate = (-1.8, 0.6, -4)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
    }

    def Cube "SpeakerRight"
    {
        double size = 1
        float3 xformOp:scale = (0.5, 1.2, 0.5)
        float3 xformOp:translate = (1.8, 0.6, -4)
        uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:scale"]
    }

    def Sphere "CueLight"
    {
        double radius = 0.2
        float3 xformOp:translate = (0, 1.6, -3.6)
        uniform token[] xformOpOrder = ["xformOp:translate"]

        def RealityKitComponent "InputTarget"
        {
            uniform token info:id = "RealityKit.InputTarget"
            bool allowsDirectInput = 0
        }

        def RealityKitComponent "Collider"
        {
            uniform token info:id = "RealityKit.Collider"

            def RealityKitStruct "Shape"
            {
                float radius = 0.2
                token shapeType = "Sphere"
            }
        }
    }
}
'''


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def project(name, knob_radius, knob_height, knob_spacing, handle_cm, fader_x):
    rk = os.path.join(ROOT, "Scenes", "assets", name, "RealityKitContent.rkassets")
    if os.path.exists(rk):
        shutil.rmtree(rk)
    os.makedirs(rk)
    write(os.path.join(rk, "Scene.usda"), scene_layer(fader_x))
    write(os.path.join(rk, "Immersive.usda"), immersive_layer())
    write(os.path.join(rk, "Fader_cm.usda"), fader_layer(handle_cm))
    layer = Sdf.Layer.CreateAnonymous(".usda")
    layer.ImportFromString(knobs_layer(knob_radius, knob_height, knob_spacing))
    layer.Export(os.path.join(rk, "Knobs.usdc"))


if __name__ == "__main__":
    project("rcp-mixer-tight", 0.012, 0.02, 0.032, 2.4, 0.12)
    project("rcp-mixer", 0.04, 0.04, 0.11, 8, 0.26)
