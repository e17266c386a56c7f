"""The build backend (PEP 517, PEP 660) of arborist-client, standard library only.

Why it exists: `pip install ./lib/sdk/python` builds in an isolated environment with what [build-system] requires;
with setuptools that means a download, which fails offline. This backend requires nothing, so the install works with
no package index at all (`pip install --no-index ./lib/sdk/python`).

What it builds, from pyproject.toml's [project] (name, version, description, readme, requires-python): a wheel holding
the one module arborist_client.py (pure Python, py3-none-any), an editable wheel (a .pth pointing at this folder) and
an sdist (the module, README.md, the examples, pyproject.toml and this file), each reproducible (fixed timestamps).
Not a general backend: no packages, no dependencies, no compiled code.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

# the folder holding pyproject.toml: hooks run with it as the working directory (PEP 517)
ROOT = Path(os.getcwd())
MODULE = "arborist_client.py"
# zip timestamps cannot precede 1980; a fixed one makes the same source give the same wheel
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def _project() -> Dict[str, str]:
    """[project] from pyproject.toml, with tomllib when the Python has it, else read line by line (plain strings)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        return _project_without_tomllib(text)
    table = tomllib.loads(text).get("project", {})
    return {key: value for key, value in table.items() if isinstance(value, str)}


def _project_without_tomllib(text: str) -> Dict[str, str]:
    project: Dict[str, str] = {}
    section = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]").strip()
            continue
        match = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(#.*)?$', line)
        if section == "project" and match:
            project[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
    return project


def _names() -> Tuple[Dict[str, str], str, str]:
    """The project, its name as file names spell it (arborist_client) and its version."""
    project = _project()
    return project, re.sub(r"[-_.]+", "_", project["name"]).lower(), project["version"]


def _metadata(project: Dict[str, str]) -> str:
    """Core metadata 2.1 (METADATA in a wheel, PKG-INFO in an sdist)."""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}"]
    if project.get("description"):
        lines.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        lines.append(f"Requires-Python: {project['requires-python']}")
    readme = ROOT / project.get("readme", "README.md")
    body = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    if body:
        lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + body


def _dist_info(project: Dict[str, str], dist: str, version: str) -> List[Tuple[str, bytes]]:
    info = f"{dist}-{version}.dist-info"
    wheel = ("Wheel-Version: 1.0\nGenerator: arborist-client _build/backend.py\nRoot-Is-Purelib: true\n"
             "Tag: py3-none-any\n")
    return [(f"{info}/METADATA", _metadata(project).encode("utf-8")), (f"{info}/WHEEL", wheel.encode("utf-8"))]


def _write_wheel(directory: str, files: List[Tuple[str, bytes]]) -> str:
    project, dist, version = _names()
    files = files + _dist_info(project, dist, version)
    record_name = f"{dist}-{version}.dist-info/RECORD"
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{record_name},,")
    files.append((record_name, ("\n".join(record) + "\n").encode("utf-8")))
    filename = f"{dist}-{version}-py3-none-any.whl"
    os.makedirs(directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            entry = zipfile.ZipInfo(name, ZIP_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return filename


# --- the hooks -----------------------------------------------------------------------------------------------------


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []  # the point of this backend: nothing to download


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_editable(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    project, dist, version = _names()
    for name, data in _dist_info(project, dist, version):
        path = Path(metadata_directory) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return f"{dist}-{version}.dist-info"


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None,
                metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, [(MODULE, (ROOT / MODULE).read_bytes())])


def build_editable(wheel_directory: str, config_settings: Optional[dict] = None,
                   metadata_directory: Optional[str] = None) -> str:
    # a .pth line puts this folder on sys.path: the installed module is the file being edited
    _, dist, _ = _names()
    return _write_wheel(wheel_directory, [(f"__editable__.{dist}.pth", (str(ROOT.resolve()) + "\n").encode("utf-8"))])


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    project, dist, version = _names()
    base = f"{dist}-{version}"
    sources = ["pyproject.toml", "README.md", MODULE, "_build/backend.py"]
    sources += sorted(f"examples/{p.name}" for p in (ROOT / "examples").glob("*.py"))
    files = [(name, (ROOT / name).read_bytes()) for name in sources if (ROOT / name).is_file()]
    files.append(("PKG-INFO", _metadata(project).encode("utf-8")))
    filename = f"{base}.tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    with open(os.path.join(sdist_directory, filename), "wb") as out, \
            gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as zipped, \
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in sorted(files):
            entry = tarfile.TarInfo(f"{base}/{name}")
            entry.size, entry.mode, entry.mtime = len(data), 0o644, 0
            tar.addfile(entry, io.BytesIO(data))
    return filename
