/// The Python program that reads USD for `USDImporter`, run as `python3 -B -c <script>
/// --memory=BYTES` (docs/architecture.md, "USD import"). It is embedded here rather than shipped
/// as a resource file so that a copied `spatialcheck` binary (`swift build -c release`) carries
/// it (and no resource bundle has to be found at run time). `Benchmarks/usd-import` shows how to
/// run it by hand: the text between the raw-string delimiters below is the program.
///
/// Protocol (one worker serves many assets): the worker writes one hello line
/// (`{"hello": 1, "usd": "26.11"}`, or `{"hello": 0, "missing": "..."}` when usd-core cannot be
/// imported), then answers each request line on standard input with exactly one response line
/// on its standard output. Requests and responses are JSON objects; file names travel inside
/// the JSON, never as command-line operands. Standard output is duplicated at start and fd 1 is
/// pointed at standard error, so nothing USD prints can corrupt a response.
///
/// Request: `{"path": ABS, "display": NAME, "root": ABS, "external": BOOL, "cpu": SECONDS}`.
/// Response: `{"ok": true, "stages": [...], "nodes": [...], "warnings": [...]}` or
/// `{"ok": false, "error": MESSAGE, "hint": HINT}`.
enum USDWorkerScript {
    static let source = #"""
import sys, os, re, json, math, threading, time, signal

sys.path[:] = [p for p in sys.path if p not in ("", ".")]  # never import from the working directory
for _v in ("PXR_AR_DEFAULT_SEARCH_PATH", "PXR_PLUGINPATH_NAME", "TF_DEBUG"):
    os.environ.pop(_v, None)

def _arg(name, default):
    for a in sys.argv[1:]:
        if a.startswith("--" + name + "="):
            return a.split("=", 1)[1]
    return default

_OUT = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
os.dup2(2, 1)
signal.signal(signal.SIGINT, signal.SIG_IGN)

def _send(obj):
    _OUT.write(json.dumps(obj, separators=(",", ":"), allow_nan=False))
    _OUT.write("\n")
    _OUT.flush()

def _confine_process():
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        mem = int(_arg("memory", "0"))
        if mem > 0:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    except Exception as e:
        sys.stderr.write("spatialcheck usd worker: could not set limits: %s\n" % e)
    parent = int(_arg("parent", "0")) or os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, 9, 0, 0, 0)  # PR_SET_PDEATHSIG, SIGKILL
        except Exception:
            pass
    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)
    threading.Thread(target=watch, daemon=True).start()

def _cpu_budget(seconds):
    try:
        import resource
        used = resource.getrusage(resource.RUSAGE_SELF)
        now = int(math.ceil(used.ru_utime + used.ru_stime))
        soft = now + max(1, int(math.ceil(seconds)))
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY and soft > hard:
            soft = hard
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    except Exception:
        pass

_confine_process()
try:
    from pxr import Usd, UsdGeom, Sdf, Ar, Gf, Tf
