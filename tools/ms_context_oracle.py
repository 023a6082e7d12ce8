"""Write tests/api/data/context.json with real MindSpore 2.10:  /work/msvenv/bin/python tools/ms_context_oracle.py
For each (key, value) of tests/api/cases/context_cases.py: set_context's exception (type, message) or the value
get_context returns afterwards."""
import importlib.util
import json
import os
import tempfile
from pathlib import Path

import mindspore as ms

ROOT = Path(__file__).resolve().parents[1]


def load_cases():
    spec = importlib.util.spec_from_file_location("context_cases", ROOT / "tests/api/cases/context_cases.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CASES


def main():
    out = {}
    os.chdir(tempfile.mkdtemp())
    for key, src in load_cases():
        entry = {}
        try:
            ms.set_context(**{key: eval(src)})  # noqa: S307 - our own case table
            try:
                got = ms.get_context(key)
                entry = {"ok": got if isinstance(got, (int, float, str, bool, dict, type(None))) else repr(got)}
            except Exception as exc:  # noqa: BLE001
                entry = {"ok_get_raises": type(exc).__name__}
        except Exception as exc:  # noqa: BLE001
            entry = {"raises": type(exc).__name__, "message": str(exc).splitlines()[0][:200]}
        out[f"{key}={src}"] = entry
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests/api/data/context.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path} ({len(out)} cases)")


if __name__ == "__main__":
    main()
