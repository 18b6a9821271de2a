# gpuwiz's wheel installer asks the venv's own pip for two things it must do exactly as pip does:
#   paths    -> the install scheme pip would use in this environment (JSON on stdout)
#   scripts FILE -> make the entry-point launchers of each dist with pip's ScriptMaker (the jobs as
#               JSON in FILE, the files made, per dist, as JSON on stdout), so Windows gets pip's .exe launchers.
#   serve    -> both from one process kept running through an install: the scheme at once (one line),
#               then pip's launcher maker is imported while the caller works, then each line of jobs
#               on stdin (UTF-8 JSON) gets its answer (one line), until the end of input.
import json, os, sys

# An environment without pip of its own: gpuwiz's own pip (an unpacked pip wheel), after its own paths.
if os.environ.get("GPUWIZ_OWN_PIP"):
    sys.path.append(os.environ["GPUWIZ_OWN_PIP"])

def scheme(name):
    try:
        from pip._internal.locations import get_scheme
        s = get_scheme(name)
        return {"purelib": s.purelib, "platlib": s.platlib, "scripts": s.scripts, "data": s.data, "headers": s.headers}
    except Exception:
        import sysconfig
        p = sysconfig.get_paths()
        return {"purelib": p["purelib"], "platlib": p["platlib"], "scripts": p["scripts"], "data": p["data"], "headers": ""}

def paths():
    out = scheme("gpuwiz-probe")
    out["executable"] = sys.executable
    out["umask"] = os.umask(0o022); os.umask(out["umask"])
    return out

def maker_for(scripts_dir):
    try:
        from pip._internal.operations.install.wheel import PipScriptMaker as Maker, get_console_script_specs as specs
    except Exception:
        from pip._vendor.distlib.scripts import ScriptMaker as Maker
        specs = lambda console: ["%s = %s" % kv for kv in console.items()]
    m = Maker(None, scripts_dir)
    m.clobber = True
    m.variants = {""}
    m.set_mode = True
    return m, specs

def make(jobs):
    out = []
    for j in jobs:
        m, specs = maker_for(j["scripts_dir"])
        made = m.make_multiple(specs(j.get("console") or {}))
        made += m.make_multiple(["%s = %s" % kv for kv in (j.get("gui") or {}).items()], {"gui": True})
        out.append(made)
    return out

if sys.argv[1] == "paths":
    print(json.dumps(paths()))
elif sys.argv[1] == "scripts":
    with open(sys.argv[2], encoding="utf-8") as f:
        print(json.dumps(make(json.load(f))))
elif sys.argv[1] == "serve":
    print(json.dumps(paths()), flush=True)
    maker_for(os.devnull)  # imports pip's maker now (a fraction of a second), before it is asked for
    while True:  # one answer a line of jobs, until the end of input
        line = sys.stdin.buffer.readline()
        if not line:
            break
        if line.strip():
            print(json.dumps(make(json.loads(line.decode("utf-8")))), flush=True)
