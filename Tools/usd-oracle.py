#!/usr/bin/env python3
"""usd-core as an independent oracle for the USD importer's tests.

    Tools/usd-oracle.py FILE

Prints JSON: the stage's metersPerUnit and upAxis, and for every imageable prim its world origin
and world-aligned bounds (UsdGeom.XformCache / UsdGeom.BBoxCache at the start time code, purposes
default and render) converted to metres, +Y up, plus the whole stage's bounds. Independent of
spatialcheck's worker: it uses usd-core's own caches instead of composing local transforms.
"""
import json
import sys

from pxr import Usd, UsdGeom, Gf


def main(path):
    stage = Usd.Stage.Open(path, Usd.Stage.LoadAll)
    mpu = UsdGeom.GetStageMetersPerUnit(stage)
    up = UsdGeom.GetStageUpAxis(stage)
    time = Usd.TimeCode(stage.GetStartTimeCode()) if stage.HasAuthoredTimeCodeRange() else Usd.TimeCode.Default()

    def convert(p):
        x, y, z = p[0] * mpu, p[1] * mpu, p[2] * mpu
        return [x, z, -y] if up == "Z" else [x, y, z]

    def aligned(rng):
        if rng.IsEmpty():
            return None
        lo, hi = rng.GetMin(), rng.GetMax()
        pts = [convert((lo[0] if i & 1 == 0 else hi[0], lo[1] if i & 2 == 0 else hi[1], lo[2] if i & 4 == 0 else hi[2]))
               for i in range(8)]
        return {"min": [min(p[k] for p in pts) for k in range(3)], "max": [max(p[k] for p in pts) for k in range(3)]}

    xc = UsdGeom.XformCache(time)
    bc = UsdGeom.BBoxCache(time, [UsdGeom.Tokens.default_, UsdGeom.Tokens.render], useExtentsHint=False)
    prims = {}
    for prim in stage.Traverse(Usd.TraverseInstanceProxies(Usd.PrimDefaultPredicate)):
        if not prim.IsA(UsdGeom.Imageable):
            continue
        m = xc.GetLocalToWorldTransform(prim)
        origin = convert(m.ExtractTranslation())
        prims[str(prim.GetPath())] = {
            "origin": origin,
            "bounds": aligned(bc.ComputeWorldBound(prim).ComputeAlignedRange()),
        }
    out = {
        "metersPerUnit": mpu,
        "upAxis": up,
        "bounds": aligned(bc.ComputeWorldBound(stage.GetPseudoRoot()).ComputeAlignedRange()),
        "prims": prims,
    }
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1])