except Exception as e:  # ImportError, or a broken installation
    _send({"hello": 0, "missing": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")})
    sys.exit(0)
try:
    Tf.Debug.SetOutputFile(sys.__stderr__)
except Exception:
    pass
_send({"hello": 1, "usd": ".".join(str(x) for x in Usd.GetVersion())})

class Refused(Exception):
    pass

def _clean_error(e):
    """A one-line message from a Tf.ErrorException or any exception."""
    s = re.sub(r"pxrInternal_v\d+_\d+_\d+__pxrReserved__::", "", str(e)).strip()
    parts = [p for p in s.split("\n") if p.strip().strip("'")]
    msgs = []
    for p in parts:
        if " : '" in p:
            p = p.split(" : '", 1)[1].rstrip("'")
        elif " -- " in p:
            p = p.split(" -- ", 1)[1]
        p = p.strip().rstrip("'").strip()
        if p and p not in msgs:
            msgs.append(p)
    return "; ".join(msgs)[:600] or type(e).__name__

IDENTITY = Gf.Matrix4d(1)

class Job:
    kinds = {}  # prim type name -> (Imageable, Xformable, Boundable): IsA once per type

    def __init__(self, req):
        self.path = req["path"]
        self.display = req.get("display") or self.path
        self.root = os.path.realpath(req.get("root") or os.path.dirname(self.path))
        self.external = bool(req.get("external"))
        self.warnings = []
        self.base = os.path.dirname(os.path.realpath(self.path))
        self.nodes = []
        self.stages = []

    def name(self, ident):
        """How messages name a layer: relative to the asset's folder when inside the project root
        (`../_common/axis.usda` for a layer beside it), absolute only outside the root."""
        ident = str(ident)
        outer, inner = ident, None
        if Ar.IsPackageRelativePath(ident):
            outer, inner = Ar.SplitPackageRelativePathOuter(ident)
        rp = os.path.realpath(outer) if os.path.isabs(outer) else outer
        if rp.startswith(self.base + "/"):
            rp = rp[len(self.base) + 1:]
        elif os.path.isabs(rp) and self.inside(rp):
            rp = os.path.relpath(rp, self.base)
        return rp + ("[" + inner + "]" if inner else "")

    def inside(self, path):
        rp = os.path.realpath(path)
        ok = rp == self.root or rp.startswith(self.root.rstrip("/") + "/")
        return ok and ".git" not in rp.split("/")

    def check_file(self, path, dep, via):
        """Refuses a file outside the confinement root or under .git (before it is opened)."""
        if self.external:
            return
        if not self.inside(path):
            raise Refused("layer '%s' referenced from '%s' resolves to %s, which is %s; it was not read"
                          % (dep, self.name(via), os.path.realpath(path),
                             "inside a .git folder" if ".git" in os.path.realpath(path).split("/")
                             else "outside the project root " + self.root))

    def walk_layers(self, root_layer):
        """Every layer the stage composes, found by walking sublayers, references and payloads
        (variants included) before the stage is opened: refuses layers outside the root, stops at
        cycles, warns about missing or unreadable layers."""
        resolver = Ar.GetResolver()
        seen = {root_layer.identifier}
        layers = [root_layer]
        stack = [root_layer]
        while stack:
            layer = stack.pop()
            try:
                deps = sorted(layer.GetCompositionAssetDependencies())
            except Exception:
                deps = []
            for dep in deps:
                if not dep:
                    continue
                ident = Sdf.ComputeAssetPathRelativeToLayer(layer, dep)  # package-aware anchoring
                if not (os.path.isabs(ident) or Ar.IsPackageRelativePath(ident)):
                    ident = resolver.CreateIdentifier(dep, layer.resolvedPath)
                outer = ident
                if Ar.IsPackageRelativePath(ident):
                    outer = Ar.SplitPackageRelativePathOuter(ident)[0]
                if not os.path.isabs(outer):
                    outer = os.path.join(os.getcwd(), outer)
                self.check_file(outer, dep, layer.identifier)
                resolved = str(resolver.Resolve(ident))
                if not resolved:
                    self.warnings.append("referenced layer '%s' (from '%s') was not found; the stage is composed without it"
                                         % (dep, self.name(layer.identifier)))
                    continue
                if resolved in seen or ident in seen:
                    continue
                seen.add(resolved); seen.add(ident)
                try:
                    sub = Sdf.Layer.FindOrOpen(ident)
                except Exception as e:
                    sub = None
                    self.warnings.append("referenced layer '%s' (from '%s') could not be read (%s); the stage is composed without it"
                                         % (dep, self.name(layer.identifier), _clean_error(e)))
                    continue
                if sub is None:
                    self.warnings.append("referenced layer '%s' (from '%s') could not be read; the stage is composed without it"
                                         % (dep, self.name(layer.identifier)))
                    continue
                layers.append(sub)
                stack.append(sub)
        return layers

    def run(self):
        if os.path.isdir(self.path):
            files = sorted(f for f in os.listdir(self.path)
                           if f.lower().endswith((".usda", ".usdc", ".usd", ".usdz")) and not f.startswith("."))
            if not files:
                return {"ok": False, "error": "the folder has no top-level USD scene (.usda, .usdc, .usd, .usdz)",
                        "hint": "name the .rkassets folder of a Reality Composer Pro project, or one of its scenes"}
            self.nodes.append({"n": os.path.basename(self.path.rstrip("/")), "p": -1, "m": None})
            self.base = os.path.realpath(self.path)
            tops = self.top_level(files)
            if len(tops) > 1:
                folder = os.path.basename(self.path.rstrip("/"))
                self.warnings.append("the folder holds %d scenes (%s), placed together as one asset; to check or place one of them, name it (%s/%s)"
                                     % (len(tops), ", ".join(tops), folder, tops[-1]))
            for f in tops:
                self.read_stage(os.path.join(self.path, f), 0)
        else:
            self.read_stage(self.path, -1)
        return {"ok": True, "stages": self.stages, "nodes": self.nodes, "warnings": self.warnings}

    def top_level(self, files):
        """The folder's scenes: its USD files that no other file of it composes (as a sublayer,
        reference or payload). Reality Composer Pro keeps the layers a scene uses beside it
        (Scene.usda referencing Knobs.usdc); read again as scenes of their own, their content
        would stand twice, once where the scene puts it and once at the origin. Every file when
        each one is used by another (a cycle). Problems found here (a missing or refused layer)
        are reported when the scene itself is read."""
        real = {f: os.path.realpath(os.path.join(self.path, f)) for f in files}
        used = set()
        saved = list(self.warnings)
        for f in files:
            try:
                layer = Sdf.Layer.FindOrOpen(os.path.join(self.path, f))
                deps = self.walk_layers(layer)[1:] if layer is not None else []
            except Exception:
                deps = []
            for d in deps:
                rp = os.path.realpath(d.realPath) if d.realPath else ""
                used.update(g for g, r in real.items() if r == rp and g != f)
        self.warnings[:] = saved
        tops = [f for f in files if f not in used]
        return tops or files

    def read_stage(self, path, parent):
        try:
            root_layer = Sdf.Layer.FindOrOpen(path)
        except Exception as e:
            raise Failure("'%s' is not readable USD: %s" % (self.name(path), _clean_error(e).replace(os.path.realpath(path), self.name(path)).replace(path, self.name(path))))
        if root_layer is None:
            raise Failure("'%s' is not readable USD (not a USD layer or package, or a corrupt one)" % self.name(path))
        layers = self.walk_layers(root_layer)
        stage = Usd.Stage.Open(root_layer, Usd.Stage.LoadAll)
        try:
            for err in stage.GetCompositionErrors():
                msg = re.sub(r",?@anon:[^@]*@(<[^>]*>)?", "", str(err)).replace(self.base + "/", "")
                msg = " ".join(msg.split())
                self.warnings.append("composition: " + msg)
        except Exception:
            pass
        self.check_clips(stage)
        mpu_authored = stage.HasAuthoredMetadata("metersPerUnit")
        up_authored = stage.HasAuthoredMetadata("upAxis")
        mpu = float(UsdGeom.GetStageMetersPerUnit(stage))
        up = str(UsdGeom.GetStageUpAxis(stage))
        if not (math.isfinite(mpu) and mpu > 0):
            raise Failure("'%s' declares metersPerUnit %s; it must be a positive number of metres per file unit (1 for metres, 0.01 for centimetres)" % (self.name(path), mpu),
                          "set the root layer's metersPerUnit (Reality Composer Pro writes 1), or fix it in a text editor for .usda")
        if up not in ("Y", "Z"):
            raise Failure("'%s' declares upAxis \"%s\"; USD allows only \"Y\" or \"Z\" (Reality Composer Pro writes \"Y\")" % (self.name(path), up),
                          "set the root layer's upAxis to \"Y\" (or \"Z\" for Z-up content)")
        tcps = float(stage.GetTimeCodesPerSecond() or 24.0)
        has_range = stage.HasAuthoredTimeCodeRange()
        start = float(stage.GetStartTimeCode()) if has_range else 0.0
        end = float(stage.GetEndTimeCode()) if has_range else 0.0
        rest = Usd.TimeCode(start) if has_range else Usd.TimeCode.Default()
        dp = stage.GetDefaultPrim()
        self.stages.append({
            "file": self.name(path), "metersPerUnit": mpu, "metersPerUnitAuthored": bool(mpu_authored),
            "upAxis": up, "upAxisAuthored": bool(up_authored), "timeCodesPerSecond": tcps,
            "start": start, "end": end, "hasTimeRange": bool(has_range), "layers": len(layers),
            "defaultPrim": str(dp.GetPath()) if dp else None,
        })
        # The stage root: metres (×metersPerUnit) and +Y up (Z-up: −90° about X).
        s = mpu
        if up == "Z":
            conv = [s, 0, 0, 0, 0, 0, -s, 0, 0, s, 0, 0, 0, 0, 0, 1]
        else:
            conv = [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]
        stage_index = len(self.stages) - 1
        root_index = len(self.nodes)
        stem = os.path.splitext(os.path.basename(path))[0]
        self.nodes.append({"n": stem, "p": parent, "m": conv, "path": "/", "t": "", "stage": stage_index})
        self.unit_mismatch(stage, layers, mpu, up)
        self.sampled = None
        self.traverse(stage, root_index, rest, start, end, has_range)
        if not has_range and self.sampled is not None:
            # No authored startTimeCode/endTimeCode (a scene that only references an animated
            # asset often has none): the samples' own span is the timeline.
            t0, t1 = self.sampled
            self.stages[stage_index].update({"start": t0, "end": t1, "hasTimeRange": True})
            self.warnings.append("stage '%s' has no time range (startTimeCode/endTimeCode); its time-sampled transforms span time codes %g to %g, read as its timeline" % (self.name(path), t0, t1))

    def check_clips(self, stage):
        """Value clips open layers lazily during value resolution: apply the same confinement."""
        if self.external:
            return
        for prim in stage.TraverseAll():
            if not prim.HasAuthoredMetadata("clips"):
                continue
            api = Usd.ClipsAPI(prim)
            for sets in (api.GetClips() or {}).values():
                for ap in (sets.get("assetPaths") or []):
                    p = ap.resolvedPath or ap.path
                    if p and not os.path.isabs(p):
                        p = os.path.join(self.base, p)
                    if p:
                        self.check_file(p, ap.path, prim.GetStage().GetRootLayer().identifier)

    def unit_mismatch(self, stage, layers, mpu, up):
        """Layers whose own units or up axis differ from the stage's are not rescaled by USD: say so
        when the referencing prim does not compensate."""
        odd = {}
        stack_ids = set(l.identifier for l in stage.GetLayerStack(includeSessionLayers=False))
        for layer in layers[1:]:
            pr = layer.pseudoRoot
            lm = float(pr.GetInfo("metersPerUnit")) if pr.HasInfo("metersPerUnit") else None
            lu = str(pr.GetInfo("upAxis")) if pr.HasInfo("upAxis") else None
            differs = (lm is not None and abs(lm - mpu) > 1e-9 * max(lm, mpu)) or (lu is not None and lu != up)
            if not differs:
                continue
            desc = "metersPerUnit %g, upAxis %s" % (lm if lm is not None else mpu, lu or up)
            if layer.identifier in stack_ids:
                self.warnings.append("sublayer '%s' declares %s but the stage uses metersPerUnit %g, upAxis %s; USD does not convert sublayers, so its prims are shown in the stage's units and axes"
                                     % (self.name(layer.identifier), desc, mpu, up))
            else:
                odd[layer.identifier] = (lm if lm is not None else mpu, lu or up, desc)
        if not odd:
            return
        found = set()
        for prim in stage.Traverse(Usd.TraverseInstanceProxies(Usd.PrimDefaultPredicate)):
            if not (prim.HasAuthoredReferences() or prim.HasAuthoredPayloads()):
                continue
            q = Usd.PrimCompositionQuery.GetDirectReferences(prim)
            for arc in q.GetCompositionArcs():
                try:
                    ident = arc.GetTargetNode().layerStack.identifier.rootLayer.identifier
                except Exception:
                    continue
                if ident not in odd:
                    continue
                found.add(ident)
                lm, lu, desc = odd[ident]
                if self.compensated(prim, lm / mpu, lu, up):
                    continue
                self.warnings.append("layer '%s' (%s) is referenced by %s in a stage with metersPerUnit %g, upAxis %s, and %s has no compensating %s; USD does not rescale references, so RealityKit shows it as composed"
                                     % (self.name(ident), desc, prim.GetPath(), mpu, up, prim.GetPath(),
                                        " and ".join(n for n in [
                                            "scale %g" % (lm / mpu) if abs(lm / mpu - 1) > 1e-6 else "",
                                            "rotation from %s-up to %s-up" % (lu, up) if lu != up else ""] if n)))
        for ident in odd:
            if ident not in found:
                lm, lu, desc = odd[ident]
                self.warnings.append("layer '%s' declares %s, unlike the stage (metersPerUnit %g, upAxis %s); USD does not convert it"
                                     % (self.name(ident), desc, mpu, up))

    @staticmethod
    def compensated(prim, ratio, lu, up):
        if not prim.IsA(UsdGeom.Xformable):
            return abs(ratio - 1) < 1e-3 and lu == up
        m = UsdGeom.Xformable(prim).GetLocalTransformation()
        rows = [Gf.Vec3d(m[i][0], m[i][1], m[i][2]) for i in range(3)]
        for r in rows:
            if abs(r.GetLength() - ratio) > 1e-3 * ratio:
                return False
        if lu != up:
            u = Gf.Vec3d(0, 0, 1) if lu == "Z" else Gf.Vec3d(0, 1, 0)
            want = Gf.Vec3d(0, 0, 1) if up == "Z" else Gf.Vec3d(0, 1, 0)
            v = Gf.Vec3d(sum(u[k] * m[k][0] for k in range(3)), sum(u[k] * m[k][1] for k in range(3)),
                         sum(u[k] * m[k][2] for k in range(3)))
            if v.GetLength() == 0 or (v / v.GetLength() - want).GetLength() > 1e-3:
                return False
        return True

    SKIP_TYPES = {"Material", "Shader", "NodeGraph", "GeomSubset"}

    def traverse(self, stage, root_index, rest, start, end, has_range):
        pred = Usd.TraverseInstanceProxies(Usd.PrimIsActive & Usd.PrimIsDefined & Usd.PrimIsLoaded & ~Usd.PrimIsAbstract)
        rng = Usd.PrimRange(stage.GetPseudoRoot(), pred)
        it = iter(rng)
        index = {}
        pseudo = stage.GetPseudoRoot().GetPath()
        cache = UsdGeom.XformCache(rest)
        for prim in it:
            path = prim.GetPath()
            if path == pseudo:
                continue
            tname = str(prim.GetTypeName())
            parent_path = path.GetParentPath()
            pidx = root_index if parent_path == pseudo else index.get(parent_path)
            if pidx is None:
                it.PruneChildren()
                continue
            if tname.startswith("RealityKit") or tname.startswith("Preliminary_") or tname == "RCP_BehaviorsContainer":
                it.PruneChildren()
                if tname in ("RealityKitComponent", "RealityKitCustomComponent"):
                    self.nodes[pidx].setdefault("c", []).append(self.component(prim, tname, rest))
                continue
            if tname in self.SKIP_TYPES:
                it.PruneChildren()
                continue
            node = {"n": prim.GetName(), "p": pidx, "path": str(path), "t": tname}
            parent = self.nodes[pidx]
            if parent.get("hid"):
                node["hid"] = 1
            kinds = self.kinds.get(tname)
            if kinds is None:
                kinds = (prim.IsA(UsdGeom.Imageable), prim.IsA(UsdGeom.Xformable), prim.IsA(UsdGeom.Boundable))
                self.kinds[tname] = kinds
            imageable, xformable, boundable = kinds
            if imageable:
                img = UsdGeom.Imageable(prim)
                if img.GetVisibilityAttr().Get(rest) == UsdGeom.Tokens.invisible:
                    node["hid"] = 1
                pur = parent.get("pur") or None
                if pur is None:
                    own = img.GetPurposeAttr().Get(rest)
                    if own and own != UsdGeom.Tokens.default_:
                        pur = str(own)
                if pur:
                    node["pur"] = pur
            if xformable:
                xf = UsdGeom.Xformable(prim)
                m, reset = cache.GetLocalTransformation(prim)
                if reset:
                    world = cache.GetLocalToWorldTransform(prim)
                    pw = cache.GetParentToWorldTransform(prim)
                    m = world * pw.GetInverse()
                if m != IDENTITY:  # absent means identity
                    node["m"] = [*m[0], *m[1], *m[2], *m[3]]
                if xf.TransformMightBeTimeVarying():
                    times = xf.GetTimeSamples()
                    if len(times) > 1:
                        if not has_range:
                            lo, hi = float(times[0]), float(times[-1])
                            self.sampled = (lo, hi) if self.sampled is None else (min(self.sampled[0], lo), max(self.sampled[1], hi))
                        keys = []
                        for t in times[:100000]:
                            km = xf.GetLocalTransformation(Usd.TimeCode(t))
                            keys.append([t, *km[0], *km[1], *km[2], *km[3]])
                        node["k"] = keys
                        if reset:
                            self.warnings.append("%s resets the transform stack and is animated; its animation is read relative to its parent" % path)
            if boundable:
                self.geometry(prim, tname, node, rest)
            index[path] = len(self.nodes)
            self.nodes.append(node)

    def geometry(self, prim, tname, node, rest):
        b = UsdGeom.Boundable(prim)
        ea = b.GetExtentAttr()
        ext = ea.Get(rest) if ea.HasAuthoredValue() else None  # the schema fallback is not the shape's extent
        if ext is None and tname == "Cube":  # the common implicit shapes without the plugin round trip
            h = abs(float(prim.GetAttribute("size").Get(rest) or 2.0)) / 2
            ext = [(-h, -h, -h), (h, h, h)]
        elif ext is None and tname == "Sphere":
            h = abs(float(prim.GetAttribute("radius").Get(rest) or 1.0))
            ext = [(-h, -h, -h), (h, h, h)]
        if ext is None or len(ext) != 2:
            try:
                ext = UsdGeom.Boundable.ComputeExtentFromPlugins(b, rest)
            except Exception:
                ext = None
        if ext is not None and len(ext) == 2:
            lo, hi = ext[0], ext[1]
            vals = [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]
            if all(math.isfinite(v) for v in vals) and lo[0] <= hi[0] and lo[1] <= hi[1] and lo[2] <= hi[2]:
                node["b"] = vals
        tri = 0
        if tname == "Mesh":
            counts = UsdGeom.Mesh(prim).GetFaceVertexCountsAttr().Get(rest)
            if counts:
                if min(counts) >= 3:
                    tri = sum(counts) - 2 * len(counts)
                else:
                    tri = sum(c - 2 for c in counts if c >= 3)
        else:
            tri = self.IMPLICIT_TRIANGLES.get(tname, 0)
        node["tri"] = int(tri)

    # Nominal tessellations of the implicit shapes (docs/scene-format.md, "USD").
    IMPLICIT_TRIANGLES = {"Cube": 12, "Plane": 2, "Sphere": 960, "Cylinder": 124, "Cone": 62, "Capsule": 1024}

    # Components whose numbers become facts (a hit region, an anchor, an opacity, a billboard): a
    # NaN or infinite number in one is an error naming the prim, not a field silently dropped.
    MEASURED_COMPONENTS = {"RealityKit.Collider": "Collider", "RealityKit.Anchoring": "Anchoring",
                           "RealityKit.HierarchicalFade": "Opacity", "RealityKit.Billboard": "Billboard"}

    def component(self, prim, tname, rest):
        comp = {"name": prim.GetName(), "custom": tname == "RealityKitCustomComponent"}
        ident = prim.GetAttribute("info:id").Get() if prim.HasAttribute("info:id") else None
        comp["id"] = str(ident) if ident is not None else ""
        if comp["id"] in self.MEASURED_COMPONENTS:
            bad = self.nonfinite_field(prim, rest, 0)
            if bad:
                field, value = bad
                raise Failure("prim %s: its %s component's %s is %s, not a finite number"
                              % (prim.GetParent().GetPath(), self.MEASURED_COMPONENTS[comp["id"]], field, value),
                              "set a finite value in Reality Composer Pro (the %s component's %s, in the prim's units), or remove the component"
                              % (self.MEASURED_COMPONENTS[comp["id"]], field.split(".")[-1]))
        comp["fields"] = self.fields(prim, rest, 0)
        return comp

    def nonfinite_field(self, prim, rest, depth):
        """(field path, value as text) of the first authored number that is NaN or infinite in a
        component prim and its structs, else None."""
        def bad(v):
            if isinstance(v, bool):
                return False
            if isinstance(v, (int, float)):
                return not math.isfinite(float(v))
            if isinstance(v, (str, Sdf.AssetPath)):
                return False
            try:
                return any(bad(x) for x in list(v)[:1024])
            except TypeError:
                return False
        for attr in prim.GetAttributes():
            if attr.GetName() == "info:id" or not attr.HasAuthoredValue():
                continue
            v = attr.Get(rest)
            if v is not None and bad(v):
                return (attr.GetName(), str(v)[:64])
        if depth < 8:
            for child in prim.GetChildren():
                found = self.nonfinite_field(child, rest, depth + 1)
                if found:
                    return (child.GetName() + "." + found[0], found[1])
        return None

    def fields(self, prim, rest, depth):
        out = []
        for attr in prim.GetAttributes():
            name = attr.GetName()
            if name == "info:id" or not attr.HasAuthoredValue():
                continue
            v = self.value(attr.Get(rest))
            if v is not None:
                out.append([name, v])
        if depth < 8:
            for child in prim.GetChildren():
                out.append([child.GetName(), {"struct": self.fields(child, rest, depth + 1)}])
        for rel in prim.GetRelationships():
            targets = rel.GetTargets()
            if targets:
                out.append([rel.GetName(), [str(t) for t in targets[:32]]])
        return out

    def value(self, v):
        if v is None:
            return None
        if isinstance(v, bool):
            return v
        if isinstance(v, (int, float)):
            f = float(v)
            return f if math.isfinite(f) else None
        if isinstance(v, str):
            return v[:4096]
        if isinstance(v, Sdf.AssetPath):
            return v.path[:4096]
        if isinstance(v, (Gf.Quatf, Gf.Quatd, Gf.Quath)):
            im = v.GetImaginary()
            return [float(v.GetReal()), float(im[0]), float(im[1]), float(im[2])]
        if isinstance(v, (Gf.Matrix4d, Gf.Matrix4f)):
            return [float(v[i][j]) for i in range(4) for j in range(4)]
        try:
            seq = list(v)[:1024]
        except TypeError:
            return str(v)[:4096]
        out = []
        for x in seq:
            y = self.value(x)
            if y is None:
                return None
            out.append(y)
        return out

class Failure(Exception):
    def __init__(self, message, hint=None):
        Exception.__init__(self, message)
        self.hint = hint

_FIELDS = {"m": "its transform", "k": "its animation keys", "b": "its extent", "c": "a component"}

def _nonfinite(resp):
    """(prim path, what) of the first node holding a number that is not finite, else None."""
    def bad(x):
        if isinstance(x, float):
            return not math.isfinite(x)
        if isinstance(x, (list, tuple)):
            return any(bad(y) for y in x)
        if isinstance(x, dict):
            return any(bad(y) for y in x.values())
        return False
    for node in (resp or {}).get("nodes") or []:
        for key, value in node.items():
            if bad(value):
                return (node.get("path") or node.get("n") or "?", _FIELDS.get(key, "'%s'" % key))
    return None

def _handle(req):
    job = Job(req)
    try:
        old = os.getcwd()
    except Exception:
        old = None
    try:
        os.chdir(job.root)  # a search-path asset resolves inside the root, never the caller's folder
    except Exception:
        pass
    try:
        return job.run()
    except Refused as e:
        return {"ok": False, "error": str(e), "hint": "keep every layer of the asset inside the project, or pass --allow-external-assets if the files are trusted", "refused": True}
    except Failure as e:
        return {"ok": False, "error": str(e), "hint": e.hint or "check that the file opens in usdview or Reality Composer Pro; re-export it if it does not"}
    except MemoryError:
        return {"ok": False, "error": "the USD reader ran out of its memory limit", "memory": True}
    finally:
        if old:
            try:
                os.chdir(old)
            except Exception:
                pass

for _line in sys.stdin:
    _line = _line.strip()
    if not _line:
        continue
    try:
        _req = json.loads(_line)
        _cpu_budget(float(_req.get("cpu") or 60))
        _resp = _handle(_req)
    except MemoryError:
        _resp = {"ok": False, "error": "the USD reader ran out of its memory limit", "memory": True}
    except Exception as e:
        _resp = {"ok": False, "error": "the USD reader failed: %s" % _clean_error(e)}
    try:
        _send(_resp)
    except (ValueError, TypeError) as e:
        _where = _nonfinite(_resp)
        if _where:
            _send({"ok": False, "error": "prim %s holds a number that is not finite (NaN or infinity) in %s" % _where,
                   "hint": "fix the value in the layer: a NaN, an infinity or a scale that overflows cannot be placed or measured"})
        else:
            _send({"ok": False, "error": "the USD reader produced an unencodable result: %s" % e})
    _resp = None
"""#
}
